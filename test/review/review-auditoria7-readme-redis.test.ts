/**
 * Audit 7, the README's words on a Redis outage against what the quota's client does.
 *
 * The README said the quota's Redis client makes "uma nova tentativa por comando" (one retry per
 * command). It makes none: no offline queue, and a command whose reply was lost is not sent again
 * after the reconnect (it may already have counted: sent twice, a unit would be counted twice).
 * Here a proxy between the client and a real Redis drops the connection on the first quota count
 * it carries, and counts how many times that count crosses it.
 */
import { createServer, connect, type Server, type Socket } from "node:net";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AVISO_COTA_LOCAL, RedisQuota } from "../../pipeline/serve/quota-redis.ts";
import { startRedis, type RedisDeTeste } from "../serve/redis.ts";

const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8").replace(/\s+/g, " ");

let redis: RedisDeTeste;
let proxy: Server;
const sockets = new Set<Socket>();
/** quota counts (the Lua script: EVALSHA, or EVAL after a NOSCRIPT) seen going to Redis */
let contagens = 0;
/** drop the connection, without forwarding it, on the next quota count */
let cortarNaProxima = false;

const CONTAGEM = /\$(?:4|7)\r\n(?:eval|evalsha)\r\n/gi;

beforeAll(async () => {
  redis = await startRedis();
  proxy = createServer((cliente) => {
    const servidor = connect(redis.port, "127.0.0.1");
    sockets.add(cliente).add(servidor);
    const fim = () => {
      cliente.destroy();
      servidor.destroy();
    };
    cliente.on("data", (d: Buffer) => {
      const n = d.toString("latin1").match(CONTAGEM)?.length ?? 0;
      contagens += n;
      if (n > 0 && cortarNaProxima) {
        cortarNaProxima = false;
        return fim();
      }
      servidor.write(d);
    });
    servidor.on("data", (d: Buffer) => cliente.write(d));
    cliente.on("error", fim).on("close", fim);
    servidor.on("error", fim).on("close", fim);
  });
  await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", () => r()));
}, 60_000);

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((r) => (proxy ? proxy.close(() => r()) : r()));
  await redis?.cleanup();
});

const espera = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("README: a Redis command of the quota is tried once", () => {
  it("a count whose connection drops is counted locally and never sent again, as the README says", async () => {
    const logs: string[] = [];
    const port = (proxy.address() as { port: number }).port;
    const store = await new RedisQuota({ url: `redis://127.0.0.1:${port}/0`, freeLimit: 5, log: (l) => logs.push(l) }).conectar();
    try {
      const agora = Date.now();
      // through the proxy, to Redis: shared, no warning
      const antes = await store.consume("ip", "198.51.100.30", agora);
      expect(antes.aviso).toBeUndefined();
      expect(contagens).toBe(1);

      cortarNaProxima = true;
      const cortada = await store.consume("ip", "198.51.100.30", agora);
      expect(cortada.aviso).toBe(AVISO_COTA_LOCAL);
      expect(contagens).toBe(2);
      // the client reconnects within 200 ms; a resent count would cross the proxy then
      await espera(1_500);
      expect(contagens).toBe(2);
      // Redis holds the one count that reached it, not the one that was cut
      const depois = await store.consume("ip", "198.51.100.30", agora);
      expect(depois.aviso).toBeUndefined();
      expect(contagens).toBe(3);
      expect(depois.remaining).toBe(5 - 2);
      expect(logs.some((l) => l.includes("Redis indisponível"))).toBe(true);
    } finally {
      await store.close();
    }
    expect(readme.includes("uma só tentativa por comando"), "README: uma só tentativa por comando").toBe(true);
    expect(readme.includes("uma nova tentativa por comando"), "README: uma nova tentativa por comando").toBe(false);
  });
});
