import cluster, { type Worker } from "node:cluster";
import { availableParallelism } from "node:os";
import { PipelineError } from "../domain/errors.ts";
import { startServer, type ServeOptions } from "./app.ts";
import { ArquivosNoCluster, servirArquivosNoPrimario } from "./arquivos-cluster.ts";
import { Quota, type QuotaOptions, type QuotaStore } from "./quota.ts";
import { PrimaryQuota, servirCotaNoPrimario } from "./quota-cluster.ts";
import { QuotaEmLotes, type OpcoesLotes } from "./quota-lotes.ts";
import { RedisQuota, validarRedisUrl, type FalhaRedis } from "./quota-redis.ts";
import { COTA_ROMANEIO_PADRAO, MAX_MB_PADRAO, SIMULTANEAS_PADRAO, TEMPO_S_PADRAO, type Leitor } from "./romaneio.ts";

/**
 * How `npm start` serves: one process (the default, as always), or a node:cluster of N workers
 * on one port (`--workers N`). Every worker of a cluster, and every instance pointing at the same
 * Redis, counts against one quota per client: Redis when COTACAO_REDIS_URL is set, else the
 * primary's memory (./quota-cluster.ts).
 */
export interface Instancia {
  /** the server's options, without the store and the romaneio engine (made here, one per process) */
  serve: Omit<ServeOptions, "quotaStore" | "quota" | "romaneio" | "arquivos"> & { port: number; host: string };
  quota: QuotaOptions;
  redis?: { url: string; falha: FalhaRedis };
  /** a key's leases with a shared store (tests lengthen their give-back time); default: ./quota-lotes.ts's */
  lotes?: OpcoesLotes;
  /** POST /api/v1/romaneio; absent: no key may read receipts */
  romaneio?: ConfigRomaneio;
  /** the OCR engine's factory (tests pass a fake); default: ../romaneio/ocr.ts criarLeitorOcr, loaded only when romaneio is on */
  criarLeitor?: (c: ConfigRomaneio) => Leitor | Promise<Leitor>;
  log?: (linha: string) => void;
  erro?: (linha: string) => void;
}

export interface Servindo {
  url: string;
  /** stops serving (and, in a cluster, every worker) */
  close(): Promise<void>;
}

const MAX_WORKERS = 256;

function urlDe(host: string, port: number): string {
  const shown = host.includes(":") ? `[${host}]` : host === "0.0.0.0" ? "localhost" : host;
  return `http://${shown}:${port}/`;
}

/** `--workers N`, `--workers=N` or COTACAO_WORKERS; "0" and "auto" are all cores; undefined: one process */
export function lerWorkers(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): number | undefined {
  let valor: string | undefined;
  let origem = "COTACAO_WORKERS";
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--workers") {
      valor = argv[i + 1] ?? "";
      origem = "--workers";
      i++;
    } else if (a.startsWith("--workers=")) {
      valor = a.slice("--workers=".length);
      origem = "--workers";
    }
  }
  if (valor === undefined) {
    valor = env.COTACAO_WORKERS;
    if (valor === undefined || valor.trim() === "") return undefined;
  }
  const v = valor.trim().toLowerCase();
  if (v === "auto" || v === "0") return availableParallelism();
  if (!/^\d+$/.test(v) || Number(v) > MAX_WORKERS) {
    throw new PipelineError({ stage: "config", reason: `${origem} inválido: "${valor}" (use um inteiro de 1 a ${MAX_WORKERS}, ou 0/auto para todos os núcleos)` });
  }
  return Number(v);
}

/** COTACAO_REDIS_URL (checked at once: a malformed URL stops start-up) and COTACAO_REDIS_FALHA */
export function lerRedis(env: NodeJS.ProcessEnv = process.env): Instancia["redis"] {
  const url = env.COTACAO_REDIS_URL?.trim();
  const falha = (env.COTACAO_REDIS_FALHA ?? "").trim().toLowerCase() || "abrir";
  if (falha !== "abrir" && falha !== "fechar") {
    throw new PipelineError({ stage: "config", reason: `COTACAO_REDIS_FALHA inválido: "${env.COTACAO_REDIS_FALHA}" (use abrir ou fechar)` });
  }
  if (!url) return undefined;
  validarRedisUrl(url);
  return { url, falha };
}

/** COTACAO_COTA_DIARIA: requests a day per address without a key (default 100) */
export function lerCota(env: NodeJS.ProcessEnv = process.env): QuotaOptions {
  const v = env.COTACAO_COTA_DIARIA?.trim();
  if (!v) return {};
  if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 1_000_000_000) {
    throw new PipelineError({ stage: "config", reason: `COTACAO_COTA_DIARIA inválido: "${env.COTACAO_COTA_DIARIA}" (use um inteiro de 1 a 1000000000)` });
  }
  return { freeLimit: Number(v) };
}

/** The romaneio settings of `npm start`, from COTACAO_ROMANEIO_* (each one checked at once). */
export interface ConfigRomaneio {
  chaves: string[];
  cotaDiaria: number;
  maxBytes: number;
  tempoS: number;
  /** OCR workers of the engine, per process */
  workers: number;
  /** readings in flight per key, per process */
  simultaneas: number;
}

function inteiroEntre(nome: string, valor: string | undefined, padrao: number, min: number, max: number): number {
  const v = valor?.trim();
  if (!v) return padrao;
  if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) {
    throw new PipelineError({ stage: "config", reason: `${nome} inválido: "${valor}" (use um inteiro de ${min} a ${max})` });
  }
  return Number(v);
}

/**
 * COTACAO_ROMANEIO_KEYS ("k1,k2": the keys that may read receipts), COTACAO_ROMANEIO_COTA_DIARIA
 * (readings a day per key, default 50), COTACAO_ROMANEIO_MAX_MB (default 10),
 * COTACAO_ROMANEIO_TEMPO_S (the OCR's limit per file, default 60), COTACAO_ROMANEIO_WORKERS
 * (OCR workers per process, default 1) and COTACAO_ROMANEIO_SIMULTANEAS (readings in flight per
 * key and process, default 2). Without keys the route is off (undefined) and the others
 * are still checked, so a typo does not wait for the day the keys are added.
 */
export function lerConfigRomaneio(env: NodeJS.ProcessEnv = process.env): ConfigRomaneio | undefined {
  const chaves = (env.COTACAO_ROMANEIO_KEYS ?? "").split(",").map((k) => k.trim()).filter(Boolean);
  const cotaDiaria = inteiroEntre("COTACAO_ROMANEIO_COTA_DIARIA", env.COTACAO_ROMANEIO_COTA_DIARIA, COTA_ROMANEIO_PADRAO, 1, 1_000_000_000);
  const maxMb = inteiroEntre("COTACAO_ROMANEIO_MAX_MB", env.COTACAO_ROMANEIO_MAX_MB, MAX_MB_PADRAO, 1, 100);
  const tempoS = inteiroEntre("COTACAO_ROMANEIO_TEMPO_S", env.COTACAO_ROMANEIO_TEMPO_S, TEMPO_S_PADRAO, 1, 600);
  const workers = inteiroEntre("COTACAO_ROMANEIO_WORKERS", env.COTACAO_ROMANEIO_WORKERS, 1, 1, 16);
  const simultaneas = inteiroEntre("COTACAO_ROMANEIO_SIMULTANEAS", env.COTACAO_ROMANEIO_SIMULTANEAS, SIMULTANEAS_PADRAO, 1, 100);
  if (chaves.length === 0) return undefined;
  return { chaves, cotaDiaria, maxBytes: maxMb * 1024 * 1024, tempoS, workers, simultaneas };
}

/** The startup line about romaneio. */
export function linhaRomaneio(c: ConfigRomaneio | undefined): string {
  if (!c) return "romaneio (beta): desligado (defina COTACAO_ROMANEIO_KEYS para ativar POST /api/v1/romaneio)";
  return (
    `romaneio (beta): ${c.chaves.length} chave(s) com permissão; cota de ${c.cotaDiaria} leitura(s) por dia por chave; ` +
    `até ${c.maxBytes / 1024 / 1024} MB e ${c.tempoS} s por arquivo; ${c.simultaneas} leitura(s) simultânea(s) por chave; ${c.workers} leitor(es) de OCR por processo`
  );
}

async function criarLeitorPadrao(c: ConfigRomaneio): Promise<Leitor> {
  const { criarLeitorOcr } = await import("../romaneio/ocr.ts");
  return criarLeitorOcr({ workers: c.workers, tempoLimiteMs: c.tempoS * 1000 });
}

/** a shared store counts keys in leases (./quota-lotes.ts): most of a key's requests then cost no round trip */
async function loja(inst: Instancia, emCluster: boolean): Promise<QuotaStore> {
  if (inst.redis) return new QuotaEmLotes(await new RedisQuota({ ...inst.quota, ...inst.redis, log: inst.erro }).conectar(), inst.lotes);
  return emCluster ? new QuotaEmLotes(new PrimaryQuota(), inst.lotes) : new Quota(inst.quota);
}

/** One process, as `npm start` has always served (the store: memory, or Redis when configured); or a worker's server. */
export async function servirUmProcesso(inst: Instancia, emCluster = false): Promise<Servindo> {
  // before the server's cache holds anything: from here on the primary counts this worker in
  const arquivos = emCluster ? new ArquivosNoCluster() : undefined;
  const store = await loja(inst, emCluster);
  const rom = inst.romaneio;
  let leitor: Leitor | undefined;
  const fechar = async () => {
    await leitor?.fechar();
    await store.close?.();
    arquivos?.close();
  };
  try {
    // one engine per process (each cluster worker its own): its OCR workers stay warm between requests
    leitor = rom ? await (inst.criarLeitor ?? criarLeitorPadrao)(rom) : undefined;
    const server = await startServer({
      ...inst.serve,
      quotaStore: store,
      ...(arquivos ? { arquivos } : {}),
      ...(rom && leitor ? { romaneio: { chaves: rom.chaves, leitor, cotaDiaria: rom.cotaDiaria, maxBytes: rom.maxBytes, tempoS: rom.tempoS, simultaneas: rom.simultaneas } } : {}),
    });
    return {
      url: server.url,
      close: async () => {
        await server.close();
        await fechar();
      },
    };
  } catch (err) {
    await fechar();
    throw err;
  }
}

/** In a worker: serves until SIGTERM/SIGINT, or until the primary goes away. */
async function servirWorker(inst: Instancia): Promise<Servindo> {
  const s = await servirUmProcesso(inst, true);
  let parando = false;
  const parar = () => {
    if (parando) return;
    parando = true;
    void s.close().finally(() => process.exit(0));
  };
  process.once("SIGTERM", parar);
  process.once("SIGINT", parar);
  process.once("disconnect", parar);
  return s;
}

/**
 * The cluster. In the primary: holds the quota (without Redis), forks `workers` processes that
 * serve on the same port, resolves once all listen, restarts a worker that dies (at most
 * 2 × workers + 3 times a minute: past that something is wrong with every start, so it stops
 * everything) and stops them all on SIGINT/SIGTERM. In a worker: serves.
 */
export async function servirCluster(inst: Instancia, workers: number): Promise<Servindo> {
  if (cluster.isWorker) return servirWorker(inst);
  const log = inst.log ?? ((l: string) => console.log(l));
  const erro = inst.erro ?? ((l: string) => console.error(l));
  const pararCota = inst.redis ? () => undefined : servirCotaNoPrimario(new Quota(inst.quota));
  const pararArquivos = servirArquivosNoPrimario({ erro });
  const reinicios: number[] = [];
  const limite = 2 * workers + 3;
  let parando = false;
  let pronto = false;
  let url = "";

  const pararTodos = (): Promise<void> => {
    parando = true;
    const vivos = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w && !w.isDead());
    return Promise.all(
      vivos.map(
        (w) =>
          new Promise<void>((resolve) => {
            w.once("exit", () => resolve());
            w.process.kill("SIGTERM");
          }),
      ),
    ).then(() => {
      // answered until the last worker is gone: a stopping worker gives its leased units back
      pararCota();
      pararArquivos();
    });
  };

  await new Promise<void>((resolve, reject) => {
    let ouvindo = 0;
    cluster.on("listening", (_w, address) => {
      if (pronto) return;
      url = urlDe(inst.serve.host, address.port);
      if (++ouvindo === workers) {
        pronto = true;
        resolve();
      }
    });
    cluster.on("exit", (w, code, signal) => {
      if (parando) return;
      const como = signal ? `sinal ${signal}` : `código ${code}`;
      if (!pronto) {
        void pararTodos().then(() => reject(new Error(`[cluster] o worker ${w.id} (pid ${w.process.pid}) saiu com ${como} antes de servir; veja a mensagem acima`)));
        return;
      }
      const agora = Date.now();
      reinicios.push(agora);
      while (reinicios.length && reinicios[0]! < agora - 60_000) reinicios.shift();
      if (reinicios.length > limite) {
        erro(`[cluster] ${reinicios.length} workers reiniciados no último minuto (limite ${limite}): parando tudo`);
        void pararTodos().then(() => process.exit(1));
        return;
      }
      erro(`[cluster] o worker ${w.id} (pid ${w.process.pid}) saiu com ${como}; iniciando outro`);
      cluster.fork();
    });
    for (let i = 0; i < workers; i++) cluster.fork();
  });
  log(`[cluster] ${workers} worker(s) servindo na mesma porta; cota ${inst.redis ? "no Redis" : "no processo primário"}`);
  const parar = () => void pararTodos().then(() => process.exit(0));
  process.once("SIGINT", parar);
  process.once("SIGTERM", parar);
  return { url, close: pararTodos };
}
