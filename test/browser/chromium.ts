import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright";
import { CHROMIUM_ARGS, chromiumExecutable } from "../../pipeline/fetch/browser.ts";

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
