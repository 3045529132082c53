import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createTcpServer, type AddressInfo, type Socket } from "node:net";
import { sep } from "node:path";
import { mirrorFile } from "../../pipeline/fetch/record.ts";
import { MIRRORS, SOURCES } from "../../pipeline/sources/index.ts";
import type { MirrorDef } from "../../pipeline/sources/types.ts";

/**
 * A fake source site on 127.0.0.1 (random port) for the live-path tests and the bench. Every
 * path answers with a Handler; the helpers below build the misbehaviours real sites show:
 * 5xx then OK, 429 with Retry-After, hanging, Cloudflare challenges, 200 without the table,
 * ISO-8859-1 pages, off-host redirects, endless bodies. close() ends every open connection,
 * hanging ones included, so nothing outlives a test.
 *
 * Below HTTP, `startRawSite` answers with bytes written straight to the socket (a body cut
 * short of its Content-Length, a chunked body without its last chunk, headers that never end);
 * the same replies work on a FakeSite route through `raw(...)`.
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

/**
 * Its own count, from its first request on (firstThen counts the path's hits since the site
 * started): the 1st request gets handlers[0], the 2nd handlers[1], ..., the last one repeats.
 */
export function sequence(...handlers: Handler[]): Handler {
  let n = 0;
  return (req, res) => {
    n++;
    handlers[Math.min(n, handlers.length) - 1]!(req, res, n);
  };
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
    void pump(res, bytes);
  };
}

const FILLER = Buffer.alloc(64 * 1024, "<p>xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx</p>\n");

/**
 * Writes up to `bytes` of filler to a response whose head is already written, obeying
 * backpressure, and ends it. Resolves with the bytes handed to the socket when the response is
 * finished or the client went away: how much a client that stops reading let through.
 */
export function pump(res: ServerResponse, bytes: number): Promise<number> {
  return new Promise((resolve) => {
    let sent = 0;
    res.once("close", () => resolve(sent));
    const step = (): void => {
      while (sent < bytes && !res.destroyed) {
        const part = FILLER.subarray(0, Math.min(FILLER.length, bytes - sent));
        sent += part.length;
        if (!res.write(part)) return void res.once("drain", step);
      }
      if (!res.destroyed) res.end();
    };
    step();
  });
}

/**
 * A body that never ends, as fast as the client reads it. `sent()` resolves, once every such
 * response was given up by its client, with the bytes that got out: what the client let through.
 */
export function endless(): Handler & { sent(): Promise<number> } {
  const counts: Promise<number>[] = [];
  const h: Handler = (_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    counts.push(pump(res, Number.POSITIVE_INFINITY));
  };
  return Object.assign(h, { sent: async () => (await Promise.all(counts)).reduce((a, b) => a + b, 0) });
}

/** the headers, then one byte of body every `everyMs` forever: no idle timeout ever fires */
export function trickle(everyMs = 50): Handler {
  return (_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.write("<html><body>");
    const t = setInterval(() => res.write("x"), everyMs);
    res.once("close", () => clearInterval(t));
  };
}

/** a plain 403 without any challenge: a WAF or the site itself refusing us */
export function hardBlock(): Handler {
  return status(403, {}, "<!DOCTYPE html><html><head><title>403 Forbidden</title></head><body><h1>Access denied</h1></body></html>");
}

/** Cloudflare's block page ("Sorry, you have been blocked"): no JavaScript clears it */
export function cloudflareBlock(): Handler {
  return status(
    403,
    { "cf-ray": "fake-GRU" },
    `<!DOCTYPE html><html><head><title>Attention Required! | Cloudflare</title></head><body>
<div id="cf-wrapper"><h1 data-translate="block_headline">Sorry, you have been blocked</h1>
<h2>You are unable to access www.example.org</h2></div></body></html>`,
  );
}

// ---- below HTTP: raw replies on the socket ------------------------------------------------

/** Writes a whole reply (status line, headers, body) straight to the socket. */
export type RawReply = (socket: Socket) => void;

const head = (lines: string[]): string => ["HTTP/1.1 200 OK", "Content-Type: text/html; charset=utf-8", ...lines, "", ""].join("\r\n");

/** Content-Length says `declared` bytes; `body` (shorter) is sent and the connection dropped */
export function truncatedBody(body: string | Buffer, declared: number): RawReply {
  return (socket) => {
    socket.write(head([`Content-Length: ${declared}`]));
    socket.write(body, () => socket.destroy());
  };
}

/** `body` in chunks of `chunkBytes`, without the final zero-length chunk: the connection drops first */
export function chunkedCut(body: string | Buffer, chunkBytes = 1024): RawReply {
  return (socket) => {
    socket.write(head(["Transfer-Encoding: chunked"]));
    socket.write(Buffer.concat(chunksOf(Buffer.from(body), chunkBytes)), () => socket.destroy());
  };
}

/** `body` in chunks of `chunkBytes`, properly ended; the server closes after it */
export function chunked(body: string | Buffer, chunkBytes = 1024): RawReply {
  return (socket) => {
    socket.write(head(["Transfer-Encoding: chunked", "Connection: close"]));
    socket.end(Buffer.concat([...chunksOf(Buffer.from(body), chunkBytes), Buffer.from("0\r\n\r\n")]));
  };
}

function chunksOf(b: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < b.length; i += size) {
    const part = b.subarray(i, i + size);
    out.push(Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from("\r\n"));
  }
  return out;
}

/** the status line, then one header line every `everyMs`, forever: the headers never end */
export function trickleHeaders(everyMs = 50): RawReply {
  return (socket) => {
    socket.write("HTTP/1.1 200 OK\r\n");
    let n = 0;
    const t = setInterval(() => socket.write(`X-Lento-${n++}: sim\r\n`), everyMs);
    socket.once("close", () => clearInterval(t));
  };
}

/** a RawReply on a FakeSite route (node:http stays out of the way: nothing else is written) */
export function raw(reply: RawReply): Handler {
  return (req, res) => reply(req.socket);
}

export interface RawSite {
  url: string;
  host: string;
  /** requests whose head arrived */
  hits(): number;
  close(): Promise<void>;
}

/**
 * A TCP server on 127.0.0.1 (random port) that waits for each request's head and answers it
 * with `reply`, byte for byte: no HTTP library between the test and the client.
 */
export async function startRawSite(reply: RawReply): Promise<RawSite> {
  const sockets = new Set<Socket>();
  let hits = 0;
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    let seen = "";
    const onData = (d: Buffer): void => {
      seen += d.toString("latin1");
      if (!seen.includes("\r\n\r\n")) return;
      socket.off("data", onData);
      hits++;
      reply(socket);
    };
    socket.on("data", onData);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  const host = `127.0.0.1:${port}`;
  return {
    url: `http://${host}`,
    host,
    hits: () => hits,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

// ---- the sources' pages ------------------------------------------------------------------

const fixtures = new URL("../fixtures/", import.meta.url);
export const fixture = (path: string): string => readFileSync(new URL(path, fixtures), "utf8");

type PagesByHost = {
  cepea: Record<string, string>;
  scot: Record<string, string>;
  "noticias-agricolas": Record<string, string>;
  /**
   * the pages of any other base URL variable, by variable: a source added to the catalogue gets a
   * fake site of its own (served on Notícias Agrícolas' host, its own variable unset, the live
   * path would fetch the real site)
   */
  outras: Record<string, Record<string, string>>;
};

function byHost(fill: (add: (baseUrlEnv: string, path: string, file: string) => void) => void): PagesByHost {
  const out: PagesByHost = { cepea: {}, scot: {}, "noticias-agricolas": {}, outras: {} };
  const host = (env: string) =>
    env === "COTACAO_CEPEA_URL" ? out.cepea : env === "COTACAO_SCOT_URL" ? out.scot : env === "COTACAO_NA_URL" ? out["noticias-agricolas"] : (out.outras[env] ??= {});
  // the fake sites route by path: a query (CEPEA's widget) is not part of it
  fill((env, path, file) => void (host(env)[path.replace(/\?.*$/, "")] ??= file));
  return out;
}

const mirrorFixture = (m: MirrorDef) => mirrorFile("", m).split(sep).join("/");

/**
 * Page path on the real site -> recorded page, for every page the pipeline fetches, by host:
 * every page of the catalogue (two pages on one path, CEPEA's boi page and its Média a Prazo,
 * are served the first one's recording, which holds both tables) and Scot's mirror on Notícias
 * Agrícolas. CEPEA's mirrors are not served by default (a test of CEPEA's own page failing would
 * see them answer): routeCepeaMirrors adds them.
 */
const paginasDasFontes = (): PagesByHost =>
  byHost((add) => {
    for (const src of SOURCES) for (const p of src.pages) add(src.baseUrlEnv, p.path, `${src.id}/${p.id}.html`);
    for (const m of Object.values(MIRRORS).flat()) if (!m.paraPagina.startsWith("cepea/")) add(m.baseUrlEnv, m.path, mirrorFixture(m));
  });

export const SOURCE_PAGES: PagesByHost = paginasDasFontes();

/** CEPEA's mirrors' recorded pages: Notícias Agrícolas' republications and CEPEA's widget. */
export const CEPEA_MIRROR_PAGES: PagesByHost = byHost((add) => {
  for (const m of Object.values(MIRRORS).flat()) if (m.paraPagina.startsWith("cepea/")) add(m.baseUrlEnv, m.path, mirrorFixture(m));
});

/** Serves CEPEA's mirrors' recorded pages on the fake sites (NA's pages, the widget on CEPEA's host). */
export function routeCepeaMirrors(s: { cepea: FakeSite; na: FakeSite }): void {
  for (const [path, file] of Object.entries(CEPEA_MIRROR_PAGES.cepea)) s.cepea.route(path, ok(fixture(file), { "content-type": "text/javascript; charset=utf-8" }));
  for (const [path, file] of Object.entries(CEPEA_MIRROR_PAGES["noticias-agricolas"])) s.na.route(path, ok(fixture(file)));
}

/**
 * one fake site per host, like the real three (and one per other base URL variable of the
 * catalogue as it is when called: a source added to it is served too), each answering its
 * recorded pages
 */
export async function startSources(): Promise<{
  cepea: FakeSite;
  scot: FakeSite;
  na: FakeSite;
  /** the sites of the other base URL variables, by variable */
  outras: Record<string, FakeSite>;
  env: NodeJS.ProcessEnv;
  close(): Promise<void>;
}> {
  const make = (pages: Record<string, string>) =>
    startFakeSite(Object.fromEntries(Object.entries(pages).map(([p, f]) => [p, ok(fixture(f))])));
  const paginas = paginasDasFontes();
  const variaveis = Object.keys(paginas.outras);
  const [cepea, scot, na, ...demais] = await Promise.all([
    make(paginas.cepea),
    make(paginas.scot),
    make(paginas["noticias-agricolas"]),
    ...variaveis.map((v) => make(paginas.outras[v]!)),
  ]);
  const outras = Object.fromEntries(variaveis.map((v, i) => [v, demais[i]!]));
  return {
    cepea: cepea!,
    scot: scot!,
    na: na!,
    outras,
    env: { COTACAO_CEPEA_URL: cepea!.url, COTACAO_SCOT_URL: scot!.url, COTACAO_NA_URL: na!.url, ...Object.fromEntries(variaveis.map((v) => [v, outras[v]!.url])) },
    close: async () => void (await Promise.all([cepea!.close(), scot!.close(), na!.close(), ...demais.map((d) => d!.close())])),
  };
}
