// The hand-written half of public/api/v1/client.d.ts: the declarations of client.js's own
// functions and constants (pipeline/openapi/client.template.js). `npm run gerar` writes
// client.d.ts as the part below the marker line followed by the types of the published files,
// generated from schemas/; the import above the marker only lets tsc check this part against them.
import type { Cotacao, CotacaoPraca, CotacaoUf, Data, Eventos, HistoricoEntrada, Index, Produto, Serie, Status, Uf } from "../domain/publicados.gerados.ts";
// ---- client.d.ts ----
/** Two-letter state code, e.g. "MS". */
export type UF = Uf;
/** YYYY-MM-DD */
export type Dia = Data;
/** One day of a series (historico[i]). */
export type HistoricoEntry = HistoricoEntrada;
/** A state's reference praça in cotacao/uf/{UF}.json. */
export type UfQuote = CotacaoUf;
/** One praça of a state series on its latest day. */
export type PracaQuote = CotacaoPraca;

export declare const PRODUTOS: readonly Produto[];
export declare const DEFAULT_MIRRORS: readonly string[];
export declare const DEFAULT_TIMEOUT_MS: number;

/** Said through `onAviso` when a mirror (a fallback, or the first one's CDN edge) answered with older data than this client had already received. */
export interface Aviso {
  tipo: "defasado";
  /** the URL that answered */
  url: string;
  /** `atualizado` of what it answered */
  atualizado: string | null;
  /** the newest `atualizado` received before for the same file */
  anterior: string | null;
  /** what the mirrors before it answered */
  tentativas: Array<{ url: string; motivo: string }>;
}

export interface ClientOptions {
  /** site roots tried in order; default GitHub Pages, then jsDelivr */
  mirrors?: readonly string[];
  /** per mirror, whole request; default 8000 */
  timeoutMs?: number;
  /** default globalThis.fetch */
  fetch?: typeof fetch;
  /** called when a mirror's file is older than one this client already received (the result also says `defasado: true`) */
  onAviso?: (aviso: Aviso) => void;
}

/**
 * Where a document came from: non-enumerable properties of every result (JSON.stringify and deep
 * equality see only the published fields).
 */
export interface Origem {
  /** the mirror root that answered */
  readonly origem: string;
  /** its position in `mirrors` (0 = the first: GitHub Pages by default) */
  readonly espelho: number;
  /** true when a mirror (a fallback, or the first one's CDN edge) answered with an `atualizado` older than this client had already received for the same file */
  readonly defasado: boolean;
}

export interface Intervalo {
  de?: Dia;
  ate?: Dia;
}

/** A state code as the client accepts it ("MS" or "ms"); anything else is rejected when called. */
export type UFArg = UF | Lowercase<UF> | (string & {});

export interface CotacaoClient {
  readonly mirrors: readonly string[];
  /** the aggregate; with `uf`, plus that state's boi and vaca gorda */
  cotacao(opts?: { uf?: UFArg }): Promise<Cotacao & Origem>;
  /** one series (national, or of a state), with its whole history; a national series also answers for its own UF (the `uf` of its file) when that state has no file of its own */
  serie(produto: Produto, uf?: UFArg | null): Promise<Serie & Origem>;
  /** index.json: every series, source, product and UF (paths: see resolverCaminho) */
  index(): Promise<Index & Origem>;
  /** status.json: each source's last attempt and success, each series' last day */
  status(): Promise<Status & Origem>;
  /** eventos.json: the recent events, newest first */
  eventos(): Promise<Eventos & Origem>;
  /** the JSON file a path of index.json names (e.g. a series' `path`) */
  arquivo(caminho: string): Promise<Record<string, unknown> & Origem>;
  /** days of a series from `de` to `ate` (inclusive), oldest first */
  historico(produto: Produto, uf?: UFArg | null, intervalo?: Intervalo): Promise<HistoricoEntry[] & Origem>;
  historico(produto: Produto, intervalo: Intervalo): Promise<HistoricoEntry[] & Origem>;
}

export declare class CotacaoError extends Error {
  constructor(message: string, tentativas?: Array<{ url: string; motivo: string }>);
  readonly tentativas: Array<{ url: string; motivo: string }>;
}

export declare function createClient(options?: ClientOptions): CotacaoClient;

/** A path of index.json ("cotacao/{produto}.json", or the older "api/v1/cotacao/{produto}.json") as a URL, from index.json's own URL. */
export declare function resolverCaminho(caminho: string, indexUrl: string | URL): string;
