import { readFile, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { Page } from "playwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../pipeline/config.ts";
import type { AggregateFile, IndexFile, SerieFile, StatusFile } from "../../pipeline/domain/publicados.ts";
import { startServer, type RunningServer } from "../../pipeline/serve/app.ts";
import { ROTULOS } from "../../pipeline/simulator/simulator.ts";
import { buildTestSite } from "../serve/site.ts";
import { openChromium } from "./chromium.ts";

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

async function axe(page: Page): Promise<unknown[]> {
  await page.addScriptTag({ path: join(REPO_ROOT, "node_modules", "axe-core", "axe.min.js") });
  return page.evaluate(async () => {
    const r = await (window as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; nodes: Array<{ target: unknown }> }> }> } }).axe.run();
    return r.violations.map((v) => ({ id: v.id, alvos: v.nodes.map((n) => n.target) }));
  });
}

beforeAll(async () => {
  site = await buildTestSite();
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
      expect(await card(produto, "data")).toBe(`em ${d}/${m}/${y}`);
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
    expect(await page.locator('.card[data-produto="soja"] a', { hasText: "CSV" }).getAttribute("href")).toBe("api/v1/historico/soja.csv");
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
    await page.waitForSelector("#catalogo-corpo tr[data-serie]");
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
    for (const f of stale) expect(await banner.locator(`li[data-fonte="${f.id}"]`).innerText()).toContain(f.nome);
    await page.close();

    const fresh: StatusFile = { ...status, fontes: status.fontes.map((f) => ({ ...f, estado: "ok", motivo: null })), series: status.series.map((s) => ({ ...s, estado: "ok" })) };
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
    await page.close();
  });

  it("first load reads cotacao.json, index.json and status.json plus only the charted series", async () => {
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
    expect(pedidos.sort()).toEqual(["/api/v1/cotacao.json", "/api/v1/cotacao/boi_gordo.json", "/api/v1/index.json", "/api/v1/status.json"]);
    // a state's praças only when asked for
    await page.locator('details[data-uf="MT"] summary').click();
    await page.waitForFunction(() => document.querySelector('details[data-uf="MT"] li') !== null);
    expect(pedidos).toContain("/api/v1/cotacao/boi_gordo/MT.json");
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
    expect(await cel("preco")).toContain("R$ 338,00/@ em 05/08/2026, praça C. Grande");
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
