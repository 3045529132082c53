import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../pipeline/config.ts";
import { assemble } from "../pipeline/history/assemble.ts";
import { applyUpdate } from "../pipeline/run/apply.ts";
import type { SerieFile } from "../pipeline/domain/publicados.ts";
import type { PriceRow } from "../pipeline/domain/row.ts";
import { scot } from "../pipeline/sources/scot.ts";
import { FIXTURES, cleanup, editPage, readJson, replay, replayComConfig, replayDir, tempSite } from "./helpers/pipeline.ts";
import { publicadoEPaginasDoDescribe, scotPeloEspelho, sitePublicado } from "./helpers/publicado.ts";

const NOW = new Date("2026-09-27T12:00:00-03:00");

describe("the same day read again through a mirror with fewer columns", () => {
  it("changes nothing: no column erased, no revision, provenance untouched", async () => {
    const config = loadConfig({ publicDir: "/nonexistent", env: {}, root: join(FIXTURES, "no-config") });
    const store = new Map<string, SerieFile>();
    for (const page of scot.pages) {
      const html = await readFile(join(FIXTURES, "scot", `${page.id}.html`), "utf8");
      const rows = page.parse(html).rows;
      // what the Notícias Agrícolas republication carries for the same rows: à vista, and 30 days for boi
      const mirrored: PriceRow[] = rows.map(({ nota: _nota, ...r }) => ({
        ...r,
        extras: (r.produto === "boi_gordo" && r.extras.valor_30d !== undefined ? { valor_30d: r.extras.valor_30d } : {}) as PriceRow["extras"],
      }));
      const origin = { url: `https://www.scotconsultoria.com.br${page.path}`, via: null, viaUrl: null, fetchedAt: NOW };
      const viaMirror = { ...origin, via: "noticias-agricolas", viaUrl: "https://www.noticiasagricolas.com.br/cotacoes/boi-gordo/boi-gordo-scot-consultoria" };
      for (const u of assemble(scot, page, rows, config).updates) {
        const first = applyUpdate(u.def, scot, store.get(u.def.id), u, origin, NOW);
        expect(first, u.def.id).not.toBeNull();
        store.set(u.def.id, first!.file);
      }
      for (const u of assemble(scot, page, mirrored, config).updates) {
        expect(applyUpdate(u.def, scot, store.get(u.def.id), u, viaMirror, new Date(NOW.getTime() + 3_600_000)), u.def.id).toBeNull();
      }
    }
    const sp = store.get("boi_gordo/SP")!;
    expect(sp.pracas![0]).toMatchObject({ praca: "Barretos", funrural_avista: 340, senar_30d: 349.5, tendencia: "alta" });
    expect(store.get("boi_gordo/MT")!.pracas!.find((p) => p.praca === "Cuiabá")!.nota).toBe("Região de Cuiabá, inclui Rondonópolis");
  });
});

describe("a reference praça missing from the table", () => {
  // the next day's table, where Scot renamed "SP Barretos"
  const par = publicadoEPaginasDoDescribe((pages) => editPage(pages, "scot/boi-gordo.html", (h) => h.replaceAll("05/08/2026", "06/08/2026").replace("SP Barretos", "SP Barretos-Frigorífico")));

  it("fails the page, loudly, and merges nothing of it (a page is atomic)", async () => {
    const { site, pages } = par();
    const r = await replay(pages, site, "2026-09-27T13:00:00-03:00");
    expect(r.exitCode).toBe(1);
    const o = r.outcomes.find((x) => x.source === "scot" && x.page === "boi-gordo")!;
    expect(o).toMatchObject({ ok: false, kind: "parse_error" });
    expect(!o.ok && o.reason).toMatch(/boi_gordo\/SP: praça de referência "Barretos" não está na tabela \(praças de SP: Barretos-Frigorífico, Araçatuba\)/);
    expect((await readJson(site, "api/v1/cotacao/boi_gordo/SP.json")).data_cotacao).toBe("2026-08-05");
    // MS was read fine from the same page, but a page is accepted whole or not at all
    expect((await readJson(site, "api/v1/cotacao/boi_gordo/MS.json")).data_cotacao).toBe("2026-08-05");
    const status = await readJson(site, "api/v1/status.json");
    const scotStatus = status.fontes.find((f: { id: string }) => f.id === "scot");
    expect(scotStatus.estado).toBe("failed");
    expect(scotStatus.paginas.find((p: { id: string }) => p.id === "boi-gordo").motivo).toMatch(/praça de referência "Barretos"/);
  });
});

describe("replaying a recording made through the mirror", () => {
  it("reads the mirror's page for the source's page and records the mirror", async () => {
    const site = await sitePublicado();
    const pages = await replayDir();
    try {
      await scotPeloEspelho(pages, ["vaca-gorda"]);
      const r = await replay(pages, site, "2026-09-27T13:00:00-03:00");
      expect(r.outcomes.find((o) => o.page === "vaca-gorda")).toMatchObject({ ok: true, via: "noticias-agricolas" });
      // the republication (dated 06/07/2026, DIA_DA_COPIA): an older day, filled in behind the latest
      const sp = await readJson(site, "api/v1/cotacao/vaca_gorda/SP.json");
      expect(sp.historico.map((e: { data: string; valor: number }) => [e.data, e.valor])).toEqual([["2026-07-06", 308.5], ["2026-08-05", 318]]);
      expect(sp.data_cotacao).toBe("2026-08-05");
    } finally {
      await cleanup(site, pages);
    }
  });
});

describe("the reference praça changed in the configuration", () => {
  it("re-bases the stored days on the new praça and reports them as revisions", async () => {
    const site = await tempSite();
    const pages = await replayDir();
    try {
      await replay(FIXTURES, site, "2026-09-27T12:00:00-03:00");
      await editPage(pages, "scot/boi-gordo.html", (h) => h.replaceAll("05/08/2026", "06/08/2026"));
      const r = await replayComConfig(pages, site, "2026-09-27T13:00:00-03:00", { pracasReferencia: { MS: "Três Lagoas" } });
      const c = r.changes.find((x) => x.id === "boi_gordo/MS")!;
      expect(c.revised.map((v) => [v.data, v.antes.valor, v.depois.valor])).toEqual([["2026-08-05", 338, 331]]);
      const ms = await readJson(site, "api/v1/cotacao/boi_gordo/MS.json");
      expect(ms.praca).toBe("Três Lagoas");
      // the old praça's other columns are gone from the re-based day; the new day has all of its own
      expect(ms.historico[0]).toEqual({ data: "2026-08-05", valor: 331, pracas: { Dourados: 338, "C. Grande": 338, "Três Lagoas": 331 } });
      expect(ms.historico[1]).toMatchObject({ data: "2026-08-06", valor: 331, valor_30d: 335, funrural_avista: 325.5 });
    } finally {
      await cleanup(site, pages);
    }
  });
});

describe("a reference praça written without accents", () => {
  it("finds Scot's praça and publishes its exact name", async () => {
    const config = loadConfig({ publicDir: "/nonexistent", env: {}, root: join(FIXTURES, "no-config") });
    config.pracasReferencia.MT = "cuiaba";
    const page = scot.pages.find((p) => p.id === "boi-gordo")!;
    const rows = page.parse(await readFile(join(FIXTURES, "scot", "boi-gordo.html"), "utf8")).rows;
    const a = assemble(scot, page, rows, config);
    expect(a.faltas).toEqual([]);
    const mt = a.updates.find((u) => u.def.id === "boi_gordo/MT")!;
    expect(mt.pracas!.praca).toBe("Cuiabá");
    expect(mt.entries[0]!.valor).toBe(326);
  });
});
