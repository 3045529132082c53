import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mergeHistorico } from "../pipeline/history/merge.ts";
import type { HistoricoEntry } from "../pipeline/domain/publicados.ts";

const day = fc.integer({ min: 0, max: 60 }).map((n) => new Date(Date.UTC(2026, 7, 1 + n)).toISOString().slice(0, 10));
const cents = fc.integer({ min: 10_000, max: 50_000 }).map((c) => c / 100);
const entry = fc.record({ data: day, valor: cents });
/** a history as stored: sorted, one entry per day */
const history = fc.array(entry, { maxLength: 40 }).map((xs) => {
  const m = new Map(xs.map((e) => [e.data, e]));
  return [...m.values()].sort((a, b) => (a.data < b.data ? -1 : 1));
});
const page = fc.array(entry, { maxLength: 20 });

function isSortedUnique(h: readonly HistoricoEntry[]): boolean {
  return h.every((e, i) => i === 0 || h[i - 1]!.data < e.data);
}

describe("mergeHistorico", () => {
  it("keeps days sorted and unique", () => {
    fc.assert(fc.property(history, page, (h, p) => isSortedUnique(mergeHistorico(h, p).historico)));
  });

  it("is idempotent: the same page merged twice changes nothing the second time", () => {
    fc.assert(
      fc.property(history, page, (h, p) => {
        const once = mergeHistorico(h, p);
        const twice = mergeHistorico(once.historico, p);
        expect(twice.added).toEqual([]);
        expect(twice.revised).toEqual([]);
        expect(twice.historico).toEqual(once.historico);
      }),
    );
  });

  it("loses no day: every stored day and every incoming day is in the result", () => {
    fc.assert(
      fc.property(history, page, (h, p) => {
        const out = new Set(mergeHistorico(h, p).historico.map((e) => e.data));
        for (const e of [...h, ...p]) expect(out.has(e.data)).toBe(true);
      }),
    );
  });

  it("takes the page's value for a day it carries and reports changed days as revisions", () => {
    fc.assert(
      fc.property(history, page, (h, p) => {
        const r = mergeHistorico(h, p);
        const last = new Map(p.map((e) => [e.data, e]));
        const stored = new Map(h.map((e) => [e.data, e]));
        for (const [d, e] of last) expect(r.historico.find((x) => x.data === d)).toEqual(e);
        const expectedRevised = [...last].filter(([d, e]) => stored.has(d) && stored.get(d)!.valor !== e.valor).map(([d]) => d).sort();
        expect(r.revised.map((x) => x.data)).toEqual(expectedRevised);
        const expectedAdded = [...last.keys()].filter((d) => !stored.has(d)).sort();
        expect(r.added).toEqual(expectedAdded);
      }),
    );
  });

  it("an older page fills gaps without moving the latest value back", () => {
    fc.assert(
      fc.property(history.filter((h) => h.length > 0), page, (h, p) => {
        const newest = h[h.length - 1]!;
        const older = p.filter((e) => e.data < newest.data);
        const r = mergeHistorico(h, older);
        expect(r.historico[r.historico.length - 1]).toEqual(newest);
      }),
    );
  });

  it("pages about different days commute", () => {
    fc.assert(
      fc.property(history, page, page, (h, a, b) => {
        const bDays = new Set(b.map((e) => e.data));
        const a2 = a.filter((e) => !bDays.has(e.data));
        const ab = mergeHistorico(mergeHistorico(h, a2).historico, b).historico;
        const ba = mergeHistorico(mergeHistorico(h, b).historico, a2).historico;
        expect(ab).toEqual(ba);
      }),
    );
  });

  it("reports a revision with the value before and after", () => {
    const r = mergeHistorico(
      [{ data: "2026-09-03", valor: 347.6 }, { data: "2026-09-04", valor: 347.7 }],
      [{ data: "2026-09-03", valor: 347.5 }, { data: "2026-09-08", valor: 348.1 }],
    );
    expect(r.added).toEqual(["2026-09-08"]);
    expect(r.revised).toEqual([{ data: "2026-09-03", antes: { data: "2026-09-03", valor: 347.6 }, depois: { data: "2026-09-03", valor: 347.5 } }]);
    expect(r.historico.map((e) => e.data)).toEqual(["2026-09-03", "2026-09-04", "2026-09-08"]);
  });
});
