import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { join, normalize } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CotacaoError, DEFAULT_MIRRORS, createClient, resolverCaminho } from "../../public/api/v1/client.js";
import { CLIENT_TEMPLATE, renderClient } from "../../pipeline/openapi/client.ts";
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
    expect(s).toMatchObject({ produto: "soja", valor: 161 });
    expect(s.pracas).toBeUndefined();
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

  it("index(), status() and eventos() read the catalogue, the freshness and the events", async () => {
    const api = createClient({ mirrors: [good.url] });
    const indice = await api.index();
    expect(indice).toEqual(await readJson(site, "api/v1/index.json"));
    expect(await api.status()).toEqual(await readJson(site, "api/v1/status.json"));
    const ev = await api.eventos();
    expect(ev).toEqual(await readJson(site, "api/v1/eventos.json"));
    expect(Array.isArray(ev.eventos)).toBe(true);
    // a series' path, whatever form index.json gives it, names a file the client fetches
    const primeira = indice.series[0]!;
    const doc = await api.arquivo(primeira.path);
    expect(doc).toEqual(await readJson(site, new URL(resolverCaminho(primeira.path, new URL("api/v1/index.json", good.url))).pathname.slice(1)));
    await expect(api.arquivo("../../../etc/passwd")).rejects.toThrow(/fora da API/);
    // status.json of the wrong shape (an index served in its place) falls through to the error
    const trocado = createClient({ mirrors: [wrong.url] });
    await expect(trocado.status()).rejects.toThrow(CotacaoError);
  });

  it("a national series answers for its own UF (bezerro is CEPEA's MS indicator); another UF is still an error", async () => {
    const api = createClient({ mirrors: [good.url] });
    const nacional = await readJson(site, "api/v1/cotacao/bezerro.json");
    expect(nacional.uf).toBe("MS");
    expect(await api.serie("bezerro", "MS")).toEqual(nacional);
    await expect(api.serie("bezerro", "PI")).rejects.toThrow(/nenhum espelho respondeu api\/v1\/cotacao\/bezerro\/PI\.json/);
  });

  it("resolverCaminho: index.json's paths resolve from its own URL, in the new (relative to api/v1/) and the old (from the site root) form", () => {
    const idx = "https://espelho.example/raiz/api/v1/index.json";
    expect(resolverCaminho("cotacao/boi_gordo/MS.json", idx)).toBe("https://espelho.example/raiz/api/v1/cotacao/boi_gordo/MS.json");
    expect(resolverCaminho("api/v1/cotacao/boi_gordo/MS.json", idx)).toBe("https://espelho.example/raiz/api/v1/cotacao/boi_gordo/MS.json");
    expect(resolverCaminho("historico/soja.csv", new URL(idx))).toBe("https://espelho.example/raiz/api/v1/historico/soja.csv");
  });

  it("public/api/v1/client.js is the template rendered (npm run build writes it; commit it when the template changes)", async () => {
    expect(await readFile(join(import.meta.dirname, "../../public/api/v1/client.js"), "utf8")).toBe(renderClient(await readFile(CLIENT_TEMPLATE, "utf8")));
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

describe("the jsDelivr fallback never passes older data off as current", () => {
  let site: string;
  let primario: Awaited<ReturnType<typeof listen>>;
  let espelho: Awaited<ReturnType<typeof listen>>;
  let primarioFora = false;
  /** how the mirror's files compare with the primary's: a lagging CDN serves an older atualizado */
  let deslocamentoMs = -86_400_000;

  beforeAll(async () => {
    site = await tempSite();
    await replay(FIXTURES, site, NOW);
    const serve = staticSite(site);
    primario = await listen((req, res) => {
      if (primarioFora) {
        res.writeHead(503, { "content-type": "text/html" });
        res.end("<html>fora do ar</html>");
        return;
      }
      serve(req, res);
    });
    espelho = await listen((req, res) => {
      const rel = new URL(req.url ?? "/", "http://x").pathname.replace(/^\/+/, "");
      readFile(join(site, rel), "utf8")
        .then((text) => {
          const doc = JSON.parse(text);
          doc.atualizado = new Date(Date.parse(doc.atualizado) + deslocamentoMs).toISOString();
          res.writeHead(200, { "content-type": "application/json" });
          res.end(JSON.stringify(doc));
        })
        .catch(() => {
          res.writeHead(404, { "content-type": "text/html" });
          res.end("<html>404</html>");
        });
    });
  });
  afterAll(async () => {
    await Promise.all([primario, espelho].map((s) => s?.stop()));
    await cleanup(site);
  });

  it("marks a mirror's answer older than what the primary gave before (defasado), and says so through onAviso", async () => {
    primarioFora = false;
    deslocamentoMs = -86_400_000;
    const avisos: unknown[] = [];
    const api = createClient({ mirrors: [primario.url, espelho.url], onAviso: (a) => avisos.push(a) });
    const antes = await api.cotacao();
    expect(antes).toMatchObject({ origem: primario.url, espelho: 0, defasado: false });
    primarioFora = true;
    const depois = await api.cotacao();
    expect(depois.origem).toBe(espelho.url);
    expect(depois.espelho).toBe(1);
    expect(depois.defasado).toBe(true);
    expect(Date.parse(depois.atualizado)).toBeLessThan(Date.parse(antes.atualizado));
    expect(avisos).toEqual([
      {
        tipo: "defasado",
        url: `${espelho.url}api/v1/cotacao.json`,
        atualizado: depois.atualizado,
        anterior: antes.atualizado,
        tentativas: [{ url: `${primario.url}api/v1/cotacao.json`, motivo: "HTTP 503" }],
      },
    ]);
    // the marks are not data: the document still serialises as the published file
    expect(Object.keys(depois)).not.toContain("defasado");
    expect(JSON.stringify(depois)).not.toContain("origem");
  });

  it("a mirror as new as (or newer than) what was seen is not defasado; nor is a first answer, with nothing to compare", async () => {
    primarioFora = false;
    deslocamentoMs = 0;
    const avisos: unknown[] = [];
    const api = createClient({ mirrors: [primario.url, espelho.url], onAviso: (a) => avisos.push(a) });
    await api.serie("boi_gordo");
    primarioFora = true;
    const igual = await api.serie("boi_gordo");
    expect(igual).toMatchObject({ espelho: 1, defasado: false });
    const novo = createClient({ mirrors: [primario.url, espelho.url], onAviso: (a) => avisos.push(a) });
    deslocamentoMs = -86_400_000;
    expect(await novo.serie("boi_gordo")).toMatchObject({ espelho: 1, defasado: false });
    expect(avisos).toEqual([]);
  });
});
