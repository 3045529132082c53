import { EXTRAS_PRACA } from "../domain/row.ts";
import type { HistoricoEntry } from "../domain/publicados.ts";
import { seriesId, type SeriesKey } from "../domain/series.ts";

/**
 * A CSV as columns and rows of cells already written as text (numbers in their shortest form
 * with a dot, ISO dates): the canonical file and its Excel-BR variant are two spellings of one
 * table, so they cannot disagree.
 */
export interface Tabela {
  colunas: readonly string[];
  linhas: Iterable<readonly string[]>;
}

/**
 * Columns that hold numbers, in every CSV this project writes: the Excel-BR variant writes
 * them with a decimal comma, the Table Schemas type them `number`.
 */
export const COLUNAS_NUMERICAS: ReadonlySet<string> = new Set([
  "valor",
  "valor_usd",
  "valor_30d",
  "base_sp",
  "funrural_avista",
  "funrural_30d",
  "senar_avista",
  "senar_30d",
]);

/** api/v1/historico/{id}.pracas.csv: every praça of a state series, one line per praça per day. */
export function pracasCsvPath(key: SeriesKey): string {
  return `api/v1/historico/${seriesId(key)}.pracas.csv`;
}

/** Every series in long format, one line per series per day. */
export const HISTORICO_LONGO_PATH = "api/v1/historico.csv";

/** X.csv -> X.excel.csv: the Excel-BR variant sits next to its CSV, under a predictable name. */
export function excelPath(csvPath: string): string {
  return csvPath.replace(/\.csv$/, ".excel.csv");
}

export const isExcelPath = (p: string): boolean => p.endsWith(".excel.csv");

function quote(s: string): string {
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function quoteExcel(s: string): string {
  return /[";\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One line of fields, quoted as csvTexto quotes them (without the line break). */
export function csvLinha(campos: readonly string[]): string {
  return campos.map(quote).join(",");
}

/** RFC 4180, comma, dot decimals, LF, UTF-8 without BOM: what pandas, R and DuckDB read by default. */
export function csvTexto(t: Tabela): string {
  const out: string[] = [t.colunas.map(quote).join(",")];
  for (const l of t.linhas) out.push(l.map(quote).join(","));
  return out.join("\n") + "\n";
}

/**
 * The same table for Excel in Portuguese (pt-BR locale): `;` between fields (the comma is the
 * decimal separator there), decimal comma in the numeric columns, a UTF-8 BOM (without it Excel
 * reads the file as Windows-1252 and "Três Lagoas" breaks) and CRLF.
 */
export function excelTexto(t: Tabela): string {
  const numerica = t.colunas.map((c) => COLUNAS_NUMERICAS.has(c));
  const out: string[] = [t.colunas.map(quoteExcel).join(";")];
  for (const l of t.linhas) out.push(l.map((v, i) => quoteExcel(numerica[i] ? v.replace(".", ",") : v)).join(";"));
  return "\ufeff" + out.join("\r\n") + "\r\n";
}

const celula = (v: number | string | undefined): string => (v === undefined ? "" : String(v));

/**
 * The columns of a series' CSV: `data,valor,unidade`, then the series' other columns, in a
 * fixed order, each only if some day has it (valor_usd for CEPEA; for Scot the reference
 * praça's 30 days, base, Funrural, Senar and trend). The praças are in their own file.
 */
const EXTRAS = ["valor_usd", ...EXTRAS_PRACA] as const;

export function colunasHistorico(historico: readonly HistoricoEntry[]): string[] {
  // one pass with named reads (a read by a computed key per day and per column was most of it)
  let usd = false;
  let v30 = false;
  let base = false;
  let fa = false;
  let f30 = false;
  let sa = false;
  let s30 = false;
  let tend = false;
  for (const e of historico) {
    if (e.valor_usd !== undefined) usd = true;
    if (e.valor_30d !== undefined) v30 = true;
    if (e.base_sp !== undefined) base = true;
    if (e.funrural_avista !== undefined) fa = true;
    if (e.funrural_30d !== undefined) f30 = true;
    if (e.senar_avista !== undefined) sa = true;
    if (e.senar_30d !== undefined) s30 = true;
    if (e.tendencia !== undefined) tend = true;
  }
  const tem: Record<(typeof EXTRAS)[number], boolean> = { valor_usd: usd, valor_30d: v30, base_sp: base, funrural_avista: fa, funrural_30d: f30, senar_avista: sa, senar_30d: s30, tendencia: tend };
  return ["data", "valor", "unidade", ...EXTRAS.filter((k) => tem[k])];
}

/** A series' history as a table: one line per day, oldest first, the unit on every line. */
export function historicoTabela(historico: readonly HistoricoEntry[], unidade: string): Tabela {
  const colunas = colunasHistorico(historico);
  const extras = colunas.slice(3);
  return {
    colunas,
    linhas: iteravel(function* () {
      for (const e of historico) {
        const rec = e as unknown as Record<string, number | string | undefined>;
        yield [e.data, String(e.valor), unidade, ...extras.map((k) => celula(rec[k]))];
      }
    }),
  };
}

/**
 * A history as CSV, the same days as the JSON: `data,valor,unidade` and the series' other
 * columns (colunasHistorico). Dot decimals, ISO dates, LF, UTF-8.
 */
export function historicoCsv(historico: readonly HistoricoEntry[], unidade: string): string {
  return csvTexto(historicoTabela(historico, unidade));
}

/** A state series built from a praça table has praças on its days; a national one has none. */
export function temPracas(historico: readonly HistoricoEntry[]): boolean {
  return historico.some((e) => e.pracas !== undefined && Object.keys(e.pracas).length > 0);
}

export const COLUNAS_PRACAS = ["data", "praca", "valor", "unidade"] as const;

/**
 * Every praça of a state series in long format: one line per praça per day, the praças of a day
 * in the source's order (as in the JSON), à vista price. Null when no day has praças (national
 * series): then there is no file.
 */
export function pracasTabela(historico: readonly HistoricoEntry[], unidade: string): Tabela | null {
  if (!temPracas(historico)) return null;
  return {
    colunas: COLUNAS_PRACAS,
    linhas: iteravel(function* () {
      for (const e of historico) for (const [p, v] of Object.entries(e.pracas ?? {})) yield [e.data, p, String(v), unidade];
    }),
  };
}

export function pracasCsv(historico: readonly HistoricoEntry[], unidade: string): string | null {
  const t = pracasTabela(historico, unidade);
  return t ? csvTexto(t) : null;
}

/** Rows rendered again on every read, so the canonical file and its Excel variant come from one table without holding it. */
export function iteravel<T>(gen: () => Iterator<T>): Iterable<T> {
  return { [Symbol.iterator]: gen };
}

/** A table's two spellings, written in one pass. */
export interface DuasGrafias {
  csv: string;
  excel: string;
}

const cabecalhos = (colunas: readonly string[]) => ({ csv: `${colunas.map(quote).join(",")}\n`, excel: `\ufeff${colunas.map(quoteExcel).join(";")}\r\n` });

/**
 * The header line (without its "\n") of the series' canonical CSVs, as historicoCsvs and
 * pracasCsvs write it, without rendering the rows; `pracas` is null when there is no praças file.
 */
export function cabecalhosCsv(historico: readonly HistoricoEntry[]): { historico: string; pracas: string | null } {
  const linha = (colunas: readonly string[]) => cabecalhos(colunas).csv.slice(0, -1);
  return { historico: linha(colunasHistorico(historico)), pracas: temPracas(historico) ? linha(COLUNAS_PRACAS) : null };
}

/**
 * historicoTabela written as csvTexto and excelTexto write it, byte for byte, without a row
 * array per day: a number needs no quoting in either spelling (digits, '-' and one '.', which
 * the Excel variant turns into ',' while its separator is ';').
 */
export function historicoCsvs(historico: readonly HistoricoEntry[], unidade: string): DuasGrafias {
  const colunas = colunasHistorico(historico);
  const extras = colunas.slice(3);
  const numerica = extras.map((k) => COLUNAS_NUMERICAS.has(k));
  const uc = quote(unidade);
  const ue = quoteExcel(unidade);
  const cab = cabecalhos(colunas);
  const csv = new Linhas(cab.csv);
  const excel = new Linhas(cab.excel);
  const n = new Numeros();
  for (const e of historico) {
    const d = e.data;
    const limpa = typeof d === "string" && !PRECISA_ASPAS.test(d);
    let lc: string;
    let le: string;
    if (typeof e.valor === "number") {
      n.ler(e.valor);
      lc = `${limpa ? d : quote(d)},${n.csv},${uc}`;
      le = `${limpa ? d : quoteExcel(d)};${n.excel};${ue}`;
    } else {
      const v = String(e.valor);
      lc = `${quote(e.data)},${v},${uc}`;
      le = `${quoteExcel(e.data)};${v.replace(".", ",")};${ue}`;
    }
    const rec = e as unknown as Record<string, number | string | undefined>;
    for (let i = 0; i < extras.length; i++) {
      const x = rec[extras[i]!];
      if (typeof x === "number") {
        n.ler(x);
        lc += `,${n.csv}`;
        le += `;${numerica[i] ? n.excel : n.csv}`;
      } else {
        const s = x === undefined ? "" : String(x);
        lc += `,${quote(s)}`;
        le += `;${quoteExcel(numerica[i] ? s.replace(".", ",") : s)}`;
      }
    }
    csv.push(`${lc}\n`);
    excel.push(`${le}\r\n`);
  }
  return { csv: csv.texto(), excel: excel.texto() };
}

/** pracasTabela written as csvTexto and excelTexto write it, byte for byte; null without praças. */
export function pracasCsvs(historico: readonly HistoricoEntry[], unidade: string): DuasGrafias | null {
  if (!temPracas(historico)) return null;
  const uc = quote(unidade);
  const ue = quoteExcel(unidade);
  const cab = cabecalhos(COLUNAS_PRACAS);
  const csv = new Linhas(cab.csv);
  const excel = new Linhas(cab.excel);
  const n = new Numeros();
  // a state series has a handful of praças, named again on every day: each quoted once
  const nomes = new Map<string, { csv: string; excel: string }>();
  for (const e of historico) {
    if (!e.pracas) continue;
    const dc = quote(e.data);
    const de = quoteExcel(e.data);
    for (const p in e.pracas) {
      let nome = nomes.get(p);
      if (nome === undefined) {
        nome = { csv: quote(p), excel: quoteExcel(p) };
        nomes.set(p, nome);
      }
      const x = e.pracas[p];
      if (typeof x === "number") {
        n.ler(x);
        csv.push(`${dc},${nome.csv},${n.csv},${uc}\n`);
        excel.push(`${de};${nome.excel};${n.excel};${ue}\r\n`);
      } else {
        const v = String(x);
        csv.push(`${dc},${nome.csv},${v},${uc}\n`);
        excel.push(`${de};${nome.excel};${v.replace(".", ",")};${ue}\r\n`);
      }
    }
  }
  return { csv: csv.texto(), excel: excel.texto() };
}

/**
 * A long text written line by line. A string grown line by line is a chain of millions of
 * pieces, and one array of every line outlives the young generation and is copied by the
 * collector; here every 512 lines are joined into one flat piece while the pieces of each line
 * are still young, and the pieces are joined once at the end.
 */
export class Linhas {
  private readonly partes: string[];
  private readonly linhas: string[] = [];

  constructor(inicio = "") {
    this.partes = [inicio];
  }

  push(linha: string): void {
    this.linhas.push(linha);
    if (this.linhas.length >= 512) {
      this.partes.push(this.linhas.join(""));
      this.linhas.length = 0;
    }
  }

  texto(): string {
    this.partes.push(this.linhas.join(""));
    this.linhas.length = 0;
    return this.partes.join("");
  }
}

const PRECISA_ASPAS = /[",;\n\r]/;

const centavos = (sep: string) => Array.from({ length: 100 }, (_, c) => (c === 0 ? "" : `${sep}${c % 10 === 0 ? c / 10 : String(c).padStart(2, "0")}`));
const CENTAVOS = centavos(".");
const CENTAVOS_EXCEL = centavos(",");

/**
 * A number as String writes it (`csv`) and with its '.' as ',' (`excel`). A value of whole cents
 * below 10^13 is written from its integer part and a table of cents: a decimal of at most 15
 * digits is the shortest spelling of the double nearest it, which is what String writes, and a
 * price is converted at most once per file instead of once per spelling.
 */
export class Numeros {
  csv = "";
  excel = "";

  ler(v: number): void {
    const a = v < 0 ? -v : v;
    const c = Math.round(a * 100);
    if (c / 100 === a && c < 1e15) {
      const inteiro = Math.floor(c / 100);
      const cents = c - inteiro * 100;
      const sinal = v < 0 ? "-" : "";
      this.csv = `${sinal}${inteiro}${CENTAVOS[cents]!}`;
      this.excel = cents === 0 ? this.csv : `${sinal}${inteiro}${CENTAVOS_EXCEL[cents]!}`;
      return;
    }
    this.csv = String(v);
    this.excel = this.csv.replace(".", ",");
  }
}
