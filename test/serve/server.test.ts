import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../pipeline/serve/app.ts";
import type { AggregateFile, SerieFile } from "../../pipeline/domain/publicados.ts";
import { get, rawRequest } from "./http.ts";
import { buildTestSite } from "./site.ts";
import { PRODUTOS } from "../../pipeline/domain/products.ts";

let site: Awaited<ReturnType<typeof buildTestSite>>;
let srv: RunningServer;
let clock = Date.parse("2026-09-27T12:00:00Z");
const KEY = "chave-de-teste-0123456789";

async function file<T>(rel: string): Promise<T> {
  return JSON.parse(await readFile(join(site.publicDir, rel), "utf8")) as T;
}

/** each test gets its own client address through a trusted X-Forwarded-For, so quotas do not mix */
let n = 0;
function ip(): string {
  n += 1;
  return `10.0.${Math.floor(n / 250)}.${n % 250}`;
}
async function api(path: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(new URL(path, srv.url), { headers: { "X-Forwarded-For": ip(), ...headers } });
}

beforeAll(async () => {
  site = await buildTestSite();
  srv = await startServer({ publicDir: site.publicDir, apiKeys: [KEY], trustedProxies: 1, now: () => clock });
});
afterAll(async () => {
  await srv?.close();
  await site?.cleanup();
});

describe("query interface", () => {
  it("serves the aggregate with rate_limit, and the same numbers as cotacao.json", async () => {
    const res = await api("api/v1/cotacao");
    expect(res.status).toBe(200);
    const body = (await res.json()) as AggregateFile & { rate_limit: { diario: number; restante: number } };
    const { rate_limit, ...data } = body;
    expect(data).toEqual(await file<AggregateFile>("api/v1/cotacao.json"));
    expect(rate_limit).toEqual({ diario: 100, restante: 99 });
    expect(res.headers.get("cache-control")).toBe("public, max-age=1800");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("reads lowercase and padded UF codes", async () => {
    const res = await api("api/v1/cotacao?uf=%20ms%20");
    const body = (await res.json()) as AggregateFile;
    expect(body.boi_gordo_uf).toEqual((await file<AggregateFile>("api/v1/cotacao/uf/MS.json")).boi_gordo_uf);
    const res2 = await api("api/v1/cotacao?produto=BOI_GORDO&uf=mt");
    const serie = (await res2.json()) as Partial<SerieFile>;
    const expected = await file<SerieFile>("api/v1/cotacao/boi_gordo/MT.json");
    expect(serie.valor).toBe(expected.valor);
    expect(serie.pracas).toEqual(expected.pracas);
    expect(serie.historico).toBeUndefined();
  });

  it("serves a single national quotation without historico", async () => {
    const body = (await (await api("api/v1/cotacao?produto=soja")).json()) as Record<string, unknown>;
    const { historico: _h, ...expected } = await file<SerieFile>("api/v1/cotacao/soja.json");
    const { rate_limit, ...data } = body;
    expect(data).toEqual(expected);
    expect(rate_limit).toMatchObject({ diario: 100 });
  });

  it("slices a history by de/ate and refuses bad dates and ranges", async () => {
    const full = await file<SerieFile>("api/v1/cotacao/boi_gordo.json");
    const de = full.historico[2]!.data;
    const ate = full.historico[5]!.data;
    const body = (await (await api(`api/v1/historico?produto=boi_gordo&de=${de}&ate=${ate}`)).json()) as { historico: unknown[]; pontos: number };
    expect(body.historico).toEqual(full.historico.slice(2, 6));
    expect(body.pontos).toBe(4);
    const bad = await api("api/v1/historico?produto=boi_gordo&de=2026-02-30");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ erro: "data_invalida" });
    const inv = await api(`api/v1/historico?produto=boi_gordo&de=${ate}&ate=${de}`);
    expect(await inv.json()).toMatchObject({ erro: "intervalo_invalido" });
    expect(await (await api("api/v1/historico")).json()).toMatchObject({ erro: "parametro_obrigatorio" });
  });

  it("simulates a sale with the series price and says which price and day it used", async () => {
    const ms = await file<SerieFile>("api/v1/cotacao/boi_gordo/MS.json");
    const res = await api("api/v1/simulador?produto=boi_gordo&uf=MS&cabecas=10&peso_vivo_kg=540&rendimento_pct=52&comissao_pct=2&frete=1500");
    expect(res.status).toBe(200);
    const r = (await res.json()) as { preco: { valor: number; data_cotacao: string; serie: string }; quantidade: { arrobas: number }; bruto: number; liquido: number; deducoes: { funrural: { valor: number } } };
    expect(r.preco).toMatchObject({ valor: ms.valor, data_cotacao: ms.data_cotacao, serie: "boi_gordo/MS" });
    expect(r.quantidade.arrobas).toBe(187.2);
    // 187.2 @ × price, exact to the centavo
    const bruto = (18720 * Math.round(ms.valor * 100)) / 100 / 100;
    expect(r.bruto).toBeCloseTo(bruto, 2);
    const bad = await api("api/v1/simulador?produto=boi_gordo&cabecas=-3&peso_vivo_kg=abc");
    expect(bad.status).toBe(400);
    const e = (await bad.json()) as { erro: string; erros: Array<{ campo: string }> };
    expect(e.erro).toBe("entrada_invalida");
    expect(e.erros.map((x) => x.campo).sort()).toEqual(["cabecas", "peso_vivo_kg", "rendimento_pct"]);
  });

  it("answers from a rebuilt file once it is rechecked, with a new ETag", async () => {
    const path = join(site.publicDir, "api/v1/cotacao/uf/GO.json");
    const original = await readFile(path, "utf8");
    const first = await api("api/v1/cotacao?uf=GO");
    expect(first.status).toBe(200);
    const etag = first.headers.get("etag")!;
    expect(((await first.json()) as AggregateFile).boi_gordo_uf).toEqual((JSON.parse(original) as AggregateFile).boi_gordo_uf);
    const rebuilt = JSON.parse(original) as AggregateFile;
    rebuilt.boi_gordo_uf = { ...rebuilt.boi_gordo_uf!, praca: "Praça reconstruída" };
    const saved = clock;
    try {
      await writeFile(path, `${JSON.stringify(rebuilt, null, 2)}\n`);
      clock += 5000; // past the files' recheck interval
      const second = await api("api/v1/cotacao?uf=GO", { "If-None-Match": etag });
      expect(second.status).toBe(200);
      expect(second.headers.get("etag")).not.toBe(etag);
      const body = (await second.json()) as AggregateFile & { rate_limit: unknown };
      expect(body.boi_gordo_uf?.praca).toBe("Praça reconstruída");
      expect(body.rate_limit).toEqual({ diario: 100, restante: 99 });
    } finally {
      await writeFile(path, original);
      clock = saved + 10_000; // the next test sees the original file again
    }
    expect(((await (await api("api/v1/cotacao?uf=GO")).json()) as AggregateFile).boi_gordo_uf).toEqual((JSON.parse(original) as AggregateFile).boi_gordo_uf);
    clock = saved;
  });

  it("answers 400 listing valid values; a valid UF without series gets the aggregate, a missing single series 404", async () => {
    const uf = await api("api/v1/cotacao?uf=XX");
    expect(uf.status).toBe(400);
    expect(await uf.json()).toMatchObject({ erro: "uf_invalida", validos: expect.arrayContaining(["MS", "SP"]) });
    const prod = await api("api/v1/cotacao?produto=feijao");
    expect(await prod.json()).toMatchObject({ erro: "produto_invalido", validos: [...PRODUTOS] });
    const am = await api("api/v1/cotacao?uf=AM");
    expect(am.status).toBe(200);
    expect(am.headers.get("x-cotacao-aviso")).toBe("sem-serie-estadual; uf=AM");
    expect(await am.json()).toMatchObject({ boi_gordo_uf: null, vaca_gorda_uf: null });
    const milho = await api("api/v1/cotacao?produto=milho&uf=MS");
    expect(milho.status).toBe(404);
    expect(await milho.json()).toMatchObject({ erro: "serie_inexistente", ufs_disponiveis: ["SP"] });
  });
});

describe("HTTP behaviour", () => {
  it("answers CORS preflights and exposes the quota headers", async () => {
    const res = await fetch(new URL("api/v1/cotacao?uf=MS", srv.url), {
      method: "OPTIONS",
      headers: { Origin: "https://exemplo.org", "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "x-api-key" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-methods")).toContain("GET");
    expect(res.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("x-api-key");
    expect(res.headers.get("access-control-expose-headers")).toContain("X-RateLimit-Remaining");
    expect(res.headers.get("x-ratelimit-limit")).toBe("100");
  });

  it("sends ETags and answers 304, for static files and query routes", async () => {
    // the exact bytes of the file: a strong ETag
    const a = await api("api/v1/cotacao.json", { "Accept-Encoding": "identity" });
    const etag = a.headers.get("etag")!;
    expect(etag).toMatch(/^"/);
    expect(a.headers.get("content-encoding")).toBeNull();
    expect(a.headers.get("cache-control")).toBe("public, max-age=1800");
    expect((await api("api/v1/cotacao.json", { "If-None-Match": etag })).status).toBe(304);
    // compressed, other bytes of the same file: the same ETag, weak; it validates either form
    const gz = await api("api/v1/cotacao.json", { "Accept-Encoding": "gzip" });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gz.headers.get("etag")).toBe(`W/${etag}`);
    const naoMudou = await api("api/v1/cotacao.json", { "Accept-Encoding": "gzip", "If-None-Match": `W/${etag}` });
    expect(naoMudou.status).toBe(304);
    expect(naoMudou.headers.get("etag")).toBe(`W/${etag}`);
    expect((await api("api/v1/cotacao.json", { "Accept-Encoding": "identity", "If-None-Match": `W/${etag}` })).status).toBe(304);
    const q = await api("api/v1/cotacao?uf=MS");
    const weak = q.headers.get("etag")!;
    expect(weak).toMatch(/^W\//);
    // the counter in the body changes, the data (and the ETag) does not
    const again = await api("api/v1/cotacao?uf=MS", { "If-None-Match": weak });
    expect(again.status).toBe(304);
    expect(again.headers.get("x-ratelimit-remaining")).not.toBeNull();
  });

  it("compresses with brotli or gzip when asked", async () => {
    const plain = await readFile(join(site.publicDir, "api/v1/cotacao/boi_gordo.json"));
    for (const [enc, unzip] of [["br", brotliDecompressSync], ["gzip", gunzipSync]] as const) {
      const r = await rawRequest(srv.port, get("/api/v1/cotacao/boi_gordo.json", { "Accept-Encoding": enc }));
      expect(r.headers["content-encoding"]).toBe(enc);
      expect(r.headers.vary).toContain("Accept-Encoding");
      expect(unzip(r.bytes).equals(plain)).toBe(true);
    }
    const none = await rawRequest(srv.port, get("/api/v1/cotacao/boi_gordo.json", { "Accept-Encoding": "br;q=0, gzip;q=0" }));
    expect(none.headers["content-encoding"]).toBeUndefined();
  });

  it("serves the dashboard and redirects a directory to its slash, relatively", async () => {
    const home = await api("");
    expect(home.status).toBe(200);
    expect(home.headers.get("content-type")).toContain("text/html");
    const r = await rawRequest(srv.port, get("/simulador"));
    expect(r.status).toBe(301);
    expect(r.headers.location).toBe("simulador/");
  });
});

describe("quota", () => {
  it("allows 100 a day per address, then 429 with Retry-After until 00:00 UTC", async () => {
    const who = { "X-Forwarded-For": "192.0.2.77" };
    let last: Response | null = null;
    for (let i = 0; i < 100; i++) {
      last = await fetch(new URL("api/v1/cotacao", srv.url), { headers: who });
      expect(last.status).toBe(200);
    }
    expect(last!.headers.get("x-ratelimit-remaining")).toBe("0");
    const over = await fetch(new URL("api/v1/cotacao", srv.url), { headers: who });
    expect(over.status).toBe(429);
    const body = (await over.json()) as { erro: string; mensagem: string };
    expect(body.erro).toBe("limite_excedido");
    const midnight = Date.parse("2026-09-28T00:00:00Z");
    expect(Number(over.headers.get("retry-after"))).toBe((midnight - clock) / 1000);
    expect(Number(over.headers.get("x-ratelimit-reset"))).toBe(midnight / 1000);
    // static files are not counted (as on the CDN), but still carry the headers
    const st = await fetch(new URL("api/v1/cotacao.json", srv.url), { headers: who });
    expect(st.status).toBe(200);
    expect(st.headers.get("x-ratelimit-remaining")).toBe("0");
    const saved = clock;
    clock = midnight; // 00:00 UTC: a new day
    try {
      const next = await fetch(new URL("api/v1/cotacao", srv.url), { headers: who });
      expect(next.status).toBe(200);
      expect(next.headers.get("x-ratelimit-remaining")).toBe("99");
    } finally {
      clock = saved;
    }
  });

  it("gives a configured X-API-Key 10,000 a day and refuses an unknown key with 401", async () => {
    const ok = await api("api/v1/cotacao", { "X-API-Key": KEY });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("x-ratelimit-limit")).toBe("10000");
    expect(((await ok.json()) as { rate_limit: unknown }).rate_limit).toEqual({ diario: 10000, restante: 9999 });
    const bad = await api("api/v1/cotacao", { "X-API-Key": "nao-existe" });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject({ erro: "chave_invalida" });
  });

  it("ignores X-Forwarded-For unless configured to trust it", async () => {
    const plain = await startServer({ publicDir: site.publicDir, now: () => clock, quota: { freeLimit: 2 } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        const r = await fetch(new URL("api/v1/cotacao", plain.url), { headers: { "X-Forwarded-For": `203.0.113.${i}` } });
        statuses.push(r.status);
      }
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await plain.close();
    }
  });
});

describe("hostile input", () => {
  const traversal = [
    "/../../../etc/passwd",
    "/api/v1/../../../../etc/passwd",
    "/%2e%2e/%2e%2e/etc/passwd",
    "/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd",
    "/api/%252e%252e/%252e%252e/etc/passwd",
    "/..%5c..%5cetc%5cpasswd",
    "/%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd",
    "/api/v1/%00.json",
    "/.git/config",
    "/api//v1/cotacao.json",
  ];
  for (const p of traversal) {
    it(`refuses ${p} with a JSON 4xx`, async () => {
      const r = await rawRequest(srv.port, get(p));
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
      expect(r.headers["content-type"]).toContain("application/json");
      const body = JSON.parse(r.body) as { erro: string; mensagem: string };
      expect(body.erro).toMatch(/^[a-z_]+$/);
      expect(body.mensagem).not.toContain("root:");
    });
  }

  const queries: Array<[string, number, string]> = [
    ["/api/v1/cotacao?uf=MS&uf=SP", 400, "parametro_repetido"],
    ["/api/v1/cotacao?uf=%FF%FE", 400, "codificacao_invalida"],
    ["/api/v1/cotacao?uf=%E0%A4%A", 400, "codificacao_invalida"],
    ["/api/v1/cotacao?uf=M%00S", 400, "caractere_invalido"],
    // an unknown parameter is ignored, a malformed known one beside it is not
    ["/api/v1/cotacao?x=1&uf=XX", 400, "uf_invalida"],
    ["/api/v1/cotacao?_=1&uf=MS&uf=MS", 400, "parametro_repetido"],
    [`/api/v1/cotacao?uf=${"A".repeat(3000)}`, 414, "consulta_longa"],
    [`/api/v1/cotacao?${Array.from({ length: 40 }, (_, i) => `a${i}=1`).join("&")}`, 400, "parametros_demais"],
    ["/api/v1/cotacao?produto=%27%20OR%201%3D1", 400, "produto_invalido"],
    ["/api/v1/simulador?produto=soja&sacas=1e309", 400, "entrada_invalida"],
    // beyond exact centavos: the reviewer's case, and the limits at a price per kg of live weight
    ["/api/v1/simulador?produto=boi_gordo&cabecas=1000000&peso_vivo_kg=1999.99&rendimento_pct=74.99&preco=999999.99", 400, "entrada_invalida"],
    ["/api/v1/simulador?produto=boi_gordo&uf=RS&cabecas=100000&peso_vivo_kg=2000&rendimento_pct=75&preco=100000", 400, "entrada_invalida"],
  ];
  for (const [p, status, erro] of queries) {
    it(`answers ${status} ${erro} to ${p.slice(0, 60)}`, async () => {
      const r = await rawRequest(srv.port, get(p, { "X-Forwarded-For": ip() }));
      expect(r.status).toBe(status);
      expect(JSON.parse(r.body)).toMatchObject({ erro });
    });
  }

  it("answers 405 with Allow to other methods", async () => {
    for (const m of ["POST", "PUT", "DELETE", "PATCH"]) {
      const r = await fetch(new URL("api/v1/cotacao", srv.url), { method: m });
      expect(r.status).toBe(405);
      expect(r.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
      expect(await r.json()).toMatchObject({ erro: "metodo_nao_permitido" });
    }
  });

  it("answers HEAD like GET without a body", async () => {
    const r = await fetch(new URL("api/v1/cotacao.json", srv.url), { method: "HEAD" });
    expect(r.status).toBe(200);
    expect(await r.text()).toBe("");
  });

  it("answers huge headers and malformed requests with JSON and stays up", async () => {
    const huge = await rawRequest(srv.port, get("/api/v1/cotacao.json", { "X-Grande": "a".repeat(40_000) }));
    expect(huge.status).toBe(431);
    expect(JSON.parse(huge.body)).toMatchObject({ erro: "cabecalhos_grandes_demais" });
    const garbage = await rawRequest(srv.port, "GARBAGE\r\n\r\n");
    expect(garbage.status).toBe(400);
    expect(JSON.parse(garbage.body)).toMatchObject({ erro: "requisicao_invalida" });
    const backslash = await rawRequest(srv.port, get("/api\\v1\\cotacao.json"));
    expect(backslash.status).toBe(400);
    expect(JSON.parse(backslash.body)).toMatchObject({ erro: "requisicao_invalida" });
    const rawUtf8 = await rawRequest(srv.port, Buffer.concat([Buffer.from("GET /api/v1/cotacao?uf="), Buffer.from([0xff, 0xfe]), Buffer.from(" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")]));
    expect(rawUtf8.status).toBe(400);
    expect((await api("api/v1/cotacao.json")).status).toBe(200);
  });
});
