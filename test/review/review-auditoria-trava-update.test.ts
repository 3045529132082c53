/**
 * Audit: runUpdate read the tree (the series, status.json, the facts, the capture log) without
 * the data directory's lock and took it only to publish (publishFiles locks when its caller does
 * not). The CLI holds the lock around it, but runUpdate is the module's entry point (tests, the
 * backfill's sibling, any script) and runBuild already locks itself: two updates of one tree in
 * one process read the same state, and the second to publish wrote its view over the first's,
 * so a day the first had just published was gone (milho on 08/09/2026). Temp dirs only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanup, editPage, milhoComDiaNovo, readJson, replay, replayDir } from "../helpers/pipeline.ts";
import { sitePublicado } from "../helpers/publicado.ts";

/** CEPEA's boi page with 07/09/2026 on top. */
function boiDiaNovo(h: string): string {
  const topo = h.indexOf("<tbody>", h.indexOf("INDICADOR DO BOI GORDO CEPEA/ESALQ"));
  return h.slice(0, topo) + "<tbody>\n<tr><td>07/09/2026</td><td>348,00</td><td>0,09%</td><td>1,05%</td><td>67,90</td></tr>" + h.slice(topo + "<tbody>".length);
}

describe("audit: two updates of one tree at once, in one process", () => {
  let site: string;
  let comMilho: string;
  let comBoi: string;
  beforeAll(async () => {
    site = await sitePublicado();
    comMilho = await replayDir();
    await milhoComDiaNovo(comMilho);
    comBoi = await replayDir();
    await editPage(comBoi, "cepea/boi-gordo.html", boiDiaNovo);
  });
  afterAll(() => cleanup(site, comMilho, comBoi));

  it("each runs on the tree the other left: both new days are published", async () => {
    const [a, b] = await Promise.all([replay(comMilho, site, "2026-09-27T13:00:00-03:00"), replay(comBoi, site, "2026-09-27T13:00:00-03:00")]);
    expect(a.changes.map((c) => c.id)).toContain("milho");
    expect(b.changes.map((c) => c.id)).toContain("boi_gordo");
    expect((await readJson(site, "api/v1/cotacao/milho.json")).data_cotacao).toBe("2026-09-08");
    expect((await readJson(site, "api/v1/cotacao/boi_gordo.json")).data_cotacao).toBe("2026-09-07");
    const agregado = await readJson(site, "api/v1/cotacao.json");
    expect(agregado.datas).toMatchObject({ milho: "2026-09-08", boi_gordo_cepea_sp: "2026-09-07" });
  });
});
