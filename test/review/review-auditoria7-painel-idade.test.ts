/**
 * Audit 7, the dashboard's verdicts of age on a page left open, in Chromium.
 *
 * The ages written on the page followed the clock, but the verdicts did not follow status.json's
 * rule: a card turned "desatualizado" after 5 calendar days (a page left open over Carnival
 * flipped while status.json, counting business days, would not), and the stale banner kept
 * status.json's verdicts of the day the page was loaded, so a page left open for weeks (or read
 * while the scheduled runs had stopped) never said a source had gone stale. Both now apply
 * status.json's own rule (pipeline/domain/idade.ts) on the visitor's day.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AggregateFile, IndexFile, StatusFile } from "../../pipeline/domain/publicados.ts";
import { siteNoNavegador } from "../browser/site-no-navegador.ts";

const t = siteNoNavegador();

const json = (body: unknown) => ({ contentType: "application/json", body: JSON.stringify(body) });

/**
 * The site's files as a publish whose every last day is `dia` would have them: cotacao.json's
 * days, and status.json all ok on that day (what a run on `dia` writes).
 */
async function publicadoEm(dia: string): Promise<{ agg: AggregateFile; status: StatusFile; index: IndexFile }> {
  const ler = async <T>(rel: string) => JSON.parse(await readFile(join(t.site.publicDir, "api/v1", rel), "utf8")) as T;
  const agg = await ler<AggregateFile>("cotacao.json");
  const status = await ler<StatusFile>("status.json");
  const index = await ler<IndexFile>("index.json");
  const datas = Object.fromEntries(Object.keys(agg.datas).map((k) => [k, dia])) as AggregateFile["datas"];
  return {
    agg: { ...agg, datas },
    status: {
      ...status,
      fontes: status.fontes.map((f) => ({ ...f, estado: "ok", motivo: null, ultima_data: dia })),
      series: status.series.map((s) => ({ ...s, estado: "ok", ultima_data: dia })),
    },
    index: { ...index, series: index.series.map((s) => ({ ...s, ultima_data: dia })) },
  };
}

describe("dashboard: a page left open judges its prices' age by status.json's rule on the visitor's day", () => {
  it("does not flip over Carnival, and says desatualizado, card and banner, once the source is really behind", async () => {
    // Friday 13/02/2026; Carnival is Monday 16 and Tuesday 17
    const dia = "2026-02-13";
    const { agg, status, index } = await publicadoEm(dia);
    expect(status.fontes.every((f) => f.contagem_idade === "dias_uteis" && f.max_idade_dias === 3)).toBe(true);
    const page = await t.browser.context.newPage();
    await page.route("**/api/v1/cotacao.json", (r) => r.fulfill(json(agg)));
    await page.route("**/api/v1/status.json", (r) => r.fulfill(json(status)));
    await page.route("**/api/v1/index.json", (r) => r.fulfill(json(index)));
    const erros: string[] = [];
    page.on("pageerror", (e) => erros.push(e.message));
    await page.clock.install({ time: new Date(`${dia}T20:00:00-03:00`) });
    await page.goto(t.srv.url);
    await page.waitForSelector("body[data-pronto=ok]", { state: "attached", timeout: 20_000 });
    expect(erros).toEqual([]);
    const card = page.locator('.card[data-produto="boi_gordo"]');
    const banner = page.locator("#avisos");
    expect(await card.getAttribute("data-frescor")).toBe("em_dia");
    expect(await banner.isHidden()).toBe(true);

    // Thursday 19/02, noon: six calendar days, two business days (Ash Wednesday and Thursday)
    await page.clock.runFor(5 * 86_400_000 + 16 * 3_600_000);
    await expect.poll(() => card.locator('[data-campo="idade"]').innerText(), { timeout: 5_000 }).toBe("há 6 dias");
    expect(await card.getAttribute("data-frescor")).toBe("em_dia");
    expect(await card.locator(".selo").innerText()).toBe("recente");
    expect(await banner.isHidden()).toBe(true);

    // Wednesday 25/02: six business days (18, 19, 20, 23, 24, 25), past the sources' 3
    await page.clock.runFor(6 * 86_400_000);
    await expect.poll(() => card.locator('[data-campo="idade"]').innerText(), { timeout: 5_000 }).toBe("há 12 dias");
    expect(await card.getAttribute("data-frescor")).toBe("atrasado");
    expect(await card.locator(".selo").innerText()).toBe("desatualizado");
    // the banner says it too, with status.json's own reason
    await expect.poll(() => banner.isVisible(), { timeout: 5_000 }).toBe(true);
    const cepea = banner.locator('li[data-fonte="cepea"]');
    expect(await cepea.getAttribute("data-estado")).toBe("stale");
    expect(await cepea.textContent()).toContain("desatualizada. Motivo: último dado de 13/02/2026, mais de 3 dias úteis atrás.");
    await page.close();
  });
});
