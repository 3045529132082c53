/**
 * Audit: Boi and Vaca swapped in the Notícias Agrícolas republication of Scot's table (the only
 * table holding both). Nothing related the two columns: boi gordo was published at the cow's
 * price (Barretos 308,50 instead of 326,00, about 5 % lower, inside the 10 % jump bound) and vaca
 * gorda at the steer's, in every UF. A cow is always quoted below the steer of the same praça
 * (0,90–0,96 on every recorded praça). Replays of recorded pages into temp dirs only.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { naBoiGordo, naVacaGorda } from "../../pipeline/sources/noticias-agricolas.ts";
import { FIXTURES, cleanup, editPage, readJson, replay, replayDir, trocarEntreSi } from "../helpers/pipeline.ts";
import { scotPeloEspelho, sitePublicado } from "../helpers/publicado.ts";
import { parseError } from "../helpers/parse-error.ts";

const NA = "noticias-agricolas/boi-gordo-scot-consultoria.html";

/** The republication's header with two labels swapped. */
const trocaRotulos = (a: string, b: string) => trocarEntreSi(`<th>${a}</th>`, `<th>${b}</th>`);
const BOI_VISTA = "Boi Gordo - (R$/@ - à vista)";
const VACA_VISTA = "Vaca Gorda (R$/@ - à vista)";

describe("audit: the Notícias Agrícolas republication with Boi and Vaca swapped", () => {
  it("the parser refuses Boi and Vaca swapped, naming the praça and both prices", async () => {
    const html = trocaRotulos(BOI_VISTA, VACA_VISTA)(await readFile(join(FIXTURES, NA), "utf8"));
    for (const m of [naBoiGordo, naVacaGorda]) {
      const err = parseError(() => m.parse(html));
      expect((err as Error).message).toMatch(
        /Notícias Agrícolas, tabela "Mercado Físico - Scot Consultoria", praça "SP Barretos": vaca gorda à vista \(R\$ 326,00\) acima do boi gordo à vista \(R\$ 308,50\) na mesma praça; colunas trocadas\?/,
      );
    }
  });

  it("nothing of either page is merged", async () => {
    const site = await sitePublicado();
    const pages = await replayDir();
    try {
      // Scot blocked: the republication stands in for both pages (its day, dated 06/07/2026, fills in behind)
      await scotPeloEspelho(pages);
      await editPage(pages, NA, trocaRotulos(BOI_VISTA, VACA_VISTA));
      const r = await replay(pages, site, "2026-09-27T13:00:00-03:00");
      for (const page of ["boi-gordo", "vaca-gorda"]) {
        const o = r.outcomes.find((x) => x.source === "scot" && x.page === page)!;
        expect(o, page).toMatchObject({ ok: false, kind: "parse_error" });
        expect(!o.ok && o.reason, page).toMatch(/vaca gorda à vista \(R\$ 326,00\) acima do boi gordo à vista \(R\$ 308,50\)/);
      }
      for (const id of ["boi_gordo/SP", "vaca_gorda/SP", "vaca_gorda", "boi_gordo/MS"]) {
        const f = await readJson(site, `api/v1/cotacao/${id}.json`);
        expect(f.historico.map((e: { data: string }) => e.data), id).toEqual(["2026-08-05"]);
      }
    } finally {
      await cleanup(site, pages);
    }
  }, 60_000);
});
