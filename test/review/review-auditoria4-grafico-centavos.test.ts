/**
 * Audit 4 (output side), the dashboard's chart: its legend wrote every value as reais. CEPEA's
 * cotton is quoted in centavos de R$ per pound (`ct_lb`): pointing at its 04/09/2026 day
 * (439,98 centavos de R$/lb, R$ 4,3998) the legend read "R$ centavos de R$/lb" over
 * "R$ 439,98", a hundred times the price. The legend now names the series' unit and writes
 * the value as the cards do (preco: "439,98 centavos de R$/lb", "R$ 347,70/@").
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Page } from "playwright";
import { describe, expect, it } from "vitest";
import type { SerieFile } from "../../pipeline/domain/publicados.ts";
import { siteNoNavegador } from "../browser/site-no-navegador.ts";

const t = siteNoNavegador();

/** The chart of a series, with the pointer on its last day; the legend's text. */
async function legendaNoUltimoDia(id: string): Promise<{ page: Page; legenda: string; f: SerieFile }> {
  const f = JSON.parse(await readFile(join(t.site.publicDir, "api", "v1", "cotacao", `${id}.json`), "utf8")) as SerieFile;
  const page = await t.browser.context.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${new URL("", t.srv.url).href}#serie-${id.replace("/", "-")}`);
  await page.waitForFunction((s) => document.querySelector("#grafico")?.getAttribute("data-serie") === s, id, { timeout: 20_000 });
  await page.locator("#grafico").scrollIntoViewIfNeeded();
  const caixa = (await page.locator("#grafico .u-over").boundingBox())!;
  // the last day is at the right end of the plot, inside the chart's margin
  await page.mouse.move(caixa.x + caixa.width * 0.97, caixa.y + caixa.height / 2);
  await page.waitForFunction((d) => document.querySelector("#grafico .u-legend")?.textContent?.includes(d), f.data_cotacao.split("-").reverse().join("/"));
  const legenda = await page.locator("#grafico .u-legend").innerText();
  return { page, legenda, f };
}

describe("dashboard chart: the legend in the series' unit", () => {
  it("cotton in centavos de R$/lb is never shown as reais", async () => {
    const { page, legenda, f } = await legendaNoUltimoDia("algodao");
    expect(f.unidade).toBe("ct_lb");
    expect(legenda).not.toMatch(/R\$ centavos/);
    expect(legenda).not.toMatch(/R\$ \d/);
    expect(legenda).toContain("centavos de R$/lb");
    expect(legenda).toContain(f.valor.toFixed(2).replace(".", ","));
    await page.close();
  });

  it("a series in reais keeps R$ and its unit", async () => {
    const { page, legenda, f } = await legendaNoUltimoDia("boi_gordo");
    expect(legenda).toContain("R$/@");
    expect(legenda).toContain(`R$ ${f.valor.toFixed(2).replace(".", ",")}`);
    await page.close();
  });
});
