import { emprestadasDoLote, quotaContada, quotaState, type QuotaCheck, type QuotaConsumed, type QuotaLote, type QuotaStore, type Talvez } from "./quota.ts";

/**
 * A key's quota counted in leases, in front of a shared store (the cluster primary, Redis): the
 * store counts a lease of units at once (`reservar`) and this process spends them without asking
 * again, so a key's request costs no round trip most of the time. It never lets a key past its
 * limit: every unit spent here was counted in the store first. What it costs instead:
 * - a lease is at most 1/FOLGA_LOTE of what the key has left (tamanhoDoLote), and a key with
 *   less than FOLGA_LOTE × 2 left is counted one unit at a time, exactly as without leases (the
 *   address quota, 100 a day, always is: addresses are not leased);
 * - units another process holds are counted but not yet spent: near the end of its day a key may
 *   be refused a little early, by at most what the others hold, and only until they give their
 *   unspent units back (after `validadeMs`, or at shutdown);
 * - X-RateLimit-Remaining is this process's view: the count when its lease was taken, plus what it
 *   spent since (what other processes spent meanwhile shows on its next lease).
 * Calls with their own limit (the romaneio readings) and addresses go to the store as they are.
 *
 * A refusal tells the two cases apart: the store counts, per key, the units out on leases not yet
 * settled (every lease is settled when it is given back, spent or not; a process that died is
 * settled by the primary at its exit, or forgotten by Redis a few seconds after its last lease).
 * When a key has nothing left but other processes hold such units, some may come back: the answer
 * says so (`emUso`), with `retryAfter` the give-back time (1 s) instead of the seconds to 00:00 UTC.
 */
export interface OpcoesLotes {
  /** the most units asked for at once (LOTE_MAXIMO) */
  lote?: number;
  /** ms a lease's unspent units are kept before they are given back */
  validadeMs?: number;
}

/**
 * The most units a lease counts at once. Below FOLGA_LOTE × this many left (131 072), the
 * 1/FOLGA_LOTE rule is the smaller one: a key of the default 10 000 a day leases 156 at most, and
 * what a refusal near the day's end may wait for is bounded by that rule, not by this. Above, for
 * keys given a larger quota, this bounds how often a busy key asks the store: at 20 thousand
 * queries a second per worker, a lease of 256 was a message to the primary every 13 ms per worker
 * and 4 % of the CPU of a query in a cluster; 2048 is one every 100 ms.
 */
export const LOTE_MAXIMO = 2048;
const DAY_MS = 86_400_000;
const ESPERA_DEVOLUCAO_MS = 1000;

interface Saldo {
  dia: number;
  limit: number;
  /** the store's count before the lease */
  base: number;
  concedidas: number;
  gastas: number;
  /** when the lease was counted (its day, for giving back) */
  desde: number;
  /** settled with the store (given back): once only, whether by its timer or at shutdown */
  liquidado?: boolean;
}

type LojaComLotes = QuotaStore & Required<Pick<QuotaStore, "reservar" | "devolver">>;

export class QuotaEmLotes implements QuotaStore {
  private readonly saldos = new Map<string, Saldo>();
  /** a lease being asked for, per key: the requests of that moment wait for it instead of each asking for one */
  private readonly pedidos = new Map<string, Promise<QuotaLote>>();
  /** per key, the units this process's unsettled leases have out in the store's count (spent or not) */
  private readonly abertas = new Map<string, number>();
  private readonly lote: number;
  private readonly validadeMs: number;
  /** Retry-After of a refusal while units are out on lease elsewhere: the give-back time, in whole seconds */
  private readonly retryEmUso: number;
  private fechado = false;

  constructor(
    private readonly loja: LojaComLotes,
    opts: OpcoesLotes = {},
  ) {
    this.lote = opts.lote ?? LOTE_MAXIMO;
    this.validadeMs = opts.validadeMs ?? 1000;
    this.retryEmUso = Math.max(1, Math.ceil(this.validadeMs / 1000));
  }

  /**
   * The store's answer as this process tells it: `usadas` (the count less this process's unspent
   * units), and a refusal marked passing when units are out on lease in other processes (the
   * store's units out, less this process's own leases: the ones it spent whole are spent for good).
   */
  private ver<T extends QuotaCheck>(c: T, id: string, usadas: number, nowMs: number): T {
    const alheias = Math.max(0, (c.emprestadas ?? 0) - (this.abertas.get(id) ?? 0));
    const q: T = { ...c, ...quotaState(c.limit, usadas, nowMs) };
    if (alheias > 0) q.emprestadas = alheias;
    else delete q.emprestadas;
    if (q.remaining <= 0 && alheias > 0) {
      q.emUso = true;
      q.retryAfter = this.retryEmUso;
    }
    return q;
  }

  /** what this process holds unspent for the key (today's lease) */
  private vigente(id: string, nowMs: number): Saldo | undefined {
    const s = this.saldos.get(id);
    if (!s) return undefined;
    if (s.dia !== Math.floor(nowMs / DAY_MS)) {
      // yesterday's counter is gone with its day: nothing to give back
      this.saldos.delete(id);
      return undefined;
    }
    return s;
  }

  peek(kind: "key" | "ip", id: string, nowMs: number, limite?: number): Talvez<QuotaCheck> {
    const q = this.loja.peek(kind, id, nowMs, limite);
    if (kind !== "key" || limite !== undefined) return q;
    const mine = (c: QuotaCheck): QuotaCheck => {
      // a local count (the shared store down) never held this process's lease
      if (c.aviso || c.indisponivel) return c;
      const s = this.vigente(id, nowMs);
      // the store counted this process's unspent units already: they are still the key's
      return this.ver(c, id, s ? Math.max(0, c.used - (s.concedidas - s.gastas)) : c.used, nowMs);
    };
    return q instanceof Promise ? q.then(mine) : mine(q);
  }

  consume(kind: "key" | "ip", id: string, nowMs: number, limite?: number): Talvez<QuotaConsumed> {
    if (kind !== "key" || limite !== undefined) return this.loja.consume(kind, id, nowMs, limite);
    const s = this.vigente(id, nowMs);
    if (s && s.gastas < s.concedidas) {
      s.gastas++;
      const r = quotaContada(s.limit, s.base + s.gastas, nowMs, true);
      // spent whole: settled now, not at its timer, so the store stops counting its units as out on
      // lease (another process refused meanwhile would say "back within a second" of units spent)
      if (s.gastas === s.concedidas) void this.expirar(id, s);
      return r;
    }
    const pedido = this.pedidos.get(id);
    // the lease on its way may cover this request too; if it is spent by then, ask again
    if (pedido) return pedido.then(() => this.consume(kind, id, nowMs));
    const novo = Promise.resolve(this.loja.reservar("key", id, nowMs, this.lote)).finally(() => this.pedidos.delete(id));
    this.pedidos.set(id, novo);
    return novo.then((r) => {
      // a local count (the shared store down) never held a lease
      if (r.aviso || r.indisponivel) return { ...r, ...quotaState(r.limit, r.used, nowMs) };
      // counted one by one: the store's own answer
      if (!r.allowed || r.concedidas <= 1) return this.ver(r, id, r.used, nowMs);
      const saldo: Saldo = { dia: Math.floor(nowMs / DAY_MS), limit: r.limit, base: r.used - r.concedidas, concedidas: r.concedidas, gastas: 1, desde: nowMs };
      this.saldos.set(id, saldo);
      this.abertas.set(id, (this.abertas.get(id) ?? 0) + emprestadasDoLote(r.concedidas));
      const t = setTimeout(() => this.expirar(id, saldo), this.validadeMs);
      t.unref();
      return { ...quotaState(r.limit, saldo.base + 1, nowMs), allowed: true };
    });
  }

  /**
   * a lease not spent in time gives its units back, so other processes can serve the key's last
   * ones; one spent whole is settled all the same (at once: see consume), so the store stops
   * counting its units as out on lease
   */
  private expirar(id: string, saldo: Saldo): Talvez<void> {
    if (this.saldos.get(id) === saldo) this.saldos.delete(id);
    if (saldo.liquidado) return;
    saldo.liquidado = true;
    const resto = saldo.concedidas - saldo.gastas;
    saldo.gastas = saldo.concedidas;
    const fora = emprestadasDoLote(saldo.concedidas);
    // this process's count of its own units out drops once the store has them back (a lease asked
    // for meanwhile is answered after the give-back, and must not see them twice)
    const liquidar = () => {
      const n = (this.abertas.get(id) ?? 0) - fora;
      if (n > 0) this.abertas.set(id, n);
      else this.abertas.delete(id);
    };
    return Promise.resolve(this.loja.devolver("key", id, saldo.desde, resto, fora)).then(liquidar, liquidar);
  }

  refund(kind: "key" | "ip", id: string, nowMs: number, cobranca?: QuotaConsumed): Talvez<void> {
    return this.loja.refund(kind, id, nowMs, cobranca);
  }

  /**
   * Gives back every unspent unit, then closes the store. A store that does not answer (a primary
   * already stopping) is waited for at most `ESPERA_DEVOLUCAO_MS`: the units are then lost to the
   * key for the day, which costs the client, never the limit.
   */
  async close(): Promise<void> {
    if (this.fechado) return;
    this.fechado = true;
    let t: NodeJS.Timeout | undefined;
    const limite = new Promise<void>((resolve) => {
      t = setTimeout(resolve, ESPERA_DEVOLUCAO_MS);
      t.unref();
    });
    await Promise.race([Promise.all([...this.saldos].map(([id, s]) => this.expirar(id, s))), limite]);
    clearTimeout(t);
    await this.loja.close?.();
  }
}
