import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { getRequestListener, type HttpBindings } from "@hono/node-server";
import { Hono, type Context } from "hono";
import { cors } from "hono/cors";
import { brotliCompressSync, constants as zc, gzipSync } from "node:zlib";
import { chooseEncoding, FileCache, safePath } from "./files.ts";
import { ApiError, cotacao, COTACAO_PARAMS, historico, HISTORICO_PARAMS, parseQuery, simulador, SIMULADOR_PARAMS } from "./query.ts";
import { clientAddress, Quota, type QuotaOptions, type QuotaState } from "./quota.ts";

export interface ServeOptions {
  /** the site root (public/) */
  publicDir: string;
  /** configured API keys (plain text); each gets keyLimit requests a day */
  apiKeys?: Iterable<string>;
  /** how many proxies in front of the server append to X-Forwarded-For; 0 = ignore the header */
  trustedProxies?: number;
  quota?: QuotaOptions;
  /** the clock (tests pin it) */
  now?: () => number;
}

export const CACHE_CONTROL = "public, max-age=1800";
const QUOTA_HEADERS = ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "Retry-After"];
const ALLOWED_METHODS = ["GET", "HEAD", "OPTIONS"];
/** the dashboard's pages: only this origin's scripts; the API itself is open to any origin (CORS) */
const HTML_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; " +
  "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

type Env = { Bindings: Partial<HttpBindings>; Variables: { quota: QuotaState; client: { kind: "key" | "ip"; id: string } } };

function hashKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

/** Keys from COTACAO_API_KEYS ("k1,k2") and the file COTACAO_API_KEYS_FILE (one per line, # comments). */
export function keysFromEnv(env: NodeJS.ProcessEnv = process.env): string[] {
  const keys = (env.COTACAO_API_KEYS ?? "").split(",").map((k) => k.trim()).filter(Boolean);
  const file = env.COTACAO_API_KEYS_FILE;
  if (file) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (err) {
      throw new Error(`COTACAO_API_KEYS_FILE: não foi possível ler ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
    for (const line of text.split(/\r?\n/)) {
      const k = line.replace(/#.*/, "").trim();
      if (k) keys.push(k);
    }
  }
  return keys;
}

function jsonBody(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" },
  });
}

function errorResponse(err: ApiError): Response {
  return jsonBody(err.status, err.body());
}

/** the raw request target as the client sent it (the URL the adapter builds is already normalised) */
function rawTarget(c: Context<Env>): string {
  const raw = c.env?.incoming?.url;
  if (raw !== undefined) return raw;
  const u = new URL(c.req.url);
  return u.pathname + u.search;
}

function splitTarget(raw: string): { path: string; query: string } {
  const q = raw.indexOf("?");
  return q < 0 ? { path: raw, query: "" } : { path: raw.slice(0, q), query: raw.slice(q + 1) };
}

function ifNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const weak = (t: string) => t.trim().replace(/^W\//, "");
  return header.split(",").some((t) => t.trim() === "*" || weak(t) === weak(etag));
}

function compressDynamic(body: Buffer, enc: "br" | "gzip"): Buffer {
  return enc === "br" ? brotliCompressSync(body, { params: { [zc.BROTLI_PARAM_QUALITY]: 4 } }) : gzipSync(body, { level: 6 });
}

/**
 * The Hono app: the static tree of public/ plus the query interface of API.md (cotacao,
 * historico, simulador), CORS, quota, ETag/304, compression and JSON errors in Portuguese.
 */
export function createApp(opts: ServeOptions): Hono<Env> {
  const files = new FileCache(opts.publicDir);
  const quota = new Quota(opts.quota);
  const keys = new Set([...(opts.apiKeys ?? [])].map(hashKey));
  const now = opts.now ?? Date.now;
  const trusted = opts.trustedProxies ?? 0;
  const app = new Hono<Env>({ strict: true });
  // JSON text and ETag of each answer object (the cached files' objects, so a new build misses)
  const serialized = new WeakMap<object, { json: string; etag: string }>();
  const keyHashes = new Map<string, string>();
  const hashKeyCached = (k: string) => {
    let h = keyHashes.get(k);
    if (!h) {
      h = hashKey(k);
      if (keyHashes.size >= 1000) keyHashes.clear();
      keyHashes.set(k, h);
    }
    return h;
  };

  app.onError((err, c) => {
    const e = err instanceof ApiError ? err : new ApiError(500, "erro_interno", "erro interno do servidor; tente de novo mais tarde");
    if (!(err instanceof ApiError)) console.error(`[serve] ${c.req.method} ${rawTarget(c).slice(0, 200)}: ${(err as Error).stack ?? err}`);
    const res = errorResponse(e);
    if (e.status === 429) res.headers.set("Retry-After", String(c.get("quota")?.retryAfter ?? 60));
    return res;
  });
  app.notFound((c) => errorResponse(new ApiError(404, "nao_encontrado", `nada em ${splitTarget(rawTarget(c)).path.slice(0, 200)}; veja api/v1/index.json`)));

  // quota headers on every response, whatever the route or outcome
  app.use("*", async (c, next) => {
    await next();
    const q = c.get("quota") ?? quota.peek("ip", clientAddress(c.env?.incoming?.socket?.remoteAddress, c.req.header("X-Forwarded-For"), trusted), now());
    {
      c.res.headers.set("X-RateLimit-Limit", String(q.limit));
      c.res.headers.set("X-RateLimit-Remaining", String(q.remaining));
      c.res.headers.set("X-RateLimit-Reset", String(q.reset));
    }
    c.res.headers.set("X-Content-Type-Options", "nosniff");
  });

  app.use(
    "*",
    cors({
      origin: "*",
      allowMethods: ALLOWED_METHODS,
      allowHeaders: ["X-API-Key", "If-None-Match", "Content-Type"],
      exposeHeaders: [...QUOTA_HEADERS, "ETag"],
      maxAge: 86_400,
    }),
  );

  // identify the client (key or address), check the method and the request target
  app.use("*", async (c, next) => {
    const key = c.req.header("X-API-Key");
    const ip = clientAddress(c.env?.incoming?.socket?.remoteAddress, c.req.header("X-Forwarded-For"), trusted);
    let kind: "key" | "ip" = "ip";
    let id = ip;
    if (key !== undefined) {
      const h = hashKeyCached(key.trim());
      if (!keys.has(h)) {
        c.set("quota", quota.peek("ip", ip, now()));
        throw new ApiError(401, "chave_invalida", "a chave de API enviada em X-API-Key não é válida; envie uma chave configurada ou não envie o cabeçalho (100 consultas por dia por IP)");
      }
      kind = "key";
      id = h;
    }
    c.set("quota", quota.peek(kind, id, now()));
    if (!ALLOWED_METHODS.includes(c.req.method)) {
      const e = new ApiError(405, "metodo_nao_permitido", `método ${c.req.method.slice(0, 20)} não é aceito; use GET, HEAD ou OPTIONS`);
      const res = errorResponse(e);
      res.headers.set("Allow", ALLOWED_METHODS.join(", "));
      return res;
    }
    const { path } = splitTarget(rawTarget(c));
    const safe = safePath(path);
    if (!safe.ok) throw new ApiError(400, "caminho_invalido", `caminho recusado: ${safe.motivo}`);
    c.set("client", { kind, id });
    await next();
  });

  /** query routes: count one request, then answer with a weak ETag over the data (not the counter) */
  const query = (params: readonly string[], handler: (files: FileCache, q: Record<string, string>) => Promise<unknown>) => async (c: Context<Env>) => {
    const { kind, id } = c.get("client");
    const q = quota.consume(kind, id, now());
    c.set("quota", q);
    if (!q.allowed) {
      throw new ApiError(429, "limite_excedido", `limite de ${q.limit} consultas por dia atingido; renova às 00:00 UTC (em ${q.retryAfter} s)`, {
        limite: q.limit,
        renova_em: new Date(q.reset * 1000).toISOString(),
      });
    }
    const data = await handler(files, parseQuery(splitTarget(rawTarget(c)).query, params));
    let memo = typeof data === "object" && data !== null ? serialized.get(data) : undefined;
    if (!memo) {
      const json = JSON.stringify(data);
      memo = { json, etag: `W/"${createHash("sha1").update(json).digest("base64url")}"` };
      if (typeof data === "object" && data !== null) serialized.set(data, memo);
    }
    const { json: dataJson, etag } = memo;
    c.header("ETag", etag);
    c.header("Cache-Control", CACHE_CONTROL);
    c.header("Vary", "Accept-Encoding, X-API-Key");
    if (ifNoneMatch(c.req.header("If-None-Match"), etag)) return c.body(null, 304);
    const body = Buffer.from(`${dataJson.slice(0, -1)},"rate_limit":{"diario":${q.limit},"restante":${q.remaining}}}`);
    c.header("Content-Type", "application/json; charset=utf-8");
    const enc = body.length > 1024 ? chooseEncoding(c.req.header("Accept-Encoding")) : null;
    if (enc) {
      c.header("Content-Encoding", enc);
      return c.body(new Uint8Array(compressDynamic(body, enc)), 200);
    }
    return c.body(new Uint8Array(body), 200);
  };

  app.get("/api/v1/cotacao", query(COTACAO_PARAMS, cotacao));
  app.get("/api/v1/historico", query(HISTORICO_PARAMS, historico));
  app.get("/api/v1/simulador", query(SIMULADOR_PARAMS, simulador));

  // the static tree
  app.get("*", async (c) => {
    const { path, query: qs } = splitTarget(rawTarget(c));
    const safe = safePath(path);
    if (!safe.ok) throw new ApiError(400, "caminho_invalido", `caminho recusado: ${safe.motivo}`);
    const rel = safe.rel;
    let r = await files.resolve(rel || "index.html");
    if (r.kind === "dir") {
      if (!safe.trailingSlash) {
        // relative Location, so it also works under a sub-path behind a proxy
        const last = rel.split("/").pop()!;
        c.header("Location", `${encodeURIComponent(last)}/${qs ? `?${qs}` : ""}`);
        c.header("Cache-Control", CACHE_CONTROL);
        return c.body(null, 301);
      }
      r = await files.resolve(`${rel}/index.html`);
    } else if (rel !== "" && safe.trailingSlash) {
      r = { kind: "missing" };
    }
    if (r.kind !== "file") throw new ApiError(404, "nao_encontrado", `arquivo não encontrado: ${path.slice(0, 200)}; veja api/v1/index.json`);
    const e = r.entry;
    c.header("ETag", e.etag);
    c.header("Cache-Control", CACHE_CONTROL);
    c.header("Vary", "Accept-Encoding");
    if (e.type.startsWith("text/html")) c.header("Content-Security-Policy", HTML_CSP);
    if (ifNoneMatch(c.req.header("If-None-Match"), e.etag)) return c.body(null, 304);
    c.header("Content-Type", e.type);
    const enc = e.compressible ? chooseEncoding(c.req.header("Accept-Encoding")) : null;
    if (enc) {
      c.header("Content-Encoding", enc);
      return c.body(new Uint8Array(files.encoded(e, enc)), 200);
    }
    return c.body(new Uint8Array(e.body), 200);
  });

  return app;
}

const RAW_HEADERS = "Content-Type: application/json; charset=utf-8\r\nAccess-Control-Allow-Origin: *\r\nCache-Control: no-store\r\nConnection: close\r\n";

function rawJson(status: number, reason: string, body: unknown): string {
  const text = JSON.stringify(body);
  return `HTTP/1.1 ${status} ${reason}\r\n${RAW_HEADERS}Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`;
}

export interface RunningServer {
  server: Server;
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Listens on host:port (port 0 = any free port). Requests the HTTP parser refuses before they
 * reach the app (huge headers, malformed request lines, bad URLs) still get a JSON error.
 */
export async function startServer(opts: ServeOptions & { port?: number; host?: string }): Promise<RunningServer> {
  const app = createApp(opts);
  const listener = getRequestListener(app.fetch, {
    errorHandler: (err) => {
      // the adapter refuses a request it cannot turn into a URL; its messages are in English
      const m = (err as Error).message;
      const motivo = /backslash/i.test(m) ? "barra invertida no caminho" : /host/i.test(m) ? "cabeçalho Host inválido" : "URL inválida";
      const e = new ApiError(400, "requisicao_invalida", `requisição malformada: ${motivo}`);
      const res = errorResponse(e);
      res.headers.set("Access-Control-Allow-Origin", "*");
      return res;
    },
  });
  const server = createServer(
    { maxHeaderSize: 16 * 1024, requestTimeout: 30_000, headersTimeout: 10_000, keepAliveTimeout: 5_000 },
    listener,
  );
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Socket) => {
    if (err.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const tooLarge = err.code === "HPE_HEADER_OVERFLOW" || err.code === "HPE_URI_TOO_LONG";
    socket.end(
      tooLarge
        ? rawJson(431, "Request Header Fields Too Large", {
            erro: "cabecalhos_grandes_demais",
            mensagem: "os cabeçalhos (ou a URL) da requisição passam de 16 KB",
          })
        : rawJson(400, "Bad Request", { erro: "requisicao_invalida", mensagem: `requisição HTTP malformada (${err.code ?? "erro de parse"})` }),
    );
  });
  const host = opts.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(":") ? `[${host}]` : host === "0.0.0.0" ? "localhost" : host;
  return {
    server,
    port,
    url: `http://${shownHost}:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
