/**
 * Webhook delivery: POSTs each new event of api/v1/eventos.json to the subscribers of
 * webhooks.json, signed with the subscriber's secret, retried with exponential backoff, and
 * recorded per subscriber in a delivery state file so that each event id is sent once.
 *
 * Where the state lives: the update runs in GitHub Actions, whose machines keep nothing between
 * runs, so the state is a small committed file (webhooks-entregues.json by default) that
 * the workflow commits together with the data it just published. Git then says what was sent
 * to whom and when, a rerun of a job finds the ids already sent, and the file stays bounded:
 * only ids still listed in eventos.json are kept (an id that left the list can never be a
 * candidate again).
 *
 * Losses: eventos.json is bounded, so an event a subscriber has not received yet (its receiver
 * keeps failing, its secret is missing) leaves the list after enough runs, and can then never be
 * sent. The state records each subscriber's queue left for the next run (`pendentes`); an entry
 * of it that is no longer listed is lost: logged, recorded in `perdidos` and reported with a
 * failing exit. The state also records the newest event notify worked from (`ultimo_evento`,
 * with its `seq`): runs whose notify never happened (a failed deploy skips it) may have pushed
 * events out unseen, and the sequence numbers say exactly whether they did: events were missed
 * when the oldest seq listed now is past that one's seq + 1. The list merely rolling past what
 * notify saw (a single run of 200+ events) is no loss. A state written before seq existed names
 * its event by id only: found in the list, its seq is the list's; gone, the loss can only be
 * called possible, as before.
 *
 * Signatures follow Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature), so any
 * receiver library verifies them and rejects replays by the timestamp; the older
 * X-Cotacao-Signature is still sent, deprecated, for one more version.
 */
import { createHmac } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { readFile } from "node:fs/promises";
import { PipelineError } from "../domain/errors.ts";
import { writeAtomic } from "../io/files.ts";
import {
  createDispatcher,
  Deadline,
  describeError,
  errorCode,
  isUndiciTimeout,
  parseRetryAfter,
  readBody,
  retryableStatus,
  send,
  sleep,
  withRetries,
  type Attempt,
  type Dispatcher,
  type Response,
} from "../io/http.ts";
import { z } from "zod";
import { EVENTOS_LIMITE, TIPOS_EVENTO, type Evento, type EventosFile } from "./model.ts";
import { lookupPublico, motivoUrlRecusada } from "./net.ts";
import { PROJECT_URL } from "../domain/site.ts";

/**
 * Deprecated: the project's own signature, sent beside the Standard Webhooks headers for one
 * more version (1.x) so receivers that check it keep working; removed in 2.0.
 */
export const SIGNATURE_HEADER = "X-Cotacao-Signature";
/** Standard Webhooks (https://www.standardwebhooks.com/): the headers every receiver library verifies. */
export const WEBHOOK_ID_HEADER = "webhook-id";
export const WEBHOOK_TIMESTAMP_HEADER = "webhook-timestamp";
export const WEBHOOK_SIGNATURE_HEADER = "webhook-signature";
/** The prefix of a Standard Webhooks secret: "whsec_" + base64 of the key bytes. */
export const PREFIXO_SEGREDO = "whsec_";
/** what is read of a receiver's reply body before the rest is dropped (nothing in it is used) */
export const RESPOSTA_MAX_BYTES = 64 * 1024;
export const WEBHOOK_USER_AGENT = `CotacaoAberta-Webhooks/1.0 (+${PROJECT_URL})`;

export const AssinanteSchema = z.strictObject({
  url: z.string().min(1),
  /** event types wanted: any of cotacao_atualizada, price_changed, historico_revisado */
  eventos: z.array(z.enum(TIPOS_EVENTO)).min(1),
  /** name of the environment variable (a GitHub Actions secret) holding the HMAC secret */
  segredo_env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "nome de variável de ambiente inválido"),
  /** optional: only events created at or after this instant (a new subscriber skips the past) */
  desde: z.iso.datetime({ offset: true }).optional(),
});
export type Assinante = z.infer<typeof AssinanteSchema>;

/** An event named in the state after it may have left eventos.json. */
export interface EventoRef {
  id: string;
  tipo: string;
  criado_em: string;
}

/** The newest event a notify worked from; `seq` absent in a state written before events had one. */
export interface EventoVisto extends EventoRef {
  seq?: number;
}

export interface EstadoAssinante {
  url: string;
  /** ids delivered, of those still listed in eventos.json */
  entregues: string[];
  /** the subscriber's events not delivered yet, oldest first (absent: none) */
  pendentes?: EventoRef[];
  /** events that left eventos.json before being delivered, the newest PERDIDOS_MAX (absent: none) */
  perdidos?: EventoRef[];
}

/**
 * Delivery state. Format 1 without `ultimo_evento`, `pendentes` and `perdidos` (files written
 * before losses were tracked) still reads: no loss can be told about that run, only later ones.
 */
export interface EstadoEntregas {
  versao: 1;
  /** the newest event of the eventos.json the last notify worked from */
  ultimo_evento?: EventoVisto;
  assinantes: EstadoAssinante[];
}

/** How many lost events the state keeps per subscriber (git keeps the rest). */
export const PERDIDOS_MAX = EVENTOS_LIMITE;

export function estadoVazio(): EstadoEntregas {
  return { versao: 1, assinantes: [] };
}

const ref = (e: EventoRef): EventoRef => ({ id: e.id, tipo: e.tipo, criado_em: e.criado_em });
const refVisto = (e: EventoVisto): EventoVisto => ({ id: e.id, ...(e.seq !== undefined ? { seq: e.seq } : {}), tipo: e.tipo, criado_em: e.criado_em });

/** "[0].eventos.1" for the path of a problem in the list. */
function onde(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "(raiz)";
  const [first, ...rest] = path;
  return [`[${String(first)}]`, ...rest.map(String)].join(".");
}

/** Reads and checks webhooks.json; every problem names the file, the entry and the field. */
export async function loadAssinantes(file: string, opts: { permitirInseguro?: boolean } = {}): Promise<Assinante[]> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw new PipelineError({ stage: "notify", reason: `${file}: não foi possível ler (${(err as Error).message})`, cause: err });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new PipelineError({ stage: "notify", reason: `${file}: JSON inválido (${(err as Error).message})`, cause: err });
  }
  const r = z.array(AssinanteSchema).safeParse(raw);
  if (!r.success) {
    throw new PipelineError({ stage: "notify", reason: `${file}: ${r.error.issues.map((i) => `${onde(i.path)}: ${i.message}`).join("; ")}` });
  }
  const problemas: string[] = [];
  const vistos = new Set<string>();
  r.data.forEach((a, i) => {
    const motivo = motivoUrlRecusada(a.url, opts.permitirInseguro);
    if (motivo) problemas.push(`[${i}].url ${a.url}: ${motivo}`);
    if (vistos.has(a.url)) problemas.push(`[${i}].url ${a.url}: repetida`);
    vistos.add(a.url);
  });
  if (problemas.length > 0) throw new PipelineError({ stage: "notify", reason: `${file}: ${problemas.join("; ")}` });
  return r.data;
}

export async function loadEstado(file: string): Promise<EstadoEntregas> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return estadoVazio();
    throw new PipelineError({ stage: "notify", reason: `${file}: não foi possível ler (${(err as Error).message})`, cause: err });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new PipelineError({ stage: "notify", reason: `${file}: JSON inválido (${(err as Error).message}); restaure o arquivo com git`, cause: err });
  }
  const evento = z.strictObject({ id: z.string(), tipo: z.string(), criado_em: z.string() });
  const r = z
    .strictObject({
      versao: z.literal(1),
      ultimo_evento: z.strictObject({ id: z.string(), seq: z.number().int().min(1).optional(), tipo: z.string(), criado_em: z.string() }).optional(),
      assinantes: z.array(
        z.strictObject({ url: z.string(), entregues: z.array(z.string()), pendentes: z.array(evento).optional(), perdidos: z.array(evento).optional() }),
      ),
    })
    .safeParse(raw);
  // a damaged state would re-send everything: stop instead
  if (!r.success) throw new PipelineError({ stage: "notify", reason: `${file}: estado de entregas inválido (${r.error.issues[0]?.message}); restaure o arquivo com git` });
  return r.data;
}

/** Deterministic bytes: subscribers by URL, ids in eventos.json order; empty lists left out. */
export function stringifyEstado(estado: EstadoEntregas): string {
  const assinantes = [...estado.assinantes]
    .sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0))
    .map((a) => ({
      url: a.url,
      entregues: a.entregues,
      ...(a.pendentes?.length ? { pendentes: a.pendentes.map(ref) } : {}),
      ...(a.perdidos?.length ? { perdidos: a.perdidos.map(ref) } : {}),
    }));
  const ultimo = estado.ultimo_evento ? { ultimo_evento: refVisto(estado.ultimo_evento) } : {};
  return JSON.stringify({ versao: 1, ...ultimo, assinantes }, null, 2) + "\n";
}

async function saveEstado(file: string, estado: EstadoEntregas): Promise<void> {
  await writeAtomic(file, stringifyEstado(estado));
}

/** Deprecated (X-Cotacao-Signature): "sha256=" + hex HMAC-SHA256 of the exact body bytes, keyed with the secret's text. */
export function assinatura(body: string, segredo: string): string {
  return `sha256=${createHmac("sha256", segredo).update(body, "utf8").digest("hex")}`;
}

/**
 * The HMAC key of a subscriber's secret for Standard Webhooks. A "whsec_<base64>" secret is the
 * standard form: its key is the decoded bytes. Any other secret (the hex or plain strings
 * configured before this version) keys the HMAC with its own UTF-8 bytes, exactly as
 * X-Cotacao-Signature always did; its standard form is "whsec_" + base64 of that text, which is
 * what a receiver passes to its Standard Webhooks library (`segredoPadrao`).
 */
export function chaveDoSegredo(segredo: string): Uint8Array {
  if (segredo.startsWith(PREFIXO_SEGREDO)) {
    const b64 = segredo.slice(PREFIXO_SEGREDO.length);
    // Buffer.from ignores bad characters silently; a typo in a secret must not become another key
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64) || b64.length % 4 !== 0) {
      throw new Error(`segredo começa com ${PREFIXO_SEGREDO} mas o resto não é base64 válido`);
    }
    return new Uint8Array(Buffer.from(b64, "base64"));
  }
  return new Uint8Array(Buffer.from(segredo, "utf8"));
}

/** The secret as a receiver's Standard Webhooks library takes it ("whsec_..."). */
export function segredoPadrao(segredo: string): string {
  return `${PREFIXO_SEGREDO}${Buffer.from(chaveDoSegredo(segredo)).toString("base64")}`;
}

/**
 * The three Standard Webhooks headers for one delivery attempt: `webhook-id` is the event id (the
 * same on every retry, so receivers deduplicate), `webhook-timestamp` the attempt's time in Unix
 * seconds (receivers reject old ones, which stops replays), `webhook-signature` "v1,<base64>".
 */
export function cabecalhosPadrao(body: string, e: Pick<Evento, "id">, segredo: string, agora: Date = new Date()): Record<string, string> {
  const wh = new Webhook(chaveDoSegredo(segredo), { format: "raw" });
  // the library signs whole seconds; the header must carry the same number it signed
  const instante = new Date(Math.floor(agora.getTime() / 1000) * 1000);
  return {
    [WEBHOOK_ID_HEADER]: e.id,
    [WEBHOOK_TIMESTAMP_HEADER]: String(instante.getTime() / 1000),
    [WEBHOOK_SIGNATURE_HEADER]: wh.sign(e.id, instante, body),
  };
}

/** The POST body: exactly the event as published in eventos.json (seq included, so a receiver can tell a gap). */
export function corpoDoEvento(e: Evento): string {
  return JSON.stringify({ id: e.id, seq: e.seq, tipo: e.tipo, criado_em: e.criado_em, dados: e.dados });
}

export interface OpcoesEntrega {
  /** per attempt, the whole exchange: connect, send, status and headers, reply body */
  timeoutMs?: number;
  /** attempts per event (1 = no retry) */
  tentativas?: number;
  /** wait before the 2nd attempt, about (jitter: half to all of it); doubles each time */
  backoffMs?: number;
  /** tests only: allow http and loopback (the local receiver) */
  permitirInseguro?: boolean;
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
  /** where the state is saved after every successful delivery (none: not saved) */
  estadoFile?: string;
}

export interface ResultadoEntrega {
  url: string;
  evento: string;
  tipo: string;
  ok: boolean;
  tentativas: number;
  status: number | null;
  motivo: string | null;
}

export interface RelatorioNotify {
  entregas: ResultadoEntrega[];
  /**
   * per subscriber: delivered now, failed, pending (not tried after a failure), already sent,
   * lost (left eventos.json undelivered, found in this run) and events that left it before any
   * notify saw them (`aviso`: counted by seq; only "possible" when the numbers cannot tell)
   */
  resumo: Array<{
    url: string;
    entregues: number;
    falhas: number;
    pendentes: number;
    ja_entregues: number;
    erro: string | null;
    perdidos: EventoRef[];
    aviso: string | null;
  }>;
  estado: EstadoEntregas;
  ok: boolean;
}

/** Whether a subscriber wants an event (its types, since `desde`). */
function quer(a: Assinante, e: EventoRef): boolean {
  return (a.eventos as readonly string[]).includes(e.tipo) && (a.desde === undefined || Date.parse(e.criado_em) >= Date.parse(a.desde));
}

function pendentesPara(a: Assinante, eventos: EventosFile, entregues: ReadonlySet<string>): Evento[] {
  return eventos.eventos
    .filter((e) => quer(a, e) && !entregues.has(e.id))
    .reverse(); // oldest first: a subscriber sees events in the order they happened
}

/**
 * Whether events left eventos.json unseen since the previous notify, which saw up to `visto`:
 * null when none did, else the warning, in pt-BR, starting with what it is ("perda de eventos"
 * when the numbers prove it, "possível perda de eventos" when they cannot tell).
 */
export function lacunaDesde(visto: EventoVisto | undefined, eventos: EventosFile): string | null {
  if (!visto) return null;
  const lista = eventos.eventos;
  const maisAntigo = lista.at(-1);
  const naLista = lista.find((e) => e.id === visto.id);
  // a state written before seq: the event, if still listed, has the list's number
  const seq = visto.seq ?? naLista?.seq;
  const desde = `o notify anterior viu até ${nomeEvento(visto)}${seq !== undefined ? `, seq ${seq}` : ""}`;
  const agora = maisAntigo ? `o mais antigo listado agora é ${nomeEvento(maisAntigo)}, seq ${maisAntigo.seq}` : "eventos.json está vazio";
  const refeita =
    `possível perda de eventos: ${desde}, mas ${agora}, e a numeração não continua a dele: eventos.json foi trocado ou voltou atrás; ` +
    "confira o histórico de api/v1/eventos.json no git";
  if (naLista) return seq === naLista.seq ? null : refeita;
  if (seq === undefined) {
    return (
      `possível perda de eventos: o evento mais novo que o notify anterior viu, ${nomeEvento(visto)}, já saiu de eventos.json` +
      (maisAntigo ? ` (o mais antigo listado agora é ${nomeEvento(maisAntigo)})` : "") +
      ": eventos criados entre os dois podem ter saído da lista sem passar por nenhuma entrega, e não há como saber quais" +
      " (o registro é anterior ao seq; o próximo notify já saberá)"
    );
  }
  if (!maisAntigo || maisAntigo.seq <= seq) return refeita;
  if (maisAntigo.seq === seq + 1) return null; // the list rolled past what was seen: nothing in between
  const n = maisAntigo.seq - seq - 1;
  const faixa = n === 1 ? `seq ${seq + 1}` : `seq ${seq + 1} a ${maisAntigo.seq - 1}`;
  return (
    `perda de eventos: ${n} evento(s) (${faixa}) saíram de eventos.json sem passar por nenhuma entrega ` +
    `(${desde}; ${agora}); quais eram, e se este assinante os queria, só o histórico de api/v1/eventos.json no git diz`
  );
}

/** "evt_… (price_changed de 28/09/2026 12:00)" */
function nomeEvento(e: EventoRef): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(e.criado_em);
  return `${e.id} (${e.tipo}${m ? ` de ${m[3]}/${m[2]}/${m[1]} ${m[4]}:${m[5]}` : ""})`;
}

type Entrega = { ok: boolean; status: number | null; motivo: string | null };

/**
 * One attempt, under one deadline for the whole exchange (connect, send, headers, reply body):
 * undici's own timeouts only watch for silence, and a receiver that trickles a byte at a time
 * never goes silent.
 *
 * Policy: the status line decides. A 2xx is the receiver's acknowledgement, so the event counts
 * as delivered even when its reply body is then cut by the deadline or by the cap (sending it
 * again would deliver the event twice). A deadline reached before the status is a failure, and
 * retried. The body is read only so that a short reply leaves the connection reusable: at most
 * RESPOSTA_MAX_BYTES of it, then the stream is cancelled, which closes the connection, so a
 * receiver answering gigabytes costs us 64 KiB and socket buffers.
 */
async function postar(
  dispatcher: Dispatcher,
  url: string,
  body: string,
  e: Evento,
  segredo: string,
  tentativa: number,
  timeoutMs: number,
): Promise<Attempt<Entrega>> {
  const prazo = new Deadline(timeoutMs);
  try {
    const res: Response = await send(url, {
      method: "POST",
      body,
      dispatcher,
      deadline: prazo,
      headers: {
        "content-type": "application/json; charset=utf-8",
        "user-agent": WEBHOOK_USER_AGENT,
        ...cabecalhosPadrao(body, e, segredo),
        [SIGNATURE_HEADER]: assinatura(body, segredo),
        "X-Cotacao-Evento": e.id,
        "X-Cotacao-Tipo": e.tipo,
        "X-Cotacao-Tentativa": String(tentativa),
      },
    });
    // read and dropped, up to the cap; a cut or failed reply body changes nothing: the status already said
    await readBody(res.body, RESPOSTA_MAX_BYTES, { keep: false });
    if (res.status >= 200 && res.status < 300) return { result: { ok: true, status: res.status, motivo: null }, retry: false };
    if (res.status >= 300 && res.status < 400) {
      return { result: { ok: false, status: res.status, motivo: `HTTP ${res.status}: redirecionamento não é seguido (cadastre a URL final)` }, retry: false };
    }
    const retry = retryableStatus(res.status);
    return {
      result: { ok: false, status: res.status, motivo: `HTTP ${res.status}` },
      retry,
      retryAfterMs: retry ? parseRetryAfter(res.headers.get("retry-after"), Date.now()) : null,
    };
  } catch (err) {
    const timeout = prazo.expired || (err as Error).name === "TimeoutError" || isUndiciTimeout(err) !== null;
    // undici's fetch wraps the socket's error: its cause says what happened ("connect ECONNREFUSED ...")
    const causa = (err as { cause?: { message?: string } }).cause;
    const motivo = timeout ? `sem resposta em ${timeoutMs} ms` : `falha de rede: ${causa?.message ?? describeError(err)}`;
    // a name that resolves to a private address (events/net.ts) will not change on a retry
    return { result: { ok: false, status: null, motivo }, retry: errorCode(err) !== "EADDRNOTPUBLIC" };
  } finally {
    prazo.clear();
  }
}

/**
 * Delivers every pending event to every subscriber. A subscriber whose delivery fails after all
 * attempts gets nothing more in this run (order is kept; the next run starts from there).
 */
export async function entregarEventos(
  eventos: EventosFile,
  assinantes: readonly Assinante[],
  estadoAnterior: EstadoEntregas,
  opts: OpcoesEntrega = {},
): Promise<RelatorioNotify> {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const tentativas = Math.max(1, opts.tentativas ?? 4);
  const backoffMs = opts.backoffMs ?? 2_000;
  const env = opts.env ?? process.env;
  const log = opts.log ?? (() => {});
  const idsAtuais = new Set(eventos.eventos.map((e) => e.id));
  // runs in between whose notify never happened may have pushed events out unseen: the seq of
  // the newest event the previous notify worked from against the oldest listed now says
  const lacuna = lacunaDesde(estadoAnterior.ultimo_evento, eventos);

  // bounded state: keep only subscribers still listed and ids still in eventos.json; what was
  // pending and is no longer listed is lost, and recorded
  const anterior = (a: Assinante) => estadoAnterior.assinantes.find((s) => s.url === a.url);
  const perdidosPor = new Map<string, EventoRef[]>();
  const estado: EstadoEntregas = {
    versao: 1,
    ...(eventos.eventos[0] ? { ultimo_evento: refVisto(eventos.eventos[0]) } : {}),
    assinantes: assinantes.map((a) => {
      const s = anterior(a);
      // only what the subscriber still wants (its entry in webhooks.json may have changed)
      const perdidos = (s?.pendentes ?? []).filter((p) => !idsAtuais.has(p.id) && quer(a, p));
      perdidosPor.set(a.url, perdidos);
      const registro: EstadoAssinante = { url: a.url, entregues: (s?.entregues ?? []).filter((id) => idsAtuais.has(id)) };
      // the queue as it stands, saved with every delivery: a run cut short still tells the next one
      registro.pendentes = pendentesPara(a, eventos, new Set(registro.entregues)).map(ref);
      const todos = [...(s?.perdidos ?? []), ...perdidos].slice(-PERDIDOS_MAX);
      if (todos.length > 0) registro.perdidos = todos;
      return registro;
    }),
  };
  const dispatcher = createDispatcher({
    connectTimeoutMs: timeoutMs,
    idleTimeoutMs: timeoutMs,
    ...(opts.permitirInseguro ? {} : { lookup: lookupPublico }),
  });
  // the one retry policy of io/http.ts: jittered exponential backoff, Retry-After up to a minute
  const politica = {
    retries: tentativas - 1,
    backoffBaseMs: backoffMs,
    backoffMaxMs: Math.max(backoffMs, 60_000),
    retryAfterMaxMs: 60_000,
    random: Math.random,
    sleep,
    now: Date.now,
  };
  const entregas: ResultadoEntrega[] = [];
  const resumo: RelatorioNotify["resumo"] = [];
  try {
    for (const a of assinantes) {
      const registro = estado.assinantes.find((s) => s.url === a.url)!;
      const entregues = new Set(registro.entregues);
      const ja = eventos.eventos.filter((e) => entregues.has(e.id)).length;
      const fila = pendentesPara(a, eventos, entregues);
      const perdidos = perdidosPor.get(a.url) ?? [];
      // a subscriber new in webhooks.json missed nothing before it was listed
      const aviso = lacuna && anterior(a) ? lacuna : null;
      const linha = { url: a.url, entregues: 0, falhas: 0, pendentes: 0, ja_entregues: ja, erro: null as string | null, perdidos, aviso };
      resumo.push(linha);
      if (perdidos.length > 0) {
        log(
          `${a.url}: ${perdidos.length} evento(s) PERDIDO(S): saíram de eventos.json sem ser entregues e não serão mais enviados: ` +
            `${perdidos.map(nomeEvento).join(", ")}; o assinante precisa buscá-los no histórico de api/v1/eventos.json`,
        );
      }
      if (aviso) log(`${a.url}: ${aviso}`);
      const recusa = motivoUrlRecusada(a.url, opts.permitirInseguro);
      const segredo = env[a.segredo_env];
      let problemaSegredo: string | null = segredo ? null : `variável de ambiente ${a.segredo_env} (segredo_env) não definida ou vazia`;
      if (segredo) {
        try {
          chaveDoSegredo(segredo);
        } catch (err) {
          problemaSegredo = `variável de ambiente ${a.segredo_env} (segredo_env): ${(err as Error).message}`;
        }
      }
      if (recusa || !segredo || problemaSegredo) {
        linha.erro = recusa ?? problemaSegredo;
        linha.pendentes = fila.length;
        log(`${a.url}: nada enviado: ${linha.erro}`);
        continue;
      }
      for (const [i, e] of fila.entries()) {
        const body = corpoDoEvento(e);
        const { result: r, attempts: n } = await withRetries((k) => postar(dispatcher, a.url, body, e, segredo, k, timeoutMs), politica, {
          onRetry: (k, espera, falha) => log(`${a.url}: ${e.id} tentativa ${k} falhou (${falha.motivo}); nova tentativa em ${espera} ms`),
        });
        entregas.push({ url: a.url, evento: e.id, tipo: e.tipo, ok: r.ok, tentativas: n, status: r.status, motivo: r.motivo });
        if (r.ok) {
          linha.entregues++;
          entregues.add(e.id);
          registro.entregues = eventos.eventos.filter((x) => entregues.has(x.id)).map((x) => x.id);
          registro.pendentes = fila.slice(i + 1).map(ref);
          if (opts.estadoFile) await saveEstado(opts.estadoFile, estado);
        } else {
          linha.falhas++;
          linha.pendentes = fila.length - i - 1;
          log(`${a.url}: ${e.id} (${e.tipo}) não entregue após ${n} tentativa(s): ${r.motivo}; ${linha.pendentes} evento(s) ficam para a próxima execução`);
          break;
        }
      }
    }
  } finally {
    await dispatcher.close();
  }
  if (opts.estadoFile) await saveEstado(opts.estadoFile, estado);
  return { entregas, resumo, estado, ok: resumo.every((l) => l.falhas === 0 && l.erro === null && l.perdidos.length === 0 && l.aviso === null) };
}

/** The report printed by `npm run notify`, in pt-BR. */
export function formatarRelatorio(r: RelatorioNotify): string[] {
  if (r.resumo.length === 0) return ["notify: nenhum assinante em webhooks.json"];
  const out = [`notify: ${r.resumo.length} assinante(s)`];
  for (const l of r.resumo) {
    const partes = [`${l.entregues} entregue(s) agora`, `${l.ja_entregues} já entregue(s) antes`];
    if (l.falhas) partes.push(`${l.falhas} falha(s)`);
    if (l.pendentes) partes.push(`${l.pendentes} pendente(s)`);
    if (l.perdidos.length) partes.push(`${l.perdidos.length} PERDIDO(S)`);
    out.push(`  ${l.url}: ${partes.join(", ")}${l.erro ? ` — ERRO: ${l.erro}` : ""}`);
    if (l.perdidos.length) {
      out.push(`    perdido(s), saíram de eventos.json sem ser entregues: ${l.perdidos.map(nomeEvento).join(", ")}`);
    }
    if (l.aviso) out.push(`    AVISO, ${l.aviso}`);
    for (const e of r.entregas.filter((x) => x.url === l.url && !x.ok)) {
      out.push(`    ${e.evento} (${e.tipo}): ${e.motivo} após ${e.tentativas} tentativa(s)`);
    }
  }
  return out;
}
