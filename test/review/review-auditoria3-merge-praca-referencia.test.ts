/**
 * Audit: the reference praça of a UF changed in cotacao.config.json to a praça that some stored
 * day does not quote. MS published on 05/08/2026 from a table without Três Lagoas (C. Grande,
 * 338); the operator then chose Três Lagoas, and the next day's table has it at 331. The re-base
 * could not move 05/08 (Três Lagoas was not quoted), so boi_gordo/MS published praça "Três
 * Lagoas" with 05/08 at C. Grande's 338 (and C. Grande's Funrural and Senar columns) and a
 * variation of -2,07 % on 06/08: no market move, the difference between two praças. The page is
 * now refused, naming the days, and the series stays on the old praça; a praça renamed on the
 * page (the old name gone from it) is still the same praça and is re-based as before.
 */
import { describe, expect, it } from "vitest";
import { runValidate } from "../../pipeline/cli/validate.ts";
import { cleanup, editPage, milhoComDiaNovo, readJson, replay, replayDir, replayComConfig, tempSite } from "../helpers/pipeline.ts";

const SEM_TRES_LAGOAS = (h: string) => h.replace(/<tr class='conteudo'>\s*<td[^>]*>MS Três Lagoas<\/td>[\s\S]*?<\/tr>/, "");


describe("audit: a new reference praça that a published day does not quote", () => {
  it("refuses the page instead of publishing the old praça's days and a variation between two praças", async () => {
    const site = await tempSite();
    const p1 = await replayDir();
    const p2 = await replayDir();
    try {
      await editPage(p1, "scot/boi-gordo.html", SEM_TRES_LAGOAS);
      expect((await replay(p1, site, "2026-09-27T12:00:00-03:00")).exitCode).toBe(0);
      const antes = await readJson(site, "api/v1/cotacao/boi_gordo/MS.json");
      expect([antes.praca, antes.valor, antes.data_cotacao]).toEqual(["C. Grande", 338, "2026-08-05"]);
      await editPage(p2, "scot/boi-gordo.html", (h) => h.replaceAll("05/08/2026", "06/08/2026"));
      await milhoComDiaNovo(p2);
      const r = await replayComConfig(p2, site, "2026-09-27T13:00:00-03:00", { pracasReferencia: { MS: "Três Lagoas" } });
      const o = r.outcomes.find((x) => x.source === "scot" && x.page === "boi-gordo")!;
      expect(o).toMatchObject({ ok: false, kind: "rejected" });
      expect(!o.ok && o.reason).toMatch(
        /boi_gordo\/MS: a praça de referência mudou de "C. Grande" para "Três Lagoas" \(pracasReferencia em cotacao.config.json\), mas Três Lagoas não tem cotação em 1 dia\(s\) do histórico \(05\/08\/2026\)/,
      );
      const ms = await readJson(site, "api/v1/cotacao/boi_gordo/MS.json");
      expect([ms.praca, ms.valor, ms.data_cotacao, ms.variacao]).toEqual(["C. Grande", 338, "2026-08-05", antes.variacao]);
      // the rest of the run is published
      expect((await readJson(site, "api/v1/cotacao/milho.json")).data_cotacao).toBe("2026-09-08");
      expect(runValidate(site)).toBe(0);
    } finally {
      await cleanup(site, p1, p2);
    }
  }, 120_000);

  it("a praça renamed on the page (its old name gone) is the same praça: the series follows the new name", async () => {
    const site = await tempSite();
    const p1 = await replayDir();
    const p2 = await replayDir();
    try {
      expect((await replay(p1, site, "2026-09-27T12:00:00-03:00")).exitCode).toBe(0);
      await editPage(p2, "scot/boi-gordo.html", (h) => h.replaceAll("05/08/2026", "06/08/2026").replace("MS C. Grande", "MS Campo Grande"));
      const r = await replayComConfig(p2, site, "2026-09-27T13:00:00-03:00", { pracasReferencia: { MS: "Campo Grande" } });
      expect(r.outcomes.find((x) => x.source === "scot" && x.page === "boi-gordo")).toMatchObject({ ok: true });
      const ms = await readJson(site, "api/v1/cotacao/boi_gordo/MS.json");
      expect([ms.praca, ms.valor, ms.data_cotacao]).toEqual(["Campo Grande", 338, "2026-08-06"]);
      expect(ms.historico.map((e: { data: string; valor: number }) => [e.data, e.valor])).toEqual([["2026-08-05", 338], ["2026-08-06", 338]]);
    } finally {
      await cleanup(site, p1, p2);
    }
  }, 120_000);
});
