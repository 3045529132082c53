/**
 * What was wrong: a known parameter written with another case (`UF=MT`, `Produto=soja`, as a form
 * or a spreadsheet writes it) was an unknown parameter, and unknown parameters are ignored. So
 * `/api/v1/cotacao?produto=boi_gordo&UF=MT` answered 200 with the national boi gordo (CEPEA's São
 * Paulo indicator, `uf: "SP"`) where the client asked for Mato Grosso's: a price of another state
 * under a request for MT, named only in X-Cotacao-Parametros-Ignorados, a header no client reads.
 * The same for `historico` (São Paulo's history) and `simulador` (a sale priced at São Paulo).
 *
 * Now a parameter's name is read without regard to case, as its value already was (`uf=mt`);
 * `uf=MS&UF=SP` is the same parameter twice (400).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../pipeline/serve/app.ts";
import type { IndexFile, SerieFile } from "../../pipeline/domain/publicados.ts";
import { buildTestSite } from "../serve/site.ts";

let site: Awaited<ReturnType<typeof buildTestSite>>;
let srv: RunningServer;

beforeAll(async () => {
  site = await buildTestSite();
  srv = await startServer({ publicDir: site.publicDir, now: () => Date.parse("2026-09-27T12:00:00Z"), quota: { freeLimit: 1000 } });
}, 120_000);
afterAll(async () => {
  await srv?.close();
  await site?.cleanup();
});

const ler = async <T>(rel: string) => JSON.parse(await readFile(join(site.publicDir, rel), "utf8")) as T;

describe("a known parameter written in another case", () => {
  it("is that parameter: MT's boi gordo for UF=MT, never the national one", async () => {
    const idx = await ler<IndexFile>("api/v1/index.json");
    const estadual = idx.series.find((s) => s.produto === "boi_gordo" && s.id.includes("/") && !s.id.endsWith("/SP"))!;
    const uf = estadual.id.slice(estadual.id.indexOf("/") + 1);
    const serie = await ler<SerieFile>(`api/v1/cotacao/${estadual.id}.json`);
    const nacional = await ler<SerieFile>("api/v1/cotacao/boi_gordo.json");
    expect(nacional.uf).not.toBe(uf);

    const r = await fetch(`${srv.url}api/v1/cotacao?produto=boi_gordo&UF=${uf}`);
    expect(r.status).toBe(200);
    expect(r.headers.get("x-cotacao-parametros-ignorados")).toBeNull();
    const b = await r.json();
    expect({ uf: b.uf, valor: b.valor, data_cotacao: b.data_cotacao, unidade: b.unidade }).toEqual({ uf, valor: serie.valor, data_cotacao: serie.data_cotacao, unidade: serie.unidade });

    const h = await (await fetch(`${srv.url}api/v1/historico?Produto=boi_gordo&Uf=${uf.toLowerCase()}`)).json();
    expect(h.uf).toBe(uf);
    expect(h.historico).toEqual(serie.historico);

    const ag = await (await fetch(`${srv.url}api/v1/cotacao?UF=${uf}`)).json();
    expect(ag.boi_gordo_uf?.uf).toBe(uf);

    const s = await (await fetch(`${srv.url}api/v1/simulador?produto=boi_gordo&UF=${uf}&CABECAS=10&peso_vivo_kg=540&rendimento_pct=52`)).json();
    expect(s.entrada.uf).toBe(uf);
    expect(s.entrada.cabecas).toBe(10);
  });

  it("sent twice in two cases is a repeated parameter (400)", async () => {
    const r = await fetch(`${srv.url}api/v1/cotacao?uf=MS&UF=SP`);
    expect(r.status).toBe(400);
    expect((await r.json()).erro).toBe("parametro_repetido");
  });
});
