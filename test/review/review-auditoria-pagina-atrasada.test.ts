/**
 * Audit: a page that goes back in time. A stale copy of a page (a CDN's cached copy served while
 * the origin is down, a mirror that lags) shows days already published, some of them with the
 * values the source has since revised. Its numbers are within the revision bound of what is
 * stored (they are the source's own earlier numbers), so they were merged as a revision: the
 * day went back to the superseded value (boi gordo on 03/09/2026: 347,65 after CEPEA's revision,
 * back to 347,60). A page whose newest day for a series is older than the series' last
 * published day is behind the source: it may fill a day that is missing, but what it would
 * change is held like a revision beyond the bound. Replays into temp dirs only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanup, editPage, readJson, replay, replayDir } from "../helpers/pipeline.ts";
import { sitePublicado } from "../helpers/publicado.ts";

const BOI = "cepea/boi-gordo.html";

/** CEPEA's boi page of the next business day: 07/09/2026 on top, and 03/09/2026 revised from 347,60 to 347,65. */
function diaSeguinte(h: string): string {
  const linha03 = /(<td>03\/09\/2026<\/td>\s*<td>)347,60(<\/td>)/;
  if (!linha03.test(h)) throw new Error("linha de 03/09/2026 não encontrada");
  const topo = h.indexOf("<tbody>", h.indexOf("INDICADOR DO BOI GORDO CEPEA/ESALQ"));
  const novo = "<tbody>\n<tr><td>07/09/2026</td><td>348,00</td><td>0,09%</td><td>1,05%</td><td>67,90</td></tr>";
  return (h.slice(0, topo) + novo + h.slice(topo + "<tbody>".length)).replace(linha03, "$1347,65$2");
}

describe("audit: a stale copy of a page after the source revised a day", () => {
  let site: string;
  let depois: string;
  let antiga: string;
  beforeAll(async () => {
    site = await sitePublicado();
    depois = await replayDir();
    await editPage(depois, BOI, diaSeguinte);
    // the stale copy: the page as recorded on 04/09/2026, before the revision
    antiga = await replayDir();
  });
  afterAll(() => cleanup(site, depois, antiga));

  it("the source's page of the next day revises 03/09 within the bound: merged", async () => {
    const r = await replay(depois, site, "2026-09-27T13:00:00-03:00");
    expect(r.outcomes.find((o) => o.source === "cepea" && o.page === "boi-gordo")).toMatchObject({ ok: true, changed: true });
    const boi = await readJson(site, "api/v1/cotacao/boi_gordo.json");
    expect(boi.data_cotacao).toBe("2026-09-07");
    expect(boi.historico.find((e: { data: string }) => e.data === "2026-09-03").valor).toBe(347.65);
  });

  it("the stale copy does not take the day back to the superseded value: held, naming why", async () => {
    const r = await replay(antiga, site, "2026-09-27T14:00:00-03:00");
    const o = r.outcomes.find((x) => x.source === "cepea" && x.page === "boi-gordo")!;
    expect(o).toMatchObject({ ok: false, kind: "revisao_suspeita" });
    expect(!o.ok && o.reason).toMatch(
      /a página está atrás do que já foi publicado: boi_gordo vai até 04\/09\/2026 na página e até 07\/09\/2026 no histórico \(cópia antiga, de cache ou de um espelho atrasado\?\)/,
    );
    expect(!o.ok && o.reason).toMatch(/boi_gordo em 03\/09\/2026, valor: 347,65 → 347,6/);
    const boi = await readJson(site, "api/v1/cotacao/boi_gordo.json");
    expect(boi.historico.find((e: { data: string }) => e.data === "2026-09-03").valor).toBe(347.65);
    expect(boi.data_cotacao).toBe("2026-09-07");
  });
});
