import { createHash } from "node:crypto";
import type { FailureKind } from "../domain/errors.ts";
import { PROJECT_URL } from "../domain/site.ts";
import {
  createDispatcher,
  Deadline,
  decodeBody,
  describeError,
  errorCode,
  HostGate,
  isUndiciTimeout,
  parseRetryAfter,
  readBody,
  retryableStatus,
  send,
  sleep,
  withRetries,
  type Attempt,
  type Dispatcher,
  type Response,
  type RetryPolicy,
} from "../io/http.ts";
import { cloudflareChallenge } from "./challenge.ts";

// the shared layer's pieces the fetcher's callers and tests know by this module
export { backoffDelay, decodeBody, decodeWindows1252, HostGate, parseRetryAfter, sleep } from "../io/http.ts";

/** Where the project lives (package.json's repository); the User-Agent points here so a site's operator can find us. */
export { PROJECT_URL };
export const USER_AGENT = `CotacaoAberta/1.0 (+${PROJECT_URL})`;

/**
 * The largest page the pipeline reads, live or recorded (a source's page is well under 1 MB).
 * One number for both paths, so a page refused live is refused in `--replay` too.
 */
export const MAX_PAGE_BYTES = 5 * 1024 * 1024;

export interface HttpOptions extends RetryPolicy {
  userAgent: string;
  /** TCP + TLS handshake */
  connectTimeoutMs: number;
  /** one request, from sending it to the last byte of the body */
  requestTimeoutMs: number;
  /** a body larger than this is abandoned (the page of a source is well under 1 MB) */
  maxBytes: number;
  maxRedirects: number;
  /** the gate that spaces requests to the same host */
  gate: HostGate;
  dispatcher?: Dispatcher;
  /**
   * the run was cancelled: requests in flight are cut (their connections destroyed), a wait
   * between attempts ends, and no request is sent any more
   */
  signal?: AbortSignal;
}

export interface HttpResponse {
  /** the URL the body came from, after same-host redirects */
  url: string;
  status: number;
  headers: Headers;
  body: string;
  bytes: number;
  /** the body's bytes as received (after content decoding): a binary download (npm run backfill's spreadsheets) is read from these */
  raw?: Uint8Array;
  /** hex SHA-256 of the body's bytes as received (after content decoding, before charset decoding) */
  sha256: string;
  charset: string;
  attempts: number;
}

/** A request that produced no usable HTTP response. `reason` is pt-BR, for the report. */
export class FetchError extends Error {
  readonly kind: FailureKind;
  readonly url: string;
  readonly reason: string;
  /** requests made before giving up */
  attempts = 1;
  constructor(kind: FailureKind, url: string, reason: string, cause?: unknown) {
    super(`${reason} (${url})`, cause ? { cause } : undefined);
    this.name = "FetchError";
    this.kind = kind;
    this.url = url;
    this.reason = reason;
  }
}

export interface HttpClient {
  /**
   * GET with retries. Resolves with the last HTTP response, whatever its status (the caller
   * tells a challenge from an error); rejects with FetchError when there is none. Nothing is
   * attempted after `deadline` (epoch ms). `retryTimeouts: false`: an attempt that timed out is
   * the last one (a 5xx or a dropped connection is still retried as usual).
   */
  get(url: string, opts?: { deadline?: number; retryTimeouts?: boolean }): Promise<HttpResponse>;
  requestsPerHost(): Record<string, number>;
  close(): Promise<void>;
}

export function defaultHttpOptions(given: Partial<HttpOptions> = {}): HttpOptions {
  const over = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) as Partial<HttpOptions>;
  const now = over.now ?? Date.now;
  const wait = over.sleep ?? sleep;
  return {
    userAgent: USER_AGENT,
    connectTimeoutMs: 10_000,
    requestTimeoutMs: 30_000,
    maxBytes: MAX_PAGE_BYTES,
    retries: 2,
    backoffBaseMs: 2_000,
    backoffMaxMs: 30_000,
    retryAfterMaxMs: 60_000,
    maxRedirects: 5,
    gate: over.gate ?? new HostGate(1000, now, wait),
    random: Math.random,
    sleep: wait,
    now,
    ...over,
  };
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** One request's outcome: a response (whatever its status) or the FetchError of no response. */
type Outcome = { ok: true; res: HttpResponse } | { ok: false; error: FetchError };

export function createHttpClient(over: Partial<HttpOptions> = {}): HttpClient {
  const o = defaultHttpOptions(over);
  const ownDispatcher = !o.dispatcher;
  const dispatcher = o.dispatcher ?? createDispatcher({ connectTimeoutMs: o.connectTimeoutMs, idleTimeoutMs: o.requestTimeoutMs });
  const signal = o.signal;
  let destroyed: Promise<void> | null = null;
  const destroy = () => (destroyed ??= ownDispatcher ? (dispatcher as { destroy(): Promise<void> }).destroy().catch(() => {}) : Promise.resolve());
  /** the wait between two attempts, cut short by a cancelled run */
  const wait = (ms: number): Promise<void> =>
    !signal
      ? o.sleep(ms)
      : new Promise((r) => {
          if (signal.aborted) return r();
          const t = setTimeout(done, Math.max(0, ms));
          function done() {
            clearTimeout(t);
            signal!.removeEventListener("abort", done);
            r();
          }
          signal.addEventListener("abort", done, { once: true });
        });
  // an interrupted run's requests end now: a request that never answers would hold it for its whole timeout
  signal?.addEventListener("abort", () => void destroy(), { once: true });
  const interrompida = (url: string) => new FetchError("network_error", url, "busca interrompida");

  /**
   * The body, whole, or a FetchError. A body that ends before its framing says it is complete
   * (fewer bytes than Content-Length, or a chunked body without its last chunk) is a
   * network_error, never a shorter page: undici rejects both cases today ("other side closed",
   * UND_ERR_SOCKET), and the Content-Length is checked here again so that a dispatcher that
   * resolves silently cannot hand a cut page to a parser either. A body delimited only by the
   * connection closing (no Content-Length, not chunked) cannot be told from a complete one at
   * this layer: the parsers check that the document ends.
   */
  async function readCapped(res: Response, url: string, signal: AbortSignal): Promise<Uint8Array> {
    const lengthHeader = res.headers.get("content-length");
    const declared = lengthHeader !== null && /^\s*\d+\s*$/.test(lengthHeader) ? Number(lengthHeader) : null;
    if (declared !== null && declared > o.maxBytes) {
      await res.body?.cancel().catch(() => {});
      throw new FetchError("http_error", url, `resposta grande demais: ${declared} bytes anunciados, limite ${o.maxBytes}`);
    }
    // fetch decodes gzip/deflate/br: Content-Length then counts the compressed bytes, not these
    const encoding = (res.headers.get("content-encoding") ?? "").trim().toLowerCase();
    const expected = encoding === "" || encoding === "identity" ? declared : null;
    const chunked = /\bchunked\b/i.test(res.headers.get("transfer-encoding") ?? "");
    const body = await readBody(res.body, o.maxBytes, { keep: true });
    if (body.error !== undefined) {
      // our own deadline and undici's idle timeouts stay timeouts
      if (signal.aborted || isUndiciTimeout(body.error) === "idle") throw body.error;
      throw new FetchError("network_error", url, cutReason(body.total, expected, chunked, errorCode(body.error) ?? describeError(body.error)), body.error);
    }
    if (body.overCap) throw new FetchError("http_error", url, `resposta grande demais: passou de ${o.maxBytes} bytes`);
    if (expected !== null && body.total !== expected) {
      throw new FetchError("network_error", url, cutReason(body.total, expected, chunked, null));
    }
    return body.bytes;
  }

  /** one request, following same-host redirects; never throws */
  async function attempt(startUrl: string, deadline: number, n: number): Promise<Attempt<Outcome>> {
    let url = startUrl;
    const origin = new URL(startUrl);
    const refuse = (error: FetchError): Attempt<Outcome> => ({ result: { ok: false, error }, retry: false });
    for (let hop = 0; ; hop++) {
      const host = new URL(url).host;
      if (signal?.aborted) return refuse(interrompida(url));
      await o.gate.reserve(host);
      if (signal?.aborted) return refuse(interrompida(url));
      const budget = Math.min(o.requestTimeoutMs, deadline - o.now());
      if (budget <= 0) return refuse(new FetchError("timeout", url, "tempo esgotado antes de completar a requisição"));
      o.gate.count(host);
      const cut = new Deadline(budget);
      try {
        const res = await send(url, {
          method: "GET",
          dispatcher,
          deadline: cut,
          headers: {
            "user-agent": o.userAgent,
            accept: "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5",
            "accept-language": "pt-BR,pt;q=0.9",
            // undici's fetch inflates gzip/br leniently: a compressed body cut short (a proxy or
            // CDN that cached a truncated copy under a Content-Length that matches it) comes out
            // as a shorter page with no error. Uncompressed, the Content-Length check in
            // readCapped sees the cut; a page is well under 1 MB, so the bytes cost nothing.
            "accept-encoding": "identity",
          },
        });
        if (REDIRECTS.has(res.status)) {
          await res.body?.cancel().catch(() => {});
          const loc = res.headers.get("location");
          if (!loc) return refuse(new FetchError("http_error", url, `HTTP ${res.status} sem cabeçalho Location`));
          const next = new URL(loc, url);
          if (next.host !== origin.host) {
            return refuse(new FetchError("http_error", url, `redirecionamento para outro host recusado: ${next.host} (esperado ${origin.host})`));
          }
          if (hop >= o.maxRedirects) return refuse(new FetchError("http_error", url, `mais de ${o.maxRedirects} redirecionamentos`));
          url = next.href;
          continue;
        }
        const bytes = await readCapped(res, url, cut.signal);
        const { text, charset } = decodeBody(bytes, res.headers.get("content-type"));
        const page: HttpResponse = {
          url,
          status: res.status,
          headers: res.headers as unknown as Headers,
          body: text,
          bytes: bytes.byteLength,
          raw: bytes,
          sha256: createHash("sha256").update(bytes).digest("hex"),
          charset,
          attempts: n,
        };
        // a challenge served as 503 is an answer, not an outage: asking again only repeats it
        const retry = retryableStatus(res.status) && !cloudflareChallenge(res.status, page.headers, page.body);
        return { result: { ok: true, res: page }, retry, retryAfterMs: retry ? parseRetryAfter(res.headers.get("retry-after"), o.now()) : null };
      } catch (err) {
        if (signal?.aborted) return refuse(interrompida(url));
        // a cut body is retried like any network failure; a refused one (too big) is not
        if (err instanceof FetchError) return { result: { ok: false, error: err }, retry: err.kind === "network_error" };
        const timeout = cut.expired ? "idle" : isUndiciTimeout(err);
        const error =
          timeout === "idle"
            ? new FetchError("timeout", url, `sem resposta completa em ${Math.round(budget / 100) / 10} s`, err)
            : timeout === "connect"
              ? new FetchError("timeout", url, `conexão não estabelecida em ${o.connectTimeoutMs / 1000} s`, err)
              : new FetchError("network_error", url, `falha de rede: ${errorCode(err) ?? describeError(err)}`, err);
        return { result: { ok: false, error }, retry: true };
      } finally {
        cut.clear();
      }
    }
  }

  return {
    async get(url, opts = {}) {
      const deadline = opts.deadline ?? Number.POSITIVE_INFINITY;
      const once = opts.retryTimeouts === false;
      const { result, attempts } = await withRetries(
        async (n) => {
          const a = await attempt(url, deadline, n);
          return once && !a.result.ok && a.result.error.kind === "timeout" ? { ...a, retry: false } : a;
        },
        { ...o, sleep: wait },
        { deadline },
      );
      if (result.ok) return result.res;
      result.error.attempts = attempts;
      throw result.error;
    },
    requestsPerHost: () => o.gate.snapshot(),
    async close() {
      await destroy();
    },
  };
}

/** pt-BR: what arrived of a body that ended early, and what its framing had promised */
function cutReason(received: number, declared: number | null, chunked: boolean, cause: string | null): string {
  const how = cause ? `; ${cause}` : "";
  if (declared !== null) return `corpo interrompido: ${received} de ${declared} bytes recebidos (Content-Length)${how}`;
  if (chunked) return `corpo interrompido: ${received} bytes recebidos, transferência chunked sem o bloco final${how}`;
  return `corpo interrompido: ${received} bytes recebidos${how}`;
}
