import { copyFile, readFile, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { chromium, type Page } from "playwright";
import { CHROMIUM_ARGS } from "../../pipeline/fetch/browser.ts";
import { SITE_URL } from "../../pipeline/domain/site.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../pipeline/config.ts";
import type { AggregateFile, IndexFile, SerieFile, StatusFile } from "../../pipeline/domain/publicados.ts";
import { startServer, type RunningServer } from "../../pipeline/serve/app.ts";
import { ROTULOS } from "../../pipeline/simulator/simulator.ts";
import { buildTestSite } from "../serve/site.ts";
import { CHROMIUM, openChromium } from "./chromium.ts";

let site: Awaited<ReturnType<typeof buildTestSite>>;
let srv: RunningServer;
let browser: Awaited<ReturnType<typeof openChromium>>;

async function file<T>(rel: string): Promise<T> {
  return JSON.parse(await readFile(join(site.publicDir, rel), "utf8")) as T;
}

/** What a person reads: "R$ 3.426,02/cabeça", written out here independently of the page's code. */
function brl(v: number, sufixo: string): string {
  const [int, frac] = v.toFixed(2).split(".");
  return `R$ ${int!.replace(/\B(?=(\d{3})+(?!\d))/g, ".")},${frac}${sufixo}`;
}
const SUFIXO: Record<string, string> = { "@": "/@", kg: "/kg", sc60kg: "/sc 60 kg", cabeca: "/cabeça" };

async function open(path: string, opts: { semCache?: boolean } = {}): Promise<Page> {
  const page = await browser.context.newPage();
  // routing turns Chromium's HTTP cache off for the page (files are served with max-age=1800)
  if (opts.semCache) await page.route("**/*", (r) => r.continue());
  const erros: string[] = [];
  page.on("pageerror", (e) => erros.push(e.message));
  await page.goto(new URL(path, srv.url).href);
  await page.waitForSelector("body[data-pronto=ok]", { state: "attached", timeout: 20_000 });
  expect(erros).toEqual([]);
  return page;
}

/** The catalogue table is drawn when asked for (it reads index.json). */
async function mostrarCatalogo(page: Page): Promise<void> {
  await page.locator("#catalogo-mostrar").click();
  await page.waitForSelector("#catalogo-corpo tr[data-serie]");
}

async function axe(page: Page): Promise<unknown[]> {
  await page.addScriptTag({ path: join(REPO_ROOT, "node_modules", "axe-core", "axe.min.js") });
  return page.evaluate(async () => {
    const r = await (window as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; nodes: Array<{ target: unknown }> }> }> } }).axe.run();
    return r.violations.map((v) => ({ id: v.id, alvos: v.nodes.map((n) => n.target) }));
  });
}

beforeAll(async () => {
  site = await buildTestSite();
  // static files of public/ that the test site's helper does not copy
  for (const f of ["favicon.svg", "favicon.png", "favicon-512.png"]) await copyFile(join(REPO_ROOT, "public", f), join(site.publicDir, f));
  srv = await startServer({ publicDir: site.publicDir });
  browser = await openChromium();
});
afterAll(async () => {
  await browser?.close();
  await srv?.close();
  await site?.cleanup();
});

describe("dashboard", () => {
  it("shows the exact values and dates of the built files in Brazilian format", async () => {
    const agg = await file<AggregateFile>("api/v1/cotacao.json");
    const page = await open("");
    const card = (p: string, campo: string) => page.locator(`.card[data-produto="${p}"] [data-campo="${campo}"]`).innerText();
    expect(await card("boi_gordo", "valor")).toBe("R$ 347,70/@");
    const pares = [["boi_gordo", "boi_gordo_cepea_sp"], ["vaca_gorda", "vaca_gorda"], ["soja", "soja"], ["milho", "milho"], ["bezerro", "bezerro_ms"]] as const;
    for (const [produto, key] of pares) {
      expect(await card(produto, "valor")).toBe(brl(agg[key]!, SUFIXO[agg.unidades[key]]!));
      const [y, m, d] = agg.datas[key]!.split("-");
      // its own day, then its age: "04/09/2026 · há 79 dias · desatualizado"
      expect(await card(produto, "data")).toMatch(new RegExp(`^${d}/${m}/${y} · (hoje|há \\d+ dias?) · (recente|antigo|desatualizado)$`));
    }
    // day change from the series file
    const boi = await file<SerieFile>("api/v1/cotacao/boi_gordo.json");
    await page.waitForFunction(() => !document.querySelector('.card[data-produto="boi_gordo"] [data-campo="variacao"]')!.textContent!.startsWith("…"));
    const v = boi.variacao!;
    expect(await card("boi_gordo", "variacao")).toContain(`(${v.percentual > 0 ? "+" : ""}${v.percentual.toFixed(2).replace(".", ",")}%)`);
    // per-UF table with the reference praça
    const ms = await file<AggregateFile>("api/v1/cotacao/uf/MS.json");
    const row = page.locator('tr[data-uf="MS"] td[data-produto="boi_gordo"]');
    await row.waitFor();
    expect(await row.innerText()).toContain(brl(ms.boi_gordo_uf!.preco, "/@"));
    expect(await row.innerText()).toContain(ms.boi_gordo_uf!.praca);
    const rs = await page.locator('tr[data-uf="RS"] td[data-produto="boi_gordo"] .valor').innerText();
    expect(rs).toMatch(/\/kg$/);
    // every praça on demand
    await page.locator('details[data-uf="MS"] summary').click();
    const serieMS = await file<SerieFile>("api/v1/cotacao/boi_gordo/MS.json");
    await page.waitForFunction(() => document.querySelector('details[data-uf="MS"] li') !== null);
    const pracas = await page.locator('details[data-uf="MS"]').innerText();
    for (const p of serieMS.pracas!) expect(pracas).toContain(`${p.praca}: ${brl(p.valor, "/@")}`);
    // links to the JSON and CSV of what is shown, relative
    expect(await page.locator('.card[data-produto="soja"] a', { hasText: "CSV" }).getAttribute("href")).toBe(new URL("api/v1/historico/soja.csv", srv.url).href);
    // terms of each source, from index.json
    const index = await file<IndexFile>("api/v1/index.json");
    for (const f of index.fontes) expect(await page.locator(`#fontes-lista li[data-fonte="${f.id}"]`).innerText()).toContain(f.termos);
    await page.close();
  });

  it("draws the history chart of the chosen series", async () => {
    const page = await open("");
    const boi = await file<SerieFile>("api/v1/cotacao/boi_gordo.json");
    await page.waitForSelector("#grafico canvas");
    expect(await page.locator("#grafico").getAttribute("data-pontos")).toBe(String(boi.historico.length));
    // a series shorter than a year: its recent file is all of it, and the chart opens on all of it
    expect(await page.locator("#grafico").getAttribute("data-historico")).toBe("completo");
    expect(await page.locator("#grafico").getAttribute("data-periodo")).toBe("tudo");
    const pintados = await page.evaluate(() => {
      const c = document.querySelector<HTMLCanvasElement>("#grafico canvas")!;
      const d = c.getContext("2d")!.getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i + 3]! > 0 && d[i]! < 100 && d[i + 1]! > 90) n++; // the green line
      return n;
    });
    expect(pintados).toBeGreaterThan(50);
    await page.selectOption("#serie", "milho");
    await page.waitForFunction(() => document.querySelector("#grafico")!.getAttribute("data-serie") === "milho");
    const milho = await file<SerieFile>("api/v1/cotacao/milho.json");
    expect(await page.locator("#grafico").getAttribute("data-pontos")).toBe(String(milho.historico.length));
    expect(await page.locator("#grafico-proveniencia").innerText()).toContain(milho.proveniencia.citacao);
    await page.close();
  });

  it("lists every series of index.json, filtered by product and by place", async () => {
    const page = await open("");
    const index = await file<IndexFile>("api/v1/index.json");
    expect(await page.locator("#catalogo-mostrar").innerText()).toBe(`Mostrar as ${index.series.length} séries`);
    expect(await page.locator("#catalogo-filtros").isVisible()).toBe(false);
    await mostrarCatalogo(page);
    expect(await page.locator("#catalogo-filtros").isVisible()).toBe(true);
    const ids = await page.locator("#catalogo-corpo tr").evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-serie")));
    expect(ids).toEqual(index.series.map((s) => s.id));
    const milho = index.series.find((s) => s.id === "milho")!;
    const linha = await page.locator('#catalogo-corpo tr[data-serie="milho"]').innerText();
    const [y, m, d] = milho.ultima_data!.split("-");
    expect(linha).toContain(`${d}/${m}/${y}`);
    expect(linha).toContain(String(milho.pontos));
    await page.selectOption("#filtro-uf", "MS");
    const soMs = await page.locator("#catalogo-corpo tr").evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-serie")));
    expect(soMs).toEqual(index.series.filter((s) => s.uf === "MS").map((s) => s.id));
    await page.selectOption("#filtro-produto", "vaca_gorda");
    expect(await page.locator("#catalogo-corpo tr").evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-serie")))).toEqual(["vaca_gorda/MS"]);
    expect(await page.locator("#catalogo-contagem").innerText()).toBe(`1 de ${index.series.length} séries`);
    await page.close();
  });

  it("shows the stale banner when status.json says so, and none when all is fresh", async () => {
    const status = await file<StatusFile>("api/v1/status.json");
    const stale = status.fontes.filter((f) => f.estado !== "ok");
    expect(stale.length).toBeGreaterThan(0); // the recorded Scot pages are weeks older than the test clock
    let page = await open("");
    const banner = page.locator("#avisos");
    expect(await banner.isVisible()).toBe(true);
    // one line until opened; the details name each source
    for (const f of stale) expect(await banner.locator(`li[data-fonte="${f.id}"]`).textContent()).toContain(f.nome);
    await page.close();

    // fresh as of today: the page judges the last days' age on the visitor's day, as status.json would
    const hoje = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo" }).format(new Date());
    const fresh: StatusFile = {
      ...status,
      fontes: status.fontes.map((f) => ({ ...f, estado: "ok", motivo: null, ultima_data: hoje })),
      series: status.series.map((s) => ({ ...s, estado: "ok", ultima_data: hoje })),
    };
    const path = join(site.publicDir, "api/v1/status.json");
    const original = await readFile(path, "utf8");
    await writeFile(path, JSON.stringify(fresh));
    try {
      await new Promise((r) => setTimeout(r, 1100)); // the server re-checks a file at most once a second
      page = await open("", { semCache: true });
      expect(await page.locator("#avisos").isVisible()).toBe(false);
      await page.close();
    } finally {
      await writeFile(path, original);
    }
  });

  it("has no axe violations", async () => {
    const page = await open("");
    await page.waitForSelector("body[data-pronto=ok]", { state: "attached" });
    expect(await axe(page)).toEqual([]);
    // and with the catalogue table drawn
    await mostrarCatalogo(page);
    expect(await axe(page)).toEqual([]);
    await page.close();
  });

  it("first load reads cotacao.json and status.json plus only the charted series' recent file; index.json when asked for", async () => {
    const page = await browser.context.newPage();
    const pedidos: string[] = [];
    page.on("request", (r) => {
      const u = new URL(r.url());
      if (u.pathname.startsWith("/api/")) pedidos.push(u.pathname);
    });
    // routing turns the HTTP cache off, so every file the page needs is requested
    await page.route("**/*", (r) => r.continue());
    await page.goto(srv.url);
    await page.waitForSelector("body[data-pronto=ok]", { state: "attached", timeout: 20_000 });
    expect(pedidos.sort()).toEqual(["/api/v1/cotacao.json", "/api/v1/recente/boi_gordo.json", "/api/v1/status.json"]);
    // what the first paint shows of index.json is in the page: the per-state table, the sources' terms
    expect(await page.locator('tr[data-uf="MS"] td[data-produto="vaca_gorda"] .valor').innerText()).toMatch(/^R\$ /);
    expect(await page.locator("#fontes-lista li").count()).toBeGreaterThan(0);
    // a state's praças only when asked for, from its recent file (the same headline, a year of history)
    await page.locator('details[data-uf="MT"] summary').click();
    await page.waitForFunction(() => document.querySelector('details[data-uf="MT"] li') !== null);
    expect(pedidos).toContain("/api/v1/recente/boi_gordo/MT.json");
    expect(pedidos.filter((p) => p.startsWith("/api/v1/cotacao/"))).toEqual([]);
    expect(pedidos).not.toContain("/api/v1/index.json");
    // the chart's list has every series before index.json is read (a phone's picker opens at the
    // first tap, before it could arrive), named as they are once it is
    const opcoes = () => page.locator("#serie option").evaluateAll((os) => os.map((o) => [(o as HTMLOptionElement).value, o.textContent]));
    const antes = await opcoes();
    expect(antes.map(([id]) => id)).toEqual((await file<IndexFile>("api/v1/index.json")).series.map((s) => s.id));
    expect(pedidos).not.toContain("/api/v1/index.json");
    // the catalogue table, another series for the chart: index.json, once
    await mostrarCatalogo(page);
    await page.focus("#serie");
    expect(pedidos.filter((p) => p === "/api/v1/index.json")).toEqual(["/api/v1/index.json"]);
    expect(await opcoes()).toEqual(antes);
    await page.close();
  });

  it("fits a phone and keeps every price on its card, never splitting R$ from the number", async () => {
    for (const largura of [390, 1280]) {
      const page = await browser.context.newPage();
      await page.setViewportSize({ width: largura, height: 900 });
      await page.goto(srv.url);
      await page.waitForSelector("body[data-pronto=ok]", { state: "attached", timeout: 20_000 });
      const r = await page.evaluate(() => {
        const transbordam: string[] = [];
        for (const e of document.querySelectorAll<HTMLElement>(".card, .card *, main section")) {
          if (e.scrollWidth > e.clientWidth + 1 && e.clientWidth > 0) transbordam.push(`${e.className || e.tagName}: ${e.textContent!.trim().slice(0, 40)}`);
        }
        // "R$ 3.426,02" on one line: its box is one line high
        const partidos: string[] = [];
        for (const v of document.querySelectorAll<HTMLElement>(".card .valor .sem-quebra, td .valor .sem-quebra")) {
          if (v.getClientRects().length > 1) partidos.push(v.textContent!);
        }
        return { largura: document.documentElement.scrollWidth, transbordam, partidos };
      });
      expect(r, `${largura} px`).toEqual({ largura, transbordam: [], partidos: [] });
      await page.close();
    }
  });
});

/** Calendar days from a to b, written out here independently of the page's code. */
function dias(a: string, b: string): number {
  return Math.round((Date.UTC(+b.slice(0, 4), +b.slice(5, 7) - 1, +b.slice(8, 10)) - Date.UTC(+a.slice(0, 4), +a.slice(5, 7) - 1, +a.slice(8, 10))) / 86_400_000);
}

/** The page at a pinned visitor's clock (Brasília noon of that day). */
async function openEm(path: string, dia: string, viewport?: { width: number; height: number }): Promise<Page> {
  const page = await browser.context.newPage();
  if (viewport) await page.setViewportSize(viewport);
  await page.clock.setFixedTime(new Date(`${dia}T12:00:00-03:00`));
  const erros: string[] = [];
  page.on("pageerror", (e) => erros.push(e.message));
  await page.goto(new URL(path, srv.url).href);
  await page.waitForSelector("body[data-pronto=ok]", { state: "attached", timeout: 20_000 });
  expect(erros).toEqual([]);
  return page;
}

/**
 * A long synthetic history for the boi gordo files, so the range selector has something to cut:
 * the whole file, its recent file (the days from 366 days before the last one, cut here by hand)
 * and index.json's entry, served as the site would publish them. Returns the whole history's and
 * the recent file's number of days.
 */
async function comHistoricoLongo(page: Page, anos: number): Promise<{ n: number; recentes: number }> {
  const boi = await file<SerieFile>("api/v1/cotacao/boi_gordo.json");
  const index = await file<IndexFile>("api/v1/index.json");
  const fim = Date.UTC(2026, 8, 4);
  const historico: SerieFile["historico"] = [];
  for (let t = fim - anos * 365 * 86_400_000; t <= fim; t += 86_400_000) {
    const d = new Date(t);
    if (d.getUTCDay() === 0 || d.getUTCDay() === 6) continue;
    historico.push({ ...boi.historico[boi.historico.length - 1]!, data: d.toISOString().slice(0, 10), valor: 250 + (historico.length % 100) });
  }
  // 2026-09-04 minus 366 days
  const recente = historico.filter((h) => h.data >= "2025-09-03");
  const json = (body: unknown) => ({ contentType: "application/json", body: JSON.stringify(body) });
  await page.route("**/api/v1/cotacao/boi_gordo.json", (r) => r.fulfill(json({ ...boi, historico })));
  await page.route("**/api/v1/recente/boi_gordo.json", (r) => r.fulfill(json({ ...boi, historico: recente })));
  const series = index.series.map((s) => (s.id === "boi_gordo" ? { ...s, primeira_data: historico[0]!.data, pontos: historico.length } : s));
  await page.route("**/api/v1/index.json", (r) => r.fulfill(json({ ...index, series })));
  // the page carries its first paint's entries of index.json: the same change there
  await page.route((u) => u.pathname === "/", async (r) => {
    const res = await r.fetch();
    const html = (await res.text()).replace(/(<script type="application\/json" id="dados-painel">)(.*?)(<\/script>)/, (_m, a: string, dados: string, c: string) => {
      const d = JSON.parse(dados) as { series: IndexFile["series"] };
      d.series = d.series.map((s) => (s.id === "boi_gordo" ? { ...s, primeira_data: historico[0]!.data, pontos: historico.length } : s));
      return `${a}${JSON.stringify(d).replace(/</g, "\\u003c")}${c}`;
    });
    await r.fulfill({ response: res, body: html });
  });
  return { n: historico.length, recentes: recente.length };
}

describe("freshness, chart, anchors and the page without JavaScript", () => {
  it("shows each price's own day and age, coloured by status.json and the visitor's day", async () => {
    const agg = await file<AggregateFile>("api/v1/cotacao.json");
    const status = await file<StatusFile>("api/v1/status.json");
    const hoje = "2026-09-26";
    const page = await openEm("", hoje);
    const atrasadas = new Set(status.series.filter((s) => s.estado === "stale").map((s) => s.id));
    const pares = [["boi_gordo", "boi_gordo_cepea_sp"], ["vaca_gorda", "vaca_gorda"], ["soja", "soja"], ["milho", "milho"], ["bezerro", "bezerro_ms"]] as const;
    const vistos = new Set<string>();
    for (const [produto, key] of pares) {
      const dia = agg.datas[key]!;
      const n = dias(dia, hoje);
      const card = page.locator(`.card[data-produto="${produto}"]`);
      const [y, m, d] = dia.split("-");
      const esperado = atrasadas.has(produto) ? "atrasado" : n <= 1 ? "em_dia" : null;
      const texto = await card.locator('[data-campo="data"]').innerText();
      expect(texto.startsWith(`${d}/${m}/${y} · ${n === 0 ? "hoje" : n === 1 ? "há 1 dia" : `há ${n} dias`}`), `${produto}: ${texto}`).toBe(true);
      if (esperado) expect(await card.getAttribute("data-frescor"), produto).toBe(esperado);
      if (esperado === "atrasado") expect(texto).toContain("desatualizado");
      vistos.add((await card.getAttribute("data-frescor"))!);
    }
    // the recorded pages give both: a CEPEA day of yesterday and Scot weeks behind
    expect(vistos.has("em_dia") && vistos.has("atrasado")).toBe(true);
    // the header's time is the last run that changed data, not the prices' day
    expect(await page.locator("header").innerText()).toContain("Dados alterados pela última vez em");
    // the colour follows the state (red for stale, green for fresh)
    const cor = (p: string) => page.locator(`.card[data-produto="${p}"]`).evaluate((e) => getComputedStyle(e).borderLeftColor);
    expect(await cor("vaca_gorda")).not.toBe(await cor("soja"));
    // every row of the catalogue and every state cell carries its age too
    await mostrarCatalogo(page);
    expect(await page.locator('#catalogo-corpo tr[data-serie="soja"] [data-campo="ultimo-dia"]').innerText()).toMatch(/^\d{2}\/\d{2}\/\d{4} · (hoje|há \d+ dias?) · /);
    expect(await page.locator('tr[data-uf="MS"] td[data-produto="boi_gordo"] [data-campo="idade"]').innerText()).toMatch(/^há \d+ dias$/);
    await page.close();
    // two months later everything reads as stale, whatever the last run said
    const depois = await openEm("", "2026-11-22");
    for (const [produto] of pares) expect(await depois.locator(`.card[data-produto="${produto}"]`).getAttribute("data-frescor"), produto).not.toBe("em_dia");
    await depois.close();
  });

  it("puts the prices first on a 390×844 phone: the banner is one line, the first card fits the first screen", async () => {
    const page = await openEm("", "2026-09-26", { width: 390, height: 844 });
    const r = await page.evaluate(() => {
      const banner = document.querySelector<HTMLDetailsElement>("#avisos")!;
      const resumo = banner.querySelector("summary")!;
      const linha = parseFloat(getComputedStyle(resumo).lineHeight);
      const card = document.querySelector(".card")!.getBoundingClientRect();
      return { visivel: !banner.hidden, aberto: banner.open, altura: resumo.getBoundingClientRect().height, linha, cardTopo: card.top, cardFim: card.bottom, tela: innerHeight };
    });
    expect(r.visivel).toBe(true);
    expect(r.aberto).toBe(false);
    expect(r.altura).toBeLessThan(r.linha * 1.5);
    expect(r.cardFim).toBeLessThanOrEqual(r.tela);
    // the details are one tap away
    await page.locator("#avisos summary").click();
    expect(await page.locator('#avisos li[data-fonte="scot"]').isVisible()).toBe(true);
    await page.close();
  });

  it("draws a one-point series on a padded axis labelled with years, and follows its box when resized", async () => {
    const index = await file<IndexFile>("api/v1/index.json");
    const um = index.series.find((s) => s.pontos === 1)!;
    expect(um, "uma série de um só dia no site de teste").toBeDefined();
    const page = await openEm("", "2026-09-26", { width: 1280, height: 900 });
    // a series beyond the page's own ones: the list is completed from index.json when the select is used
    await page.focus("#serie");
    await page.selectOption("#serie", um.id);
    await page.waitForFunction((id) => document.querySelector("#grafico")!.getAttribute("data-serie") === id, um.id);
    const grafico = page.locator("#grafico");
    const rotulos = (await grafico.getAttribute("data-rotulos-x"))!.split("|");
    expect(rotulos.length).toBeGreaterThan(1);
    for (const r of rotulos) expect(r).toMatch(/^(\d{2}\/\d{2}\/\d{4}|[a-zç]{3}\/\d{4})$/);
    const [de, ate] = (await grafico.getAttribute("data-janela"))!.split("/");
    expect(dias(de!, ate!)).toBeGreaterThanOrEqual(30);
    expect(de! < um.ultima_data! && um.ultima_data! < ate!).toBe(true);
    // only "tudo" makes sense for one day
    const habilitados = await page.locator("#periodos button").evaluateAll((bs) => bs.map((b) => `${b.textContent}:${(b as HTMLButtonElement).disabled ? "não" : "sim"}`));
    expect(habilitados).toEqual(["30 d:não", "1 a:não", "5 a:não", "tudo:sim"]);
    const largura = () => page.locator("#grafico canvas").evaluate((c) => (c as HTMLCanvasElement).width);
    const antes = await largura();
    await page.setViewportSize({ width: 600, height: 900 });
    await page.waitForFunction((w) => document.querySelector<HTMLCanvasElement>("#grafico canvas")!.width < w, antes);
    expect(await largura()).toBeLessThan(antes);
    await page.close();
  });

  it("cuts a long series with the range selector, reading the whole history only for tudo", async () => {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    const { n, recentes } = await comHistoricoLongo(page, 3);
    const pedidos: string[] = [];
    page.on("request", (r) => {
      const u = new URL(r.url());
      if (/^\/api\/v1\/(cotacao|recente)\/boi_gordo\.json$/.test(u.pathname)) pedidos.push(u.pathname);
    });
    await page.goto(srv.url);
    await page.waitForSelector("body[data-pronto=ok]", { state: "attached", timeout: 20_000 });
    const grafico = page.locator("#grafico");
    const janela = async () => {
      const [de, ate] = (await grafico.getAttribute("data-janela"))!.split("/");
      return dias(de!, ate!);
    };
    // opened on the last year, from the recent file alone
    expect(pedidos).toEqual(["/api/v1/recente/boi_gordo.json"]);
    expect(await grafico.getAttribute("data-pontos")).toBe(String(recentes));
    expect(await grafico.getAttribute("data-historico")).toBe("ultimo-ano");
    expect(await grafico.getAttribute("data-periodo")).toBe("1a");
    expect(await page.locator('#periodos button[data-periodo="1a"]').getAttribute("aria-pressed")).toBe("true");
    expect(await janela()).toBeGreaterThanOrEqual(365);
    expect(await janela()).toBeLessThan(400);
    // the periods follow the whole series (index.json), not the year the chart holds
    expect(await page.locator('#periodos button[data-periodo="5a"]').isDisabled()).toBe(true);
    expect(await page.locator('#periodos button[data-periodo="tudo"]').isDisabled()).toBe(false);
    expect(await grafico.getAttribute("aria-label")).toContain(`${n} dias`);
    await page.click('#periodos button[data-periodo="30d"]');
    expect(await grafico.getAttribute("data-periodo")).toBe("30d");
    expect(await janela()).toBeGreaterThanOrEqual(30);
    expect(await janela()).toBeLessThan(40);
    expect(await page.locator('#periodos button[data-periodo="30d"]').getAttribute("aria-pressed")).toBe("true");
    await page.click('#periodos button[data-periodo="1a"]');
    expect(await janela()).toBeGreaterThanOrEqual(365);
    expect(await janela()).toBeLessThan(400);
    expect(pedidos).toEqual(["/api/v1/recente/boi_gordo.json"]);
    await page.click('#periodos button[data-periodo="tudo"]');
    await page.waitForSelector('#grafico[data-historico="completo"]');
    expect(pedidos).toEqual(["/api/v1/recente/boi_gordo.json", "/api/v1/cotacao/boi_gordo.json"]);
    expect(await grafico.getAttribute("data-pontos")).toBe(String(n));
    expect(await grafico.getAttribute("data-periodo")).toBe("tudo");
    expect(await page.locator('#periodos button[data-periodo="tudo"]').getAttribute("aria-pressed")).toBe("true");
    expect(await janela()).toBeGreaterThan(3 * 365);
    // back and forth: the whole file is read once
    await page.click('#periodos button[data-periodo="30d"]');
    expect(await janela()).toBeLessThan(40);
    await page.click('#periodos button[data-periodo="tudo"]');
    expect(await janela()).toBeGreaterThan(3 * 365);
    expect(pedidos).toHaveLength(2);
    await page.close();
  });

  it("gives every series an anchor and opens the page at it", async () => {
    const index = await file<IndexFile>("api/v1/index.json");
    let page = await open("");
    await mostrarCatalogo(page);
    const ids = await page.locator("#catalogo-corpo tr").evaluateAll((trs) => trs.map((tr) => [tr.getAttribute("data-serie"), tr.id]));
    for (const [serie, id] of ids) expect(id).toBe(serie!.includes("/") ? `serie-${serie!.split("/")[0]}-${serie!.split("/")[1]}` : `serie-${serie}`);
    expect(ids.length).toBe(index.series.length);
    await page.close();

    page = await browser.context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${srv.url}#serie-boi_gordo-MS`);
    await page.waitForSelector("body[data-pronto=ok]", { state: "attached", timeout: 20_000 });
    const linha = page.locator("#serie-boi_gordo-MS");
    expect(await linha.getAttribute("aria-current")).toBe("true");
    expect(await linha.isVisible()).toBe(true);
    const caixa = (await linha.boundingBox())!;
    expect(caixa.y).toBeGreaterThanOrEqual(0);
    expect(caixa.y).toBeLessThan(844);
    expect(await page.locator("#grafico").getAttribute("data-serie")).toBe("boi_gordo/MS");
    // a link followed later, with the table filtered to something else, still finds its row
    await page.selectOption("#filtro-produto", "soja");
    expect(await page.locator("#serie-vaca_gorda").count()).toBe(0);
    await page.evaluate(() => (location.hash = "#serie-vaca_gorda"));
    await page.waitForFunction(() => document.querySelector("#grafico")!.getAttribute("data-serie") === "vaca_gorda");
    expect(await page.locator("#serie-vaca_gorda").getAttribute("aria-current")).toBe("true");
    await page.close();
  });

  it("names sources and places, and says the national vaca gorda is Scot's São Paulo praça", async () => {
    const index = await file<IndexFile>("api/v1/index.json");
    const page = await open("");
    await mostrarCatalogo(page);
    const vaca = await page.locator('#catalogo-corpo tr[data-serie="vaca_gorda"]').innerText();
    expect(vaca).toContain("Referência: São Paulo (praça de referência da Scot Consultoria)");
    expect(vaca).not.toContain("nacional");
    const fontes = await page.locator("#catalogo-corpo tr td:nth-child(3)").allInnerTexts();
    const ids = new Set<string>(index.fontes.map((f) => f.id));
    const nomes = new Set(index.fontes.map((f) => f.nome));
    for (const f of fontes) {
      expect(ids.has(f), f).toBe(false);
      expect(nomes.has(f), f).toBe(true);
    }
    await page.close();
  });

  it("shows the built prices, link previews and a Dataset JSON-LD with JavaScript disabled", async () => {
    const agg = await file<AggregateFile>("api/v1/cotacao.json");
    const b = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS] });
    try {
      const ctx = await b.newContext({ javaScriptEnabled: false, locale: "pt-BR" });
      const page = await ctx.newPage();
      await page.goto(srv.url);
      const [y, m, d] = agg.datas.boi_gordo_cepea_sp!.split("-");
      const boi = page.locator('.card[data-produto="boi_gordo"]');
      expect(await boi.locator('[data-campo="valor"]').innerText()).toBe(brl(agg.boi_gordo_cepea_sp!, "/@"));
      expect(await boi.locator('[data-campo="data"]').innerText()).toContain(`${d}/${m}/${y}`);
      for (const key of ["vaca_gorda", "soja", "milho", "bezerro_ms"] as const) {
        expect(await page.locator("#precos").innerText()).toContain(brl(agg[key]!, SUFIXO[agg.unidades[key]]!));
      }
      const og = await page.locator('meta[property="og:description"]').getAttribute("content");
      expect(og).toContain(`Boi gordo ${brl(agg.boi_gordo_cepea_sp!, "/@")} (${d}/${m}/${y})`);
      expect(await page.locator('meta[name="twitter:card"]').getAttribute("content")).toBe("summary");
      expect(await page.locator('link[rel="icon"][type="image/svg+xml"]').getAttribute("href")).toBe("favicon.svg");
      const imagem = (await page.locator('meta[property="og:image"]').getAttribute("content"))!;
      expect(imagem.startsWith(SITE_URL)).toBe(true);
      const icones = [...(await page.locator('link[rel~="icon"], link[rel="apple-touch-icon"]').evaluateAll((ls) => ls.map((l) => l.getAttribute("href")!))), imagem.slice(SITE_URL.length)];
      expect(icones).toEqual(["favicon.svg", "favicon.png", "favicon-512.png", "favicon-512.png"]);
      for (const icone of icones) expect((await page.request.get(new URL(icone, srv.url).href)).status(), icone).toBe(200);
      const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!) as Record<string, unknown> & { distribution: Array<{ contentUrl: string }> };
      expect(ld["@type"]).toBe("Dataset");
      for (const k of ["name", "description", "license", "creator", "distribution", "temporalCoverage", "spatialCoverage"]) expect(ld, k).toHaveProperty(k);
      expect(ld.distribution.length).toBeGreaterThan(0);
      for (const dist of ld.distribution) {
        expect(dist.contentUrl.startsWith(SITE_URL)).toBe(true);
        const rel = dist.contentUrl.slice(SITE_URL.length);
        expect((await page.request.get(new URL(rel, srv.url).href)).status(), rel).toBe(200);
      }
      await ctx.close();
    } finally {
      await b.close();
    }
  });

  it("keeps the page's strict CSP: the JSON-LD is data, nothing is blocked", async () => {
    const visitante = await openChromium({ bypassCSP: false });
    try {
      const page = await visitante.context.newPage();
      const bloqueios: string[] = [];
      page.on("console", (msg) => {
        if (/Content Security Policy/i.test(msg.text())) bloqueios.push(msg.text());
      });
      const resposta = await page.goto(srv.url);
      expect(resposta!.headers()["content-security-policy"]).toContain("script-src 'self'");
      await page.waitForSelector("body[data-pronto=ok]", { state: "attached", timeout: 20_000 });
      expect(bloqueios).toEqual([]);
      await page.close();
    } finally {
      await visitante.close();
    }
  });
});

describe("simulator page", () => {
  it("gives the expected numbers with the published price and validates inputs", async () => {
    const ms = await file<SerieFile>("api/v1/cotacao/boi_gordo/MS.json");
    expect(ms.valor).toBe(338);
    const page = await open("simulador/");
    await page.selectOption("#produto", "boi_gordo");
    await page.selectOption("#uf", "MS");
    await page.fill("#cabecas", "10");
    await page.fill("#peso_vivo_kg", "540");
    await page.fill("#rendimento_pct", "52");
    await page.fill("#comissao_pct", "2");
    await page.fill("#frete", "1.500,00");
    await page.click("button[type=submit]");
    await page.waitForSelector("body[data-resultado=ok]", { state: "attached" });
    const cel = (c: string) => page.locator(`#resultado tr[data-campo="${c}"] td`).innerText();
    expect(await cel("arrobas")).toBe("187,20 @");
    expect(await cel("bruto")).toBe("R$ 63.273,60");
    expect(await cel("funrural")).toBe("− R$ 949,10");
    expect(await cel("comissao")).toBe("− R$ 1.265,47");
    expect(await cel("liquido")).toBe("R$ 59.559,03");
    expect(await cel("preco")).toContain("R$ 338,00/@ em 05/08/2026");
    expect(await cel("preco")).toContain("praça C. Grande");
    expect(await axe(page)).toEqual([]);

    await page.fill("#cabecas", "dez");
    await page.click("button[type=submit]");
    await page.waitForSelector("#erro-cabecas:not([hidden])");
    expect(await page.locator("#erro-cabecas").innerText()).toContain("não é um número válido");
    expect(await page.locator("#cabecas").getAttribute("aria-invalid")).toBe("true");

    // messages name the labels the page shows; "1.000" is a thousand
    for (const [campo, rotulo] of Object.entries(ROTULOS)) expect(await page.locator(`label[for="${campo}"]`).innerText(), campo).toBe(rotulo);
    await page.fill("#cabecas", "-5");
    await page.click("button[type=submit]");
    await page.waitForSelector("#erro-cabecas:not([hidden])");
    expect(await page.locator("#erro-cabecas").innerText()).toBe("Número de cabeças: deve ser maior que zero");
    await page.fill("#cabecas", "1.000");
    await page.click("button[type=submit]");
    await page.waitForSelector("#resultado:not([hidden])");
    expect(await cel("cabecas")).toBe("1000");
    expect(await cel("arrobas")).toBe("18.720,00 @");
    await page.close();
  });

  it("states the default Funrural rate with its legal basis", async () => {
    const page = await open("simulador/");
    expect(await page.locator("#funrural_pct").inputValue()).toBe("1,5");
    expect(await page.locator("#funrural-base").innerText()).toContain("Lei 13.606/2018");
    await page.close();
  });
});

describe("another origin", () => {
  let other: Server;
  let otherUrl = "";
  beforeAll(async () => {
    // a page on a second local server (different port = different origin) that calls the API
    other = createServer((_req, res) => {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      res.end(`<!doctype html><html lang="pt-BR"><title>outra origem</title><body><script>
        fetch(${JSON.stringify(new URL("api/v1/cotacao?uf=MS", srv.url).href)}).then(async (r) => {
          const j = await r.json();
          document.body.dataset.resultado = JSON.stringify({
            status: r.status, limite: r.headers.get("X-RateLimit-Limit"), restante: r.headers.get("X-RateLimit-Remaining"),
            reset: r.headers.get("X-RateLimit-Reset"), uf: j.boi_gordo_uf && j.boi_gordo_uf.uf, rate: j.rate_limit });
        }).catch((e) => { document.body.dataset.resultado = JSON.stringify({ erro: String(e) }); });
      </script></body></html>`);
    });
    await new Promise<void>((r) => other.listen(0, "127.0.0.1", r));
    otherUrl = `http://localhost:${(other.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    other.closeAllConnections();
    await new Promise((r) => other.close(r));
  });

  it("fetches the API and reads the quota headers", async () => {
    const page = await browser.context.newPage();
    await page.goto(otherUrl);
    await page.waitForSelector("body[data-resultado]", { state: "attached" });
    const r = JSON.parse((await page.locator("body").getAttribute("data-resultado"))!) as Record<string, unknown>;
    expect(r).toMatchObject({ status: 200, limite: "100", uf: "MS" });
    expect(Number(r.restante)).toBeLessThan(100);
    expect(Number(r.reset)).toBeGreaterThan(0);
    await page.close();
  });
});
