/**
 * Audit 4 (output side), Atom feed: a price_changed event's summary wrote the absolute change as
 * reais whatever the unit. CEPEA's cotton is quoted in centavos de R$ per pound (`ct_lb`), so a
 * move from 438,48 to 439,98 centavos de R$/lb (1,50 centavos, R$ 0,015) was published as
 * "+R$ 1,50 (+0,34%)": a hundred times the real change. The change is now written in the unit of
 * the series when that unit is in centavos ("+1,50 centavos de R$/lb"), as the commit message
 * already does; the other units are written as before.
 */
import { describe, expect, it } from "vitest";
import { describeEvento } from "../../pipeline/events/feed.ts";
import { eventsFromChanges } from "../../pipeline/events/model.ts";
import type { SeriesChange } from "../../pipeline/history/changes.ts";

function resumo(id: string, antes: number, depois: number): string {
  const change: SeriesChange = {
    id,
    added: ["2026-09-04"],
    revised: [],
    campos: [],
    rebase: [],
    pracasChanged: false,
    antes: { data: "2026-09-03", valor: antes },
    depois: { data: "2026-09-04", valor: depois },
  };
  const e = eventsFromChanges([change], new Date("2026-09-04T20:00:00Z")).find((x) => x.tipo === "price_changed")!;
  return describeEvento(e).resumo;
}

describe("feed: the absolute change of a price_changed event in the series' unit", () => {
  it("cotton (centavos de R$/lb): the change is in centavos, never R$", () => {
    const r = resumo("algodao", 438.48, 439.98);
    expect(r).not.toContain("R$ 1,50");
    expect(r).toContain(": +1,50 centavos de R$/lb (+0,34%).");
    expect(resumo("algodao", 439.98, 438.48)).toContain(": −1,50 centavos de R$/lb (−0,34%).");
  });

  it("a series in reais keeps its text", () => {
    expect(resumo("boi_gordo", 346.3, 347.7)).toContain(": +R$ 1,40 (+0,40%).");
  });
});
