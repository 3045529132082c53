/**
 * Plausible ranges for days long past. A product's `faixa` (domain/products.ts) is written for
 * today's prices; a history that goes back to 1994 crosses three decades of inflation, and a
 * boi gordo at R$ 22/@ in 1995 is right, not a misread page. The rule (README, "Importar o
 * histórico"):
 *
 * - days before 1º/07/1994 are not in reais (cruzeiros reais and older currencies) and are never
 *   imported (sources/cepea-series.ts skips them and the summary counts them);
 * - a day of year Y, from July 1994 to the last year in the table below, is judged against the
 *   series' range deflated by the official inflation (IPCA, IBGE) accumulated since then: the
 *   minimum divided by the inflation from the start of Y to the end of the table's last year,
 *   the maximum divided by the inflation from the end of Y, so the range covers every price
 *   level within Y and keeps its width in today's money;
 * - a day after the table's last year is judged against the range as written.
 *
 * A value ten times too large or too small (a decimal slip) is refused in any era.
 */
import { formatDateBR } from "../domain/dates.ts";
import { formatDecimalBR } from "../domain/money.ts";
import { limitesDaSerie, type SeriesDef } from "../domain/series.ts";
import type { HistoricoEntry } from "../domain/publicados.ts";
import { INICIO_DO_REAL } from "../sources/cepea-series.ts";

/**
 * IPCA (IBGE), % in each calendar year; 1994 is July to December only (the Real's first half
 * year: 6,84 + 1,86 + 1,53 + 2,62 + 2,81 + 1,71 % compounded).
 */
export const IPCA_ANUAL: Readonly<Record<number, number>> = {
  1994: 18.57,
  1995: 22.41,
  1996: 9.56,
  1997: 5.22,
  1998: 1.65,
  1999: 8.94,
  2000: 5.97,
  2001: 7.67,
  2002: 12.53,
  2003: 9.3,
  2004: 7.6,
  2005: 5.69,
  2006: 3.14,
  2007: 4.46,
  2008: 5.9,
  2009: 4.31,
  2010: 5.91,
  2011: 6.5,
  2012: 5.84,
  2013: 5.91,
  2014: 6.41,
  2015: 10.67,
  2016: 6.29,
  2017: 2.95,
  2018: 3.75,
  2019: 4.31,
  2020: 4.52,
  2021: 10.06,
  2022: 5.79,
  2023: 4.62,
  2024: 4.83,
};

const ANOS = Object.keys(IPCA_ANUAL).map(Number);
export const PRIMEIRO_ANO_IPCA = Math.min(...ANOS);
export const ULTIMO_ANO_IPCA = Math.max(...ANOS);

/** Inflation factor accumulated from the start of `desde` to the end of the table's last year. */
function acumulado(desde: number): number {
  let f = 1;
  for (let y = Math.max(desde, PRIMEIRO_ANO_IPCA); y <= ULTIMO_ANO_IPCA; y++) f *= 1 + IPCA_ANUAL[y]! / 100;
  return f;
}

/**
 * The range a value of `data` must fall in, from the range written for today's prices; null
 * before the Real (no value of those days is read as reais).
 */
export function faixaDaEra(faixa: readonly [number, number], data: string): readonly [number, number] | null {
  if (data < INICIO_DO_REAL) return null;
  const ano = Number(data.slice(0, 4));
  if (ano > ULTIMO_ANO_IPCA) return faixa;
  // rounded outwards to the centavo: the range only ever widens by rounding
  const min = Math.floor((faixa[0] / acumulado(ano)) * 100) / 100;
  const max = Math.ceil((faixa[1] / acumulado(ano + 1)) * 100) / 100;
  return [min, max];
}

/**
 * The range gate of a history import: every day against its era's range (faixaDaEra). Returns
 * the reasons the import is refused (at most `max` of them and a count of the rest) and how
 * many days failed.
 */
export function checkFaixasPorEra(def: SeriesDef, entries: readonly HistoricoEntry[], max = 20): { motivos: string[]; dias: number } {
  const faixa = limitesDaSerie(def).faixa[def.unidade];
  if (!faixa) return { motivos: [], dias: 0 };
  const out: string[] = [];
  let resto = 0;
  for (const e of entries) {
    const r = faixaDaEra(faixa, e.data);
    const fora =
      r === null
        ? `${def.id} em ${formatDateBR(e.data)}: dia anterior ao Real (${formatDateBR(INICIO_DO_REAL)}), valor em outra moeda`
        : e.valor < r[0] || e.valor > r[1]
          ? `${def.id} em ${formatDateBR(e.data)}: R$ ${formatDecimalBR(e.valor)}/${def.unidade} fora da faixa plausível da época ` +
            `(${formatDecimalBR(r[0])}–${formatDecimalBR(r[1])}: a de hoje, ${faixa[0]}–${faixa[1]}, deflacionada pelo IPCA)`
          : null;
    if (fora === null) continue;
    if (out.length < max) out.push(fora);
    else resto++;
  }
  const dias = out.length + resto;
  if (resto > 0) out.push(`e mais ${resto} dia(s) fora da faixa`);
  return { motivos: out, dias };
}
