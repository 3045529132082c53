/**
 * Brazilian numbers, dates and CPF/CNPJ as they come out of OCR. Pure, no Node APIs (the page
 * runs it too). Quantities are integer hundredths (kg, @, sacas, %) and money integer centavos.
 */

/** Letters OCR puts in place of digits inside a number ("O" and "o" for 0, "l", "I", "|" and "!" for 1). */
const TROCAS: Record<string, string> = { O: "0", o: "0", D: "0", Q: "0", l: "1", I: "1", "|": "1", "!": "1", i: "1", S: "5", s: "5", B: "8", Z: "2", z: "2" };

/** The characters a numeric token may hold once OCR's look-alikes are allowed. */
const NUMERICO = /^[0-9OoDQlI|!iSsBZz.,]+$/;

/** Replaces OCR look-alikes by digits in a token that is a number; null when it is not one (needs real digits). */
export function digitosOcr(token: string): string | null {
  if (!NUMERICO.test(token)) return null;
  const digitos = (token.match(/[0-9]/g) ?? []).length;
  const trocas = (token.match(/[OoDQlI|!iSsBZz]/g) ?? []).length;
  // "Bois" and "lI" are words: a number keeps most of its characters as real digits
  if (digitos === 0 || trocas > Math.max(1, Math.floor(digitos / 2))) return null;
  return token.replace(/[OoDQlI|!iSsBZz]/g, (c) => TROCAS[c]!);
}

/**
 * A Brazilian decimal ("1.234,56", "1234,5", "48.760", "320") to integer hundredths; null when
 * the text is not one, or has more than two decimals (never guessed).
 */
export function numeroBR(texto: string): number | null {
  const s = texto.trim();
  let inteiro: string;
  let frac = "";
  let m: RegExpMatchArray | null;
  if ((m = s.match(/^([1-9]\d{0,2}(?:\.\d{3})+|\d+),(\d{1,2})$/))) {
    inteiro = m[1]!.replace(/\./g, "");
    frac = m[2]!;
  } else if ((m = s.match(/^[1-9]\d{0,2}(?:\.\d{3})+$/))) {
    inteiro = s.replace(/\./g, "");
  } else if (/^\d+$/.test(s)) {
    inteiro = s;
  } else {
    return null;
  }
  const h = Number(inteiro) * 100 + Number(frac.padEnd(2, "0"));
  return Number.isSafeInteger(h) ? h : null;
}

/** Integer hundredths as Brazilian text: 123456 -> "1.234,56". */
export function formatarBR(h: number): string {
  const neg = h < 0;
  const a = Math.abs(Math.round(h));
  const int = String(Math.floor(a / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  return `${neg ? "-" : ""}${int},${String(a % 100).padStart(2, "0")}`;
}

/** a × b / d rounded half up, on non-negative integers (exact while below 2^53). */
export function mulDivArredonda(a: number, b: number, d: number): number {
  const p = a * b;
  return Math.floor((2 * p + d) / (2 * d));
}

/** a × b / d truncated: some systems cut the centésimo instead of rounding it. */
export function mulDivTrunca(a: number, b: number, d: number): number {
  return Math.floor((a * b) / d);
}

const MESES: Record<string, number> = {
  janeiro: 1, fevereiro: 2, marco: 3, abril: 4, maio: 5, junho: 6, julho: 7, agosto: 8, setembro: 9, outubro: 10, novembro: 11, dezembro: 12,
  jan: 1, fev: 2, mar: 3, abr: 4, mai: 5, jun: 6, jul: 7, ago: 8, set: 9, out: 10, nov: 11, dez: 12,
};

/** Lowercase without accents, for matching labels. */
export function semAcento(s: string): string {
  return s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
}

function iso(a: number, m: number, d: number): string | null {
  if (m < 1 || m > 12 || d < 1 || a < 1900 || a > 2199) return null;
  const dias = new Date(Date.UTC(a, m, 0)).getUTCDate();
  if (d > dias) return null;
  return `${a}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}

export interface DataAchada {
  /** ISO date, or null when the text looks like a date that does not exist (31/02/2026) */
  data: string | null;
  inicio: number;
  fim: number;
  texto: string;
}

/**
 * The dates in a line: dd/mm/aaaa, dd/mm/aa (20aa), dd.mm.aaaa, dd-mm-aaaa, and "05 de agosto
 * de 2026"; digits read as letters ("O5") are accepted.
 */
export function datasNaLinha(linha: string): DataAchada[] {
  const out: DataAchada[] = [];
  const d = "[0-9OoIl]";
  // a year OCR broke ("20Z6", "20 26") must not pass as a two-digit one ("20", year 2020): after
  // the year no digit or look-alike letter, and after a two-digit year that is a century ("20",
  // "19") no further pair of digits unless it is a time ("05/08/20 14:32"); any other two-digit
  // year is whole, whatever number follows it ("05/08/26 12 cabeças", "05/08/26 14.32")
  const aposAno = `(?![0-9/.,]?\\d)(?![OoDQlI|!iSsBZz])`;
  const seculoPartido = `(?!(?<=(?:2[0Oo]|[1Il]9))\\s?\\d{2}(?![\\d:hH]))`;
  const numerica = new RegExp(`(?<![0-9A-Za-z/.])(${d}{1,2})\\s?([/.-])\\s?(${d}{1,2})\\2(${d}{4}${aposAno}|${d}{2}${aposAno}${seculoPartido})`, "g");
  for (const m of linha.matchAll(numerica)) {
    const [dd, mm, aa] = [m[1]!, m[3]!, m[4]!].map((x) => digitosOcr(x));
    if (dd === null || mm === null || aa === null || dd === undefined || mm === undefined || aa === undefined) continue;
    const ano = aa.length === 2 ? 2000 + Number(aa) : Number(aa);
    out.push({ data: iso(ano, Number(mm), Number(dd)), inicio: m.index!, fim: m.index! + m[0].length, texto: m[0] });
  }
  const extenso = new RegExp(`(?<![0-9A-Za-z])(${d}{1,2})\\s*(?:de\\s+)?([A-Za-zçÇ]+)\\.?\\s*(?:de\\s+)?(${d}{4})(?![0-9])`, "g");
  for (const m of linha.matchAll(extenso)) {
    const mes = MESES[semAcento(m[2]!)];
    const dd = digitosOcr(m[1]!);
    const aa = digitosOcr(m[3]!);
    if (!mes || dd === null || aa === null) continue;
    out.push({ data: iso(Number(aa), mes, Number(dd)), inicio: m.index!, fim: m.index! + m[0].length, texto: m[0] });
  }
  return out.sort((a, b) => a.inicio - b.inicio);
}

function dvCpf(d: number[]): number {
  const n = d.length + 1;
  const r = (d.reduce((s, x, i) => s + x * (n - i), 0) * 10) % 11;
  return r === 10 ? 0 : r;
}
function dvCnpj(d: number[]): number {
  const pesos = d.length === 12 ? [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] : [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
  const r = d.reduce((s, x, i) => s + x * pesos[i]!, 0) % 11;
  return r < 2 ? 0 : 11 - r;
}

/** True when the 11 (CPF) or 14 (CNPJ) digits carry valid check digits (and are not all equal). */
export function documentoValido(digitos: string): boolean {
  if (!/^\d{11}$|^\d{14}$/.test(digitos) || /^(\d)\1+$/.test(digitos)) return false;
  const d = [...digitos].map(Number);
  if (d.length === 11) return dvCpf(d.slice(0, 9)) === d[9] && dvCpf(d.slice(0, 10)) === d[10];
  return dvCnpj(d.slice(0, 12)) === d[12] && dvCnpj(d.slice(0, 13)) === d[13];
}

/** 11 digits as 000.000.000-00, 14 as 00.000.000/0000-00. */
export function formatarDocumento(digitos: string): string {
  const s = digitos;
  if (s.length === 11) return `${s.slice(0, 3)}.${s.slice(3, 6)}.${s.slice(6, 9)}-${s.slice(9)}`;
  return `${s.slice(0, 2)}.${s.slice(2, 5)}.${s.slice(5, 8)}/${s.slice(8, 12)}-${s.slice(12)}`;
}

export interface DocumentoAchado {
  /** formatted when valid, else the text as read */
  documento: string;
  valido: boolean;
  inicio: number;
  fim: number;
}

/**
 * The first CPF or CNPJ in a piece of text. OCR splits and garbles them ("09.352.716/0!   001-22"):
 * the digits are tried as read, then with look-alikes dropped, then replaced; the first reading
 * with valid check digits wins, otherwise the text is kept as read (and said to be invalid).
 */
export function acharDocumento(texto: string): DocumentoAchado | null {
  const m = texto.match(/[0-9OoIl!|][0-9OoIl!|.\/\-\s]{9,26}[0-9OoIl!|]/);
  if (!m) return null;
  const bruto = m[0].replace(/\s+$/, "");
  const somenteDigitos = bruto.replace(/[^0-9]/g, "");
  const trocado = bruto.replace(/[OoIl!|]/g, (c) => (c === "O" || c === "o" ? "0" : "1")).replace(/[^0-9]/g, "");
  if (somenteDigitos.length < 9 && trocado.length < 11) return null;
  for (const c of [somenteDigitos, trocado]) {
    for (const n of [14, 11]) {
      if (c.length === n && documentoValido(c)) return { documento: formatarDocumento(c), valido: true, inicio: m.index!, fim: m.index! + bruto.length };
    }
  }
  return { documento: bruto.replace(/\s+/g, ""), valido: false, inicio: m.index!, fim: m.index! + bruto.length };
}
