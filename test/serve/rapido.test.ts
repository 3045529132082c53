/**
 * The fast path (plain node:http for ready query answers) answers exactly as the Hono route does:
 * two servers over the same site, one with the fast path off, get the same requests in the same
 * order, each with its own store, and every answer must match byte for byte (status, headers but
 * Date, body), with the quota in memory, in a live Redis, and with Redis down (open and closed).
 */
import { createHash } from "node:crypto";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../pipeline/serve/app.ts";
import { Quota, type QuotaStore } from "../../pipeline/serve/quota.ts";
import { QuotaEmLotes } from "../../pipeline/serve/quota-lotes.ts";
import { RedisQuota } from "../../pipeline/serve/quota-redis.ts";
import { rawRequest } from "./http.ts";
import { freePort, startRedis, type RedisDeTeste } from "./redis.ts";
import { buildTestSite } from "./site.ts";

const KEY = "chave-rapida-0123456789";
/** how the quota names the key (its SHA-256) */
const hashDaChave = createHash("sha256").update(KEY).digest("hex");
const clock = Date.parse("2026-09-27T12:00:00Z");
let site: Awaited<ReturnType<typeof buildTestSite>>;
let redis: RedisDeTeste;
const abertos: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  [site, redis] = await Promise.all([buildTestSite(), startRedis()]);
}, 120_000);

afterAll(async () => {
  for (const a of abertos.reverse()) await a.close().catch(() => undefined);
  await redis?.cleanup();
  await site?.cleanup();
});

interface Pedido {
  metodo?: string;
  path: string;
  headers?: Record<string, string>;
  /** the Host header's value (default 127.0.0.1) */
  host?: string;
  /** raw header lines after the others (a header sent twice) */
  linhas?: string[];
}

function bruto(p: Pedido): string {
  const extra = [...Object.entries(p.headers ?? {}).map(([k, v]) => `${k}: ${v}`), ...(p.linhas ?? [])].map((l) => `${l}\r\n`).join("");
  return `${p.metodo ?? "GET"} ${p.path} HTTP/1.1\r\nHost: ${p.host ?? "127.0.0.1"}\r\nConnection: close\r\n${extra}\r\n`;
}

async function servidor(store: QuotaStore, caminhoRapido: boolean): Promise<RunningServer> {
  const srv = await startServer({ publicDir: site.publicDir, apiKeys: [KEY], trustedProxies: 1, now: () => clock, quotaStore: store, caminhoRapido });
  abertos.push({ close: async () => (await srv.close(), await store.close?.()) });
  return srv;
}

const ip = (n: number) => ({ "X-Forwarded-For": `203.0.113.${n}` });
const chave = { "X-API-Key": KEY };

/** the table: every query answer repeated, so the second and later ones can take the fast path */
function tabela(etag: string): Pedido[] {
  const t: Pedido[] = [];
  const duas = (p: Pedido) => t.push(p, p, p);
  duas({ path: "/api/v1/cotacao?uf=MS", headers: chave });
  duas({ path: "/api/v1/cotacao?uf=MS", headers: ip(1) });
  duas({ path: "/api/v1/cotacao?uf=PI&_=1732300000&cidade=Maring%C3%A1", headers: ip(2) });
  duas({ path: "/api/v1/cotacao?produto=boi_gordo&uf=mt", headers: chave });
  duas({ path: "/api/v1/cotacao", headers: chave });
  duas({ path: "/api/v1/cotacao?uf=MS", headers: { ...chave, "Accept-Encoding": "gzip" } });
  // what browsers send, and the q-values: br over gzip, q=0 refuses, * stands for the others
  for (const ae of ["gzip, deflate, br", "br", "gzip;q=0", "gzip;q=0, br", "*", "br;q=0, *;q=0.5", "identity", "identity, *;q=0", "deflate"]) {
    duas({ path: "/api/v1/cotacao?uf=MS", headers: { ...chave, "Accept-Encoding": ae } });
  }
  duas({ path: "/api/v1/cotacao?uf=MS", headers: { ...ip(4), "Accept-Encoding": "gzip, deflate, br" } });
  duas({ path: "/api/v1/cotacao?uf=MS", headers: { ...chave, "Accept-Encoding": "gzip, deflate, br", "If-None-Match": etag } });
  duas({ path: "/api/v1/cotacao?uf=PI", headers: { ...chave, "Accept-Encoding": "gzip, deflate, br" } });
  duas({ path: "/api/v1/historico?produto=boi_gordo&uf=MS&de=2026-01-01", headers: { ...chave, "Accept-Encoding": "gzip, deflate, br" } });
  duas({ path: "/api/v1/cotacao", headers: { ...chave, "Accept-Encoding": "gzip" } });
  duas({ path: "/api/v1/cotacao?produto=boi_gordo&uf=mt", headers: { ...chave, "Accept-Encoding": "br;q=1, gzip;q=0.5" } });
  duas({ path: "/api/v1/cotacao?uf=MS", headers: { ...chave, "If-None-Match": etag } });
  duas({ path: "/api/v1/cotacao?uf=MS", headers: { ...chave, "If-None-Match": 'W/"outro"' } });
  duas({ metodo: "HEAD", path: "/api/v1/cotacao?uf=MS", headers: chave });
  duas({ path: "/api/v1/cotacao?uf=XX", headers: chave });
  duas({ path: "/api/v1/cotacao?produto=nada", headers: chave });
  duas({ path: "/api/v1/cotacao?uf=MS&uf=SP", headers: chave });
  duas({ path: "/api/v1/cotacao?uf=MS", headers: { "X-API-Key": "chave-errada" } });
  duas({ path: "/api/v1/historico?produto=boi_gordo&uf=MS&de=2026-01-01", headers: chave });
  duas({ path: "/api/v1/simulador?produto=boi_gordo&uf=MS&cabecas=10&peso_vivo_kg=540&rendimento_pct=52", headers: chave });
  duas({ path: "/api/v1/cotacao/?uf=MS", headers: chave });
  duas({ path: "/api/v1/cotacao/uf/MS.json", headers: chave });
  // the headers the fast path reads from the raw list: any case, sent twice, other Hosts
  duas({ path: "/api/v1/cotacao?uf=MS", headers: { "x-api-key": KEY } });
  duas({ path: "/api/v1/cotacao?uf=MS", headers: { "X-Api-Key": ` ${KEY} ` } });
  duas({ path: "/api/v1/cotacao?uf=MS", headers: chave, linhas: [`X-API-Key: ${KEY}`] });
  duas({ path: "/api/v1/cotacao?uf=MS", headers: chave, linhas: ["x-api-key: chave-errada"] });
  duas({ path: "/api/v1/cotacao?uf=MS", headers: chave, linhas: ["Host: outro.exemplo"] });
  duas({ path: "/api/v1/cotacao?uf=MS", headers: chave, host: "localhost:8080" });
  duas({ path: "/api/v1/cotacao?uf=MS", headers: chave, host: "EXEMPLO.com.br" });
  duas({ path: "/api/v1/cotacao?uf=MS", headers: chave, host: "exemplo.com.br:70000" });
  duas({ path: "/api/v1/cotacao?uf=MS", headers: { ...chave, "if-none-match": etag } });
  duas({ path: "/api/v1/cotacao?uf=MS", headers: chave, linhas: [`If-None-Match: ${etag}`, 'IF-NONE-MATCH: W/"outro"'] });
  duas({ path: "/api/v1/cotacao?uf=MS", headers: { ...chave, "accept-encoding": "identity" } });
  duas({ path: "/api/v1/cotacao?uf=MS", headers: chave, linhas: ["Accept-Encoding: identity", "accept-encoding: gzip"] });
  duas({ path: "/api/v1/cotacao?uf=MS", headers: { "x-forwarded-for": "198.51.100.1, 203.0.113.4" } });
  duas({ path: "/api/v1/cotacao?uf=MS", headers: ip(5), linhas: ["X-Forwarded-For: 203.0.113.6"] });
  duas({ path: "/api/v1/cotacao?uf=MS&uf=MS", headers: chave });
  duas({ path: "/api/v1/cotacao?UF=MS", headers: chave });
  duas({ path: "/api/v1/cotacao?uf=M%53", headers: chave });
  duas({ path: "/api/v1//cotacao?uf=MS", headers: chave });
  duas({ path: "/api/v1/./cotacao?uf=MS", headers: chave });
  // an address with 3 a day: the 4th and later answers are 429, on either path
  for (let i = 0; i < 5; i++) t.push({ path: "/api/v1/cotacao?uf=SP", headers: ip(3) });
  return t;
}

type Resposta = Awaited<ReturnType<typeof rawRequest>>;

/**
 * A compressed answer decodes to exactly the plain answer: the same bytes, the counter in its tail
 * the one the headers report. (The plain answer is the same on both paths: the table checks that.)
 */
function decodificada(r: Resposta): string {
  const enc = r.headers["content-encoding"];
  const corpo = enc === "br" ? brotliDecompressSync(r.bytes) : enc === "gzip" ? gunzipSync(r.bytes) : r.bytes;
  return corpo.toString("utf8");
}

function semData(r: Resposta) {
  const { date: _d, ...headers } = r.headers;
  return { status: r.status, headers, body: r.bytes.toString("base64") };
}

/** sends the table to both servers, one request at a time, and compares every answer */
async function comparar(lento: RunningServer, rapido: RunningServer): Promise<Resposta[]> {
  const primeira = await rawRequest(lento.port, bruto({ path: "/api/v1/cotacao?uf=MS", headers: ip(9) }));
  await rawRequest(rapido.port, bruto({ path: "/api/v1/cotacao?uf=MS", headers: ip(9) }));
  const etag = primeira.headers.etag ?? 'W/"sem-etag"';
  const out: Resposta[] = [];
  for (const p of tabela(etag)) {
    const a = await rawRequest(lento.port, bruto(p));
    const b = await rawRequest(rapido.port, bruto(p));
    const nome = `${p.metodo ?? "GET"} ${p.path} ${JSON.stringify(p.headers)}`;
    expect(semData(b), nome).toEqual(semData(a));
    if (a.headers["content-encoding"] && p.metodo !== "HEAD") {
      const texto = decodificada(a);
      expect(texto.endsWith(`"rate_limit":{"diario":${a.headers["x-ratelimit-limit"]},"restante":${a.headers["x-ratelimit-remaining"]}}}`), nome).toBe(true);
      expect(Buffer.byteLength(texto), nome).toBeGreaterThan(1024);
    }
    out.push(a);
  }
  expect(lento.respostasRapidas()).toBe(0);
  return out;
}

describe("fast path: the same answers as the Hono route", () => {
  it("with the quota in memory: answers, 304, compression, errors, HEAD, unknown key, 429", async () => {
    const lento = await servidor(new Quota({ freeLimit: 3, keyLimit: 1000 }), false);
    const rapido = await servidor(new Quota({ freeLimit: 3, keyLimit: 1000 }), true);
    const rs = await comparar(lento, rapido);
    // the table has what it claims to have, and the fast path did answer much of it
    for (const status of [200, 304, 400, 401, 404, 429]) expect(rs.map((r) => r.status)).toContain(status);
    expect(rs.some((r) => r.headers["content-encoding"] === "gzip")).toBe(true);
    expect(rs.some((r) => r.headers["content-encoding"] === "br")).toBe(true);
    expect(rs.some((r) => r.headers["x-cotacao-aviso"] === "sem-serie-estadual; uf=PI")).toBe(true);
    expect(rs.some((r) => r.headers["x-cotacao-parametros-ignorados"] === "_,cidade")).toBe(true);
    expect(rapido.respostasRapidas()).toBeGreaterThanOrEqual(20);
  });

  it("with the quota in Redis, leased for the key", async () => {
    const store = (prefixo: string) => new RedisQuota({ url: redis.url, freeLimit: 3, keyLimit: 1000, prefixo, log: () => undefined }).conectar();
    const lento = await servidor(new QuotaEmLotes(await store("rapido:a")), false);
    const rapido = await servidor(new QuotaEmLotes(await store("rapido:b")), true);
    await comparar(lento, rapido);
    expect(rapido.respostasRapidas()).toBeGreaterThanOrEqual(20);
  });

  it("a key refused while another process holds units of it: 429 with Retry-After 1, then served once they are back, then 429 until 00:00 UTC", async () => {
    // each server shares its store with another process (a QuotaEmLotes that holds a lease)
    const par = async (caminhoRapido: boolean) => {
      const q = new Quota({ freeLimit: 3, keyLimit: 200 });
      const outro = new QuotaEmLotes(q, { validadeMs: 3_600_000 });
      // the other process takes a lease of 3 (200 / 64) and spends 1
      expect((await outro.consume("key", hashDaChave, clock)).allowed).toBe(true);
      return { srv: await servidor(new QuotaEmLotes(q, { validadeMs: 1000 }), caminhoRapido), outro };
    };
    const lento = await par(false);
    const rapido = await par(true);
    const p: Pedido = { path: "/api/v1/cotacao?uf=MS", headers: chave };
    const um = async (): Promise<Resposta> => {
      const a = await rawRequest(lento.srv.port, bruto(p));
      const b = await rawRequest(rapido.srv.port, bruto(p));
      expect(semData(b)).toEqual(semData(a));
      return a;
    };
    let r = await um();
    let servidas = 0;
    for (; r.status === 200; r = await um()) servidas++;
    expect(servidas).toBe(197);
    expect(r.status).toBe(429);
    expect(r.headers["retry-after"]).toBe("1");
    expect(r.headers["x-ratelimit-remaining"]).toBe("0");
    expect(r.headers["x-ratelimit-reset"]).toBe(String(Date.parse("2026-09-28T00:00:00Z") / 1000));
    expect(JSON.parse(r.body)).toMatchObject({ erro: "cota_em_uso", limite: 200, tente_de_novo_em: 1 });
    expect(JSON.parse(r.body).mensagem).toMatch(/reservadas por outros processos.*voltam em até 1 s/);
    // the other process gives its 2 units back
    await Promise.all([lento.outro.close(), rapido.outro.close()]);
    expect((await um()).status).toBe(200);
    expect((await um()).status).toBe(200);
    const fim = await um();
    expect(fim.status).toBe(429);
    expect(fim.headers["retry-after"]).toBe(String(12 * 3600));
    expect(JSON.parse(fim.body)).toMatchObject({ erro: "limite_excedido", limite: 200 });
    expect(rapido.srv.respostasRapidas()).toBeGreaterThanOrEqual(190);
  });

  it("the day in Brasília changes: the fast path answers the new day's answer, as Hono does", async () => {
    let agora = Date.parse("2026-09-27T20:00:00Z");
    const par = await Promise.all(
      [false, true].map(async (caminhoRapido) => {
        const srv = await startServer({ publicDir: site.publicDir, apiKeys: [KEY], now: () => agora, quota: { keyLimit: 1000 }, caminhoRapido });
        abertos.push(srv);
        return srv;
      }),
    );
    const p: Pedido = { path: "/api/v1/simulador?produto=boi_gordo&uf=MS&cabecas=10&peso_vivo_kg=540&rendimento_pct=52", headers: chave };
    const ambos = async () => {
      const [a, b] = [await rawRequest(par[0]!.port, bruto(p)), await rawRequest(par[1]!.port, bruto(p))];
      expect(semData(b)).toEqual(semData(a));
      return a;
    };
    await ambos();
    const ontem = await ambos();
    // 03:00 UTC is midnight in Brasília: the same query, another day
    agora = Date.parse("2026-09-28T03:30:00Z");
    await ambos();
    const hoje = await ambos();
    expect(hoje.headers.etag).not.toBe(ontem.headers.etag);
    expect(par[1]!.respostasRapidas()).toBeGreaterThanOrEqual(2);
  });

  for (const falha of ["abrir", "fechar"] as const) {
    it(`with Redis down, failing ${falha === "abrir" ? "open (a local count, said in X-Cotacao-Aviso)" : "closed (503)"}`, async () => {
      const porta = await freePort();
      const store = () => new RedisQuota({ url: `redis://127.0.0.1:${porta}`, freeLimit: 3, keyLimit: 1000, falha, timeoutMs: 50, log: () => undefined }).conectar();
      const lento = await servidor(new QuotaEmLotes(await store()), false);
      const rapido = await servidor(new QuotaEmLotes(await store()), true);
      const rs = await comparar(lento, rapido);
      if (falha === "abrir") {
        expect(rs.some((r) => r.status === 200 && r.headers["x-cotacao-aviso"] === "cota-local; redis-indisponivel")).toBe(true);
        expect(rs.some((r) => r.headers["x-cotacao-aviso"] === "sem-serie-estadual; uf=PI, cota-local; redis-indisponivel")).toBe(true);
        expect(rapido.respostasRapidas()).toBeGreaterThanOrEqual(20);
      } else {
        expect(rs.filter((r) => r.status === 503).length).toBeGreaterThan(10);
        // only the static file is served
        expect(rs.filter((r) => r.status === 200).length).toBe(3);
      }
    });
  }
});
