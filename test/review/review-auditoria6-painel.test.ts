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
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AggregateFile, IndexFile } from "../../pipeline/domain/publicados.ts";
import { siteNoNavegador } from "../browser/site-no-navegador.ts";

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

    const page = await t.browser.context.newPage();
    await page.route("**/api/v1/cotacao.json", (r) => r.fulfill(json(aggNovo)));
    await page.route("**/api/v1/index.json", (r) => r.fulfill(json(indexNovo)));
    const erros: string[] = [];
    page.on("pageerror", (e) => erros.push(e.message));
    await page.goto(t.srv.url);
    await page.waitForSelector("body[data-pronto=ok]", { state: "attached", timeout: 20_000 });
    expect(erros).toEqual([]);
    const card = page.locator('.card[data-produto="boi_gordo"]');
    expect(await card.locator('[data-campo="valor"]').innerText()).toContain(revisado.toFixed(2).replace(".", ","));
    const texto = await card.locator('[data-campo="variacao"]').innerText();
    const reais = (v: number) => `R$ ${v.toFixed(2).replace(".", ",")}`;
    expect(texto).not.toContain(reais(boi.variacao!.absoluta));
    expect(texto).toContain(reais(absoluta));
    expect(texto).toContain(`sobre ${br(boi.variacao!.data_anterior)}`);
    await page.close();
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
