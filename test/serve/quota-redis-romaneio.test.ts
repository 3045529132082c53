/**
 * The romaneio quota in a real Redis (Debian's redis-server on loopback, started here): the limit
 * travels with each call into the Lua script (so it is not the key limit of 10,000), readings
 * racing on two instances for the last units stop exactly at the limit, and a unit is given back
 * atomically when a reading fails (never below zero, never a new counter, the expiry kept).
 */
import { createHash } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ComparacaoRomaneio, LeituraRomaneio } from "../../pipeline/domain/publicados.gerados.ts";
import { startServer, type RunningServer } from "../../pipeline/serve/app.ts";
import { quotaDay } from "../../pipeline/serve/quota.ts";
import { AVISO_COTA_LOCAL, RedisQuota } from "../../pipeline/serve/quota-redis.ts";
import { idRomaneio, type Etapas, type Leitor, type ResultadoLeitor } from "../../pipeline/serve/romaneio.ts";
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

const T = Date.now();
const dia = quotaDay(T);

async function loja(url = redis.url): Promise<RedisQuota> {
  const s = await new RedisQuota({ url, log: () => undefined }).conectar();
  abertos.push(s);
  return s;
}

describe("RedisQuota: a limit per call and refunds", () => {
  it("two instances racing 60 consumes for a limit of 17: exactly 17 allowed, the counter stops at 17", async () => {
    const [a, b] = [await loja(), await loja()];
    const id = "romaneio:corrida";
    const rs = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).consume("key", id, T, 17)));
    expect(rs.filter((r) => r.allowed)).toHaveLength(17);
    expect(rs.every((r) => r.limit === 17)).toBe(true);
    expect(await cliente.get(`cotacao:cota:${dia}:chave:${id}`)).toBe("17");
    expect(await a.peek("key", id, T, 17)).toMatchObject({ limit: 17, used: 17, remaining: 0 });
    // the kind's limit when a call names none
    expect((await a.peek("key", id, T)).limit).toBe(10_000);
  });

  it("a limit above 10,000 is the call's: the 10,001st unit of 20,000 is allowed, where the key limit refuses it", async () => {
    const a = await loja();
    const id = "romaneio:grande";
    const chave = `cotacao:cota:${dia}:chave:${id}`;
    await cliente.set(chave, "10000");
    expect((await a.consume("key", id, T)).allowed).toBe(false);
    const r = await a.consume("key", id, T, 20_000);
    expect(r).toMatchObject({ allowed: true, used: 10_001, limit: 20_000, remaining: 9_999 });
    expect(await cliente.get(chave)).toBe("10001");
  });

  it("gives a unit back atomically: the expiry kept, never below zero, never a counter that is not there", async () => {
    const a = await loja();
    const id = "romaneio:devolve";
    const chave = `cotacao:cota:${dia}:chave:${id}`;
    expect((await a.consume("key", id, T, 2)).allowed).toBe(true);
    expect((await a.consume("key", id, T, 2)).allowed).toBe(true);
    const expira = Number(await cliente.call("EXPIRETIME", chave));
    expect(expira).toBeGreaterThan(0);
    await Promise.all([a.refund("key", id, T), a.refund("key", id, T), a.refund("key", id, T)]);
    expect(await cliente.get(chave)).toBe("0");
    expect(Number(await cliente.call("EXPIRETIME", chave))).toBe(expira);
    expect((await a.consume("key", id, T, 2)).used).toBe(1);
    await a.refund("key", "romaneio:nunca-contado", T);
    expect(await cliente.exists(`cotacao:cota:${dia}:chave:romaneio:nunca-contado`)).toBe(0);
    // charged yesterday, failed today: the refund is for yesterday's counter (already expired at
    // 00:00 UTC, so nothing is brought back), never for today's
    const ontem = T - 86_400_000;
    expect((await a.consume("key", "romaneio:virada", ontem, 5)).allowed).toBe(true);
    expect((await a.consume("key", "romaneio:virada", T, 5)).allowed).toBe(true);
    await a.refund("key", "romaneio:virada", ontem);
    expect(await cliente.exists(`cotacao:cota:${quotaDay(ontem)}:chave:romaneio:virada`)).toBe(0);
    expect(await cliente.get(`cotacao:cota:${dia}:chave:romaneio:virada`)).toBe("1");
  });

  it("a unit counted locally during an outage is given back locally", async () => {
    const fora = await loja(`redis://127.0.0.1:${await freePort()}/0`);
    const c = await fora.consume("key", "romaneio:fora", T, 1);
    expect(c).toMatchObject({ allowed: true, aviso: AVISO_COTA_LOCAL });
    expect((await fora.consume("key", "romaneio:fora", T, 1)).allowed).toBe(false);
    await fora.refund("key", "romaneio:fora", T, c);
    expect(await fora.peek("key", "romaneio:fora", T, 1)).toMatchObject({ used: 0, aviso: AVISO_COTA_LOCAL });
  });
});

const LEITURA: LeituraRomaneio = {
  tipo: "abate",
  data: "2026-08-05",
  produto: "boi_gordo",
  uf: "MS",
  municipio: null,
  comprador: null,
  vendedor: null,
  linhas: [],
  totais: null,
  confianca: {},
  avisos: [],
};
const etapas: Etapas = {
  ler: () => LEITURA,
  series: () => ({ estadual: null, nacional: null }),
  comparar: (): ComparacaoRomaneio => ({ referencias: [], simulacao: null, deducoes: [], avisos: [] }),
};
// a PNG whose header the route accepts (800 × 600)
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), Buffer.from("IHDR"), Buffer.from([0, 0, 3, 0x20, 0, 0, 2, 0x58]), Buffer.alloc(200, 7)]);
const resultado: ResultadoLeitor = { texto: "ROMANEIO", origem: "ocr", tipo: "image/png", paginas: 1, segundos: 0.1 };

async function servidor(chave: string, leitor: Leitor, cotaDiaria: number): Promise<RunningServer> {
  const store = await loja();
  // readings in flight are capped per process: high here, so the quota alone decides
  const s = await startServer({ publicDir: site.publicDir, quotaStore: store, romaneio: { chaves: [chave], leitor, etapas, cotaDiaria, simultaneas: 8 } });
  abertos.push(s);
  return s;
}

const post = (s: RunningServer, chave: string) =>
  fetch(new URL("api/v1/romaneio", s.url), { method: "POST", body: PNG, headers: { "Content-Type": "image/png", "X-API-Key": chave, Connection: "close" } });
const contador = (chave: string) => `cotacao:cota:${quotaDay(Date.now())}:chave:${idRomaneio(createHash("sha256").update(chave).digest("hex"))}`;

describe("POST /api/v1/romaneio on two instances sharing Redis", () => {
  it("8 readings at once for 3 units, alternating instances: 3 reach the engine (held until all 3 are in) and answer 200, 5 get 429; the counter is 3", async () => {
    const chave = "chave-romaneio-redis-corrida";
    let chegadas = 0;
    let abrir!: () => void;
    const portao = new Promise<void>((r) => (abrir = r));
    const lento: Leitor = {
      ler: async () => {
        if (++chegadas === 3) abrir();
        await portao;
        return resultado;
      },
      fechar: async () => undefined,
    };
    const [a, b] = [await servidor(chave, lento, 3), await servidor(chave, lento, 3)];
    const rs = await Promise.all(Array.from({ length: 8 }, (_, i) => post(i % 2 ? a : b, chave)));
    expect(rs.map((r) => r.status).sort()).toEqual([200, 200, 200, 429, 429, 429, 429, 429]);
    expect(chegadas).toBe(3);
    expect(await cliente.get(contador(chave))).toBe("3");
  });

  it("only a reading the engine refused unread gives its unit back in Redis: with a quota of 2, busy (refunded), a late failure (charged), a reading, then 429", async () => {
    const chave = "chave-romaneio-redis-falha";
    let n = 0;
    const erro = (codigo: string) => Object.assign(new Error(codigo), { codigo });
    const l: Leitor = {
      ler: async () => {
        n++;
        if (n === 1) throw erro("ocupado");
        if (n === 2) throw erro("arquivo_invalido");
        return resultado;
      },
      fechar: async () => undefined,
    };
    const s = await servidor(chave, l, 2);
    const ocupado = await post(s, chave);
    expect(ocupado.status).toBe(503);
    expect(ocupado.headers.get("x-ratelimit-remaining")).toBe("2");
    expect(await cliente.get(contador(chave))).toBe("0");
    const falhou = await post(s, chave);
    expect(falhou.status).toBe(422);
    expect(falhou.headers.get("x-ratelimit-remaining")).toBe("1");
    expect(await cliente.get(contador(chave))).toBe("1");
    expect((await post(s, chave)).status).toBe(200);
    expect((await post(s, chave)).status).toBe(429);
    expect(await cliente.get(contador(chave))).toBe("2");
    expect(n).toBe(3);
  });
});
