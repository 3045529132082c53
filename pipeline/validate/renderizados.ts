/**
 * A series' CSVs as a run renders them beside its JSON, in the same set (site/assemble.ts
 * renderSerieFiles): each line is held to the JSON history it comes from, day and value, without
 * parsing the CSV field by field or rendering it again (at 30 years that was most of a build).
 * Files read from disk (npm run validate) and sets built by hand get the full checks of ./csv.ts
 * and ./dados.ts instead.
 */
import { mostrar, type Problema } from "../contract/messages.ts";
import type { HistoricoEntry } from "../domain/publicados.ts";
import { COLUNAS_PRACAS, colunasHistorico } from "../render/csv.ts";

export type TabelaRenderizada = "historico" | "pracas";

const at = (n: number) => `linha ${n}`;

/**
 * One rendered CSV (or Excel-BR variant) of a series against the series' history: its header,
 * one line per day (per praça per day) in order, each starting with that day and value. The text
 * is walked in place, not split: at 30 years a series' files are hundreds of thousands of lines.
 */
export function checarRenderizado(text: string, historico: readonly HistoricoEntry[], tabela: TabelaRenderizada, excel: boolean): Problema[] {
  const problemas: Problema[] = [];
  const fim = excel ? "\r\n" : "\n";
  const sep = excel ? ";" : ",";
  let pos = 0;
  if (excel) {
    if (text.startsWith("\ufeff")) pos = 1;
    else problemas.push({ ponteiro: at(1), mensagem: "a variante para o Excel deve começar com BOM" });
  } else if (text.includes("\r")) problemas.push({ ponteiro: "", mensagem: "quebras de linha CRLF/CR: use apenas LF (\\n)" });
  if (!text.endsWith(fim)) return [...problemas, { ponteiro: "", mensagem: `a última linha deve terminar com ${excel ? "CRLF" : "\\n"}` }];
  const num = (v: number) => (excel ? String(v).replace(".", ",") : String(v));
  const cab = (tabela === "historico" ? colunasHistorico(historico) : COLUNAS_PRACAS).join(sep) + fim;
  if (!text.startsWith(cab, pos)) problemas.push({ ponteiro: at(1), mensagem: `cabeçalho deve ser ${mostrar(cab.trim())} (recebido ${mostrar(text.slice(pos, text.indexOf("\n", pos)).trim())})` });
  pos = text.indexOf(fim, pos) + fim.length;
  let n = 1;
  let erradas = 0;
  let faltaram = 0;
  // the next line must begin with `inicio` and then a separator or its end; with `meio`, contain it
  const esperar = (inicio: string, meio?: string) => {
    n++;
    if (pos >= text.length) {
      faltaram++;
      return;
    }
    const quebra = text.indexOf(fim, pos);
    const depois = text.charCodeAt(pos + inicio.length);
    const ok =
      text.startsWith(inicio, pos) &&
      (pos + inicio.length === quebra || depois === sep.charCodeAt(0)) &&
      (meio === undefined || (text.indexOf(meio, pos) >= 0 && text.indexOf(meio, pos) < quebra)) &&
      // no stray line break inside the line (an Excel line ends in CRLF, its LF right after the CR)
      text.indexOf("\n", pos) === (excel ? quebra + 1 : quebra);
    if (!ok && erradas++ < 5) {
      problemas.push({ ponteiro: at(n), mensagem: `${mostrar(text.slice(pos, quebra))} não é o dia do histórico do JSON (${mostrar(inicio)}${meio ? `, ${mostrar(meio)}` : ""})` });
    }
    pos = quebra + fim.length;
  };
  let esperadas = 0;
  if (tabela === "historico") {
    for (const e of historico) esperar(`${e.data}${sep}${num(e.valor)}`);
    esperadas = historico.length;
  } else {
    for (const e of historico) {
      for (const p in e.pracas ?? {}) {
        esperar(e.data, `${sep}${num(e.pracas![p]!)}${sep}`);
        esperadas++;
      }
    }
  }
  if (pos < text.length) {
    let mais = 0;
    for (let i = pos; i < text.length; i = text.indexOf(fim, i) + fim.length) mais++;
    problemas.push({ ponteiro: "", mensagem: `tem ${esperadas + mais} linhas de dados, mas o histórico do JSON dá ${esperadas}` });
  } else if (faltaram > 0) {
    problemas.push({ ponteiro: "", mensagem: `tem ${esperadas - faltaram} linhas de dados, mas o histórico do JSON dá ${esperadas}` });
  }
  return problemas;
}
