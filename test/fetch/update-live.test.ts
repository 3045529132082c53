import { describe, expect, it } from "vitest";
import { SOURCES } from "../../pipeline/sources/index.ts";
import { readJson } from "../helpers/pipeline.ts";
import { copiaRedatada } from "../helpers/publicado.ts";
import { endlessChallenge, fixture, hang, noTable, ok } from "./server.ts";
import { HEALTHY, SHORT, fontesESiteNoTeste, liveUpdate } from "./atualizar-ao-vivo.ts";

// the recorded pages run from 05/08/2026 (Scot) to 25/09/2026 (CEPEA)
const NOW = new Date("2026-09-27T12:00:00-03:00");


describe("npm run update, live path, end to end against local sources", () => {
  const t = fontesESiteNoTeste();

  it("reads every page over HTTP and publishes with exit code 0", async () => {
    const { report, pages, status, log } = await liveUpdate(t.s, t.site, NOW, HEALTHY);
    expect(report.exitCode).toBe(0);
    const nPages = SOURCES.reduce((n, src) => n + src.pages.length, 0);
    expect(Object.values(pages).map((p) => [p.estado, p.via, p.caminho])).toEqual(Array(nPages).fill(["ok", null, "http"]));
    expect(pages["cepea/boi-gordo"]!.url).toBe(`${t.s.cepea.url}/br/indicador/boi-gordo.aspx`);
    expect(Object.fromEntries(status.fontes.map((f) => [f.id, f.estado]))).toMatchObject({ cepea: "ok", scot: "stale" }); // Scot's page is from 05/08
    const agg = await readJson(t.site, "api/v1/cotacao.json");
    expect(agg).toMatchObject({ boi_gordo_cepea_sp: 347.7, soja: 161, milho: 70.93, bezerro_ms: 3426.02, vaca_gorda: 318 });
    // hosts are listed in order of their (random) ports: compare as a set
    const line = log.find((l) => l.startsWith("requisições por host: "))!;
    const perHost = new Map<string, number>();
    for (const src of SOURCES) perHost.set(new URL(t.s.env[src.baseUrlEnv]!).host, (perHost.get(new URL(t.s.env[src.baseUrlEnv]!).host) ?? 0) + src.pages.length);
    expect(new Set(line.slice("requisições por host: ".length).split(", "))).toEqual(new Set([...perHost].map(([h, n]) => `${h}=${n}`)));
  });

  it("records blocked-through-mirror, timeout and soft block per page, and still writes the good data", async () => {
    t.s.scot.route("/cotacoes/boi-gordo/", endlessChallenge());
    // the copy is recorded six months before Scot's table; dated as a copy read now would be
    t.s.na.route("/cotacoes/boi-gordo/boi-gordo-scot-consultoria", ok(copiaRedatada(fixture("noticias-agricolas/boi-gordo-scot-consultoria.html"))));
    // pages without a mirror (CEPEA's mirrored pages: test/fetch/cepea-mirrors.test.ts)
    t.s.cepea.route("/br/indicador/arroz.aspx", hang());
    t.s.cepea.route("/br/indicador/acucar.aspx", noTable());
    const later = new Date(NOW.getTime() + 86_400_000);
    const { report, pages, status, log } = await liveUpdate(t.s, t.site, later, SHORT);

    expect(report.exitCode).toBe(1);
    const states = Object.fromEntries(Object.entries(pages).map(([k, p]) => [k, p.via ? `${p.estado} via ${p.via}` : p.estado]));
    expect(states).toEqual({
      ...Object.fromEntries(Object.keys(pages).map((k) => [k, "ok"])),
      "cepea/arroz": "timeout",
      "cepea/acucar": "soft_block",
      "scot/boi-gordo": "ok via noticias-agricolas",
    });
    expect(pages["cepea/arroz"]).toMatchObject({
      url: `${t.s.cepea.url}/br/indicador/arroz.aspx`,
      falhas_consecutivas: 1,
      motivo: expect.stringMatching(/^sem resposta completa em 0\.5 s/),
    });
    expect(pages["cepea/arroz"]!.falhando_desde).toBe(pages["cepea/arroz"]!.ultima_tentativa);
    expect(pages["cepea/acucar"]!.motivo).toMatch(/^HTTP 200 sem a tabela esperada \(\d+ bytes recebidos, título "Acesso temporariamente limitado"\)$/);
    expect(status.fontes.find((f) => f.id === "cepea")).toMatchObject({ estado: "failed", falhas_consecutivas: 1 });
    // the pages that worked kept their data; the failed ones kept their last good data
    const agg = await readJson(t.site, "api/v1/cotacao.json");
    expect(agg).toMatchObject({ boi_gordo_cepea_sp: 347.7, soja: 161, milho: 70.93 });
    expect(log.some((l) => l.startsWith("cepea/arroz: FALHA timeout"))).toBe(true);
    expect(log).toContain(`scot/boi-gordo: tentando o espelho Notícias Agrícolas (${t.s.na.url}/cotacoes/boi-gordo/boi-gordo-scot-consultoria)`);
  }, 20_000);
});
