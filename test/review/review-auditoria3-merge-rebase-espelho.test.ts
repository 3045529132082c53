/**
 * Audit: the reference praça of a UF changed in cotacao.config.json (MS: C. Grande → Três
 * Lagoas) on a run where Scot is blocked and its page is read from the Notícias Agrícolas
 * republication, which lags (dated 06/07/2026, behind the published 05/08/2026). The stored days were
 * re-based on Três Lagoas (05/08 became 331), but the series kept naming C. Grande, whose price
 * that day was 338: boi_gordo/MS would have said "R$ 331,00/@ em 05/08/2026, C. Grande (MS)". The
 * validation caught it and threw, so nothing of the run was written, for any source, run after
 * run while the mirror lagged. The series now names the praça its newest day was re-based on.
 */
import { describe, expect, it } from "vitest";
import { runValidate } from "../../pipeline/cli/validate.ts";
import { cleanup, milhoComDiaNovo, readJson, replayComConfig, replayDir } from "../helpers/pipeline.ts";
import { scotPeloEspelho, sitePublicado } from "../helpers/publicado.ts";

describe("audit: a new reference praça re-based by a lagging mirror's page", () => {
  it("publishes the re-based series under the new praça's name, and the rest of the run with it", async () => {
    const site = await sitePublicado();
    const pages = await replayDir();
    try {
      const antes = await readJson(site, "api/v1/cotacao/boi_gordo/MS.json");
      expect([antes.praca, antes.valor, antes.data_cotacao]).toEqual(["C. Grande", 338, "2026-08-05"]);
      await scotPeloEspelho(pages, ["boi-gordo"]);
      // another source has a new day in the same run: it must be published too
      await milhoComDiaNovo(pages);
      const r = await replayComConfig(pages, site, "2026-09-27T13:00:00-03:00", { pracasReferencia: { MS: "Três Lagoas" } });
      expect(r.outcomes.find((o) => o.source === "scot" && o.page === "boi-gordo")).toMatchObject({ ok: true, via: "noticias-agricolas" });
      const ms = await readJson(site, "api/v1/cotacao/boi_gordo/MS.json");
      // the price and the praça it names agree, with the praça's own quote that day
      expect([ms.praca, ms.valor, ms.data_cotacao]).toEqual(["Três Lagoas", 331, "2026-08-05"]);
      expect(ms.pracas.find((q: { praca: string }) => q.praca === "Três Lagoas").valor).toBe(331);
      expect(ms.bordao).toMatch(/R\$ 331,00\/@ em 05\/08\/2026, Três Lagoas \(MS\)/);
      expect(ms.historico.at(-1)).toEqual({ data: "2026-08-05", valor: 331, pracas: { Dourados: 338, "C. Grande": 338, "Três Lagoas": 331 } });
      expect((await readJson(site, "api/v1/cotacao/milho.json")).data_cotacao).toBe("2026-09-08");
      expect(runValidate(site)).toBe(0);
    } finally {
      await cleanup(site, pages);
    }
  }, 120_000);
});
