import type { HistoricoEntry } from "../domain/publicados.ts";
import { canonicalEntry, mergeEntry } from "./entry.ts";

export interface Revision {
  data: string;
  antes: HistoricoEntry;
  depois: HistoricoEntry;
}

export interface MergeResult {
  historico: HistoricoEntry[];
  /** days that were not in the history before */
  added: string[];
  /** known days whose published values changed */
  revised: Revision[];
}

function same(a: HistoricoEntry, b: HistoricoEntry): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Pure and idempotent: merging the same page twice gives the same history. Days are kept in
 * date order without duplicates; an older page only fills gaps (the latest value stays the
 * latest day's); a known day takes the page's values, keeps the fields the page does not carry
 * (mergeEntry), and is reported as a revision only when that changes it. When `incoming` holds
 * the same day twice, the later one wins.
 */
export function mergeHistorico(existing: readonly HistoricoEntry[], incoming: readonly HistoricoEntry[]): MergeResult {
  const byDate = new Map<string, HistoricoEntry>();
  for (const e of existing) byDate.set(e.data, e);
  const added: string[] = [];
  const revised: Revision[] = [];
  const seen = new Map<string, HistoricoEntry>();
  for (const e of incoming) seen.set(e.data, e);
  for (const [data, e] of seen) {
    const old = byDate.get(data);
    if (!old) {
      added.push(data);
      byDate.set(data, e);
      continue;
    }
    const merged = mergeEntry(old, e);
    if (!same(canonicalEntry(old), merged)) {
      revised.push({ data, antes: old, depois: merged });
      byDate.set(data, merged);
    }
  }
  if (added.length === 0 && revised.length === 0) {
    return { historico: [...existing], added, revised };
  }
  const historico = [...byDate.values()].sort((a, b) => (a.data < b.data ? -1 : a.data > b.data ? 1 : 0));
  added.sort();
  revised.sort((a, b) => (a.data < b.data ? -1 : 1));
  return { historico, added, revised };
}
