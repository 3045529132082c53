/**
 * Review 6 of events (after audit 6):
 *
 * 1. Content that comes back after its earlier twin left eventos.json (a flip-flopping day across
 *    daily runs of 128 series, each run alone 129 to 257 events) got the earlier twin's id again:
 *    the webhook receiver the README tells to discard repeated `webhook-id`s, and any feed
 *    reader, dropped it, and stayed on the superseded number.
 * 2. The day before revised along with a new day of that same revised value: the latest
 *    published value moved (347,60 → 347,70) but no price_changed was told, so a subscriber of
 *    price_changed alone stayed on 347,60.
 */
import { describe, expect, it } from "vitest";
import { nextEventos, type EventosFile } from "../../pipeline/events/model.ts";
import type { SeriesChange } from "../../pipeline/history/changes.ts";
import type { HistoricoEntry, SerieFile } from "../../pipeline/domain/publicados.ts";
import { applyUpdate } from "../../pipeline/run/apply.ts";
import { allSeries, getSource, serieDef } from "../../pipeline/sources/index.ts";

const p = (data: string, valor: number) => ({ data, valor });

/** A daily run: boi_gordo's latest day flips; every other series gets a new day and a revision. */
function run(dia: number, de: number, para: number): SeriesChange[] {
  const outras = allSeries()
    .filter((d) => d.id !== "boi_gordo")
    .map((d): SeriesChange => {
      const hoje = `2026-09-${String(10 + dia).padStart(2, "0")}`;
      const ontem = `2026-09-${String(9 + dia).padStart(2, "0")}`;
      return {
        id: d.id,
        added: [hoje],
        revised: [{ data: ontem, antes: p(ontem, 100 + dia), depois: p(ontem, 100.5 + dia) }],
        campos: [],
        rebase: [],
        pracasChanged: false,
        antes: p(ontem, 100.5 + dia),
        depois: p(hoje, 101 + dia),
      };
    });
  const boi: SeriesChange = {
    id: "boi_gordo",
    added: [],
    revised: [{ data: "2026-09-04", antes: p("2026-09-04", de), depois: p("2026-09-04", para) }],
    campos: [],
    rebase: [],
    pracasChanged: false,
    antes: p("2026-09-04", de),
    depois: p("2026-09-04", para),
  };
  return [boi, ...outras];
}

describe("review 6: an event id is never handed out twice", () => {
  it("a flip-flop whose earlier twin left the list gets an id never published before", () => {
    const publicados = new Set<string>();
    let f: EventosFile | null = null;
    const flips: Array<[number, number]> = [
      [347.6, 347.7],
      [347.7, 347.6],
      [347.6, 347.7],
      [347.7, 347.6],
    ];
    flips.forEach(([de, para], i) => {
      const antes: EventosFile | null = f;
      f = nextEventos(antes, run(i + 1, de, para), new Date(`2026-09-${10 + i + 1}T19:00:00-03:00`));
      const novos = f.eventos.slice(0, f.eventos.length - (antes ? f.eventos.filter((e) => antes.eventos.some((x) => x.id === e.id)).length : 0));
      // boi_gordo's flip is told in every run
      expect(novos.some((e) => e.tipo === "price_changed" && e.dados.serie === "boi_gordo" && e.dados.atual.valor === para)).toBe(true);
      for (const e of novos) {
        expect(publicados.has(e.id), `${e.id} (${e.tipo}) já publicado antes`).toBe(false);
        publicados.add(e.id);
      }
      // a replay of the same run against the same file is the same file
      expect(nextEventos(antes, run(i + 1, de, para), new Date(`2026-09-${10 + i + 1}T19:00:00-03:00`))).toEqual(f);
      // a replay against the file it wrote adds nothing
      expect(nextEventos(f, run(i + 1, de, para), new Date(`2026-09-${10 + i + 1}T20:00:00-03:00`))).toEqual(f);
    });
  });
});

describe("review 6: a new day equal to the revised day before still moves the latest value", () => {
  it("347,60 published, then 03/09 revised to 347,70 and 04/09 at 347,70: a price_changed says 347,70", () => {
    const NOW = new Date("2026-09-05T12:00:00-03:00");
    const origin = { url: "https://example.invalid/", via: null, viaUrl: null, fetchedAt: NOW };
    const def = serieDef("boi_gordo")!;
    const aplicar = (existing: SerieFile | undefined, entries: HistoricoEntry[]) => {
      const r = applyUpdate(def, getSource(def.fonte)!, existing, { def, entries, pracas: null }, origin, NOW);
      if (!r) throw new Error("nada mudou");
      return r;
    };
    const base = aplicar(undefined, [p("2026-09-02", 340), p("2026-09-03", 347.6)]).file;
    const r = aplicar(base, [p("2026-09-03", 347.7), p("2026-09-04", 347.7)]);
    expect([base.valor, r.file.valor]).toEqual([347.6, 347.7]);
    const f = nextEventos(null, [r.change], NOW);
    const pc = f.eventos.filter((e) => e.tipo === "price_changed");
    expect(pc.map((e) => e.dados)).toMatchObject([{ anterior: p("2026-09-03", 347.7), atual: p("2026-09-04", 347.7), variacao: { absoluta: 0, percentual: 0 } }]);
  });
});

describe("review 6: a run with no new data changes no byte of eventos.json", () => {
  it("a file past the bound (one run of 255 events kept whole) is not cut by the next run without data", () => {
    const f = nextEventos(null, run(1, 347.6, 347.7), new Date("2026-09-11T19:00:00-03:00"));
    expect(f.eventos.length).toBeGreaterThan(f.limite);
    expect(nextEventos(f, [], new Date("2026-09-11T20:00:00-03:00"))).toEqual(f);
  });
});
