/**
 * Audit: the Notícias Agrícolas republication of Scot's Mercado Físico is found by its address
 * and by a table with a "Boi Gordo à vista" column. That site publishes other cattle tables in
 * the same `table.cot-fisicas` layout, credited to other firms; one of them served at this
 * address (a slug redirected, a page replaced) was published as Scot's prices, under Scot's name
 * and terms, in every UF: the parser never looked at the page's title. The pages of CEPEA's
 * indicators on the same site already check theirs. Replays into temp dirs only.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { naBoiGordo, naVacaGorda } from "../../pipeline/sources/noticias-agricolas.ts";
import { FIXTURES, cleanup, editPage, readJson, replay, replayDir } from "../helpers/pipeline.ts";
import { scotPeloEspelho, sitePublicado } from "../helpers/publicado.ts";
import { parseError } from "../helpers/parse-error.ts";

const NA = "noticias-agricolas/boi-gordo-scot-consultoria.html";

/** The same layout, another firm's table. */
const outraFirma = (h: string) => h.replace("<h1>Mercado Físico - Scot Consultoria</h1>", "<h1>Mercado Físico - Outra Consultoria</h1>");

describe("audit: another firm's Mercado Físico at the Scot republication's address", () => {
  it("the parser refuses it, naming the title found", async () => {
    const html = outraFirma(await readFile(join(FIXTURES, NA), "utf8"));
    for (const m of [naBoiGordo, naVacaGorda]) {
      const err = parseError(() => m.parse(html));
      expect((err as Error).message).toBe(
        'Notícias Agrícolas, tabela "Mercado Físico - Scot Consultoria": título da página "Mercado Físico - Outra Consultoria", esperado "Mercado Físico - Scot Consultoria" (outra tabela no endereço?)',
      );
    }
  });

  it("merges nothing of it", async () => {
    const site = await sitePublicado();
    const pages = await replayDir();
    try {
      // Scot blocked: the republication stands in for both pages (its day, dated 06/07/2026, fills in behind)
      await scotPeloEspelho(pages);
      await editPage(pages, NA, outraFirma);
      const r = await replay(pages, site, "2026-09-27T13:00:00-03:00");
      for (const page of ["boi-gordo", "vaca-gorda"]) {
        expect(r.outcomes.find((x) => x.source === "scot" && x.page === page), page).toMatchObject({ ok: false, kind: "parse_error" });
      }
      for (const id of ["boi_gordo/SP", "vaca_gorda/SP", "boi_gordo/RS"]) {
        const f = await readJson(site, `api/v1/cotacao/${id}.json`);
        expect(f.historico.map((e: { data: string }) => e.data), id).toEqual(["2026-08-05"]);
      }
    } finally {
      await cleanup(site, pages);
    }
  }, 60_000);
});
