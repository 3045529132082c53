/**
 * A key's quota in leases (pipeline/serve/quota-lotes.ts): processes spend units the shared store
 * counted first, so a key never gets past its limit, whatever the interleaving; small quotas are
 * counted one by one; unspent units go back after the lease's time and at shutdown; the Redis
 * scripts count a lease and give it back atomically.
 */
import { describe, expect, it } from "vitest";
import { FOLGA_LOTE, Quota, tamanhoDoLote, type QuotaLote, type QuotaStore } from "../../pipeline/serve/quota.ts";
import { QuotaEmLotes } from "../../pipeline/serve/quota-lotes.ts";
import { RedisQuota } from "../../pipeline/serve/quota-redis.ts";
import { redisDoDescribe } from "./redis-describe.ts";

const T = Date.parse("2026-09-27T12:00:00Z");
const DIA = 86_400_000;

/** the primary's memory store behind a promise (as the IPC store answers), counting the leases asked for */
function assincrona(q: Quota): QuotaStore & Required<Pick<QuotaStore, "reservar" | "devolver">> & { reservas: number } {
  const loja = {
    reservas: 0,
    peek: async (...a: Parameters<Quota["peek"]>) => q.peek(...a),
    consume: async (...a: Parameters<Quota["consume"]>) => q.consume(...a),
    refund: async (...a: Parameters<Quota["refund"]>) => q.refund(...a),
    reservar: async (...a: Parameters<Quota["reservar"]>): Promise<QuotaLote> => {
      loja.reservas++;
      return q.reservar(...a);
    },
    devolver: async (...a: Parameters<Quota["devolver"]>) => q.devolver(...a),
  };
  return loja;
}

async function consumir(l: QuotaEmLotes, n: number, agora = T): Promise<{ allowed: boolean; remaining: number }[]> {
  const out = [];
  for (let i = 0; i < n; i++) out.push(await l.consume("key", "k", agora));
  return out;
}

describe("leases of a key's quota", () => {
  it("sizes a lease at 1/64 of what is left, and one unit below that", () => {
    expect(tamanhoDoLote(256, 1_000_000)).toBe(256);
    expect(tamanhoDoLote(256, 10_000)).toBe(Math.floor(10_000 / FOLGA_LOTE));
    expect(tamanhoDoLote(256, 100)).toBe(1);
    expect(tamanhoDoLote(256, 1)).toBe(1);
  });

  it("spends a lease without asking the store again, and reports the count as it goes", async () => {
    const q = new Quota({ keyLimit: 10_000 });
    const loja = assincrona(q);
    const l = new QuotaEmLotes(loja, { validadeMs: 60_000 });
    const rs = await consumir(l, 156);
    expect(loja.reservas).toBe(1);
    expect(rs.map((r) => r.remaining)).toEqual(Array.from({ length: 156 }, (_, i) => 9_999 - i));
    expect(q.peek("key", "k", T).used).toBe(156);
    // the next one takes a new lease, sized on what is left
    await consumir(l, 1);
    expect(loja.reservas).toBe(2);
    expect(q.peek("key", "k", T).used).toBe(156 + tamanhoDoLote(256, 10_000 - 156));
    await l.close();
  });

  it("never lets a key past its limit across processes, and serves every unit by the end", async () => {
    for (const limite of [5, 200, 3_000]) {
      const q = new Quota({ keyLimit: limite });
      const [a, b] = [new QuotaEmLotes(assincrona(q), { validadeMs: 60_000 }), new QuotaEmLotes(assincrona(q), { validadeMs: 60_000 })];
      let servidas = 0;
      let recusasSeguidas = 0;
      for (let i = 0; recusasSeguidas < 10; i++) {
        // uneven interleaving: b is asked twice as often
        const r = await (i % 3 === 0 ? a : b).consume("key", "k", T);
        if (r.allowed) {
          servidas++;
          recusasSeguidas = 0;
          expect(r.remaining).toBeGreaterThanOrEqual(0);
        } else recusasSeguidas++;
        expect(q.peek("key", "k", T).used).toBeLessThanOrEqual(limite);
      }
      expect(servidas).toBe(limite);
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("counts a small quota one unit at a time, exactly (no lease)", async () => {
    const q = new Quota({ keyLimit: 100 });
    const loja = assincrona(q);
    const l = new QuotaEmLotes(loja);
    await consumir(l, 3);
    expect(q.peek("key", "k", T).used).toBe(3);
    expect(loja.reservas).toBe(3);
    await l.close();
  });

  it("shares one lease among the requests of one moment", async () => {
    const q = new Quota({ keyLimit: 1_000_000 });
    const loja = assincrona(q);
    const l = new QuotaEmLotes(loja, { validadeMs: 60_000 });
    const rs = await Promise.all(Array.from({ length: 50 }, () => l.consume("key", "k", T)));
    expect(rs.every((r) => r.allowed)).toBe(true);
    expect(loja.reservas).toBe(1);
    expect(new Set(rs.map((r) => r.remaining)).size).toBe(50);
    expect(q.peek("key", "k", T).used).toBe(256);
    await l.close();
  });

  it("gives unspent units back after the lease's time and at shutdown; peek counts them as the key's", async () => {
    const q = new Quota({ keyLimit: 1_000_000 });
    const l = new QuotaEmLotes(assincrona(q), { validadeMs: 30 });
    await consumir(l, 10);
    expect(q.peek("key", "k", T).used).toBe(256);
    expect((await l.peek("key", "k", T)).used).toBe(10);
    await new Promise((r) => setTimeout(r, 80));
    expect(q.peek("key", "k", T).used).toBe(10);
    await consumir(l, 1);
    expect(q.peek("key", "k", T).used).toBe(10 + 256);
    await l.close();
    expect(q.peek("key", "k", T).used).toBe(11);
  });

  it("does not take its lease off a local count (the shared store down)", async () => {
    const q = new Quota({ keyLimit: 1_000_000 });
    const loja = assincrona(q);
    const l = new QuotaEmLotes(loja, { validadeMs: 60_000 });
    await consumir(l, 1);
    const local = new Quota({ keyLimit: 1_000_000 });
    local.consume("key", "k", T);
    loja.peek = async (...a: Parameters<Quota["peek"]>) => ({ ...local.peek(...a), aviso: "cota-local; redis-indisponivel" });
    expect(await l.peek("key", "k", T)).toMatchObject({ used: 1, aviso: "cota-local; redis-indisponivel" });
    await l.close();
  });

  it("does not carry a lease into the next day", async () => {
    const q = new Quota({ keyLimit: 1_000_000 });
    const l = new QuotaEmLotes(assincrona(q), { validadeMs: 60_000 });
    await consumir(l, 1);
    const [r] = await consumir(l, 1, T + DIA);
    expect(r).toMatchObject({ allowed: true, remaining: 999_999 });
    expect(q.peek("key", "k", T + DIA).used).toBe(256);
    await l.close();
  });

  it("leaves addresses and calls with their own limit (romaneio) to the store", async () => {
    const q = new Quota({ freeLimit: 1_000_000, keyLimit: 1_000_000 });
    const loja = assincrona(q);
    const l = new QuotaEmLotes(loja);
    await l.consume("ip", "1.2.3.4", T);
    await l.consume("key", "r", T, 50);
    expect(loja.reservas).toBe(0);
    expect(q.peek("ip", "1.2.3.4", T).used).toBe(1);
    expect(q.peek("key", "r", T, 50).used).toBe(1);
    await l.close();
  });
});

describe("leases in Redis", () => {
  const redis = redisDoDescribe();

  it("counts a lease and gives it back in the shared counter; two instances never pass the limit", async () => {
    // Redis expires a counter at the end of its day: the real clock's
    const T = Date.now();
    const loja = (keyLimit: number) => new RedisQuota({ url: redis().url, keyLimit, prefixo: `lotes:${keyLimit}`, log: () => undefined }).conectar();
    const r = await loja(10_000);
    expect(await r.reservar("key", "k", T, 256)).toMatchObject({ allowed: true, concedidas: 156, used: 156 });
    await r.devolver("key", "k", T, 100);
    expect((await r.peek("key", "k", T)).used).toBe(56);
    // never below zero
    await r.devolver("key", "k", T, 1_000);
    expect((await r.peek("key", "k", T)).used).toBe(0);
    await r.close();

    const limite = 500;
    const [a, b] = [new QuotaEmLotes(await loja(limite), { validadeMs: 60_000 }), new QuotaEmLotes(await loja(limite), { validadeMs: 60_000 })];
    let servidas = 0;
    const rodada = async (l: QuotaEmLotes) => ((await l.consume("key", "k", T)).allowed ? servidas++ : undefined);
    for (let i = 0; i < 700; i++) await Promise.all([rodada(a), rodada(b), rodada(b)]);
    expect(servidas).toBe(limite);
    const c = await loja(limite);
    expect((await c.peek("key", "k", T)).used).toBe(limite);
    await Promise.all([a.close(), b.close(), c.close()]);
  });
});
