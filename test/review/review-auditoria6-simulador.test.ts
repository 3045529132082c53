/**
 * Audit of the sale simulator (pipeline/simulator/simulator.ts, GET /api/v1/simulador and the page
 * simulador/). What was wrong, each a sale priced or counted otherwise than asked, without a word:
 *
 * - the page read a shared link's parameters by their exact name: `UF=MT` was ignored and the
 *   sale priced at the national boi gordo (CEPEA, São Paulo) under a link asking for Mato Grosso;
 *   `uf=MS&UF=SP` (the server's 400) priced MS. Now the page reads known names in any case and
 *   refuses a repeated one, as the server does;
 * - a link's unknown `produto` (`boi`, a typo) left the form's first product, and the page
 *   simulated boi gordo under it;
 * - a link without a required quantity (no `rendimento_pct`) took the form's example value (52 %,
 *   540 kg, 10 cabeças, 1.000 sacas), where the server says "obrigatório";
 * - a link's `coluna` the series does not publish was dropped (its select was hidden) and the
 *   headline price used, where the server refuses it;
 * - the page did not price from the national series quoted at the asked UF (`milho&uf=SP`,
 *   `bezerro&uf=MS`), which the server uses: the page said there was no price;
 * - simular priced grain (and cattle) from a series in any unit: sacas × R$/t would be a sale of
 *   another size; only the cattle-by-the-head case was refused;
 * - a typed price is read in the chosen series' unit (RS: R$/kg of live weight): the API said so
 *   only in `preco.unidade`, and 320 typed as R$/@ for RS was a sale 16 times too big. Now a typed
 *   price outside the product's plausible range for that unit comes with a warning in `avisos`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright";
import { startServer, type RunningServer } from "../../pipeline/serve/app.ts";
import { SimulacaoForaDoLimite, simular, validarEntrada, type PrecoReferencia } from "../../pipeline/simulator/simulator.ts";
import { buildTestSite } from "../serve/site.ts";
import { openChromium } from "../browser/chromium.ts";

const HOJE = new Date("2026-11-22T12:00:00-03:00");
let site: Awaited<ReturnType<typeof buildTestSite>>;
let srv: RunningServer;
let browser: Awaited<ReturnType<typeof openChromium>>;

beforeAll(async () => {
  site = await buildTestSite();
  srv = await startServer({ publicDir: site.publicDir, now: () => HOJE.getTime(), quota: { freeLimit: 1000 } });
  browser = await openChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await srv?.close();
  await site?.cleanup();
});

async function abrir(path: string): Promise<Page> {
  const page = await browser.context.newPage();
  await page.clock.setFixedTime(HOJE);
  const erros: string[] = [];
  page.on("pageerror", (e) => erros.push(e.message));
  await page.goto(new URL(path, srv.url).href);
  await page.waitForSelector("body[data-pronto=ok]", { state: "attached", timeout: 20_000 });
  // the page finished what a link asks: a result, or an error shown
  await page.waitForFunction(() => document.body.dataset.resultado === "ok" || !document.getElementById("erro")!.hidden, undefined, { timeout: 20_000 });
  expect(erros).toEqual([]);
  return page;
}

async function api(q: string): Promise<{ status: number; body: Record<string, unknown> & { bruto?: number; liquido?: number; preco?: { serie: string; valor: number } } }> {
  const r = await fetch(new URL(`api/v1/simulador?${q}`, srv.url));
  return { status: r.status, body: (await r.json()) as never };
}

const cel = (page: Page, c: string) => page.locator(`#resultado tr[data-campo="${c}"] td`).innerText();
const semResultado = async (page: Page) => (await page.evaluate(() => document.body.dataset.resultado !== "ok" || document.getElementById("resultado")!.hidden)) as boolean;
const brl = (v: number) => `R$ ${new Intl.NumberFormat("pt-BR", { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(v)}`;

describe("the simulator page reads a shared link as the server reads the same query", () => {
  it("a known parameter in another case is that parameter: UF=MT prices Mato Grosso, not São Paulo", async () => {
    const q = "Produto=boi_gordo&UF=MT&CABECAS=10&Peso_Vivo_Kg=540&rendimento_pct=52";
    const a = await api(q);
    expect(a.status).toBe(200);
    expect(a.body.preco!.serie).toBe("boi_gordo/MT");
    const page = await abrir(`simulador/?${q}`);
    expect(await page.locator("#uf").inputValue()).toBe("MT");
    expect(await cel(page, "bruto")).toBe(brl(a.body.bruto!));
    expect(await cel(page, "liquido")).toBe(brl(a.body.liquido!));
    await page.close();
  });

  it("a parameter given twice (uf=MS&UF=SP) is refused, as the server refuses it", async () => {
    const q = "produto=boi_gordo&uf=MS&UF=SP&cabecas=10&peso_vivo_kg=540&rendimento_pct=52";
    expect((await api(q)).status).toBe(400);
    const page = await abrir(`simulador/?${q}`);
    expect(await semResultado(page)).toBe(true);
    expect(await page.locator("#erro").innerText()).toContain("mais de uma vez");
    await page.close();
  });

  it("an unknown produto is refused, never simulated as the form's first product", async () => {
    const q = "produto=boi&uf=MS&cabecas=10&peso_vivo_kg=540&rendimento_pct=52";
    expect((await api(q)).status).toBe(400);
    const page = await abrir(`simulador/?${q}`);
    expect(await semResultado(page)).toBe(true);
    expect(await page.locator("#erro").innerText()).toContain('"boi" não existe');
    await page.close();
  });

  it("a required quantity missing from the link is asked for, not taken from the form's example", async () => {
    const q = "produto=boi_gordo&uf=MS&cabecas=10&peso_vivo_kg=540";
    const a = await api(q);
    expect(a.status).toBe(400);
    const page = await abrir(`simulador/?${q}`);
    expect(await semResultado(page)).toBe(true);
    expect(await page.locator("#erro").innerText()).toContain("Rendimento de carcaça (%): obrigatório");
    await page.close();

    const soja = await abrir("simulador/?produto=soja");
    expect(await semResultado(soja)).toBe(true);
    expect(await soja.locator("#erro").innerText()).toContain("Sacas de 60 kg: obrigatório");
    await soja.close();
  });

  it("a column the series does not publish is refused, never dropped for the headline price", async () => {
    const q = "produto=boi_gordo&cabecas=10&peso_vivo_kg=540&rendimento_pct=52&coluna=funrural_avista";
    const a = await api(q);
    expect(a.status).toBe(400);
    const page = await abrir(`simulador/?${q}`);
    expect(await semResultado(page)).toBe(true);
    expect(await page.locator("#erro").innerText()).toContain("não publica a coluna funrural_avista");
    await page.close();
  });

  it("prices from the national series quoted at the asked UF, as the server does (milho in SP, bezerro in MS)", async () => {
    for (const q of ["produto=milho&uf=SP&sacas=1.000", "produto=bezerro&uf=MS&cabecas=10"]) {
      const a = await api(q);
      expect(a.status, q).toBe(200);
      const page = await abrir(`simulador/?${q}`);
      expect(await page.evaluate(() => document.body.dataset.resultado), q).toBe("ok");
      expect(await cel(page, "bruto"), q).toBe(brl(a.body.bruto!));
      expect(await cel(page, "liquido"), q).toBe(brl(a.body.liquido!));
      await page.close();
    }
  });
});

const GADO = { produto: "boi_gordo", cabecas: "10", peso_vivo_kg: "540", rendimento_pct: "52" };
function entrada(p: Record<string, string>) {
  const v = validarEntrada(p);
  if (!v.ok) throw new Error(JSON.stringify(v.erros));
  return v.entrada;
}

describe("simular prices only in units it knows", () => {
  it("refuses a grain series not quoted per 60 kg sack (sacas × R$/t is another sale)", () => {
    const t: PrecoReferencia = { valor: 2700, unidade: "t", data_cotacao: "2026-09-04", fonte: "x", serie: "soja/XX", praca: null };
    expect(() => simular(entrada({ produto: "soja", sacas: "1000" }), t, { hoje: "2026-09-04" })).toThrow(SimulacaoForaDoLimite);
    const sc50: PrecoReferencia = { ...t, valor: 150, unidade: "sc50kg" };
    expect(() => simular(entrada({ produto: "milho", sacas: "1000" }), sc50, { hoje: "2026-09-04" })).toThrow(SimulacaoForaDoLimite);
    const porCabeca: PrecoReferencia = { ...t, valor: 3000, unidade: "cabeca" };
    expect(() => simular(entrada(GADO), porCabeca, { hoje: "2026-09-04" })).toThrow(SimulacaoForaDoLimite);
  });
});

describe("a typed price far outside the product's range for the unit it is read in", () => {
  const RS: PrecoReferencia = { valor: 12.2, unidade: "kg", data_cotacao: "2026-08-05", fonte: "scot", serie: "boi_gordo/RS", praca: "Porto Alegre" };

  it("is warned about: 320 typed for RS's boi is read per kg of live weight", () => {
    const r = simular(entrada({ ...GADO, uf: "RS", preco: "320" }), RS, { hoje: "2026-08-06" });
    expect(r.preco.unidade).toBe("kg");
    expect(r.avisos.length).toBe(1);
    expect(r.avisos[0]).toContain("R$ 320,00/kg");
    expect(r.avisos[0]).toContain("por kg");
  });

  it("through the API too, and a plausible typed price has no warning", async () => {
    const a = await api("produto=boi_gordo&uf=RS&cabecas=10&peso_vivo_kg=540&rendimento_pct=52&preco=320");
    expect(a.status).toBe(200);
    expect((a.body.avisos as string[]).join(" ")).toContain("R$ 320,00/kg");
    const ok = simular(entrada({ ...GADO, uf: "RS", preco: "12,50" }), RS, { hoje: "2026-08-06" });
    expect(ok.avisos).toEqual([]);
    const arroba = simular(entrada({ ...GADO, uf: "MS", preco: "320" }), { ...RS, unidade: "@", valor: 338 }, { hoje: "2026-08-06" });
    expect(arroba.avisos).toEqual([]);
  });

  it("names the series' unit only when the typed price is read in it (a calf is sold per head, whatever its series)", () => {
    const porKg: PrecoReferencia = { valor: 18.5, unidade: "kg", data_cotacao: "2026-08-05", fonte: "scot", serie: "bezerro/GO", praca: "Goiânia" };
    const r = simular(entrada({ produto: "bezerro", uf: "GO", cabecas: "10", preco: "18,50" }), porKg, { hoje: "2026-08-06" });
    expect(r.preco.unidade).toBe("cabeca");
    expect(r.avisos.join(" ")).toContain("por cabeça");
    expect(r.avisos.join(" ")).not.toContain("a unidade da série escolhida");
  });
});

describe("spaces inside a typed number", () => {
  it("group thousands only in threes (1 000, 12 345,67): 10 5 cabeças is no number, never 105", async () => {
    const { lerDecimal } = await import("../../pipeline/simulator/simulator.ts");
    expect(lerDecimal("1 000", 0)).toBe(1000n);
    expect(lerDecimal("12 345,67", 2)).toBe(1234567n);
    expect(lerDecimal("1\u00a0000", 0)).toBe(1000n);
    expect(lerDecimal(" 540,5 ", 2)).toBe(54050n);
    expect(lerDecimal("R$ 1.500,00", 2)).toBe(150000n);
    for (const bad of ["10 5", "54 0", "338 5", "1 00", "1 0000", "1.000 000"]) expect(lerDecimal(bad, 2), bad).toBeNull();
    const v = validarEntrada({ ...GADO, cabecas: "10 5" });
    expect(v.ok).toBe(false);
    expect((await api("produto=boi_gordo&uf=MS&cabecas=10+5&peso_vivo_kg=540&rendimento_pct=52")).status).toBe(400);
  });
});
