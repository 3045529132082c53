/**
 * A series' CSVs as a run renders them beside its JSON, in the same set (site/assemble.ts
 * renderSerieFiles): each line is held to the JSON history it comes from, day and value, without
 * parsing the CSV field by field or rendering it again (at 30 years that was most of a build).
 * Files read from disk (npm run validate) and sets built by hand get the full checks of ./csv.ts
 * and ./dados.ts instead.
 */
import { mostrar, type Problema } from "../contract/messages.ts";
import type { HistoricoEntry } from "../domain/publicados.ts";
import { COLUNAS_NUMERICAS, COLUNAS_PRACAS, colunasHistorico } from "../render/csv.ts";
import { camposCsv } from "./csv.ts";

export type TabelaRenderizada = "historico" | "pracas";

const at = (n: number) => `linha ${n}`;

/**
 * One rendered CSV (or Excel-BR variant) of a series against the series' history: its header,
 * then one line per day (per praça per day) in order, every field of it the entry's (day, value,
 * unit, the other columns, the praça's name), read with a split where no field is quoted. The
 * text is walked in place: at 30 years a series' files are hundreds of thousands of lines.
 */
export function checarRenderizado(text: string, historico: readonly HistoricoEntry[], tabela: TabelaRenderizada, excel: boolean, unidade: string): Problema[] {
  const problemas: Problema[] = [];
  const fim = excel ? "\r\n" : "\n";
  const sep = excel ? ";" : ",";
  let pos = 0;
  if (excel) {
    if (text.startsWith("\ufeff")) pos = 1;
    else problemas.push({ ponteiro: at(1), mensagem: "a variante para o Excel deve começar com BOM" });
  } else if (text.includes("\r")) problemas.push({ ponteiro: "", mensagem: "quebras de linha CRLF/CR: use apenas LF (\\n)" });
  if (!text.endsWith(fim)) return [...problemas, { ponteiro: "", mensagem: `a última linha deve terminar com ${excel ? "CRLF" : "\\n"}` }];
  const colunas = tabela === "historico" ? colunasHistorico(historico) : [...COLUNAS_PRACAS];
  const numerica = colunas.map((c) => COLUNAS_NUMERICAS.has(c));
  const celula = (v: unknown, i: number) => {
    const s = v === undefined ? "" : String(v);
    return excel && numerica[i] ? s.replace(".", ",") : s;
  };
  let n = 0;
  let erradas = 0;
  let faltaram = 0;
  const esperar = (campos: string[]) => {
    n++;
    if (pos >= text.length) {
      faltaram++;
      return;
    }
    const quebra = text.indexOf(fim, pos);
    const linha = text.slice(pos, quebra);
    pos = quebra + fim.length;
    const lidos = linha.includes('"') ? camposCsv(linha, sep) : linha.split(sep);
    const ok = lidos !== null && !linha.includes("\n") && lidos.length === campos.length && campos.every((c, i) => c === lidos[i]);
    if (!ok && erradas++ < 5) {
      problemas.push({ ponteiro: at(n), mensagem: `${mostrar(linha)} não é a linha que o histórico do JSON dá (${mostrar(campos.join(sep))})` });
    }
  };
  esperar(colunas);
  let esperadas = 0;
  if (tabela === "historico") {
    const extras = colunas.slice(3);
    for (const e of historico) {
      const rec = e as unknown as Record<string, unknown>;
      esperar([e.data, celula(e.valor, 1), unidade, ...extras.map((k, i) => celula(rec[k], i + 3))]);
    }
    esperadas = historico.length;
  } else {
    for (const e of historico) {
      for (const p in e.pracas ?? {}) {
        esperar([e.data, p, celula(e.pracas![p], 2), unidade]);
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
