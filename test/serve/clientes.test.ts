/**
 * The original interface as its clients call it (issue 13): a valid UF without state series,
 * cache busters and extra parameters, the day of a state price, a national series asked for by
 * its own UF, and a quota that punishes neither static files nor errors. Real HTTP against the
 * app on 127.0.0.1, over a site the pipeline builds from the recorded pages.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateDocument } from "../../pipeline/contract/schemas.ts";
import type { AggregateFile, IndexFile, SerieFile } from "../../pipeline/domain/publicados.ts";
import { ALL_UFS } from "../../pipeline/domain/ufs.ts";
import { startServer, type RunningServer } from "../../pipeline/serve/app.ts";
import { allSeries, SOURCES, ufsDoAgregado } from "../../pipeline/sources/index.ts";
import { buildTestSite } from "./site.ts";

let site: Awaited<ReturnType<typeof buildTestSite>>;
let srv: RunningServer;
const clock = Date.parse("2026-09-27T12:00:00Z");
const KEY = "chave-dos-clientes-0123456789";

async function file<T>(rel: string): Promise<T> {
  return JSON.parse(await readFile(join(site.publicDir, rel), "utf8")) as T;
}

/** each call its own client address (trusted X-Forwarded-For), unless one is given */
let n = 0;
function ip(): string {
  n += 1;
  return `10.9.${Math.floor(n / 250)}.${n % 250}`;
}
async function api(path: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(new URL(path, srv.url), { headers: { "X-Forwarded-For": ip(), ...headers } });
}
/** the query answer without its per-client counter: what the static file would hold */
function semContador(body: Record<string, unknown>): Record<string, unknown> {
  const { rate_limit: _r, ...rest } = body;
  return rest;
}

beforeAll(async () => {
  site = await buildTestSite();
  srv = await startServer({ publicDir: site.publicDir, apiKeys: [KEY], trustedProxies: 1, now: () => clock });
});
afterAll(async () => {
  await srv?.close();
  await site?.cleanup();
});

describe("a valid UF without state series", () => {
  const semSerie = ALL_UFS.filter((uf) => !ufsDoAgregado().includes(uf));

  it("is every UF the catalogue has no state series for (PI among them)", () => {
    expect(semSerie).toEqual(expect.arrayContaining(["AM", "AP", "CE", "DF", "PB", "PE", "PI", "RN", "SE"]));
  });

  it("gets the aggregate with null state quotes and a header saying why", async () => {
    const nacional = await file<AggregateFile>("api/v1/cotacao.json");
    for (const uf of semSerie) {
      const r = await api(`api/v1/cotacao?uf=${uf}`);
      expect(r.status, uf).toBe(200);
      expect(r.headers.get("x-cotacao-aviso")).toBe(`sem-serie-estadual; uf=${uf}`);
      expect(r.headers.get("access-control-expose-headers")).toContain("X-Cotacao-Aviso");
      const body = (await r.json()) as Record<string, unknown>;
      expect(body.boi_gordo_uf).toBeNull();
      expect(body.vaca_gorda_uf).toBeNull();
      expect(body.rate_limit).toMatchObject({ diario: 100 });
      // the national numbers, and the shape of a cotacao/uf/{UF}.json file
      const data = semContador(body);
      expect({ ...data, boi_gordo_uf: undefined, vaca_gorda_uf: undefined }).toEqual({ ...nacional, boi_gordo_uf: undefined, vaca_gorda_uf: undefined });
      expect(validateDocument(`api/v1/cotacao/uf/${uf}.json`, data)).toEqual([]);
    }
  });

  it("a UF with state series gets no such header", async () => {
    const r = await api("api/v1/cotacao?uf=MS");
    expect(r.status).toBe(200);
    expect(r.headers.get("x-cotacao-aviso")).toBeNull();
    expect(((await r.json()) as AggregateFile).boi_gordo_uf).not.toBeNull();
  });

  it("an invalid UF stays 400; a single quotation of a missing series stays 404", async () => {
    const xx = await api("api/v1/cotacao?uf=XX");
    expect(xx.status).toBe(400);
    expect(await xx.json()).toMatchObject({ erro: "uf_invalida" });
    const pi = await api("api/v1/cotacao?produto=boi_gordo&uf=PI");
    expect(pi.status).toBe(404);
    const body = (await pi.json()) as { erro: string; ufs_disponiveis: string[] };
    expect(body.erro).toBe("serie_inexistente");
    expect(body.ufs_disponiveis).toContain("MS");
    expect(body.ufs_disponiveis).not.toContain("PI");
  });
});

describe("unknown parameters", () => {
  it("are ignored and named in a header: a cache buster, a harmless extra", async () => {
    const buster = await api("api/v1/cotacao?uf=MS&_=1732300000");
    expect(buster.status).toBe(200);
    expect(buster.headers.get("x-cotacao-parametros-ignorados")).toBe("_");
    expect(semContador((await buster.json()) as Record<string, unknown>)).toEqual(await file("api/v1/cotacao/uf/MS.json"));

    const extra = await api("api/v1/cotacao?produto=soja&uf=PR&cidade=Maring%C3%A1");
    expect(extra.status).toBe(200);
    expect(extra.headers.get("x-cotacao-parametros-ignorados")).toBe("cidade");
    expect(((await extra.json()) as SerieFile).produto).toBe("soja");

    // non-ASCII names are percent-encoded, so the header stays ASCII; each name once
    const acento = await api("api/v1/historico?produto=milho&pre%C3%A7o=1&_=2&_=3");
    expect(acento.status).toBe(200);
    expect(acento.headers.get("x-cotacao-parametros-ignorados")).toBe("pre%C3%A7o,_");
    expect(acento.headers.get("access-control-expose-headers")).toContain("X-Cotacao-Parametros-Ignorados");
  });

  it("an answer without unknown parameters has no such header", async () => {
    const r = await api("api/v1/cotacao?uf=MS");
    expect(r.headers.get("x-cotacao-parametros-ignorados")).toBeNull();
  });

  it("keep 400 for malformed known ones, repeated known ones, control characters and the limits", async () => {
    const cases: Array<[string, number, string]> = [
      ["api/v1/cotacao?uf=XX&_=1", 400, "uf_invalida"],
      ["api/v1/cotacao?produto=feijao&cidade=x", 400, "produto_invalido"],
      ["api/v1/cotacao?uf=MS&uf=SP&_=1", 400, "parametro_repetido"],
      ["api/v1/cotacao?uf=MS&x=%01", 400, "caractere_invalido"],
      ["api/v1/cotacao?uf=MS&x=%FF", 400, "codificacao_invalida"],
      [`api/v1/cotacao?${Array.from({ length: 17 }, (_, i) => `z${i}=1`).join("&")}`, 400, "parametros_demais"],
      [`api/v1/cotacao?_=${"1".repeat(1100)}`, 414, "consulta_longa"],
      ["api/v1/historico?produto=milho&de=2026-13-01&_=1", 400, "data_invalida"],
    ];
    for (const [p, status, erro] of cases) {
      const r = await api(p);
      expect(r.status, p).toBe(status);
      expect(await r.json(), p).toMatchObject({ erro });
    }
  });
});

describe("the day of a state price", () => {
  it("boi_gordo_uf and vaca_gorda_uf carry data_cotacao, the state series' own day (file and server)", async () => {
    const idx = await file<IndexFile>("api/v1/index.json");
    const ufs = idx.ufs.map((u) => u.uf);
    expect(ufs.length).toBeGreaterThan(0);
    let vistos = 0;
    for (const uf of ufs) {
      const estatico = await file<AggregateFile>(`api/v1/cotacao/uf/${uf}.json`);
      const servido = (await (await api(`api/v1/cotacao?uf=${uf}`)).json()) as AggregateFile;
      for (const [campo, produto] of [["boi_gordo_uf", "boi_gordo"], ["vaca_gorda_uf", "vaca_gorda"]] as const) {
        const q = estatico[campo];
        expect(servido[campo]).toEqual(q);
        if (!q) continue;
        const serie = await file<SerieFile>(`api/v1/cotacao/${produto}/${uf}.json`);
        expect(q.data_cotacao, `${uf} ${campo}`).toBe(serie.data_cotacao);
        expect(q.data).toBe(q.data_cotacao);
        vistos++;
      }
    }
    expect(vistos).toBeGreaterThanOrEqual(ufs.length);
  });
});

describe("a national series answers for its own UF", () => {
  it("national files say where they are quoted", async () => {
    const esperado: Record<string, string | null> = { boi_gordo: "SP", bezerro: "MS", milho: "SP", soja: "PR", vaca_gorda: "SP", cafe_robusta: "ES", laranja_industria: null };
    for (const [produto, uf] of Object.entries(esperado)) {
      expect((await file<SerieFile>(`api/v1/cotacao/${produto}.json`)).uf, produto).toBe(uf);
    }
  });

  it("milho&uf=SP and bezerro&uf=MS are the national series; a state series still wins", async () => {
    const milho = await api("api/v1/cotacao?produto=milho&uf=SP");
    expect(milho.status).toBe(200);
    const { historico: _h, ...milhoFile } = await file<SerieFile>("api/v1/cotacao/milho.json");
    expect(semContador((await milho.json()) as Record<string, unknown>)).toEqual(milhoFile);

    const bezerro = await api("api/v1/cotacao?produto=bezerro&uf=MS");
    expect(bezerro.status).toBe(200);
    expect(await bezerro.json()).toMatchObject({ produto: "bezerro", uf: "MS", unidade: "cabeca", fonte: "cepea" });

    // soja/PR (CEPEA's Paraná average) exists: it answers, not the national Paranaguá
    const soja = await api("api/v1/cotacao?produto=soja&uf=PR");
    const sojaPR = await file<SerieFile>("api/v1/cotacao/soja/PR.json");
    expect(await soja.json()).toMatchObject({ uf: "PR", praca: sojaPR.praca, valor: sojaPR.valor });
  });

  it("bezerro has no state series: Datagro's per-kg calf is bezerro_reposicao", async () => {
    const idx = await file<IndexFile>("api/v1/index.json");
    expect(idx.series.filter((s) => s.produto === "bezerro").map((s) => s.id)).toEqual(["bezerro"]);
    expect(idx.series.filter((s) => s.produto === "bezerro_reposicao").every((s) => s.unidade === "kg" && s.fonte === "datagro")).toBe(true);
    expect(idx.series.some((s) => s.id === "bezerro_reposicao/MS")).toBe(true);
    const sp = await api("api/v1/cotacao?produto=bezerro_reposicao&uf=SP");
    expect(await sp.json()).toMatchObject({ produto: "bezerro_reposicao", nome: "Bezerro (reposição)", unidade: "kg", fonte: "datagro" });
  });

  it("another UF is a 404 listing the UFs that exist, the national one's included", async () => {
    const r = await api("api/v1/cotacao?produto=milho&uf=PR");
    expect(r.status).toBe(404);
    expect(await r.json()).toMatchObject({ erro: "serie_inexistente", ufs_disponiveis: ["SP"] });
    const b = await api("api/v1/cotacao?produto=bezerro&uf=SP");
    expect(b.status).toBe(404);
    expect(await b.json()).toMatchObject({ ufs_disponiveis: ["MS"] });
  });

  it("the same in /api/v1/historico", async () => {
    const r = await api("api/v1/historico?produto=bezerro&uf=MS&de=2026-09-01");
    expect(r.status).toBe(200);
    const body = (await r.json()) as { uf: string; unidade: string; historico: Array<{ data: string }> };
    expect(body).toMatchObject({ uf: "MS", unidade: "cabeca" });
    expect(body.historico.length).toBeGreaterThan(0);
    expect(body.historico.every((h) => h.data >= "2026-09-01")).toBe(true);
    expect((await api("api/v1/historico?produto=milho&uf=PR")).status).toBe(404);
  });
});

describe("a fair quota", () => {
  const restante = (r: Response) => Number(r.headers.get("x-ratelimit-remaining"));
  const limite = (r: Response) => Number(r.headers.get("x-ratelimit-limit"));

  it("static files never count, and serve an unknown key with a header saying it was ignored", async () => {
    const who = { "X-Forwarded-For": "198.51.100.10" };
    const antes = await fetch(new URL("api/v1/cotacao?uf=MS", srv.url), { headers: who });
    expect(restante(antes)).toBe(99);
    for (let i = 0; i < 3; i++) {
      const st = await fetch(new URL("api/v1/cotacao.json", srv.url), { headers: { ...who, "X-API-Key": "nao-existe" } });
      expect(st.status).toBe(200);
      expect(st.headers.get("x-cotacao-aviso")).toBe("chave-ignorada; arquivo-estatico");
      expect(limite(st)).toBe(100);
      expect(restante(st)).toBe(99);
    }
    // a configured key on a static file: served, the key's counter shown, nothing counted
    const comChave = await fetch(new URL("api/v1/index.json", srv.url), { headers: { ...who, "X-API-Key": KEY } });
    expect(comChave.status).toBe(200);
    expect(comChave.headers.get("x-cotacao-aviso")).toBeNull();
    expect(limite(comChave)).toBe(10000);
    const depois = await fetch(new URL("api/v1/cotacao?uf=MS", srv.url), { headers: who });
    expect(restante(depois)).toBe(98);
  });

  it("an unknown key on a query route is 401 and costs nothing", async () => {
    const who = { "X-Forwarded-For": "198.51.100.11" };
    for (let i = 0; i < 3; i++) {
      const bad = await fetch(new URL("api/v1/cotacao", srv.url), { headers: { ...who, "X-API-Key": "nao-existe" } });
      expect(bad.status).toBe(401);
      expect(await bad.json()).toMatchObject({ erro: "chave_invalida" });
      expect(restante(bad)).toBe(100);
    }
    const ok = await fetch(new URL("api/v1/cotacao", srv.url), { headers: who });
    expect(restante(ok)).toBe(99);
  });

  it("4xx answers cost nothing; 200 and 304 count; the headers are on every response", async () => {
    const who = { "X-Forwarded-For": "198.51.100.12" };
    const get = (p: string, h: Record<string, string> = {}) => fetch(new URL(p, srv.url), { headers: { ...who, ...h } });
    for (const p of ["api/v1/cotacao?uf=XX", "api/v1/cotacao?produto=milho&uf=PR", "api/v1/cotacao?uf=MS&uf=MS", "api/v1/historico", "api/v1/simulador?produto=soja&sacas=-1", "api/v1/nao-existe.json"]) {
      const r = await get(p);
      expect(r.status, p).toBeGreaterThanOrEqual(400);
      expect(r.status, p).toBeLessThan(500);
      expect(limite(r), p).toBe(100);
      expect(restante(r), p).toBe(100);
    }
    const ok = await get("api/v1/cotacao?produto=milho");
    expect(ok.status).toBe(200);
    expect(restante(ok)).toBe(99);
    const cached = await get("api/v1/cotacao?produto=milho", { "If-None-Match": ok.headers.get("etag")! });
    expect(cached.status).toBe(304);
    expect(restante(cached)).toBe(98);
  });

  it("a refusal past the limit costs nothing either, and the next day starts whole", async () => {
    let now = clock;
    const small = await startServer({ publicDir: site.publicDir, trustedProxies: 1, now: () => now, quota: { freeLimit: 2 } });
    try {
      const who = { "X-Forwarded-For": "198.51.100.13" };
      const get = (p: string) => fetch(new URL(p, small.url), { headers: who });
      expect((await get("api/v1/cotacao?uf=XX")).status).toBe(400);
      expect([(await get("api/v1/cotacao")).status, (await get("api/v1/cotacao")).status]).toEqual([200, 200]);
      const over = await get("api/v1/cotacao");
      expect(over.status).toBe(429);
      expect(over.headers.get("retry-after")).not.toBeNull();
      expect(restante(over)).toBe(0);
      // static files are still served past the limit
      expect((await get("api/v1/cotacao.json")).status).toBe(200);
      now = Date.parse("2026-09-28T00:00:00Z");
      expect(restante(await get("api/v1/cotacao"))).toBe(1);
    } finally {
      await small.close();
    }
  });

  it("5xx answers cost nothing", async () => {
    const vazio = await mkdtemp(join(tmpdir(), "cotacao-vazio-"));
    const empty = await startServer({ publicDir: vazio, now: () => clock, quota: { freeLimit: 5 } });
    try {
      for (let i = 0; i < 3; i++) {
        const r = await fetch(new URL("api/v1/cotacao", empty.url));
        expect(r.status).toBe(503);
        expect(await r.json()).toMatchObject({ erro: "sem_dados" });
        expect(restante(r)).toBe(5);
      }
    } finally {
      await empty.close();
      await rm(vazio, { recursive: true, force: true });
    }
  });
});

describe("the three clients of the original interface", () => {
  // each reads the aggregate by UF as the original answered it; written against that, not us
  it("client 1 mocks ?uf=PI as the aggregate with boi_gordo_uf null", async () => {
    const r = await api("api/v1/cotacao?uf=PI");
    expect(r.ok).toBe(true);
    const body = (await r.json()) as { boi_gordo_cepea_sp: number; boi_gordo_uf: unknown };
    expect(body.boi_gordo_uf === null).toBe(true);
    expect(typeof body.boi_gordo_cepea_sp).toBe("number");
  });

  it("client 2 sends a cache buster on every call and falls back to the national price", async () => {
    const r = await api(`api/v1/cotacao?uf=PI&_=${clock}`);
    expect(r.status).toBe(200);
    const body = (await r.json()) as { boi_gordo_cepea_sp: number; boi_gordo_uf: { preco: number } | null };
    const preco = body.boi_gordo_uf?.preco ?? body.boi_gordo_cepea_sp;
    expect(preco).toBe((await file<AggregateFile>("api/v1/cotacao.json")).boi_gordo_cepea_sp);
  });

  it("client 3 shows the day of the state price from boi_gordo_uf.data_cotacao", async () => {
    const r = await api(`api/v1/cotacao?uf=MS&_=${clock}`);
    const body = (await r.json()) as { boi_gordo_uf: { preco: number; data_cotacao: string } | null };
    const ms = await file<SerieFile>("api/v1/cotacao/boi_gordo/MS.json");
    expect(body.boi_gordo_uf).not.toBeNull();
    const [a, m, d] = body.boi_gordo_uf!.data_cotacao.split("-");
    expect(`${d}/${m}/${a}`).toBe(ms.data_cotacao.split("-").reverse().join("/"));
    expect(body.boi_gordo_uf!.preco).toBe(ms.valor);
  });
});

describe("bordão", () => {
  /** how each source is named in prose: the first word of its short name ("CEPEA", "Scot", "Datagro") */
  const marca = new Map(SOURCES.map((s) => [s.id, s.nomeCurto.split(/[\s/]/)[0]!.toLowerCase()]));

  it("every series file credits only its own source", async () => {
    const series = allSeries();
    expect(series.length).toBeGreaterThan(40);
    const proprios = new Set<string>();
    for (const def of series) {
      const f = await file<SerieFile>(`api/v1/cotacao/${def.id}.json`);
      const texto = f.bordao.toLowerCase();
      expect(f.fonte, def.id).toBe(def.fonte);
      for (const [fonte, nome] of marca) {
        if (fonte !== def.fonte) expect(texto, `${def.id}: ${f.bordao}`).not.toContain(nome);
        else if (texto.includes(nome)) proprios.add(fonte);
      }
    }
    // the sentences do name their sources (a check that could not fail would prove nothing)
    expect([...proprios].sort()).toEqual([...marca.keys()].sort());
    expect((await file<SerieFile>("api/v1/cotacao/soja/PR.json")).bordao).not.toMatch(/scot/i);
  });

  it("the server answers the same sentence as the file", async () => {
    const f = await file<SerieFile>("api/v1/cotacao/soja/PR.json");
    expect(((await (await api("api/v1/cotacao?produto=soja&uf=PR")).json()) as SerieFile).bordao).toBe(f.bordao);
  });
});

describe("the simulator's answer on a long-running server", () => {
  it("names the series that priced it (the national one for its own UF) and ages the price day by day, cached or not", async () => {
    let agora = Date.parse("2026-09-04T15:00:00Z");
    const s = await startServer({ publicDir: site.publicDir, now: () => agora });
    try {
      const sim = async (q: string) => {
        const r = await fetch(new URL(`api/v1/simulador?${q}`, s.url));
        expect(r.status, q).toBe(200);
        return (await r.json()) as { preco: { serie: string | null; desatualizado: boolean; idade_dias: number }; avisos: string[] };
      };
      expect((await sim("produto=milho&uf=SP&sacas=100")).preco.serie).toBe("milho");
      expect((await sim("produto=bezerro&uf=MS&cabecas=10")).preco.serie).toBe("bezerro");
      expect((await sim("produto=boi_gordo&uf=MS&cabecas=10&peso_vivo_kg=540&rendimento_pct=52")).preco.serie).toBe("boi_gordo/MS");
      const q = "produto=boi_gordo&cabecas=10&peso_vivo_kg=540&rendimento_pct=52";
      const fresco = await sim(q);
      expect(fresco.preco).toMatchObject({ serie: "boi_gordo", idade_dias: 0, desatualizado: false });
      // same query, same files, months later: the answer kept ready must not keep its age
      agora = Date.parse("2026-11-22T15:00:00Z");
      const velho = await sim(q);
      expect(velho.preco).toMatchObject({ idade_dias: 79, desatualizado: true });
      expect(velho.avisos.join(" ")).toContain("04/09/2026");
    } finally {
      await s.close();
    }
  });
});
