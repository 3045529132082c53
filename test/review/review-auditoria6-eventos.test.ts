/**
 * Audit 6, events and feed: ways a subscriber (eventos.json, the Atom feed, the webhooks) was
 * told a number or a story the published series does not show.
 *
 * 1. CEPEA corrects the day before along with a new day: the price_changed measured the new day
 *    from the superseded value (347,60 → 347,70, "alta de 0,03%") while the series said
 *    347,00 → 347,70 (+0,20%); with the day before revised above the new one the event said
 *    "alta" and the series "queda".
 * 2. A day's value flip-flopping within the revision bound (origin, lagging mirror, origin): the
 *    third run's events had the first run's ids and were dropped as already seen; eventos.json,
 *    the feed and the webhooks stayed on the mirror's number.
 * 3. A new reference praça applied to the same table (no new day): the latest published value
 *    went 338 → 331 and only the run summary said anything; price_changed and
 *    historico_revisado were both silent.
 * 4. A run bringing several days: the feed title said "alta de x%" beside the newest date, a
 *    variation from the last day published before, not from the day before.
 */
import { describe, expect, it } from "vitest";
import { renderFeed } from "../../pipeline/events/feed.ts";
import { nextEventos, type Evento, type EventosFile } from "../../pipeline/events/model.ts";
import type { SeriesChange } from "../../pipeline/history/changes.ts";
import type { HistoricoEntry, PracaQuote, SerieFile } from "../../pipeline/domain/publicados.ts";
import { applyUpdate } from "../../pipeline/run/apply.ts";
import { getSource, serieDef } from "../../pipeline/sources/index.ts";

const NOW = new Date("2026-09-05T12:00:00-03:00");
const origin = { url: "https://example.invalid/", via: null, viaUrl: null, fetchedAt: NOW };

function aplicar(serie: string, existing: SerieFile | undefined, entries: HistoricoEntry[], pracas: { data: string; praca: string; quotes: PracaQuote[] } | null = null) {
  const def = serieDef(serie)!;
  const r = applyUpdate(def, getSource(def.fonte)!, existing, { def, entries, pracas }, origin, NOW);
  if (!r) throw new Error("nada mudou");
  return r;
}

const doTipo = <T extends Evento["tipo"]>(f: EventosFile, tipo: T) => f.eventos.filter((e): e is Extract<Evento, { tipo: T }> => e.tipo === tipo);

describe("audit 6: price_changed measured from the day before as the series now publishes it", () => {
  const base = aplicar("boi_gordo", undefined, [
    { data: "2026-09-02", valor: 340 },
    { data: "2026-09-03", valor: 347.6 },
  ]).file;

  it("the day before revised along with a new day: the event's variation is the series' own", () => {
    const r = aplicar("boi_gordo", base, [
      { data: "2026-09-03", valor: 347 },
      { data: "2026-09-04", valor: 347.7 },
    ]);
    expect(r.file.variacao).toMatchObject({ data_anterior: "2026-09-03", anterior: 347, absoluta: 0.7, percentual: 0.2 });
    const f = nextEventos(null, [r.change], NOW);
    const [pc] = doTipo(f, "price_changed");
    expect(pc?.dados).toMatchObject({ anterior: { data: "2026-09-03", valor: 347 }, atual: { data: "2026-09-04", valor: 347.7 }, variacao: { absoluta: 0.7, percentual: 0.2 } });
    // the correction itself is told, from the number published before
    expect(doTipo(f, "historico_revisado")[0]?.dados.revisoes).toEqual([{ data: "2026-09-03", anterior: 347.6, atual: 347 }]);
    expect(renderFeed(f)).toContain("R$ 347,70/@ em 04/09/2026, alta de 0,20%");
  });

  it("the day before revised above the new day: a fall, as the series says, never a rise", () => {
    const r = aplicar("boi_gordo", base, [
      { data: "2026-09-03", valor: 348 },
      { data: "2026-09-04", valor: 347.7 },
    ]);
    expect(r.file.variacao?.percentual).toBe(-0.09);
    const f = nextEventos(null, [r.change], NOW);
    expect(doTipo(f, "price_changed")[0]?.dados.variacao).toEqual({ absoluta: -0.3, percentual: -0.09 });
    expect(renderFeed(f)).toContain("queda de 0,09%");
    expect(renderFeed(f)).not.toContain("alta de");
  });

  it("a revision of the latest day alone is still the price_changed of that day", () => {
    const r = aplicar("boi_gordo", base, [{ data: "2026-09-03", valor: 347.9 }]);
    const f = nextEventos(null, [r.change], NOW);
    expect(doTipo(f, "price_changed")[0]?.dados).toMatchObject({ anterior: { data: "2026-09-03", valor: 347.6 }, atual: { data: "2026-09-03", valor: 347.9 }, dias: 0 });
    expect(doTipo(f, "historico_revisado")).toEqual([]);
  });
});

describe("audit 6: a value that comes back is a new event", () => {
  const revisao = (de: number, para: number): SeriesChange => ({
    id: "boi_gordo",
    added: [],
    revised: [{ data: "2026-09-04", antes: { data: "2026-09-04", valor: de }, depois: { data: "2026-09-04", valor: para } }],
    campos: [],
    rebase: [],
    pracasChanged: false,
    antes: { data: "2026-09-04", valor: de },
    depois: { data: "2026-09-04", valor: para },
  });

  it("origin, lagging mirror, origin again: the third run's events are recorded, and a replay of it adds nothing", () => {
    let f = nextEventos(null, [revisao(347.6, 347.7)], new Date("2026-09-05T10:00:00-03:00"));
    f = nextEventos(f, [revisao(347.7, 347.6)], new Date("2026-09-05T11:00:00-03:00"));
    const terceira = new Date("2026-09-05T12:00:00-03:00");
    f = nextEventos(f, [revisao(347.6, 347.7)], terceira);
    const novos = f.eventos.filter((e) => e.criado_em === "2026-09-05T12:00:00-03:00");
    expect(novos.map((e) => e.tipo)).toEqual(["cotacao_atualizada", "price_changed"]);
    // the latest word about the series is the number the series publishes
    expect(doTipo(f, "price_changed")[0]?.dados.atual).toEqual({ data: "2026-09-04", valor: 347.7 });
    const ids = f.eventos.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^evt_[0-9a-f]{20}$/);
    expect(nextEventos(f, [revisao(347.6, 347.7)], new Date("2026-09-05T13:00:00-03:00"))).toEqual(f);
    // and a fourth flip is new again
    const quarta = nextEventos(f, [revisao(347.7, 347.6)], new Date("2026-09-05T13:00:00-03:00"));
    expect(quarta.eventos.length).toBe(f.eventos.length + 2);
    expect(doTipo(quarta, "price_changed")[0]?.dados.atual.valor).toBe(347.6);
  });
});

describe("audit 6: the latest day re-based on a new reference praça, with no new day", () => {
  it("the latest value's move from the old praça to the new one is told in historico_revisado", () => {
    const quotes = [
      { praca: "C. Grande", valor: 338, unidade: "@" as const },
      { praca: "Três Lagoas", valor: 331, unidade: "@" as const },
    ];
    const dia = { data: "2026-08-05", valor: 338, pracas: { "C. Grande": 338, "Três Lagoas": 331 } };
    const antes = aplicar("boi_gordo/MS", undefined, [dia], { data: "2026-08-05", praca: "C. Grande", quotes }).file;
    const r = aplicar("boi_gordo/MS", antes, [{ ...dia, valor: 331 }], { data: "2026-08-05", praca: "Três Lagoas", quotes });
    expect([antes.valor, r.file.valor]).toEqual([338, 331]);
    const f = nextEventos(null, [r.change], NOW);
    // no price change between two praças, but the published number changed and is told
    expect(doTipo(f, "price_changed")).toEqual([]);
    expect(doTipo(f, "historico_revisado")[0]?.dados.revisoes).toEqual([{ data: "2026-08-05", anterior: 338, atual: 331 }]);
  });
});

describe("audit 6: the feed title of a run that brings several days", () => {
  const change = (added: string[]): SeriesChange => ({
    id: "milho",
    added,
    revised: [],
    campos: [],
    rebase: [],
    pracasChanged: false,
    antes: { data: "2026-09-02", valor: 70 },
    depois: { data: "2026-09-04", valor: 71 },
  });

  it("names the day the variation starts from when days came in between", () => {
    const feed = renderFeed(nextEventos(null, [change(["2026-09-03", "2026-09-04"])], NOW));
    expect(feed).toMatch(/R\$ 71,00\/sc 60 kg em 04\/09\/2026, alta de 1,43% desde 02\/09\/2026<\/title>/);
  });

  it("a single new day after a gap (a holiday) keeps the plain title", () => {
    const feed = renderFeed(nextEventos(null, [change(["2026-09-04"])], NOW));
    expect(feed).toMatch(/R\$ 71,00\/sc 60 kg em 04\/09\/2026, alta de 1,43%<\/title>/);
  });
});
