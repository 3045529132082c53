import { agregadosUf, PRODUTOS, type Produto } from "../domain/products.ts";
import { ALL_UFS, normalizeUF, type UF } from "../domain/ufs.ts";
import type { AggregateFile, HistoricoEntry, IndexFile, SerieFile } from "../domain/publicados.ts";
import { referenciaDaSerie, simular, validarEntrada, CAMPOS_SIMULADOR, SimulacaoForaDoLimite, type PrecoReferencia } from "../simulator/simulator.ts";
import type { FileCache, FileEntry } from "./files.ts";

/** A refused request: HTTP status, stable code, Portuguese message and any detail. */
export class ApiError extends Error {
  constructor(
    readonly status: 400 | 401 | 404 | 405 | 414 | 429 | 431 | 500 | 503,
    readonly erro: string,
    readonly mensagem: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(mensagem);
    this.name = "ApiError";
  }

  body(): Record<string, unknown> {
    return { erro: this.erro, mensagem: this.mensagem, ...this.extra };
  }
}

const MAX_QUERY = 1024;
const MAX_PARAMS = 16;

/** A query string, read: the known parameters, and the names of the unknown ones (ignored). */
export interface Consulta {
  q: Record<string, string>;
  ignorados: string[];
}

/**
 * The query string, read strictly where it matters: every key and value percent-decoded once (a
 * bad escape or invalid UTF-8 is refused instead of silently becoming U+FFFD), no repeated known
 * keys (a known key in any case is that key), no control characters, bounded length and count.
 * Unknown keys are ignored, not refused:
 * the original service ignored them, and its clients send cache busters (`_=1732300000`) and
 * harmless extras (`cidade=Maringá`); the answer names them in a header.
 */
export function parseQuery(rawQuery: string, allowed: readonly string[]): Consulta {
  if (rawQuery.length > MAX_QUERY) {
    throw new ApiError(414, "consulta_longa", `a consulta tem ${rawQuery.length} caracteres; o máximo é ${MAX_QUERY}`);
  }
  const out: Record<string, string> = {};
  const ignorados: string[] = [];
  const parts = rawQuery.split("&").filter((p) => p !== "");
  if (parts.length > MAX_PARAMS) {
    throw new ApiError(400, "parametros_demais", `a consulta tem ${parts.length} parâmetros; o máximo é ${MAX_PARAMS}`);
  }
  for (const part of parts) {
    const eq = part.indexOf("=");
    const rawKey = eq < 0 ? part : part.slice(0, eq);
    const rawValue = eq < 0 ? "" : part.slice(eq + 1);
    let key: string;
    let value: string;
    try {
      key = decodeURIComponent(rawKey.replace(/\+/g, " "));
      value = decodeURIComponent(rawValue.replace(/\+/g, " "));
    } catch {
      throw new ApiError(400, "codificacao_invalida", `o parâmetro "${rawKey.slice(0, 40)}" tem codificação percentual inválida ou UTF-8 inválido`);
    }
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(key + value)) {
      throw new ApiError(400, "caractere_invalido", `o parâmetro "${key.slice(0, 40)}" contém caracteres de controle`);
    }
    // a known name in another case (`UF=MT` from a form) is that parameter: ignored, it answered
    // another state's price (the national one) under a request for MT
    const minusculo = key.toLowerCase();
    if (minusculo !== key && allowed.includes(minusculo)) key = minusculo;
    if (!allowed.includes(key)) {
      const nome = key.slice(0, 40);
      if (!ignorados.includes(nome)) ignorados.push(nome);
      continue;
    }
    if (key in out) {
      throw new ApiError(400, "parametro_repetido", `o parâmetro "${key}" aparece mais de uma vez; informe-o uma só vez`);
    }
    out[key] = value;
  }
  return { q: out, ignorados };
}

/** The header that names ignored parameters: ASCII, comma-separated, each name percent-encoded. */
export function cabecalhoIgnorados(ignorados: readonly string[]): string {
  return ignorados.map((k) => encodeURIComponent(k)).join(",");
}

function lerProduto(value: string | undefined, obrigatorio: boolean): Produto | null {
  if (value === undefined || value.trim() === "") {
    if (obrigatorio) {
      throw new ApiError(400, "parametro_obrigatorio", `informe o produto; válidos: ${PRODUTOS.join(", ")}`, { validos: PRODUTOS });
    }
    return null;
  }
  const p = value.trim().toLowerCase();
  if (!(PRODUTOS as readonly string[]).includes(p)) {
    throw new ApiError(400, "produto_invalido", `produto "${value.slice(0, 40)}" não existe; válidos: ${PRODUTOS.join(", ")}`, { validos: PRODUTOS });
  }
  return p as Produto;
}

function lerUF(value: string | undefined): UF | null {
  if (value === undefined || value.trim() === "") return null;
  const uf = normalizeUF(value);
  if (!uf) {
    throw new ApiError(400, "uf_invalida", `uf "${value.slice(0, 40)}" não é uma sigla de estado; válidas: ${ALL_UFS.join(", ")}`, { validos: ALL_UFS });
  }
  return uf;
}

function lerData(value: string | undefined, campo: string): string | null {
  if (value === undefined || value.trim() === "") return null;
  const v = value.trim();
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  const d = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
  if (!m || !d || d.toISOString().slice(0, 10) !== v) {
    throw new ApiError(400, "data_invalida", `${campo} "${v.slice(0, 40)}" não é uma data válida; use AAAA-MM-DD (ex.: 2026-09-04)`);
  }
  return v;
}

async function index(files: FileCache): Promise<IndexFile> {
  const r = await files.json<IndexFile>("api/v1/index.json");
  if (!r) throw new ApiError(503, "sem_dados", "o site ainda não foi gerado (api/v1/index.json não existe); rode npm run build");
  return r.doc;
}

/**
 * The series of produto at uf: the state series `produto/uf` when there is one, else the national
 * series when it is quoted at that UF (its published `uf`: CEPEA's bezerro is MS, so
 * `produto=bezerro&uf=MS` is it), else a 404 that lists the UFs that have that product.
 */
/**
 * The series of a product (and UF); `emLugarDe`: the national series answered for a UF that has
 * no series of its own, an answer that stands only until that file is published (never kept
 * ready, as it depends on a file that does not exist yet).
 */
async function serie(files: FileCache, produto: Produto, uf: UF | null): Promise<{ doc: SerieFile; entry: FileEntry; id: string; emLugarDe?: true }> {
  const id = uf ? `${produto}/${uf}` : produto;
  const r = await files.json<SerieFile>(`api/v1/cotacao/${id}.json`);
  if (r) return { ...r, id };
  const nacional = uf ? await files.json<SerieFile>(`api/v1/cotacao/${produto}.json`) : null;
  if (nacional && nacional.doc.uf === uf) return { ...nacional, id: produto, emLugarDe: true };
  const idx = await index(files);
  const ufs = [
    ...new Set([
      ...(nacional?.doc.uf ? [nacional.doc.uf] : []),
      ...idx.series.filter((s) => s.produto === produto && s.id.includes("/")).map((s) => s.id.slice(s.id.indexOf("/") + 1)),
    ]),
  ].sort();
  if (uf) {
    throw new ApiError(
      404,
      "serie_inexistente",
      ufs.length
        ? `não há série de ${produto} para ${uf}; UFs com série de ${produto}: ${ufs.join(", ")}`
        : `não há série de ${produto} por UF; use só produto=${produto} (referência nacional)`,
      { ufs_disponiveis: ufs },
    );
  }
  throw new ApiError(404, "sem_dados", `ainda não há dados publicados de ${produto}`);
}

/**
 * A query's answer: the data and the one published file it was derived from, if any. The same
 * query over the same file gives the same data, so the server may keep the answer ready until
 * that file changes.
 */
export interface Answer {
  data: object;
  source?: FileEntry;
  /** response headers that explain the answer (ASCII values), such as X-Cotacao-Aviso */
  headers?: Record<string, string>;
}

/** Why an answer is not quite what was asked, in ASCII ("sem-serie-estadual; uf=PI"). */
export const AVISO = "X-Cotacao-Aviso";

/** GET /api/v1/cotacao: the aggregate, the aggregate with a UF, or a single quotation. */
export async function cotacao(files: FileCache, q: Record<string, string>): Promise<Answer> {
  const produto = lerProduto(q.produto, false);
  const uf = lerUF(q.uf);
  if (produto) {
    const { doc, entry, emLugarDe } = await serie(files, produto, uf);
    const { historico: _h, ...rest } = doc;
    return { data: rest, ...(emLugarDe ? {} : { source: entry }) };
  }
  if (uf) {
    const r = await files.json<AggregateFile>(`api/v1/cotacao/uf/${uf}.json`);
    if (r) return { data: r.doc, source: r.entry };
    // a valid UF without state series: the original answered the aggregate with null state
    // quotes, and its clients rely on it (one falls back to the national price)
    // not kept ready: it stands only until cotacao/uf/{UF}.json is published
    const n = await nacionalAgregado(files);
    return { data: comUfsNulas(n.doc), headers: { [AVISO]: `sem-serie-estadual; uf=${uf}` } };
  }
  const r = await nacionalAgregado(files);
  return { data: r.doc, source: r.entry };
}

async function nacionalAgregado(files: FileCache): Promise<{ doc: AggregateFile; entry: FileEntry }> {
  const r = await files.json<AggregateFile>("api/v1/cotacao.json");
  if (!r) throw new ApiError(503, "sem_dados", "o site ainda não foi gerado (api/v1/cotacao.json não existe); rode npm run build");
  return r;
}

/** cotacao.json with every state quote null, where cotacao/uf/{UF}.json has them (before atualizado). */
function comUfsNulas(doc: AggregateFile): AggregateFile {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(doc)) {
    if (k === "atualizado") for (const a of agregadosUf()) out[a.chave] = null;
    out[k] = v;
  }
  return out as unknown as AggregateFile;
}
export const COTACAO_PARAMS = ["uf", "produto"] as const;

/** GET /api/v1/historico: a slice [de, ate] of one series' history, oldest first. */
export async function historico(files: FileCache, q: Record<string, string>): Promise<Answer> {
  const produto = lerProduto(q.produto, true)!;
  const uf = lerUF(q.uf);
  const de = lerData(q.de, "de");
  const ate = lerData(q.ate, "ate");
  if (de && ate && de > ate) {
    throw new ApiError(400, "intervalo_invalido", `de (${de}) é depois de ate (${ate})`);
  }
  const { doc: f, entry, emLugarDe } = await serie(files, produto, uf);
  const fatia: HistoricoEntry[] = f.historico.filter((h) => (!de || h.data >= de) && (!ate || h.data <= ate));
  const data = {
    produto: f.produto,
    nome: f.nome,
    uf: f.uf,
    regiao: f.regiao,
    ...(f.praca !== undefined ? { praca: f.praca } : {}),
    moeda: f.moeda,
    unidade: f.unidade,
    fonte: f.fonte,
    de,
    ate,
    primeira_data: fatia[0]?.data ?? null,
    ultima_data: fatia[fatia.length - 1]?.data ?? null,
    pontos: fatia.length,
    historico: fatia,
    proveniencia: f.proveniencia,
    license: f.license,
    api_version: "v1",
  };
  return { data, ...(emLugarDe ? {} : { source: entry }) };
}
export const HISTORICO_PARAMS = ["produto", "uf", "de", "ate"] as const;

/** GET /api/v1/simulador: validates with the shared simulator module, prices from the series. */
export async function simulador(files: FileCache, q: Record<string, string>, ctx: { hoje?: string } = {}): Promise<Answer> {
  const v = validarEntrada(q);
  if (!v.ok) {
    throw new ApiError(400, "entrada_invalida", v.erros.map((e) => e.mensagem).join("; "), { erros: v.erros });
  }
  const e = v.entrada;
  let preco: PrecoReferencia | null = null;
  let s: Awaited<ReturnType<typeof serie>> | null = null;
  try {
    s = await serie(files, e.produto, e.uf);
  } catch (err) {
    // a price typed by the user does not need a published series
    if (!(err instanceof ApiError && err.status === 404 && e.precoCentavos !== null)) throw err;
  }
  if (s) {
    // the series that answered: the national one when it is quoted at the asked UF (milho&uf=SP)
    preco = referenciaDaSerie(s.doc, s.id);
  }
  let data;
  try {
    data = simular(e, preco, ctx.hoje ? { hoje: ctx.hoje } : {});
  } catch (err) {
    // a published price so large the figures would not be exact to the centavo: an input limit
    if (err instanceof SimulacaoForaDoLimite) throw new ApiError(400, "entrada_invalida", err.message, { erros: err.erros });
    throw err;
  }
  // without a series the answer still depends on which series exist: not kept ready
  return { data, ...(s && !s.emLugarDe ? { source: s.entry } : {}) };
}
export const SIMULADOR_PARAMS = CAMPOS_SIMULADOR;
