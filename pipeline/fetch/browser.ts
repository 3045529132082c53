import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Page, Request } from "playwright";
import { pageTitle } from "./challenge.ts";
import type { HostGate } from "./http.ts";

export const DEBIAN_CHROMIUM = "/usr/bin/chromium";

/** How Chromium runs here and in tests: headless, no sandbox (root), no background traffic. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * The Chromium to drive: PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH, else Debian's /usr/bin/chromium,
 * else undefined (Playwright's own build, if one is installed). On GitHub Actions, where the
 * workflows install Playwright's own build and /usr/bin/chromium may be a snap shim, that build
 * comes first.
 */
export function chromiumExecutable(
  env: NodeJS.ProcessEnv = process.env,
  exists: (p: string) => boolean = existsSync,
  playwrightOwn: () => string = () => (createRequire(import.meta.url)("playwright") as typeof import("playwright")).chromium.executablePath(),
): string | undefined {
  const fromEnv = env.PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH;
  if (fromEnv) return fromEnv;
  if (env.GITHUB_ACTIONS === "true" && exists(playwrightOwn())) return undefined;
  if (exists(DEBIAN_CHROMIUM)) return DEBIAN_CHROMIUM;
  return undefined;
}

/**
 * Only what a challenge needs is fetched: the page's own host (documents, its scripts and the
 * /cdn-cgi/ challenge endpoints) and Cloudflare's Turnstile host. Images, styles, fonts and media
 * never are, nor analytics or any other third party: fewer requests, and a recorded page served
 * by a test server cannot reach the real site through its absolute asset URLs.
 */
const CHALLENGE_HOSTS: ReadonlySet<string> = new Set(["challenges.cloudflare.com"]);
const SKIPPED_TYPES: ReadonlySet<string> = new Set(["image", "stylesheet", "font", "media", "manifest", "texttrack"]);

export type BrowserResult =
  | { ok: true; html: string; url: string }
  | { ok: false; reason: string };

export interface BrowserFetcher {
  /**
   * Opens `url`, lets the page's JavaScript run (a challenge reloads it once it is solved) and
   * returns the HTML as soon as `hasTable` holds, or a failure after `timeoutMs`.
   */
  fetch(url: string, hasTable: (html: string) => boolean, timeoutMs: number): Promise<BrowserResult>;
  /** ms spent launching Chromium, null when it was never launched */
  launchMs(): number | null;
  close(): Promise<void>;
}

export interface BrowserOptions {
  env?: NodeJS.ProcessEnv;
  /** spaces the first navigation from the HTTP request just sent to the same host, and counts requests */
  gate?: HostGate;
  log?: (line: string) => void;
  /** how often the page is looked at while the challenge runs */
  pollMs?: number;
  /** loads of the page's document (the first plus the challenge's reloads) before giving up */
  maxNavigations?: number;
}

/** Chromium via Playwright, launched on the first fetch and at most once per fetcher. */
export function createBrowserFetcher(opts: BrowserOptions = {}): BrowserFetcher {
  const env = opts.env ?? process.env;
  const pollMs = opts.pollMs ?? 250;
  let launching: Promise<BrowserContext> | null = null;
  let context: BrowserContext | null = null;
  let userDataDir: string | null = null;
  let launchedIn: number | null = null;
  /** hosts of the pages this fetcher was asked to open */
  const allowed = new Set<string>();
  const maxNavigations = opts.maxNavigations ?? 6;
  /** the page being fetched (one at a time) and how many times its document was loaded */
  let current: { page: Page; navigations: number; exhausted: boolean } | null = null;

  function launch(): Promise<BrowserContext> {
    launching ??= (async () => {
      const started = Date.now();
      const { chromium } = await import("playwright");
      userDataDir = await mkdtemp(join(tmpdir(), "cotacao-chromium-"));
      const executablePath = chromiumExecutable(env);
      opts.log?.(`navegador: iniciando Chromium (${executablePath ?? "o do Playwright"})`);
      const ctx = await chromium.launchPersistentContext(userDataDir, {
        headless: true,
        args: CHROMIUM_ARGS,
        timeout: 60_000,
        ...(executablePath ? { executablePath } : {}),
      });
      await ctx.route("**/*", async (route) => {
        const req = route.request();
        let host: string;
        try {
          host = new URL(req.url()).host;
        } catch {
          return route.abort();
        }
        if (SKIPPED_TYPES.has(req.resourceType()) || !(allowed.has(host) || CHALLENGE_HOSTS.has(host))) {
          return route.abort("blockedbyclient");
        }
        if (current && req.isNavigationRequest() && isMainFrame(req, current.page)) {
          // a challenge reloads the page: each load is spaced like any other request, and a
          // challenge that keeps reloading is abandoned after a few instead of hammering the site
          if (++current.navigations > maxNavigations) {
            current.exhausted = true;
            return route.abort("blockedbyclient");
          }
          await opts.gate?.reserve(host);
        }
        opts.gate?.count(host);
        return route.continue();
      });
      context = ctx;
      launchedIn = Date.now() - started;
      opts.log?.(`navegador: pronto em ${(launchedIn / 1000).toFixed(1)} s`);
      return ctx;
    })();
    return launching;
  }

  async function snapshot(page: Page): Promise<string | null> {
    try {
      return await page.content();
    } catch {
      // the challenge is navigating (reload): the document is being replaced
      return null;
    }
  }

  let queue: Promise<unknown> = Promise.resolve();

  return {
    fetch(url, hasTable, timeoutMs) {
      // one page at a time: the reload cap and the spacing are per page
      const run = queue.then(() => fetchOne(url, hasTable, timeoutMs));
      queue = run.catch(() => {});
      return run;
    },
    launchMs: () => launchedIn,
    async close() {
      const pending = launching;
      launching = null;
      if (pending) await pending.catch(() => {});
      if (context) await context.close().catch(() => {});
      context = null;
      if (userDataDir) await rm(userDataDir, { recursive: true, force: true }).catch(() => {});
      userDataDir = null;
    },
  };

  async function fetchOne(url: string, hasTable: (html: string) => boolean, timeoutMs: number): Promise<BrowserResult> {
    const deadline = Date.now() + timeoutMs;
    let ctx: BrowserContext;
    try {
      ctx = await launch();
    } catch (err) {
      return { ok: false, reason: `navegador indisponível: ${firstLine(err)}` };
    }
    const host = new URL(url).host;
    allowed.add(host);
    let page: Page | null = null;
    try {
      page = await ctx.newPage();
      const state = { page, navigations: 0, exhausted: false };
      current = state;
      const left = deadline - Date.now();
      if (left <= 0) return { ok: false, reason: "tempo esgotado antes de abrir a página no navegador" };
      try {
        await page.goto(url, { waitUntil: "domcontentloaded", timeout: left });
      } catch (err) {
        if (Date.now() >= deadline) return { ok: false, reason: `a página não carregou no navegador em ${seconds(timeoutMs)}` };
        // a challenge that reloads during goto interrupts it; the polling below sees the result
        if (!/interrupted|ERR_ABORTED|destroyed/i.test(String(err))) {
          return { ok: false, reason: `navegador: ${firstLine(err)}` };
        }
      }
      let html: string | null = null;
      for (;;) {
        const snap = await snapshot(page);
        if (snap && hasTable(snap)) return { ok: true, html: snap, url: page.url() };
        // once a reload was refused the tab shows Chromium's error page: keep the challenge's
        if (snap && !state.exhausted) html = snap;
        if (state.exhausted) {
          const title = html ? pageTitle(html) : null;
          return {
            ok: false,
            reason: `desafio não resolvido no navegador após ${maxNavigations} carregamentos${title ? ` (página "${title}")` : ""}`,
          };
        }
        const left2 = deadline - Date.now();
        if (left2 <= 0) break;
        await page.waitForTimeout(Math.min(pollMs, left2));
      }
      const title = html ? pageTitle(html) : null;
      return {
        ok: false,
        reason: `desafio não resolvido no navegador em ${seconds(timeoutMs)}${title ? ` (página "${title}")` : ""}`,
      };
    } catch (err) {
      return { ok: false, reason: `navegador: ${firstLine(err)}` };
    } finally {
      current = null;
      await page?.close().catch(() => {});
    }
  }
}

function isMainFrame(req: Request, page: Page): boolean {
  try {
    return req.frame() === page.mainFrame();
  } catch {
    return false; // service-worker requests have no frame
  }
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

function firstLine(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return msg.split("\n")[0]!.slice(0, 200);
}
