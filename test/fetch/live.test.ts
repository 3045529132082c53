import { createHash } from "node:crypto";
import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createLiveLoader, type LiveLoaderOptions } from "../../pipeline/fetch/live.ts";
import { withRecording } from "../../pipeline/fetch/record.ts";
import { createReplayLoader } from "../../pipeline/fetch/replay.ts";
import type { LoadOk, LoadResult, PageLoader } from "../../pipeline/fetch/types.ts";
import { USER_AGENT } from "../../pipeline/fetch/http.ts";
import { cepea } from "../../pipeline/sources/cepea.ts";
import { naBoiGordo, naVacaGorda } from "../../pipeline/sources/noticias-agricolas.ts";
import { scot } from "../../pipeline/sources/scot.ts";
import { SOURCES } from "../../pipeline/sources/index.ts";
import {
  chunkedCut,
  cloudflareBlock,
  endlessChallenge,
  fixture,
  hang,
  hardBlock,
  latin1,
  noTable,
  ok,
  raw,
  redirect,
  sequence,
  startSources,
  status,
  truncatedBody,
} from "./server.ts";

type Sites = Awaited<ReturnType<typeof startSources>>;
let s: Sites;
const loaders: PageLoader[] = [];
const page = (src: typeof cepea | typeof scot, id: string) => src.pages.find((p) => p.id === id)!;

function loader(over: LiveLoaderOptions = {}): PageLoader {
  const l = createLiveLoader({
    env: s.env,
    minIntervalMs: 0,
    browser: false,
    timeouts: { requestMs: 2000, pageMs: 5000 },
    http: { backoffBaseMs: 10, backoffMaxMs: 20 },
    ...over,
  });
  loaders.push(l);
  return l;
}

function okResult(r: LoadResult): LoadOk {
  if (!r.ok) throw new Error(`esperava ok, veio ${r.kind}: ${r.reason}`);
  return r;
}

beforeAll(async () => {
  s = await startSources();
});
afterEach(async () => {
  await Promise.all(loaders.splice(0).map((l) => l.close()));
  // back to the healthy recorded pages
  s.scot.route("/cotacoes/boi-gordo/", ok(fixture("scot/boi-gordo.html")));
  s.scot.route("/cotacoes/vaca-gorda/", ok(fixture("scot/vaca-gorda.html")));
  s.cepea.route("/br/indicador/boi-gordo.aspx", ok(fixture("cepea/boi-gordo.html")));
  s.cepea.route("/br/indicador/arroz.aspx", ok(fixture("cepea/arroz.html")));
  s.na.route("/cotacoes/boi-gordo/boi-gordo-scot-consultoria", ok(fixture("noticias-agricolas/boi-gordo-scot-consultoria.html")));
});
afterAll(async () => {
  await s.close();
});

// CEPEA's boi page has a mirror now (its widget, served by the fake CEPEA host): the tests of
// the direct path's faults below pass `mirrors: {}` to see the page's own failure
describe("live loader", () => {
  it("reads every page of every source over HTTP from the COTACAO_*_URL hosts", async () => {
    const lines: string[] = [];
    const l = loader({ log: (line) => lines.push(line) });
    for (const src of SOURCES) {
      for (const p of src.pages) {
        const r = okResult(await l.load(src, p));
        expect(r.method).toBe("http");
        expect(r.mirror).toBeNull();
        expect(r.url.startsWith(s.env[src.baseUrlEnv]!)).toBe(true);
        expect(p.parse(r.html).rows.length).toBeGreaterThan(0);
      }
    }
    // one request per page, per host (CEPEA's boi page and its Média a Prazo are two requests)
    const perHost: Record<string, number> = {};
    for (const src of SOURCES) perHost[new URL(s.env[src.baseUrlEnv]!).host] = (perHost[new URL(s.env[src.baseUrlEnv]!).host] ?? 0) + src.pages.length;
    expect(l.requestsPerHost()).toEqual(perHost);
    expect(s.cepea.requests.every((r) => r.userAgent === USER_AGENT)).toBe(true);
    expect(lines).toContain(`cepea/boi-gordo: GET ${s.cepea.url}/br/indicador/boi-gordo.aspx`);
    expect(lines.some((x) => /^scot\/vaca-gorda: ok, HTTP 200, \d+ bytes$/.test(x))).toBe(true);
  });

  it("falls back to the Notícias Agrícolas mirror when Scot stays blocked", async () => {
    s.scot.route("/cotacoes/boi-gordo/", endlessChallenge());
    const r = okResult(await loader().load(scot, page(scot, "boi-gordo")));
    expect(r.method).toBe("mirror");
    expect(r.mirror).toBe(naBoiGordo);
    expect(r.url).toBe(`${s.scot.url}/cotacoes/boi-gordo/`);
    expect(r.mirrorUrl).toBe(`${s.na.url}/cotacoes/boi-gordo/boi-gordo-scot-consultoria`);
    const rows = r.mirror!.parse(r.html).rows;
    expect(rows[0]).toMatchObject({ fonte: "scot", produto: "boi_gordo", uf: "SP", praca: "Barretos", valor: 326 });
  });

  it("falls back to the mirror on a soft block and on an HTTP error", async () => {
    s.scot.route("/cotacoes/vaca-gorda/", noTable());
    const soft = okResult(await loader().load(scot, page(scot, "vaca-gorda")));
    expect(soft.mirror).toBe(naVacaGorda);
    expect(soft.mirror!.parse(soft.html).rows[0]).toMatchObject({ produto: "vaca_gorda", valor: 308.5 });

    s.scot.route("/cotacoes/vaca-gorda/", status(500));
    const err = okResult(await loader().load(scot, page(scot, "vaca-gorda")));
    expect(err.method).toBe("mirror");
  });

  it("reports the source's failure and the mirror's when both fail", async () => {
    s.scot.route("/cotacoes/boi-gordo/", noTable());
    s.na.route("/cotacoes/boi-gordo/boi-gordo-scot-consultoria", endlessChallenge());
    const r = await loader().load(scot, page(scot, "boi-gordo"));
    expect(r).toMatchObject({ ok: false, kind: "soft_block", url: `${s.scot.url}/cotacoes/boi-gordo/` });
    if (r.ok) return;
    expect(r.reason).toMatch(/^HTTP 200 sem a tabela esperada \(\d+ bytes recebidos, título "Acesso temporariamente limitado"\); espelho Notícias Agrícolas: desafio Cloudflare .*navegador desativado$/);
  });

  it("says blocked for a challenge when the browser is off, and asks no mirror for a page without one", async () => {
    // arroz has no mirror (CEPEA's mirrored pages: test/fetch/cepea-mirrors.test.ts)
    s.cepea.route("/br/indicador/arroz.aspx", endlessChallenge());
    const naBefore = s.na.requests.length;
    const cepeaBefore = s.cepea.requests.length;
    const r = await loader().load(cepea, page(cepea, "arroz"));
    expect(r).toEqual({
      ok: false,
      kind: "blocked",
      url: `${s.cepea.url}/br/indicador/arroz.aspx`,
      reason: "desafio Cloudflare (HTTP 403, cf-mitigated: challenge); navegador desativado",
    });
    expect(s.na.requests.length).toBe(naBefore);
    expect(s.cepea.requests.length).toBe(cepeaBefore + 1);
  });

  it("says soft_block for a 200 without the table", async () => {
    s.cepea.route("/br/indicador/boi-gordo.aspx", noTable());
    const r = await loader({ mirrors: {} }).load(cepea, page(cepea, "boi-gordo"));
    expect(r).toMatchObject({ ok: false, kind: "soft_block" });
  });

  it("reads a page re-encoded in ISO-8859-1 exactly as the UTF-8 original", async () => {
    // the header wins over the page's own <meta charset="utf-8">, as in a browser
    s.cepea.route("/br/indicador/boi-gordo.aspx", latin1(fixture("cepea/boi-gordo.html"), "header"));
    const boi = page(cepea, "boi-gordo");
    const r = okResult(await loader().load(cepea, boi));
    expect(r.html).toBe(fixture("cepea/boi-gordo.html"));
    expect(boi.parse(r.html).rows).toEqual(boi.parse(fixture("cepea/boi-gordo.html")).rows);
    // provenance hashes the bytes the source sent (ISO-8859-1 here), not the decoded text
    expect(r.bytes).toBeLessThan(Buffer.byteLength(r.html));
    expect(r.sha256).toBe(createHash("sha256").update(Buffer.from(r.html, "latin1")).digest("hex"));
  });

  it("says http_error for a redirect to another host", async () => {
    s.cepea.route("/br/indicador/boi-gordo.aspx", redirect(`${s.scot.url}/cotacoes/boi-gordo/`));
    const r = await loader({ mirrors: {} }).load(cepea, page(cepea, "boi-gordo"));
    expect(r).toMatchObject({ ok: false, kind: "http_error" });
    if (!r.ok) expect(r.reason).toContain(`outro host recusado: ${s.scot.host}`);
  });

  it("never holds a page past its time budget when the source hangs", async () => {
    s.cepea.route("/br/indicador/boi-gordo.aspx", hang());
    const before = s.cepea.hits("/br/indicador/boi-gordo.aspx");
    // budget 1.5 s, 0.4 s per request: the loader gives up on its own well inside the test's limit
    const l = loader({ mirrors: {}, timeouts: { requestMs: 400, pageMs: 1500 }, http: { retries: 10, backoffBaseMs: 100, backoffMaxMs: 200 } });
    const r = await l.load(cepea, page(cepea, "boi-gordo"));
    expect(r).toMatchObject({ ok: false, kind: "timeout" });
    const tries = s.cepea.hits("/br/indicador/boi-gordo.aspx") - before;
    expect(tries).toBeGreaterThanOrEqual(1);
    expect(tries).toBeLessThan(11); // the budget, not the retry count, ended it
    await l.close();
    // the client let go of every hanging connection
    await vi.waitFor(() => expect(s.cepea.openSockets()).toBe(0), { timeout: 5000 });
  }, 10_000);

  it("uses the mirror after a hanging Scot page, within two budgets", async () => {
    s.scot.route("/cotacoes/boi-gordo/", hang());
    const l = loader({ timeouts: { requestMs: 300, pageMs: 800 }, http: { retries: 0 } });
    const r = okResult(await l.load(scot, page(scot, "boi-gordo")));
    expect(r.method).toBe("mirror");
  }, 10_000);
});

describe("live loader, one loopback test per fault", () => {
  const CEPEA_BOI = "/br/indicador/boi-gordo.aspx";

  it("503 and 429 are retried (Retry-After honoured) and the page then read", async () => {
    const waited: number[] = [];
    const l = loader({ http: { backoffBaseMs: 10, backoffMaxMs: 20, random: () => 0.5, sleep: async (ms) => void waited.push(ms) } });
    s.cepea.route(CEPEA_BOI, sequence(status(503), status(429, { "retry-after": "2" }), ok(fixture("cepea/boi-gordo.html"))));
    const before = s.cepea.hits(CEPEA_BOI);
    const r = okResult(await l.load(cepea, page(cepea, "boi-gordo")));
    expect(r.method).toBe("http");
    expect(s.cepea.hits(CEPEA_BOI) - before).toBe(3);
    expect(waited).toEqual([8, 2000]);
  });

  it("a hard block (plain 403) is http_error, asked once; Scot then goes to its mirror", async () => {
    s.cepea.route(CEPEA_BOI, hardBlock());
    const before = s.cepea.hits(CEPEA_BOI);
    // the page alone (its widget mirror would answer)
    const r = await loader({ mirrors: {} }).load(cepea, page(cepea, "boi-gordo"));
    expect(r).toMatchObject({ ok: false, kind: "http_error", reason: "HTTP 403" });
    expect(s.cepea.hits(CEPEA_BOI) - before).toBe(1);

    s.scot.route("/cotacoes/boi-gordo/", hardBlock());
    expect(okResult(await loader().load(scot, page(scot, "boi-gordo"))).method).toBe("mirror");
  });

  it("Cloudflare's block page (no challenge to solve) is blocked", async () => {
    s.cepea.route(CEPEA_BOI, cloudflareBlock());
    const r = await loader({ mirrors: {} }).load(cepea, page(cepea, "boi-gordo"));
    expect(r).toMatchObject({ ok: false, kind: "blocked" });
    if (!r.ok) expect(r.reason).toContain("Attention Required! | Cloudflare");
  });

  it("a page cut short of its Content-Length, every attempt, is a network_error and never parsed", async () => {
    const html = fixture("cepea/boi-gordo.html");
    // cut inside the table: what a parser would have read as a shorter table
    s.cepea.route(CEPEA_BOI, raw(truncatedBody(Buffer.from(html).subarray(0, Math.floor(html.length / 2)), Buffer.byteLength(html))));
    const before = s.cepea.hits(CEPEA_BOI);
    const r = await loader({ mirrors: {}, http: { retries: 2, backoffBaseMs: 1, backoffMaxMs: 2 } }).load(cepea, page(cepea, "boi-gordo"));
    expect(r).toMatchObject({ ok: false, kind: "network_error" });
    if (!r.ok) expect(r.reason).toMatch(new RegExp(`^corpo interrompido: \\d+ de ${Buffer.byteLength(html)} bytes recebidos \\(Content-Length\\).*\\(3 tentativas\\)$`));
    expect(s.cepea.hits(CEPEA_BOI) - before).toBe(3);
  });

  it("a Scot page whose chunked body is cut falls back to the mirror", async () => {
    s.scot.route("/cotacoes/boi-gordo/", raw(chunkedCut(fixture("scot/boi-gordo.html").slice(0, 4000))));
    const r = okResult(await loader({ http: { retries: 0 } }).load(scot, page(scot, "boi-gordo")));
    expect(r.method).toBe("mirror");
    expect(r.mirror).toBe(naBoiGordo);
  });
});

describe("recording", () => {
  it("saves each fetched page in the replay layout, scripts stripped, and replays it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cotacao-record-"));
    try {
      s.scot.route("/cotacoes/vaca-gorda/", noTable());
      s.cepea.route(
        "/br/indicador/boi-gordo.aspx",
        ok(fixture("cepea/boi-gordo.html").replace("</body>", "<script>track()</script><style>p{}</style></body>")),
      );
      const l = withRecording(loader(), dir);
      loaders.push(l);
      for (const src of SOURCES) for (const p of src.pages) okResult(await l.load(src, p));
      // capturas.json: when each page was fetched, so a replay dates its data by that
      expect((await readdir(dir)).sort()).toEqual([...SOURCES.map((x) => x.id), "noticias-agricolas", "capturas.json"].sort());
      expect((await readdir(join(dir, "cepea"))).sort()).toEqual(cepea.pages.map((p) => `${p.id}.html`).sort());
      // the vaca page came through the mirror: saved under the mirror's name, not as Scot's page
      expect((await readdir(join(dir, "scot"))).sort()).toEqual(scot.pages.filter((p) => p.id !== "vaca-gorda").map((p) => `${p.id}.html`).sort());
      expect(await readdir(join(dir, "noticias-agricolas"))).toEqual(["boi-gordo-scot-consultoria.html"]);
      const saved = await readFile(join(dir, "cepea", "boi-gordo.html"), "utf8");
      expect(saved).not.toMatch(/<script|<style/);

      const replay = createReplayLoader(dir, () => new Date(0));
      const back = okResult(await replay.load(cepea, page(cepea, "boi-gordo")));
      expect(page(cepea, "boi-gordo").parse(back.html).rows).toEqual(page(cepea, "boi-gordo").parse(fixture("cepea/boi-gordo.html")).rows);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
