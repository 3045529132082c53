import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright";
import { CHROMIUM_ARGS, DEBIAN_CHROMIUM } from "../../pipeline/fetch/browser.ts";

/** Debian's Chromium, never a downloaded browser; a fresh profile each time. */
export const CHROMIUM = process.env.COTACAO_CHROMIUM ?? DEBIAN_CHROMIUM;

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
