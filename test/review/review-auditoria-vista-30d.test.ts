/**
 * Audit: "à vista" and "30 D" swapped under their labels (every group of Scot's table, or the two
 * boi columns of the Notícias Agrícolas republication). The cross-column checks
 * (check/coherence.ts) allowed a 30-day price down to 0,98 of the cash price, and a swap gives
 * 0,987: the 30-day price was published as the cash price, about 1,2 % too high (Barretos
 * 350,00 instead of 345,50), and the cash price as the 30-day one. The 30-day price carries a
 * month of interest: it is never below the cash price (1,011–1,014 on every recorded praça).
 * Replays of recorded pages into temp dirs only.
 */
import { describe, expect, it } from "vitest";
import { editPage, readJson, replay, trocarEntreSi } from "../helpers/pipeline.ts";
import { pelaCopiaEditada, publicadoEPaginasDoDescribe } from "../helpers/publicado.ts";


/** Scot's Mercado Físico header with "à vista" and "30 D" swapped in every group (Preços Brutos, Funrural, Senar). */
function scotVistaTrocada(h: string): string {
  const at = h.indexOf("Mercado F&iacute;sico");
  const resto = h
    .slice(at)
    .replace(/(>\s*)&agrave; vista</g, "$1@@30@@<")
    .replace(/(>\s*)30 D</g, "$1&agrave; vista<")
    .replaceAll("@@30@@", "30 D");
  return h.slice(0, at) + resto;
}

/** The republication's header with two labels swapped. */
const trocaRotulos = (a: string, b: string) => trocarEntreSi(`<th>${a}</th>`, `<th>${b}</th>`);
const BOI_VISTA = "Boi Gordo - (R$/@ - à vista)";
const BOI_30 = "Boi Gordo - (R$/@ - prazo 30 dias)";

describe("audit: Scot's à vista and 30 D swapped in every group", () => {
  const par = publicadoEPaginasDoDescribe((pages) => editPage(pages, "scot/boi-gordo.html", (h) => scotVistaTrocada(h.replaceAll("05/08/2026", "06/08/2026"))));

  it("rejects the page: the 30-day price is never published as the cash price", async () => {
    const { site, pages } = par();
    const r = await replay(pages, site, "2026-09-27T13:00:00-03:00");
    const o = r.outcomes.find((x) => x.source === "scot" && x.page === "boi-gordo")!;
    expect(o).toMatchObject({ ok: false, kind: "rejected" });
    expect(!o.ok && o.reason).toMatch(/boi_gordo\/SP, praça Barretos em 06\/08\/2026: 30 dias \/ à vista = 345,50 \/ 350,00 = 0,987, fora da relação esperada \(1–1,08\)/);
    const sp = await readJson(site, "api/v1/cotacao/boi_gordo/SP.json");
    expect(sp.data_cotacao).toBe("2026-08-05");
    expect(sp.historico.map((e: { data: string }) => e.data)).toEqual(["2026-08-05"]);
  });
});

describe("audit: the Notícias Agrícolas republication with boi à vista and 30 dias swapped", () => {
  it("rejects the boi page and merges nothing of it", async () => {
    // Scot blocked: the republication stands in for its boi page (its day, dated 06/07/2026, fills in behind)
    const { r, series } = await pelaCopiaEditada(trocaRotulos(BOI_VISTA, BOI_30), ["boi_gordo/SP", "boi_gordo/MS"], ["boi-gordo"]);
    const o = r.outcomes.find((x) => x.source === "scot" && x.page === "boi-gordo")!;
    expect(o).toMatchObject({ ok: false, kind: "rejected" });
    expect(!o.ok && o.reason).toMatch(/boi_gordo\/SP, praça Barretos em 06\/07\/2026: 30 dias \/ à vista = 326,00 \/ 330,00 = 0,988/);
    for (const [id, f] of Object.entries(series)) expect(f.historico.map((e) => e.data), id).toEqual(["2026-08-05"]);
  }, 60_000);
});
