import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../pipeline/config.ts";
import { SOURCES } from "../pipeline/sources/index.ts";
import { FIXTURES, cleanup, readJson, replay, replayDir, tempSite } from "./helpers/pipeline.ts";

const NOW = "2026-09-27T12:00:00-03:00";

describe("status.json over several runs", () => {
  let site: string;
  beforeAll(async () => {
    site = await tempSite();
    await replay(FIXTURES, site, NOW);
  });
  afterAll(() => cleanup(site));

  const fonte = async (id: string) => (await readJson(site, "api/v1/status.json")).fontes.find((f: { id: string }) => f.id === id);

  it("starts ok, with the time of the run that brought the data", async () => {
    const cepea = await fonte("cepea");
    expect(cepea).toMatchObject({ estado: "ok", motivo: null, ultima_data: "2026-09-25", falhas_consecutivas: 0, ultimo_sucesso: "2026-09-27T12:00:00-03:00" });
  });

  it("counts consecutive failures and keeps when they began", async () => {
    const pages = await replayDir();
    try {
      await rm(join(pages, "cepea/soja.html"));
      await replay(pages, site, "2026-09-28T12:00:00-03:00");
      await replay(pages, site, "2026-09-29T12:00:00-03:00");
      const cepea = await fonte("cepea");
      expect(cepea.estado).toBe("failed");
      expect(cepea.motivo).toMatch(/^soja: página gravada não encontrada/);
      const soja = cepea.paginas.find((p: { id: string }) => p.id === "soja");
      expect(soja).toMatchObject({
        estado: "missing",
        falhas_consecutivas: 2,
        falhando_desde: "2026-09-28T12:00:00-03:00",
        ultima_tentativa: "2026-09-29T12:00:00-03:00",
        ultimo_sucesso: "2026-09-27T12:00:00-03:00",
        url: "https://www.cepea.org.br/br/indicador/soja.aspx",
      });
    } finally {
      await cleanup(pages);
    }
  });

  it("recovers on the next good run", async () => {
    await replay(FIXTURES, site, "2026-09-30T12:00:00-03:00");
    const soja = (await fonte("cepea")).paginas.find((p: { id: string }) => p.id === "soja");
    expect(soja).toMatchObject({ estado: "ok", falhas_consecutivas: 0, falhando_desde: null, ultimo_sucesso: "2026-09-30T12:00:00-03:00" });
  });

  it("says stale when the newest day is older than the source allows", async () => {
    await replay(FIXTURES, site, "2026-11-22T12:00:00-03:00");
    const status = await readJson(site, "api/v1/status.json");
    const cepea = status.fontes.find((f: { id: string }) => f.id === "cepea");
    expect(cepea.estado).toBe("stale");
    expect(cepea.motivo).toBe("último dado de 25/09/2026, mais de 3 dias úteis atrás");
    expect(status.series.find((s: { id: string }) => s.id === "milho")).toEqual({ id: "milho", ultima_data: "2026-09-04", estado: "stale" });
    expect(status.atualizado).toBe("2026-11-22T12:00:00-03:00");
  });

  it("a stale source does not change the file day after day", async () => {
    const r = await replay(FIXTURES, site, "2026-11-23T12:00:00-03:00");
    expect(r.written).toEqual([]);
  });
});

describe("configuration", () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "cotacao-config-"));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it("turns sources off and changes reference praças from cotacao.config.json", async () => {
    await writeFile(join(root, "cotacao.config.json"), JSON.stringify({ fontes: { scot: { ativa: false } }, pracasReferencia: { MS: "Dourados" } }));
    const c = loadConfig({ root, env: {} });
    // every source of the catalogue but scot stays on
    expect(c.fontesAtivas).toEqual({ ...Object.fromEntries(SOURCES.map((f) => [f.id, true])), scot: false });
    expect(c.pracasReferencia.MS).toBe("Dourados");
    expect(c.pracasReferencia.SP).toBe("Barretos");
  });

  it("says what is wrong with a bad configuration", async () => {
    await writeFile(join(root, "cotacao.config.json"), JSON.stringify({ fontes: { bolsa: { ativa: false } } }));
    expect(() => loadConfig({ root, env: {} })).toThrow(/cotacao\.config\.json: fontes: Chave inválida: "bolsa".*fontes válidas: cepea, scot/);
    await writeFile(join(root, "cotacao.config.json"), "{ nope");
    expect(() => loadConfig({ root, env: {} })).toThrow(/cotacao\.config\.json: JSON inválido/);
    await rm(join(root, "cotacao.config.json"));
    expect(() => loadConfig({ root, env: { COTACAO_FONTES_DESATIVADAS: "cepea,xpto" } })).toThrow(/fonte desconhecida "xpto"/);
  });

  it("uses a different reference praça for the state value and keeps every praça", async () => {
    const site = await tempSite();
    try {
      await writeFile(join(root, "cotacao.config.json"), JSON.stringify({ pracasReferencia: { MS: "Três Lagoas" } }));
      const { runUpdate } = await import("../pipeline/run/update.ts");
      const { createReplayLoader } = await import("../pipeline/fetch/replay.ts");
      const now = new Date(NOW);
      await runUpdate({ loader: createReplayLoader(FIXTURES, () => now, {}), config: loadConfig({ root, publicDir: site, env: {} }), now, env: {} });
      const ms = JSON.parse(await readFile(join(site, "api/v1/cotacao/boi_gordo/MS.json"), "utf8"));
      expect(ms).toMatchObject({ praca: "Três Lagoas", valor: 331 });
      expect(ms.pracas).toHaveLength(3);
    } finally {
      await rm(join(root, "cotacao.config.json"), { force: true });
      await cleanup(site);
    }
  });
});
