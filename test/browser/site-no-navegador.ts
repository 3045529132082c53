import type { Locator } from "playwright";
import { afterAll, beforeAll, expect } from "vitest";
import type { AggregateFile, IndexFile } from "../../pipeline/domain/publicados.ts";
import { startServer, type RunningServer } from "../../pipeline/serve/app.ts";
import { buildTestSite } from "../serve/site.ts";
import { openChromium } from "./chromium.ts";

// Apart from chromium.ts, which `npm run bench` imports: vitest's hooks fail outside vitest.

/**
 * For a test file: a site the pipeline built from the recorded pages (test/serve/site.ts), the
 * server on it, and Chromium, opened before the file's tests and closed after them. The fields
 * are set by the file's beforeAll.
 */
export function siteNoNavegador(opts: { bypassCSP?: boolean; timeoutMs?: number } = {}): {
  site: Awaited<ReturnType<typeof buildTestSite>>;
  srv: RunningServer;
  browser: Awaited<ReturnType<typeof openChromium>>;
} {
  const s = {} as ReturnType<typeof siteNoNavegador>;
  beforeAll(async () => {
    s.site = await buildTestSite();
    s.srv = await startServer({ publicDir: s.site.publicDir });
    s.browser = await openChromium({ bypassCSP: opts.bypassCSP });
  }, opts.timeoutMs ?? 180_000);
  afterAll(async () => {
    await s.browser?.close();
    await s.srv?.close();
    await s.site?.cleanup();
  });
  return s;
}

/**
 * The dashboard of `t`'s site opened with cotacao.json and index.json answered as given (a
 * publish newer than the page), once it says it is ready and with no script error: boi gordo's
 * card, for the test to read.
 */
export async function cartaoDoBoiCom(t: ReturnType<typeof siteNoNavegador>, agg: AggregateFile, index: IndexFile): Promise<Locator> {
  const json = (body: unknown) => ({ contentType: "application/json", body: JSON.stringify(body) });
  const page = await t.browser.context.newPage();
  await page.route("**/api/v1/cotacao.json", (r) => r.fulfill(json(agg)));
  await page.route("**/api/v1/index.json", (r) => r.fulfill(json(index)));
  const erros: string[] = [];
  page.on("pageerror", (e) => erros.push(e.message));
  await page.goto(t.srv.url);
  await page.waitForSelector("body[data-pronto=ok]", { state: "attached", timeout: 20_000 });
  expect(erros).toEqual([]);
  return page.locator('.card[data-produto="boi_gordo"]');
}
