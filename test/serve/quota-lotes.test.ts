/**
 * A key's quota in leases (pipeline/serve/quota-lotes.ts): processes spend units the shared store
 * counted first, so a key never gets past its limit, whatever the interleaving; small quotas are
 * counted one by one; unspent units go back after the lease's time and at shutdown; the Redis
 * scripts count a lease and give it back atomically.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { FOLGA_LOTE, Quota, quotaState, tamanhoDoLote, type QuotaLote, type QuotaStore } from "../../pipeline/serve/quota.ts";
import { LOTE_MAXIMO, QuotaEmLotes } from "../../pipeline/serve/quota-lotes.ts";
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
    expect(q.peek("key", "k", T).used).toBe(156 + tamanhoDoLote(LOTE_MAXIMO, 10_000 - 156));
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
    expect(q.peek("key", "k", T).used).toBe(LOTE_MAXIMO);
    await l.close();
  });

  it("gives unspent units back after the lease's time and at shutdown; peek counts them as the key's", async () => {
    const q = new Quota({ keyLimit: 1_000_000 });
    const l = new QuotaEmLotes(assincrona(q), { validadeMs: 30 });
    await consumir(l, 10);
    expect(q.peek("key", "k", T).used).toBe(LOTE_MAXIMO);
    expect((await l.peek("key", "k", T)).used).toBe(10);
    await new Promise((r) => setTimeout(r, 80));
    expect(q.peek("key", "k", T).used).toBe(10);
    await consumir(l, 1);
    expect(q.peek("key", "k", T).used).toBe(10 + LOTE_MAXIMO);
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
    expect(q.peek("key", "k", T + DIA).used).toBe(LOTE_MAXIMO);
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

/**
 * A key refused while units of its day are out on lease in another process: the refusal says it
 * passes (emUso, Retry-After the give-back time) instead of sending the client away until 00:00
 * UTC; once the units are back, the key is served; a key whose units are all spent hears 00:00 UTC.
 */
async function semAsUnidadesDeOutro(
  loja: () => Promise<QuotaStore & Required<Pick<QuotaStore, "reservar" | "devolver">>>,
  T: number,
  devolver: (a: QuotaEmLotes) => Promise<void>,
) {
  const limite = 200;
  // process a takes a lease of 3 (200 / 64) and spends one: it holds 2
  const a = new QuotaEmLotes(await loja(), { validadeMs: 60_000 });
  const b = new QuotaEmLotes(await loja(), { validadeMs: 1000 });
  expect(await a.consume("key", "k", T)).toMatchObject({ allowed: true, remaining: 199 });
  let servidas = 0;
  let r = await b.consume("key", "k", T);
  for (; r.allowed; r = await b.consume("key", "k", T)) servidas++;
  expect(servidas).toBe(limite - 3);
  expect(r, "the refusal while a holds 2 units").toMatchObject({ allowed: false, remaining: 0, emUso: true, retryAfter: 1 });
  expect(await b.peek("key", "k", T)).toMatchObject({ remaining: 0, emUso: true, retryAfter: 1 });
  await devolver(a);
  expect(await b.consume("key", "k", T), "a's units, given back").toMatchObject({ allowed: true });
  expect(await b.consume("key", "k", T)).toMatchObject({ allowed: true, remaining: 0 });
  const fim = await b.consume("key", "k", T);
  expect(fim.allowed).toBe(false);
  expect(fim.emUso, "every unit spent: the refusal is the day's").toBeUndefined();
  expect(fim.retryAfter).toBe(quotaState(limite, limite, T).retryAfter);
  expect((await b.peek("key", "k", T)).emUso).toBeUndefined();
  await Promise.all([a.close(), b.close()]);
}

describe("a refusal while units are out on lease in another process", () => {
  afterEach(() => void vi.useRealTimers());

  it("in memory: Retry-After is the give-back time; after the give-back (the lease's timer) the key is served, then refused until 00:00 UTC", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout"] });
    const q = new Quota({ keyLimit: 200 });
    await semAsUnidadesDeOutro(async () => assincrona(q), T, async () => {
      // a's lease is 60 s long: its timer gives the 2 units back
      await vi.advanceTimersByTimeAsync(60_000);
    });
    expect(q.peek("key", "k", T)).toMatchObject({ used: 200 });
    expect(q.peek("key", "k", T).emprestadas).toBeUndefined();
  });

  it("in memory: a lease spent whole is settled at once, so the refusal is the day's, not a second's", async () => {
    const q = new Quota({ keyLimit: 200 });
    const a = new QuotaEmLotes(assincrona(q), { validadeMs: 60_000 });
    const b = new QuotaEmLotes(assincrona(q), { validadeMs: 60_000 });
    // a spends its whole lease of 3
    for (let i = 0; i < 3; i++) expect((await a.consume("key", "k", T)).allowed).toBe(true);
    while ((await b.consume("key", "k", T)).allowed);
    const r = await b.consume("key", "k", T);
    expect(r).toMatchObject({ allowed: false, remaining: 0 });
    expect(r.emUso).toBeUndefined();
    expect(r.retryAfter).toBe(quotaState(200, 200, T).retryAfter);
    expect(q.peek("key", "k", T).emprestadas, "b's own leases, spent whole, are settled too").toBeUndefined();
    await Promise.all([a.close(), b.close()]);
  });

  it("the store counts the units out on lease: a lease adds all but its first, its settlement takes them off, a new day starts at none", () => {
    const q = new Quota({ keyLimit: 10_000 });
    expect(q.reservar("key", "k", T, 256)).toMatchObject({ concedidas: 156, emprestadas: 155 });
    expect(q.reservar("key", "k", T, 256)).toMatchObject({ concedidas: 153, emprestadas: 155 + 152 });
    q.devolver("key", "k", T, 100, 155);
    expect(q.peek("key", "k", T)).toMatchObject({ used: 156 + 153 - 100, emprestadas: 152 });
    // the romaneio's count of a key (its own limit) is never leased
    expect(q.peek("key", "k", T, 5).emprestadas).toBeUndefined();
    expect(q.peek("key", "k", T + DIA).emprestadas).toBeUndefined();
  });
});

describe("a refusal while units are out on lease, in Redis", () => {
  const redis = redisDoDescribe();

  it("Retry-After is the give-back time; after the give-back the key is served, then refused until 00:00 UTC", async () => {
    // Redis expires a counter at the end of its day: the real clock's
    const T = Date.now();
    const prefixo = `emuso:${process.pid}`;
    await semAsUnidadesDeOutro(
      () => new RedisQuota({ url: redis().url, keyLimit: 200, prefixo, log: () => undefined }).conectar(),
      T,
      (a) => a.close(),
    );
    const c = await new RedisQuota({ url: redis().url, keyLimit: 200, prefixo, log: () => undefined }).conectar();
    expect(await c.peek("key", "k", T)).toMatchObject({ used: 200 });
    expect((await c.peek("key", "k", T)).emprestadas).toBeUndefined();
    await c.close();
  });

  it("forgets the units out on lease of a process that never settles them, after prazoLotesMs", async () => {
    const T = Date.now();
    const r = await new RedisQuota({ url: redis().url, keyLimit: 10_000, prefixo: `prazo:${process.pid}`, log: () => undefined, prazoLotesMs: 50 }).conectar();
    expect(await r.reservar("key", "k", T, 256)).toMatchObject({ concedidas: 156, emprestadas: 155 });
    await vi.waitFor(async () => expect((await r.peek("key", "k", T)).emprestadas).toBeUndefined(), { timeout: 5000, interval: 20 });
    expect((await r.peek("key", "k", T)).used).toBe(156);
    await r.close();
  });
});
