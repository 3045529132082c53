/**
 * The quota shared through a real Redis (Debian's redis-server on loopback, started here): one
 * count per client across instances and restarts, its expiry at 00:00 UTC, and what happens when
 * Redis goes away (fail open with a local count and a warning, or fail closed with a 503).
 */
import { spawnSync } from "node:child_process";
import { createServer, type Server, type Socket } from "node:net";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../pipeline/config.ts";
import { startServer, type RunningServer } from "../../pipeline/serve/app.ts";
import { quotaDay } from "../../pipeline/serve/quota.ts";
import { AVISO_COTA_LOCAL, RedisQuota, semSenha, validarRedisUrl, type RedisQuotaOptions } from "../../pipeline/serve/quota-redis.ts";
import { freePort, startRedis, type RedisDeTeste } from "./redis.ts";
import { buildTestSite } from "./site.ts";

let site: Awaited<ReturnType<typeof buildTestSite>>;
let redis: RedisDeTeste;
let cliente: Redis;
const abertos: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  [site, redis] = await Promise.all([buildTestSite(), startRedis()]);
  cliente = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await cliente.connect();
}, 120_000);

afterAll(async () => {
  for (const a of abertos.reverse()) await a.close().catch(() => undefined);
  cliente?.disconnect();
  await redis?.cleanup();
  await site?.cleanup();
});

interface Instancia {
  srv: RunningServer;
  store: RedisQuota;
  logs: string[];
  close(): Promise<void>;
}

/** a server with its own Redis store, as `npm start` makes one with COTACAO_REDIS_URL */
async function instancia(extra: Partial<RedisQuotaOptions> = {}): Promise<Instancia> {
  const logs: string[] = [];
  const store = await new RedisQuota({ url: redis.url, freeLimit: 3, log: (l) => logs.push(l), ...extra }).conectar();
  const srv = await startServer({ publicDir: site.publicDir, trustedProxies: 1, quotaStore: store });
  const i = {
    srv,
    store,
    logs,
    close: async () => {
      await srv.close();
      await store.close();
    },
  };
  abertos.push(i);
  return i;
}

/** each test is its own client, through a trusted X-Forwarded-For */
const consulta = (i: Instancia, ip: string, path = "api/v1/cotacao?uf=MS") => fetch(`${i.srv.url}${path}`, { headers: { "X-Forwarded-For": ip } });

async function statuses(rs: Promise<Response>[]): Promise<number[]> {
  const out: number[] = [];
  for (const r of rs) out.push((await r).status);
  return out;
}

async function ate(cond: () => boolean, oque: string): Promise<void> {
  for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 50));
  if (!cond()) throw new Error(`esperando: ${oque}`);
}

describe("quota in Redis", () => {
  it("is one count per client across two instances: the limit+1-th request, on either, is 429", async () => {
    const [a, b] = [await instancia(), await instancia()];
    const ip = "198.51.100.1";
    const seen: number[] = [];
    for (const i of [a, b, a]) {
      const r = await consulta(i, ip);
      seen.push(r.status);
      expect(r.headers.get("x-cotacao-aviso")).toBeNull();
    }
    expect(seen).toEqual([200, 200, 200]);
    const over = await consulta(b, ip);
    expect(over.status).toBe(429);
    expect(over.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await consulta(a, ip)).status).toBe(429);
    // errors and static files cost nothing, and a static file is still served
    expect((await consulta(a, ip, "api/v1/cotacao.json")).status).toBe(200);
    expect(await cliente.get(`cotacao:cota:${quotaDay(Date.now())}:ip:${ip}`)).toBe("3");
  });

  it("counts an IPv6 client per /64 and a key by its hash, never in plain text", async () => {
    const i = await instancia();
    expect((await consulta(i, "2001:db8:5:6:aaaa::1")).status).toBe(200);
    expect((await consulta(i, "2001:db8:5:6:bbbb::2")).status).toBe(200);
    expect(await cliente.get(`cotacao:cota:${quotaDay(Date.now())}:ip:2001:db8:5:6::/64`)).toBe("2");
    const k = await startServer({ publicDir: site.publicDir, apiKeys: ["chave-secreta-redis"], quotaStore: i.store });
    abertos.push(k);
    const r = await fetch(`${k.url}api/v1/cotacao`, { headers: { "X-API-Key": "chave-secreta-redis" } });
    expect(r.status).toBe(200);
    expect(r.headers.get("x-ratelimit-limit")).toBe("10000");
    const keys = await cliente.keys("cotacao:cota:*:chave:*");
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(/:chave:[0-9a-f]{64}$/);
    expect((await cliente.keys("*")).join(" ")).not.toContain("chave-secreta-redis");
  });

  it("expires each counter at the next 00:00 UTC", async () => {
    const i = await instancia();
    const ip = "198.51.100.2";
    expect((await consulta(i, ip)).status).toBe(200);
    const key = `cotacao:cota:${quotaDay(Date.now())}:ip:${ip}`;
    const meiaNoite = (Math.floor(Date.now() / 86_400_000) + 1) * 86_400;
    expect(Number(await cliente.call("EXPIRETIME", key))).toBe(meiaNoite);
    const ttl = await cliente.ttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(86_400);
  });

  it("keeps the counts when the server restarts", async () => {
    const ip = "198.51.100.3";
    const a = await instancia();
    expect(await statuses([consulta(a, ip), consulta(a, ip)])).toEqual([200, 200]);
    await a.close();
    const b = await instancia();
    const r = await consulta(b, ip);
    expect(r.status).toBe(200);
    expect(r.headers.get("x-ratelimit-remaining")).toBe("0");
    expect((await consulta(b, ip)).status).toBe(429);
  });

  it("fails closed on request: the query routes answer 503 JSON, static files are still served", async () => {
    const port = await freePort(); // nothing listens there
    const i = await instancia({ url: `redis://usuario:senha-secreta@127.0.0.1:${port}/0`, falha: "fechar" });
    const r = await consulta(i, "198.51.100.4");
    expect(r.status).toBe(503);
    expect(r.headers.get("content-type")).toMatch(/application\/json/);
    expect(r.headers.get("retry-after")).toBe("30");
    const body = (await r.json()) as { erro: string; mensagem: string };
    expect(body.erro).toBe("cota_indisponivel");
    expect(body.mensagem).toMatch(/indisponível/);
    expect((await consulta(i, "198.51.100.4", "api/v1/cotacao.json")).status).toBe(200);
    expect((await consulta(i, "198.51.100.4", "api/v1/historico?produto=boi_gordo")).status).toBe(503);
    expect(i.logs).toHaveLength(1);
    expect(i.logs[0]).toContain(`redis://usuario:***@127.0.0.1:${port}/0`);
    expect(i.logs[0]).not.toContain("senha-secreta");
    expect(i.logs[0]).toMatch(/ECONNREFUSED/);
  });

  it("never hangs on a Redis that accepts connections and answers nothing", async () => {
    const sockets = new Set<Socket>();
    const mudo: Server = createServer((s) => {
      sockets.add(s);
      s.on("data", () => undefined);
    });
    await new Promise<void>((r) => mudo.listen(0, "127.0.0.1", () => r()));
    abertos.push({
      close: () =>
        new Promise<void>((r) => {
          for (const s of sockets) s.destroy();
          mudo.close(() => r());
        }),
    });
    const port = (mudo.address() as { port: number }).port;
    const i = await instancia({ url: `redis://127.0.0.1:${port}` });
    const r = await consulta(i, "198.51.100.5");
    expect(r.status).toBe(200);
    expect(r.headers.get("x-cotacao-aviso")).toBe(AVISO_COTA_LOCAL);
    expect(i.logs.join("\n")).toMatch(/Redis indisponível em redis:\/\/127\.0\.0\.1:\d+/);
  });

  // last: it kills the shared Redis
  it("fails open when Redis dies mid-run: a local count with a warning, one log line, and back when Redis is", async () => {
    const a = await instancia();
    const ip = "198.51.100.6";
    expect((await consulta(a, ip)).status).toBe(200);
    await redis.stop(true);
    const seen: [number, string | null][] = [];
    for (let n = 0; n < 5; n++) {
      const r = await consulta(a, ip);
      seen.push([r.status, r.headers.get("x-cotacao-aviso")]);
    }
    // each instance keeps enforcing the same limit on its own count
    expect(seen).toEqual([
      [200, AVISO_COTA_LOCAL],
      [200, AVISO_COTA_LOCAL],
      [200, AVISO_COTA_LOCAL],
      [429, AVISO_COTA_LOCAL],
      [429, AVISO_COTA_LOCAL],
    ]);
    // a query answer with a warning of its own keeps both
    const pi = await consulta(a, "198.51.100.7", "api/v1/cotacao?uf=PI");
    expect(pi.headers.get("x-cotacao-aviso")).toBe(`sem-serie-estadual; uf=PI, ${AVISO_COTA_LOCAL}`);
    expect(a.logs.filter((l) => l.includes("indisponível"))).toHaveLength(1);
    expect(a.logs[0]).toContain(redis.url);

    await redis.restart();
    await ate(() => a.logs.some((l) => l.includes("de volta")), "a linha de Redis de volta no log");
    expect(a.logs).toHaveLength(2);
    const back = await consulta(a, ip);
    expect(back.status).toBe(200);
    expect(back.headers.get("x-cotacao-aviso")).toBeNull();
    // the new Redis is empty (nothing persisted): the shared count starts again
    expect(back.headers.get("x-ratelimit-remaining")).toBe("2");
  }, 60_000);
});

describe("COTACAO_REDIS_URL", () => {
  it("refuses a malformed URL with a Portuguese message, and never logs a password", () => {
    expect(() => validarRedisUrl("localhost:6379")).toThrow(/COTACAO_REDIS_URL inválida: protocolo "localhost:"/);
    expect(() => validarRedisUrl("http://127.0.0.1:6379")).toThrow(/protocolo "http:"/);
    expect(() => validarRedisUrl("redis://127.0.0.1:6379/abc")).toThrow(/banco "abc" não é um número/);
    expect(() => validarRedisUrl("redis:// espaço")).toThrow(/não é uma URL/);
    expect(validarRedisUrl("rediss://u:p@cache.example:6380/2").hostname).toBe("cache.example");
    expect(semSenha("redis://u:segredo@h:1/0")).toBe("redis://u:***@h:1/0");
    expect(semSenha("redis://u:segredo@h :1/0")).not.toContain("segredo");
  });

  it("stops npm start at once, before the build", () => {
    const r = spawnSync(`${REPO_ROOT}/node_modules/.bin/tsx`, ["pipeline/cli/start.ts"], {
      cwd: REPO_ROOT,
      env: { ...process.env, COTACAO_REDIS_URL: "redis//sem-dois-pontos", PORT: "0" },
      encoding: "utf8",
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/COTACAO_REDIS_URL inválida/);
    expect(r.stdout).not.toMatch(/build:/);
  });
});
