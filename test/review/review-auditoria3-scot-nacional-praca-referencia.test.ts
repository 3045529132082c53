/**
 * Audit: SP's reference praça changed in cotacao.config.json, seen by the national series Scot
 * feeds from it (vaca_gorda and novilha_gorda: "São Paulo (praça de referência da Scot
 * Consultoria)"). The state series vaca_gorda/SP was re-based on the new praça, but the national
 * series keeps no praças per day and was not: on a day when Araçatuba was at 316,00 and Barretos
 * at 318,00, vaca_gorda kept 05/08 at Barretos' 318,00, published 06/08 at Araçatuba's 316,00 and
 * a variation of -0,63 % that no praça made (vaca_gorda/SP, re-based, said 316,00 → 316,00), and
 * the two files disagreed on the same day of the same praça. The page is now refused, naming the
 * two praças, and the series stays on the old praça until the configuration goes back to it.
 * Replays of recorded pages into temp dirs only.
 */
import { describe, expect, it } from "vitest";
import { cleanup, editPage, readJson, replay, replayDir, replayComConfig, tempSite } from "../helpers/pipeline.ts";

/** The vaca table with SP Araçatuba two reais below Barretos (316,00 / 320,00; Funrural and Senar alike). */
function aracatubaAbaixo(h: string): string {
  const re = /(SP Araçatuba<\/td>\s*<td>)318,00(<\/td>\s*<td>)322,00([\s\S]*?>)313,00([\s\S]*?> )317,00([\s\S]*?)317,50([\s\S]*?)321,50/;
  if (!re.test(h)) throw new Error("linha de SP Araçatuba não encontrada");
  return h.replace(re, "$1316,00$2320,00$3311,00$4315,00$5315,50$6319,50");
}


/** 05/08/2026 published from the vaca table above (Barretos the reference), and the same table as 06/08 in `p2` for the next run. */
async function doisDias(): Promise<{ site: string; p1: string; p2: string }> {
  const site = await tempSite();
  const p1 = await replayDir();
  const p2 = await replayDir();
  await editPage(p1, "scot/vaca-gorda.html", aracatubaAbaixo);
  expect((await replay(p1, site, "2026-09-27T12:00:00-03:00")).exitCode).toBe(0);
  await editPage(p2, "scot/vaca-gorda.html", (h) => aracatubaAbaixo(h).replaceAll("05/08/2026", "06/08/2026"));
  return { site, p1, p2 };
}

describe("audit: SP's reference praça changed under the national vaca gorda", () => {
  it("refuses the page instead of a national series that mixes Barretos' days with Araçatuba's", async () => {
    const { site, p1, p2 } = await doisDias();
    try {
      const antes = await readJson(site, "api/v1/cotacao/vaca_gorda.json");
      expect([antes.valor, antes.data_cotacao]).toEqual([318, "2026-08-05"]);
      const r = await replayComConfig(p2, site, "2026-09-27T13:00:00-03:00", { pracasReferencia: { SP: "Araçatuba" } });
      const o = r.outcomes.find((x) => x.source === "scot" && x.page === "vaca-gorda")!;
      expect(o).toMatchObject({ ok: false, kind: "rejected" });
      expect(!o.ok && o.reason).toMatch(
        /vaca_gorda: a praça de referência de SP mudou de "Barretos" para "Araçatuba" \(pracasReferencia em cotacao.config.json\), mas a série nacional vaca_gorda não guarda as praças de cada dia/,
      );
      const nacional = await readJson(site, "api/v1/cotacao/vaca_gorda.json");
      expect(nacional.historico.map((e: { data: string; valor: number }) => [e.data, e.valor])).toEqual([["2026-08-05", 318]]);
      expect(nacional.variacao ?? null).toEqual(antes.variacao ?? null);
      const sp = await readJson(site, "api/v1/cotacao/vaca_gorda/SP.json");
      expect([sp.praca, sp.valor, sp.data_cotacao]).toEqual(["Barretos", 318, "2026-08-05"]);
    } finally {
      await cleanup(site, p1, p2);
    }
  }, 120_000);

  it("the same configuration, unchanged, still publishes the next day on Barretos", async () => {
    const { site, p1, p2 } = await doisDias();
    try {
      const r = await replayComConfig(p2, site, "2026-09-27T13:00:00-03:00", { pracasReferencia: { SP: "Barretos" } });
      expect(r.outcomes.find((x) => x.source === "scot" && x.page === "vaca-gorda")).toMatchObject({ ok: true });
      const nacional = await readJson(site, "api/v1/cotacao/vaca_gorda.json");
      expect(nacional.historico.map((e: { data: string; valor: number }) => [e.data, e.valor])).toEqual([["2026-08-05", 318], ["2026-08-06", 318]]);
    } finally {
      await cleanup(site, p1, p2);
    }
  }, 120_000);
});
