import { UNIDADE_INFO, type Unidade } from "./products.ts";
/**
 * Prices are read from the page's text straight into integer centavos (347,70 -> 34770) and
 * stored as reais with at most two decimals (34770 / 100 = 347.7, whose shortest decimal form
 * is exactly "347.7"). Every arithmetic on them (differences, variations) goes back to integer
 * centavos first, so no result carries float drift.
 */

const BRL_NUMBER = /^-?\d{1,3}(\.\d{3})*(,\d{1,2})?$|^-?\d+(,\d{1,2})?$/;

/** Parses a Brazilian decimal ("3.426,02", "347,70", "-4,35", "0,00") into integer hundredths. */
export function parseBRDecimal(text: string): number | null {
  const s = text.replace(/\u00a0/g, " ").trim().replace(/^R\$\s*/, "");
  if (!BRL_NUMBER.test(s)) return null;
  const negative = s.startsWith("-");
  const [intPart = "0", fracPart = ""] = s.replace(/^-/, "").replace(/\./g, "").split(",");
  const hundredths = Number(intPart) * 100 + Number(fracPart.padEnd(2, "0"));
  if (!Number.isSafeInteger(hundredths)) return null;
  return negative ? -hundredths : hundredths;
}

/** Integer hundredths to the number written in JSON (exact to two decimals). */
export function fromHundredths(h: number): number {
  return h / 100;
}

/** A JSON number back to integer hundredths; throws when it has more than two decimals. */
export function toHundredths(value: number): number {
  const h = Math.round(value * 100);
  if (Math.abs(h - value * 100) > 1e-6) {
    throw new RangeError(`valor com mais de duas casas decimais: ${value}`);
  }
  return h;
}

/** True when a number is representable to the centavo (at most two decimals). */
export function hasAtMostTwoDecimals(value: number): boolean {
  // exact: n / 100 is the double nearest to that two-place decimal (347.70000000000005 fails)
  return Number.isFinite(value) && Math.round(value * 100) / 100 === value;
}

/** Variation in percent with two decimals, computed on integers: (b - a) / a. */
export function variationPct(from: number, to: number): number {
  const a = toHundredths(from);
  const b = toHundredths(to);
  if (a === 0) return 0;
  // round half away from zero on the exact rational (b - a) * 10000 / a
  const num = (b - a) * 10000;
  const q = Math.round(Math.abs(num) / Math.abs(a));
  return (Math.sign(num) * Math.sign(a) * q) / 100;
}

/** Difference of two money values, exact. */
export function diff(from: number, to: number): number {
  return (toHundredths(to) - toHundredths(from)) / 100;
}

const brl = new Intl.NumberFormat("pt-BR", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** "R$ 3.426,02" */
export function formatBRL(value: number): string {
  return `R$ ${brl.format(value)}`;
}

/** "3.426,02" */
export function formatDecimalBR(value: number): string {
  return brl.format(value);
}

/**
 * A price with its unit, as a reader expects it: "R$ 347,70/@", "R$ 12,35/kg", and for a unit
 * quoted in centavos (CEPEA's cotton) "439,98 centavos de R$/lb", never "R$ 439,98".
 */
export function formatPreco(valor: number, unidade: Unidade): string {
  return `${formatNumeroDoPreco(valor, unidade)}${UNIDADE_INFO[unidade].sufixo}`;
}

/** The number of formatPreco without its unit: "R$ 347,70" in reais, "439,98" in a unit quoted in centavos. */
export function formatNumeroDoPreco(valor: number, unidade: Unidade): string {
  return UNIDADE_INFO[unidade].emCentavos ? formatDecimalBR(valor) : formatBRL(valor);
}
