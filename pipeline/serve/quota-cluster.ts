import cluster, { type Worker } from "node:cluster";
import { emprestadasDoLote, quotaState, type Quota, type QuotaCheck, type QuotaConsumed, type QuotaLote, type QuotaStore } from "./quota.ts";

/**
 * The quota of a cluster without Redis (`npm start -- --workers N`): the primary holds the one
 * in-memory `Quota` and the workers ask it over the cluster's IPC channel, so a client has one
 * count whichever worker answers it. Each question carries an id; the questions a worker asks in
 * one turn of its event loop travel as one message and come back as one (under load, dozens of
 * requests share a round trip instead of paying a pipe write and a wake-up each).
 */
/**
 * [id, 1 = consume | 0 = peek | 2 = refund | 3 = lease | 4 = give a lease's units back, 1 = key | 0 = ip,
 * client id, ms, the call's limit (-1: the kind's; 3 and 4: how many units), 4: the lease's units it settles]
 */
type Pergunta = [number, 0 | 1 | 2 | 3 | 4, 0 | 1, string, number, number, number?];
/** [id, limit, used, 1 = allowed | 0 = refused (peek: 1), units counted (a lease's; else 1 when allowed), units of used out on lease] */
type Resposta = [number, number, number, 0 | 1, number, number];
interface Lote {
  cota: "perguntas" | "respostas";
  itens: (Pergunta | Resposta)[];
}

function eLote(m: unknown, tipo: Lote["cota"]): m is Lote {
  return typeof m === "object" && m !== null && (m as Lote).cota === tipo && Array.isArray((m as Lote).itens);
}

/**
 * In the primary: answers every worker's questions from `quota`. Returns a function that stops answering.
 * It keeps, per worker, the units out on its leases not yet settled: a worker that dies never settles
 * them, and what it did not spend of them cannot be told (giving them back could serve a key past
 * its limit), so at its exit they are settled as spent: the key's refusals then say 00:00 UTC, not
 * "back within a second".
 */
export function servirCotaNoPrimario(quota: Quota): () => void {
  /** per worker: key -> [units out on lease, ms of the latest lease (its day)] */
  const fora = new Map<object, Map<string, [number, number]>>();
  const anotar = (worker: object, cliente: string, agora: number, n: number) => {
    let porChave = fora.get(worker);
    if (!porChave) fora.set(worker, (porChave = new Map()));
    const [antes = 0] = porChave.get(cliente) ?? [];
    if (antes + n > 0) porChave.set(cliente, [antes + n, agora]);
    else porChave.delete(cliente);
  };
  const onMessage = (worker: Worker, m: unknown) => {
    if (!eLote(m, "perguntas")) return;
    const itens: Resposta[] = [];
    for (const [id, op, k, cliente, agora, lim, lote = 0] of m.itens as Pergunta[]) {
      const kind = k === 1 ? "key" : "ip";
      if (op === 3 && kind === "key") {
        const e = quota.reservar("key", cliente, agora, lim);
        if (e.allowed && emprestadasDoLote(e.concedidas) > 0) anotar(worker, cliente, agora, emprestadasDoLote(e.concedidas));
        itens.push([id, e.limit, e.used, e.allowed ? 1 : 0, e.concedidas, e.emprestadas ?? 0]);
        continue;
      }
      const limite = lim >= 0 && op !== 4 ? lim : undefined;
      if (op === 2) quota.refund(kind, cliente, agora);
      if (op === 4 && kind === "key") {
        quota.devolver("key", cliente, agora, lim, lote);
        if (lote > 0) anotar(worker, cliente, agora, -lote);
      }
      // a refund's answer is the state after it (the worker only waits for it)
      const e = op === 1 ? quota.consume(kind, cliente, agora, limite) : { ...quota.peek(kind, cliente, agora, limite), allowed: true };
      itens.push([id, e.limit, e.used, e.allowed ? 1 : 0, op === 1 && e.allowed ? 1 : 0, e.emprestadas ?? 0]);
    }
    if (worker.isConnected()) worker.send({ cota: "respostas", itens } satisfies Lote);
  };
  const onExit = (worker: Worker) => {
    const porChave = fora.get(worker);
    fora.delete(worker);
    for (const [cliente, [n, agora]] of porChave ?? []) quota.devolver("key", cliente, agora, 0, n);
  };
  cluster.on("message", onMessage);
  cluster.on("exit", onExit);
  return () => {
    cluster.off("message", onMessage);
    cluster.off("exit", onExit);
  };
}

interface Pendente {
  agora: number;
  resolve: (e: QuotaLote) => void;
  reject: (e: Error) => void;
}

/** In a worker: the store that asks the primary. */
export class PrimaryQuota implements QuotaStore {
  private seq = 0;
  private readonly pendentes = new Map<number, Pendente>();
  private lote: Pergunta[] = [];
  private readonly onMessage = (m: unknown) => {
    if (!eLote(m, "respostas")) return;
    for (const [id, limit, used, allowed, concedidas, emprestadas] of m.itens as Resposta[]) {
      const p = this.pendentes.get(id);
      if (!p) continue;
      this.pendentes.delete(id);
      const e: QuotaLote = { ...quotaState(limit, used, p.agora), allowed: allowed === 1, concedidas };
      if (emprestadas > 0) e.emprestadas = emprestadas;
      p.resolve(e);
    }
  };
  private readonly onDisconnect = () => this.falhar(new Error("o processo primário do cluster não responde (canal IPC fechado)"));
  private readonly enviar = () => {
    const itens = this.lote;
    this.lote = [];
    process.send!({ cota: "perguntas", itens } satisfies Lote, undefined, undefined, (err) => {
      if (err) this.falhar(err, itens);
    });
  };

  constructor() {
    if (!process.send) throw new Error("PrimaryQuota: este processo não é um worker do cluster (sem canal IPC)");
    process.on("message", this.onMessage);
    process.on("disconnect", this.onDisconnect);
  }

  private falhar(err: Error, itens?: Pergunta[]): void {
    const ids = itens ? itens.map((p) => p[0]) : [...this.pendentes.keys()];
    for (const id of ids) {
      this.pendentes.get(id)?.reject(err);
      this.pendentes.delete(id);
    }
  }

  private perguntar(op: Pergunta[1], kind: "key" | "ip", cliente: string, agora: number, limite = -1, lote?: number): Promise<QuotaLote> {
    return new Promise((resolve, reject) => {
      const id = ++this.seq;
      this.pendentes.set(id, { agora, resolve, reject });
      const p: Pergunta = [id, op, kind === "key" ? 1 : 0, cliente, agora, limite];
      if (lote) p.push(lote);
      // the first question of a turn schedules the message; the rest of the turn joins it
      if (this.lote.push(p) === 1) setImmediate(this.enviar);
    });
  }

  peek(kind: "key" | "ip", id: string, nowMs: number, limite?: number): Promise<QuotaCheck> {
    return this.perguntar(0, kind, id, nowMs, limite);
  }

  consume(kind: "key" | "ip", id: string, nowMs: number, limite?: number): Promise<QuotaConsumed> {
    return this.perguntar(1, kind, id, nowMs, limite);
  }

  async refund(kind: "key" | "ip", id: string, nowMs: number): Promise<void> {
    await this.perguntar(2, kind, id, nowMs);
  }

  reservar(kind: "key", id: string, nowMs: number, n: number): Promise<QuotaLote> {
    return this.perguntar(3, kind, id, nowMs, n);
  }

  async devolver(kind: "key", id: string, nowMs: number, n: number, emprestadas?: number): Promise<void> {
    await this.perguntar(4, kind, id, nowMs, n, emprestadas);
  }

  async close(): Promise<void> {
    process.off("message", this.onMessage);
    process.off("disconnect", this.onDisconnect);
  }
}
