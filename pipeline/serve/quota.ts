import { isIP } from "node:net";

/**
 * Daily request quota: 100 a day per client address, 10,000 per API key, reset at 00:00 UTC.
 * What is counted is the caller's choice (../serve/app.ts counts only the query routes' answers,
 * 200 and 304, after checking with `peek` that some quota is left): refused requests cost nothing.
 *
 * Memory is bounded whatever the traffic: up to `maxClients` addresses are counted exactly in a
 * Map; past that, new addresses are counted in a fixed-size count-min sketch (depth × width
 * 32-bit counters, 1 MiB by default), which can over-count (a rare client may be throttled a
 * little early) but never under-counts, so spraying addresses does not buy extra requests. Keys
 * are few (configured) and always counted exactly. IPv6 clients are counted per /64, the
 * smallest block a subscriber is usually given.
 */
export interface QuotaOptions {
  freeLimit?: number;
  keyLimit?: number;
  maxClients?: number;
  sketchWidth?: number;
  sketchDepth?: number;
}

export interface QuotaState {
  limit: number;
  used: number;
  remaining: number;
  /** epoch seconds of the next 00:00 UTC */
  reset: number;
  /** seconds until reset */
  retryAfter: number;
}

const DAY_MS = 86_400_000;

/** A value now (the in-memory store: no promise allocated per request) or later (a shared store). */
export type Talvez<T> = T | Promise<T>;

/** What a store answers: the state, plus how it was counted when the shared store is down. */
export interface QuotaCheck extends QuotaState {
  /** the shared store could not be reached and this count is the instance's own (X-Cotacao-Aviso) */
  aviso?: string;
  /** the shared store is down and the configured choice is to refuse the query routes (503) */
  indisponivel?: boolean;
  /**
   * units of `used` that are out on lease (./quota-lotes.ts) and not yet settled: some may still be
   * given back. Stores answer it for a key's own count when it is above zero.
   */
  emprestadas?: number;
  /**
   * set by ./quota-lotes.ts on a key with nothing left while units of it are out on lease in other
   * processes: the refusal is passing (`retryAfter` is then the lease's give-back time, not 00:00 UTC)
   */
  emUso?: boolean;
}
export type QuotaConsumed = QuotaCheck & { allowed: boolean };

/**
 * Where the counters live: this process's memory (`Quota`, the default), Redis/Valkey shared by
 * any number of instances (./quota-redis.ts), or the cluster primary's memory asked over IPC
 * (./quota-cluster.ts). The in-memory store answers synchronously, so the static files pay no
 * promise for a quota they never count against.
 */
export interface QuotaStore {
  /**
   * `limite`: this call's limit instead of the kind's (the romaneio readings of a key, counted under
   * an id of their own, have a limit of their own); it travels with the call to a shared store, so
   * every instance and the store agree on it without configuring it twice.
   */
  peek(kind: "key" | "ip", id: string, nowMs: number, limite?: number): Talvez<QuotaCheck>;
  consume(kind: "key" | "ip", id: string, nowMs: number, limite?: number): Talvez<QuotaConsumed>;
  /**
   * Gives back one unit a `consume` counted: a reservation (counted before slow work, so two callers
   * racing for the last unit cannot both get it) whose work failed. `nowMs` is the consume's own, so a
   * refund after 00:00 UTC goes to the day that was charged (a past day's count is gone: nothing to
   * give back); `cobranca` is the consume's answer, so a unit a shared store counted locally during an
   * outage is given back where it was counted. A count never goes below zero.
   */
  refund(kind: "key" | "ip", id: string, nowMs: number, cobranca?: QuotaConsumed): Talvez<void>;
  /**
   * A key's requests counted several at once (./quota-lotes.ts spends them without asking again):
   * up to `n`, but never more than 1/FOLGA_LOTE of what the key has left, and one when that is less
   * than two (a small quota is counted one by one, exactly); `concedidas` is how many were counted
   * (0 when refused), `used` the count after them.
   */
  reservar?(kind: "key", id: string, nowMs: number, n: number): Talvez<QuotaLote>;
  /**
   * gives back `n` units of a lease that were not spent, to the day they were counted in (never
   * below zero), and settles `emprestadas` units the lease had out (what its `reservar` reported as
   * out on lease: `concedidas - 1`, the first unit being spent at once)
   */
  devolver?(kind: "key", id: string, nowMs: number, n: number, emprestadas?: number): Talvez<void>;
  close?(): Promise<void>;
}

export type QuotaLote = QuotaConsumed & { concedidas: number };

/** a lease is at most this fraction of what a key has left, so the units other workers hold stay small beside it */
export const FOLGA_LOTE = 64;

/** units of a lease of `concedidas` the store counts as out on lease: all but the first, which is spent at once (none when it is one unit, counted as a plain request) */
export function emprestadasDoLote(concedidas: number): number {
  return concedidas > 1 ? concedidas - 1 : 0;
}

/** how many units a lease of up to `n` gets when `restante` are left (at least 1) */
export function tamanhoDoLote(n: number, restante: number): number {
  return Math.max(1, Math.min(n, Math.floor(restante / FOLGA_LOTE)));
}

/** `f(v)`, at once when `v` is already there, else when it arrives. */
export function seguir<T, R>(v: Talvez<T>, f: (t: T) => Talvez<R>): Talvez<R> {
  return v instanceof Promise ? v.then(f) : f(v);
}

/** the state of a count, for a store that keeps only the number (Redis, the primary's answer) */
export function quotaState(limit: number, used: number, nowMs: number): QuotaState {
  const { allowed: _, ...estado } = quotaContada(limit, used, nowMs, true);
  return estado;
}

/** quotaState with `allowed`, built as one object (a count on every query: no spread of a second one) */
export function quotaContada(limit: number, used: number, nowMs: number, allowed: boolean): QuotaConsumed {
  const resetMs = (Math.floor(nowMs / DAY_MS) + 1) * DAY_MS;
  return {
    limit,
    used,
    remaining: Math.max(0, limit - used),
    reset: resetMs / 1000,
    retryAfter: Math.max(1, Math.ceil((resetMs - nowMs) / 1000)),
    allowed,
  };
}

let diaNumero = NaN;
let diaTexto = "";
/** "AAAA-MM-DD" of the UTC day the quota counts (the last one kept: a shared store asks on every request) */
export function quotaDay(nowMs: number): string {
  const day = Math.floor(nowMs / DAY_MS);
  if (day !== diaNumero) {
    diaTexto = new Date(day * DAY_MS).toISOString().slice(0, 10);
    diaNumero = day;
  }
  return diaTexto;
}

/** FNV-1a, 32 bits, with a seed per sketch row. */
function fnv1a(text: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export class Quota implements QuotaStore {
  readonly freeLimit: number;
  readonly keyLimit: number;
  private readonly maxClients: number;
  private readonly width: number;
  private readonly depth: number;
  private day = -1;
  private readonly exact = new Map<string, number>();
  private readonly keys = new Map<string, number>();
  /** per key, units out on leases not yet settled (counted in `keys` too) */
  private readonly emprestadas = new Map<string, number>();
  private readonly sketch: Uint32Array;
  private sketchUsed = false;

  constructor(opts: QuotaOptions = {}) {
    this.freeLimit = opts.freeLimit ?? 100;
    this.keyLimit = opts.keyLimit ?? 10_000;
    this.maxClients = opts.maxClients ?? 50_000;
    this.width = opts.sketchWidth ?? 65_536;
    this.depth = opts.sketchDepth ?? 4;
    this.sketch = new Uint32Array(this.width * this.depth);
  }

  /** Entries held in the exact table (the sketch is fixed-size). */
  get size(): number {
    return this.exact.size + this.keys.size;
  }

  /**
   * A new UTC day starts every counter at zero. Only forward: a question stamped with an earlier
   * day (a worker's message that crossed midnight, a lease given back just after it) must not wipe
   * the day that has begun; it is answered with today's counts (give-backs and refunds of an
   * earlier day are ignored below).
   */
  private roll(nowMs: number): void {
    const day = Math.floor(nowMs / DAY_MS);
    if (day > this.day) {
      this.day = day;
      this.exact.clear();
      this.keys.clear();
      this.emprestadas.clear();
      if (this.sketchUsed) this.sketch.fill(0);
      this.sketchUsed = false;
    }
  }

  private state(limit: number, used: number, nowMs: number): QuotaState {
    return quotaState(limit, used, nowMs);
  }

  private sketchGet(id: string): number {
    let min = Number.MAX_SAFE_INTEGER;
    for (let r = 0; r < this.depth; r++) min = Math.min(min, this.sketch[r * this.width + (fnv1a(id, r * 0x9e3779b9) % this.width)]!);
    return min;
  }

  private sketchAdd(id: string): number {
    this.sketchUsed = true;
    // conservative update: raise only the counters at the current minimum
    const idx: number[] = [];
    for (let r = 0; r < this.depth; r++) idx.push(r * this.width + (fnv1a(id, r * 0x9e3779b9) % this.width));
    const min = Math.min(...idx.map((i) => this.sketch[i]!));
    for (const i of idx) if (this.sketch[i] === min) this.sketch[i] = min + 1;
    return min + 1;
  }

  private used(kind: "key" | "ip", id: string): number {
    if (kind === "key") return this.keys.get(id) ?? 0;
    return this.exact.get(id) ?? (this.sketchUsed ? this.sketchGet(id) : 0);
  }

  private limite(kind: "key" | "ip", limite: number | undefined): number {
    return limite ?? (kind === "key" ? this.keyLimit : this.freeLimit);
  }

  /** `q` with the key's units out on lease, when it has any (a call with its own limit is not leased) */
  private comEmprestadas<T extends QuotaState>(q: T, kind: "key" | "ip", id: string, limite: number | undefined): T & { emprestadas?: number } {
    if (kind !== "key" || limite !== undefined || this.emprestadas.size === 0) return q;
    const e = this.emprestadas.get(id);
    return e ? { ...q, emprestadas: e } : q;
  }

  /** The client's state without counting a request. */
  peek(kind: "key" | "ip", id: string, nowMs: number, limite?: number): QuotaCheck {
    this.roll(nowMs);
    return this.comEmprestadas(this.state(this.limite(kind, limite), this.used(kind, id), nowMs), kind, id, limite);
  }

  /**
   * Counts one request when the client still has quota; `allowed` false (and nothing counted)
   * when it has none left.
   */
  consume(kind: "key" | "ip", id: string, nowMs: number, limite?: number): QuotaConsumed {
    this.roll(nowMs);
    const limit = this.limite(kind, limite);
    const used = this.used(kind, id);
    if (used >= limit) return this.comEmprestadas(quotaContada(limit, used, nowMs, false), kind, id, limite);
    let now: number;
    if (kind === "key") {
      now = used + 1;
      this.keys.set(id, now);
    } else if (this.exact.has(id) || this.exact.size < this.maxClients) {
      now = used + 1;
      this.exact.set(id, now);
    } else {
      now = this.sketchAdd(id);
    }
    return quotaContada(limit, now, nowMs, true);
  }

  reservar(kind: "key", id: string, nowMs: number, n: number): QuotaLote {
    this.roll(nowMs);
    const limit = this.keyLimit;
    const used = this.used(kind, id);
    if (used >= limit) return this.comEmprestadas({ ...this.state(limit, used, nowMs), allowed: false, concedidas: 0 }, kind, id, undefined);
    const g = tamanhoDoLote(n, limit - used);
    this.keys.set(id, used + g);
    const fora = emprestadasDoLote(g);
    if (fora > 0) this.emprestadas.set(id, (this.emprestadas.get(id) ?? 0) + fora);
    return this.comEmprestadas({ ...this.state(limit, used + g, nowMs), allowed: true, concedidas: g }, kind, id, undefined);
  }

  devolver(_kind: "key", id: string, nowMs: number, n: number, emprestadas = 0): void {
    if (Math.floor(nowMs / DAY_MS) !== this.day) return;
    if (emprestadas > 0) {
      const fora = (this.emprestadas.get(id) ?? 0) - emprestadas;
      if (fora > 0) this.emprestadas.set(id, fora);
      else this.emprestadas.delete(id);
    }
    if (n <= 0) return;
    const used = this.keys.get(id);
    if (used === undefined) return;
    if (used > n) this.keys.set(id, used - n);
    else this.keys.delete(id);
  }

  /**
   * One unit back. An address counted in the sketch gets nothing back: its counters are shared
   * with other addresses, and lowering them could under-count those (the sketch only over-counts).
   */
  refund(kind: "key" | "ip", id: string, nowMs: number): void {
    if (Math.floor(nowMs / DAY_MS) !== this.day) return;
    const tabela = kind === "key" ? this.keys : this.exact;
    const used = tabela.get(id);
    if (used === undefined) return;
    if (used > 1) tabela.set(id, used - 1);
    else tabela.delete(id);
  }
}

/** "::ffff:1.2.3.4" -> "1.2.3.4"; an IPv6 address -> its /64 ("2001:db8:0:1::/64"); null if not an IP. */
export function clientId(address: string): string | null {
  let a = address.trim();
  if (a.startsWith("[") && a.endsWith("]")) a = a.slice(1, -1);
  const zone = a.indexOf("%");
  if (zone >= 0) a = a.slice(0, zone);
  const v = isIP(a);
  if (v === 4) return a;
  if (v !== 6) return null;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(a);
  if (mapped) return mapped[1]!;
  const [head = "", tail = ""] = a.toLowerCase().split("::");
  const h = head ? head.split(":") : [];
  const t = tail ? tail.split(":") : [];
  const groups = a.includes("::") ? [...h, ...Array(8 - h.length - t.length).fill("0"), ...t] : h;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, "")).join(":")}::/64`;
}

/**
 * The client's address: the socket's, or, when `trustedProxies` > 0, the entry that many hops
 * from the right of X-Forwarded-For (each trusted proxy appends the address it saw). A missing or
 * malformed header falls back to the socket address.
 */
export function clientAddress(socketAddress: string | undefined, forwardedFor: string | undefined, trustedProxies: number): string {
  const socket = clientId(socketAddress ?? "") ?? "desconhecido";
  if (trustedProxies <= 0 || !forwardedFor) return socket;
  const hops = forwardedFor.split(",").map((s) => s.trim()).filter(Boolean);
  const candidate = hops[hops.length - trustedProxies];
  return (candidate && clientId(candidate)) || socket;
}
