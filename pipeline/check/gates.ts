import { dayBrasilia, daysBetween } from "../domain/dates.ts";
import { PRODUTO_INFO } from "../domain/products.ts";
import { formatDecimalBR, variationPct } from "../domain/money.ts";
import type { HistoricoEntry } from "../render/shapes.ts";
import type { SeriesUpdate } from "../history/assemble.ts";

/** A jump is only judged against a previous day at most this many days before. */
const JUMP_WINDOW_DAYS = 10;

/**
 * The gates a page must pass before any of its values is merged: plausible range for the
 * product and unit, no day in the future (Brasília), no day-over-day jump beyond the product's
 * threshold (against the page's own previous day or the stored history). Returns the reasons
 * the page is rejected; empty when it passes.
 */
export function checkUpdates(
  updates: readonly SeriesUpdate[],
  history: (id: string) => readonly HistoricoEntry[],
  now: Date,
): string[] {
  const problems: string[] = [];
  const today = dayBrasilia(now);
  for (const u of updates) {
    const info = PRODUTO_INFO[u.def.produto];
    const range = info.faixa[u.def.unidade];
    const fmt = formatDecimalBR;
    const inRange = (v: number) => !range || (v >= range[0] && v <= range[1]);
    for (const e of u.entries) {
      if (e.data > today) {
        problems.push(`${u.def.id}: data ${e.data} no futuro (hoje é ${today} em Brasília)`);
      }
      if (!inRange(e.valor)) {
        problems.push(`${u.def.id} em ${e.data}: R$ ${fmt(e.valor)}/${u.def.unidade} fora da faixa plausível (${range![0]}–${range![1]})`);
      }
    }
    for (const q of u.pracas?.quotes ?? []) {
      const r = info.faixa[q.unidade];
      if (r && (q.valor < r[0] || q.valor > r[1])) {
        problems.push(`${u.def.id}, praça ${q.praca}: R$ ${fmt(q.valor)}/${q.unidade} fora da faixa plausível (${r[0]}–${r[1]})`);
      }
    }
    // day-over-day jumps, over the stored history with the page's days laid in
    const incoming = new Set(u.entries.map((e) => e.data));
    const merged = new Map<string, HistoricoEntry>();
    for (const e of history(u.def.id)) merged.set(e.data, e);
    for (const e of u.entries) merged.set(e.data, e);
    const days = [...merged.values()].sort((a, b) => (a.data < b.data ? -1 : 1));
    for (let i = 1; i < days.length; i++) {
      const prev = days[i - 1]!;
      const cur = days[i]!;
      if (!incoming.has(cur.data) && !incoming.has(prev.data)) continue;
      if (daysBetween(prev.data, cur.data) > JUMP_WINDOW_DAYS) continue;
      const pct = variationPct(prev.valor, cur.valor);
      if (Math.abs(pct) > info.saltoMaximoPct) {
        problems.push(
          `${u.def.id}: salto de ${formatDecimalBR(pct)}% de ${prev.data} (R$ ${fmt(prev.valor)}) para ${cur.data} (R$ ${fmt(cur.valor)}), acima do limite de ${info.saltoMaximoPct}% para ${info.nome.toLowerCase()}`,
        );
      }
    }
  }
  return problems;
}
