import { readFile, stat, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allSeries, SOURCES } from "../pipeline/sources/index.ts";
import { SCOT_UFS } from "../pipeline/sources/scot.ts";
import { PRODUTOS } from "../pipeline/domain/products.ts";
import { FIXTURES, cleanup, editPage, listFiles, readJson, replay, replayDir, tempSite } from "./helpers/pipeline.ts";

// The recorded pages are from 05/08/2026 (Scot) to 25/09/2026 (CEPEA): the run's clock is
// pinned just after them so nothing is "in the future" and nothing is stale.
const NOW = "2026-09-27T12:00:00-03:00";

async function snapshot(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const f of await listFiles(dir)) out.set(relative(dir, f), await readFile(f, "utf8"));
  return out;
}

describe("update --replay of the recorded pages", () => {
  let site: string;
  let first: Awaited<ReturnType<typeof replay>>;

  beforeAll(async () => {
    site = await tempSite();
    first = await replay(FIXTURES, site, NOW);
  });
  afterAll(() => cleanup(site));

  it("reads every page and exits 0", () => {
    // every page of every source, in catalogue order (the first six are the original pages)
    const pages = SOURCES.flatMap((s) => s.pages.map((p) => `${s.id}/${p.id}:true`));
    expect(pages.slice(0, 2)).toEqual(["cepea/boi-gordo:true", "cepea/bezerro:true"]);
    expect(pages).toEqual(expect.arrayContaining(["cepea/milho:true", "cepea/soja:true", "scot/boi-gordo:true", "scot/vaca-gorda:true"]));
    expect(first.outcomes.map((o) => `${o.source}/${o.page}:${o.ok}`)).toEqual(pages);
    expect(first.exitCode).toBe(0);
  });

  it("writes every file of the contract", async () => {
    const files = await snapshot(site);
    const expected = ["api/v1/cotacao.json", "api/v1/index.json", "api/v1/status.json"];
    for (const uf of SCOT_UFS) expected.push(`api/v1/cotacao/uf/${uf}.json`);
    // a product with only state series has no national file
    for (const p of PRODUTOS.filter((p) => allSeries().some((d) => d.produto === p && d.uf === null))) {
      expected.push(`api/v1/cotacao/${p}.json`, `api/v1/historico/${p}.csv`);
    }
    for (const p of ["boi_gordo", "vaca_gorda"]) {
      for (const uf of SCOT_UFS) expected.push(`api/v1/cotacao/${p}/${uf}.json`, `api/v1/historico/${p}/${uf}.csv`);
    }
    expected.push("api/v1/cotacao/soja/PR.json", "api/v1/historico/soja/PR.csv");
    for (const f of expected) expect(files.has(f), f).toBe(true);
  });

  it("publishes the real prices to the centavo", async () => {
    const agg = await readJson(site, "api/v1/cotacao.json");
    expect(agg).toMatchObject({
      boi_gordo_cepea_sp: 347.7,
      vaca_gorda: 318,
      soja: 161,
      milho: 70.93,
      bezerro_ms: 3426.02,
      api_version: "v1",
      datas: { boi_gordo_cepea_sp: "2026-09-04", vaca_gorda: "2026-08-05", soja: "2026-09-25", milho: "2026-09-04", bezerro_ms: "2026-09-25" },
    });
    expect(agg.atualizado).toBe("2026-09-27T12:00:00-03:00");
    const boi = await readJson(site, "api/v1/cotacao/boi_gordo.json");
    expect(boi).toMatchObject({ produto: "boi_gordo", uf: "SP", valor: 347.7, moeda: "BRL", unidade: "@", fonte: "cepea", data_cotacao: "2026-09-04" });
    expect(boi.historico).toHaveLength(15);
    expect(boi.historico[0]).toEqual({ data: "2026-08-17", valor: 345.05, valor_usd: 66.38 });
    expect(boi.variacao).toEqual({ data_anterior: "2026-09-03", anterior: 347.6, absoluta: 0.1, percentual: 0.03 });
    expect(boi.bordao).toContain("R$ 347,70/@ em 04/09/2026");
    expect(boi.proveniencia).toMatchObject({ fonte: "cepea", url: "https://www.cepea.org.br/br/indicador/boi-gordo.aspx", licenca: "CC BY-NC 4.0", citacao: "Cepea/Esalq-USP", via: null });
    const soja = await readJson(site, "api/v1/cotacao/soja/PR.json");
    expect(soja).toMatchObject({ uf: "PR", valor: 154.38, data_cotacao: "2026-09-25" });
    const ms = await readJson(site, "api/v1/cotacao/boi_gordo/MS.json");
    expect(ms).toMatchObject({ uf: "MS", valor: 338, praca: "C. Grande", unidade: "@", data_cotacao: "2026-08-05" });
    expect(ms.pracas.map((p: { praca: string }) => p.praca)).toEqual(["Dourados", "C. Grande", "Três Lagoas"]);
    // the reference praça's every column is kept in the history, the other praças' à vista
    expect(ms.historico).toEqual([
      {
        data: "2026-08-05", valor: 338, valor_30d: 342, base_sp: -2.32, funrural_avista: 332.5, funrural_30d: 336.5,
        senar_avista: 337.5, senar_30d: 341.5, tendencia: "alta", pracas: { Dourados: 338, "C. Grande": 338, "Três Lagoas": 331 },
      },
    ]);
    const rs = await readJson(site, "api/v1/cotacao/boi_gordo/RS.json");
    expect(rs).toMatchObject({ unidade: "kg", valor: 12.35, praca: "Oeste" });
    const vacaSp = await readJson(site, "api/v1/cotacao/vaca_gorda.json");
    expect(vacaSp).toMatchObject({ uf: "SP", valor: 318, fonte: "scot", data_cotacao: "2026-08-05" });
    const ufMs = await readJson(site, "api/v1/cotacao/uf/MS.json");
    expect(ufMs.boi_gordo_uf).toEqual({ uf: "MS", preco: 338, praca: "C. Grande", unidade: "@", data: "2026-08-05", data_cotacao: "2026-08-05" });
  });

  it("keeps cotacao.json under 1 KB", async () => {
    expect((await stat(join(site, "api/v1/cotacao.json"))).size).toBeLessThan(1024);
  });

  it("writes one historico entry per line, so a day is a one-line diff", async () => {
    const text = await readFile(join(site, "api/v1/cotacao/milho.json"), "utf8");
    expect(text).toContain('\n    {"data":"2026-09-04","valor":70.93,"valor_usd":13.83}\n');
  });

  it("catalogues every series with its dates, count and license", async () => {
    const index = await readJson(site, "api/v1/index.json");
    expect(index.series.map((s: { id: string }) => s.id)).toEqual(allSeries().map((d) => d.id));
    expect(index.series.find((s: { id: string }) => s.id === "bezerro")).toMatchObject({
      path: "cotacao/bezerro.json",
      csv: "historico/bezerro.csv",
      uf: "MS",
      primeira_data: "2026-09-04",
      ultima_data: "2026-09-25",
      pontos: 15,
      unidade: "cabeca",
      fonte: "cepea",
    });
    expect(index.fontes.map((f: { id: string }) => f.id)).toEqual(SOURCES.map((s) => s.id));
  });

  it("writes CSV with dot decimals", async () => {
    const csv = await readFile(join(site, "api/v1/historico/bezerro.csv"), "utf8");
    expect(csv.split("\n")[0]).toBe("data,valor,unidade,valor_usd");
    expect(csv).toContain("\n2026-09-25,3426.02,cabeca,660.12\n");
  });

  it("a rerun with the same pages, later, changes no byte (status.json included)", async () => {
    const before = await snapshot(site);
    const again = await replay(FIXTURES, site, "2026-09-27T18:30:00-03:00");
    expect(again.written).toEqual([]);
    expect(again.changes).toEqual([]);
    expect(await snapshot(site)).toEqual(before);
  });
});

describe("bad input never costs good data", () => {
  let pages: string;
  let site: string;
  beforeAll(async () => {
    site = await tempSite();
    await replay(FIXTURES, site, NOW);
  });
  afterAll(() => cleanup(site));

  async function withPages(edit: (dir: string) => Promise<void>, now = NOW, env: NodeJS.ProcessEnv = {}) {
    pages = await replayDir();
    await edit(pages);
    try {
      return await replay(pages, site, now, env);
    } finally {
      await cleanup(pages);
    }
  }

  it("a missing page fails that page only, with a non-zero exit", async () => {
    const milhoBefore = await readFile(join(site, "api/v1/cotacao/milho.json"), "utf8");
    const r = await withPages(async (d) => {
      await import("node:fs/promises").then((fs) => fs.rm(join(d, "cepea/milho.html")));
      // the next business day (the pages date business days only), on its evening
      await editPage(d, "cepea/soja.html", (h) => h.replace("<td>25/09/2026</td>", "<td>28/09/2026</td>"));
    }, "2026-09-28T20:00:00-03:00");
    expect(r.exitCode).toBe(1);
    const milho = r.outcomes.find((o) => o.page === "milho")!;
    expect(milho).toMatchObject({ ok: false, kind: "missing" });
    expect(await readFile(join(site, "api/v1/cotacao/milho.json"), "utf8")).toBe(milhoBefore);
    // the other sources still update
    expect(r.changes.map((c) => c.id)).toContain("soja");
    const status = await readJson(site, "api/v1/status.json");
    const cepea = status.fontes.find((f: { id: string }) => f.id === "cepea");
    expect(cepea.estado).toBe("failed");
    expect(cepea.paginas.find((p: { id: string }) => p.id === "milho")).toMatchObject({ estado: "missing", falhas_consecutivas: 1 });
    expect(r.log.join("\n")).toMatch(/cepea\/milho: FALHA missing/);
  });

  it("a Cloudflare challenge page is 'blocked', not a parse error", async () => {
    const r = await withPages((d) =>
      writeFile(join(d, "cepea/boi-gordo.html"), "<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><script>window._cf_chl_opt={}</script></body></html>"),
    );
    expect(r.outcomes.find((o) => o.page === "boi-gordo" && o.source === "cepea")).toMatchObject({ ok: false, kind: "blocked" });
    expect((await readJson(site, "api/v1/cotacao/boi_gordo.json")).valor).toBe(347.7);
  });

  it("a page without the expected table is a soft block", async () => {
    const r = await withPages((d) => writeFile(join(d, "scot/vaca-gorda.html"), "<html><body><p>Acesso limitado</p></body></html>"));
    expect(r.outcomes.find((o) => o.page === "vaca-gorda")).toMatchObject({ ok: false, kind: "soft_block" });
    expect(r.exitCode).toBe(1);
  });

  it("rejects a value outside the plausible range and keeps the series", async () => {
    const before = await readFile(join(site, "api/v1/cotacao/bezerro.json"), "utf8");
    const r = await withPages((d) => editPage(d, "cepea/bezerro.html", (h) => h.replace("3.426,02", "34.260,20")));
    const o = r.outcomes.find((x) => x.page === "bezerro")!;
    // 25/09 is already published: the reason also says the page would revise it beyond the bound
    expect(o).toMatchObject({ ok: false, kind: "rejected" });
    expect(!o.ok && o.reason).toMatch(/fora da faixa plausível.*além disso, mudaria valores já publicados além do limite de revisão: bezerro em 25\/09\/2026, valor: 3.426,02 → 34.260,20/);
    expect(await readFile(join(site, "api/v1/cotacao/bezerro.json"), "utf8")).toBe(before);
  });

  it("rejects a day-over-day jump beyond the product's threshold", async () => {
    const r = await withPages((d) => editPage(d, "cepea/milho.html", (h) => h.replace("<td>70,93</td>", "<td>90,93</td>")));
    const o = r.outcomes.find((x) => x.page === "milho")!;
    expect(o).toMatchObject({ ok: false, kind: "rejected" });
    expect(!o.ok && o.reason).toMatch(/salto de/);
    expect((await readJson(site, "api/v1/cotacao/milho.json")).valor).toBe(70.93);
  });

  it("rejects a day in the future", async () => {
    const r = await withPages((d) => editPage(d, "cepea/soja.html", (h) => h.replace("<td>25/09/2026</td>", "<td>25/12/2026</td>")));
    const o = r.outcomes.find((x) => x.page === "soja")!;
    expect(o).toMatchObject({ ok: false, kind: "rejected" });
    expect(!o.ok && o.reason).toMatch(/no futuro/);
  });

  it("an unparseable date is a parse error naming the cell", async () => {
    const r = await withPages((d) => editPage(d, "cepea/boi-gordo.html", (h) => h.replace("<td>03/09/2026</td>", "<td>31/02/2026</td>")));
    const o = r.outcomes.find((x) => x.source === "cepea" && x.page === "boi-gordo")!;
    expect(o).toMatchObject({ ok: false, kind: "parse_error" });
    expect(!o.ok && o.reason).toMatch(/31\/02\/2026/);
  });

  it("a revised value of a known day replaces it and is reported", async () => {
    const r = await withPages((d) => editPage(d, "cepea/boi-gordo.html", (h) => h.replace("<td>347,60</td>", "<td>347,55</td>")));
    const c = r.changes.find((x) => x.id === "boi_gordo")!;
    expect(c.revised).toEqual([
      { data: "2026-09-03", antes: { data: "2026-09-03", valor: 347.6, valor_usd: 68.1 }, depois: { data: "2026-09-03", valor: 347.55, valor_usd: 68.1 } },
    ]);
    const boi = await readJson(site, "api/v1/cotacao/boi_gordo.json");
    expect(boi.historico.filter((e: { data: string }) => e.data === "2026-09-03")).toEqual([{ data: "2026-09-03", valor: 347.55, valor_usd: 68.1 }]);
  });

  it("a disabled source is left alone and reported as disabled", async () => {
    const before = await readFile(join(site, "api/v1/cotacao/boi_gordo/SP.json"), "utf8");
    const r = await withPages(async () => {}, NOW, { COTACAO_FONTES_DESATIVADAS: "scot" });
    expect(r.outcomes.length).toBeGreaterThan(0);
    expect(r.outcomes.every((o) => o.source !== "scot")).toBe(true);
    const status = await readJson(site, "api/v1/status.json");
    expect(status.fontes.find((f: { id: string }) => f.id === "scot").estado).toBe("disabled");
    expect(await readFile(join(site, "api/v1/cotacao/boi_gordo/SP.json"), "utf8")).toBe(before);
  });
});

describe("the store is never damaged", () => {
  it("a stored file that is not JSON stops the run before anything is written", async () => {
    const site = await tempSite();
    try {
      await replay(FIXTURES, site, NOW);
      await writeFile(join(site, "api/v1/cotacao/soja.json"), "{ quebrado");
      const statusBefore = await readFile(join(site, "api/v1/status.json"), "utf8");
      await expect(replay(FIXTURES, site, NOW)).rejects.toThrow(/soja\.json não é JSON válido/);
      expect(await readFile(join(site, "api/v1/status.json"), "utf8")).toBe(statusBefore);
      expect(await readFile(join(site, "api/v1/cotacao/soja.json"), "utf8")).toBe("{ quebrado");
    } finally {
      await cleanup(site);
    }
  });

  it("a schema-invalid result is never published", async () => {
    const site = await tempSite();
    try {
      await replay(FIXTURES, site, NOW);
      const file = join(site, "api/v1/cotacao/milho.json");
      const doc = JSON.parse(await readFile(file, "utf8"));
      // a day the page does not carry, so the bad value is not simply revised away
      doc.historico.unshift({ data: "2026-08-03", valor: "70,93" });
      await writeFile(file, JSON.stringify(doc));
      const aggBefore = await readFile(join(site, "api/v1/cotacao.json"), "utf8");
      await expect(replay(FIXTURES, site, "2026-09-28T12:00:00-03:00")).rejects.toThrow(/validação; nada foi escrito/);
      expect(await readFile(join(site, "api/v1/cotacao.json"), "utf8")).toBe(aggBefore);
    } finally {
      await cleanup(site);
    }
  });

  it("an older page fills a gap without moving the latest value back", async () => {
    const site = await tempSite();
    const pages = await replayDir();
    try {
      // first a page with a newer day only (the next business day)
      await editPage(pages, "cepea/milho.html", (h) => h.replace("<td>04/09/2026</td>", "<td>07/09/2026</td>").replace("<td>70,93</td>", "<td>71,00</td>"));
      await replay(pages, site, NOW);
      // then the original page: 04/09 fills in, 07/09 stays the latest
      const r = await replay(FIXTURES, site, NOW);
      expect(r.changes.find((c) => c.id === "milho")!.added).toEqual(["2026-09-04"]);
      const milho = await readJson(site, "api/v1/cotacao/milho.json");
      expect(milho.data_cotacao).toBe("2026-09-07");
      expect(milho.valor).toBe(71);
      expect(milho.historico.slice(-2).map((e: { data: string }) => e.data)).toEqual(["2026-09-04", "2026-09-07"]);
    } finally {
      await cleanup(site, pages);
    }
  });
});
