import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, isAbsolute, join } from "node:path";
import type { BrowserContext, Page, Request, Route } from "playwright";
import { pidAlive } from "../io/files.ts";
import { inicioDoProcesso } from "../io/files.ts";
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
  /** the Chromium to launch; default chromiumExecutable(env) */
  executablePath?: string;
  /** where the fresh user-data dir is made; default the system's temp dir */
  tmpDir?: string;
  /**
   * the launch's own bound (default 30 s), whatever the page's budget: a launch that hangs (a
   * library missing, a zygote that crashed) is killed at it and the fetcher stays without a browser
   */
  launchTimeoutMs?: number;
  /** how long closing a page or the browser may take before Chromium's processes are killed (default 5 s) */
  closeTimeoutMs?: number;
  /**
   * the run was cancelled (SIGINT/SIGTERM): Chromium's process group is killed at once and every
   * page fails; whoever aborts it handles the signals, so Playwright's own handlers are not installed
   * (its SIGTERM handler closes Chromium and lets the run go on)
   */
  signal?: AbortSignal;
}

export const LAUNCH_TIMEOUT_MS = 30_000;
export const CLOSE_TIMEOUT_MS = 5_000;

/**
 * Each Chromium of a run gets one fresh folder in the temp dir, named after its owner:
 * `cotacao-chromium-<pid>.<start>-XXXXXX` (start: the owner's start in clock ticks since boot,
 * where /proc tells it), holding the user-data dir (`perfil`) and Playwright's artifacts
 * (`artefatos`, else its own playwright-artifacts-* beside it). A run that ends in any way but
 * SIGKILL removes it; a later run removes those whose owner is dead (limparPastasAbandonadas).
 */
export const PREFIXO_PASTA = "cotacao-chromium-";
const PASTA_COM_DONO = /^cotacao-chromium-(\d+)(?:\.(\d+))?-[A-Za-z0-9]{6}$/;
/** the user-data dir inside a run's folder: Chromium's command line names it */
export const perfilDe = (pasta: string): string => join(pasta, "perfil");

function prefixoDaPasta(): string {
  const inicio = inicioDoProcesso(process.pid);
  return `${PREFIXO_PASTA}${process.pid}${inicio ? `.${inicio.ticks}` : ""}-`;
}

/**
 * Whether the process that made a folder so named is gone, and how (pt-BR, for the log): dead, or
 * its PID now another process's (started at another time). null: it may still be running.
 */
function donoMorto(pid: number, ticks: string | undefined): string | null {
  const outro = "cujo PID hoje é de outro processo";
  if (pid === process.pid) return ticks !== undefined && ticks !== inicioDoProcesso(pid)?.ticks ? outro : null;
  if (!pidAlive(pid)) return "que não existe mais";
  if (ticks === undefined) return null;
  const agora = inicioDoProcesso(pid);
  return agora !== null && agora.ticks !== ticks ? outro : null;
}

/**
 * Removes the Chromium folders a run killed by SIGKILL left in `tmpDir` (default the system's
 * temp dir): ours only (our prefix, an owner PID in the name) and only when that owner is gone,
 * killing first any Chromium still running on one. Logs a line for each; returns their paths.
 */
export async function limparPastasAbandonadas(opts: { tmpDir?: string; log?: (line: string) => void } = {}): Promise<string[]> {
  const base = opts.tmpDir ?? tmpdir();
  let nomes: string[];
  try {
    nomes = await readdir(base);
  } catch {
    return [];
  }
  const removidas: string[] = [];
  for (const nome of nomes) {
    const m = PASTA_COM_DONO.exec(nome);
    const morto = m ? donoMorto(Number(m[1]), m[2]) : null;
    if (!m || !morto) continue;
    const pasta = join(base, nome);
    // a Chromium whose parent was killed may still run on its user-data dir
    const vivos = encerrarChromium(pasta);
    try {
      await rm(pasta, { recursive: true, force: true });
    } catch (err) {
      opts.log?.(`navegador: pasta do Chromium de uma execução encerrada à força (PID ${m[1]}) não pôde ser removida: ${pasta}: ${firstLine(err)}`);
      continue;
    }
    removidas.push(pasta);
    opts.log?.(
      `navegador: pasta do Chromium deixada por uma execução encerrada à força (PID ${m[1]}, ${morto}) removida: ${pasta}` +
        (vivos > 0 ? `; ${vivos} processo(s) do Chromium ainda rodando nela encerrado(s)` : ""),
    );
  }
  return removidas;
}

/**
 * Chromium via Playwright, launched on the first fetch and at most once per fetcher. Every wait
 * on Chromium is bounded: the launch by its own bound and by the page's budget (the page's
 * budget counts from before the launch), each step of a page by what is left of its budget, and
 * closing by CLOSE_TIMEOUT_MS, after which Chromium's processes are killed. A launch that fails
 * or times out leaves no process and no user-data dir behind, and every later page of the
 * fetcher fails at once with the same reason instead of waiting for another launch.
 */
export function createBrowserFetcher(opts: BrowserOptions = {}): BrowserFetcher {
  const env = opts.env ?? process.env;
  const pollMs = opts.pollMs ?? 250;
  const launchTimeoutMs = opts.launchTimeoutMs ?? LAUNCH_TIMEOUT_MS;
  const closeTimeoutMs = opts.closeTimeoutMs ?? CLOSE_TIMEOUT_MS;
  const executablePath = opts.executablePath ?? chromiumExecutable(env);
  const label = executablePath ?? "o Chromium do Playwright";
  let launching: Promise<Launched> | null = null;
  let context: BrowserContext | null = null;
  /** this fetcher's folder (user-data dir and artifacts), while it exists */
  let pasta: string | null = null;
  let launchedIn: number | null = null;
  /** why this fetcher has no browser any more (a failed launch, a Chromium that stopped answering) */
  let broken: string | null = null;
  /** hosts of the pages this fetcher was asked to open */
  const allowed = new Set<string>();
  const maxNavigations = opts.maxNavigations ?? 6;
  /** the page being fetched (one at a time) and how many times its document was loaded */
  let current: { page: Page; navigations: number; exhausted: boolean } | null = null;
  const signal = opts.signal;
  const INTERROMPIDA = "busca interrompida";
  if (signal?.aborted) broken = INTERROMPIDA;
  // no goodbye to a browser the run is leaving: its process group goes now, whatever it was
  // doing (launching, loading a page that never answers); close() then removes its folder
  signal?.addEventListener(
    "abort",
    () => {
      broken = INTERROMPIDA;
      if (pasta) killChromium(perfilDe(pasta));
    },
    { once: true },
  );

  type Launched = { ok: true; ctx: BrowserContext } | { ok: false; reason: string };

  function launch(): Promise<Launched> {
    launching ??= launchBounded();
    return launching;
  }

  /** Playwright's own launch timeout, and ours a little after it in case that one never fires */
  async function launchBounded(): Promise<Launched> {
    const started = Date.now();
    let dir: string | null = null;
    const attempt = (async () => {
      const { chromium } = await import("playwright");
      if (signal?.aborted) throw new Error(INTERROMPIDA);
      dir = await mkdtemp(join(opts.tmpDir ?? tmpdir(), prefixoDaPasta()));
      pasta = dir;
      onExit(dir);
      await mkdir(join(dir, "artefatos"));
      if (signal?.aborted) throw new Error(INTERROMPIDA);
      opts.log?.(`navegador: iniciando Chromium (${label})`);
      const ctx = await chromium.launchPersistentContext(perfilDe(dir), {
        headless: true,
        args: CHROMIUM_ARGS,
        timeout: launchTimeoutMs,
        artifactsDir: join(dir, "artefatos"),
        ...(signal ? { handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false } : {}),
        ...(executablePath ? { executablePath } : {}),
      });
      // a browser killed mid-request (an interrupted run) rejects the route's answer: nothing to do then
      await ctx.route("**/*", (route) => routeRequest(route).catch(() => {}));
      return ctx;
    })();
    const got = await within(attempt, launchTimeoutMs + closeTimeoutMs);
    if (got.done && got.ok && signal?.aborted) {
      // interrupted while Chromium came up: closed like one that never did
      await closeBounded(got.value);
      await discard(dir);
      return { ok: false, reason: INTERROMPIDA };
    }
    if (got.done && got.ok) {
      context = got.value;
      launchedIn = Date.now() - started;
      opts.log?.(`navegador: pronto em ${(launchedIn / 1000).toFixed(1)} s`);
      return { ok: true, ctx: got.value };
    }
    if (!got.done) {
      // whenever the abandoned launch ends, what it opened is closed
      void attempt.then(
        async (ctx) => {
          await closeBounded(ctx);
          await discard(dir);
        },
        (err: unknown) => discard(dir, err),
      );
    }
    const reason = signal?.aborted
      ? INTERROMPIDA
      : got.done
        ? launchFailure(got.error, label, launchTimeoutMs)
        : `o Chromium não abriu em ${seconds(launchTimeoutMs)} (${label})`;
    broken = reason;
    opts.log?.(`navegador: ${reason}`);
    await discard(dir, got.done ? got.error : undefined);
    return { ok: false, reason };
  }

  async function routeRequest(route: Route): Promise<void> {
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
  }

  /** closes a context within closeTimeoutMs; false when it would not close */
  async function closeBounded(ctx: BrowserContext): Promise<boolean> {
    const r = await within(ctx.close(), closeTimeoutMs);
    return r.done;
  }

  /**
   * kills whatever Chromium still runs on `dir`'s user-data dir (nothing, after a clean close),
   * and the process a failed launch started (Playwright's error names its pid: an executable
   * that replaced its command line, or a wrapper script's children, carry no user-data dir), and
   * removes `dir`
   */
  async function discard(dir: string | null, launchError?: unknown): Promise<void> {
    const pid = launchError === undefined ? null : launchedPid(launchError);
    if (pid !== null) killOwnChild(pid);
    if (!dir) return;
    encerrarChromium(dir);
    await rm(dir, { recursive: true, force: true }).catch(() => {});
    offExit(dir);
    if (pasta === dir) pasta = null;
  }

  /**
   * a run that ends without close() (Ctrl-C without a signal owner: Playwright closes Chromium
   * and exits; a process.exit() elsewhere, the second Ctrl-C of `npm run update`) still removes
   * the folder; only SIGKILL leaves it, for the next run (limparPastasAbandonadas)
   */
  const exitHandlers = new Map<string, () => void>();
  function onExit(dir: string): void {
    const handler = () => {
      encerrarChromium(dir);
      try {
        rmSync(dir, { recursive: true, force: true });
      } catch {
        // exiting anyway
      }
    };
    exitHandlers.set(dir, handler);
    process.once("exit", handler);
  }
  function offExit(dir: string): void {
    const handler = exitHandlers.get(dir);
    if (handler) process.off("exit", handler);
    exitHandlers.delete(dir);
  }

  /** gives up on a Chromium that stopped answering: its processes are killed, later pages fail at once */
  async function abandon(reason: string): Promise<void> {
    broken = reason;
    const ctx = context;
    context = null;
    if (ctx) await closeBounded(ctx);
    await discard(pasta);
  }

  /** the page's HTML, null while a reload replaces the document, "stuck" when the page did not answer by `ms` */
  async function snapshot(page: Page, ms: number): Promise<string | null | "stuck"> {
    const r = await within(page.content(), ms);
    if (!r.done) return "stuck";
    // the challenge is navigating (reload): the document is being replaced
    return r.ok ? r.value : null;
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
      if (pending && !(await within(pending, closeTimeoutMs)).done) {
        // a launch still hanging: killing Chromium (its command line names our user-data dir)
        // makes Playwright give up on it now; whatever else it is, it ends by its own bound
        if (pasta) killChromium(perfilDe(pasta));
        await pending;
      }
      const ctx = context;
      context = null;
      if (ctx) await closeBounded(ctx);
      await discard(pasta);
    },
  };

  async function fetchOne(url: string, hasTable: (html: string) => boolean, timeoutMs: number): Promise<BrowserResult> {
    const deadline = Date.now() + timeoutMs;
    const left = () => deadline - Date.now();
    if (broken) return { ok: false, reason: `navegador indisponível: ${broken}` };
    // the page's budget counts from here: launching Chromium is part of it
    const launched = await within(launch(), timeoutMs);
    // the launch goes on, bounded by its own timeout: a later page may still use it
    if (!launched.done) return { ok: false, reason: `navegador: o Chromium não abriu em ${seconds(timeoutMs)}, o prazo da página (${label})` };
    if (!launched.ok) return { ok: false, reason: `navegador indisponível: ${firstLine(launched.error)}` };
    if (!launched.value.ok) return { ok: false, reason: `navegador indisponível: ${launched.value.reason}` };
    if (broken) return { ok: false, reason: `navegador indisponível: ${broken}` };
    const ctx = launched.value.ctx;
    const host = new URL(url).host;
    allowed.add(host);
    let page: Page | null = null;
    /** Chromium stopped answering while this page was open: the whole browser goes */
    let wedged: string | null = null;
    /** the browser itself stopped answering (`browser`), or only this page's renderer */
    const stuck = (what: string, browser: boolean): BrowserResult => {
      if (browser) wedged = `o Chromium parou de responder (${what}, ${url})`;
      return { ok: false, reason: `navegador: ${what}: sem resposta do Chromium em ${seconds(timeoutMs)}` };
    };
    try {
      const opened = await within(ctx.newPage(), Math.max(0, left()));
      if (!opened.done) {
        void opened.later.then((p) => p.close().catch(() => {}), () => {});
        return stuck("abrir uma aba", true);
      }
      if (!opened.ok) return { ok: false, reason: `navegador: ${firstLine(opened.error)}` };
      page = opened.value;
      const state = { page, navigations: 0, exhausted: false };
      current = state;
      if (left() <= 0) return { ok: false, reason: `tempo esgotado antes de abrir a página no navegador (${seconds(timeoutMs)}, o Chromium incluído)` };
      // goto has its own timeout; ours, a little later, is for a Chromium that stopped answering
      const went = await within(page.goto(url, { waitUntil: "domcontentloaded", timeout: Math.max(1, left()) }), left() + closeTimeoutMs);
      if (!went.done) return stuck("carregar a página", true);
      if (!went.ok) {
        const err = went.error;
        if (Date.now() >= deadline) return { ok: false, reason: `a página não carregou no navegador em ${seconds(timeoutMs)}` };
        // a challenge that reloads during goto interrupts it; the polling below sees the result
        if (!/interrupted|ERR_ABORTED|destroyed/i.test(String(err))) {
          return { ok: false, reason: `navegador: ${firstLine(err)}` };
        }
      }
      let html: string | null = null;
      for (;;) {
        if (signal?.aborted) return { ok: false, reason: INTERROMPIDA };
        // a page whose script never yields (a busy loop) never answers: content() would wait forever
        const snap = await snapshot(page, Math.max(0, left()));
        if (snap === "stuck") {
          const title = html ? pageTitle(html) : null;
          // its tab is closed below, through the browser, which is still fine
          return stuck(`a página travou${title ? ` (página "${title}")` : ""}`, false);
        }
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
        const left2 = left();
        if (left2 <= 0) break;
        await sleep(Math.min(pollMs, left2));
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
      // closing a tab goes through the browser, not the page's (perhaps busy) renderer; a
      // browser that cannot even do that is killed
      const closed = page ? await within(page.close(), closeTimeoutMs) : { done: true };
      if (!closed.done) wedged ??= `o Chromium não fechou a aba de ${url} em ${seconds(closeTimeoutMs)}`;
      if (wedged) {
        opts.log?.(`navegador: ${wedged}; encerrado`);
        await abandon(wedged);
      }
    }
  }
}

type Within<T> = { done: true; ok: true; value: T } | { done: true; ok: false; error: unknown } | { done: false; later: Promise<T> };

/** `p`'s outcome if it settles within `ms`; otherwise done: false (p goes on, its rejection handled) */
async function within<T>(p: Promise<T>, ms: number): Promise<Within<T>> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Within<T>>((r) => {
    timer = setTimeout(() => r({ done: false, later: p }), Math.max(0, ms));
  });
  p.catch(() => {});
  try {
    return await Promise.race([p.then((value): Within<T> => ({ done: true, ok: true, value }), (error): Within<T> => ({ done: true, ok: false, error })), late]);
  } finally {
    clearTimeout(timer);
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, Math.max(0, ms)));

/**
 * pt-BR: why Chromium did not open, from Playwright's error. Its message carries the browser's
 * own stderr ("[pid=N][err] ...") and exit code, which say more than Playwright's first line
 * ("Target page, context or browser has been closed").
 */
export function launchFailure(err: unknown, label: string, timeoutMs: number): string {
  const msg = (err instanceof Error ? err.message : String(err)).replace(/\x1b\[[0-9;]*m/g, "");
  if ((err instanceof Error && err.name === "TimeoutError") || /Timeout \d+ms exceeded/.test(msg)) {
    return `o Chromium não abriu em ${seconds(timeoutMs)} (${label})`;
  }
  const missing = msg.match(/executable doesn't exist at (\S+)/);
  if (missing) return `o Chromium não abriu: executável não encontrado em ${missing[1]}`;
  const logs = msg.split("Call log:")[0]!;
  const stderr = [...logs.matchAll(/^\[pid=\d+\]\[err\] (.+)$/gm)].map((m) => m[1]!.trim()).filter(Boolean);
  const exit = msg.match(/process did exit: exitCode=(\d+|null), signal=(\w+)/);
  const how = exit ? (exit[1] !== "null" ? `saiu com código ${exit[1]}` : `morreu com ${exit[2]}`) : null;
  const detail = stderr.length > 0 ? stderr.slice(-2).join(" / ").slice(0, 300) : firstLine(err).replace(/^browserType\.\w+: /, "");
  return `o Chromium não abriu (${label})${how ? `: ${how}` : ""}: ${detail}`;
}

/** the pid Playwright's launch error names ("<launched> pid=N" in its call log), if any */
function launchedPid(err: unknown): number | null {
  const m = (err instanceof Error ? err.message : String(err)).match(/<launched> pid=(\d+)/);
  return m ? Number(m[1]) : null;
}

/**
 * SIGKILLs `pid` and its process group, only if it is still a child of this process (Playwright
 * spawns Chromium from here, as the leader of its own group): a pid already reaped and reused by
 * someone else is never touched.
 */
function killOwnChild(pid: number): void {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "latin1");
  } catch {
    return; // gone, or no /proc
  }
  const [, ppid, pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ").map(Number);
  if (ppid !== process.pid) return;
  try {
    if (pgrp === pid) process.kill(-pid, "SIGKILL");
  } catch {
    // the group is gone
  }
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}

/**
 * SIGKILLs every process started with `dir` as its user-data dir, with its process group
 * (Playwright starts Chromium as the leader of its own group, which holds its zygote and
 * renderers). Only our own processes carry our fresh temp dir. Linux (/proc); elsewhere a no-op.
 * Returns how many processes carried it.
 */
export function killChromium(dir: string): number {
  const flag = `--user-data-dir=${dir}`;
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((n) => /^\d+$/.test(n));
  } catch {
    return 0;
  }
  let found = 0;
  for (const name of pids) {
    const pid = Number(name);
    if (pid === process.pid) continue;
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${name}/cmdline`, "latin1");
    } catch {
      continue; // gone meanwhile
    }
    if (!cmdline.split("\0").includes(flag)) continue;
    found++;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "latin1");
      const pgrp = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
      if (pgrp === pid) process.kill(-pid, "SIGKILL");
    } catch {
      // not a group leader, or already gone
    }
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  return found;
}

/**
 * Kills whatever Chromium still runs on the folder `pasta`'s user-data dir and removes the folder
 * Chromium keeps its singleton socket in. That one is not in `pasta`: Chromium makes it in the
 * temp dir (org.chromium.Chromium.XXXXXX, which the profile's SingletonSocket link names) and
 * removes it only when it closes, so every Chromium killed (a cancelled run, one that stopped
 * answering, one a SIGKILLed run left) left one behind. Returns how many processes were killed.
 */
export function encerrarChromium(pasta: string): number {
  const perfil = perfilDe(pasta);
  const mortos = killChromium(perfil);
  let alvo: string;
  try {
    alvo = readlinkSync(join(perfil, "SingletonSocket"));
  } catch {
    return mortos; // no link: Chromium never got that far, or closed and took it away
  }
  // only what Chromium itself names so: a link to anywhere else is not followed
  const socket = dirname(alvo);
  if (!isAbsolute(alvo) || basename(alvo) !== "SingletonSocket" || !PASTA_DO_SOCKET.test(basename(socket))) return mortos;
  try {
    const st = lstatSync(socket);
    if (st.isDirectory() && (process.getuid === undefined || st.uid === process.getuid())) rmSync(socket, { recursive: true, force: true });
  } catch {
    // gone already
  }
  return mortos;
}
const PASTA_DO_SOCKET = /^org\.chromium\.Chromium\.[A-Za-z0-9]{6}$/;

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
