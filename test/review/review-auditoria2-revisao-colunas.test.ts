/**
 * Audit: a known day revised by a page that carries fewer columns (the Notícias Agrícolas mirror:
 * CEPEA's R$ without its US$, Scot's prices without the Funrural and Senar columns) kept the
 * stored columns beside the new value. Milho 04/09/2026, 70,93 with US$ 13,83 from CEPEA's page,
 * revised through the mirror to 71,50 (inside the 1 % revision bound) was published as
 * {valor: 71.5, valor_usd: 13.83}: the dollar price of a value that is no longer the day's. A
 * page that changes any value it carries now drops the columns it does not carry for that day (and praça);
 * the same value seen again still keeps them, and is no revision. Dropping a published number is
 * a revision beyond the bound: the update holds such a page for an operator (revisao_suspeita,
 * with the --aceitar-revisao that accepts it), so the mirror's revision is late, never wrong.
 */
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runValidate } from "../../pipeline/cli/validate.ts";
import { mergeQuotes } from "../../pipeline/history/entry.ts";
import { mergeHistorico } from "../../pipeline/history/merge.ts";
import { milhoRevistoPeloEspelho } from "../helpers/espelho.ts";
import { cleanup, replay, replayDir, tempSite } from "../helpers/pipeline.ts";

describe("audit: a revised value does not keep the columns of the value it replaces", () => {
  it("mergeHistorico: the same value through a page with fewer columns keeps them (no revision); a new value drops them", () => {
    const stored = [{ data: "2026-09-04", valor: 70.93, valor_usd: 13.83 }];
    const mesmo = mergeHistorico(stored, [{ data: "2026-09-04", valor: 70.93 }]);
    expect(mesmo.revised).toEqual([]);
    expect(mesmo.historico).toEqual(stored);
    const novo = mergeHistorico(stored, [{ data: "2026-09-04", valor: 71.5 }]);
    expect(novo.historico).toEqual([{ data: "2026-09-04", valor: 71.5 }]);
    expect(novo.revised).toEqual([{ data: "2026-09-04", antes: stored[0], depois: { data: "2026-09-04", valor: 71.5 } }]);
    // a page with every column revises them all, as before
    expect(mergeHistorico(stored, [{ data: "2026-09-04", valor: 71.5, valor_usd: 13.9 }]).historico).toEqual([{ data: "2026-09-04", valor: 71.5, valor_usd: 13.9 }]);
  });

  it("mergeQuotes: a praça at the same values keeps the columns the page lacks; at a new value (à vista or 30 days) it does not", () => {
    const stored = [
      { praca: "SP", valor: 318, unidade: "@" as const, valor_30d: 321, funrural_avista: 313.5 },
      { praca: "MS", valor: 300, unidade: "@" as const, valor_30d: 303, funrural_avista: 295.7 },
    ];
    const r = mergeQuotes(stored, [
      { praca: "SP", valor: 318, unidade: "@", valor_30d: 321 },
      { praca: "MS", valor: 302, unidade: "@", valor_30d: 305 },
    ]);
    expect(r).toEqual([
      { praca: "SP", valor: 318, unidade: "@", valor_30d: 321, funrural_avista: 313.5 },
      { praca: "MS", valor: 302, unidade: "@", valor_30d: 305 },
    ]);
    // the same à vista with a new 30-day price: the stored 30-day Funrural was the old price's
    const trinta = [{ praca: "SP", valor: 318, unidade: "@" as const, valor_30d: 321, funrural_30d: 316.5, funrural_avista: 313.5 }];
    expect(mergeQuotes(trinta, [{ praca: "SP", valor: 318, unidade: "@", valor_30d: 322 }])).toEqual([{ praca: "SP", valor: 318, unidade: "@", valor_30d: 322 }]);
    expect(mergeHistorico([{ data: "2026-08-05", valor: 318, valor_30d: 321, funrural_30d: 316.5 }], [{ data: "2026-08-05", valor: 318, valor_30d: 322 }]).historico).toEqual([
      { data: "2026-08-05", valor: 318, valor_30d: 322 },
    ]);
  });

  it("through the update: milho 04/09 revised by the mirror to 71,50 never stands beside CEPEA's US$ of 70,93; the page is held, naming the US$ it would drop", async () => {
    const site = await tempSite();
    const dir = await replayDir();
    try {
      // CEPEA's own page first: 04/09 is 70,93 and US$ 13,83
      expect((await replay(dir, site, "2026-09-27T12:00:00-03:00")).exitCode).toBe(0);
      const antes = await readFile(join(site, "api/v1/cotacao/milho.json"), "utf8");
      expect(JSON.parse(antes).historico.find((e: { data: string }) => e.data === "2026-09-04")).toEqual({ data: "2026-09-04", valor: 70.93, valor_usd: 13.83 });
      // then CEPEA's page is missing and NA's says 71,50 (+0,8 %, inside milho's 1 % revision
      // bound), its variations agreeing with it: +0,62 % on 03/09's 71,06, and 08/09's -0,84 %
      await milhoRevistoPeloEspelho(dir, 71.50);
      const r = await replay(dir, site, "2026-09-28T12:00:00-03:00");
      const o = r.outcomes.find((x) => x.source === "cepea" && x.page === "milho")!;
      // the US$ of 70,93 goes with it, and a published number removed is held for an operator (a
      // late price, never a wrong pair): the message names it and the command that accepts it
      expect(o).toMatchObject({ ok: false, kind: "revisao_suspeita" });
      if (!o.ok) {
        expect(o.revisoes).toEqual([expect.objectContaining({ serie: "milho", data: "2026-09-04", campo: "valor_usd", antes: 13.83, depois: null, aceitar: "milho@2026-09-04:valor_usd=nenhum" })]);
        expect(o.reason).toMatch(/milho em 04\/09\/2026, valor_usd: 13,83 → \(nenhum\)/);
      }
      expect(await readFile(join(site, "api/v1/cotacao/milho.json"), "utf8")).toBe(antes);
      expect(await readFile(join(site, "api/v1/historico/milho.csv"), "utf8")).toMatch(/^2026-09-04,70\.93,sc60kg,13\.83$/m);
      expect(runValidate(site)).toBe(0);
    } finally {
      await cleanup(site);
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
