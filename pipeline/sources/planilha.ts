/**
 * A generic reader of the spreadsheets a source offers for download: legacy Excel (.xls, BIFF
 * inside a compound document), .xlsx, or a .csv with `;`. The format is told by the bytes, not by
 * the file name (a download saved as ".xls" may be anything). Only the first sheet is read.
 *
 * Excel files go through SheetJS (`@e965/xlsx`, the registry's republication of the library):
 * CEPEA's .xls carry a compound-document irregularity that strict readers refuse, and SheetJS
 * reads them. The workbook is parsed without formatted text, HTML, styles or dates, and sparse
 * (SheetJS's dense mode keeps BIFF cells in a form ten times bigger), so a 30-year sheet costs
 * a few times its file size in memory once read.
 *
 * What this module knows of a sheet is what a reader needs to refuse a bad one: the cells
 * (text, number or empty), how many rows hold data, and how many rows the sheet declares
 * (its DIMENSIONS record, or the `<dimension>` of an .xlsx), so a truncated download — fewer
 * rows than declared — can be caught by the caller. A CSV declares nothing: it is complete only
 * when its last line ends with a line break.
 */
import * as XLSX from "@e965/xlsx";
import { ParseError } from "../domain/errors.ts";

/** A cell as read: text (trimmed), a number, or null (empty). */
export type Celula = string | number | null;

export type FormatoPlanilha = "xls" | "xlsx" | "csv";

export interface Planilha {
  formato: FormatoPlanilha;
  /** the first sheet's name (null for a CSV) */
  aba: string | null;
  /** rows up to the last one holding a non-empty cell */
  linhas: number;
  /**
   * rows the sheet declares (the last row of its dimension), or null when the format declares
   * none (CSV)
   */
  declaradas: number | null;
  /** for a CSV: whether the last line ends with a line break (a cut download does not) */
  terminaComQuebra: boolean | null;
  /** row `r` (0-based) as cells; an empty row is [] */
  linha(r: number): Celula[];
}

const CFB = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const ZIP = [0x50, 0x4b, 0x03, 0x04];

function startsWith(bytes: Uint8Array, magic: readonly number[]): boolean {
  return bytes.length >= magic.length && magic.every((b, i) => bytes[i] === b);
}

/** The first non-blank characters of the bytes, for "this is HTML, not a spreadsheet". */
function pareceHtml(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.subarray(0, 512)).toString("latin1").replace(/^\uFEFF|^\u00EF\u00BB\u00BF/, "").trimStart().toLowerCase();
  return head.startsWith("<!doctype html") || head.startsWith("<html") || head.startsWith("<head") || head.startsWith("<body") || head.startsWith("<table");
}

/** The format the bytes are in; throws naming what was found when they are none of the three. */
export function formatoDosBytes(bytes: Uint8Array): FormatoPlanilha {
  if (bytes.length === 0) throw new ParseError("arquivo vazio (0 bytes)");
  if (startsWith(bytes, CFB)) return "xls";
  if (startsWith(bytes, ZIP)) return "xlsx";
  if (pareceHtml(bytes)) {
    throw new ParseError("o arquivo é uma página HTML, não uma planilha (.xls, .xlsx ou .csv): o site respondeu com uma página no lugar da série", "soft_block");
  }
  // anything else must be text: a NUL byte means a binary format this reader does not know
  if (bytes.subarray(0, 4096).includes(0)) {
    const hex = Buffer.from(bytes.subarray(0, 8)).toString("hex");
    throw new ParseError(`formato de arquivo desconhecido (primeiros bytes ${hex}); esperado .xls (D0CF11E0...), .xlsx (zip, 504B0304...) ou .csv com ";"`);
  }
  return "csv";
}

/** Reads the first sheet of a spreadsheet (or a CSV) from its bytes. */
export function abrirPlanilha(bytes: Uint8Array): Planilha {
  const formato = formatoDosBytes(bytes);
  return formato === "csv" ? lerCsv(bytes) : lerExcel(bytes, formato);
}

function celulaExcel(cell: XLSX.CellObject | undefined, r: number, c: number): Celula {
  if (!cell) return null;
  switch (cell.t) {
    case "z":
      return null;
    case "s": {
      const s = String(cell.v ?? "").replace(/\u00a0/g, " ").trim();
      return s === "" ? null : s;
    }
    case "n":
      return typeof cell.v === "number" ? cell.v : null;
    default: {
      const ref = XLSX.utils.encode_cell({ r, c });
      const what = cell.t === "e" ? "erro do Excel" : cell.t === "b" ? "valor lógico" : cell.t === "d" ? "data do Excel" : `tipo "${cell.t}"`;
      throw new ParseError(`célula ${ref}: ${what} (${String(cell.v)}), esperado texto ou número`);
    }
  }
}

function lerExcel(bytes: Uint8Array, formato: "xls" | "xlsx"): Planilha {
  let wb: XLSX.WorkBook;
  try {
    // sparse ("A1" keys), not dense: SheetJS's dense BIFF cells take ten times the memory
    wb = XLSX.read(bytes, {
      type: "buffer",
      sheets: 0,
      cellDates: false,
      cellFormula: false,
      cellHTML: false,
      cellNF: false,
      cellStyles: false,
      cellText: false,
    });
  } catch (err) {
    throw new ParseError(`planilha ${formato} ilegível (arquivo corrompido ou cortado?): ${(err as Error).message}`);
  }
  const aba = wb.SheetNames[0];
  const ws = aba === undefined ? undefined : wb.Sheets[aba];
  if (aba === undefined || !ws) throw new ParseError(`planilha ${formato} sem nenhuma aba`);
  const ref = ws["!ref"];
  const range = ref ? XLSX.utils.decode_range(ref) : null;
  const declaradas = range ? range.e.r + 1 : 0;
  // SheetJS reads cells beyond a dimension that declares too few rows; the last row is the
  // last one holding a cell, whatever the dimension says
  let ultimaColuna = range ? range.e.c : 0;
  let linhas = 0;
  for (const key of Object.keys(ws)) {
    if (key.startsWith("!")) continue;
    const { r, c } = XLSX.utils.decode_cell(key);
    if (c > ultimaColuna) ultimaColuna = c;
    if (r + 1 > linhas && !vazia(ws[key] as XLSX.CellObject)) linhas = r + 1;
  }
  return {
    formato,
    aba,
    linhas,
    declaradas,
    terminaComQuebra: null,
    linha(r) {
      const out: Celula[] = [];
      for (let c = 0; c <= ultimaColuna; c++) out.push(celulaExcel(ws[XLSX.utils.encode_cell({ r, c })] as XLSX.CellObject | undefined, r, c));
      while (out.length > 0 && out[out.length - 1] === null) out.pop();
      return out;
    },
  };
}

function vazia(c: XLSX.CellObject | undefined): boolean {
  return !c || c.t === "z" || (c.t === "s" && String(c.v ?? "").trim() === "");
}

/** UTF-8 when the bytes are valid UTF-8 (BOM dropped), else Windows-1252 (Excel's "CSV" on Windows). */
function decodificar(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return new TextDecoder("windows-1252").decode(bytes);
  }
}

/**
 * Splits one CSV line on `;`, honouring double quotes ("1.234,56" and a title with `;` inside
 * quotes). A quote left open is refused: the line was cut.
 */
function camposCsv(line: string, n: number): string[] {
  const out: string[] = [];
  let cur = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"') {
        if (line[i + 1] === '"') {
          cur += '"';
          i++;
        } else quoted = false;
      } else cur += ch;
    } else if (ch === '"' && cur.trim() === "") {
      quoted = true;
      cur = "";
    } else if (ch === ";") {
      out.push(cur);
      cur = "";
    } else cur += ch;
  }
  if (quoted) throw new ParseError(`linha ${n} do CSV: aspas abertas e não fechadas (linha cortada?)`);
  out.push(cur);
  return out;
}

function lerCsv(bytes: Uint8Array): Planilha {
  const text = decodificar(bytes);
  // line starts, found once: a row is split into cells only when it is asked for
  const starts: number[] = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  const terminaComQuebra = text.endsWith("\n");
  if (terminaComQuebra) starts.pop();
  const raw = (r: number) => {
    const end = r + 1 < starts.length ? starts[r + 1]! - 1 : text.length;
    return text.slice(starts[r]!, end).replace(/\r$/, "");
  };
  let linhas = starts.length;
  while (linhas > 0 && raw(linhas - 1).replace(/;/g, "").trim() === "") linhas--;
  return {
    formato: "csv",
    aba: null,
    linhas,
    declaradas: null,
    terminaComQuebra,
    linha(r) {
      if (r >= starts.length) return [];
      const line = raw(r).replace(/^\uFEFF/, "");
      const out: Celula[] = camposCsv(line, r + 1).map((c) => {
        const s = c.replace(/\u00a0/g, " ").trim();
        return s === "" ? null : s;
      });
      while (out.length > 0 && out[out.length - 1] === null) out.pop();
      return out;
    },
  };
}

/** "A1", "C12": a cell's name as a spreadsheet shows it, for messages. */
export function nomeDaCelula(r: number, c: number): string {
  return XLSX.utils.encode_cell({ r, c });
}
