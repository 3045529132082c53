import { EXTRAS_PRACA } from "../domain/row.ts";
import type { HistoricoEntry, PracaQuote } from "../domain/publicados.ts";

/** Key order of a history line and of a praça quote, whatever order they were built or merged in. */
const ENTRY_KEYS = ["data", "valor", "valor_usd", ...EXTRAS_PRACA, "pracas"] as const;
const QUOTE_KEYS = ["praca", "valor", "unidade", ...EXTRAS_PRACA, "nota"] as const;

function ordered<T extends object>(value: T, keys: readonly string[]): T {
  const src = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of keys) if (src[k] !== undefined) out[k] = src[k];
  for (const k of Object.keys(src)) if (!(k in out) && src[k] !== undefined) out[k] = src[k];
  return out as T;
}

export function canonicalEntry(e: HistoricoEntry): HistoricoEntry {
  return ordered(e, ENTRY_KEYS);
}

export function canonicalQuote(q: PracaQuote): PracaQuote {
  return ordered(q, QUOTE_KEYS);
}

/**
 * Whether every column the page carries (but the day's praças, merged on their own) has the
 * stored value: only then are the stored columns it does not carry still about the same prices
 * (Scot's Funrural and Senar of 30 days are its 30-day price less those taxes, so a new 30-day
 * price with the same à vista does not keep them either).
 */
function mesmosValores(stored: object, incoming: object): boolean {
  const a = stored as Record<string, unknown>;
  for (const [k, v] of Object.entries(incoming)) if (k !== "pracas" && v !== undefined && v !== a[k]) return false;
  return true;
}

/**
 * A known day seen again. The page's values win; columns the page does not carry are kept while
 * the day's values are the same (mesmosValores): the Notícias Agrícolas mirror publishes only part of Scot's and
 * CEPEA's columns, and reading the same day through it must neither erase the others nor count as
 * a revision. A page that changes the value does not keep them: they were the old value's (CEPEA's
 * US$ is its R$ price at that day's dollar, Scot's Funrural and Senar columns are its à vista
 * price less those taxes), and beside a new value they would be wrong numbers; the day publishes
 * what the revising page says, and the rest comes back when a page with those columns is read.
 * The day's praças are exactly the page's (never a union: a praça read wrongly once must be
 * removable by a later, correct page of the same day, as a revision).
 */
export function mergeEntry(stored: HistoricoEntry, incoming: HistoricoEntry): HistoricoEntry {
  const merged: HistoricoEntry = mesmosValores(stored, incoming) ? { ...stored, ...incoming } : { ...incoming };
  if (incoming.pracas) merged.pracas = { ...incoming.pracas };
  return canonicalEntry(merged);
}

/**
 * The praças of one day seen again: exactly the page's praças, in the page's (source) order;
 * a praça quoted before at the same values keeps the columns the page does not carry (mirror),
 * and one whose values changed does not (mergeEntry: they were the old values').
 */
export function mergeQuotes(stored: readonly PracaQuote[], incoming: readonly PracaQuote[]): PracaQuote[] {
  const byName = new Map(stored.map((q) => [q.praca, q]));
  return incoming.map((q) => {
    const s = byName.get(q.praca);
    return canonicalQuote(s && mesmosValores(s, q) ? { ...s, ...q } : q);
  });
}
