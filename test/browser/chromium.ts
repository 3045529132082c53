import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright";
import { afterAll, beforeAll } from "vitest";
import { CHROMIUM_ARGS, chromiumExecutable } from "../../pipeline/fetch/browser.ts";
import { startServer, type RunningServer } from "../../pipeline/serve/app.ts";
import { buildTestSite } from "../serve/site.ts";

/**
 * The same Chromium the fetcher uses: PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH, else Debian's
 * /usr/bin/chromium (here and in .ci/run), else Playwright's own build (GitHub Actions'
 * ci.yml installs it). Never downloaded by the tests; a fresh profile each time.
 */
export const CHROMIUM = chromiumExecutable();

/** bypassCSP (default true) lets tests inject axe-core; pass false to see the page as a visitor does. */
export async function openChromium(opts: { bypassCSP?: boolean } = {}): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "cotacao-chromium-"));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM,
    headless: true,
    locale: "pt-BR",
    timezoneId: "America/Sao_Paulo",
    // only so the tests can inject axe-core into pages served with a strict CSP
    bypassCSP: opts.bypassCSP ?? true,
    args: [...CHROMIUM_ARGS],
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

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
