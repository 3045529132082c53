/**
 * The one outbound HTTP layer: what the source fetcher (fetch/http.ts) and webhook delivery
 * (events/webhooks.ts) share. The connection pool and its timeouts, one deadline per exchange,
 * bodies read under a byte cap, charset decoding, the per-host gate and one retry policy
 * (exponential backoff with jitter, Retry-After honoured up to a cap, 408/429/5xx retried).
 * Each caller keeps only what is its own: sources follow same-host redirects and refuse
 * oversized pages; webhooks resolve names to public addresses only and drop replies after
 * 64 KiB.
 */
import { Agent, fetch, type Dispatcher } from "undici";

export type { Dispatcher };

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

/** A connection pool whose connect and idle timeouts are `connectTimeoutMs` and `idleTimeoutMs`. */
export function createDispatcher(o: {
  connectTimeoutMs: number;
  idleTimeoutMs: number;
  /** resolves host names for every connection (webhooks: public addresses only, events/net.ts) */
  lookup?: (...args: never[]) => void;
}): Agent {
  return new Agent({
    connect: o.lookup ? { timeout: o.connectTimeoutMs, lookup: o.lookup as never } : { timeout: o.connectTimeoutMs },
    headersTimeout: o.idleTimeoutMs,
    bodyTimeout: o.idleTimeoutMs,
  });
}

export type Response = Awaited<ReturnType<typeof fetch>>;

/**
 * One deadline for a whole exchange (connect, send, status and headers, body): undici's own
 * timeouts only watch for silence, and a peer that trickles a byte at a time never goes silent.
 */
export class Deadline {
  private readonly ctrl = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private passed = false;
  constructor(readonly ms: number) {
    this.timer = setTimeout(() => {
      this.passed = true;
      this.ctrl.abort();
    }, ms);
  }
  get signal(): AbortSignal {
    return this.ctrl.signal;
  }
  /** true once the deadline cut the exchange */
  get expired(): boolean {
    return this.passed;
  }
  clear(): void {
    clearTimeout(this.timer);
  }
}

/** One request, redirects never followed here (each caller has its own rule for them). */
export function send(
  url: string,
  init: { method: "GET" | "POST"; headers: Record<string, string>; body?: string; dispatcher: Dispatcher; deadline: Deadline },
): Promise<Response> {
  return fetch(url, {
    method: init.method,
    body: init.body,
    redirect: "manual",
    signal: init.deadline.signal,
    dispatcher: init.dispatcher,
    headers: init.headers,
  });
}

export interface Body {
  /** the bytes read (empty when `keep` was false) */
  bytes: Uint8Array;
  /** bytes received, kept or not */
  total: number;
  /** the cap was passed: reading stopped and the stream was cancelled */
  overCap: boolean;
  /** the stream failed after `total` bytes (a reset, the deadline, an idle timeout) */
  error?: unknown;
}

/**
 * Reads a body until it ends or passes `maxBytes` (then the stream is cancelled, which closes
 * the connection, so an endless body costs the cap and socket buffers). Never throws: a stream
 * that fails is reported with what had arrived.
 */
export async function readBody(stream: Response["body"], maxBytes: number, opts: { keep: boolean }): Promise<Body> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (!stream) return { bytes: new Uint8Array(0), total, overCap: false };
  const reader = stream.getReader();
  for (;;) {
    let step: ReadableStreamReadResult<Uint8Array>;
    try {
      step = await reader.read();
    } catch (error) {
      await reader.cancel().catch(() => {});
      return { bytes: new Uint8Array(0), total, overCap: false, error };
    }
    if (step.done) break;
    total += step.value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      return { bytes: new Uint8Array(0), total, overCap: true };
    }
    if (opts.keep) chunks.push(step.value);
  }
  const bytes = new Uint8Array(opts.keep ? total : 0);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return { bytes, total, overCap: false };
}

/** The first string `code` along an error's cause chain (undici nests them). */
export function errorCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let i = 0; i < 4 && e && typeof e === "object"; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** True when an error is one of undici's silence timeouts (headers or body, or connecting). */
export function isUndiciTimeout(err: unknown): "connect" | "idle" | null {
  const code = errorCode(err);
  if (code === "UND_ERR_CONNECT_TIMEOUT") return "connect";
  if (code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT") return "idle";
  return null;
}

export function describeError(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

// ---- retries ----

export interface RetryPolicy {
  /** attempts after the first one */
  retries: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** a Retry-After longer than this is not waited for: the caller gives up instead */
  retryAfterMaxMs: number;
  random: () => number;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
}

/** A status worth asking again: the peer timed out, is rate limiting, or failed on its side. */
export function retryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
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
export function backoffDelay(attempt: number, o: Pick<RetryPolicy, "backoffBaseMs" | "backoffMaxMs" | "random">): number {
  const exp = Math.min(o.backoffMaxMs, o.backoffBaseMs * 2 ** (attempt - 1));
  return Math.round(exp / 2 + (o.random() * exp) / 2);
}

/** What one attempt gave: its result, whether to try again, and the peer's Retry-After if any. */
export interface Attempt<T> {
  result: T;
  retry: boolean;
  retryAfterMs?: number | null;
}

/**
 * Runs `attempt` until it says not to retry, the retries are spent, a Retry-After is longer
 * than the policy waits for, or the next wait would end past `deadline` (epoch ms). Returns the
 * last attempt's result and how many attempts were made.
 */
export async function withRetries<T>(
  attempt: (n: number) => Promise<Attempt<T>>,
  p: RetryPolicy,
  opts: { deadline?: number; onRetry?: (n: number, waitMs: number, last: T) => void } = {},
): Promise<{ result: T; attempts: number }> {
  const deadline = opts.deadline ?? Number.POSITIVE_INFINITY;
  for (let n = 1; ; n++) {
    const a = await attempt(n);
    if (!a.retry || n > p.retries) return { result: a.result, attempts: n };
    const ra = a.retryAfterMs ?? null;
    if (ra !== null && ra > p.retryAfterMaxMs) return { result: a.result, attempts: n };
    const wait = Math.max(ra ?? 0, backoffDelay(n, p));
    if (p.now() + wait >= deadline) return { result: a.result, attempts: n };
    opts.onRetry?.(n, wait, a.result);
    await p.sleep(wait);
  }
}

// ---- decoding ----

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
