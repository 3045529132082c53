import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLiveLoader } from "../../pipeline/fetch/live.ts";
import type { StatusFile } from "../../pipeline/domain/publicados.ts";
import { runUpdate } from "../../pipeline/run/update.ts";
import { SOURCES } from "../../pipeline/sources/index.ts";
import { cleanup, readJson, tempSite, testConfig } from "../helpers/pipeline.ts";
import { copiaRedatada } from "../helpers/publicado.ts";
import { endlessChallenge, fixture, hang, noTable, ok, startSources } from "./server.ts";

// the recorded pages run from 05/08/2026 (Scot) to 25/09/2026 (CEPEA)
const NOW = new Date("2026-09-27T12:00:00-03:00");

type Sites = Awaited<ReturnType<typeof startSources>>;

/** the whole `npm run update` without --replay, against the fake sites */
// generous budgets where every page is healthy (a loaded CI machine must not turn a slow answer
// into a retry), short ones where a page is meant to hang
const HEALTHY = { requestMs: 10_000, pageMs: 20_000 };
const SHORT = { requestMs: 500, pageMs: 1500 };

async function liveUpdate(s: Sites, site: string, at: Date, timeouts: { requestMs: number; pageMs: number }) {
  const log: string[] = [];
  const loader = createLiveLoader({
    env: s.env,
    minIntervalMs: 0,
    browser: false,
    timeouts,
    http: { retries: 1, backoffBaseMs: 10, backoffMaxMs: 20 },
    log: (l) => log.push(l),
  });
  const report = await runUpdate({ loader, config: testConfig(site, s.env), now: at, env: s.env, log: (l) => log.push(l) });
  const status = await readJson<StatusFile>(site, "api/v1/status.json");
  const pages = Object.fromEntries(status.fontes.flatMap((f) => f.paginas.map((p) => [`${f.id}/${p.id}`, p])));
  return { report, status, pages, log };
}

describe("npm run update, live path, end to end against local sources", () => {
  let s: Sites;
  let site: string;
  beforeAll(async () => {
    s = await startSources();
    site = await tempSite();
  });
  afterAll(async () => {
    await s.close();
    await cleanup(site);
  });

  it("reads every page over HTTP and publishes with exit code 0", async () => {
    const { report, pages, status, log } = await liveUpdate(s, site, NOW, HEALTHY);
    expect(report.exitCode).toBe(0);
    const nPages = SOURCES.reduce((n, src) => n + src.pages.length, 0);
    expect(Object.values(pages).map((p) => [p.estado, p.via, p.caminho])).toEqual(Array(nPages).fill(["ok", null, "http"]));
    expect(pages["cepea/boi-gordo"]!.url).toBe(`${s.cepea.url}/br/indicador/boi-gordo.aspx`);
    expect(Object.fromEntries(status.fontes.map((f) => [f.id, f.estado]))).toMatchObject({ cepea: "ok", scot: "stale" }); // Scot's page is from 05/08
    const agg = await readJson(site, "api/v1/cotacao.json");
    expect(agg).toMatchObject({ boi_gordo_cepea_sp: 347.7, soja: 161, milho: 70.93, bezerro_ms: 3426.02, vaca_gorda: 318 });
    // hosts are listed in order of their (random) ports: compare as a set
    const line = log.find((l) => l.startsWith("requisições por host: "))!;
    const perHost = new Map<string, number>();
    for (const src of SOURCES) perHost.set(new URL(s.env[src.baseUrlEnv]!).host, (perHost.get(new URL(s.env[src.baseUrlEnv]!).host) ?? 0) + src.pages.length);
    expect(new Set(line.slice("requisições por host: ".length).split(", "))).toEqual(new Set([...perHost].map(([h, n]) => `${h}=${n}`)));
  });

  it("records blocked-through-mirror, timeout and soft block per page, and still writes the good data", async () => {
    s.scot.route("/cotacoes/boi-gordo/", endlessChallenge());
    // the copy is recorded six months before Scot's table; dated as a copy read now would be
    s.na.route("/cotacoes/boi-gordo/boi-gordo-scot-consultoria", ok(copiaRedatada(fixture("noticias-agricolas/boi-gordo-scot-consultoria.html"))));
    // pages without a mirror (CEPEA's mirrored pages: test/fetch/cepea-mirrors.test.ts)
    s.cepea.route("/br/indicador/arroz.aspx", hang());
    s.cepea.route("/br/indicador/acucar.aspx", noTable());
    const later = new Date(NOW.getTime() + 86_400_000);
    const { report, pages, status, log } = await liveUpdate(s, site, later, SHORT);

    expect(report.exitCode).toBe(1);
    const states = Object.fromEntries(Object.entries(pages).map(([k, p]) => [k, p.via ? `${p.estado} via ${p.via}` : p.estado]));
    expect(states).toEqual({
      ...Object.fromEntries(Object.keys(pages).map((k) => [k, "ok"])),
      "cepea/arroz": "timeout",
      "cepea/acucar": "soft_block",
      "scot/boi-gordo": "ok via noticias-agricolas",
    });
    expect(pages["cepea/arroz"]).toMatchObject({
      url: `${s.cepea.url}/br/indicador/arroz.aspx`,
      falhas_consecutivas: 1,
      motivo: expect.stringMatching(/^sem resposta completa em 0\.5 s/),
    });
    expect(pages["cepea/arroz"]!.falhando_desde).toBe(pages["cepea/arroz"]!.ultima_tentativa);
    expect(pages["cepea/acucar"]!.motivo).toMatch(/^HTTP 200 sem a tabela esperada \(\d+ bytes recebidos, título "Acesso temporariamente limitado"\)$/);
    expect(status.fontes.find((f) => f.id === "cepea")).toMatchObject({ estado: "failed", falhas_consecutivas: 1 });
    // the pages that worked kept their data; the failed ones kept their last good data
    const agg = await readJson(site, "api/v1/cotacao.json");
    expect(agg).toMatchObject({ boi_gordo_cepea_sp: 347.7, soja: 161, milho: 70.93 });
    expect(log.some((l) => l.startsWith("cepea/arroz: FALHA timeout"))).toBe(true);
    expect(log).toContain(`scot/boi-gordo: tentando o espelho Notícias Agrícolas (${s.na.url}/cotacoes/boi-gordo/boi-gordo-scot-consultoria)`);
  }, 20_000);
});
