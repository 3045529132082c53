import { describe, expect, it } from "vitest";
import { clientAddress, clientId, Quota, quotaDay, quotaState, seguir } from "../../pipeline/serve/quota.ts";

const T = Date.parse("2026-09-27T23:59:59Z");

describe("quota", () => {
  it("keeps memory bounded and never under-counts sprayed addresses", () => {
    const q = new Quota({ freeLimit: 5, maxClients: 100, sketchWidth: 1024, sketchDepth: 4 });
    for (let i = 0; i < 20_000; i++) q.consume("ip", `198.18.${i >> 8}.${i & 255}`, T);
    expect(q.size).toBeLessThanOrEqual(100);
    // an address counted in the sketch still gets at most its limit
    const late = "203.0.113.250";
    let allowed = 0;
    for (let i = 0; i < 10; i++) if (q.consume("ip", late, T).allowed) allowed++;
    expect(allowed).toBeLessThanOrEqual(5);
  });

  it("resets at 00:00 UTC", () => {
    const q = new Quota({ freeLimit: 1 });
    expect(q.consume("ip", "a", T).allowed).toBe(true);
    expect(q.consume("ip", "a", T)).toMatchObject({ allowed: false, retryAfter: 1 });
    expect(q.consume("ip", "a", T + 1000).allowed).toBe(true);
  });

  it("counts IPv6 per /64 and unwraps IPv4-mapped addresses", () => {
    expect(clientId("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(clientId("2001:db8:1:2:bbbb::9")).toBe("2001:db8:1:2::/64");
    expect(clientId("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(clientId("não é ip")).toBeNull();
  });

  it("takes X-Forwarded-For only from trusted hops", () => {
    expect(clientAddress("127.0.0.1", "1.2.3.4", 0)).toBe("127.0.0.1");
    expect(clientAddress("127.0.0.1", "6.6.6.6, 1.2.3.4", 1)).toBe("1.2.3.4");
    expect(clientAddress("127.0.0.1", "6.6.6.6, 1.2.3.4", 2)).toBe("6.6.6.6");
    expect(clientAddress("127.0.0.1", "lixo", 1)).toBe("127.0.0.1");
  });

  it("answers synchronously from memory, so the static files pay no promise for it", () => {
    const q = new Quota({ freeLimit: 2 });
    const peek = q.peek("ip", "a", T);
    expect(peek).not.toBeInstanceOf(Promise);
    expect(q.consume("ip", "a", T)).not.toBeInstanceOf(Promise);
    expect(seguir(q.peek("ip", "a", T), (s) => s.used)).toBe(1);
    expect(seguir(Promise.resolve(peek), (s) => s.used)).toBeInstanceOf(Promise);
  });

  it("takes a limit per call, above the key limit too, and keeps one count per id whatever the limit", () => {
    const q = new Quota({ freeLimit: 2, keyLimit: 10_000 });
    expect(q.peek("key", "romaneio:k", T, 3)).toMatchObject({ limit: 3, used: 0, remaining: 3 });
    const vezes = [1, 2, 3, 4].map(() => q.consume("key", "romaneio:k", T, 3).allowed);
    expect(vezes).toEqual([true, true, true, false]);
    expect(q.peek("key", "romaneio:k", T, 3)).toMatchObject({ used: 3, remaining: 0 });
    // the kind's own limit when the call names none
    expect(q.peek("key", "k", T).limit).toBe(10_000);
    expect(q.peek("ip", "a", T).limit).toBe(2);
    // 10,000 is the query keys' limit, not a ceiling of the store
    let permitidas = 0;
    for (let i = 0; i < 12_001; i++) if (q.consume("key", "romaneio:grande", T, 12_000).allowed) permitidas++;
    expect(permitidas).toBe(12_000);
    expect(q.peek("key", "romaneio:grande", T, 12_000)).toMatchObject({ used: 12_000, remaining: 0 });
  });

  it("gives a unit back: never below zero, never to another day, never through the shared sketch", () => {
    const q = new Quota({ freeLimit: 5, keyLimit: 10, maxClients: 1, sketchWidth: 64, sketchDepth: 2 });
    expect(q.consume("key", "k", T, 1).allowed).toBe(true);
    expect(q.consume("key", "k", T, 1).allowed).toBe(false);
    q.refund("key", "k", T);
    expect(q.peek("key", "k", T, 1).used).toBe(0);
    expect(q.consume("key", "k", T, 1).allowed).toBe(true);
    q.refund("key", "k", T);
    q.refund("key", "k", T);
    q.refund("key", "nunca", T);
    expect(q.peek("key", "k", T).used).toBe(0);
    expect(q.peek("key", "nunca", T).used).toBe(0);
    // charged before 00:00 UTC, failed after it: yesterday's count is gone, today's is untouched
    expect(q.consume("key", "k", T).allowed).toBe(true);
    expect(q.consume("key", "k", T + 1000).allowed).toBe(true);
    q.refund("key", "k", T);
    expect(q.peek("key", "k", T + 1000).used).toBe(1);
    // an address counted exactly gets its unit back; one in the sketch does not (that could under-count others)
    expect(q.consume("ip", "198.51.100.1", T + 1000).allowed).toBe(true);
    q.refund("ip", "198.51.100.1", T + 1000);
    expect(q.peek("ip", "198.51.100.1", T + 1000).used).toBe(0);
    expect(q.consume("ip", "198.51.100.1", T + 1000).allowed).toBe(true);
    expect(q.consume("ip", "198.51.100.2", T + 1000).allowed).toBe(true);
    q.refund("ip", "198.51.100.2", T + 1000);
    expect(q.peek("ip", "198.51.100.2", T + 1000).used).toBe(1);
  });

  it("names the UTC day and the next 00:00 UTC the shared stores count and expire by", () => {
    expect(quotaDay(T)).toBe("2026-09-27");
    expect(quotaDay(T + 1000)).toBe("2026-09-28");
    expect(quotaState(100, 40, T)).toEqual({ limit: 100, used: 40, remaining: 60, reset: Date.parse("2026-09-28T00:00:00Z") / 1000, retryAfter: 1 });
  });
});
