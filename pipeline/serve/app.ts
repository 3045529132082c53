import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { getRequestListener, type HttpBindings } from "@hono/node-server";
import { Hono, type Context } from "hono";
import { brotliCompressSync, constants as zc, crc32, gzipSync } from "node:zlib";
import { PipelineError } from "../domain/errors.ts";
import { chooseEncoding, FileCache, safePath, type Coordenacao, type FileEntry } from "./files.ts";
import { hojeEmBrasilia } from "../simulator/simulator.ts";
import { ApiError, AVISO, cabecalhoIgnorados, cotacao, type Answer, COTACAO_PARAMS, historico, HISTORICO_PARAMS, parseQuery, simulador, SIMULADOR_PARAMS } from "./query.ts";
import { clientAddress, Quota, quotaState, seguir, type QuotaCheck, type QuotaConsumed, type QuotaOptions, type QuotaStore, type Talvez } from "./quota.ts";
import {
  arquivoDaRequisicao,
  COTA_ROMANEIO_PADRAO,
  devolveUnidade,
  ErroHttp,
  ETAPAS,
  idRomaneio,
  lerEComparar,
  limiteRomaneio,
  MAX_MB_PADRAO,
  SIMULTANEAS_PADRAO,
  simultaneasDemais,
  TEMPO_S_PADRAO,
  type OpcoesRomaneio,
} from "./romaneio.ts";

export interface ServeOptions {
  /** the site root (public/) */
  publicDir: string;
  /** configured API keys (plain text); each gets keyLimit requests a day */
  apiKeys?: Iterable<string>;
  /** how many proxies in front of the server append to X-Forwarded-For; 0 = ignore the header */
  trustedProxies?: number;
  quota?: QuotaOptions;
  /** where the counters live (Redis, the cluster primary); default: this process's memory, with `quota`'s limits */
  quotaStore?: QuotaStore;
  /** the clock of the quota and of the files' rechecks (tests pin it) */
  now?: () => number;
  /** POST /api/v1/romaneio: its keys, OCR engine and limits; without it every key is refused there (403) */
  romaneio?: OpcoesRomaneio;
  /** answer ready query answers in plain node:http, before Hono (default true; tests turn it off to compare) */
  caminhoRapido?: boolean;
  /**
   * the query answers kept ready, per route: how many (default 512) and how much, the heads'
   * characters plus their compressed forms' bytes (default 8 Mi); past either, the table starts over
   */
  prontas?: { respostas?: number; tamanho?: number };
  /** in a cluster's worker: the link that keeps every worker's files from going back to an older version (./arquivos-cluster.ts) */
  arquivos?: Coordenacao & { ligar(files: FileCache): void };
}

export const CACHE_CONTROL = "public, max-age=1800";
const QUOTA_HEADERS = ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "Retry-After"];
/** the unknown query parameters an answer ignored, percent-encoded, comma-separated */
export const IGNORADOS = "X-Cotacao-Parametros-Ignorados";
/** what a static file's answer says of an X-API-Key it did not check */
export const CHAVE_IGNORADA = "chave-ignorada; arquivo-estatico";
const ALLOWED_METHODS = ["GET", "HEAD", "OPTIONS"];
/** the one route that takes a body */
export const ROMANEIO_PATH = "/api/v1/romaneio";
const ROMANEIO_METHODS = ["POST", "OPTIONS"];
/** the dashboard's pages: only this origin's scripts; the API itself is open to any origin (CORS) */
const HTML_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; " +
  // Redoc's search (docs/) runs in a worker it creates from a blob
  "worker-src 'self' blob:; " +
  "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
/** romaneio/ runs Tesseract (WebAssembly) in web workers, all from this origin: only that page may compile wasm */
const HTML_CSP_ROMANEIO = HTML_CSP.replace("script-src 'self';", "script-src 'self' 'wasm-unsafe-eval';");
/** the CORS policy is the same for every origin and route, so its headers are constants */
const CORS_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": [...QUOTA_HEADERS, "ETag", AVISO, IGNORADOS].join(","),
};
const PREFLIGHT_HEADERS = {
  "Access-Control-Allow-Methods": ALLOWED_METHODS.join(","),
  "Access-Control-Allow-Headers": ["X-API-Key", "If-None-Match", "Content-Type"].join(","),
  "Access-Control-Max-Age": "86400",
  Vary: "Access-Control-Request-Headers",
};
const PREFLIGHT_ROMANEIO = { ...PREFLIGHT_HEADERS, "Access-Control-Allow-Methods": ROMANEIO_METHODS.join(",") };
const JSON_TYPE = "application/json; charset=utf-8";
/** answers kept ready per route and query (known parameters and ignored names); past this many (or this much text and compressed bytes), the table starts over */
const MAX_PREPARED = 512;
const MAX_PREPARED_CHARS = 8 * 1024 * 1024;
/** a query answer is compressed past this many characters (smaller ones gain too little) */
const COMPRIMIR_ACIMA = 1024;
/** brotli's best quality costs about 3 ms for 1 KB of JSON, 30 ms for 64 KB, holding the event loop: past this, a head kept ready gets a quicker one (brotli 5, gzip 6) */
const MELHOR_ATE = 16 * 1024;

type Env = { Bindings: Partial<HttpBindings> };
type HeaderMap = Record<string, string>;
/** who is asking and the quota state its answer reports (after counting, on the query routes) */
interface Client {
  kind: "key" | "ip";
  id: string;
  quota?: QuotaCheck;
  /** an X-API-Key was sent but is not configured, and the route does not need one (static files) */
  keyIgnored?: boolean;
}
/** what a ready query answer sends: status, headers and body */
interface Pronta {
  status: 200 | 304;
  headers: HeaderMap;
  body: string | Buffer | null;
}
/** a query route's answers kept ready, by query (what the fast path looks up) */
interface RotaDeConsulta {
  params: readonly string[];
  prepared: Map<string, Prepared>;
  /** what the table holds: the heads' characters plus their compressed forms' bytes */
  tamanho: number;
}
type Codificacao = "br" | "gzip";
/**
 * A head compressed once, up to a flush: the stream so far, byte-aligned and not ended, so the
 * counter's tail (different on every answer) can follow it per request without compressing again.
 */
interface Comprimida {
  prefixo: Buffer;
  /** gzip's trailer covers the whole body: the head's CRC-32 and its length in bytes */
  crc: number;
  bytes: number;
}
/** a query answer: its JSON without the closing brace, its ETag and own headers, and its compressed heads once made */
interface Resposta {
  head: string;
  etag: string;
  headers: HeaderMap;
  br?: Comprimida;
  gzip?: Comprimida;
}
/** a query answer ready to send, kept in its route's table */
interface Prepared extends Resposta {
  source: FileEntry;
  rota: RotaDeConsulta;
  /** false once the table no longer holds it (replaced, or the table started over): the fast path's targets look it up again */
  vivo: boolean;
  /** the fast path's plain answer, made on its first use: the head's length in UTF-8 bytes and the whole header list, its counter's slots filled per request */
  simples?: { bytes: number; lista: string[] };
  /** the fast path's header lists of the compressed answer, per encoding */
  listas?: Partial<Record<Codificacao, string[]>>;
}

/** what the fast path knows of a request target: its route and the key of its answer (without the day), and the answer last found */
interface AlvoRapido {
  rota: RotaDeConsulta;
  chave: string;
  dia: string;
  p: Prepared | undefined;
}
/** targets the fast path keeps read (parsing is a function of the target alone); longer ones are read every time */
const MAX_ALVOS = 1024;
const MAX_ALVO_CHARS = 1024;

/** the headers every answer starts with (baseHeaders' first three), as a flat list */
const INICIO_SIMPLES = [
  "Access-Control-Allow-Origin",
  CORS_HEADERS["Access-Control-Allow-Origin"],
  "Access-Control-Expose-Headers",
  CORS_HEADERS["Access-Control-Expose-Headers"],
  "X-Content-Type-Options",
  "nosniff",
];
/** where the plain answer's list has the values that change per request */
const SLOT_LIMITE = INICIO_SIMPLES.length + 1;
const SLOT_RESTANTE = SLOT_LIMITE + 2;
const SLOT_RESET = SLOT_RESTANTE + 2;

/** seconds a client is told to wait when the shared quota store is down and the server refuses (503) */
const RETRY_INDISPONIVEL = 30;

/** adds a token to X-Cotacao-Aviso, after any already there (an HTTP list) */
function avisar(headers: HeaderMap, texto: string): void {
  const antes = headers[AVISO];
  headers[AVISO] = antes ? `${antes}, ${texto}` : texto;
}

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
      throw new PipelineError({
        stage: "config",
        reason: `COTACAO_API_KEYS_FILE: não foi possível ler ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
        cause: err,
      });
    }
    for (const line of text.split(/\r?\n/)) {
      const k = line.replace(/#.*/, "").trim();
      if (k) keys.push(k);
    }
  }
  return keys;
}

function errorResponse(err: ApiError | ErroHttp, headers: HeaderMap = {}): Response {
  return new Response(JSON.stringify(err.body()), {
    status: err.status,
    headers: { ...headers, "Content-Type": JSON_TYPE, "Cache-Control": "no-store" },
  });
}

/** a request header, read from Node's parsed headers when there (building a fetch Headers costs more) */
function header(c: Context<Env>, name: string): string | undefined {
  const h = c.env?.incoming?.headers;
  if (!h) return c.req.header(name);
  const v = h[name];
  return Array.isArray(v) ? v.join(", ") : v;
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

/** a head compressed up to a flush; `forte`: it will be kept, so it is worth the best quality (else the old per-request ones, brotli 4 and gzip 6) */
export function comprimirCabeca(head: string, enc: Codificacao, forte: boolean): Comprimida {
  const b = Buffer.from(head);
  if (enc === "br") {
    const q = forte ? (b.length <= MELHOR_ATE ? 11 : 5) : 4;
    const prefixo = brotliCompressSync(b, { finishFlush: zc.BROTLI_OPERATION_FLUSH, params: { [zc.BROTLI_PARAM_QUALITY]: q, [zc.BROTLI_PARAM_SIZE_HINT]: b.length } });
    return { prefixo, crc: 0, bytes: b.length };
  }
  return { prefixo: gzipSync(b, { level: forte && b.length <= MELHOR_ATE ? 9 : 6, finishFlush: zc.Z_SYNC_FLUSH }), crc: crc32(b), bytes: b.length };
}

/**
 * The whole compressed body: the head's stream, the tail stored as it is (it is short, ASCII and
 * different on every answer) and the stream's end. Brotli: an uncompressed meta-block (RFC 7932
 * 9.2: ISLAST 0, MNIBBLES 0 for four nibbles of MLEN-1, ISUNCOMPRESSED 1, zero bits to the byte)
 * and the last, empty one (ISLAST 1, ISLASTEMPTY 1). Gzip: a final stored block (RFC 1951 3.2.4:
 * BFINAL 1, BTYPE 00, zero bits to the byte, LEN, NLEN) and the trailer (RFC 1952: CRC-32 and
 * length of the whole body, little-endian). Both streams were flushed to a byte boundary.
 */
export function fecharComprimida(c: Comprimida, enc: Codificacao, cauda: string): Buffer {
  const n = cauda.length;
  const p = c.prefixo;
  if (enc === "br") {
    const out = Buffer.allocUnsafe(p.length + 3 + n + 1);
    let i = p.copy(out, 0);
    const h = ((n - 1) << 3) | (1 << 19);
    out[i++] = h & 0xff;
    out[i++] = (h >>> 8) & 0xff;
    out[i++] = h >>> 16;
    i += out.write(cauda, i, "latin1");
    out[i] = 0b11;
    return out;
  }
  const out = Buffer.allocUnsafe(p.length + 5 + n + 8);
  let i = p.copy(out, 0);
  out[i++] = 1;
  out.writeUInt16LE(n, i);
  out.writeUInt16LE(~n & 0xffff, i + 2);
  i += 4;
  i += out.write(cauda, i, "latin1");
  out.writeUInt32LE(crc32(out.subarray(i - n, i), c.crc), i);
  out.writeUInt32LE((c.bytes + n) >>> 0, i + 4);
  return out;
}

/**
 * The Hono app: the static tree of public/ plus the query interface of API.md (cotacao,
 * historico, simulador), CORS, quota, ETag/304, compression and JSON errors in Portuguese.
 *
 * Every route goes through `route()`, which identifies the client and builds each response once,
 * with CORS and quota headers in a plain object (the Node adapter then writes it directly instead
 * of copying a fetch Response). A query answer is kept ready per query as long as the
 * file it came from is unchanged, so a repeated query costs a lookup and a string concatenation.
 */
export function createApp(opts: ServeOptions): Hono<Env> {
  return montarServico(opts).app;
}

/** the plain node:http handler: true when it took the request; `seguinte` is Hono's listener, for what it hands on */
type CaminhoRapido = (req: IncomingMessage, res: ServerResponse, seguinte: (req: IncomingMessage, res: ServerResponse) => unknown) => boolean;


/**
 * Hosts and request targets @hono/node-server takes as they are (its reValidHost, with any port
 * up to 65535, which it also takes after parsing; reValidRequestUrl; reDotSegment).
 */
const HOST_SIMPLES = /^[a-z0-9._-]+(?::(?:\d{1,4}|[1-5]\d{4}|6[0-4]\d{3}|65[0-4]\d{2}|655[0-2]\d|6553[0-5]))?$/;
const ALVO_SIMPLES = /^\/[!#$&-;=?-\[\]_a-z~]*$/;
const SEGMENTO_PONTO = /\/\.\.?(?:[/?#]|$)/;

/** what the tables of ready answers hold, summed over the query routes, and the compressed heads made so far */
export interface MemoriaPronta {
  respostas: number;
  tamanho: number;
  compressoes: number;
}

function montarServico(opts: ServeOptions): { app: Hono<Env>; rapido: CaminhoRapido; respostasRapidas: () => number; memoriaPronta: () => MemoriaPronta } {
  const now = opts.now ?? Date.now;
  const files = new FileCache(opts.publicDir, { now, ...(opts.arquivos ? { coordenacao: opts.arquivos } : {}) });
  opts.arquivos?.ligar(files);
  const quota: QuotaStore = opts.quotaStore ?? new Quota(opts.quota);
  const romaneio = opts.romaneio;
  const romaneioKeys = new Set([...(romaneio?.chaves ?? [])].map(hashKey));
  // a romaneio key is also a key of the query routes
  const keys = new Set([...[...(opts.apiKeys ?? [])].map(hashKey), ...romaneioKeys]);
  const trusted = opts.trustedProxies ?? 0;
  const app = new Hono<Env>({ strict: true });
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

  // the day in Brasília, computed once a minute: it builds an Intl.DateTimeFormat per call, a third
  // of a query's CPU when it ran per request; a time zone's day changes only on a whole minute
  let hojeMinuto = -1;
  let hojeValor = "";
  const hojeAgora = (ms: number): string => {
    const minuto = Math.floor(ms / 60_000);
    if (minuto !== hojeMinuto) {
      hojeValor = hojeEmBrasilia(new Date(ms));
      hojeMinuto = minuto;
    }
    return hojeValor;
  };

  const address = (c: Context<Env>) => clientAddress(c.env?.incoming?.socket?.remoteAddress, header(c, "x-forwarded-for"), trusted);

  /** CORS, nosniff and the quota headers: on every response, whatever the route or outcome */
  const baseHeaders = (q: QuotaCheck): HeaderMap => {
    const h: HeaderMap = {
      "Access-Control-Allow-Origin": CORS_HEADERS["Access-Control-Allow-Origin"],
      "Access-Control-Expose-Headers": CORS_HEADERS["Access-Control-Expose-Headers"],
      "X-Content-Type-Options": "nosniff",
      "X-RateLimit-Limit": String(q.limit),
      "X-RateLimit-Remaining": String(q.remaining),
      "X-RateLimit-Reset": String(q.reset),
    };
    if (q.aviso) h[AVISO] = q.aviso;
    return h;
  };
  const stateOf = (client: Client): Talvez<QuotaCheck> =>
    client.quota ?? seguir(quota.peek(client.kind, client.id, now()), (q) => (client.quota = q));
  /** a peek for an answer that has no client yet (errors, preflights); a store that fails still lets the answer out */
  const peekAddress = (c: Context<Env>): Talvez<QuotaCheck> => {
    const q = quota.peek("ip", address(c), now());
    return q instanceof Promise ? q.catch((): QuotaCheck => ({ ...quotaState(opts.quota?.freeLimit ?? 100, 0, now()), indisponivel: true })) : q;
  };

  const failure = (c: Context<Env>, err: unknown, q: QuotaCheck): Response => {
    const e = err instanceof ApiError || err instanceof ErroHttp ? err : new ApiError(500, "erro_interno", "erro interno do servidor; tente de novo mais tarde");
    const path = splitTarget(rawTarget(c)).path;
    const naRotaDoRomaneio = path === ROMANEIO_PATH;
    if (e !== err) {
      // an error's message may quote what it was working on: on the romaneio route, the text of
      // someone's receipt; there only the error's kind and stack frames are logged
      const detalhe = naRotaDoRomaneio
        ? `${(err as Error)?.name ?? "erro"} (mensagem omitida: pode conter o texto do arquivo)\n${((err as Error)?.stack ?? "").split("\n").slice(1).join("\n")}`
        : ((err as Error).stack ?? err);
      console.error(`[serve] ${c.req.method} ${rawTarget(c).slice(0, 200)}: ${detalhe}`);
    }
    const headers = baseHeaders(q);
    if (e.status === 429) headers["Retry-After"] = String(q.retryAfter);
    if (e.status === 503) headers["Retry-After"] = String(RETRY_INDISPONIVEL);
    if (e instanceof ErroHttp && e.retryAfter !== undefined) headers["Retry-After"] = String(e.retryAfter);
    if (e instanceof ErroHttp && e.fechar) headers.Connection = "close";
    if (e.status === 405) headers.Allow = (naRotaDoRomaneio ? ROMANEIO_METHODS : ALLOWED_METHODS).join(", ");
    return errorResponse(e, headers);
  };

  /**
   * A route: identifies the client (key or address), optionally checks the raw request path, and
   * turns any failure into a JSON error carrying the same headers. An unknown key is a 401 on the
   * query routes; a static file (`keyOptional`) is the same for everyone and counts against no
   * quota, so an unknown key there is ignored (the client is its address) and the answer says so.
   */
  const route =
    (handler: (c: Context<Env>, client: Client) => Talvez<Response>, checkPath = true, keyOptional = false) =>
    (c: Context<Env>): Talvez<Response> => {
      let client: Client | undefined;
      const fail = (err: unknown): Talvez<Response> => {
        const q = client?.quota ?? (client ? stateOf(client) : peekAddress(c));
        return q instanceof Promise ? q.then((s) => failure(c, err, s), () => failure(c, err, { ...quotaState(0, 0, now()), indisponivel: true })) : failure(c, err, q);
      };
      try {
        const key = header(c, "x-api-key");
        const known = key !== undefined && keys.has(hashKeyCached(key.trim()));
        if (key !== undefined && !known && !keyOptional) {
          const conselho =
            splitTarget(rawTarget(c)).path === ROMANEIO_PATH
              ? "a leitura de romaneio exige uma chave com essa permissão, concedida sob pedido"
              : "envie uma chave configurada ou não envie o cabeçalho (100 consultas por dia por IP)";
          throw new ApiError(401, "chave_invalida", `a chave de API enviada em X-API-Key não é válida; ${conselho}`);
        }
        client = known ? { kind: "key", id: hashKeyCached(key!.trim()) } : { kind: "ip", id: address(c), ...(key !== undefined ? { keyIgnored: true } : {}) };
        if (checkPath) {
          const safe = safePath(splitTarget(rawTarget(c)).path);
          if (!safe.ok) throw new ApiError(400, "caminho_invalido", `caminho recusado: ${safe.motivo}`);
        }
        const res = handler(c, client);
        return res instanceof Promise ? res.catch(fail) : res;
      } catch (err) {
        return fail(err);
      }
    };

  /**
   * A query answer with the client's counter in it, or a 304 when the client has this data: the
   * status, headers and body that both the Hono route and the fast path send.
   */
  const pronta = (q: QuotaCheck, r: Resposta | Prepared, inm: string | undefined, accept: string | undefined): Pronta => {
    const own = r.headers;
    const headers = { ...baseHeaders(q), ...own };
    if (q.aviso && own[AVISO]) avisar(headers, q.aviso);
    headers.ETag = r.etag;
    headers["Cache-Control"] = CACHE_CONTROL;
    headers.Vary = "Accept-Encoding, X-API-Key";
    if (ifNoneMatch(inm, r.etag)) return { status: 304, headers, body: null };
    headers["Content-Type"] = JSON_TYPE;
    const cauda = `"rate_limit":{"diario":${q.limit},"restante":${q.remaining}}}`;
    const enc = r.head.length + cauda.length > COMPRIMIR_ACIMA ? chooseEncoding(accept) : null;
    if (enc) {
      headers["Content-Encoding"] = enc;
      return { status: 200, headers, body: fecharComprimida(comprimida(r, enc), enc, cauda) };
    }
    return { status: 200, headers, body: r.head + cauda };
  };
  const answer = (c: Context<Env>, q: QuotaCheck, resposta: Resposta | Prepared): Response => {
    const r = pronta(q, resposta, header(c, "if-none-match"), header(c, "accept-encoding"));
    return new Response(typeof r.body === "string" || r.body === null ? r.body : new Uint8Array(r.body), { status: r.status, headers: r.headers });
  };

  /**
   * The 429 of a client with nothing left. When what is left of a key's day is only out on lease in
   * other processes (./quota-lotes.ts), the units not spent there come back within the lease's time:
   * the answer says so, and Retry-After is that time, not the seconds until 00:00 UTC (a client
   * obeying it would lose them for the day).
   */
  const limiteExcedido = (q: QuotaCheck) =>
    q.emUso
      ? new ApiError(
          429,
          "cota_em_uso",
          `as consultas que restam hoje a esta chave (limite de ${q.limit} por dia) estão reservadas por outros processos deste servidor; as que eles não usarem voltam em até ${q.retryAfter} s: tente de novo em ${q.retryAfter} s`,
          { limite: q.limit, tente_de_novo_em: q.retryAfter },
        )
      : new ApiError(429, "limite_excedido", `limite de ${q.limit} consultas por dia atingido; renova às 00:00 UTC (em ${q.retryAfter} s)`, {
          limite: q.limit,
          renova_em: new Date(q.reset * 1000).toISOString(),
        });

  const indisponivel = () =>
    new ApiError(503, "cota_indisponivel", `o contador da cota diária está indisponível no momento; tente de novo em ${RETRY_INDISPONIVEL} s (os arquivos estáticos em /api/v1/ continuam disponíveis)`);

  /** before the work: a client with nothing left, or no store to count in, is refused */
  const checar = (antes: QuotaCheck): void => {
    if (antes.indisponivel) throw indisponivel();
    if (antes.remaining <= 0) throw limiteExcedido(antes);
  };

  /**
   * query routes: only an answer (200 or 304) counts against the quota; a refused request (4xx,
   * 5xx) costs nothing, so a client's bug does not eat its day. The check before the work refuses
   * a client with nothing left; the count after it is what is reported. An answer kept ready
   * needs no work, so it skips the check: the count itself refuses a client with nothing left
   * (the same 429), in one round trip to a shared store instead of two.
   */
  const rotasDeConsulta = new Map<string, RotaDeConsulta>();
  const maxProntas = opts.prontas?.respostas ?? MAX_PREPARED;
  const maxTamanho = opts.prontas?.tamanho ?? MAX_PREPARED_CHARS;
  /** compressed heads made (tests see that a kept one is made once) */
  let compressoes = 0;
  const pesoDe = (p: Prepared) => p.head.length + (p.br?.prefixo.length ?? 0) + (p.gzip?.prefixo.length ?? 0);
  /**
   * An answer's compressed head: made on first demand and kept with the answer while its route's
   * table holds it, counted in the table's bound (so it goes when the answer does: replaced after
   * its file changed, or the table started over). One that would pass the bound is not kept: it is
   * made again on each demand, as an answer not kept ready (no file behind it) is, at the quicker
   * quality of the per-request compression.
   */
  const comprimida = (r: Resposta | Prepared, enc: Codificacao): Comprimida => {
    const feita = r[enc];
    if (feita) return feita;
    const rota = "rota" in r && r.vivo ? r.rota : undefined;
    // its compressed size is not known yet: the head's own size stands for it
    const guardar = rota !== undefined && rota.tamanho + Buffer.byteLength(r.head) <= maxTamanho;
    const c = comprimirCabeca(r.head, enc, guardar);
    compressoes++;
    if (guardar && rota.tamanho + c.prefixo.length <= maxTamanho) {
      r[enc] = c;
      rota.tamanho += c.prefixo.length;
    }
    return c;
  };
  /** the key of a ready answer: what the answer depends on, so cache busters (`_=1732300000`) share one entry; and the day in Brasília (the simulator says how old its price is) */
  const chavePronta = (hoje: string, known: Record<string, string>, ignorados: readonly string[]) => `${hoje}${JSON.stringify(known)}${ignorados.join("\u0000")}`;
  const query = (path: string, params: readonly string[], handler: (files: FileCache, q: Record<string, string>, ctx: { hoje: string }) => Promise<Answer>) => {
    const prepared = new Map<string, Prepared>();
    const rota: RotaDeConsulta = { params, prepared, tamanho: 0 };
    rotasDeConsulta.set(path, rota);
    return route((c, client) => {
      const counted = (r: Resposta | Prepared): Talvez<Response> =>
        seguir(quota.consume(client.kind, client.id, now()), (q) => {
          client.quota = q;
          if (q.indisponivel) throw indisponivel();
          // two requests racing for the last unit: the later one is refused
          if (!q.allowed) throw limiteExcedido(q);
          return answer(c, q, r);
        });
      let parsed: ReturnType<typeof parseQuery>;
      try {
        parsed = parseQuery(splitTarget(rawTarget(c)).query, params);
      } catch (err) {
        // a client with nothing left hears 429 first, whatever else is wrong with its request
        return seguir(stateOf(client), (antes) => {
          checar(antes);
          throw err;
        });
      }
      const { q: known, ignorados } = parsed;
      const hoje = hojeAgora(now());
      const rawQuery = chavePronta(hoje, known, ignorados);
      const p = prepared.get(rawQuery);
      if (p && files.isFresh(p.source)) return counted(p);
      const responder = () =>
        seguir(stateOf(client), (antes) => {
          checar(antes);
          return handler(files, known, { hoje }).then(({ data, source, headers: avisos }) => {
            const json = JSON.stringify(data);
            const head = json.length > 2 ? `${json.slice(0, -1)},` : "{";
            const etag = `W/"${createHash("sha1").update(json).digest("base64url")}"`;
            const own: HeaderMap = { ...avisos, ...(ignorados.length ? { [IGNORADOS]: cabecalhoIgnorados(ignorados) } : {}) };
            if (source && head.length <= maxTamanho) {
              if (prepared.size >= maxProntas || rota.tamanho + head.length > maxTamanho) {
                for (const v of prepared.values()) v.vivo = false;
                prepared.clear();
                rota.tamanho = 0;
              }
              const antigo = prepared.get(rawQuery);
              if (antigo) {
                antigo.vivo = false;
                rota.tamanho -= pesoDe(antigo);
              }
              const novo: Prepared = { source, rota, head, etag, headers: own, vivo: true };
              rota.tamanho += head.length;
              prepared.set(rawQuery, novo);
              return counted(novo);
            }
            return counted({ head, etag, headers: own });
          });
        });
      // its file checked on disk again (once a second, or after another file's new version): an
      // unchanged file's answer is still the answer (a kept one depends only on its file, the query
      // and the day), with its compressed heads (brotli 11 of a long history costs tens of ms)
      if (p?.vivo) return files.resolve(p.source.rel).then((r) => (r.kind === "file" && r.entry === p.source && p.vivo && files.isFresh(p.source) ? counted(p) : responder()));
      return responder();
    });
  };

  /**
   * POST /api/v1/romaneio: a key with the romaneio permission, its own quota (checked before the
   * upload is read), at most `simultaneas` readings of the key in flight in this process (from the
   * upload on), the file read under a cap and refused at once if its type or an image's size is
   * wrong, a unit reserved before the OCR and given back only when the engine did no work
   * (devolveUnidade), the OCR in the engine's workers, then the reading and the comparison.
   * Nothing of the file is kept or logged.
   */
  const romaneioLimite = romaneio?.cotaDiaria ?? COTA_ROMANEIO_PADRAO;
  const romaneioMax = romaneio?.maxBytes ?? MAX_MB_PADRAO * 1024 * 1024;
  const romaneioSimultaneas = Math.max(1, Math.floor(romaneio?.simultaneas ?? SIMULTANEAS_PADRAO));
  // per process: in a cluster a key may have this many in each worker (sharing the count would
  // cost an IPC or Redis round trip each way for a bound that is about fairness, not money)
  const emAndamento = new Map<string, number>();
  app.post(
    ROMANEIO_PATH,
    route(async (c, client) => {
      if (client.kind !== "key") {
        throw new ErroHttp(401, "chave_ausente", "a leitura de romaneio (beta) exige uma chave de API com essa permissão em X-API-Key; o acesso é concedido sob pedido");
      }
      if (!romaneio || !romaneioKeys.has(client.id)) {
        throw new ErroHttp(403, "sem_permissao", "esta chave de API não tem permissão para ler romaneios (COTACAO_ROMANEIO_KEYS); as consultas continuam disponíveis com ela");
      }
      const id = idRomaneio(client.id);
      // the romaneio limit travels with each call: the store's key limit (the queries') plays no part
      const antes = await quota.peek("key", id, now(), romaneioLimite);
      client.quota = antes;
      if (antes.indisponivel) throw indisponivel();
      // an exhausted quota is refused before a byte of the upload is read
      if (antes.remaining <= 0) throw limiteRomaneio(antes);
      // one key cannot hold every OCR worker and the queue (the others would get 503): its
      // readings in flight are capped, counted from the upload (a slow upload holds memory too)
      const ocupadas = emAndamento.get(id) ?? 0;
      if (ocupadas >= romaneioSimultaneas) throw simultaneasDemais(romaneioSimultaneas);
      emAndamento.set(id, ocupadas + 1);
      try {
        const arquivo = await arquivoDaRequisicao(c.req.raw, header(c, "content-type"), header(c, "content-length"), romaneioMax);
        // the unit is reserved before the OCR, atomically in the store: of two readings racing for the
        // last one, one runs and the other is refused at once (not after its OCR), and the count never
        // passes the limit
        const cobradoEm = now();
        const q = await quota.consume("key", id, cobradoEm, romaneioLimite);
        client.quota = q;
        if (q.indisponivel) throw indisponivel();
        if (!q.allowed) throw limiteRomaneio(q);
        let lido: Awaited<ReturnType<typeof lerEComparar>>;
        try {
          const hoje = hojeAgora(now());
          lido = await lerEComparar({ leitor: romaneio.leitor, etapas: romaneio.etapas ?? ETAPAS, files, hoje, tempoS: romaneio.tempoS ?? TEMPO_S_PADRAO }, arquivo);
        } catch (err) {
          if (devolveUnidade(err)) {
            // a refund the store cannot take must not replace the reading's own error
            await Promise.resolve(quota.refund("key", id, cobradoEm, q)).catch(() => undefined);
            client.quota = { ...q, ...quotaState(q.limit, Math.max(0, q.used - 1), cobradoEm) };
          }
          throw err;
        }
        const headers = baseHeaders(q);
        headers["Cache-Control"] = "no-store";
        headers["Content-Type"] = JSON_TYPE;
        return new Response(JSON.stringify({ ...lido, rate_limit: { diario: q.limit, restante: q.remaining } }), { status: 200, headers });
      } finally {
        const n = (emAndamento.get(id) ?? 1) - 1;
        if (n > 0) emAndamento.set(id, n);
        else emAndamento.delete(id);
      }
    }),
  );
  // the original service listed this path: any other method hears which one it takes
  app.get(
    ROMANEIO_PATH,
    route(() => {
      throw new ErroHttp(405, "metodo_nao_permitido", "a leitura de romaneio usa POST com o arquivo no corpo (ou no campo \"arquivo\" de multipart/form-data)");
    }),
  );

  app.get("/api/v1/cotacao", query("/api/v1/cotacao", COTACAO_PARAMS, cotacao));
  app.get("/api/v1/historico", query("/api/v1/historico", HISTORICO_PARAMS, historico));
  app.get("/api/v1/simulador", query("/api/v1/simulador", SIMULADOR_PARAMS, simulador));

  // the static tree (it reads the path itself, so route() need not check it first)
  app.get(
    "*",
    route(async (c, client) => {
      const { path, query: qs } = splitTarget(rawTarget(c));
      const safe = safePath(path);
      if (!safe.ok) throw new ApiError(400, "caminho_invalido", `caminho recusado: ${safe.motivo}`);
      const rel = safe.rel;
      const st = stateOf(client);
      const headers = baseHeaders(st instanceof Promise ? await st : st);
      if (client.keyIgnored) avisar(headers, CHAVE_IGNORADA);
      headers["Cache-Control"] = CACHE_CONTROL;
      let r = await files.resolve(rel || "index.html");
      if (r.kind === "dir") {
        if (!safe.trailingSlash) {
          // relative Location, so it also works under a sub-path behind a proxy
          const last = rel.split("/").pop()!;
          headers.Location = `${encodeURIComponent(last)}/${qs ? `?${qs}` : ""}`;
          return new Response(null, { status: 301, headers });
        }
        r = await files.resolve(`${rel}/index.html`);
      } else if (rel !== "" && safe.trailingSlash) {
        r = { kind: "missing" };
      }
      if (r.kind !== "file") throw new ApiError(404, "nao_encontrado", `arquivo não encontrado: ${path.slice(0, 200)}; veja api/v1/index.json`);
      const e = r.entry;
      const enc = e.compressible ? chooseEncoding(header(c, "accept-encoding")) : null;
      // a strong ETag names exact bytes; a compressed body is other bytes of the same file, so its
      // ETag is the weak form (as nginx does), and If-None-Match compares weakly either way
      headers.ETag = enc && !e.etag.startsWith("W/") ? `W/${e.etag}` : e.etag;
      headers.Vary = "Accept-Encoding";
      if (e.type.startsWith("text/html")) headers["Content-Security-Policy"] = rel === "romaneio" || rel.startsWith("romaneio/") ? HTML_CSP_ROMANEIO : HTML_CSP;
      if (ifNoneMatch(header(c, "if-none-match"), e.etag)) return new Response(null, { status: 304, headers });
      headers["Content-Type"] = e.type;
      if (enc) {
        headers["Content-Encoding"] = enc;
        return new Response(new Uint8Array(files.encoded(e, enc)), { status: 200, headers });
      }
      return new Response(new Uint8Array(e.body), { status: 200, headers });
    }, false, true),
  );

  // CORS preflight (any path: browsers send it before the real request)
  app.options("*", (c) =>
    seguir(peekAddress(c), (q) => {
      const own = splitTarget(rawTarget(c)).path === ROMANEIO_PATH ? PREFLIGHT_ROMANEIO : PREFLIGHT_HEADERS;
      return new Response(null, { status: 204, headers: { ...baseHeaders(q), ...own } });
    }),
  );

  // no route for the method: GET (and HEAD, answered as GET) and OPTIONS have one each
  app.notFound(
    route((c) => {
      const romaneio = splitTarget(rawTarget(c)).path === ROMANEIO_PATH;
      throw new ApiError(405, "metodo_nao_permitido", `método ${c.req.method.slice(0, 20)} não é aceito; use ${romaneio ? "POST ou OPTIONS" : "GET, HEAD ou OPTIONS"}`);
    }, false),
  );

  // a backstop: route() already answers every failure it sees
  app.onError((err, c) => seguir(peekAddress(c), (q) => failure(c, err, q)));

  /**
   * The fast path, before Hono: a GET of a query route whose answer is kept ready (and its file
   * unchanged), from a known key or no key, counted and allowed, is written straight to Node's
   * response, without the Web Request/Response objects of the adapter (they cost more than the
   * answer itself). Its headers and body are `pronta`'s, as the Hono route's are (the plain or
   * compressed answer, the common case, from a header list made once per answer and encoding, and
   * the head or its compressed stream made once per answer kept ready). Anything
   * else is handed to Hono whole: HEAD, other paths, an unknown key (401), a query that does not
   * parse, an answer not ready yet, a header it reads sent twice. A count that refuses (429, or
   * 503 with the store down and fail-closed) counted nothing, so Hono asks again and answers with
   * its own error: the errors have one writer.
   *
   * It runs on every query, so it does per request only what a bare node:http answer would plus the
   * count: a target is read once (parsed, its route and the key of its answer kept by the raw
   * target), the headers come from the raw list, numbers that repeat are formatted once, no
   * function is made when the count answers at once (tsx names every named one it makes, at a
   * cost) and the body goes out with the header text in one write.
   */
  let respostasRapidas = 0;
  /** targets read (null: not the fast path's: a target the adapter would refuse or rewrite, another path, a query that does not parse) */
  const alvos = new Map<string, AlvoRapido | null>();
  const lerAlvo = (url: string): AlvoRapido | null => {
    if (!ALVO_SIMPLES.test(url) || SEGMENTO_PONTO.test(url)) return null;
    const { path, query: qs } = splitTarget(url);
    const rota = rotasDeConsulta.get(path);
    if (!rota) return null;
    try {
      const { q, ignorados } = parseQuery(qs, rota.params);
      return { rota, chave: chavePronta("", q, ignorados), dia: "", p: undefined };
    } catch {
      return null;
    }
  };
  let hostVisto = "";
  // numbers as the headers write them, kept while they repeat (the limit and the reset change once a day)
  let limiteVisto = NaN;
  let limiteTexto = "";
  let resetVisto = NaN;
  let resetTexto = "";
  let acceptVisto: string | undefined;
  let encVisto: Codificacao | null = null;
  /** the header list of a ready answer as `pronta` writes it (the counter's slots and Content-Length filled per request) */
  const listaRapida = (p: Prepared, enc: Codificacao | null): string[] => [
    ...INICIO_SIMPLES,
    "X-RateLimit-Limit",
    "",
    "X-RateLimit-Remaining",
    "",
    "X-RateLimit-Reset",
    "",
    ...Object.entries(p.headers).flat(),
    "ETag",
    p.etag,
    "Cache-Control",
    CACHE_CONTROL,
    "Vary",
    "Accept-Encoding, X-API-Key",
    "Content-Type",
    JSON_TYPE,
    ...(enc ? ["Content-Encoding", enc] : []),
    "Content-Length",
    "",
  ];

  /** the answer, once counted: plain or compressed from a list and bytes made once per answer kept ready, else (304, a warning) `pronta`'s */
  const enviarRapido = (req: IncomingMessage, res: ServerResponse, seguinte: Parameters<CaminhoRapido>[2], p: Prepared, inm: string | undefined, accept: string | undefined, q: QuotaConsumed): void => {
    if (q.indisponivel || !q.allowed) {
      void seguinte(req, res);
      return;
    }
    respostasRapidas++;
    if (!q.aviso && inm === undefined) {
      // the answer without a warning from the store or a 304, plain or compressed: what `pronta`
      // sends; the table of test/serve/rapido.test.ts checks both give the same bytes
      if (accept !== acceptVisto) {
        acceptVisto = accept;
        encVisto = accept === undefined ? null : chooseEncoding(accept);
      }
      if (q.limit !== limiteVisto) {
        limiteVisto = q.limit;
        limiteTexto = String(q.limit);
      }
      if (q.reset !== resetVisto) {
        resetVisto = q.reset;
        resetTexto = String(q.reset);
      }
      const restante = String(q.remaining);
      // the tail is ASCII: its length is its byte count
      const cauda = `"rate_limit":{"diario":${limiteTexto},"restante":${restante}}}`;
      const enc = encVisto !== null && p.head.length + cauda.length > COMPRIMIR_ACIMA ? encVisto : null;
      let lista: string[];
      let corpo: string | Buffer;
      if (enc === null) {
        const simples = (p.simples ??= { bytes: Buffer.byteLength(p.head), lista: listaRapida(p, null) });
        lista = simples.lista;
        lista[lista.length - 1] = String(simples.bytes + cauda.length);
        // a string body: Node sends it with the header text as one string in one write (a Buffer
        // would cost an allocation and a copy here, and a writev of two pieces)
        corpo = p.head + cauda;
      } else {
        lista = (p.listas ??= {})[enc] ??= listaRapida(p, enc);
        corpo = fecharComprimida(comprimida(p, enc), enc, cauda);
        lista[lista.length - 1] = String(corpo.length);
      }
      // one list per answer and encoding, its slots overwritten: writeHead turns it into the header text at once
      lista[SLOT_LIMITE] = limiteTexto;
      lista[SLOT_RESTANTE] = restante;
      lista[SLOT_RESET] = resetTexto;
      res.writeHead(200, lista);
      res.end(corpo);
      return;
    }
    const r = pronta(q, p, inm, accept);
    // a flat list: Node writes it as it is, where an object goes through setHeader one by one
    const lista: string[] = [];
    for (const k in r.headers) lista.push(k, r.headers[k]!);
    if (r.body !== null) lista.push("Content-Length", String(Buffer.byteLength(r.body)));
    res.writeHead(r.status, lista);
    res.end(r.body ?? undefined);
  };

  const rapido: CaminhoRapido = (req, res, seguinte) => {
    if (req.method !== "GET" || opts.caminhoRapido === false) return false;
    const url = req.url ?? "";
    let alvo = alvos.get(url);
    if (alvo === undefined) {
      alvo = lerAlvo(url);
      if (url.length <= MAX_ALVO_CHARS) {
        if (alvos.size >= MAX_ALVOS) alvos.clear();
        alvos.set(url, alvo);
      }
    }
    if (alvo === null) return false;
    // the few headers it reads, from the raw list (Node builds req.headers on first use, which costs
    // more than this); any of them twice is Hono's to answer (Node joins some repeats, keeps the
    // first of others)
    const raw = req.rawHeaders;
    let host: string | undefined;
    let key: string | undefined;
    let inm: string | undefined;
    let accept: string | undefined;
    let xff: string | undefined;
    for (let i = 0; i < raw.length; i += 2) {
      const n = raw[i]!;
      switch (n.length) {
        case 4:
          if (n === "Host" || n.toLowerCase() === "host") {
            if (host !== undefined) return false;
            host = raw[i + 1]!;
          }
          break;
        case 9:
          if (n === "X-API-Key" || n.toLowerCase() === "x-api-key") {
            if (key !== undefined) return false;
            key = raw[i + 1]!;
          }
          break;
        case 13:
          if (n.toLowerCase() === "if-none-match") {
            if (inm !== undefined) return false;
            inm = raw[i + 1]!;
          }
          break;
        case 15: {
          const m = n.toLowerCase();
          if (m === "accept-encoding") {
            if (accept !== undefined) return false;
            accept = raw[i + 1]!;
          } else if (m === "x-forwarded-for") {
            if (xff !== undefined) return false;
            xff = raw[i + 1]!;
          }
          break;
        }
      }
    }
    // only the Hosts the adapter takes as they are (its own test): anything it would refuse or rewrite is Hono's
    if (host === undefined) return false;
    if (host !== hostVisto) {
      if (!HOST_SIMPLES.test(host)) return false;
      hostVisto = host;
    }
    let kind: Client["kind"];
    let id: string;
    if (key !== undefined) {
      id = hashKeyCached(key.trim());
      if (!keys.has(id)) return false;
      kind = "key";
    } else {
      kind = "ip";
      id = clientAddress(req.socket.remoteAddress, xff, trusted);
    }
    const agora = now();
    const hoje = hojeAgora(agora);
    let p = alvo.p;
    if (p === undefined || !p.vivo || alvo.dia !== hoje) {
      p = alvo.rota.prepared.get(hoje + alvo.chave);
      alvo.p = p;
      alvo.dia = hoje;
    }
    if (!p || !files.isFresh(p.source)) return false;
    const q = quota.consume(kind, id, agora);
    // a store that failed (the primary's channel closed) answered nothing: Hono asks again and reports it
    if (q instanceof Promise) q.then((c) => enviarRapido(req, res, seguinte, p, inm, accept, c), () => void seguinte(req, res)).catch((err: unknown) => res.destroy(err as Error));
    else enviarRapido(req, res, seguinte, p, inm, accept, q);
    return true;
  };

  const memoriaPronta = (): MemoriaPronta => {
    const m = { respostas: 0, tamanho: 0, compressoes };
    for (const r of rotasDeConsulta.values()) {
      m.respostas += r.prepared.size;
      m.tamanho += r.tamanho;
    }
    return m;
  };
  return { app, rapido, respostasRapidas: () => respostasRapidas, memoriaPronta };
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
  /** answers the fast path wrote (tests check it was taken) */
  respostasRapidas(): number;
  /** the ready answers' tables and the compressed heads made (tests check the bound and the cache) */
  memoriaPronta(): MemoriaPronta;
  close(): Promise<void>;
}

/** ms a request may take to arrive whole when no route reads a body (headers: 10 s of it) */
export const TEMPO_REQUISICAO_MS = 30_000;
/** ms a romaneio upload may take to arrive whole, at least */
export const TEMPO_ENVIO_ROMANEIO_MS = 120_000;
/** the slowest uplink a romaneio upload of the largest size must get through in time, bytes/s (0.8 Mbit/s: weak 3G) */
const ENVIO_MINIMO_BPS = 100_000;

/**
 * Node's requestTimeout: how long a request may take to arrive whole (headers and body). It is
 * one value per server, so it is the romaneio upload's when that route is on: a 10 MB photo on a
 * weak mobile uplink takes well over a minute (at 100 kB/s, 105 s), and 30 s would cut it. Raising
 * it costs little: slow headers are still cut at 10 s (headersTimeout), and no other route reads
 * a body (they answer before it arrives, a POST elsewhere is 405 at once). The limit grows with
 * COTACAO_ROMANEIO_MAX_MB, so the largest accepted file still fits at that rate.
 */
export function tempoRequisicaoMs(romaneio: OpcoesRomaneio | undefined): number {
  if (!romaneio) return TEMPO_REQUISICAO_MS;
  const max = romaneio.maxBytes ?? MAX_MB_PADRAO * 1024 * 1024;
  return Math.max(TEMPO_ENVIO_ROMANEIO_MS, Math.ceil(max / ENVIO_MINIMO_BPS) * 1000);
}

/** the server's clocks (tests shrink them to see a cut in seconds, not minutes) */
export interface TemposServidor {
  /** requestTimeout (default: tempoRequisicaoMs(romaneio)) */
  requisicaoMs?: number;
  /** headersTimeout (default 10 s; never above requisicaoMs) */
  cabecalhosMs?: number;
  /** how often Node checks both (its connectionsCheckingInterval; default 30 s) */
  verificacaoMs?: number;
}

/**
 * Listens on host:port (port 0 = any free port). Requests the HTTP parser refuses before they
 * reach the app (huge headers, malformed request lines, bad URLs) still get a JSON error, and so
 * does one that took too long to arrive (408).
 */
export async function startServer(opts: ServeOptions & { port?: number; host?: string; tempos?: TemposServidor }): Promise<RunningServer> {
  const servico = montarServico(opts);
  const app = servico.app;
  const hono = getRequestListener(app.fetch, {
    errorHandler: (err) => {
      // the adapter refuses a request it cannot turn into a URL; its messages are in English
      const m = (err as Error).message;
      const motivo = /backslash/i.test(m) ? "barra invertida no caminho" : /host/i.test(m) ? "cabeçalho Host inválido" : "URL inválida";
      const e = new ApiError(400, "requisicao_invalida", `requisição malformada: ${motivo}`);
      return errorResponse(e, { "Access-Control-Allow-Origin": "*" });
    },
  });
  const requestTimeout = opts.tempos?.requisicaoMs ?? tempoRequisicaoMs(opts.romaneio);
  const headersTimeout = Math.min(opts.tempos?.cabecalhosMs ?? 10_000, requestTimeout);
  const segundos = (ms: number) => Math.max(1, Math.round(ms / 1000));
  const server = createServer(
    {
      maxHeaderSize: 16 * 1024,
      requestTimeout,
      headersTimeout,
      keepAliveTimeout: 5_000,
      ...(opts.tempos?.verificacaoMs ? { connectionsCheckingInterval: opts.tempos.verificacaoMs } : {}),
    },
    (req, res) => {
      if (!servico.rapido(req, res, hono)) void hono(req, res);
    },
  );
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Socket) => {
    if (err.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const tooLarge = err.code === "HPE_HEADER_OVERFLOW" || err.code === "HPE_URI_TOO_LONG";
    socket.end(
      err.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? rawJson(408, "Request Timeout", {
            erro: "tempo_de_envio_esgotado",
            mensagem: `a requisição não chegou inteira a tempo (os cabeçalhos em até ${segundos(headersTimeout)} s, o corpo em até ${segundos(requestTimeout)} s); tente de novo com uma conexão melhor ou um arquivo menor`,
          })
        : tooLarge
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
    respostasRapidas: servico.respostasRapidas,
    memoriaPronta: servico.memoriaPronta,
    url: `http://${shownHost}:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
