/**
 * The catalogue drives everything: a product and a source page registered here, in the test,
 * with no other edit anywhere, go through update, build, validate, the server's query routes,
 * the simulator and the dashboard.
 */
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runValidate } from "../pipeline/cli/validate.ts";
import { loadConfig, REPO_ROOT } from "../pipeline/config.ts";
import { registrarProduto, removerProduto, type Produto } from "../pipeline/domain/products.ts";
import type { PriceRow } from "../pipeline/domain/row.ts";
import { createReplayLoader } from "../pipeline/fetch/replay.ts";
import { runBuild } from "../pipeline/run/build.ts";
import { runUpdate } from "../pipeline/run/update.ts";
import { startServer, type RunningServer } from "../pipeline/serve/app.ts";
import { buildAssets } from "../pipeline/serve/assets.ts";
import { allSeries, registrarFonte, removerFonte, SOURCES } from "../pipeline/sources/index.ts";
import type { SourceDef } from "../pipeline/sources/types.ts";
import { fonteDeTeste } from "./helpers/fonte.ts";
import { openChromium } from "./browser/chromium.ts";
import { FIXTURES, readJson } from "./helpers/pipeline.ts";

const PRODUTO = "novilha_teste" as Produto;
const NOW = new Date("2026-09-27T12:00:00-03:00");

/** A made-up page: one table, "Data | Praça | UF | R$/@". */
const PAGINA = `<!DOCTYPE html><html><body><table id="novilha">
<tr><th>Data</th><th>UF</th><th>Valor</th></tr>
<tr><td>24/09/2026</td><td>GO</td><td>300,50</td></tr>
<tr><td>25/09/2026</td><td>GO</td><td>301,00</td></tr>
<tr><td>24/09/2026</td><td>-</td><td>310,00</td></tr>
<tr><td>25/09/2026</td><td>-</td><td>311,25</td></tr>
</table></body></html>`;

const fonte: SourceDef = fonteDeTeste("teste", [
  {
    id: "novilha",
    path: "/novilha",
    titulo: "Novilha de teste",
    diasUteis: true,
    hasTable: (html) => html.includes('id="novilha"'),
    parse(html) {
      const $ = cheerio.load(html);
      const rows: PriceRow[] = $("#novilha tr")
        .slice(1)
        .toArray()
        .map((tr) => {
          const [d, uf, v] = $(tr)
            .find("td")
            .toArray()
            .map((td) => $(td).text().trim());
          const [dd, mm, yyyy] = d!.split("/");
          return {
            fonte: "teste" as PriceRow["fonte"],
            produto: PRODUTO,
            uf: uf === "-" ? null : (uf as PriceRow["uf"]),
            praca: null,
            data: `${yyyy}-${mm}-${dd}`,
            valor: Number(v!.replace(".", "").replace(",", ".")),
            unidade: "@",
            extras: {},
          };
        });
      return { rows, avisos: [] };
    },
    series: [
      { produto: PRODUTO, uf: null, unidade: "@", regiao: "Brasil (média de teste)" },
      { produto: PRODUTO, uf: "GO", unidade: "@", regiao: "Goiás (teste)", praca: "Goiás (média)" },
    ],
  },
]);

describe("a product and a source page registered in a test go everywhere", () => {
  let dir: string;
  let publicDir: string;
  let srv: RunningServer;

  beforeAll(async () => {
    registrarProduto(PRODUTO, { nome: "Novilha de teste", tipo: "gado_arroba", unidade: "@", faixa: { "@": [100, 1000] }, saltoMaximoPct: 10, revisaoMaximaPct: 1.5 });
    registrarFonte(fonte);
    dir = await mkdtemp(join(tmpdir(), "cotacao-catalogo-"));
    publicDir = join(dir, "public");
    const pages = join(dir, "paginas");
    for (const src of SOURCES.map((s) => s.id as string).filter((id) => id !== "teste")) await cp(join(FIXTURES, src), join(pages, src), { recursive: true });
    await mkdir(join(pages, "teste"), { recursive: true });
    await writeFile(join(pages, "teste", "novilha.html"), PAGINA);
    const config = loadConfig({ publicDir, env: {}, root: join(FIXTURES, "no-config") });
    const r = await runUpdate({ loader: createReplayLoader(pages, () => NOW, {}), config, now: NOW, env: {}, log: () => {} });
    expect(r.outcomes.filter((o) => !o.ok)).toEqual([]);
    expect(r.exitCode).toBe(0);
    await runBuild(config, NOW);
    for (const rel of ["index.html", "simulador", "assets/painel.css"]) await cp(join(REPO_ROOT, "public", rel), join(publicDir, rel), { recursive: true });
    await buildAssets(publicDir);
    srv = await startServer({ publicDir, now: () => NOW.getTime() });
  });

  afterAll(async () => {
    await srv?.close();
    removerFonte("teste");
    removerProduto(PRODUTO);
    await rm(dir, { recursive: true, force: true });
  });

  it("the catalogue lists the new series", () => {
    expect(allSeries().filter((d) => d.produto === PRODUTO).map((d) => [d.id, d.fonte, d.pagina])).toEqual([
      ["novilha_teste", "teste", "novilha"],
      ["novilha_teste/GO", "teste", "novilha"],
    ]);
  });

  it("update writes its files, CSVs, index entries, capture record and status; build changes nothing; validate passes", async () => {
    const nac = await readJson(publicDir, "api/v1/cotacao/novilha_teste.json");
    expect(nac).toMatchObject({ produto: PRODUTO, nome: "Novilha de teste", valor: 311.25, unidade: "@", fonte: "teste", data_cotacao: "2026-09-25" });
    expect(nac.historico).toEqual([{ data: "2026-09-24", valor: 310 }, { data: "2026-09-25", valor: 311.25 }]);
    const go = await readJson(publicDir, "api/v1/cotacao/novilha_teste/GO.json");
    expect(go).toMatchObject({ uf: "GO", valor: 301, praca: "Goiás (média)" });
    expect(await readFile(join(publicDir, "api/v1/historico/novilha_teste/GO.csv"), "utf8")).toBe("data,valor,unidade\n2026-09-24,300.5,@\n2026-09-25,301,@\n");
    const index = await readJson(publicDir, "api/v1/index.json");
    expect(index.produtos.map((p: { produto: string }) => p.produto)).toContain(PRODUTO);
    expect(index.series.filter((s: { produto: string }) => s.produto === PRODUTO).map((s: { id: string; pontos: number }) => [s.id, s.pontos])).toEqual([
      ["novilha_teste", 2],
      ["novilha_teste/GO", 2],
    ]);
    expect(index.fontes.map((f: { id: string }) => f.id)).toContain("teste");
    // paths relative to api/v1/; no declared place, so the national series publishes none
    expect(index.series.find((s: { id: string }) => s.id === PRODUTO)).toMatchObject({ path: `cotacao/${PRODUTO}.json`, csv: `historico/${PRODUTO}.csv`, uf: null, nacional: true });
    // the long file, the Excel-BR copy and the data package follow the catalogue too
    // (read by column name: the long file's layout is its renderer's, pipeline/render/longo.ts)
    const [cabecalho, ...linhas] = (await readFile(join(publicDir, "api/v1/historico.csv"), "utf8")).trimEnd().split("\n").map((l) => l.split(","));
    const longo = linhas.map((l) => Object.fromEntries(cabecalho!.map((c, i) => [c, l[i]])));
    expect(longo.filter((l) => l["produto"] === PRODUTO)).toEqual([
      expect.objectContaining({ serie: PRODUTO, uf: "", praca: "", fonte: "teste", unidade: "@", data: "2026-09-24", valor: "310" }),
      expect.objectContaining({ serie: PRODUTO, uf: "", praca: "", fonte: "teste", unidade: "@", data: "2026-09-25", valor: "311.25" }),
      expect.objectContaining({ serie: `${PRODUTO}/GO`, uf: "GO", praca: "Goiás (média)", fonte: "teste", unidade: "@", data: "2026-09-24", valor: "300.5" }),
      expect.objectContaining({ serie: `${PRODUTO}/GO`, uf: "GO", praca: "Goiás (média)", fonte: "teste", unidade: "@", data: "2026-09-25", valor: "301" }),
    ]);
    expect(await readFile(join(publicDir, `api/v1/historico/${PRODUTO}/GO.excel.csv`), "utf8")).toBe("\ufeffdata;valor;unidade\r\n2026-09-24;300,5;@\r\n2026-09-25;301;@\r\n");
    const pacote = await readJson(publicDir, "api/v1/datapackage.json");
    expect(pacote.resources.map((r: { path: string }) => r.path)).toEqual(expect.arrayContaining([`historico/${PRODUTO}.csv`, `historico/${PRODUTO}/GO.csv`]));
    const status = await readJson(publicDir, "api/v1/status.json");
    expect(status.fontes.find((f: { id: string }) => f.id === "teste").paginas[0]).toMatchObject({ id: "novilha", estado: "ok" });
    const log = await readJson(publicDir, "api/v1/capturas/2026.json");
    expect(log.capturas.find((c: { fonte: string }) => c.fonte === "teste").novos).toEqual({ novilha_teste: ["2026-09-24", "2026-09-25"], "novilha_teste/GO": ["2026-09-24", "2026-09-25"] });
    // the aggregate keeps the contract's five keys
    expect(Object.keys(await readJson(publicDir, "api/v1/cotacao.json"))).not.toContain(PRODUTO);
    expect(runValidate(publicDir)).toBe(0);
  });

  it("the query routes answer for it, the OpenAPI lists it, and the simulator sells it by the arroba", async () => {
    const q = await (await fetch(`${srv.url.replace(/\/$/, "")}/api/v1/cotacao?produto=${PRODUTO}&uf=GO`)).json();
    expect(q).toMatchObject({ produto: PRODUTO, uf: "GO", valor: 301 });
    const h = await (await fetch(`${srv.url.replace(/\/$/, "")}/api/v1/historico?produto=${PRODUTO}&de=2026-09-25`)).json();
    expect(h.historico).toEqual([{ data: "2026-09-25", valor: 311.25 }]);
    const openapi = await readJson(publicDir, "api/v1/openapi.json");
    expect(openapi.components.parameters.produtoPath.schema.enum).toContain(PRODUTO);
    const s = await fetch(`${srv.url.replace(/\/$/, "")}/api/v1/simulador?produto=${PRODUTO}&uf=GO&cabecas=10&peso_vivo_kg=450&rendimento_pct=52`);
    expect(s.status).toBe(200);
    const sim = await s.json();
    // 10 × 450 kg × 52 % ÷ 15 = 156 @ × R$ 301,00
    expect(sim.quantidade).toMatchObject({ cabecas: 10, arrobas: 156 });
    expect(sim.bruto).toBe(46956);
    const semPeso = await fetch(`${srv.url.replace(/\/$/, "")}/api/v1/simulador?produto=${PRODUTO}&cabecas=10`);
    expect(semPeso.status).toBe(400);
  });

  it("the dashboard lists the new series by name and draws it", async () => {
    const b = await openChromium();
    try {
      const page = await b.context.newPage();
      const erros: string[] = [];
      page.on("pageerror", (e) => erros.push(e.message));
      await page.goto(srv.url);
      await page.waitForSelector("body[data-pronto='ok']", { timeout: 20_000 });
      // the page carries only the first screen's series: the list of every series comes with
      // index.json, read when the visitor reaches for the chart's series list
      await page.focus("#serie");
      await page.waitForSelector("#serie option[value='novilha_teste/GO']", { state: "attached", timeout: 20_000 });
      const opcoes = await page.locator("#serie option").allTextContents();
      expect(opcoes).toContain("Novilha de teste — Brasil (média de teste)");
      expect(opcoes).toContain("Novilha de teste — GO");
      await page.selectOption("#serie", "novilha_teste/GO");
      await page.waitForSelector("#grafico[data-serie='novilha_teste/GO']", { timeout: 20_000 });
      expect(await page.getAttribute("#grafico", "data-pontos")).toBe("2");
      expect(erros).toEqual([]);
    } finally {
      await b.close();
    }
  });
});

describe("a product id that is not an aggregate key lives only in its declaration", () => {
  it("no module of the pipeline names one, outside the catalogue's declarations and generated files", async () => {
    const { readdir } = await import("node:fs/promises");
    const { agregados, PRODUTOS } = await import("../pipeline/domain/products.ts");
    const chaves = new Set<string>(agregados().map((a) => a.chave));
    const ids = PRODUTOS.filter((p) => !chaves.has(p));
    expect(ids.length).toBeGreaterThan(0);
    // declarations: the products, the sources (each page declares its series), generated files
    const permitido = (f: string) => f === "pipeline/domain/products.ts" || f.startsWith("pipeline/sources/") || /\.gerados\.ts$/.test(f);
    const root = join(REPO_ROOT, "pipeline");
    const files = (await readdir(root, { recursive: true }))
      .map((f) => `pipeline/${String(f).replace(/\\/g, "/")}`)
      .filter((f) => /\.(ts|js)$/.test(f) && !permitido(f));
    expect(files.length).toBeGreaterThan(50);
    const achados: string[] = [];
    for (const f of files) {
      const text = await readFile(join(REPO_ROOT, f), "utf8");
      for (const id of ids) {
        // an id with "_" is never a word of prose; one that is a word ("bezerro") counts in quotes or as a series id
        const re = id.includes("_") ? new RegExp(`\\b${id}\\b`) : new RegExp(`["'\`]${id}["'\`/]`);
        if (re.test(text)) achados.push(`${f}: ${id}`);
      }
    }
    expect(achados).toEqual([]);
  });

  it("the schemas' enums are the catalogue's (npm run gerar), and follow a new product", async () => {
    const { commonDoCatalogo, lerEntradas } = await import("../pipeline/gerar/arquivos.ts");
    const e = lerEntradas();
    expect(commonDoCatalogo(e.commonTexto, e.catalogo)).toBe(e.commonTexto);
    const mais = commonDoCatalogo(e.commonTexto, { ...e.catalogo, produtos: [...e.catalogo.produtos, "novilha_teste"] });
    expect(JSON.parse(mais).$defs.produto.enum).toContain("novilha_teste");
    expect(JSON.parse(mais).$defs.produto.description).toMatch(/ ou novilha_teste\.$/);
  });
});
