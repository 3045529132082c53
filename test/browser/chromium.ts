import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright";

/** Debian's Chromium, never a downloaded browser; a fresh profile each time. */
export const CHROMIUM = process.env.COTACAO_CHROMIUM ?? "/usr/bin/chromium";

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
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
