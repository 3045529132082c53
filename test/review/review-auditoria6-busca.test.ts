/**
 * Adversarial audit of the fetch layer (pipeline/fetch/): what a cache, a proxy or an earlier
 * recording can slip past it. Offline: a local HTTP server on 127.0.0.1 (random port) and
 * temporary directories.
 */
import { gzipSync } from "node:zlib";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createHttpClient, HostGate } from "../../pipeline/fetch/http.ts";
import { mirrorFile, withRecording } from "../../pipeline/fetch/record.ts";
import { createReplayLoader } from "../../pipeline/fetch/replay.ts";
import type { LoadResult, PageLoader } from "../../pipeline/fetch/types.ts";
import { cepea } from "../../pipeline/sources/cepea.ts";
import { MIRRORS } from "../../pipeline/sources/index.ts";
import { fixture, startFakeSite } from "../fetch/server.ts";

const env = { COTACAO_CEPEA_URL: "https://cepea.test", COTACAO_NA_URL: "https://na.test" };
const milho = cepea.pages.find((p) => p.id === "milho")!;
const naMilho = MIRRORS["cepea/milho"]![0]!;

describe("a compressed page cut short is not a shorter page", () => {
  it("asks for the page uncompressed, so a cut body fails its Content-Length and is fetched again", async () => {
    const html = `<html><body><table>${"<tr><td>Três Lagoas</td><td>300,00</td></tr>".repeat(2000)}</table></body></html>`;
    const gz = gzipSync(Buffer.from(html));
    // a cache holding a truncated gzip copy under a Content-Length that matches what it holds
    const cut = gz.subarray(0, Math.floor(gz.length / 2));
    const site = await startFakeSite({
      "/p": (req, res, hit) => {
        const gzipOk = /\b(gzip|\*)\b/.test(String(req.headers["accept-encoding"] ?? ""));
        if (gzipOk) {
          res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-encoding": "gzip", "content-length": String(cut.length) });
          res.end(cut);
          return;
        }
        const body = Buffer.from(html);
        // the first uncompressed answer is cut too: the client must notice and ask again
        if (hit === 1) {
          res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-length": String(body.length) });
          res.end(body.subarray(0, 1000));
          res.socket?.destroy();
          return;
        }
        res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-length": String(body.length) });
        res.end(body);
      },
    });
    const c = createHttpClient({ gate: new HostGate(0), retries: 1, backoffBaseMs: 1, backoffMaxMs: 1 });
    try {
      const r = await c.get(`${site.url}/p`);
      expect(r.body).toBe(html);
      expect(r.attempts).toBe(2);
    } finally {
      await c.close();
      await site.close();
    }
  });
});

/** A loader that hands out the results it is given, one per load. */
function scripted(results: LoadResult[]): PageLoader {
  return {
    load: async () => results.shift()!,
    close: async () => {},
    requestsPerHost: () => ({}),
  };
}

describe("--record into a directory recorded before", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "cotacao-aud6-"));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const direct = (at: string): LoadResult => ({
    ok: true,
    html: fixture("cepea/milho.html"),
    url: "https://cepea.test/br/indicador/milho.aspx",
    mirror: null,
    mirrorUrl: null,
    fetchedAt: new Date(at),
    method: "http",
  });
  const viaMirror = (at: string): LoadResult => ({
    ok: true,
    html: fixture("noticias-agricolas/indicador-cepea-esalq-milho.html"),
    url: "https://cepea.test/br/indicador/milho.aspx",
    mirror: naMilho,
    mirrorUrl: "https://na.test/cotacoes/milho/indicador-cepea-esalq-milho",
    fetchedAt: new Date(at),
    method: "mirror",
  });

  it("replays today's mirror page, not the source's page recorded on an earlier day", async () => {
    await withRecording(scripted([direct("2026-09-01T21:00:00Z")]), dir).load(cepea, milho);
    await withRecording(scripted([viaMirror("2026-09-08T21:00:00Z")]), dir).load(cepea, milho);
    const r = await createReplayLoader(dir, () => new Date("2026-10-01T12:00:00Z"), env).load(cepea, milho);
    if (!r.ok) throw new Error(`esperava ok, veio ${r.kind}: ${r.reason}`);
    expect(r.mirror?.id).toBe(naMilho.id);
    expect(existsSync(join(dir, "cepea", "milho.html"))).toBe(false);
    expect(existsSync(mirrorFile(dir, naMilho))).toBe(true);
  });

  it("dates a replayed recording by when it was fetched, not by when it is replayed", async () => {
    await withRecording(scripted([direct("2026-09-01T21:00:00Z")]), dir).load(cepea, milho);
    const r = await createReplayLoader(dir, () => new Date("2026-10-01T12:00:00Z"), env).load(cepea, milho);
    if (!r.ok) throw new Error(`esperava ok, veio ${r.kind}: ${r.reason}`);
    expect(r.fetchedAt.toISOString()).toBe("2026-09-01T21:00:00.000Z");

    await withRecording(scripted([viaMirror("2026-09-08T21:00:00Z")]), dir).load(cepea, milho);
    const m = await createReplayLoader(dir, () => new Date("2026-10-01T12:00:00Z"), env).load(cepea, milho);
    if (!m.ok) throw new Error(`esperava ok, veio ${m.kind}: ${m.reason}`);
    expect(m.fetchedAt.toISOString()).toBe("2026-09-08T21:00:00.000Z");
    const capturas = JSON.parse(await readFile(join(dir, "capturas.json"), "utf8"));
    expect(capturas).toEqual({ "noticias-agricolas/indicador-cepea-esalq-milho": "2026-09-08T21:00:00.000Z" });
  });

  it("keeps a mirror page recorded in the same run for another page (two pages sharing one mirror)", async () => {
    const { scot } = await import("../../pipeline/sources/scot.ts");
    const [boi, vaca] = [scot.pages.find((p) => p.id === "boi-gordo")!, scot.pages.find((p) => p.id === "vaca-gorda")!];
    const na = MIRRORS["scot/boi-gordo"]![0]!;
    const outro = { ...na, id: "outro-espelho", arquivo: "outro-espelho/vaca.html" };
    // vaca-gorda's mirrors in replay order: the page boi-gordo just recorded through, then another.
    // Read before vaca's own recording, it would be removed as old unless written in this run.
    const espelhos = { "scot/boi-gordo": [na], "scot/vaca-gorda": [na, outro] };
    const via: LoadResult = { ok: true, html: fixture("noticias-agricolas/boi-gordo-scot-consultoria.html"), url: "https://scot.test/x", mirror: na, mirrorUrl: "https://na.test/x", fetchedAt: new Date("2026-09-08T21:00:00Z"), method: "mirror" };
    const pelaOutra: LoadResult = { ok: true, html: fixture("scot/vaca-gorda.html"), url: "https://scot.test/v", mirror: outro, mirrorUrl: "https://outro.test/v", fetchedAt: new Date("2026-09-08T21:00:01Z"), method: "mirror" };
    const rec = withRecording(scripted([via, pelaOutra]), dir, () => {}, espelhos);
    await rec.load(scot, boi);
    await rec.load(scot, vaca);
    expect(existsSync(mirrorFile(dir, na))).toBe(true);
    expect(existsSync(mirrorFile(dir, outro))).toBe(true);
    // across runs, the same older mirror page is what replay would read first: removed
    await withRecording(scripted([pelaOutra]), dir, () => {}, espelhos).load(scot, vaca);
    expect(existsSync(mirrorFile(dir, na))).toBe(false);
  });
});
