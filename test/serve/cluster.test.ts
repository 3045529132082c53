/**
 * `--workers N`: the workers of one cluster share one quota, through the primary (no Redis) or
 * through Redis; a dead worker is replaced without losing the counts; SIGTERM stops them all.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { Agent, get as httpGet } from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { REPO_ROOT } from "../../pipeline/config.ts";
import { lerCota, lerRedis, lerWorkers } from "../../pipeline/serve/cluster.ts";
import { startRedis, type RedisDeTeste } from "./redis.ts";
import { buildTestSite } from "./site.ts";

let site: Awaited<ReturnType<typeof buildTestSite>>;
let redis: RedisDeTeste;
const filhos: ChildProcess[] = [];

beforeAll(async () => {
  [site, redis] = await Promise.all([buildTestSite(), startRedis()]);
}, 120_000);

afterAll(async () => {
  for (const c of filhos) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  await redis?.cleanup();
  await site?.cleanup();
});

interface Cluster {
  child: ChildProcess;
  url: string;
  workers: number[];
  out: () => string;
  /** resolves with the pid of the next worker to come online */
  proximoWorker(): Promise<number>;
}

function iniciar(env: Record<string, string>): Promise<Cluster> {
  // node itself (not the tsx wrapper, which would leave the primary behind when killed)
  const child = spawn(process.execPath, ["--import", "tsx", "test/serve/cluster-child.ts", site.publicDir, "--workers", "2"], {
    cwd: REPO_ROOT,
    env: { ...process.env, COTACAO_REDIS_URL: "", COTACAO_WORKERS: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  filhos.push(child);
  let out = "";
  const workers: number[] = [];
  const esperando: ((pid: number) => void)[] = [];
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => {
      out += String(d);
      for (const m of String(d).matchAll(/\{"worker":(\d+)\}/g)) {
        workers.push(Number(m[1]));
        esperando.shift()?.(Number(m[1]));
      }
      const u = /\{"url":"([^"]+)"\}/.exec(out);
      if (u) {
        resolve({ child, url: u[1]!, workers, out: () => out, proximoWorker: () => new Promise((r) => esperando.push(r)) });
      }
    });
    child.stderr!.on("data", (d: Buffer) => (out += String(d)));
    child.once("exit", (code) => reject(new Error(`o cluster saiu com ${code} antes de servir:\n${out}`)));
  });
}

/** a new connection per request, so the primary hands them to the workers in turn */
const consulta = (c: Cluster, ip: string) =>
  fetch(`${c.url}api/v1/cotacao?uf=MS`, { headers: { "X-Forwarded-For": ip, Connection: "close" } }).then(async (r) => {
    await r.arrayBuffer();
    return r.status;
  });

async function seguidas(c: Cluster, ip: string, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(await consulta(c, ip));
  return out;
}

function parar(c: Cluster): Promise<number | null> {
  return new Promise((resolve) => {
    if (c.child.exitCode !== null) return resolve(c.child.exitCode);
    c.child.once("exit", (code) => resolve(code));
    c.child.kill("SIGTERM");
  });
}

function vivo(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe.each([
  ["the primary", {}],
  ["Redis", { redis: true }],
])("--workers 2, quota through %s", (_nome, modo: { redis?: boolean }) => {
  it("is one quota for all workers, kept when a worker dies and is replaced; SIGTERM stops them all", async () => {
    const c = await iniciar({ COTACAO_COTA_DIARIA: "4", ...(modo.redis ? { COTACAO_REDIS_URL: redis.url } : {}) });
    expect(c.workers).toHaveLength(2);
    const ip = modo.redis ? "203.0.113.20" : "203.0.113.10";
    // two quotas would let 8 through: the requests alternate between the two workers
    expect(await seguidas(c, ip, 6)).toEqual([200, 200, 200, 200, 429, 429]);
    const outro = modo.redis ? "203.0.113.21" : "203.0.113.11";
    expect(await seguidas(c, outro, 2)).toEqual([200, 200]);

    const novo = c.proximoWorker();
    process.kill(c.workers[0]!, "SIGKILL");
    const pid = await novo;
    expect(pid).not.toBe(c.workers[0]);
    expect(c.out()).toMatch(/worker \d+ \(pid \d+\) saiu com sinal SIGKILL; iniciando outro/);
    // the counts outlive the worker: 2 more for `outro`, whichever worker answers
    expect(await seguidas(c, outro, 4)).toEqual([200, 200, 429, 429]);
    expect(await consulta(c, ip)).toBe(429);

    const pids = c.workers.slice(1);
    expect(await parar(c)).toBe(0);
    for (const p of pids) expect(vivo(p)).toBe(false);
  }, 90_000);
});

describe.each([
  ["the primary", {}],
  ["Redis", { redis: true }],
])("--workers 2, a key's quota leased through %s", (_nome, modo: { redis?: boolean }) => {
  it("serves exactly the key's limit across the workers, then 429", async () => {
    const key = modo.redis ? "chave-lotes-redis" : "chave-lotes-primario";
    const c = await iniciar({ COTACAO_API_KEYS: key, COTACAO_TESTE_LIMITE_CHAVE: "200", ...(modo.redis ? { COTACAO_REDIS_URL: redis.url } : {}) });
    const uma = () =>
      fetch(`${c.url}api/v1/cotacao?uf=MS`, { headers: { "X-API-Key": key, Connection: "close" } }).then(async (r) => {
        await r.arrayBuffer();
        return { status: r.status, restante: Number(r.headers.get("x-ratelimit-remaining")) };
      });
    const rs: { status: number; restante: number }[] = [await uma()];
    if (modo.redis) {
      // the first request took a lease of 3 (200 / 64), not one unit
      const { Redis } = await import("ioredis");
      const r = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
      await r.connect();
      expect(Number(await r.get((await r.keys("cotacao:cota:*:chave:*"))[0]!))).toBe(3);
      r.disconnect();
    }
    for (let i = 1; i < 215; i++) rs.push(await uma());
    expect(rs.map((r) => r.status)).toEqual([...Array(200).fill(200), ...Array(15).fill(429)]);
    expect(rs[0]!.restante).toBe(199);
    expect(rs.every((r) => r.restante >= 0 && r.restante < 200)).toBe(true);
    expect(await parar(c)).toBe(0);
  }, 90_000);

  it("a key refused while the other worker holds units of it hears Retry-After of the give-back, is served once they are back, then refused until 00:00 UTC", async () => {
    const key = modo.redis ? "chave-em-uso-redis" : "chave-em-uso-primario";
    // leases given back after 4 s: worker B spends the rest of the key well before that
    const c = await iniciar({
      COTACAO_API_KEYS: key,
      COTACAO_TESTE_LIMITE_CHAVE: "200",
      COTACAO_TESTE_VALIDADE_LOTE_MS: "4000",
      ...(modo.redis ? { COTACAO_REDIS_URL: redis.url } : {}),
    });
    // one kept-alive connection per worker: the primary hands new connections to the workers in turn
    const [a, b] = [new Agent({ keepAlive: true, maxSockets: 1 }), new Agent({ keepAlive: true, maxSockets: 1 })];
    const pedir = (agent: Agent) =>
      new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
        const req = httpGet(`${c.url}api/v1/cotacao?uf=MS`, { agent, headers: { "X-API-Key": key } }, (res) => {
          let body = "";
          res.setEncoding("utf8").on("data", (d: string) => (body += d));
          res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
        });
        req.on("error", reject);
      });
    try {
      // A's worker leases 3 (200 / 64) and spends 1; B's connection is held open first, so it is the other worker's
      const primeiraB = pedir(b);
      expect((await pedir(a)).status).toBe(200);
      expect((await primeiraB).status).toBe(200);
      let servidas = 1;
      let r = await pedir(b);
      for (; r.status === 200; r = await pedir(b)) servidas++;
      expect(servidas, "B's worker serves all but A's 2 units").toBe(197);
      expect(r.status).toBe(429);
      expect(r.headers["retry-after"]).toBe("4");
      expect(JSON.parse(r.body)).toMatchObject({ erro: "cota_em_uso", limite: 200 });
      // A's lease is given back after its 4 s; the refusals meanwhile cost nothing
      await vi.waitFor(async () => expect((await pedir(b)).status).toBe(200), { timeout: 20_000, interval: 500 });
      expect((await pedir(b)).status).toBe(200);
      const fim = await pedir(b);
      expect(fim.status).toBe(429);
      expect(JSON.parse(fim.body)).toMatchObject({ erro: "limite_excedido" });
      expect(Number(fim.headers["retry-after"])).toBeGreaterThan(4);
    } finally {
      a.destroy();
      b.destroy();
      expect(await parar(c)).toBe(0);
    }
  }, 90_000);
});

describe("start's options", () => {
  it("reads --workers, COTACAO_WORKERS, COTACAO_REDIS_FALHA and COTACAO_COTA_DIARIA, refusing nonsense in Portuguese", () => {
    expect(lerWorkers([], {})).toBeUndefined();
    expect(lerWorkers(["--workers", "3"], {})).toBe(3);
    expect(lerWorkers(["--workers=2"], { COTACAO_WORKERS: "5" })).toBe(2);
    expect(lerWorkers([], { COTACAO_WORKERS: "5" })).toBe(5);
    expect(lerWorkers(["--workers", "auto"], {})).toBeGreaterThanOrEqual(1);
    expect(lerWorkers([], { COTACAO_WORKERS: "0" })).toBeGreaterThanOrEqual(1);
    expect(() => lerWorkers(["--workers", "dois"], {})).toThrow(/--workers inválido: "dois"/);
    expect(() => lerWorkers(["--workers"], {})).toThrow(/--workers inválido/);
    expect(lerRedis({})).toBeUndefined();
    expect(lerRedis({ COTACAO_REDIS_URL: "redis://127.0.0.1:6379" })).toEqual({ url: "redis://127.0.0.1:6379", falha: "abrir" });
    expect(lerRedis({ COTACAO_REDIS_URL: "redis://127.0.0.1:6379", COTACAO_REDIS_FALHA: "fechar" })?.falha).toBe("fechar");
    expect(() => lerRedis({ COTACAO_REDIS_FALHA: "talvez" })).toThrow(/COTACAO_REDIS_FALHA inválido: "talvez" \(use abrir ou fechar\)/);
    expect(() => lerRedis({ COTACAO_REDIS_URL: "127.0.0.1:6379" })).toThrow(/COTACAO_REDIS_URL inválida/);
    expect(lerCota({})).toEqual({});
    expect(lerCota({ COTACAO_COTA_DIARIA: "250" })).toEqual({ freeLimit: 250 });
    expect(() => lerCota({ COTACAO_COTA_DIARIA: "0" })).toThrow(/COTACAO_COTA_DIARIA inválido/);
  });
});
