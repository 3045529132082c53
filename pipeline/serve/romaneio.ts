import type { ArquivoLido, ComparacaoRomaneio, LeituraRomaneio, Romaneio, Serie } from "../domain/publicados.gerados.ts";
import type { QuotaCheck } from "./quota.ts";
import type { FileCache } from "./files.ts";
import { dimensoesDaImagem, PIXELS_MAXIMOS_IMAGEM, tipoDoArquivo } from "../romaneio/ocr-comum.ts";
import { compararRomaneio, seriesDoRomaneio } from "../romaneio/comparar.ts";
import { lerRomaneio, type TextoLido } from "../romaneio/ler.ts";
// a type only: the engine (tesseract.js) is loaded by whoever creates it (./cluster.ts), not by the app
import type { LeitorOcr } from "../romaneio/ocr.ts";

/**
 * POST /api/v1/romaneio (beta): a sale receipt (image or PDF) read by OCR, its fields checked and
 * compared with the published reference of the day. Access only with a key listed in
 * COTACAO_ROMANEIO_KEYS, each with its own daily quota of readings, counted in the server's
 * QuotaStore under ids of their own (`romaneio:<sha-256 of the key>`) against the romaneio limit
 * (passed with each call, so the store's key limit plays no part), so a reading never costs a
 * query and a query never costs a reading. A unit is reserved just before the engine is asked and
 * given back (QuotaStore.refund) only when the engine did no work on the file (`devolveUnidade`):
 * otherwise a key could send files that take the whole time limit, or fail late, forever and free.
 * What can be refused without decoding (size, type, an image's header and pixel count) is refused
 * before the unit is reserved. A key has at most `simultaneas` readings in flight per process.
 *
 * Privacy: the upload lives only in this process's memory (read with a cap, never buffered past
 * it, never written to a file); no message built here quotes the file, its name or its text, and
 * the server's failure log names only the request line.
 */

export type TipoArquivo = Exclude<ArquivoLido["tipo"], "text/plain">;
export const TIPOS_ACEITOS: readonly TipoArquivo[] = ["image/png", "image/jpeg", "image/webp", "application/pdf"];

/** The engine (../romaneio/ocr.ts criarLeitorOcr): injectable, so tests pass a fake. */
export type Leitor = LeitorOcr;
export type ResultadoLeitor = Awaited<ReturnType<LeitorOcr["ler"]>>;

/** The pure steps after the OCR (../romaneio/ler.ts and comparar.ts). */
export interface Etapas {
  ler(t: TextoLido): LeituraRomaneio;
  series(l: LeituraRomaneio): { estadual: string | null; nacional: string | null };
  comparar(l: LeituraRomaneio, series: { estadual: Serie | null; nacional: Serie | null }, opts?: { hoje?: string }): ComparacaoRomaneio;
}
export const ETAPAS: Etapas = { ler: lerRomaneio, series: seriesDoRomaneio, comparar: compararRomaneio };

export interface OpcoesRomaneio {
  /** keys allowed to read receipts (plain text); they are also valid keys for the query routes */
  chaves: Iterable<string>;
  leitor: Leitor;
  /** default: the real reading and comparison (tests may replace them) */
  etapas?: Etapas;
  /** readings a day per key (default 50) */
  cotaDiaria?: number;
  /** the largest request body accepted, in bytes (default 10 MB) */
  maxBytes?: number;
  /** the engine's time limit, in seconds, as the 504's message names it (default 60) */
  tempoS?: number;
  /** readings in flight at once per key in this process, upload included (default 2); past it, 429 */
  simultaneas?: number;
}

export const COTA_ROMANEIO_PADRAO = 50;
export const MAX_MB_PADRAO = 10;
export const TEMPO_S_PADRAO = 60;
/** seconds a client is told to wait when every OCR worker is busy and the queue is full */
export const RETRY_OCUPADO = 5;
export const SIMULTANEAS_PADRAO = 2;
/** seconds a key with all its readings in flight is told to wait */
export const RETRY_SIMULTANEAS = 5;
/**
 * Parts of a multipart body: a browser's form sends one or two. Past it the body is refused while
 * it is scanned, before any part is copied.
 */
export const PARTES_MAXIMAS = 16;

/** A JSON error of this route (its statuses are not the query routes'). */
export class ErroHttp extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 405 | 413 | 415 | 422 | 429 | 503 | 504,
    readonly erro: string,
    readonly mensagem: string,
    readonly extra: Record<string, unknown> = {},
    /** Retry-After, when the client should come back later */
    readonly retryAfter?: number,
    /** close the connection after answering (a body past the cap is not read to its end) */
    readonly fechar = false,
  ) {
    super(mensagem);
    this.name = "ErroHttp";
  }

  body(): Record<string, unknown> {
    return { erro: this.erro, mensagem: this.mensagem, ...this.extra };
  }
}

function mediaType(contentType: string | undefined): string {
  return (contentType ?? "").split(";")[0]!.trim().toLowerCase();
}

const mb = (bytes: number) => `${Math.round((bytes / 1048576) * 100) / 100} MB`;

function grandeDemais(max: number): ErroHttp {
  return new ErroHttp(413, "arquivo_grande_demais", `o arquivo passa do limite de ${mb(max)} por requisição (COTACAO_ROMANEIO_MAX_MB)`, { limite_bytes: max }, undefined, true);
}

function tipoNaoAceito(motivo: string): ErroHttp {
  return new ErroHttp(415, "tipo_nao_aceito", `${motivo}; envie PNG, JPEG, WebP ou PDF, como corpo com o Content-Type do arquivo ou como campo "arquivo" de multipart/form-data`, {
    aceitos: [...TIPOS_ACEITOS],
  });
}

/**
 * The request body, up to `max` bytes. Content-Length is checked first; a body without it
 * (chunked) is counted as it arrives and refused once past the cap, without reading the rest
 * (the answer closes the connection).
 */
export async function lerCorpo(req: Request, contentLength: string | undefined, max: number): Promise<Uint8Array> {
  if (contentLength !== undefined && /^\d+$/.test(contentLength.trim()) && Number(contentLength) > max) throw grandeDemais(max);
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  const partes: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let lido: ReadableStreamReadResult<Uint8Array>;
    try {
      lido = await reader.read();
    } catch {
      // the client went away or the server cut a body too slow to arrive (408, already answered):
      // no one is left to read this answer, and it is not the server's failure (nothing to log)
      throw new ErroHttp(400, "envio_interrompido", "o envio do arquivo foi interrompido antes do fim (conexão fechada ou tempo de envio esgotado)", {}, undefined, true);
    }
    const { done, value } = lido;
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      // not cancel(): on Node that destroys the socket before the 413 is written
      reader.releaseLock();
      partes.length = 0;
      throw grandeDemais(max);
    }
    partes.push(value);
  }
  if (partes.length === 1) return partes[0]!;
  const out = new Uint8Array(total);
  let o = 0;
  for (const p of partes) {
    out.set(p, o);
    o += p.byteLength;
  }
  return out;
}

const multipartInvalido = (motivo: string) =>
  new ErroHttp(400, "multipart_invalido", `o corpo multipart/form-data não pôde ser lido (${motivo})`);

/** multipart's boundary parameter (RFC 2046: 1 to 70 characters, maybe quoted) */
function boundaryDe(contentType: string): string | null {
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^;\s"]{1,70}))/i.exec(contentType);
  return m ? (m[1] ?? m[2])! : null;
}

/**
 * The field `arquivo` of a multipart/form-data body, as a view into the body (no copy): a scan
 * with the native indexOf, at most PARTES_MAXIMAS parts. A field without a filename is a text
 * field, not a file (as FormData reads it). `tipo` is the part's Content-Type ("" without one).
 */
export function campoArquivo(corpo: Uint8Array, contentType: string): { bytes: Uint8Array; tipo: string } {
  const boundary = boundaryDe(contentType);
  if (!boundary) throw multipartInvalido("sem o parâmetro boundary no Content-Type");
  const buf = Buffer.from(corpo.buffer, corpo.byteOffset, corpo.byteLength);
  const delimitador = Buffer.from(`--${boundary}`, "latin1");
  // every delimiter after the first is preceded by CRLF (the CRLF belongs to the delimiter)
  const separador = Buffer.from(`\r\n--${boundary}`, "latin1");
  let i = buf.indexOf(delimitador);
  if (i < 0) throw multipartInvalido("boundary não encontrado no corpo");
  if (i > 0) {
    // a preamble: the first delimiter must start a line
    i = buf.indexOf(separador);
    if (i < 0) throw multipartInvalido("boundary não encontrado no início de uma linha");
    i += 2;
  }
  let partes = 0;
  let arquivo: { bytes: Uint8Array; tipo: string } | null = null;
  let semNome = false;
  for (;;) {
    let p = i + delimitador.length;
    if (buf[p] === 0x2d && buf[p + 1] === 0x2d) break; // the close delimiter
    while (buf[p] === 0x20 || buf[p] === 0x09) p++; // transport padding
    if (buf[p] !== 0x0d || buf[p + 1] !== 0x0a) throw multipartInvalido("delimitador sem quebra de linha");
    p += 2;
    if (++partes > PARTES_MAXIMAS) {
      throw new ErroHttp(400, "multipart_partes_demais", `o corpo multipart/form-data tem mais de ${PARTES_MAXIMAS} partes; envie só o campo "arquivo"`, { partes_maximas: PARTES_MAXIMAS });
    }
    let inicio: number;
    let cabecalhos = "";
    if (buf[p] === 0x0d && buf[p + 1] === 0x0a) inicio = p + 2;
    else {
      const fim = buf.indexOf("\r\n\r\n", p, "latin1");
      if (fim < 0 || fim - p > 16 * 1024) throw multipartInvalido("cabeçalhos de uma parte sem fim");
      cabecalhos = buf.toString("utf8", p, fim);
      inicio = fim + 4;
    }
    const proximo = buf.indexOf(separador, inicio);
    if (proximo < 0) throw multipartInvalido("uma parte sem o delimitador que a fecha");
    if (!arquivo) {
      const disposicao = /^content-disposition:([^\r\n]*)/im.exec(cabecalhos)?.[1] ?? "";
      const nome = /(?:^|;)\s*name\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(disposicao);
      if (nome && (nome[1] ?? nome[2]) === "arquivo") {
        if (/(?:^|;)\s*filename\*?\s*=/i.test(disposicao)) {
          const tipo = (/^content-type:([^\r\n]*)/im.exec(cabecalhos)?.[1] ?? "").trim();
          arquivo = { bytes: corpo.subarray(inicio, proximo), tipo };
        } else semNome = true;
      }
    }
    i = proximo + 2;
  }
  if (!arquivo) {
    throw new ErroHttp(400, "campo_ausente", semNome ? 'o campo "arquivo" do multipart/form-data é texto, não um arquivo' : 'falta o campo "arquivo" (um arquivo) no multipart/form-data');
  }
  return arquivo;
}

/**
 * What can be refused of an image without decoding it: a header that gives no size, and a size
 * past the engine's pixel cap (the same constant and reason as the engine's own check). Done here,
 * before the quota unit is reserved, so such a refusal costs nothing and needs no refund.
 */
export function conferirImagem(bytes: Uint8Array, tipo: TipoArquivo): void {
  if (tipo === "application/pdf") return;
  const dim = dimensoesDaImagem(bytes);
  if (!dim) throw new ErroHttp(422, "arquivo_invalido", "a imagem está corrompida ou incompleta (cabeçalho ilegível)");
  if (dim.largura * dim.altura > PIXELS_MAXIMOS_IMAGEM) {
    throw new ErroHttp(
      422,
      "imagem_grande_demais",
      `a imagem é grande demais (${dim.largura} × ${dim.altura} pixels; o máximo é ${PIXELS_MAXIMOS_IMAGEM / 1e6} megapixels); reduza a resolução e envie de novo`,
      { largura: dim.largura, altura: dim.altura, pixels_maximos: PIXELS_MAXIMOS_IMAGEM },
    );
  }
}

/**
 * The file of a request: the raw body with its own Content-Type, or multipart's field `arquivo`;
 * its type checked by its bytes, an image's header and size checked (conferirImagem).
 */
export async function arquivoDaRequisicao(req: Request, contentType: string | undefined, contentLength: string | undefined, max: number): Promise<{ bytes: Uint8Array; tipo: TipoArquivo }> {
  const declarado = mediaType(contentType);
  if (!declarado) throw tipoNaoAceito("falta o Content-Type");
  const multipart = declarado === "multipart/form-data";
  if (!multipart && !(TIPOS_ACEITOS as readonly string[]).includes(declarado)) throw tipoNaoAceito(`Content-Type ${declarado.slice(0, 60)} não é aceito`);
  const corpo = await lerCorpo(req, contentLength, max);
  if (corpo.byteLength === 0) throw new ErroHttp(400, "corpo_vazio", "o corpo da requisição está vazio; envie o arquivo do romaneio");
  let bytes = corpo;
  let tipoParte = declarado;
  if (multipart) {
    const campo = campoArquivo(corpo, contentType!);
    bytes = campo.bytes;
    if (bytes.byteLength === 0) throw new ErroHttp(400, "corpo_vazio", 'o campo "arquivo" está vazio; envie o arquivo do romaneio');
    tipoParte = mediaType(campo.tipo);
    // a form without the part's type (or with the generic one) is judged by the bytes alone
    if (tipoParte === "" || tipoParte === "application/octet-stream") tipoParte = "";
    else if (!(TIPOS_ACEITOS as readonly string[]).includes(tipoParte)) throw tipoNaoAceito(`o campo "arquivo" é ${tipoParte.slice(0, 60)}`);
  }
  const real = tipoDoArquivo(bytes);
  if (!real) throw tipoNaoAceito("o conteúdo não é PNG, JPEG, WebP nem PDF");
  if (tipoParte && tipoParte !== real) throw tipoNaoAceito(`o conteúdo é ${real}, mas foi declarado como ${tipoParte}`);
  conferirImagem(bytes, real);
  return { bytes, tipo: real };
}

const CODIGOS_OCR = new Set(["tempo_esgotado", "arquivo_invalido", "ocupado", "pdf_invalido", "indisponivel"]);
/** seconds a client waits when this server's OCR engine could not start */
const RETRY_INDISPONIVEL = 60;

/** The engine's own reason ("a imagem é grande demais (…)"): it names the file's shape, never its content. */
function motivoDoLeitor(err: unknown): string | null {
  const m = (err as { motivo?: unknown }).motivo;
  return typeof m === "string" && m.length > 0 && m.length <= 300 ? m : null;
}

/** An engine failure (ErroOcr of ../romaneio/ocr.ts) as this route's JSON error; anything else is rethrown (500). */
export function erroDoLeitor(err: unknown, tempoS: number): unknown {
  const codigo = (err as { codigo?: unknown } | null)?.codigo;
  if (typeof codigo !== "string" || !CODIGOS_OCR.has(codigo)) return err;
  switch (codigo) {
    case "tempo_esgotado":
      return new ErroHttp(504, "tempo_esgotado", `a leitura passou do tempo limite de ${tempoS} s (COTACAO_ROMANEIO_TEMPO_S); tente uma imagem menor ou com menos páginas`);
    case "ocupado":
      return new ErroHttp(503, "ocupado", `todos os leitores estão ocupados e a fila está cheia; tente de novo em ${RETRY_OCUPADO} s`, {}, RETRY_OCUPADO);
    case "indisponivel": {
      // the operator must hear it: the cause is the engine's (its data or WebAssembly), never the file's
      const causa = (err as { cause?: unknown }).cause;
      console.error(`[romaneio] o motor de OCR não iniciou: ${causa instanceof Error ? causa.message.slice(0, 300) : String(causa).slice(0, 300)}`);
      return new ErroHttp(503, "ocr_indisponivel", `o leitor de OCR deste servidor não está funcionando; tente de novo em ${RETRY_INDISPONIVEL} s (a cota não foi usada)`, {}, RETRY_INDISPONIVEL);
    }
    case "pdf_invalido":
      return new ErroHttp(422, "pdf_invalido", motivoDoLeitor(err) ?? "o PDF não pôde ser lido (corrompido, truncado, sem páginas ou protegido)");
    default:
      return new ErroHttp(422, "arquivo_invalido", motivoDoLeitor(err) ?? "a imagem não pôde ser lida (corrompida ou truncada)");
  }
}

/**
 * The charge rule: whether a reading that failed after its unit was reserved gets the unit back.
 * Only when the engine did no work on the file: `ocupado` (every worker busy and the queue full,
 * or the engine closing), which the engine answers before it decodes or parses anything, PDFs
 * included (it takes a worker's slot first), and `ocr_indisponivel` (its Tesseract thread could not
 * start: the server's fault). Everything else is charged: a 504 is a whole time
 * limit of a worker, a 422 from the engine comes from decoding or parsing, and a 500 may come after
 * a full OCR (and a file that makes it happen would otherwise read for free, again and again).
 * What can be refused without decoding is refused before the unit is reserved (conferirImagem).
 */
export function devolveUnidade(err: unknown): boolean {
  return err instanceof ErroHttp && err.status === 503 && (err.erro === "ocupado" || err.erro === "ocr_indisponivel");
}

export function simultaneasDemais(max: number): ErroHttp {
  return new ErroHttp(
    429,
    "leituras_simultaneas",
    `esta chave já tem ${max} leitura(s) de romaneio em andamento (COTACAO_ROMANEIO_SIMULTANEAS); espere uma terminar e tente de novo em ${RETRY_SIMULTANEAS} s; a cota diária não foi usada`,
    { simultaneas: max },
    RETRY_SIMULTANEAS,
  );
}

export const idRomaneio = (hashDaChave: string) => `romaneio:${hashDaChave}`;

export function limiteRomaneio(q: QuotaCheck): ErroHttp {
  return new ErroHttp(429, "limite_excedido", `limite de ${q.limit} leituras de romaneio por dia atingido; renova às 00:00 UTC (em ${q.retryAfter} s); as consultas da chave não são afetadas`, {
    limite: q.limit,
    renova_em: new Date(q.reset * 1000).toISOString(),
  }, q.retryAfter);
}

/**
 * The work of one request once its key may read: the file, the OCR, the reading, the comparison
 * with the series of that day from the served tree.
 */
export async function lerEComparar(
  o: { leitor: Leitor; etapas: Etapas; files: FileCache; hoje: string; tempoS: number },
  arquivo: { bytes: Uint8Array; tipo: TipoArquivo },
): Promise<Omit<Romaneio, "rate_limit">> {
  let r: ResultadoLeitor;
  try {
    r = await o.leitor.ler(arquivo.bytes, arquivo.tipo);
  } catch (err) {
    throw erroDoLeitor(err, o.tempoS);
  }
  const leitura = o.etapas.ler({ texto: r.texto, origem: r.origem, ...(r.palavras ? { palavras: r.palavras } : {}) });
  const ids = o.etapas.series(leitura);
  // an id is a catalogue name and maybe a UF; anything else never becomes a path
  const serie = async (id: string | null) =>
    id && /^[a-z0-9_]+(\/[A-Z]{2})?$/.test(id) ? await o.files.json<Serie>(`api/v1/cotacao/${id}.json`) : null;
  // both references of one publish: a new version of one of them handed out while the other came
  // from the cache (a publish) leaves the other stale, and the comparison would set the state's
  // price of one publish beside the national one of another
  let lidas = await Promise.all([serie(ids.estadual), serie(ids.nacional)]);
  for (let vez = 0; vez < 4 && lidas.some((l) => l && !o.files.isFresh(l.entry)); vez++) {
    lidas = await Promise.all([serie(ids.estadual), serie(ids.nacional)]);
  }
  const [estadual, nacional] = lidas.map((l) => l?.doc ?? null) as [Serie | null, Serie | null];
  const comparacao = o.etapas.comparar(leitura, { estadual, nacional }, { hoje: o.hoje });
  return {
    leitura,
    comparacao,
    arquivo: { tipo: r.tipo, paginas: r.paginas, origem: r.origem, segundos: Math.round(r.segundos * 100) / 100 },
  };
}

