/**
 * Review of issues 11 and 12 (catalogue, new series, backfill): the findings fixed in this round,
 * kept as regressions. (Those that belong to issue 13 — a national series' uf, the unit in every
 * CSV, index.json's paths relative to itself — are left to it.) Recorded pages only, no network.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../pipeline/config.ts";
import { PRODUTOS } from "../../pipeline/domain/products.ts";
import { bordaoOf } from "../../pipeline/render/serie.ts";
import { serieDef } from "../../pipeline/sources/index.ts";
import { cleanup, readJson, replay, replayDir, tempSite } from "../helpers/pipeline.ts";

const NOW = "2026-09-27T12:00:00-03:00";

describe("review 2: issues 11/12", () => {
  let pages: string;
  let site: string;

  beforeAll(async () => {
    pages = await replayDir();
    site = await tempSite();
    const r = await replay(pages, site, NOW);
    expect(r.exitCode).toBe(0);
  }, 120_000);

  afterAll(async () => {
    await cleanup(pages, site);
  });

  it("R1 a state series' bordão names its own source, never Scot's Mercado Físico for Datagro or CEPEA data", async () => {
    for (const id of ["bezerro_reposicao/MS", "garrote/SP", "trigo/PR", "suino_vivo/MG", "soja/PR"]) {
      const f = await readJson(site, `api/v1/cotacao/${id}.json`);
      expect(f.fonte).not.toBe("scot");
      expect(f.bordao, id).not.toMatch(/Scot/);
    }
    // boi_china is Scot's, but not its "Mercado Físico" table
    const china = await readJson(site, "api/v1/cotacao/boi_china/SP.json");
    expect(china.bordao).not.toMatch(/Mercado Físico/);
  });

  it("R2 the committed dashboard/simulator bundles know every product of the catalogue (a stale painel.js throws on novilha_gorda)", async () => {
    const painel = await readFile(join(REPO_ROOT, "public/assets/painel.js"), "utf8");
    const simulador = await readFile(join(REPO_ROOT, "public/simulador/index.html"), "utf8");
    for (const p of PRODUTOS) expect(painel.includes(`${p}:`), `painel.js sem ${p}`).toBe(true);
    for (const p of ["novilha_gorda", "boi_china", "cafe_arabica"]) expect(simulador.includes(`value="${p}"`), `simulador sem ${p}`).toBe(true);
  });

  it("R5 algodão's bordão does not read as R$ 439,98 (it is 439,98 centavos de real per lb)", () => {
    const d = serieDef("algodao")!;
    expect(bordaoOf(d, 439.98, "2026-09-04", null)).not.toMatch(/R\$ 439,98/);
    expect(bordaoOf(d, 439.98, "2026-09-04", null)).toMatch(/^Algodão em pluma a 439,98 centavos de R\$\/lb em 04\/09\/2026/);
  });
});
