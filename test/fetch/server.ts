import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/**
 * A fake source site on 127.0.0.1 (random port) for the live-path tests and the bench. Every
 * path answers with a Handler; the helpers below build the misbehaviours real sites show:
 * 5xx then OK, 429 with Retry-After, hanging, Cloudflare challenges, 200 without the table,
 * ISO-8859-1 pages, off-host redirects, endless bodies. close() ends every open connection,
 * hanging ones included, so nothing outlives a test.
 */

export type Handler = (req: IncomingMessage, res: ServerResponse, hit: number) => void;

export interface RequestLog {
  path: string;
  userAgent: string | undefined;
  cookie: string | undefined;
  at: number;
}

export interface FakeSite {
  url: string;
  host: string;
  requests: RequestLog[];
  route(path: string, handler: Handler): void;
  hits(path: string): number;
  /** sockets still open (hanging requests the client gave up on are closed by the client) */
  openSockets(): number;
  close(): Promise<void>;
}

export async function startFakeSite(routes: Record<string, Handler> = {}): Promise<FakeSite> {
  const table = new Map<string, Handler>(Object.entries(routes));
  const counts = new Map<string, number>();
  const requests: RequestLog[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const hit = (counts.get(path) ?? 0) + 1;
    counts.set(path, hit);
    requests.push({ path, userAgent: req.headers["user-agent"], cookie: req.headers.cookie, at: Date.now() });
    const h = table.get(path);
    if (!h) {
      res.writeHead(404, { "content-type": "text/html; charset=utf-8" });
      res.end("<html><head><title>Não encontrado</title></head><body>404</body></html>");
      return;
    }
    h(req, res, hit);
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  const host = `127.0.0.1:${port}`;
  return {
    url: `http://${host}`,
    host,
    requests,
    route: (path, handler) => void table.set(path, handler),
    hits: (path) => counts.get(path) ?? 0,
    openSockets: () => sockets.size,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

// ---- handlers ----------------------------------------------------------------------------

export function ok(body: string | Buffer, headers: Record<string, string> = {}): Handler {
  return (_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", ...headers });
    res.end(body);
  };
}

export function status(code: number, headers: Record<string, string> = {}, body = `<html><head><title>Erro ${code}</title></head><body>${code}</body></html>`): Handler {
  return (_req, res) => {
    res.writeHead(code, { "content-type": "text/html; charset=utf-8", ...headers });
    res.end(body);
  };
}

/** the first `n` requests get `first`, the rest `then` */
export function firstThen(n: number, first: Handler, then: Handler): Handler {
  return (req, res, hit) => (hit <= n ? first(req, res, hit) : then(req, res, hit - n));
}

/** never answers; the connection stays open until the client gives up or the server closes */
export function hang(): Handler {
  return () => {};
}

/** answers the headers, then a body that trickles and never ends */
export function hangAfterHeaders(): Handler {
  return (_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.write("<html><head><title>lento</title></head><body>");
  };
}

const CHALLENGE_COOKIE = "cf_clearance=fake-ok";

/** Cloudflare's interstitial, as served to a client without the clearance cookie */
function challengePage(script: string): string {
  return `<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title>
<meta http-equiv="refresh" content="360"></head><body>
<div class="main-wrapper" role="main"><div class="main-content"><h1>www.example.org</h1>
<div id="challenge-running">Verifying you are human. This may take a few seconds.</div>
<noscript>Enable JavaScript and cookies to continue</noscript></div></div>
<script>window._cf_chl_opt={cvId:'3',cType:'managed',cRay:'fake'};${script}</script>
</body></html>`;
}

function sendChallenge(res: ServerResponse, script: string, withHeader: boolean, code = 403): void {
  res.writeHead(code, {
    "content-type": "text/html; charset=UTF-8",
    "cache-control": "private, max-age=0, no-store",
    ...(withHeader ? { "cf-mitigated": "challenge" } : {}),
  });
  res.end(challengePage(script));
}

/**
 * A challenge whose JavaScript sets a clearance cookie and reloads; with the cookie, `then`
 * answers (the real page). A client that runs no JavaScript never gets past it.
 */
export function jsChallenge(then: Handler, opts: { header?: boolean; delayMs?: number } = {}): Handler {
  const script = `setTimeout(function(){document.cookie="${CHALLENGE_COOKIE}; path=/";location.reload();},${opts.delayMs ?? 200});`;
  return (req, res, hit) => {
    if ((req.headers.cookie ?? "").includes(CHALLENGE_COOKIE)) return then(req, res, hit);
    sendChallenge(res, script, opts.header ?? true);
  };
}

/** a challenge that reloads itself forever without ever clearing */
export function endlessChallenge(opts: { header?: boolean; status?: number } = {}): Handler {
  const script = `setTimeout(function(){location.reload();},300);`;
  return (_req, res) => sendChallenge(res, script, opts.header ?? true, opts.status);
}

/** the soft block: HTTP 200, a short page, no table */
export function noTable(): Handler {
  return ok(`<!DOCTYPE html><html><head><title>Acesso temporariamente limitado</title></head>
<body><p>Muitas requisições. Tente novamente mais tarde.</p></body></html>`);
}

/** the characters of Windows-1252's 0x80–0x9F range that pages labelled ISO-8859-1 use */
const CP1252: Record<string, number> = { "€": 0x80, "‘": 0x91, "’": 0x92, "“": 0x93, "”": 0x94, "–": 0x96, "—": 0x97 };

function encodeLatin1(text: string): Buffer {
  return Buffer.from(
    [...text].map((ch) => {
      const code = CP1252[ch] ?? ch.charCodeAt(0);
      if (code > 0xff) throw new Error(`"${ch}" não cabe em ISO-8859-1`);
      return code;
    }),
  );
}

/** a page encoded in ISO-8859-1 (as Windows-1252); `declare` says where the charset is named */
export function latin1(html: string, declare: "header" | "meta" | "none"): Handler {
  const body = encodeLatin1(declare === "meta" ? html.replace("<head>", '<head><meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">') : html);
  const ct = declare === "header" ? "text/html; charset=ISO-8859-1" : "text/html";
  return ok(body, { "content-type": ct });
}

export function redirect(location: string, code = 302): Handler {
  return (_req, res) => {
    res.writeHead(code, { location, "content-type": "text/html" });
    res.end();
  };
}

/** streams `bytes` of HTML, chunked (no Content-Length) unless `declare`, stopping if the client leaves */
export function huge(bytes: number, declare = false): Handler {
  return (_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", ...(declare ? { "content-length": String(bytes) } : {}) });
    const chunk = Buffer.alloc(64 * 1024, "<p>xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx</p>\n");
    let sent = 0;
    const pump = () => {
      while (sent < bytes && !res.destroyed) {
        const part = chunk.subarray(0, Math.min(chunk.length, bytes - sent));
        sent += part.length;
        if (!res.write(part)) return void res.once("drain", pump);
      }
      if (!res.destroyed) res.end();
    };
    pump();
  };
}

// ---- the sources' pages ------------------------------------------------------------------

const fixtures = new URL("../fixtures/", import.meta.url);
export const fixture = (path: string): string => readFileSync(new URL(path, fixtures), "utf8");

/** page path on the real site -> recorded page, for every page the pipeline fetches */
export const SOURCE_PAGES = {
  cepea: {
    "/br/indicador/boi-gordo.aspx": "cepea/boi-gordo.html",
    "/br/indicador/bezerro.aspx": "cepea/bezerro.html",
    "/br/indicador/milho.aspx": "cepea/milho.html",
    "/br/indicador/soja.aspx": "cepea/soja.html",
  },
  scot: {
    "/cotacoes/boi-gordo/": "scot/boi-gordo.html",
    "/cotacoes/vaca-gorda/": "scot/vaca-gorda.html",
  },
  "noticias-agricolas": {
    "/cotacoes/boi-gordo/boi-gordo-scot-consultoria": "noticias-agricolas/boi-gordo-scot-consultoria.html",
  },
} as const;

/** one fake site per source, like the real three hosts, each answering its recorded pages */
export async function startSources(): Promise<{
  cepea: FakeSite;
  scot: FakeSite;
  na: FakeSite;
  env: NodeJS.ProcessEnv;
  close(): Promise<void>;
}> {
  const make = (pages: Record<string, string>) =>
    startFakeSite(Object.fromEntries(Object.entries(pages).map(([p, f]) => [p, ok(fixture(f))])));
  const [cepea, scot, na] = await Promise.all([make(SOURCE_PAGES.cepea), make(SOURCE_PAGES.scot), make(SOURCE_PAGES["noticias-agricolas"])]);
  return {
    cepea,
    scot,
    na,
    env: { COTACAO_CEPEA_URL: cepea.url, COTACAO_SCOT_URL: scot.url, COTACAO_NA_URL: na.url },
    close: async () => void (await Promise.all([cepea.close(), scot.close(), na.close()])),
  };
}
