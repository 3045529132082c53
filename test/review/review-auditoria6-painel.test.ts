/**
 * Audit 6, the dashboard (public/index.html and assets/painel.js), in Chromium.
 *
 * 1. A card takes its price from cotacao.json and its day change from the part of index.json
 *    written into the page. A page older than cotacao.json was caught by comparing the day only:
 *    when the source revised the day shown (historico_revisado; CEPEA re-publishes a day by
 *    centavos), the card showed the revised price beside the change computed from the price it
 *    replaced ("R$ 348,70/@ ... ▲ R$ 0,10 sobre 03/09/2026" where the change is R$ 1,10).
 * 2. The age of each price ("hoje", "há 1 dia", "recente") was computed once, when the page
 *    loaded: a dashboard left open (an office screen, a tab kept for days) said "hoje" and
 *    "recente" of a price that had become days old, never telling the reader.
 * 3. The chart's value axis wrote its ticks to two decimals whatever their step: a series that
 *    moved one centavo in view got ticks a fifth of a centavo apart, labelled "347,70" three times
 *    and "347,71" at 347,705: gridlines with wrong values. Prices have centavos, no less.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AggregateFile, IndexFile, SerieFile } from "../../pipeline/domain/publicados.ts";
import { cartaoDoBoiCom, siteNoNavegador } from "../browser/site-no-navegador.ts";

const t = siteNoNavegador();

const br = (iso: string) => iso.split("-").reverse().join("/");
const json = (body: unknown) => ({ contentType: "application/json", body: JSON.stringify(body) });

async function publicados(): Promise<{ agg: AggregateFile; index: IndexFile }> {
  const ler = async <T>(rel: string) => JSON.parse(await readFile(join(t.site.publicDir, "api/v1", rel), "utf8")) as T;
  return { agg: await ler<AggregateFile>("cotacao.json"), index: await ler<IndexFile>("index.json") };
}

describe("dashboard: a card's change is the change of the price it shows", () => {
  it("the day shown revised after the page was written: the change is index.json's for the revised price, not the page's", async () => {
    const { agg, index } = await publicados();
    const boi = index.series.find((s) => s.id === "boi_gordo")!;
    const dia = agg.datas.boi_gordo_cepea_sp!;
    expect(boi.ultima_data).toBe(dia);
    expect(boi.variacao).not.toBeNull();
    const anterior = boi.variacao!.anterior;
    // the source re-published the same day one real higher: same day, another price and change
    const revisado = Math.round((boi.valor! + 1) * 100) / 100;
    const absoluta = Math.round((revisado - anterior) * 100) / 100;
    const variacao = { ...boi.variacao!, absoluta, percentual: Math.round((absoluta / anterior) * 10000) / 100 };
    const aggNovo: AggregateFile = { ...agg, boi_gordo_cepea_sp: revisado };
    const indexNovo: IndexFile = { ...index, series: index.series.map((s) => (s.id === "boi_gordo" ? { ...s, valor: revisado, variacao } : s)) };

    const card = await cartaoDoBoiCom(t, aggNovo, indexNovo);
    expect(await card.locator('[data-campo="valor"]').innerText()).toContain(revisado.toFixed(2).replace(".", ","));
    const texto = await card.locator('[data-campo="variacao"]').innerText();
    const reais = (v: number) => `R$ ${v.toFixed(2).replace(".", ",")}`;
    expect(texto).not.toContain(reais(boi.variacao!.absoluta));
    expect(texto).toContain(reais(absoluta));
    expect(texto).toContain(`sobre ${br(boi.variacao!.data_anterior)}`);
    await card.page().close();
  });
});

describe("dashboard: the age of a price follows the visitor's clock while the page stays open", () => {
  it("a page opened on the price's day says 'há 1 dia' after midnight in Brasília, not 'hoje' forever", async () => {
    const { agg } = await publicados();
    const dia = agg.datas.boi_gordo_cepea_sp!;
    const page = await t.browser.context.newPage();
    // 23:50 in Brasília (UTC−3) on the price's day
    await page.clock.install({ time: new Date(`${dia}T23:50:00-03:00`) });
    await page.goto(t.srv.url);
    await page.waitForSelector("body[data-pronto=ok]", { state: "attached", timeout: 20_000 });
    const idade = page.locator('.card[data-produto="boi_gordo"] [data-campo="idade"]');
    expect(await idade.innerText()).toBe("hoje");
    // twenty minutes later it is the next day in Brasília
    await page.clock.runFor(20 * 60_000);
    await expect.poll(() => idade.innerText(), { timeout: 5_000 }).toBe("há 1 dia");
    // a week later the same page no longer calls it recent
    await page.clock.runFor(6 * 86_400_000);
    await expect.poll(() => idade.innerText(), { timeout: 5_000 }).toBe("há 7 dias");
    const card = page.locator('.card[data-produto="boi_gordo"]');
    expect(await card.getAttribute("data-frescor")).not.toBe("em_dia");
    expect(await card.locator(".selo").innerText()).not.toBe("recente");
    await page.close();
  });
});

describe("dashboard chart: the value axis never labels a fraction of a centavo", () => {
  it("a series that moves one centavo in view: each label is its tick's value, none repeated", async () => {
    const rel = "api/v1/recente/boi_gordo.json";
    const f = JSON.parse(await readFile(join(t.site.publicDir, rel), "utf8")) as SerieFile;
    // twenty business days at 347,70 and the last one at 347,71
    const dias = f.historico.slice(-21).map((h, i, a) => ({ ...h, valor: i === a.length - 1 ? 347.71 : 347.7 }));
    const plano: SerieFile = { ...f, valor: 347.71, historico: dias };
    const page = await t.browser.context.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    // what uPlot writes on its canvas: the axes' labels
    await page.addInitScript(() => {
      const w = window as unknown as { textosDoCanvas: string[] };
      w.textosDoCanvas = [];
      const original = CanvasRenderingContext2D.prototype.fillText;
      CanvasRenderingContext2D.prototype.fillText = function (texto: string, x: number, y: number, max?: number) {
        w.textosDoCanvas.push(texto);
        return max === undefined ? original.call(this, texto, x, y) : original.call(this, texto, x, y, max);
      };
    });
    await page.route(`**/${rel}`, (r) => r.fulfill(json(plano)));
    await page.goto(t.srv.url);
    await page.waitForSelector("body[data-pronto=ok]", { state: "attached", timeout: 20_000 });
    expect(await page.locator("#grafico").getAttribute("data-serie")).toBe("boi_gordo");
    const textos = await page.evaluate(() => (window as unknown as { textosDoCanvas: string[] }).textosDoCanvas);
    // the value axis's labels (the dates have "/"; the values over the points are "347,70" and "347,71" too)
    // the value axis's labels (the dates have "/"; with 21 points in view none carries its value)
    const rotulos = textos.filter((x) => /^\d{1,3}(\.\d{3})*,\d{2}$/.test(x));
    expect(rotulos.length).toBeGreaterThan(1);
    // one drawing: each tick its own label, never "347,70" on three gridlines
    expect(rotulos).toEqual([...new Set(rotulos)]);
    await page.close();
  });
});
