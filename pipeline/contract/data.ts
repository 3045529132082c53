/**
 * A calendar day written AAAA-MM-DD: the contract's `date` format (the rule of ajv-formats'
 * `date`: four, two and two ASCII digits, a month 1–12, a day that month has) read by character
 * codes, with no regular expression or slices. It runs on every day of every history: at 30 years,
 * hundreds of thousands of times per build.
 */
const DIAS_NO_MES = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

const digito = (s: string, i: number): number => {
  const d = s.charCodeAt(i) - 48;
  return d >= 0 && d <= 9 ? d : -1;
};

export function isDataValida(s: string): boolean {
  return typeof s === "string" && s.length === 10 && isDataValidaEm(s, 0);
}

/** isDataValida(s.slice(i, i + 10)) without the slice (a day inside a line of a long text). */
export function isDataValidaEm(s: string, i: number): boolean {
  if (s.charCodeAt(i + 4) !== 45 || s.charCodeAt(i + 7) !== 45) return false;
  const a0 = digito(s, i);
  const a1 = digito(s, i + 1);
  const a2 = digito(s, i + 2);
  const a3 = digito(s, i + 3);
  const m0 = digito(s, i + 5);
  const m1 = digito(s, i + 6);
  const d0 = digito(s, i + 8);
  const d1 = digito(s, i + 9);
  if ((a0 | a1 | a2 | a3 | m0 | m1 | d0 | d1) < 0) return false;
  const ano = a0 * 1000 + a1 * 100 + a2 * 10 + a3;
  const mes = m0 * 10 + m1;
  const dia = d0 * 10 + d1;
  if (mes < 1 || mes > 12 || dia < 1) return false;
  const bissexto = ano % 4 === 0 && (ano % 100 !== 0 || ano % 400 === 0);
  return dia <= (mes === 2 && bissexto ? 29 : DIAS_NO_MES[mes]!);
}

/** /^\d{4}-\d{2}-\d{2}$/.test(s), by character codes: the shape of a day, month and day not checked. */
export function isFormatoData(s: string): boolean {
  if (typeof s !== "string" || s.length !== 10 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return false;
  return (digito(s, 0) | digito(s, 1) | digito(s, 2) | digito(s, 3) | digito(s, 5) | digito(s, 6) | digito(s, 8) | digito(s, 9)) >= 0;
}
