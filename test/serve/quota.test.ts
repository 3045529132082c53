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

  it("names the UTC day and the next 00:00 UTC the shared stores count and expire by", () => {
    expect(quotaDay(T)).toBe("2026-09-27");
    expect(quotaDay(T + 1000)).toBe("2026-09-28");
    expect(quotaState(100, 40, T)).toEqual({ limit: 100, used: 40, remaining: 60, reset: Date.parse("2026-09-28T00:00:00Z") / 1000, retryAfter: 1 });
  });
});
