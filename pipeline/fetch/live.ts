import type { FailureKind } from "../domain/errors.ts";
import { MIRRORS } from "../sources/index.ts";
import type { MirrorDef, PageDef, SourceDef } from "../sources/types.ts";
import { createBrowserFetcher, LAUNCH_TIMEOUT_MS, type BrowserFetcher, type BrowserOptions } from "./browser.ts";
import { classifyResponse } from "./challenge.ts";
import { FetchError, HostGate, MAX_PAGE_BYTES, createHttpClient, type HttpOptions } from "./http.ts";
import { MIRROR_ON, mirrorUrl, pageUrl, type LoadResult, type PageLoader } from "./types.ts";

export interface Timeouts {
  /** TCP + TLS handshake */
  connectMs: number;
  /** one HTTP request, sending to last byte */
  requestMs: number;
  /**
   * everything spent on one URL: retries, backoff, the browser. A page with mirrors may take
   * this twice (the page, then its mirrors in turn, sharing one budget), never more.
   */
  pageMs: number;
  /**
   * how long the browser may take for a page, launching Chromium included (the first page that
   * needs it pays for the launch), until the challenge clears and the table appears
   */
  browserMs: number;
  /** launching Chromium, on its own: past this it is killed and the run goes on without a browser */
  launchMs: number;
  /**
   * everything one run fetches, every page and mirror: a page started after it fails at once
   * (timeout) and no page's budget runs past it, so `npm run update` ends its fetching within
   * this (plus closing the browser) whatever the sources do
   */
  runMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = {
  connectMs: 10_000,
  requestMs: 30_000,
  pageMs: 120_000,
  browserMs: 45_000,
  launchMs: LAUNCH_TIMEOUT_MS,
  runMs: 12 * 60_000,
};

export interface LiveLoaderOptions {
  env?: NodeJS.ProcessEnv;
  /** between two requests to the same host; default 1000 ms */
  minIntervalMs?: number;
  timeouts?: Partial<Timeouts>;
  /** open challenged pages in Chromium (default true) */
  browser?: boolean;
  log?: (line: string) => void;
  /** mirrors by "{source}/{page}", in the order they are tried; default MIRRORS of sources/index.ts */
  mirrors?: Readonly<Record<string, readonly MirrorDef[]>>;
  /** finer HTTP knobs (retries, backoff) for tests and the bench */
  http?: Partial<Omit<HttpOptions, "gate" | "connectTimeoutMs" | "requestTimeoutMs">>;
  /** which Chromium and where its user-data dir goes (tests); default chromiumExecutable(env), the temp dir */
  navegador?: Pick<BrowserOptions, "executablePath" | "tmpDir" | "closeTimeoutMs">;
  now?: () => Date;
  /**
   * the run was cancelled (SIGINT/SIGTERM): the request in flight is cut, Chromium's process
   * group killed, and the page being fetched and every later one fail at once ("busca interrompida")
   */
  signal?: AbortSignal;
}


/** The live loader also tells what the browser cost (for the bench and the report). */
export interface LiveLoader extends PageLoader {
  /** ms spent launching Chromium in this run, null when it was not needed */
  browserLaunchMs(): number | null;
}

type Got =
  | { ok: true; html: string; url: string; method: "http" | "browser"; sha256?: string; bytes?: number }
  | { ok: false; kind: FailureKind; url: string; reason: string };

/**
 * The live path: HTTP first; a Cloudflare challenge goes to Chromium (unless `browser: false`,
 * or Chromium cannot start or never gets past it); a page with mirrors that still fails is read
 * from the first of its mirrors that answers with its table (CEPEA: Notícias Agrícolas, then
 * CEPEA's widget). Base URLs come from COTACAO_*_URL.
 */
export function createLiveLoader(opts: LiveLoaderOptions = {}): LiveLoader {
  const env = opts.env ?? process.env;
  const t: Timeouts = { ...DEFAULT_TIMEOUTS, ...opts.timeouts };
  const log = opts.log ?? (() => {});
  const now = opts.now ?? (() => new Date());
  const mirrors = opts.mirrors ?? MIRRORS;
  const gate = new HostGate(opts.minIntervalMs ?? 1000);
  const signal = opts.signal;
  const http = createHttpClient({
    ...opts.http,
    gate,
    connectTimeoutMs: t.connectMs,
    requestTimeoutMs: t.requestMs,
    ...(signal ? { signal } : {}),
  });
  /** settles when the run is cancelled: a page being fetched then ends at once, whatever it waits on */
  const cancelada = new Promise<void>((r) => {
    if (signal?.aborted) return r();
    signal?.addEventListener("abort", () => r(), { once: true });
  });
  const interrompida = (where: string, url: string): LoadResult => {
    log(`${where}: busca interrompida`);
    return { ok: false, kind: "network_error", url, reason: "busca interrompida" };
  };
  const maxBytes = opts.http?.maxBytes ?? MAX_PAGE_BYTES;
  let browser: BrowserFetcher | null = null;
  let closed = false;
  /**
   * hosts that gave a page no complete answer in its whole budget (a server that hangs or
   * trickles a byte at a time), with that page: on their later pages a timeout is not asked
   * again, so one stuck host cannot spend the run's budget before the other sources get their
   * turn; a 5xx or a dropped connection there is still retried (a server coming back from an
   * overload), so one stuck page does not make the host's other prices late
   */
  const slow = new Map<string, string>();
  /** set by the first page: when the run's fetching must be over */
  let runDeadline = Number.POSITIVE_INFINITY;
  const pageDeadline = () => Math.min(Date.now() + t.pageMs, runDeadline);

  async function get(
    where: string,
    url: string,
    hasTable: (html: string) => boolean,
    o: { deadline?: number; navegador?: boolean } = {},
  ): Promise<Got> {
    const deadline = o.deadline ?? pageDeadline();
    const host = new URL(url).host;
    const slowSince = slow.get(host);
    /** the run's budget, not the page's, ended this page: the report says so */
    const cutByRun = () => deadline >= runDeadline && Date.now() >= runDeadline;
    const runNote = () => (cutByRun() ? `; prazo da busca desta execução (${duracao(t.runMs)}) esgotado` : "");
    let res;
    try {
      res = await http.get(url, { deadline, retryTimeouts: slowSince === undefined });
    } catch (err) {
      if (err instanceof FetchError) {
        // an interrupted run's page: load() says so, once
        if (signal?.aborted) return { ok: false, kind: err.kind, url: err.url, reason: err.reason };
        let reason = err.reason + (err.attempts > 1 ? ` (${err.attempts} tentativas)` : "");
        if (err.kind === "timeout") {
          if (slowSince !== undefined) reason += `; uma só tentativa: ${host} já ficou sem responder a tempo em ${slowSince} nesta execução`;
          else if (!cutByRun()) slow.set(host, where);
          reason += runNote();
        }
        log(`${where}: ${reason}`);
        return { ok: false, kind: err.kind, url: err.url, reason };
      }
      throw err;
    }
    const verdict = classifyResponse(res, hasTable);
    const tries = res.attempts > 1 ? ` (${res.attempts} tentativas)` : "";
    if (verdict.ok) {
      log(`${where}: ok, HTTP ${res.status}, ${res.bytes} bytes${tries}`);
      return { ok: true, html: res.body, url: res.url, method: "http", sha256: res.sha256, bytes: res.bytes };
    }
    log(`${where}: ${verdict.reason}${tries}`);
    if (verdict.kind !== "blocked") return { ok: false, kind: verdict.kind, url: res.url, reason: verdict.reason + tries };
    if (opts.browser === false) {
      return { ok: false, kind: "blocked", url: res.url, reason: `${verdict.reason}; navegador desativado` };
    }
    if (o.navegador === false) return { ok: false, kind: "blocked", url: res.url, reason: `${verdict.reason}; não é aberto no navegador` };
    const left = Math.min(t.browserMs, deadline - Date.now());
    if (left <= 0) return { ok: false, kind: "blocked", url: res.url, reason: `${verdict.reason}; sem tempo para o navegador${runNote()}` };
    log(`${where}: abrindo no navegador`);
    browser ??= createBrowserFetcher({ env, gate, log, launchTimeoutMs: t.launchMs, ...opts.navegador, ...(signal ? { signal } : {}) });
    const b = await browser.fetch(url, hasTable, left);
    if (signal?.aborted) return { ok: false, kind: "blocked", url: res.url, reason: "busca interrompida" };
    // the page Chromium ends on was never measured by the HTTP client: the same cap applies
    const size = b.ok ? Buffer.byteLength(b.html, "utf8") : 0;
    if (b.ok && size > maxBytes) {
      const reason = `resposta grande demais no navegador: ${size} bytes, limite ${maxBytes}`;
      log(`${where}: ${reason}`);
      return { ok: false, kind: "http_error", url: res.url, reason };
    }
    if (b.ok) {
      log(`${where}: ok pelo navegador`);
      return { ok: true, html: b.html, url: b.url, method: "browser" };
    }
    const reason = `${b.reason}${runNote()}`;
    log(`${where}: ${reason}`);
    return { ok: false, kind: "blocked", url: res.url, reason: `${verdict.reason}; ${reason}` };
  }

  /** one page, by HTTP, the browser and the mirrors in turn */
  async function buscar(source: SourceDef, page: PageDef): Promise<LoadResult> {
    const where = `${source.id}/${page.id}`;
    const url = pageUrl(source, page, env);
    if (runDeadline === Number.POSITIVE_INFINITY) runDeadline = Date.now() + t.runMs;
    if (Date.now() >= runDeadline) {
      const reason = `prazo da busca desta execução (${duracao(t.runMs)}) esgotado antes desta página`;
      log(`${where}: ${reason}`);
      return { ok: false, kind: "timeout", url, reason };
    }
    log(`${where}: GET ${url}`);
    const got = await get(where, url, (html) => page.hasTable(html));
    if (got.ok) {
      return { ok: true, html: got.html, url: got.url, mirror: null, mirrorUrl: null, fetchedAt: now(), method: got.method, ...received(got) };
    }
    const list = mirrors[where] ?? [];
    if (list.length === 0 || !MIRROR_ON.has(got.kind) || signal?.aborted) return got;

    // the mirrors, in order, share one budget: the first with its table serves the page
    const deadline = pageDeadline();
    const falhas: string[] = [];
    for (const mirror of list) {
      if (signal?.aborted) break;
      const mUrl = mirrorUrl(mirror, env);
      if (Date.now() >= deadline) {
        falhas.push(`espelho ${mirror.nome}: sem tempo${Date.now() >= runDeadline ? ` (prazo da busca desta execução, ${duracao(t.runMs)}, esgotado)` : ""}`);
        continue;
      }
      log(`${where}: tentando o espelho ${mirror.nome} (${mUrl})`);
      const via = await get(`${where} via ${mirror.id}`, mUrl, (html) => mirror.hasTable(html), { deadline, navegador: mirror.navegador });
      if (via.ok) {
        return { ok: true, html: via.html, url: got.url, mirror, mirrorUrl: via.url, origem: { kind: got.kind, reason: got.reason }, fetchedAt: now(), method: "mirror", ...received(via) };
      }
      falhas.push(`espelho ${mirror.nome}: ${via.reason}`);
    }
    return { ...got, reason: `${got.reason}; ${falhas.join("; ")}` };
  }

  return {
    async load(source: SourceDef, page: PageDef): Promise<LoadResult> {
      const where = `${source.id}/${page.id}`;
      const url = pageUrl(source, page, env);
      if (signal?.aborted) return interrompida(where, url);
      // the work left behind ends by itself: its requests are cut and Chromium is killed
      const trabalho = buscar(source, page);
      trabalho.catch(() => {});
      const r = await Promise.race([trabalho, cancelada.then(() => null)]);
      return r === null || signal?.aborted ? interrompida(where, url) : r;
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([http.close(), browser?.close()]);
    },
    requestsPerHost: () => gate.snapshot(),
    browserLaunchMs: () => browser?.launchMs() ?? null,
  };
}

/** "12 min", "1.5 s": a budget as the report shows it */
function duracao(ms: number): string {
  return ms >= 60_000 && ms % 60_000 === 0 ? `${ms / 60_000} min` : `${Math.round(ms / 100) / 10} s`;
}

/** the received bytes' hash and size, when the HTTP client saw them (the browser's page has none) */
function received(g: { sha256?: string; bytes?: number }): { sha256?: string; bytes?: number } {
  return g.sha256 !== undefined && g.bytes !== undefined ? { sha256: g.sha256, bytes: g.bytes } : {};
}
