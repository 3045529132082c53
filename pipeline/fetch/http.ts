import { createHash } from "node:crypto";
import { Agent, fetch, type Dispatcher } from "undici";
import type { FailureKind } from "../domain/errors.ts";
import { PROJECT_URL } from "../domain/site.ts";
import { cloudflareChallenge } from "./challenge.ts";

/** Where the project lives (package.json's repository); the User-Agent points here so a site's operator can find us. */
export { PROJECT_URL };
export const USER_AGENT = `CotacaoAberta/1.0 (+${PROJECT_URL})`;

/**
 * The largest page the pipeline reads, live or recorded (a source's page is well under 1 MB).
 * One number for both paths, so a page refused live is refused in `--replay` too.
 */
export const MAX_PAGE_BYTES = 5 * 1024 * 1024;

export interface HttpOptions {
  userAgent: string;
  /** TCP + TLS handshake */
  connectTimeoutMs: number;
  /** one request, from sending it to the last byte of the body */
  requestTimeoutMs: number;
  /** a body larger than this is abandoned (the page of a source is well under 1 MB) */
  maxBytes: number;
  /** attempts after the first one, on network errors, timeouts, 5xx and 429 */
  retries: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** a Retry-After longer than this is not waited for: the request gives up instead */
  retryAfterMaxMs: number;
  maxRedirects: number;
  /** the gate that spaces requests to the same host */
  gate: HostGate;
  random: () => number;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
  dispatcher?: Dispatcher;
}

export interface HttpResponse {
  /** the URL the body came from, after same-host redirects */
  url: string;
  status: number;
  headers: Headers;
  body: string;
  bytes: number;
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
   * attempted after `deadline` (epoch ms).
   */
  get(url: string, opts?: { deadline?: number }): Promise<HttpResponse>;
  requestsPerHost(): Record<string, number>;
  close(): Promise<void>;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, Math.max(0, ms)));

/**
 * Spaces requests to the same host by at least `minIntervalMs` and counts them. Slots are
 * reserved synchronously, so concurrent callers queue up instead of racing.
 */
export class HostGate {
  private readonly next = new Map<string, number>();
  private readonly counts = new Map<string, number>();
  constructor(
    readonly minIntervalMs = 1000,
    private readonly now: () => number = Date.now,
    private readonly wait: (ms: number) => Promise<void> = sleep,
  ) {}

  /** waits for the host's next free slot and counts one request */
  async pass(host: string): Promise<void> {
    await this.reserve(host);
    this.count(host);
  }

  /** waits for the host's next free slot without counting (the caller counts what it sends) */
  async reserve(host: string): Promise<void> {
    const t = this.now();
    const slot = Math.max(t, this.next.get(host) ?? 0);
    this.next.set(host, slot + this.minIntervalMs);
    if (slot > t) await this.wait(slot - t);
  }

  /** counts a request sent by someone else (the browser) without waiting */
  count(host: string, n = 1): void {
    this.counts.set(host, (this.counts.get(host) ?? 0) + n);
  }

  snapshot(): Record<string, number> {
    return Object.fromEntries([...this.counts].sort(([a], [b]) => a.localeCompare(b)));
  }
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

/**
 * Retry-After as milliseconds from `now`: delta-seconds or an HTTP date; null when absent or
 * unreadable.
 */
export function parseRetryAfter(value: string | null, now: number): number | null {
  if (value == null) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now);
}

/** Exponential backoff with jitter: attempt 1 waits base·[0.5, 1), attempt 2 base·2·[0.5, 1), ... */
export function backoffDelay(attempt: number, o: Pick<HttpOptions, "backoffBaseMs" | "backoffMaxMs" | "random">): number {
  const exp = Math.min(o.backoffMaxMs, o.backoffBaseMs * 2 ** (attempt - 1));
  return Math.round(exp / 2 + (o.random() * exp) / 2);
}

const CHARSET_ALIASES: Record<string, string> = {
  latin1: "windows-1252",
  "iso-8859-1": "windows-1252",
  "iso8859-1": "windows-1252",
  "iso_8859-1": "windows-1252",
  "us-ascii": "windows-1252",
  ascii: "windows-1252",
  cp1252: "windows-1252",
  utf8: "utf-8",
};

function charsetFromContentType(ct: string | null): string | null {
  const m = ct?.match(/charset\s*=\s*["']?([\w.:-]+)/i);
  return m ? m[1]!.toLowerCase() : null;
}

/** <meta charset="..."> or <meta http-equiv="Content-Type" content="...; charset=...">, in the first 4 KB */
function charsetFromMeta(bytes: Uint8Array): string | null {
  const head = new TextDecoder("windows-1252").decode(bytes.subarray(0, 4096));
  for (const tag of head.match(/<meta\b[^>]*>/gi) ?? []) {
    const direct = tag.match(/\bcharset\s*=\s*["']?([\w.:-]+)/i);
    if (direct) return direct[1]!.toLowerCase();
  }
  return null;
}

/**
 * Decodes a page by the charset its Content-Type names, else its <meta>, else as UTF-8.
 * ISO-8859-1 is read as Windows-1252, as browsers do (the 0x80–0x9F range holds “ ” – €).
 */
export function decodeBody(bytes: Uint8Array, contentType: string | null): { text: string; charset: string } {
  let label = charsetFromContentType(contentType) ?? charsetFromMeta(bytes) ?? "utf-8";
  label = CHARSET_ALIASES[label] ?? label;
  if (label === "windows-1252") return { text: decodeWindows1252(bytes), charset: label };
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label);
  } catch {
    label = "utf-8";
    decoder = new TextDecoder(label);
  }
  return { text: decoder.decode(bytes), charset: decoder.encoding };
}

/** 0x80–0x9F of Windows-1252 (the rest is ISO-8859-1); 0x81, 0x8D, 0x8F, 0x90, 0x9D are unassigned */
const CP1252_80_9F = "€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ";

/**
 * Node 20's TextDecoder("windows-1252") decodes as plain ISO-8859-1 (0x96 becomes U+0096, not
 * "–"), so the 0x80–0x9F range is mapped here.
 */
export function decodeWindows1252(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    .toString("latin1")
    .replace(/[\u0080-\u009f]/g, (c) => CP1252_80_9F[c.charCodeAt(0) - 0x80]!);
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

type Attempt =
  | { ok: true; res: HttpResponse; retryAfterMs: number | null }
  | { ok: false; error: FetchError; retryable: boolean };

export function createHttpClient(over: Partial<HttpOptions> = {}): HttpClient {
  const o = defaultHttpOptions(over);
  const ownDispatcher = !o.dispatcher;
  const dispatcher =
    o.dispatcher ??
    new Agent({
      connect: { timeout: o.connectTimeoutMs },
      headersTimeout: o.requestTimeoutMs,
      bodyTimeout: o.requestTimeoutMs,
    });

  /**
   * The body, whole, or a FetchError. A body that ends before its framing says it is complete
   * (fewer bytes than Content-Length, or a chunked body without its last chunk) is a
   * network_error, never a shorter page: undici rejects both cases today ("other side closed",
   * UND_ERR_SOCKET), and the Content-Length is checked here again so that a dispatcher that
   * resolves silently cannot hand a cut page to a parser either. A body delimited only by the
   * connection closing (no Content-Length, not chunked) cannot be told from a complete one at
   * this layer: the parsers check that the document ends.
   */
  async function readCapped(res: Awaited<ReturnType<typeof fetch>>, url: string, signal: AbortSignal): Promise<Uint8Array> {
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
    const chunks: Uint8Array[] = [];
    let total = 0;
    if (res.body) {
      const reader = res.body.getReader();
      for (;;) {
        let step: ReadableStreamReadResult<Uint8Array>;
        try {
          step = await reader.read();
        } catch (err) {
          // our own deadline and undici's idle timeouts stay timeouts
          const code = errorCode(err);
          if (signal.aborted || code === "UND_ERR_BODY_TIMEOUT" || code === "UND_ERR_HEADERS_TIMEOUT") throw err;
          throw new FetchError("network_error", url, cutReason(total, expected, chunked, code ?? describe(err)), err);
        }
        if (step.done) break;
        const value = step.value;
        total += value.byteLength;
        if (total > o.maxBytes) {
          await reader.cancel().catch(() => {});
          throw new FetchError("http_error", url, `resposta grande demais: passou de ${o.maxBytes} bytes`);
        }
        chunks.push(value);
      }
    }
    if (expected !== null && total !== expected) {
      throw new FetchError("network_error", url, cutReason(total, expected, chunked, null));
    }
    const out = new Uint8Array(total);
    let at = 0;
    for (const c of chunks) {
      out.set(c, at);
      at += c.byteLength;
    }
    return out;
  }

  /** one request, following same-host redirects; never throws */
  async function attempt(startUrl: string, deadline: number, n: number): Promise<Attempt> {
    let url = startUrl;
    const origin = new URL(startUrl);
    for (let hop = 0; ; hop++) {
      const host = new URL(url).host;
      await o.gate.reserve(host);
      const budget = Math.min(o.requestTimeoutMs, deadline - o.now());
      if (budget <= 0) {
        return { ok: false, retryable: false, error: new FetchError("timeout", url, "tempo esgotado antes de completar a requisição") };
      }
      o.gate.count(host);
      const ctrl = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        ctrl.abort();
      }, budget);
      try {
        const res = await fetch(url, {
          method: "GET",
          redirect: "manual",
          signal: ctrl.signal,
          dispatcher,
          headers: {
            "user-agent": o.userAgent,
            accept: "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5",
            "accept-language": "pt-BR,pt;q=0.9",
          },
        });
        if (REDIRECTS.has(res.status)) {
          await res.body?.cancel().catch(() => {});
          const loc = res.headers.get("location");
          if (!loc) {
            return { ok: false, retryable: false, error: new FetchError("http_error", url, `HTTP ${res.status} sem cabeçalho Location`) };
          }
          const next = new URL(loc, url);
          if (next.host !== origin.host) {
            return {
              ok: false,
              retryable: false,
              error: new FetchError("http_error", url, `redirecionamento para outro host recusado: ${next.host} (esperado ${origin.host})`),
            };
          }
          if (hop >= o.maxRedirects) {
            return { ok: false, retryable: false, error: new FetchError("http_error", url, `mais de ${o.maxRedirects} redirecionamentos`) };
          }
          url = next.href;
          continue;
        }
        const bytes = await readCapped(res, url, ctrl.signal);
        const { text, charset } = decodeBody(bytes, res.headers.get("content-type"));
        const ra = res.status === 429 || res.status >= 500 ? parseRetryAfter(res.headers.get("retry-after"), o.now()) : null;
        return {
          ok: true,
          retryAfterMs: ra,
          res: {
            url,
            status: res.status,
            headers: res.headers as unknown as Headers,
            body: text,
            bytes: bytes.byteLength,
            sha256: createHash("sha256").update(bytes).digest("hex"),
            charset,
            attempts: n,
          },
        };
      } catch (err) {
        // a cut body is retried like any network failure; a refused one (too big) is not
        if (err instanceof FetchError) return { ok: false, retryable: err.kind === "network_error", error: err };
        const code = errorCode(err);
        if (timedOut || code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT") {
          return { ok: false, retryable: true, error: new FetchError("timeout", url, `sem resposta completa em ${Math.round(budget / 100) / 10} s`, err) };
        }
        if (code === "UND_ERR_CONNECT_TIMEOUT") {
          return { ok: false, retryable: true, error: new FetchError("timeout", url, `conexão não estabelecida em ${o.connectTimeoutMs / 1000} s`, err) };
        }
        return { ok: false, retryable: true, error: new FetchError("network_error", url, `falha de rede: ${code ?? describe(err)}`, err) };
      } finally {
        clearTimeout(timer);
      }
    }
  }

  return {
    async get(url, opts = {}) {
      const deadline = opts.deadline ?? Number.POSITIVE_INFINITY;
      let last: Attempt | undefined;
      for (let n = 1; n <= o.retries + 1; n++) {
        last = await attempt(url, deadline, n);
        let wait: number;
        if (last.ok) {
          const { res, retryAfterMs } = last;
          const retryable = (res.status === 429 || res.status >= 500) && !cloudflareChallenge(res.status, res.headers, res.body);
          if (!retryable) return res;
          if (retryAfterMs != null && retryAfterMs > o.retryAfterMaxMs) return res;
          wait = Math.max(retryAfterMs ?? 0, backoffDelay(n, o));
        } else {
          last.error.attempts = n;
          if (!last.retryable) throw last.error;
          wait = backoffDelay(n, o);
        }
        if (n > o.retries || o.now() + wait >= deadline) break;
        await o.sleep(wait);
      }
      if (last!.ok) return last!.res;
      throw last!.error;
    },
    requestsPerHost: () => o.gate.snapshot(),
    async close() {
      if (ownDispatcher) await (dispatcher as Agent).destroy();
    },
  };
}

function errorCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let i = 0; i < 4 && e && typeof e === "object"; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** pt-BR: what arrived of a body that ended early, and what its framing had promised */
function cutReason(received: number, declared: number | null, chunked: boolean, cause: string | null): string {
  const how = cause ? `; ${cause}` : "";
  if (declared !== null) return `corpo interrompido: ${received} de ${declared} bytes recebidos (Content-Length)${how}`;
  if (chunked) return `corpo interrompido: ${received} bytes recebidos, transferência chunked sem o bloco final${how}`;
  return `corpo interrompido: ${received} bytes recebidos${how}`;
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
