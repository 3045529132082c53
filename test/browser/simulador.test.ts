import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Page } from "playwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../pipeline/config.ts";
import type { IndexFile, SerieFile } from "../../pipeline/domain/publicados.ts";
import { startServer, type RunningServer } from "../../pipeline/serve/app.ts";
import { buildTestSite } from "../serve/site.ts";
import { openChromium } from "./chromium.ts";

/**
 * The simulator page in Chromium, on a site the pipeline built from the recorded pages. The
 * page's clock is pinned to 22/11/2026, 109 days after Scot's recorded table (05/08/2026).
 */
const HOJE = new Date("2026-11-22T12:00:00-03:00");

let site: Awaited<ReturnType<typeof buildTestSite>>;
let srv: RunningServer;
let browser: Awaited<ReturnType<typeof openChromium>>;

async function file<T>(rel: string): Promise<T> {
  return JSON.parse(await readFile(join(site.publicDir, rel), "utf8")) as T;
}

async function open(path: string, opts: { largura?: number; altura?: number; antes?: (p: Page) => Promise<void> } = {}): Promise<Page> {
  const page = await browser.context.newPage();
  if (opts.largura) await page.setViewportSize({ width: opts.largura, height: opts.altura ?? 844 });
  await page.clock.setFixedTime(HOJE);
  await opts.antes?.(page);
  const erros: string[] = [];
  page.on("pageerror", (e) => erros.push(e.message));
  await page.goto(new URL(path, srv.url).href);
  await page.waitForSelector("body[data-pronto=ok]", { state: "attached", timeout: 20_000 });
  expect(erros).toEqual([]);
  return page;
}

const cel = (page: Page, c: string) => page.locator(`#resultado tr[data-campo="${c}"] td`).innerText();
const rotulo = (page: Page, c: string) => page.locator(`#resultado tr[data-campo="${c}"] th`).innerText();

/** 10 head × 540 kg × 52% in MS, 2% commission, R$ 1.500,00 freight: the README's example */
const MS = "simulador/?produto=boi_gordo&uf=MS&cabecas=10&peso_vivo_kg=540&rendimento_pct=52&comissao_pct=2&frete=1.500%2C00";

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

describe("simulator page", () => {
  it("restores a shared link's inputs and shows the same result as the server's /api/v1/simulador", async () => {
    const ms = await file<SerieFile>("api/v1/cotacao/boi_gordo/MS.json");
    expect(ms).toMatchObject({ valor: 338, data_cotacao: "2026-08-05", fonte: "scot" });
    const page = await open(MS);
    await page.waitForSelector("body[data-resultado=ok]", { state: "attached" });
    expect(await page.locator("#produto").inputValue()).toBe("boi_gordo");
    expect(await page.locator("#uf").inputValue()).toBe("MS");
    expect(await page.locator("#cabecas").inputValue()).toBe("10");
    expect(await page.locator("#frete").inputValue()).toBe("1.500,00");
    expect(await cel(page, "arrobas")).toBe("187,20 @");
    expect(await cel(page, "bruto")).toBe("R$ 63.273,60");
    expect(await cel(page, "funrural")).toBe("− R$ 949,10");
    expect(await cel(page, "liquido")).toBe("R$ 59.559,03");
    const api = await fetch(new URL(`api/v1/simulador${MS.slice(MS.indexOf("?"))}`, srv.url));
    expect(api.status).toBe(200);
    const r = (await api.json()) as { bruto: number; liquido: number; deducoes: { total: number } };
    expect([r.bruto, r.deducoes.total, r.liquido]).toEqual([63273.6, 3714.57, 59559.03]);
    await page.close();
  });

  it("says which day the price is from and warns, before the figures, when it is months old", async () => {
    const page = await open(MS);
    await page.waitForSelector("body[data-resultado=ok]", { state: "attached" });
    const aviso = page.locator('#resultado [data-campo="aviso"]');
    expect(await aviso.isVisible()).toBe(true);
    expect(await aviso.innerText()).toMatch(/^Preço de 05\/08\/2026, há 109 dias: /);
    // above the table
    const [a, t] = await Promise.all([aviso.boundingBox(), page.locator("#resultado table").boundingBox()]);
    expect(a!.y).toBeLessThan(t!.y);
    expect(await cel(page, "preco")).toContain("R$ 338,00/@ em 05/08/2026 (há 109 dias), praça C. Grande");
    // before simulating, the chosen series says its day and age too, in the warning's colours
    expect(await page.locator("#serie-desc").innerText()).toContain("de 05/08/2026 (há 109 dias)");
    expect(await page.locator("#serie-desc").getAttribute("class")).toContain("desatualizado");
    await page.close();
  });

  it("shows sources and series by name, and says the vaca gorda reference is Scot's SP praça", async () => {
    const page = await open(MS);
    await page.waitForSelector("body[data-resultado=ok]", { state: "attached" });
    const usado = await cel(page, "preco");
    expect(usado).toContain("Mato Grosso do Sul (Mercado Físico, Scot Consultoria)");
    expect(usado).not.toMatch(/boi_gordo|\bscot\b/);
    const opcoes = await page.locator("#uf option").allInnerTexts();
    expect(opcoes[0]).toBe("Referência: Estado de São Paulo (Indicador do Boi Gordo CEPEA/ESALQ, à vista)");
    expect(opcoes).toContain("Mato Grosso do Sul (MS) — praça C. Grande, Scot Consultoria");
    // bezerro is sold by the head: the states' reposição prices per kg are not offered
    await page.selectOption("#produto", "bezerro");
    const bezerro = await page.locator("#uf option").allInnerTexts();
    expect(bezerro).toEqual(["Referência: Mato Grosso do Sul (Indicador do Bezerro CEPEA/ESALQ)"]);
    await page.selectOption("#produto", "vaca_gorda");
    const vaca = await page.locator("#uf option").first().innerText();
    expect(vaca).toBe("Referência: São Paulo (praça de referência da Scot Consultoria)");
    expect(vaca).not.toContain("nacional");
    await page.close();
  });

  it("does not deduct Funrural from CEPEA's boi gordo indicator, and offers Scot's own after-Funrural column", async () => {
    const page = await open("simulador/");
    await page.selectOption("#produto", "boi_gordo");
    await page.selectOption("#uf", "");
    await page.fill("#cabecas", "10");
    await page.fill("#peso_vivo_kg", "540");
    await page.fill("#rendimento_pct", "52");
    await page.click("button[type=submit]");
    await page.waitForSelector("body[data-resultado=ok]", { state: "attached" });
    expect(await rotulo(page, "funrural")).toBe("Funrural (preço já sem Funrural)");
    expect(await cel(page, "funrural")).toBe("− R$ 0,00");
    expect(await cel(page, "bruto")).toBe("R$ 65.089,44"); // 187,20 @ × 347,70
    expect(await cel(page, "liquido")).toBe("R$ 65.089,44");
    expect(await page.locator("#resultado").innerText()).toContain("O preço de CEPEA/ESALQ-USP já é sem Funrural");
    // CEPEA publishes no other column: nothing to choose
    expect(await page.locator('[data-grupo="coluna"]').isHidden()).toBe(true);
    // a typed price is read in the series' unit, and the field says which: RS's boi is per kg
    expect(await page.locator("#ajuda-preco").innerText()).toMatch(/^Em R\$\/@, a unidade do preço desta série\. Deixe em branco/);
    await page.selectOption("#uf", "RS");
    await page.waitForFunction(() => document.querySelector("#ajuda-preco")?.textContent?.startsWith("Em R$/kg"));
    expect(await page.locator("#ajuda-preco").innerText()).toMatch(/^Em R\$\/kg, a unidade do preço deste estado\. Deixe em branco/);

    await page.selectOption("#uf", "MS");
    await page.waitForSelector('[data-grupo="coluna"]:not([hidden])');
    const colunas = await page.locator("#coluna option").evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(colunas).toEqual(["", "valor_30d", "funrural_avista", "funrural_30d", "senar_avista", "senar_30d"]);
    await page.selectOption("#coluna", "funrural_avista");
    await page.click("button[type=submit]");
    await page.waitForFunction(() => document.querySelector('#resultado tr[data-campo="bruto"] td')?.textContent === "R$ 62.244,00");
    expect(await cel(page, "funrural")).toBe("− R$ 0,00");
    expect(await cel(page, "preco")).toContain("R$ 332,50/@");
    expect(await cel(page, "preco")).toContain("com o Funrural já descontado");
    expect(new URL(page.url()).searchParams.get("coluna")).toBe("funrural_avista");
    // the new controls (the column, the warning, the copy button) are accessible
    await page.addScriptTag({ path: join(REPO_ROOT, "node_modules", "axe-core", "axe.min.js") });
    const violacoes = await page.evaluate(async () => {
      const r = await (window as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; nodes: Array<{ target: unknown }> }> }> } }).axe.run();
      return r.violations.map((v) => ({ id: v.id, alvos: v.nodes.map((n) => n.target) }));
    });
    expect(violacoes).toEqual([]);
    await page.close();
  });

  it("puts the inputs in the URL on submit; the link gives the same result and can be copied", async () => {
    await browser.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(srv.url).origin });
    const page = await open("simulador/");
    await page.selectOption("#produto", "soja");
    await page.fill("#sacas", "1.000");
    await page.fill("#comissao_pct", "1,5");
    await page.click("button[type=submit]");
    await page.waitForSelector("body[data-resultado=ok]", { state: "attached" });
    const q = new URL(page.url()).searchParams;
    expect(Object.fromEntries(q)).toEqual({ produto: "soja", sacas: "1.000", funrural_pct: "1,5", comissao_pct: "1,5", frete: "0" });
    const liquido = await cel(page, "liquido");
    await page.click("#copiar");
    await page.waitForFunction(() => document.getElementById("copiar-status")?.textContent !== "");
    expect(await page.locator("#copiar-status").innerText()).toBe("Link copiado.");
    const copiado = await page.evaluate(() => navigator.clipboard.readText());
    expect(copiado).toBe(page.url());
    await page.close();

    const outra = await open(new URL(copiado).pathname.slice(1) + new URL(copiado).search);
    await outra.waitForSelector("body[data-resultado=ok]", { state: "attached" });
    expect(await outra.locator("#produto").inputValue()).toBe("soja");
    expect(await outra.locator("#sacas").inputValue()).toBe("1.000");
    expect(await cel(outra, "liquido")).toBe(liquido);
    expect(await cel(outra, "bruto")).toBe("R$ 161.000,00");
    await outra.close();
  });

  it("is readable on a 390×844 phone: no sideways scrolling, the warning and the net value in view", async () => {
    const page = await open(MS, { largura: 390, altura: 844 });
    await page.waitForSelector("body[data-resultado=ok]", { state: "attached" });
    const r = await page.evaluate(() => {
      const fora: string[] = [];
      for (const n of document.querySelectorAll<HTMLElement>("#resultado *")) {
        const b = n.getBoundingClientRect();
        if (b.width > 0 && (b.left < 0 || b.right > 390)) fora.push(`${n.tagName}.${n.className}[${n.dataset.campo ?? ""}] ${Math.round(b.right)}`);
      }
      // every figure on one line ("R$ 59.559,03" never broken)
      const partidos: string[] = [];
      for (const td of document.querySelectorAll<HTMLElement>("#resultado td.num")) {
        const rg = document.createRange();
        rg.selectNodeContents(td);
        if (rg.getClientRects().length !== 1) partidos.push(td.textContent!);
      }
      const liquido = document.querySelector<HTMLElement>('#resultado tr[data-campo="liquido"] td')!.textContent;
      return { largura: document.documentElement.scrollWidth, fora, partidos, liquido };
    });
    expect(r).toEqual({ largura: 390, fora: [], partidos: [], liquido: "R$ 59.559,03" });
    // the result is scrolled to (its heading has the focus) and starts with the warning
    const titulo = await page.locator("#resultado-titulo").boundingBox();
    const aviso = await page.locator('#resultado [data-campo="aviso"]').boundingBox();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("resultado-titulo");
    expect(aviso!.y - titulo!.y).toBeLessThan(844);
    const fonte = await page.locator('#resultado [data-campo="aviso"]').evaluate((n) => parseFloat(getComputedStyle(n).fontSize));
    expect(fonte).toBeGreaterThanOrEqual(14);
    await page.close();
  });

  it("resolves index.json's paths from index.json's own URL, and from the site root as before", async () => {
    const idx = await file<IndexFile>("api/v1/index.json");
    const serie = idx.series.find((s) => s.id === "boi_gordo/MS")!;
    const raiz = serie.path.startsWith("api/v1/");
    // the other form than the one the pipeline writes today, served instead of the real file
    const trocado: IndexFile = {
      ...idx,
      series: idx.series.map((s) => ({ ...s, path: raiz ? s.path.replace(/^api\/v1\//, "") : `api/v1/${s.path}` })),
    };
    const pedidos: string[] = [];
    const page = await open(MS, {
      antes: async (p) => {
        p.on("request", (r) => pedidos.push(new URL(r.url()).pathname));
        await p.route("**/api/v1/index.json", (route) => route.fulfill({ json: trocado }));
      },
    });
    await page.waitForSelector("body[data-resultado=ok]", { state: "attached" });
    expect(await cel(page, "liquido")).toBe("R$ 59.559,03");
    expect(pedidos).toContain("/api/v1/cotacao/boi_gordo/MS.json");
    await page.close();
  });
});
