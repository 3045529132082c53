/**
 * End to end: Scot's novilha gorda and Boi China tables and Datagro's reposição by state, from
 * their recorded pages through update --replay to the published files, the catalogue and the
 * validator; the boi page stays atomic and its Notícias Agrícolas mirror still serves it.
 */
import { cp, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SimulacaoForaDoLimite, simular, validarEntrada } from "../../pipeline/simulator/simulator.ts";
import { SCOT_UFS } from "../../pipeline/sources/scot.ts";
import { validateFiles } from "../../pipeline/validate/ajv.ts";
import { FIXTURES, cleanup, editPage, listFiles, readJson, replay, replayDir, tempSite } from "../helpers/pipeline.ts";
import { scotPeloEspelho } from "../helpers/publicado.ts";

// after every recorded page (the latest are CEPEA's of 25/09/2026): nothing is in the future
const NOW = "2026-09-27T12:00:00-03:00";
const REPOSICAO_UFS = ["SP", "MG", "MS", "MT", "GO", "TO", "PA", "PR", "RO"];
const BOI_CHINA_UFS = ["SP", "MG", "MT", "MS", "GO", "PA", "RO", "ES", "TO", "PR"];

async function pagesDir(): Promise<string> {
  const dir = await replayDir();
  await cp(join(FIXTURES, "datagro"), join(dir, "datagro"), { recursive: true });
  return dir;
}

async function tree(site: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const f of await listFiles(site)) out.set(relative(site, f), await readFile(f, "utf8"));
  return out;
}

const outcome = (r: Awaited<ReturnType<typeof replay>>, id: string) => r.outcomes.find((o) => `${o.source}/${o.page}` === id);

describe("novilha gorda, Boi China and reposição by state, replayed end to end", () => {
  let pages: string;
  let site: string;
  let run: Awaited<ReturnType<typeof replay>>;

  beforeAll(async () => {
    pages = await pagesDir();
    site = await tempSite();
    run = await replay(pages, site, NOW);
  });
  afterAll(() => cleanup(pages, site));

  it("reads the three pages", () => {
    for (const id of ["scot/boi-gordo", "scot/novilha-gorda", "datagro/reposicao-nelore-macho"]) {
      expect(outcome(run, id), id).toMatchObject({ ok: true, changed: true });
    }
    expect(outcome(run, "datagro/reposicao-nelore-macho")).toMatchObject({ diasNovos: 10, via: null });
  });

  it("novilha gorda: the national series is SP Barretos, one file per Scot UF, RS per kg", async () => {
    const nac = await readJson(site, "api/v1/cotacao/novilha_gorda.json");
    expect(nac).toMatchObject({ produto: "novilha_gorda", uf: "SP", valor: 333, unidade: "@", fonte: "scot", data_cotacao: "2026-08-05" });
    expect(nac.historico).toEqual([
      { data: "2026-08-05", valor: 333, valor_30d: 337, funrural_avista: 327.5, funrural_30d: 331.5, senar_avista: 332.5, senar_30d: 336.5, tendencia: "estavel" },
    ]);
    for (const uf of SCOT_UFS) expect((await readJson(site, `api/v1/cotacao/novilha_gorda/${uf}.json`)).uf).toBe(uf);
    expect(await readJson(site, "api/v1/cotacao/novilha_gorda/RS.json")).toMatchObject({ valor: 12.1, unidade: "kg", praca: "Oeste" });
    expect(await readJson(site, "api/v1/cotacao/novilha_gorda/MS.json")).toMatchObject({ valor: 326, praca: "C. Grande" });
  });

  it("Boi China: bruto 30 dias as valor, líquido as funrural_30d; Pará shows both regions", async () => {
    const sp = await readJson(site, "api/v1/cotacao/boi_china/SP.json");
    expect(sp).toMatchObject({ produto: "boi_china", uf: "SP", valor: 352, unidade: "@", fonte: "scot", praca: "São Paulo", data_cotacao: "2026-08-05" });
    expect(sp.historico).toEqual([{ data: "2026-08-05", valor: 352, funrural_30d: 346.5, pracas: { "São Paulo": 352 } }]);
    const pa = await readJson(site, "api/v1/cotacao/boi_china/PA.json");
    expect(pa).toMatchObject({ valor: 340, praca: "Redenção e Marabá" });
    expect(pa.pracas).toEqual([
      { praca: "Paragominas", valor: 345, unidade: "@", funrural_30d: 339.5 },
      { praca: "Redenção e Marabá", valor: 340, unidade: "@", funrural_30d: 334.5 },
    ]);
    expect(pa.historico).toEqual([{ data: "2026-08-05", valor: 340, funrural_30d: 334.5, pracas: { Paragominas: 345, "Redenção e Marabá": 340 } }]);
    expect(await readJson(site, "api/v1/cotacao/boi_china/MG.json")).toMatchObject({ valor: 342, praca: "Minas Gerais (Exceto região Sul)" });
    const csv = await readFile(join(site, "api/v1/historico/boi_china/PR.csv"), "utf8");
    expect(csv.split("\n")[0]).toContain("funrural_30d");
    expect(csv).toContain("2026-08-05,355,");
    // the boi page's Mercado Físico reads as before
    expect(await readJson(site, "api/v1/cotacao/boi_gordo/MS.json")).toMatchObject({ valor: 338, praca: "C. Grande" });
  });

  it("reposição: bezerro_reposicao/SP is Datagro's per kg, beside CEPEA's national bezerro per head", async () => {
    const sp = await readJson(site, "api/v1/cotacao/bezerro_reposicao/SP.json");
    expect(sp).toMatchObject({ produto: "bezerro_reposicao", uf: "SP", valor: 14.63, unidade: "kg", fonte: "datagro", data_cotacao: "2026-02-06", praca: "São Paulo" });
    expect(sp.historico).toHaveLength(10);
    expect(sp.historico[0]).toEqual({ data: "2026-01-26", valor: 14.02 });
    expect(sp.proveniencia).toMatchObject({
      fonte: "datagro",
      nome: "Datagro",
      url: "https://www.noticiasagricolas.com.br/cotacoes/boi-gordo/reposicao-nelore-macho",
      licenca: "Sem licença declarada",
    });
    const nacional = await readJson(site, "api/v1/cotacao/bezerro.json");
    expect(nacional).toMatchObject({ uf: "MS", unidade: "cabeca", fonte: "cepea", valor: 3426.02 });
    expect(await readJson(site, "api/v1/cotacao/bezerro_desmama/MS.json")).toMatchObject({ valor: 16.95, unidade: "kg" });
    expect(await readJson(site, "api/v1/cotacao/garrote/PA.json")).toMatchObject({ valor: 14.1 });
    expect(await readJson(site, "api/v1/cotacao/boi_magro/RO.json")).toMatchObject({ valor: 13.03 });
    const csv = (await readFile(join(site, "api/v1/historico/bezerro_desmama/SP.csv"), "utf8")).trimEnd().split("\n");
    expect(csv).toHaveLength(11);
    expect(csv[0]).toBe("data,valor,unidade");
    expect(csv[csv.length - 1]).toBe("2026-02-06,15.24,kg");
  });

  it("RS's reposição is not published", async () => {
    const files = await tree(site);
    for (const p of ["bezerro_reposicao", "bezerro_desmama", "garrote", "boi_magro"]) expect(files.has(`api/v1/cotacao/${p}/RS.json`), p).toBe(false);
  });

  it("index.json lists every new series with its source, unit and days", async () => {
    const index = await readJson(site, "api/v1/index.json");
    const byId = new Map<string, any>(index.series.map((s: any) => [s.id, s]));
    const ids = [
      "novilha_gorda",
      ...SCOT_UFS.map((uf) => `novilha_gorda/${uf}`),
      ...BOI_CHINA_UFS.map((uf) => `boi_china/${uf}`),
      ...["bezerro_reposicao", "bezerro_desmama", "garrote", "boi_magro"].flatMap((p) => REPOSICAO_UFS.map((uf) => `${p}/${uf}`)),
    ];
    expect(ids).toHaveLength(65);
    for (const id of ids) expect(byId.has(id), id).toBe(true);
    expect(byId.get("bezerro_reposicao/SP")).toMatchObject({ fonte: "datagro", unidade: "kg", primeira_data: "2026-01-26", ultima_data: "2026-02-06", pontos: 10 });
    expect(byId.get("bezerro")).toMatchObject({ fonte: "cepea", unidade: "cabeca" });
    expect(byId.get("boi_china/PA")).toMatchObject({ fonte: "scot", unidade: "@", pontos: 1 });
    expect(index.fontes.map((f: any) => f.id)).toContain("datagro");
  });

  it("the published tree passes the validator", async () => {
    const files = await tree(site);
    const report = validateFiles(files, { arvoreCompleta: true });
    expect(report.erros).toEqual([]);
  });

  it("the simulator never sells a calf by the head at a per-kg price", async () => {
    // Datagro's per-kg calf is not offered for a sale by the head at all
    const v = validarEntrada({ produto: "bezerro_reposicao", uf: "SP", cabecas: "10" });
    expect(v).toMatchObject({ ok: false, erros: [{ campo: "produto", mensagem: expect.stringContaining("bezerro (reposição) não tem simulação de venda") }] });
    // and a per-head sale handed its per-kg price is refused, not priced
    const n = validarEntrada({ produto: "bezerro", cabecas: "10" });
    expect(n.ok).toBe(true);
    const sp = await readJson(site, "api/v1/cotacao/bezerro_reposicao/SP.json");
    const preco = { valor: sp.valor, unidade: sp.unidade, data_cotacao: sp.data_cotacao, fonte: sp.fonte, serie: "bezerro_reposicao/SP", praca: sp.praca };
    expect(() => simular((n as { entrada: any }).entrada, preco)).toThrow(SimulacaoForaDoLimite);
    expect(() => simular((n as { entrada: any }).entrada, preco)).toThrow(/cotado por kg/);
    // the national per-head indicator simulates
    const nac = await readJson(site, "api/v1/cotacao/bezerro.json");
    const r = simular((n as { entrada: any }).entrada, { valor: nac.valor, unidade: "cabeca", data_cotacao: nac.data_cotacao, fonte: "cepea", serie: "bezerro", praca: null });
    expect(r.bruto).toBe(34260.2);
  });

  it("a second run of the same pages changes nothing", async () => {
    const before = await tree(site);
    const again = await replay(pages, site, NOW);
    expect(outcome(again, "datagro/reposicao-nelore-macho")).toMatchObject({ ok: true, changed: false });
    expect(await tree(site)).toEqual(before);
  });
});

describe("the boi page is atomic and its mirror still serves it", () => {
  it("a broken Boi China table fails the whole page: no boi_gordo nor boi_china file is written", async () => {
    const pages = await pagesDir();
    const site = await tempSite();
    try {
      await editPage(pages, "scot/boi-gordo.html", (h) => h.replace("Pre&ccedil;os com o desconto do Funrural", "Pre&ccedil;os brutos"));
      const r = await replay(pages, site, NOW);
      expect(outcome(r, "scot/boi-gordo")).toMatchObject({ ok: false, kind: "parse_error" });
      expect(JSON.stringify(outcome(r, "scot/boi-gordo"))).toContain("desconto do Funrural");
      expect(outcome(r, "scot/novilha-gorda")).toMatchObject({ ok: true });
      const files = await tree(site);
      const daPagina = [...files.keys()].filter((f) => /cotacao\/(boi_gordo|boi_china)\/[A-Z]{2}\.json$/.test(f));
      for (const f of daPagina) expect(JSON.parse(files.get(f)!).historico, f).toEqual([]);
    } finally {
      await cleanup(pages, site);
    }
  });

  it("read through Notícias Agrícolas (Scot blocked), the boi page feeds boi_gordo only: Boi China waits", async () => {
    const pages = await pagesDir();
    const site = await tempSite();
    try {
      // first Scot's own page: every series of the page
      const first = await replay(pages, site, NOW);
      expect(outcome(first, "scot/boi-gordo")).toMatchObject({ ok: true });
      const chinaAntes = await readFile(join(site, "api/v1/cotacao/boi_china/SP.json"), "utf8");
      // then a recording made while Scot was blocked: the mirror's page stands in (dated
      // 06/07/2026, older than the stored day, and a new day for boi_gordo)
      await scotPeloEspelho(pages, ["boi-gordo"]);
      const via = await replay(pages, site, NOW);
      expect(outcome(via, "scot/boi-gordo")).toMatchObject({ ok: true, via: "noticias-agricolas" });
      const ms = await readJson(site, "api/v1/cotacao/boi_gordo/SP.json");
      expect(ms.historico.map((e: { data: string }) => e.data)).toEqual(["2026-07-06", "2026-08-05"]);
      expect(await readFile(join(site, "api/v1/cotacao/boi_china/SP.json"), "utf8")).toBe(chinaAntes);
    } finally {
      await cleanup(pages, site);
    }
  });
});
