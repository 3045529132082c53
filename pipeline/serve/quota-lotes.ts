import { quotaState, type QuotaCheck, type QuotaConsumed, type QuotaLote, type QuotaStore, type Talvez } from "./quota.ts";

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
 */
export interface OpcoesLotes {
  /** the most units asked for at once */
  lote?: number;
  /** ms a lease's unspent units are kept before they are given back */
  validadeMs?: number;
}

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
}

type LojaComLotes = QuotaStore & Required<Pick<QuotaStore, "reservar" | "devolver">>;

export class QuotaEmLotes implements QuotaStore {
  private readonly saldos = new Map<string, Saldo>();
  /** a lease being asked for, per key: the requests of that moment wait for it instead of each asking for one */
  private readonly pedidos = new Map<string, Promise<QuotaLote>>();
  private readonly lote: number;
  private readonly validadeMs: number;
  private fechado = false;

  constructor(
    private readonly loja: LojaComLotes,
    opts: OpcoesLotes = {},
  ) {
    this.lote = opts.lote ?? 256;
    this.validadeMs = opts.validadeMs ?? 1000;
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
      const s = c.aviso || c.indisponivel ? undefined : this.vigente(id, nowMs);
      // the store counted this process's unspent units already: they are still the key's
      return s ? { ...c, ...quotaState(c.limit, Math.max(0, c.used - (s.concedidas - s.gastas)), nowMs) } : c;
    };
    return q instanceof Promise ? q.then(mine) : mine(q);
  }

  consume(kind: "key" | "ip", id: string, nowMs: number, limite?: number): Talvez<QuotaConsumed> {
    if (kind !== "key" || limite !== undefined) return this.loja.consume(kind, id, nowMs, limite);
    const s = this.vigente(id, nowMs);
    if (s && s.gastas < s.concedidas) {
      s.gastas++;
      return { ...quotaState(s.limit, s.base + s.gastas, nowMs), allowed: true };
    }
    const pedido = this.pedidos.get(id);
    // the lease on its way may cover this request too; if it is spent by then, ask again
    if (pedido) return pedido.then(() => this.consume(kind, id, nowMs));
    const novo = Promise.resolve(this.loja.reservar("key", id, nowMs, this.lote)).finally(() => this.pedidos.delete(id));
    this.pedidos.set(id, novo);
    return novo.then((r) => {
      if (!r.allowed || r.concedidas <= 1 || r.aviso || r.indisponivel) {
        // counted one by one: the store's own answer
        return { ...r, ...quotaState(r.limit, r.used, nowMs) };
      }
      const saldo: Saldo = { dia: Math.floor(nowMs / DAY_MS), limit: r.limit, base: r.used - r.concedidas, concedidas: r.concedidas, gastas: 1, desde: nowMs };
      this.saldos.set(id, saldo);
      const t = setTimeout(() => this.expirar(id, saldo), this.validadeMs);
      t.unref();
      return { ...quotaState(r.limit, saldo.base + 1, nowMs), allowed: true };
    });
  }

  /** a lease not spent in time gives its units back, so other processes can serve the key's last ones */
  private expirar(id: string, saldo: Saldo): Talvez<void> {
    if (this.saldos.get(id) === saldo) this.saldos.delete(id);
    const resto = saldo.concedidas - saldo.gastas;
    if (resto <= 0) return;
    saldo.gastas = saldo.concedidas;
    return Promise.resolve(this.loja.devolver("key", id, saldo.desde, resto)).catch(() => undefined);
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
