import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { join, normalize } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CotacaoError, DEFAULT_MIRRORS, createClient } from "../../public/api/v1/client.js";
import { JSDELIVR_URL, SITE_URL } from "../../pipeline/openapi/servers.ts";
import { FIXTURES, cleanup, readJson, replay, tempSite } from "../helpers/pipeline.ts";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

async function listen(handler: Handler): Promise<{ url: string; stop: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer(handler);
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    url,
    stop: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}

/** Like GitHub Pages: the files of a site, and an HTML page with status 404 for anything else. */
function staticSite(root: string): Handler {
  return (req, res) => {
    const rel = normalize(decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname)).replace(/^\/+/, "");
    readFile(join(root, rel))
      .then((body) => {
        res.writeHead(200, { "content-type": rel.endsWith(".json") ? "application/json" : "application/octet-stream" });
        res.end(body);
      })
      .catch(() => {
        res.writeHead(404, { "content-type": "text/html" });
        res.end("<!DOCTYPE html><html><body><h1>404</h1><p>File not found</p></body></html>");
      });
  };
}

const NOW = "2026-09-27T12:00:00-03:00";

describe("client.js against two local mirrors", () => {
  let site: string;
  let good: Awaited<ReturnType<typeof listen>>;
  let html: Awaited<ReturnType<typeof listen>>;
  let html200: Awaited<ReturnType<typeof listen>>;
  let hang: Awaited<ReturnType<typeof listen>>;
  let wrong: Awaited<ReturnType<typeof listen>>;
  let downUrl: string;
  let hits: string[];

  beforeAll(async () => {
    site = await tempSite();
    await replay(FIXTURES, site, NOW);
    hits = [];
    const serve = staticSite(site);
    good = await listen((req, res) => {
      hits.push(req.url ?? "");
      serve(req, res);
    });
    html = await listen(staticSite("/nonexistent-dir-for-404"));
    html200 = await listen((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html><body>Portal de acesso</body></html>");
    });
    hang = await listen(() => {});
    wrong = await listen((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ api_version: "v1", produto: "milho", historico: [] }));
    });
    const closed = await listen(() => {});
    downUrl = closed.url;
    await closed.stop();
  });
  afterAll(async () => {
    await Promise.all([good, html, html200, hang, wrong].map((s) => s?.stop()));
    await cleanup(site);
  });

  it("defaults to GitHub Pages then jsDelivr, the same servers as the OpenAPI description", () => {
    expect([...DEFAULT_MIRRORS]).toEqual([SITE_URL, JSDELIVR_URL]);
    expect(createClient().mirrors).toEqual([SITE_URL, JSDELIVR_URL]);
  });

  it("uses the first mirror when it answers", async () => {
    const api = createClient({ mirrors: [good.url, html.url] });
    const agg = await api.cotacao();
    expect(agg).toEqual(await readJson(site, "api/v1/cotacao.json"));
    expect(agg.boi_gordo_cepea_sp).toBe(347.7);
  });

  it("falls back when the first mirror is down", async () => {
    const api = createClient({ mirrors: [downUrl, good.url], timeoutMs: 2000 });
    const ms = await api.cotacao({ uf: "ms" });
    expect(ms.boi_gordo_uf).toMatchObject({ uf: "MS" });
  });

  it("falls back when the first mirror answers a missing file with an HTML 404 (GitHub Pages)", async () => {
    const api = createClient({ mirrors: [html.url, good.url] });
    const s = await api.serie("boi_gordo", "MT");
    expect(s).toMatchObject({ produto: "boi_gordo", uf: "MT", praca: "Cuiabá" });
  });

  it("falls back on HTML with status 200, on a hanging mirror and on JSON of the wrong shape", async () => {
    const api = createClient({ mirrors: [html200.url, hang.url, wrong.url, good.url], timeoutMs: 300 });
    const s = await api.serie("soja");
    expect(s).toMatchObject({ produto: "soja", uf: null, valor: 161 });
  });

  it("historico(produto, uf?, {de, ate}) returns the days in the range, oldest first", async () => {
    const api = createClient({ mirrors: [good.url] });
    const dias = await api.historico("boi_gordo", null, { de: "2026-09-01", ate: "2026-09-03" });
    expect(dias.length).toBeGreaterThan(0);
    expect(dias.at(-1)).toEqual({ data: "2026-09-03", valor: 347.6, valor_usd: 68.1 });
    const all = await api.serie("boi_gordo");
    expect(dias).toEqual(all.historico.filter((d) => d.data >= "2026-09-01" && d.data <= "2026-09-03"));
    const short = await api.historico("soja", { de: "2026-09-25" });
    expect(short).toEqual([{ data: "2026-09-25", valor: 161, valor_usd: 31.02 }]);
    const pr = await api.historico("soja", "PR", { ate: "2026-09-25" });
    expect(pr.at(-1)).toMatchObject({ data: "2026-09-25", valor: 154.38 });
  });

  it("fails with every mirror's reason when none answers correctly", async () => {
    const api = createClient({ mirrors: [downUrl, html.url, html200.url], timeoutMs: 2000 });
    const err = await api.cotacao().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CotacaoError);
    const e = err as CotacaoError;
    expect(e.tentativas.map((t) => t.motivo)).toEqual([expect.stringMatching(/^falha de rede/), "HTTP 404", "resposta em HTML, não JSON"]);
    expect(e.message).toContain("nenhum espelho respondeu api/v1/cotacao.json");
  });

  it("rejects bad arguments before any request", async () => {
    hits.length = 0;
    const api = createClient({ mirrors: [good.url] });
    // @ts-expect-error: not a product
    expect(() => api.serie("frango")).toThrow(/produto inválido.*boi_gordo, vaca_gorda/);
    expect(() => api.serie("boi_gordo", "Mato Grosso")).toThrow(/uf inválida/);
    await expect(api.historico("milho", null, { de: "01/09/2026" })).rejects.toThrow(/de inválido/);
    await expect(api.historico("milho", null, { de: "2026-09-05", ate: "2026-09-01" })).rejects.toThrow(/intervalo inválido/);
    expect(hits).toEqual([]);
    expect(() => createClient({ mirrors: [] })).toThrow(/ao menos um espelho/);
  });
});
