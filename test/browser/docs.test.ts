import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../pipeline/serve/app.ts";
import { buildTestSite } from "../serve/site.ts";
import { openChromium } from "./chromium.ts";

let site: Awaited<ReturnType<typeof buildTestSite>>;
let srv: RunningServer;
let browser: Awaited<ReturnType<typeof openChromium>>;

beforeAll(async () => {
  site = await buildTestSite();
  srv = await startServer({ publicDir: site.publicDir });
  // the page as a visitor gets it: the server's Content-Security-Policy enforced
  browser = await openChromium({ bypassCSP: false });
});
afterAll(async () => {
  await browser?.close();
  await srv?.close();
  await site?.cleanup();
});

describe("API docs page", () => {
  it("renders Redoc under the real server's Content-Security-Policy", async () => {
    const spec = JSON.parse(await readFile(join(site.publicDir, "api/v1/openapi.json"), "utf8")) as { info: { title: string } };
    const page = await browser.context.newPage();
    const erros: string[] = [];
    page.on("pageerror", (e) => erros.push(e.message));
    page.on("console", (m) => {
      if (m.type() === "error" && /Content Security Policy/i.test(m.text())) erros.push(m.text());
    });
    const res = await page.goto(new URL("docs/", srv.url).href);
    expect(res?.headers()["content-security-policy"]).toContain("script-src 'self'");
    const titulo = page.locator("#redoc h1", { hasText: spec.info.title });
    await titulo.first().waitFor({ timeout: 30_000 });
    expect(await titulo.first().innerText()).toContain(spec.info.title);
    // an operation of the description is rendered too, not just the header
    await page.locator("#redoc", { hasText: "/api/v1/cotacao.json" }).first().waitFor({ timeout: 10_000 });
    expect(erros.filter((e) => /script/i.test(e))).toEqual([]);
    await page.close();
  }, 60_000);
});
