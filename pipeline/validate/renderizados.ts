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
import { isDataValida } from "../contract/data.ts";
import { camposCsv } from "./csv.ts";

export type TabelaRenderizada = "historico" | "pracas";

const at = (n: number) => `linha ${n}`;

/**
 * One rendered CSV (or Excel-BR variant) of a series against the series' history: its header,
 * then one line per day (per praça per day) in order, every field of it the entry's (day, value,
 * unit, the other columns, the praça's name), read with a split where no field is quoted. The
 * text is walked in place: at 30 years a series' files are hundreds of thousands of lines.
 */
export function checarRenderizado(
  text: string,
  historico: readonly HistoricoEntry[],
  tabela: TabelaRenderizada,
  excel: boolean,
  unidade: string,
  /** false: every line through the field-by-field comparison (the fast path's tests hold it to that) */
  rapido = true,
): Problema[] {
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
  // decides and words the problem exactly as before. Each step gives the position after what it
  // read, or -1.
  const s = excel ? SEP_EXCEL : SEP_CSV;
  const limpos = new Map<string, boolean>();
  const limpo = (x: string): boolean => {
    let l = limpos.get(x);
    if (l === undefined) {
      l = !SUJO.test(x);
      if (limpos.size < 10_000) limpos.set(x, l);
    }
    return l;
  };
  // every fast reading below needs it
  const unidadeLimpa = rapido && typeof unidade === "string" && limpo(unidade);
  esperar(colunas);
  let esperadas = 0;
  if (tabela === "historico") {
    const extras = colunas.slice(3);
    const extraNumerica = numerica.slice(3);
    for (const e of historico) {
      const rec = e as unknown as Record<string, unknown>;
      const d: unknown = e.data;
      const v: unknown = e.valor;
      if (unidadeLimpa && typeof v === "number" && dataLimpa(d)) {
        let q = textoEm(text, pos, d);
        q = q < 0 ? q : numeroEm(text, separadorEm(text, q, s), v, excel);
        q = q < 0 ? q : textoEm(text, separadorEm(text, q, s), unidade);
        for (let i = 0; i < extras.length && q >= 0; i++) {
          q = separadorEm(text, q, s);
          const x = rec[extras[i]!];
          if (q < 0 || x === undefined) continue;
          if (typeof x === "number") q = numeroEm(text, q, x, excel && extraNumerica[i]!);
          else if (typeof x !== "string" || !limpo(x) || (excel && extraNumerica[i] && x.includes("."))) q = -1;
          else q = textoEm(text, q, x);
        }
        q = q < 0 ? q : fimEm(text, q, excel);
        if (q >= 0) {
          n++;
          pos = q;
          continue;
        }
      }
      esperar([e.data, celula(e.valor, 1), unidade, ...extras.map((k, i) => celula(rec[k], i + 3))]);
    }
    esperadas = historico.length;
  } else {
    for (const e of historico) {
      const d: unknown = e.data;
      const dataOk = unidadeLimpa && dataLimpa(d);
      for (const p in e.pracas ?? {}) {
        const v: unknown = e.pracas![p];
        esperadas++;
        if (dataOk && typeof v === "number" && limpo(p)) {
          let q = textoEm(text, pos, d as string);
          q = q < 0 ? q : textoEm(text, separadorEm(text, q, s), p);
          q = q < 0 ? q : numeroEm(text, separadorEm(text, q, s), v, excel);
          q = q < 0 ? q : textoEm(text, separadorEm(text, q, s), unidade);
          q = q < 0 ? q : fimEm(text, q, excel);
          if (q >= 0) {
            n++;
            pos = q;
            continue;
          }
        }
        esperar([e.data, p, celula(e.pracas![p], 2), unidade]);
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

const SEP_CSV = 44;
const SEP_EXCEL = 59;
// what the renderers would quote in either spelling, or what would split a field
const SUJO = /[",;\n\r]/;

/** A day's field that quoting and splitting leave as it is: most often a plain day, checked without a regular expression. */
const dataLimpa = (d: unknown): d is string => typeof d === "string" && (isDataValida(d) || !SUJO.test(d));

/** After `s` at q (q < 0: already failed). A slice compared is cheaper than startsWith here. */
function textoEm(text: string, q: number, s: string): number {
  if (q < 0) return -1;
  const fim = q + s.length;
  return text.slice(q, fim) === s ? fim : -1;
}

function separadorEm(text: string, q: number, sep: number): number {
  return q >= 0 && text.charCodeAt(q) === sep ? q + 1 : -1;
}

function fimEm(text: string, q: number, excel: boolean): number {
  if (excel) return text.charCodeAt(q) === 13 && text.charCodeAt(q + 1) === 10 ? q + 2 : -1;
  return text.charCodeAt(q) === 10 ? q + 1 : -1;
}

/** After the number as the cell spells it at q (its first '.' as ',' in Excel's numeric columns). */
function numeroEm(text: string, q: number, v: number, virgula: boolean): number {
  if (q < 0) return -1;
  const a = v < 0 ? -v : v;
  const c = Math.round(a * 100);
  if (c / 100 === a && c < 1e15) return centavosEm(text, q, v < 0, c, virgula);
  const s = String(v);
  if (!virgula) return textoEm(text, q, s);
  let trocou = false;
  for (let i = 0; i < s.length; i++) {
    let k = s.charCodeAt(i);
    if (k === 46 && !trocou) {
      k = 44;
      trocou = true;
    }
    if (text.charCodeAt(q + i) !== k) return -1;
  }
  return q + s.length;
}

/**
 * `numeroEm` for a value of whole cents below 10^13: String(v) is then its integer part and its
 * cents without trailing zeros (a decimal of at most 15 digits is the shortest spelling of the
 * double nearest it), so the digits are read from the text instead of converting every price
 * to a string.
 */
function centavosEm(text: string, q: number, negativo: boolean, c: number, virgula: boolean): number {
  let i = q;
  if (negativo) {
    if (text.charCodeAt(i) !== 45) return -1;
    i++;
  }
  const inteiro = Math.floor(c / 100);
  const inicio = i;
  let lido = 0;
  for (let d = text.charCodeAt(i) - 48; d >= 0 && d <= 9 && i - inicio < 16; d = text.charCodeAt(++i) - 48) lido = lido * 10 + d;
  // one digit "0" at most before the point, as String writes it
  if (lido !== inteiro || i === inicio || (text.charCodeAt(inicio) === 48 && i - inicio > 1)) return -1;
  const cents = c - inteiro * 100;
  if (cents !== 0) {
    if (text.charCodeAt(i) !== (virgula ? 44 : 46)) return -1;
    const dezena = Math.floor(cents / 10);
    const ultimo = cents - dezena * 10;
    if (text.charCodeAt(i + 1) !== 48 + dezena) return -1;
    i += 2;
    if (ultimo !== 0) {
      if (text.charCodeAt(i) !== 48 + ultimo) return -1;
      i++;
    }
  }
  return i;
}
