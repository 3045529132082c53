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
  // The fast path: the expected line spelled in place against the text, field by field, without
  // building it. Only fields that split and quoting cannot change (numbers, and text without
  // quotes, separators or line breaks) are spelled this way, so a line that matches is one that
  // `esperar` would accept; anything else, or any difference, goes through `esperar`, which
  // decides and words the problem exactly as before.
  const sepCode = sep.charCodeAt(0);
  let q = 0;
  /** the text at q is s, then q moves past it */
  const texto = (s: string): boolean => {
    if (!text.startsWith(s, q)) return false;
    q += s.length;
    return true;
  };
  /** the text at q is the number as the cell spells it (first '.' as ',' in Excel's numeric columns) */
  const numero = (v: number, virgula: boolean): boolean => {
    const c = Math.round(Math.abs(v) * 100);
    if (c / 100 === Math.abs(v) && c < 1e15) return centavos(v < 0, c, virgula);
    const s = String(v);
    if (!virgula) return texto(s);
    let trocou = false;
    for (let i = 0; i < s.length; i++) {
      let c = s.charCodeAt(i);
      if (c === 46 && !trocou) {
        c = 44;
        trocou = true;
      }
      if (text.charCodeAt(q + i) !== c) return false;
    }
    q += s.length;
    return true;
  };
  /**
   * `numero` for a value of whole cents below 10^13: String(v) is then its integer part and
   * its cents without trailing zeros (a decimal of at most 15 digits is the shortest spelling of
   * the double nearest it), so the digits are read from the text instead of converting every
   * price to a string.
   */
  const centavos = (negativo: boolean, c: number, virgula: boolean): boolean => {
    let i = q;
    if (negativo) {
      if (text.charCodeAt(i) !== 45) return false;
      i++;
    }
    const inteiro = Math.floor(c / 100);
    const inicio = i;
    let lido = 0;
    for (let d = text.charCodeAt(i) - 48; d >= 0 && d <= 9 && i - inicio < 16; d = text.charCodeAt(++i) - 48) lido = lido * 10 + d;
    // one digit "0" at most before the point, as String writes it
    if (lido !== inteiro || i === inicio || (text.charCodeAt(inicio) === 48 && i - inicio > 1)) return false;
    const cents = c - inteiro * 100;
    if (cents !== 0) {
      if (text.charCodeAt(i) !== (virgula ? 44 : 46)) return false;
      const dezena = Math.floor(cents / 10);
      const ultimo = cents - dezena * 10;
      if (text.charCodeAt(i + 1) !== 48 + dezena) return false;
      i += 2;
      if (ultimo !== 0) {
        if (text.charCodeAt(i) !== 48 + ultimo) return false;
        i++;
      }
    }
    q = i;
    return true;
  };
  const separador = (): boolean => text.charCodeAt(q++) === sepCode;
  const fimDeLinha = (): boolean => {
    if (excel ? text.charCodeAt(q) !== 13 || text.charCodeAt(q + 1) !== 10 : text.charCodeAt(q) !== 10) return false;
    q += fim.length;
    return true;
  };
  const limpos = new Map<string, boolean>();
  const limpo = (s: string): boolean => {
    let l = limpos.get(s);
    if (l === undefined) {
      l = !/[",;\n\r]/.test(s);
      if (limpos.size < 10_000) limpos.set(s, l);
    }
    return l;
  };
  const dataLimpa = (d: unknown): d is string => typeof d === "string" && !/[",;\n\r]/.test(d);
  const unidadeLimpa = typeof unidade === "string" && limpo(unidade);
  esperar(colunas);
  let esperadas = 0;
  if (tabela === "historico") {
    const extras = colunas.slice(3);
    const extraNumerica = numerica.slice(3);
    const linhaRapida = (e: HistoricoEntry, rec: Record<string, unknown>): boolean => {
      q = pos;
      const d: unknown = e.data;
      const v: unknown = e.valor;
      if (!dataLimpa(d) || typeof v !== "number" || !texto(d) || !separador() || !numero(v, excel) || !separador() || !texto(unidade)) return false;
      for (let i = 0; i < extras.length; i++) {
        if (!separador()) return false;
        const x = rec[extras[i]!];
        if (x === undefined) continue;
        if (typeof x === "number") {
          if (!numero(x, excel && extraNumerica[i]!)) return false;
        } else if (typeof x !== "string" || !limpo(x) || (excel && extraNumerica[i] && x.includes(".")) || !texto(x)) return false;
      }
      return fimDeLinha();
    };
    for (const e of historico) {
      const rec = e as unknown as Record<string, unknown>;
      if (unidadeLimpa && linhaRapida(e, rec)) {
        n++;
        pos = q;
        continue;
      }
      esperar([e.data, celula(e.valor, 1), unidade, ...extras.map((k, i) => celula(rec[k], i + 3))]);
    }
    esperadas = historico.length;
  } else {
    for (const e of historico) {
      const d: unknown = e.data;
      const dataOk = dataLimpa(d);
      for (const p in e.pracas ?? {}) {
        const v: unknown = e.pracas![p];
        if (dataOk && unidadeLimpa && typeof v === "number" && limpo(p)) {
          q = pos;
          if (texto(d) && separador() && texto(p) && separador() && numero(v, excel) && separador() && texto(unidade) && fimDeLinha()) {
            n++;
            pos = q;
            esperadas++;
            continue;
          }
        }
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
