import cluster, { type Worker } from "node:cluster";
import { Versoes, type Coordenacao, type FileCache } from "./files.ts";

/**
 * The files of a cluster (`npm start -- --workers N`) never go back from new to old for a client
 * whose requests land on different workers. Each worker keeps its own cache of public/ and checks
 * a file on disk at most once a second, so without this, after a publish one worker served the new
 * bytes while another still had the old ones for up to a second (a price going new, old, new).
 *
 * A worker about to hand out a version of a file it has not handed out yet tells the primary and
 * waits. When that version is new to the cluster (another version of the file was handed out
 * before, or the site root changed: a publish), the primary tells every other worker to check all
 * of its entries on disk again before their next use, waits until each has done so, and only then
 * lets the first one answer. A worker installs a version only if the disk still names it at that
 * instant (./files.ts), so after the primary's answer no worker can hand out an older one. Versions
 * already known need no broadcast: the answer comes at once (a worker's first reads at start-up).
 * Unchanged files cost nothing: the query's hot path never asks.
 */

type Mensagem =
  | { arquivos: "ola" }
  | { arquivos: "versao"; id: number; rel: string; versao: string; geracao: number }
  | { arquivos: "pode"; id: number; tudo: boolean }
  | { arquivos: "invalidar"; b: number }
  | { arquivos: "feito"; b: number };

function eMensagem(m: unknown): m is Mensagem {
  return typeof m === "object" && m !== null && typeof (m as { arquivos?: unknown }).arquivos === "string";
}

/** ms a worker has to drop its entries once told; one that does not is stopped (it could serve old bytes) */
export const PRAZO_INVALIDAR_MS = 10_000;

/**
 * In the primary: judges every version the workers are about to hand out and broadcasts the
 * invalidations. Returns a function that stops it.
 */
export function servirArquivosNoPrimario(o: { erro?: (linha: string) => void; prazoMs?: number } = {}): () => void {
  const erro = o.erro ?? ((l: string) => console.error(l));
  const versoes = new Versoes();
  /** workers that listen (they said hello before their cache held anything) */
  const ouvintes = new Set<Worker>();
  /** broadcasts waiting for acknowledgements: id -> workers still to answer */
  const esperando = new Map<number, { faltam: Set<Worker>; pronto: () => void }>();
  let seq = 0;
  // one at a time: a version answered at once must not pass a broadcast still in flight
  let fila: Promise<void> = Promise.resolve();

  const difundir = (origem: Worker): Promise<void> => {
    const faltam = new Set([...ouvintes].filter((w) => w !== origem && w.isConnected()));
    if (faltam.size === 0) return Promise.resolve();
    const b = ++seq;
    return new Promise<void>((resolve) => {
      const prazo = setTimeout(() => {
        for (const w of faltam) {
          erro(`[cluster] o worker ${w.id} (pid ${w.process.pid}) não descartou seu cache de arquivos em ${(o.prazoMs ?? PRAZO_INVALIDAR_MS) / 1000} s depois de uma publicação; parando-o para que não sirva a versão antiga`);
          w.process.kill("SIGKILL");
        }
        esperando.delete(b);
        resolve();
      }, o.prazoMs ?? PRAZO_INVALIDAR_MS);
      esperando.set(b, {
        faltam,
        pronto: () => {
          clearTimeout(prazo);
          esperando.delete(b);
          resolve();
        },
      });
      for (const w of faltam) {
        try {
          w.send({ arquivos: "invalidar", b } satisfies Mensagem);
        } catch {
          // gone: it serves nothing any more, and its exit removes it from the waiting list
          saiu(w);
        }
      }
    });
  };

  const saiu = (w: Worker) => {
    ouvintes.delete(w);
    for (const e of [...esperando.values()]) {
      e.faltam.delete(w);
      if (e.faltam.size === 0) e.pronto();
    }
  };

  const onMessage = (w: Worker, m: unknown) => {
    if (!eMensagem(m)) return;
    if (m.arquivos === "ola") {
      ouvintes.add(w);
    } else if (m.arquivos === "feito") {
      const e = esperando.get(m.b);
      if (e && e.faltam.delete(w) && e.faltam.size === 0) e.pronto();
    } else if (m.arquivos === "versao") {
      const { id, rel, versao, geracao } = m;
      fila = fila.then(async () => {
        // a send to a worker that went away between isConnected() and send() throws: the queue
        // must go on (a rejected queue answers no worker again) and the asking worker be answered
        let tudo = false;
        try {
          tudo = versoes.nova(rel, versao, geracao);
          if (tudo) await difundir(w);
        } catch (err) {
          erro(`[cluster] aviso de versão nova de ${rel} falhou: ${(err as Error).message}`);
        }
        try {
          if (w.isConnected()) w.send({ arquivos: "pode", id, tudo } satisfies Mensagem);
        } catch (err) {
          erro(`[cluster] resposta ao worker ${w.id} falhou: ${(err as Error).message}`);
        }
      });
    }
  };
  const onExit = (w: Worker) => saiu(w);
  const onDisconnect = (w: Worker) => saiu(w);
  cluster.on("message", onMessage);
  cluster.on("exit", onExit);
  cluster.on("disconnect", onDisconnect);
  return () => {
    cluster.off("message", onMessage);
    cluster.off("exit", onExit);
    cluster.off("disconnect", onDisconnect);
    for (const e of [...esperando.values()]) e.pronto();
  };
}

/** In a worker: its caches' link to the primary. Made before any cache holds an entry. */
export class ArquivosNoCluster implements Coordenacao {
  private seq = 0;
  private readonly pendentes = new Map<number, { resolve: (r: { tudo: boolean }) => void; reject: (e: Error) => void }>();
  private readonly caches: FileCache[] = [];
  private readonly onMessage = (m: unknown) => {
    if (!eMensagem(m)) return;
    if (m.arquivos === "invalidar") {
      for (const c of this.caches) c.invalidarTudo();
      process.send?.({ arquivos: "feito", b: m.b } satisfies Mensagem);
    } else if (m.arquivos === "pode") {
      const p = this.pendentes.get(m.id);
      this.pendentes.delete(m.id);
      p?.resolve({ tudo: m.tudo });
    }
  };
  private readonly onDisconnect = () => {
    const err = new Error("o processo primário do cluster não responde (canal IPC fechado)");
    for (const p of this.pendentes.values()) p.reject(err);
    this.pendentes.clear();
  };

  constructor() {
    if (!process.send) throw new Error("ArquivosNoCluster: este processo não é um worker do cluster (sem canal IPC)");
    process.on("message", this.onMessage);
    process.on("disconnect", this.onDisconnect);
    process.send({ arquivos: "ola" } satisfies Mensagem);
  }

  ligar(cache: FileCache): void {
    this.caches.push(cache);
  }

  anunciar(rel: string, versao: string, geracao: number): Promise<{ tudo: boolean }> {
    return new Promise((resolve, reject) => {
      const id = ++this.seq;
      this.pendentes.set(id, { resolve, reject });
      process.send!({ arquivos: "versao", id, rel, versao, geracao } satisfies Mensagem, undefined, undefined, (err) => {
        if (!err) return;
        this.pendentes.delete(id);
        reject(err);
      });
    });
  }

  close(): void {
    process.off("message", this.onMessage);
    process.off("disconnect", this.onDisconnect);
  }
}
