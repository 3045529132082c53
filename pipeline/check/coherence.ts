import { formatDateBR } from "../domain/dates.ts";
import { formatDecimalBR } from "../domain/money.ts";
import type { PriceRow } from "../domain/row.ts";

/**
 * The BRL/USD rate a CEPEA row implies (R$ value ÷ US$ value) must be one the Real has had on
 * that day's era: it floated from January 1999 and has stayed between 1,5 and 7 since; before
 * that it crawled from 0,83 (July 1994) to 1,21. The bounds are wide on purpose: they catch
 * columns read in the wrong place (R$ and US$ swapped gives 0,19 on CEPEA's calf page), not the
 * market.
 */
export function cambioPlausivel(data: string): readonly [number, number] {
  if (data < "1994-07-01") return [0, Number.POSITIVE_INFINITY]; // before the Real: no rule here
  if (data < CAMBIO_TRANSICAO[0]) return [0.8, 1.3];
  if (data <= CAMBIO_TRANSICAO[1]) return [1.2, 2.4];
  return [1.5, 8];
}

/**
 * The devaluation of 1999: the band widened on 13/01 (1,21 to 1,32 in a day), the Real floated on
 * 15/01 and ran to about 2,16 by early March before settling near 1,7 in April, moving up to about
 * 9 % a day. In these weeks a page (or a backfill's window) of days has no common rate, so only
 * the era's bounds judge a row, not the page's median: swapped columns still give 0,5 or less.
 */
export const CAMBIO_TRANSICAO = ["1999-01-13", "1999-03-31"] as const;

/** The SP price a Scot row's "# base" implies may differ from the table's by at most this much. */
export const BASE_DESVIO_MAX = 0.01;

/** One row's rate may differ from the median of its page by at most this much (same days, same rate). */
export const CAMBIO_DESVIO_MAX = 0.08;

/**
 * How Scot's columns relate to each other, as the ratio of one to another, from every praça of
 * the recorded tables with room to spare: Senar (0,2 %) and Funrural (1,5 % + Senar) are
 * deducted from the gross price, so "Senar" is a hair below it and "Funrural" about 1,6 % below;
 * the 30-day price carries about a month of interest over the cash price, so it is never below
 * it (1,011–1,014 on every recorded praça): "à vista" and "30 D" swapped in every group of the
 * table, or in the Notícias Agrícolas republication, give 0,987 and nothing else tells them apart.
 */
const SCOT_RELACOES: ReadonlyArray<readonly [campo: string, base: string, min: number, max: number, nome: string]> = [
  ["senar_avista", "valor", 0.985, 1, "Senar à vista / à vista"],
  ["funrural_avista", "valor", 0.95, 0.999, "Funrural à vista / à vista"],
  ["funrural_avista", "senar_avista", 0.95, 0.999, "Funrural à vista / Senar à vista"],
  ["valor_30d", "valor", 1, 1.08, "30 dias / à vista"],
  // each discounted group too (1,008–1,014 recorded): one group's columns swapped keeps every
  // ratio above in range (Funrural's: 0,997 and 0,971)
  ["funrural_30d", "funrural_avista", 1, 1.08, "Funrural 30 dias / Funrural à vista"],
  ["senar_30d", "senar_avista", 1, 1.08, "Senar 30 dias / Senar à vista"],
  ["senar_30d", "valor_30d", 0.985, 1, "Senar 30 dias / 30 dias"],
  ["funrural_30d", "valor_30d", 0.95, 0.999, "Funrural 30 dias / 30 dias"],
  ["funrural_30d", "senar_30d", 0.95, 0.999, "Funrural 30 dias / Senar 30 dias"],
];

function money(row: PriceRow, campo: string): number | undefined {
  if (campo === "valor") return row.valor;
  const v = row.extras[campo];
  return typeof v === "number" ? v : undefined;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/**
 * Cross-field checks on the rows of one page, before anything is assembled: each row's columns
 * must agree with each other (CEPEA's R$ and US$ through a plausible exchange rate, consistent
 * across the page; Scot's cash, 30-day, Funrural and Senar columns in their usual relation).
 * Returns the reasons the page is rejected; empty when it passes.
 */
export function checkRows(rows: readonly PriceRow[]): string[] {
  const problems: string[] = [];
  const fmt = formatDecimalBR;
  const where = (r: PriceRow) => `${r.produto}${r.uf ? `/${r.uf}` : ""}${r.praca ? `, praça ${r.praca}` : ""} em ${formatDateBR(r.data)}`;

  const rates: Array<[PriceRow, number]> = [];
  for (const r of rows) {
    const usd = money(r, "valor_usd");
    if (usd === undefined) continue;
    if (usd <= 0) {
      problems.push(`${where(r)}: valor em US$ ${fmt(usd)} não é positivo`);
      continue;
    }
    const rate = r.valor / usd;
    const [lo, hi] = cambioPlausivel(r.data);
    if (rate < lo || rate > hi) {
      problems.push(
        `${where(r)}: R$ ${fmt(r.valor)} e US$ ${fmt(usd)} implicam um câmbio de ${rate.toFixed(2).replace(".", ",")} R$/US$, ` +
          `fora do plausível (${String(lo).replace(".", ",")}–${String(hi).replace(".", ",")}); colunas trocadas?`,
      );
      continue;
    }
    if (r.data < CAMBIO_TRANSICAO[0] || r.data > CAMBIO_TRANSICAO[1]) rates.push([r, rate]);
  }
  if (rates.length >= 3) {
    // a single row whose columns moved (one cell shifted) stands out from the page's own rate
    const m = median(rates.map(([, x]) => x));
    for (const [r, rate] of rates) {
      if (Math.abs(rate / m - 1) > CAMBIO_DESVIO_MAX) {
        problems.push(
          `${where(r)}: câmbio implícito de ${rate.toFixed(2).replace(".", ",")} R$/US$ difere mais de ${CAMBIO_DESVIO_MAX * 100}% ` +
            `da mediana da página (${m.toFixed(2).replace(".", ",")})`,
        );
      }
    }
  }

  // Scot's "# base" is each praça's price against São Paulo's, in percent: price ÷ (1 + base/100)
  // gives the same SP price on every row of a table (within rounding: 345,5 to 346,2 on the
  // recorded page). A base that implies another SP price than the table's is a misread column.
  const grupos = new Map<string, Array<[PriceRow, number]>>();
  for (const r of rows) {
    const b = money(r, "base_sp");
    if (b === undefined || b <= -100) continue;
    const k = `${r.produto}|${r.unidade}|${r.data}`;
    grupos.set(k, [...(grupos.get(k) ?? []), [r, r.valor / (1 + b / 100)]]);
  }
  for (const grupo of grupos.values()) {
    if (grupo.length < 3) continue;
    const m = median(grupo.map(([, x]) => x));
    for (const [r, sp] of grupo) {
      if (Math.abs(sp / m - 1) > BASE_DESVIO_MAX) {
        problems.push(
          `${where(r)}: base ${fmt(money(r, "base_sp")!)}% sobre R$ ${fmt(r.valor)} implica São Paulo a R$ ${fmt(Math.round(sp * 100) / 100)}, ` +
            `mas a tabela implica R$ ${fmt(Math.round(m * 100) / 100)} (diferença acima de ${BASE_DESVIO_MAX * 100}%)`,
        );
      }
    }
  }

  // any row that publishes these columns (Scot's tables today), whatever its source
  for (const r of rows) {
    for (const [campo, base, min, max, nome] of SCOT_RELACOES) {
      const a = money(r, campo);
      const b = money(r, base);
      if (a === undefined || b === undefined || b <= 0) continue;
      const ratio = a / b;
      if (ratio < min || ratio > max) {
        problems.push(
          `${where(r)}: ${nome} = ${fmt(a)} / ${fmt(b)} = ${ratio.toFixed(3).replace(".", ",")}, fora da relação esperada ` +
            `(${String(min).replace(".", ",")}–${String(max).replace(".", ",")})`,
        );
      }
    }
  }
  return problems;
}
