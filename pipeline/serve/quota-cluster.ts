import cluster, { type Worker } from "node:cluster";
import type { Quota, QuotaCheck, QuotaConsumed, QuotaStore } from "./quota.ts";

/**
 * The quota of a cluster without Redis (`npm start -- --workers N`): the primary holds the one
 * in-memory `Quota` and the workers ask it over the cluster's IPC channel, one message per
 * question with an id, so a client has one count whichever worker answers it.
 */
interface Pergunta {
  cota: "pergunta";
  id: number;
  op: "peek" | "consume";
  kind: "key" | "ip";
  cliente: string;
  agora: number;
}
interface Resposta {
  cota: "resposta";
  id: number;
  estado: QuotaConsumed | QuotaCheck;
}

function ePergunta(m: unknown): m is Pergunta {
  return typeof m === "object" && m !== null && (m as Pergunta).cota === "pergunta";
}

/** In the primary: answers every worker's questions from `quota`. Returns a function that stops answering. */
export function servirCotaNoPrimario(quota: Quota): () => void {
  const onMessage = (worker: Worker, m: unknown) => {
    if (!ePergunta(m)) return;
    const estado = m.op === "consume" ? quota.consume(m.kind, m.cliente, m.agora) : quota.peek(m.kind, m.cliente, m.agora);
    if (worker.isConnected()) worker.send({ cota: "resposta", id: m.id, estado } satisfies Resposta);
  };
  cluster.on("message", onMessage);
  return () => void cluster.off("message", onMessage);
}

/** In a worker: the store that asks the primary. */
export class PrimaryQuota implements QuotaStore {
  private seq = 0;
  private readonly pendentes = new Map<number, { resolve: (e: QuotaConsumed) => void; reject: (e: Error) => void }>();
  private readonly onMessage = (m: unknown) => {
    if (typeof m !== "object" || m === null || (m as Resposta).cota !== "resposta") return;
    const r = m as Resposta;
    const p = this.pendentes.get(r.id);
    if (!p) return;
    this.pendentes.delete(r.id);
    p.resolve(r.estado as QuotaConsumed);
  };
  private readonly onDisconnect = () => {
    for (const p of this.pendentes.values()) p.reject(new Error("o processo primário do cluster não responde (canal IPC fechado)"));
    this.pendentes.clear();
  };

  constructor() {
    if (!process.send) throw new Error("PrimaryQuota: este processo não é um worker do cluster (sem canal IPC)");
    process.on("message", this.onMessage);
    process.on("disconnect", this.onDisconnect);
  }

  private perguntar(op: Pergunta["op"], kind: "key" | "ip", cliente: string, agora: number): Promise<QuotaConsumed> {
    return new Promise((resolve, reject) => {
      const id = ++this.seq;
      this.pendentes.set(id, { resolve, reject });
      const msg: Pergunta = { cota: "pergunta", id, op, kind, cliente, agora };
      process.send!(msg, undefined, undefined, (err) => {
        if (!err) return;
        this.pendentes.delete(id);
        reject(err);
      });
    });
  }

  peek(kind: "key" | "ip", id: string, nowMs: number): Promise<QuotaCheck> {
    return this.perguntar("peek", kind, id, nowMs);
  }

  consume(kind: "key" | "ip", id: string, nowMs: number): Promise<QuotaConsumed> {
    return this.perguntar("consume", kind, id, nowMs);
  }

  async close(): Promise<void> {
    process.off("message", this.onMessage);
    process.off("disconnect", this.onDisconnect);
  }
}
