/**
 * CEPEA through its mirrors, end to end: the whole `npm run update` against loopback sites where
 * every CEPEA indicator page answers a Cloudflare challenge that never clears, Chromium cannot
 * start, and Notícias Agrícolas and CEPEA's widget serve their recorded pages; then --replay of
 * mirror recordings, --record of mirror pages, and a mirror's value that disagrees with a stored
 * direct value (held, never published).
 */
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runValidate } from "../../pipeline/cli/validate.ts";
import type { StatusFile } from "../../pipeline/domain/publicados.ts";
import { createLiveLoader } from "../../pipeline/fetch/live.ts";
import { mirrorFile, withRecording } from "../../pipeline/fetch/record.ts";
import { createReplayLoader } from "../../pipeline/fetch/replay.ts";
import { runUpdate } from "../../pipeline/run/update.ts";
import { widgetBoiGordo } from "../../pipeline/sources/cepea-widget.ts";
import { cepea } from "../../pipeline/sources/cepea.ts";
import { MIRRORS } from "../../pipeline/sources/index.ts";
import { naCafeArabica, naMilho } from "../../pipeline/sources/noticias-agricolas.ts";
import { milhoRevistoPeloEspelho } from "../helpers/espelho.ts";
import { cleanup, FIXTURES, readJson, replay, replayDir, tempSite, testConfig } from "../helpers/pipeline.ts";
import { endlessChallenge, ok, fixture, routeCepeaMirrors, SOURCE_PAGES, startSources } from "./server.ts";

type Sites = Awaited<ReturnType<typeof startSources>>;
type Pagina = StatusFile["fontes"][number]["paginas"][number];

// the NA pages were captured on 18/09/2026 (days 03/09–17/09); CEPEA's own pages run to 25/09
const NOW = new Date("2026-09-27T12:00:00-03:00");
const HEALTHY = { requestMs: 10_000, pageMs: 20_000 };
/** the CEPEA pages with a mirror, and the one without a mirror that stays blocked */
const MIRRORED = Object.keys(MIRRORS).filter((k) => k.startsWith("cepea/"));

const paginas = (status: StatusFile) => Object.fromEntries(status.fontes.flatMap((f) => f.paginas.map((p): [string, Pagina] => [`${f.id}/${p.id}`, p])));

async function liveUpdate(s: Sites, site: string, at: Date, over: { browser?: boolean; env?: NodeJS.ProcessEnv } = {}) {
  const log: string[] = [];
  const env = { ...s.env, ...over.env };
  const loader = createLiveLoader({
    env,
    minIntervalMs: 0,
    browser: over.browser ?? false,
    timeouts: { ...HEALTHY, browserMs: 15_000 },
    http: { retries: 0 },
    log: (l) => log.push(l),
  });
  const report = await runUpdate({ loader, config: testConfig(site, env), now: at, env, log: (l) => log.push(l) });
  const status = await readJson<StatusFile>(site, "api/v1/status.json");
  return { report, status, pages: paginas(status), log };
}

describe("live: CEPEA challenged and Chromium unavailable, its mirrors serve its pages", () => {
  let s: Sites;
  let site: string;
  let run: Awaited<ReturnType<typeof liveUpdate>>;
  let before: Record<string, unknown>;

  beforeAll(async () => {
    s = await startSources();
    routeCepeaMirrors(s);
    site = await tempSite();
    // a healthy run first: every series has its direct values stored
    const first = await liveUpdate(s, site, NOW);
    expect(first.report.exitCode).toBe(0);
    expect(Object.values(first.pages).every((p) => p.caminho === "http" && p.via === null && p.via_url === null)).toBe(true);
    before = { sojaPR: await readJson(site, "api/v1/cotacao/soja/PR.json"), robusta: await readJson(site, "api/v1/cotacao/cafe_robusta.json") };

    // then CEPEA answers every indicator page with a challenge that never clears, and the
    // browser is on but cannot start: the loader goes browser -> Notícias Agrícolas -> widget
    for (const path of Object.keys(SOURCE_PAGES.cepea)) s.cepea.route(path, endlessChallenge());
    run = await liveUpdate(s, site, new Date(NOW.getTime() + 3_600_000), {
      browser: true,
      env: { PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH: join(tmpdir(), "sem-chromium", "chromium") },
    });
  }, 60_000);
  afterAll(async () => {
    await s?.close();
    await cleanup(site);
  });

  it("status.json names the path that served each page", () => {
    const { pages } = run;
    const via = (k: string) => [pages[k]!.estado, pages[k]!.caminho, pages[k]!.via];
    for (const k of ["cepea/milho", "cepea/soja", "cepea/bezerro", "cepea/cafe", "cepea/algodao", "cepea/trigo"]) {
      expect(via(k), k).toEqual(["ok", "espelho", "noticias-agricolas"]);
    }
    expect(via("cepea/boi-gordo")).toEqual(["ok", "espelho", "cepea-widget"]);
    expect(pages["cepea/milho"]!.via_url).toBe(`${s.na.url}${naMilho.path}`);
    expect(pages["cepea/cafe"]!.via_url).toBe(`${s.na.url}${naCafeArabica.path}`);
    expect(pages["cepea/boi-gordo"]!.via_url).toBe(`${s.cepea.url}${widgetBoiGordo.path}`);
    // a partial mirror says what it left as it was
    expect(pages["cepea/soja"]!.series_nao_lidas).toEqual(["soja/PR"]);
    expect(pages["cepea/cafe"]!.series_nao_lidas).toEqual(["cafe_robusta"]);
    expect(pages["cepea/milho"]!.series_nao_lidas).toBeUndefined();
    expect(pages["cepea/trigo"]!.series_nao_lidas).toBeUndefined();
    // pages without a mirror stay blocked, saying why (the browser could not start)
    for (const p of cepea.pages.filter((x) => !MIRRORED.includes(`cepea/${x.id}`))) {
      const pg = pages[`cepea/${p.id}`]!;
      expect([pg.estado, pg.caminho, pg.via], p.id).toEqual(["blocked", null, null]);
      expect(pg.motivo, p.id).toMatch(/^desafio Cloudflare .*; navegador indisponível/);
    }
    // the other sources are untouched by CEPEA's trouble
    expect(pages["scot/boi-gordo"]).toMatchObject({ estado: "ok", caminho: "http", via: null });
    expect(run.report.exitCode).toBe(1);
  });

  it("tries the browser, then Notícias Agrícolas, then the widget, in that order", () => {
    const boi = run.log.filter((l) => l.startsWith("cepea/boi-gordo"));
    const i = (re: RegExp) => boi.findIndex((l) => re.test(l));
    expect(i(/abrindo no navegador/)).toBeGreaterThan(-1);
    expect(i(/tentando o espelho widget do CEPEA/)).toBeGreaterThan(i(/abrindo no navegador/));
    const milho = run.log.filter((l) => l.startsWith("cepea/milho"));
    expect(milho.some((l) => l === `cepea/milho: tentando o espelho Notícias Agrícolas (${s.na.url}${naMilho.path})`)).toBe(true);
    // the first mirror that answers serves the page: café's robusta page is not asked for
    expect(s.na.hits("/cotacoes/cafe/indicador-cepea-esalq-cafe-conillon")).toBe(0);
  });

  it("publishes the mirrors' days as CEPEA's, with the mirror in provenance, to the centavo", async () => {
    const milho = await readJson(site, "api/v1/cotacao/milho.json");
    expect(milho).toMatchObject({ fonte: "cepea", data_cotacao: "2026-09-17", valor: 69.25, unidade: "sc60kg" });
    expect(milho.proveniencia).toMatchObject({ fonte: "cepea", url: `${s.cepea.url}/br/indicador/milho.aspx`, via: "noticias-agricolas", via_url: `${s.na.url}${naMilho.path}` });
    // the days both show agree; the direct day keeps its US$ (NA prints only R$)
    const dia = (d: string) => milho.historico.find((e: { data: string }) => e.data === d);
    expect(dia("2026-09-04")).toEqual({ data: "2026-09-04", valor: 70.93, valor_usd: expect.any(Number) });
    expect(dia("2026-09-08")).toEqual({ data: "2026-09-08", valor: 70.9 });
    const trigo = await readJson(site, "api/v1/cotacao/trigo/RS.json");
    expect(trigo).toMatchObject({ fonte: "cepea", data_cotacao: "2026-09-17", valor: 1385.09, unidade: "t" });
    expect((await readJson(site, "api/v1/cotacao/algodao.json")).valor).toBe(432.57);
    expect((await readJson(site, "api/v1/cotacao/cafe_arabica.json")).valor).toBe(1541.97);
    // what the partial mirrors do not carry is exactly as the direct run left it
    expect(await readJson(site, "api/v1/cotacao/soja/PR.json")).toEqual(before.sojaPR);
    expect(await readJson(site, "api/v1/cotacao/cafe_robusta.json")).toEqual(before.robusta);
    // the widget's one day, R$ only
    const boi = await readJson(site, "api/v1/cotacao/boi_gordo.json");
    expect(boi.historico.find((e: { data: string }) => e.data === "2026-08-05")).toEqual({ data: "2026-08-05", valor: 348.55 });
    expect(boi.proveniencia).toMatchObject({ via: "cepea-widget", via_url: `${s.cepea.url}${widgetBoiGordo.path}` });
  });

  it("the capture log records each mirror read", async () => {
    const log = await readJson(site, "api/v1/capturas/2026.json");
    const milho = log.capturas.filter((c: { pagina: string; via: string | null }) => c.pagina === "milho" && c.via !== null);
    expect(milho).toHaveLength(1);
    expect(milho[0]).toMatchObject({ fonte: "cepea", via: "noticias-agricolas", via_url: `${s.na.url}${naMilho.path}` });
    expect(milho[0].novos.milho).toEqual(["2026-09-08", "2026-09-09", "2026-09-10", "2026-09-11", "2026-09-14", "2026-09-15", "2026-09-16", "2026-09-17"]);
  });

  it("validate passes over the published site", () => {
    expect(runValidate(site)).toBe(0);
  });
});

describe("--replay reads mirror recordings when the page is missing, blocked or challenged", () => {
  let dir: string;
  let site: string;
  let run: Awaited<ReturnType<typeof replay>>;

  beforeAll(async () => {
    dir = await replayDir();
    await copyFile(join(FIXTURES, "capturas.json"), join(dir, "capturas.json"));
    for (const m of Object.values(MIRRORS).flat()) {
      if (!m.paraPagina.startsWith("cepea/")) continue;
      const to = mirrorFile(dir, m);
      await mkdir(join(to, ".."), { recursive: true });
      await copyFile(mirrorFile(FIXTURES, m), to);
    }
    await rm(join(dir, "cepea/milho.html")); // missing
    await rm(join(dir, "cepea/cafe.html"));
    await writeFile(join(dir, "cepea/boi-gordo.html"), "<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><script>window._cf_chl_opt={}</script></body></html>");
    await writeFile(join(dir, "cepea/trigo.html"), "<html><body><p>Acesso limitado</p></body></html>"); // soft block
    site = await tempSite();
    // the site already holds what CEPEA's own pages gave the day before
    expect((await replay(FIXTURES, site, "2026-09-26T12:00:00-03:00")).exitCode).toBe(0);
    run = await replay(dir, site, "2026-09-27T12:00:00-03:00");
  }, 60_000);
  afterAll(async () => {
    await cleanup(site);
    await rm(dir, { recursive: true, force: true });
  });

  it("serves each of those pages from its mirror's recording, and says so", async () => {
    const pages = paginas(await readJson<StatusFile>(site, "api/v1/status.json"));
    const via = (k: string) => [pages[k]!.estado, pages[k]!.caminho, pages[k]!.via];
    expect(via("cepea/milho")).toEqual(["ok", "gravacao", "noticias-agricolas"]);
    expect(via("cepea/cafe")).toEqual(["ok", "gravacao", "noticias-agricolas"]);
    expect(via("cepea/trigo")).toEqual(["ok", "gravacao", "noticias-agricolas"]);
    expect(via("cepea/boi-gordo")).toEqual(["ok", "gravacao", "cepea-widget"]);
    // pages whose recording is fine are read from it, not from their mirror
    expect(via("cepea/soja")).toEqual(["ok", "gravacao", null]);
    expect(pages["cepea/milho"]!.via_url).toBe(`https://www.noticiasagricolas.com.br${naMilho.path}`);
    expect(pages["cepea/cafe"]!.series_nao_lidas).toEqual(["cafe_robusta"]);
    expect(run.exitCode).toBe(0);
  });

  it("publishes them as CEPEA's, fetched when the mirror page was recorded", async () => {
    const milho = await readJson(site, "api/v1/cotacao/milho.json");
    expect(milho).toMatchObject({ fonte: "cepea", valor: 69.25, data_cotacao: "2026-09-17" });
    // CEPEA's 15 days to 04/09 (with US$), then the mirror's 8 new ones (R$ only)
    expect(milho.historico).toHaveLength(15 + 8);
    expect(milho.historico.filter((e: Record<string, unknown>) => !("valor_usd" in e)).map((e: { data: string }) => e.data)).toEqual([
      "2026-09-08", "2026-09-09", "2026-09-10", "2026-09-11", "2026-09-14", "2026-09-15", "2026-09-16", "2026-09-17",
    ]);
    expect(milho.proveniencia).toMatchObject({ via: "noticias-agricolas", coletado_em: "2026-09-18T07:54:00-03:00" });
    // the widget's day is older than the stored ones: added to the history, the latest day stays
    const boi = await readJson(site, "api/v1/cotacao/boi_gordo.json");
    expect(boi).toMatchObject({ fonte: "cepea", valor: 347.7, data_cotacao: "2026-09-04" });
    expect(boi.historico[0]).toEqual({ data: "2026-08-05", valor: 348.55 });
    expect(boi.proveniencia).toMatchObject({ via: "cepea-widget", coletado_em: "2026-08-06T00:00:00-03:00" });
    // café robusta is not on the arábica mirror: kept as CEPEA's page gave it the day before
    expect((await readJson(site, "api/v1/cotacao/cafe_robusta.json")).proveniencia.via).toBeNull();
    const index = await readJson(site, "api/v1/index.json");
    const ids = index.series.map((x: { id: string }) => x.id);
    expect(ids).toEqual(expect.arrayContaining(["milho", "cafe_arabica", "trigo/PR", "trigo/RS", "boi_gordo"]));
    expect(runValidate(site)).toBe(0);
  });
});

describe("a mirror's value that disagrees with a stored direct value beyond the revision bound", () => {
  it("is held as revisao_suspeita, never published", async () => {
    const site = await tempSite();
    const dir = await replayDir();
    try {
      // direct pages first: milho 04/09/2026 is 70,93
      expect((await replay(dir, site, "2026-09-27T12:00:00-03:00")).exitCode).toBe(0);
      const milhoBefore = await readFile(join(site, "api/v1/cotacao/milho.json"), "utf8");
      // then CEPEA's page is missing and NA's page says 72,50 for that day: +2,2 %, within milho's
      // day-to-day jump bound (12 %), beyond its revision bound (1 %); its variations agree with
      // it (+2,03 % on 04/09, -2,21 % on 08/09), as a revision republished whole would
      await milhoRevistoPeloEspelho(dir, 72.50);
      const r = await replay(dir, site, "2026-09-28T12:00:00-03:00");
      expect(r.exitCode).toBe(1);
      const o = r.outcomes.find((x) => x.source === "cepea" && x.page === "milho")!;
      expect(o).toMatchObject({ ok: false, kind: "revisao_suspeita" });
      // the value beyond the bound, and CEPEA's US$ of 70,93, which the mirror does not carry and a new value drops
      if (!o.ok)
        expect(o.revisoes).toEqual([
          expect.objectContaining({ serie: "milho", data: "2026-09-04", campo: "valor", antes: 70.93, depois: 72.5 }),
          expect.objectContaining({ serie: "milho", data: "2026-09-04", campo: "valor_usd", antes: 13.83, depois: null }),
        ]);
      // nothing of the mirror's page was merged, not even its new days
      expect(await readFile(join(site, "api/v1/cotacao/milho.json"), "utf8")).toBe(milhoBefore);
      const pages = paginas(await readJson<StatusFile>(site, "api/v1/status.json"));
      expect(pages["cepea/milho"]).toMatchObject({ estado: "revisao_suspeita", caminho: null, via: null });
    } finally {
      await cleanup(site);
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("--record saves mirror pages where --replay reads them", () => {
  let s: Sites;
  beforeAll(async () => {
    s = await startSources();
    routeCepeaMirrors(s);
  });
  afterAll(() => s.close());

  it("NA's page by the last segment of its URL, the widget as cepea/widget/2.js", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cotacao-record-"));
    try {
      s.cepea.route("/br/indicador/milho.aspx", endlessChallenge());
      s.cepea.route("/br/indicador/boi-gordo.aspx", endlessChallenge());
      const l = withRecording(createLiveLoader({ env: s.env, minIntervalMs: 0, browser: false, http: { retries: 0 } }), dir);
      try {
        for (const id of ["milho", "boi-gordo"]) {
          const r = await l.load(cepea, cepea.pages.find((p) => p.id === id)!);
          expect(r, id).toMatchObject({ ok: true, method: "mirror" });
        }
      } finally {
        await l.close();
      }
      expect(await readdir(join(dir, "noticias-agricolas"))).toEqual(["indicador-cepea-esalq-milho.html"]);
      expect(await readdir(join(dir, "cepea", "widget"))).toEqual(["2.js"]);
      expect(await readdir(join(dir, "cepea"))).toEqual(["widget"]); // never under the page's own name
      // stored as test/fixtures holds them (the widget's <style> dropped), and read back by --replay
      expect(await readFile(join(dir, "cepea", "widget", "2.js"), "utf8")).toBe(fixture("cepea/widget/2.js"));
      const back = await createReplayLoader(dir, () => new Date(0)).load(cepea, cepea.pages.find((p) => p.id === "boi-gordo")!);
      expect(back).toMatchObject({ ok: true, mirror: widgetBoiGordo, method: "replay" });
    } finally {
      s.cepea.route("/br/indicador/milho.aspx", ok(fixture("cepea/milho.html")));
      s.cepea.route("/br/indicador/boi-gordo.aspx", ok(fixture("cepea/boi-gordo.html")));
      await rm(dir, { recursive: true, force: true });
    }
  });
});
