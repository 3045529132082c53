import { gzipSync } from "node:zlib";
import { MockAgent } from "undici";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  FetchError,
  HostGate,
  MAX_PAGE_BYTES,
  USER_AGENT,
  PROJECT_URL,
  backoffDelay,
  createHttpClient,
  decodeBody,
  parseRetryAfter,
  type HttpClient,
  type HttpOptions,
} from "../../pipeline/fetch/http.ts";
import {
  chunked,
  chunkedCut,
  endless,
  endlessChallenge,
  firstThen,
  hang,
  hangAfterHeaders,
  huge,
  latin1,
  ok,
  raw,
  redirect,
  startFakeSite,
  startRawSite,
  status,
  trickle,
  trickleHeaders,
  truncatedBody,
  type FakeSite,
  type RawSite,
} from "./server.ts";

let site: FakeSite;
let other: FakeSite;
const clients: HttpClient[] = [];
/** waits the client asked for (backoff, Retry-After), recorded instead of slept */
let waits: number[] = [];

function client(over: Partial<HttpOptions> = {}): HttpClient {
  const c = createHttpClient({
    gate: new HostGate(0),
    backoffBaseMs: 10,
    backoffMaxMs: 40,
    random: () => 0.5,
    sleep: async (ms) => void waits.push(ms),
    ...over,
  });
  clients.push(c);
  return c;
}

async function failure(p: Promise<unknown>): Promise<FetchError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof FetchError) return err;
    throw err;
  }
  throw new Error("esperava uma falha");
}

beforeAll(async () => {
  site = await startFakeSite();
  other = await startFakeSite({ "/x": ok("<html>outro host</html>") });
});
afterEach(async () => {
  waits = [];
  await Promise.all(clients.splice(0).map((c) => c.close()));
});
afterAll(async () => {
  await Promise.all([site.close(), other.close()]);
});

describe("HTTP fetcher", () => {
  it("identifies itself and reads a normal page", async () => {
    site.route("/normal", ok("<html><head><title>Página</title></head><body><table><tr><td>R$ 347,70</td></tr></table></body></html>"));
    const res = await client().get(`${site.url}/normal`);
    expect(res.status).toBe(200);
    expect(res.body).toContain("R$ 347,70");
    expect(res.charset).toBe("utf-8");
    expect(res.attempts).toBe(1);
    const seen = site.requests.filter((r) => r.path === "/normal");
    expect(seen).toHaveLength(1);
    expect(seen[0]!.userAgent).toBe(USER_AGENT);
    expect(USER_AGENT).toBe(`CotacaoAberta/1.0 (+${PROJECT_URL})`);
  });

  it("retries a 503 with backoff and gets the page", async () => {
    site.route("/503", firstThen(1, status(503), ok("<html>de volta</html>")));
    const res = await client().get(`${site.url}/503`);
    expect(res.status).toBe(200);
    expect(res.body).toContain("de volta");
    expect(res.attempts).toBe(2);
    expect(site.hits("/503")).toBe(2);
    // base 10 ms, first retry: 10/2 + random·10/2 with random 0.5
    expect(waits).toEqual([8]);
  });

  it("gives up after the retries and hands back the last 5xx", async () => {
    site.route("/500", status(500));
    const res = await client({ retries: 2 }).get(`${site.url}/500`);
    expect(res.status).toBe(500);
    expect(res.attempts).toBe(3);
    expect(site.hits("/500")).toBe(3);
    expect(waits).toHaveLength(2);
    expect(waits[1]!).toBeGreaterThan(waits[0]!);
  });

  it("honours Retry-After in seconds on a 429", async () => {
    site.route("/429", firstThen(1, status(429, { "retry-after": "3" }), ok("<html>ok</html>")));
    const res = await client().get(`${site.url}/429`);
    expect(res.status).toBe(200);
    expect(waits).toEqual([3000]);
  });

  it("honours Retry-After as an HTTP date", async () => {
    const at = Date.now() + 5000;
    site.route("/429d", firstThen(1, status(429, { "retry-after": new Date(at).toUTCString() }), ok("<html>ok</html>")));
    const res = await client({ now: () => at - 5000 }).get(`${site.url}/429d`);
    expect(res.status).toBe(200);
    // HTTP dates have whole seconds
    expect(waits[0]!).toBeGreaterThan(3000);
    expect(waits[0]!).toBeLessThanOrEqual(5000);
  });

  it("does not come back earlier than a Retry-After past the cap: it gives up", async () => {
    site.route("/429long", status(429, { "retry-after": "3600" }));
    const res = await client({ retryAfterMaxMs: 60_000 }).get(`${site.url}/429long`);
    expect(res.status).toBe(429);
    expect(res.attempts).toBe(1);
    expect(site.hits("/429long")).toBe(1);
    expect(waits).toEqual([]);
  });

  it("does not retry other 4xx", async () => {
    site.route("/404", status(404));
    site.route("/403", status(403));
    const c = client();
    expect((await c.get(`${site.url}/404`)).status).toBe(404);
    expect((await c.get(`${site.url}/403`)).status).toBe(403);
    expect(site.hits("/404")).toBe(1);
    expect(site.hits("/403")).toBe(1);
  });

  it("does not retry a Cloudflare challenge served as 503", async () => {
    site.route("/cf503", endlessChallenge({ header: true, status: 503 }));
    const res = await client().get(`${site.url}/cf503`);
    expect(res.status).toBe(503);
    expect(site.hits("/cf503")).toBe(1);
  });

  it("times out a source that never answers, retrying within the budget", async () => {
    site.route("/hang", hang());
    const err = await failure(client({ requestTimeoutMs: 200, retries: 1 }).get(`${site.url}/hang`));
    expect(err.kind).toBe("timeout");
    expect(err.reason).toMatch(/sem resposta completa em 0\.2 s/);
    expect(err.attempts).toBe(2);
    expect(site.hits("/hang")).toBe(2);
  });

  it("times out a body that never ends", async () => {
    site.route("/trickle", hangAfterHeaders());
    const err = await failure(client({ requestTimeoutMs: 200, retries: 0 }).get(`${site.url}/trickle`));
    expect(err.kind).toBe("timeout");
  });

  it("stops at the deadline: no attempt starts after it", async () => {
    site.route("/hang2", hang());
    const err = await failure(
      client({ requestTimeoutMs: 200, retries: 5, backoffBaseMs: 10_000, backoffMaxMs: 10_000 }).get(`${site.url}/hang2`, { deadline: Date.now() + 1000 }),
    );
    expect(err.kind).toBe("timeout");
    // the first backoff (5 s at least) would end past the deadline: no second request
    expect(site.hits("/hang2")).toBe(1);
  });

  it("reports a refused connection as a network error, after retrying", async () => {
    const gone = await startFakeSite();
    const url = `${gone.url}/x`;
    await gone.close();
    const err = await failure(client({ retries: 1 }).get(url));
    expect(err.kind).toBe("network_error");
    expect(err.reason).toMatch(/ECONNREFUSED/);
    expect(err.attempts).toBe(2);
  });

  it("decodes an ISO-8859-1 page named in the Content-Type header", async () => {
    site.route("/latin1-header", latin1("<html><head><title>Cotação</title></head><body>Preço médio – São Paulo</body></html>", "header"));
    const res = await client().get(`${site.url}/latin1-header`);
    expect(res.charset).toBe("windows-1252");
    expect(res.body).toContain("Preço médio – São Paulo");
  });

  it("decodes an ISO-8859-1 page named only in <meta http-equiv>", async () => {
    site.route("/latin1-meta", latin1("<html><head><title>Cotação</title></head><body>Açúcar à vista</body></html>", "meta"));
    const res = await client().get(`${site.url}/latin1-meta`);
    expect(res.charset).toBe("windows-1252");
    expect(res.body).toContain("Açúcar à vista");
  });

  it("reads <meta charset> and falls back to UTF-8", () => {
    const bytes = Buffer.from('<html><head><meta charset="ISO-8859-1"></head><body>Goiás</body></html>', "latin1");
    expect(decodeBody(bytes, "text/html").text).toContain("Goiás");
    expect(decodeBody(Uint8Array.from([0x80, 0x20, 0x93, 0x61, 0x94, 0x20, 0x96, 0x20, 0xe9]), "text/html; charset=iso-8859-1").text).toBe("€ “a” – é");
    expect(decodeBody(Buffer.from("<p>Goiás</p>", "utf8"), null)).toEqual({ text: "<p>Goiás</p>", charset: "utf-8" });
    expect(decodeBody(Buffer.from("<p>Goiás</p>", "utf8"), "text/html; charset=nonsense-8").charset).toBe("utf-8");
  });

  it("follows a redirect within the same host", async () => {
    site.route("/old", redirect("/new", 301));
    site.route("/new", ok("<html>nova</html>"));
    const res = await client().get(`${site.url}/old`);
    expect(res.body).toContain("nova");
    expect(res.url).toBe(`${site.url}/new`);
  });

  it("refuses a redirect to another host, clearly", async () => {
    site.route("/away", redirect(`${other.url}/x`));
    const err = await failure(client().get(`${site.url}/away`));
    expect(err.kind).toBe("http_error");
    expect(err.reason).toContain(`redirecionamento para outro host recusado: ${other.host}`);
    expect(other.hits("/x")).toBe(0);
    expect(site.hits("/away")).toBe(1);
  });

  it("abandons a streamed body past the size cap", async () => {
    site.route("/huge", huge(50 * 1024 * 1024));
    const err = await failure(client({ maxBytes: 256 * 1024 }).get(`${site.url}/huge`));
    expect(err.kind).toBe("http_error");
    expect(err.reason).toMatch(/resposta grande demais: passou de 262144 bytes/);
    expect(site.hits("/huge")).toBe(1);
  });

  it("refuses a declared Content-Length past the cap without reading it", async () => {
    site.route("/huge-declared", huge(8 * 1024 * 1024, true));
    const err = await failure(client({ maxBytes: 1024 * 1024 }).get(`${site.url}/huge-declared`));
    expect(err.reason).toMatch(/8388608 bytes anunciados/);
  });

  it("counts requests per host", async () => {
    site.route("/c", ok("<html></html>"));
    const c = client();
    await c.get(`${site.url}/c`);
    await c.get(`${site.url}/c`);
    await failure(c.get(`${site.url}/away`));
    expect(c.requestsPerHost()).toEqual({ [site.host]: 3 });
  });
});

describe("bodies that end early are network errors, never shorter pages", () => {
  const raws: RawSite[] = [];
  async function rawSite(...args: Parameters<typeof startRawSite>): Promise<RawSite> {
    const r = await startRawSite(...args);
    raws.push(r);
    return r;
  }
  afterEach(async () => {
    await Promise.all(raws.splice(0).map((r) => r.close()));
  });
  const PAGE = `<html><head><title>Indicador</title></head><body><table>${"<tr><td>01/09/2026</td><td>347,70</td></tr>".repeat(100)}</table></body></html>`;

  it("a body shorter than its Content-Length: network_error with bytes received vs declared, retried", async () => {
    const cut = Buffer.from(PAGE).subarray(0, 1000);
    const r = await rawSite(truncatedBody(cut, Buffer.byteLength(PAGE)));
    const err = await failure(client({ retries: 2 }).get(`${r.url}/cortada`));
    expect(err.kind).toBe("network_error");
    expect(err.reason).toMatch(new RegExp(`^corpo interrompido: \\d+ de ${Buffer.byteLength(PAGE)} bytes recebidos \\(Content-Length\\)`));
    expect(err.attempts).toBe(3);
    expect(r.hits()).toBe(3);
    expect(waits).toHaveLength(2);
  });

  it("a chunked body without its last chunk: network_error, retried", async () => {
    const r = await rawSite(chunkedCut(PAGE.slice(0, 3000)));
    const err = await failure(client({ retries: 1 }).get(`${r.url}/cortada`));
    expect(err.kind).toBe("network_error");
    expect(err.reason).toMatch(/^corpo interrompido: \d+ bytes recebidos, transferência chunked sem o bloco final/);
    expect(err.attempts).toBe(2);
    expect(r.hits()).toBe(2);
  });

  it("a complete chunked body is read whole", async () => {
    const r = await rawSite(chunked(PAGE, 700));
    const res = await client().get(`${r.url}/inteira`);
    expect(res.status).toBe(200);
    expect(res.body).toBe(PAGE);
    expect(res.bytes).toBe(Buffer.byteLength(PAGE));
    expect(res.attempts).toBe(1);
  });

  it("a cut body followed by a whole one on retry gives the whole page", async () => {
    site.route("/corta-uma-vez", firstThen(1, raw(truncatedBody(PAGE.slice(0, 500), PAGE.length)), ok(PAGE)));
    const res = await client().get(`${site.url}/corta-uma-vez`);
    expect(res.body).toBe(PAGE);
    expect(res.attempts).toBe(2);
    expect(site.hits("/corta-uma-vez")).toBe(2);
  });

  it("also when the dispatcher resolves a short body silently (the Content-Length is checked again)", async () => {
    // undici's MockAgent, unlike a socket, hands over 9 bytes under "Content-Length: 1000" without complaint
    const mock = new MockAgent();
    mock.disableNetConnect();
    mock.get("http://fonte.test").intercept({ path: "/p" }).reply(200, "<html>abc", { headers: { "content-length": "1000", "content-type": "text/html" } }).times(2);
    try {
      const err = await failure(client({ dispatcher: mock, retries: 1 }).get("http://fonte.test/p"));
      expect(err.kind).toBe("network_error");
      expect(err.reason).toBe("corpo interrompido: 9 de 1000 bytes recebidos (Content-Length)");
      expect(err.attempts).toBe(2);
    } finally {
      await mock.close();
    }
  });

  it("a compressed body is measured by its Content-Length before decoding, not after", async () => {
    const gz = gzipSync(PAGE);
    site.route("/gzip", ok(gz, { "content-encoding": "gzip", "content-length": String(gz.length) }));
    const res = await client().get(`${site.url}/gzip`);
    expect(res.body).toBe(PAGE);
  });

  it("a body that trickles a byte at a time is cut by the request's deadline (no idle timeout fires)", async () => {
    site.route("/gotejando", trickle(20));
    const err = await failure(client({ requestTimeoutMs: 300, retries: 0 }).get(`${site.url}/gotejando`));
    expect(err.kind).toBe("timeout");
    expect(err.reason).toMatch(/sem resposta completa em 0\.3 s/);
  });

  it("headers that never end are cut by the request's deadline", async () => {
    const r = await rawSite(trickleHeaders(20));
    const err = await failure(client({ requestTimeoutMs: 300, retries: 0 }).get(`${r.url}/cabecalhos`));
    expect(err.kind).toBe("timeout");
  });

  it("an endless body is abandoned at the cap, having let through little more than the cap", async () => {
    const flood = endless();
    site.route("/sem-fim", flood);
    const err = await failure(client({ maxBytes: 256 * 1024 }).get(`${site.url}/sem-fim`));
    expect(err.kind).toBe("http_error");
    // what the server managed to hand to the socket before the client hung up: socket buffers, not the flood
    const sent = await flood.sent();
    expect(sent).toBeGreaterThan(256 * 1024);
    expect(sent).toBeLessThan(64 * 1024 * 1024);
  });

  it("one page size cap, shared with replay", () => {
    expect(MAX_PAGE_BYTES).toBe(5 * 1024 * 1024);
  });
});

describe("politeness and retry arithmetic", () => {
  it("spaces requests to the same host, not to different hosts", async () => {
    let clock = 0;
    const slept: number[] = [];
    const gate = new HostGate(1000, () => clock, async (ms) => {
      slept.push(ms);
      clock += ms;
    });
    await gate.pass("a");
    await gate.pass("a");
    await gate.pass("b");
    clock += 300;
    await gate.pass("a");
    expect(slept).toEqual([1000, 700]);
    expect(gate.snapshot()).toEqual({ a: 3, b: 1 });
  });

  it("spaces concurrent requests too", async () => {
    const slept: number[] = [];
    const gate = new HostGate(1000, () => 0, async (ms) => void slept.push(ms));
    await Promise.all([gate.pass("h"), gate.pass("h"), gate.pass("h")]);
    expect(slept.sort((a, b) => a - b)).toEqual([1000, 2000]);
  });

  it("waits the real minimum interval by default", async () => {
    const c = client({ gate: undefined, sleep: undefined });
    site.route("/p", ok("<html></html>"));
    const spy = vi.spyOn(globalThis, "setTimeout");
    await c.get(`${site.url}/p`);
    await c.get(`${site.url}/p`);
    const delays = spy.mock.calls.map((call) => call[1]).filter((d): d is number => typeof d === "number");
    spy.mockRestore();
    expect(delays.some((d) => d > 900 && d <= 1000)).toBe(true);
  });

  it("parses Retry-After", () => {
    expect(parseRetryAfter("120", 0)).toBe(120_000);
    expect(parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT", Date.parse("Wed, 21 Oct 2015 07:27:00 GMT"))).toBe(60_000);
    expect(parseRetryAfter("amanhã", 0)).toBeNull();
    expect(parseRetryAfter(null, 0)).toBeNull();
  });

  it("backs off exponentially with jitter, capped", () => {
    const o = { backoffBaseMs: 1000, backoffMaxMs: 5000 };
    expect(backoffDelay(1, { ...o, random: () => 0 })).toBe(500);
    expect(backoffDelay(1, { ...o, random: () => 1 })).toBe(1000);
    expect(backoffDelay(2, { ...o, random: () => 0 })).toBe(1000);
    expect(backoffDelay(3, { ...o, random: () => 0.5 })).toBe(3000);
    expect(backoffDelay(10, { ...o, random: () => 1 })).toBe(5000);
  });
});
