import { Redis } from "ioredis";
import { PipelineError } from "../domain/errors.ts";
import { FOLGA_LOTE, Quota, quotaDay, quotaState, type QuotaCheck, type QuotaConsumed, type QuotaLote, type QuotaOptions, type QuotaStore } from "./quota.ts";

/**
 * Quota counters in Redis/Valkey (COTACAO_REDIS_URL), shared by every instance that points at it:
 * one counter per client and UTC day, `cotacao:cota:AAAA-MM-DD:ip:<address or /64>` or
 * `…:chave:<sha-256 of the key>` (a key is never stored in plain text), expiring at the next
 * 00:00 UTC. Counting is one round trip: a Lua script checks the limit (the call's own when it
 * names one, as the romaneio readings do), increments and sets the expiry atomically, so two
 * instances racing for a client's last request cannot both win; a refund is another script, that
 * never takes a counter below zero.
 *
 * When Redis cannot be reached (refused, timed out, not yet connected) nothing waits for it:
 * the client has no offline queue and short timeouts, and never sends a command again. What happens then
 * is `falha`:
 * - "abrir" (the default): each instance counts on its own in memory, with the same limits, and
 *   every answer says so (X-Cotacao-Aviso: cota-local; redis-indisponivel). The data is public
 *   and the same as the static files; an outage of the quota's store must not become an outage
 *   of the prices, and the extra a client can get is bounded (one day's limit per instance) and
 *   announced.
 * - "fechar": the query routes answer 503 until Redis is back; static files are still served.
 * The log gets one line when an outage starts (the URL without its password, and the error) and
 * one when Redis is back.
 */
export type FalhaRedis = "abrir" | "fechar";

export interface RedisQuotaOptions extends QuotaOptions {
  url: string;
  falha?: FalhaRedis;
  /** key prefix (tests isolate themselves with one of their own) */
  prefixo?: string;
  log?: (linha: string) => void;
  /** ms to connect and per command; small, so a request never waits long on a dead Redis */
  timeoutMs?: number;
  /**
   * ms a key's units out on lease are remembered after its latest lease, unless settled first: the
   * bound for a process that died holding one (its refusals say "back within a second" until then)
   */
  prazoLotesMs?: number;
}

/** the default of `prazoLotesMs`: a few give-back periods (1 s) of the leases */
export const PRAZO_LOTES_MS = 5_000;

export const AVISO_COTA_LOCAL = "cota-local; redis-indisponivel";

// GET, compare, INCR and EXPIREAT in one atomic step: refused requests are not counted
const CONSUMIR = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used >= tonumber(ARGV[1]) then return {0, used} end
used = redis.call('INCR', KEYS[1])
redis.call('EXPIREAT', KEYS[1], ARGV[2])
return {1, used}
`;

// a unit given back: never below zero, and never a counter that is gone (expired at 00:00 UTC)
// brought back as -1; DECR keeps the key's expiry
const DEVOLVER = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used <= 0 then return 0 end
return redis.call('DECR', KEYS[1])
`;

// a lease (./quota-lotes.ts): up to ARGV[3] units, at most 1/ARGV[4] of what is left, at least one;
// KEYS[2] counts the units out on leases not yet settled (all of a lease's but the first, spent at
// once), expiring ARGV[5] ms after the latest lease (a process that died never settles its own)
const RESERVAR = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local limit = tonumber(ARGV[1])
if used >= limit then return {0, used, tonumber(redis.call('GET', KEYS[2]) or '0')} end
local n = math.max(1, math.min(tonumber(ARGV[3]), math.floor((limit - used) / tonumber(ARGV[4]))))
used = redis.call('INCRBY', KEYS[1], n)
redis.call('EXPIREAT', KEYS[1], ARGV[2])
local fora = tonumber(redis.call('GET', KEYS[2]) or '0')
if n > 1 then
  fora = redis.call('INCRBY', KEYS[2], n - 1)
  redis.call('PEXPIRE', KEYS[2], ARGV[5])
end
return {n, used, fora}
`;

// a lease's unspent units (ARGV[1]) back, never below zero, never a counter that is gone; and its
// units out on lease (ARGV[2]) settled
const DEVOLVER_LOTE = `
local fora = tonumber(redis.call('GET', KEYS[2]) or '0')
local e = tonumber(ARGV[2])
if e > 0 and fora > 0 then
  if fora > e then redis.call('DECRBY', KEYS[2], e) else redis.call('DEL', KEYS[2]) end
end
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local n = tonumber(ARGV[1])
if used <= 0 or n <= 0 then return used end
return redis.call('DECRBY', KEYS[1], math.min(used, n))
`;

type RedisComCota = Redis & {
  cotaConsumir(key: string, limit: number, expireAt: number): Promise<[number, number]>;
  cotaDevolver(key: string): Promise<number>;
  cotaReservar(key: string, fora: string, limit: number, expireAt: number, n: number, folga: number, prazoMs: number): Promise<[number, number, number]>;
  cotaDevolverLote(key: string, fora: string, n: number, emprestadas: number): Promise<number>;
};

/** Checks COTACAO_REDIS_URL: redis:// or rediss://, a host, an optional numeric database. */
export function validarRedisUrl(texto: string): URL {
  const erro = (motivo: string) =>
    new PipelineError({ stage: "config", reason: `COTACAO_REDIS_URL inválida: ${motivo} (use redis://[usuário:senha@]host[:porta][/banco] ou rediss://…)` });
  let u: URL;
  try {
    u = new URL(texto.trim());
  } catch {
    throw erro(`"${semSenha(texto)}" não é uma URL`);
  }
  if (u.protocol !== "redis:" && u.protocol !== "rediss:") throw erro(`protocolo "${u.protocol}" (esperado redis: ou rediss:)`);
  if (!u.hostname) throw erro("falta o host");
  if (u.pathname && u.pathname !== "/" && !/^\/\d+$/.test(u.pathname)) throw erro(`banco "${u.pathname.slice(1)}" não é um número`);
  return u;
}

/** the URL as it may be logged: the password never is */
export function semSenha(texto: string): string {
  try {
    const u = new URL(texto);
    if (u.password) u.password = "***";
    return u.href;
  } catch {
    return texto.replace(/\/\/[^@/]*@/, "//***@");
  }
}

function motivo(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return [e.code, e.message].filter(Boolean).join(": ") || String(err);
}

export class RedisQuota implements QuotaStore {
  readonly freeLimit: number;
  readonly keyLimit: number;
  readonly falha: FalhaRedis;
  private readonly redis: RedisComCota;
  private readonly local: Quota;
  private readonly prefixo: string;
  private readonly log: (linha: string) => void;
  private readonly urlLog: string;
  private readonly prazoLotesMs: number;
  /** in an outage (logged once when it starts, once when it ends) */
  private fora = false;
  private fechado = false;

  constructor(opts: RedisQuotaOptions) {
    const url = validarRedisUrl(opts.url);
    this.freeLimit = opts.freeLimit ?? 100;
    this.keyLimit = opts.keyLimit ?? 10_000;
    this.falha = opts.falha ?? "abrir";
    this.prefixo = opts.prefixo ?? "cotacao:cota";
    this.log = opts.log ?? ((l) => console.error(l));
    this.urlLog = semSenha(url.href);
    this.prazoLotesMs = opts.prazoLotesMs ?? PRAZO_LOTES_MS;
    this.local = new Quota(opts);
    const timeout = opts.timeoutMs ?? 500;
    this.redis = new Redis(url.href, {
      connectTimeout: timeout * 2,
      commandTimeout: timeout,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      // a command whose reply was lost may have run: sent again after a reconnect, a give-back
      // would be counted twice (a key past its limit); lost, it fails, and failing is the safe side
      autoResendUnfulfilledCommands: false,
      // reconnect forever in the background (so the outage ends by itself), never faster than 5/s
      retryStrategy: (n) => Math.min(200 * n, 2000),
      lazyConnect: true,
      // the commands of one event-loop turn share one write: under load, one round trip for many requests
      enableAutoPipelining: true,
    }) as RedisComCota;
    this.redis.defineCommand("cotaConsumir", { numberOfKeys: 1, lua: CONSUMIR });
    this.redis.defineCommand("cotaDevolver", { numberOfKeys: 1, lua: DEVOLVER });
    this.redis.defineCommand("cotaReservar", { numberOfKeys: 2, lua: RESERVAR });
    this.redis.defineCommand("cotaDevolverLote", { numberOfKeys: 2, lua: DEVOLVER_LOTE });
    this.redis.on("error", (err) => this.queda(err));
    // a server that dies closes the connection before any command fails: that is the outage's start
    this.redis.on("close", () => this.queda(new Error("conexão fechada")));
    this.redis.on("ready", () => this.volta());
  }

  private volta(): void {
    if (!this.fora) return;
    this.fora = false;
    this.log(`[cota] Redis de volta em ${this.urlLog}: a cota volta a ser compartilhada`);
  }

  /** Connects (waiting at most the connect timeout); an unreachable Redis is an outage from the start, not an error. */
  async conectar(): Promise<this> {
    await this.redis.connect().catch((err) => this.queda(err));
    return this;
  }

  private queda(err: unknown): void {
    if (this.fora || this.fechado) return;
    this.fora = true;
    const efeito =
      this.falha === "abrir"
        ? "cada instância conta a cota sozinha, em memória, até ele voltar (COTACAO_REDIS_FALHA=abrir)"
        : "as consultas respondem 503 até ele voltar (COTACAO_REDIS_FALHA=fechar)";
    this.log(`[cota] Redis indisponível em ${this.urlLog} (${motivo(err)}): ${efeito}`);
  }

  private chave(kind: "key" | "ip", id: string, nowMs: number): string {
    return `${this.prefixo}:${quotaDay(nowMs)}:${kind === "key" ? "chave" : "ip"}:${id}`;
  }

  /** the units of a key's counter out on leases not yet settled */
  private chaveFora(id: string, nowMs: number): string {
    return `${this.prefixo}:${quotaDay(nowMs)}:lotes:${id}`;
  }

  private limite(kind: "key" | "ip", limite: number | undefined): number {
    return limite ?? (kind === "key" ? this.keyLimit : this.freeLimit);
  }

  private pronto(): boolean {
    return this.redis.status === "ready";
  }

  private peekLocal(kind: "key" | "ip", id: string, nowMs: number, limite: number | undefined): QuotaCheck {
    const q = this.local.peek(kind, id, nowMs, limite);
    return this.falha === "abrir" ? { ...q, aviso: AVISO_COTA_LOCAL } : { ...q, indisponivel: true };
  }

  private consumeLocal(kind: "key" | "ip", id: string, nowMs: number, limite: number | undefined): QuotaConsumed {
    if (this.falha === "fechar") return { ...this.local.peek(kind, id, nowMs, limite), allowed: false, indisponivel: true };
    return { ...this.local.consume(kind, id, nowMs, limite), aviso: AVISO_COTA_LOCAL };
  }

  async peek(kind: "key" | "ip", id: string, nowMs: number, limite?: number): Promise<QuotaCheck> {
    if (!this.pronto()) return this.peekLocal(kind, id, nowMs, limite);
    try {
      if (kind === "key" && limite === undefined) {
        // a key's count and its units out on lease, read together
        const [v, fora] = await this.redis.mget(this.chave(kind, id, nowMs), this.chaveFora(id, nowMs));
        if (this.fora) this.volta();
        const q: QuotaCheck = quotaState(this.limite(kind, limite), Number(v ?? 0), nowMs);
        if (Number(fora ?? 0) > 0) q.emprestadas = Number(fora);
        return q;
      }
      const v = await this.redis.get(this.chave(kind, id, nowMs));
      if (this.fora) this.volta();
      return quotaState(this.limite(kind, limite), Number(v ?? 0), nowMs);
    } catch (err) {
      this.queda(err);
      return this.peekLocal(kind, id, nowMs, limite);
    }
  }

  async consume(kind: "key" | "ip", id: string, nowMs: number, limite?: number): Promise<QuotaConsumed> {
    if (!this.pronto()) return this.consumeLocal(kind, id, nowMs, limite);
    const limit = this.limite(kind, limite);
    const state = quotaState(limit, 0, nowMs);
    try {
      const [allowed, used] = await this.redis.cotaConsumir(this.chave(kind, id, nowMs), limit, state.reset);
      if (this.fora) this.volta();
      return { ...quotaState(limit, used, nowMs), allowed: allowed === 1 };
    } catch (err) {
      this.queda(err);
      return this.consumeLocal(kind, id, nowMs, limite);
    }
  }

  /** a lease; with Redis out of reach, the answer of `consume` (one unit, counted locally, never leased) */
  async reservar(kind: "key", id: string, nowMs: number, n: number): Promise<QuotaLote> {
    if (!this.pronto()) return this.umaDoLocal(kind, id, nowMs);
    const limit = this.keyLimit;
    try {
      const [g, used, fora] = await this.redis.cotaReservar(
        this.chave(kind, id, nowMs),
        this.chaveFora(id, nowMs),
        limit,
        quotaState(limit, 0, nowMs).reset,
        n,
        FOLGA_LOTE,
        this.prazoLotesMs,
      );
      if (this.fora) this.volta();
      const q: QuotaLote = { ...quotaState(limit, used, nowMs), allowed: g > 0, concedidas: g };
      if (fora > 0) q.emprestadas = fora;
      return q;
    } catch (err) {
      this.queda(err);
      return this.umaDoLocal(kind, id, nowMs);
    }
  }

  private umaDoLocal(kind: "key", id: string, nowMs: number): QuotaLote {
    const q = this.consumeLocal(kind, id, nowMs, undefined);
    return { ...q, concedidas: q.allowed ? 1 : 0 };
  }

  /** a lease's unspent units back; dropped when Redis cannot take them (the client then loses them: never the other way) */
  async devolver(kind: "key", id: string, nowMs: number, n: number, emprestadas = 0): Promise<void> {
    if (!this.pronto()) return;
    try {
      await this.redis.cotaDevolverLote(this.chave(kind, id, nowMs), this.chaveFora(id, nowMs), n, emprestadas);
      if (this.fora) this.volta();
    } catch (err) {
      this.queda(err);
    }
  }

  /**
   * One unit back, where it was counted: a unit counted locally during an outage (its answer
   * carried the warning) is given back locally. A refund Redis cannot take (it went down since)
   * is dropped: the caller paid once for a reading that failed, which the store cannot make up
   * for without a queue of refunds; it is logged as part of the outage.
   */
  async refund(kind: "key" | "ip", id: string, nowMs: number, cobranca?: QuotaConsumed): Promise<void> {
    if (cobranca?.aviso) return this.local.refund(kind, id, nowMs);
    if (!this.pronto()) return;
    try {
      await this.redis.cotaDevolver(this.chave(kind, id, nowMs));
      if (this.fora) this.volta();
    } catch (err) {
      this.queda(err);
    }
  }

  async close(): Promise<void> {
    this.fechado = true;
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
