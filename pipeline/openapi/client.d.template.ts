// The hand-written half of public/api/v1/client.d.ts: the declarations of client.js's own
// functions and constants (pipeline/openapi/client.template.js). `npm run gerar` writes
// client.d.ts as the part below the marker line followed by the types of the published files,
// generated from schemas/; the import above the marker only lets tsc check this part against them.
import type { Cotacao, CotacaoPraca, CotacaoUf, Data, HistoricoEntrada, Produto, Serie, Uf } from "../domain/publicados.gerados.ts";
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

export interface ClientOptions {
  /** site roots tried in order; default GitHub Pages, then jsDelivr */
  mirrors?: readonly string[];
  /** per mirror, whole request; default 8000 */
  timeoutMs?: number;
  /** default globalThis.fetch */
  fetch?: typeof fetch;
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
  cotacao(opts?: { uf?: UFArg }): Promise<Cotacao>;
  /** one series (national, or of a state), with its whole history */
  serie(produto: Produto, uf?: UFArg | null): Promise<Serie>;
  /** days of a series from `de` to `ate` (inclusive), oldest first */
  historico(produto: Produto, uf?: UFArg | null, intervalo?: Intervalo): Promise<HistoricoEntry[]>;
  historico(produto: Produto, intervalo: Intervalo): Promise<HistoricoEntry[]>;
}

export declare class CotacaoError extends Error {
  constructor(message: string, tentativas?: Array<{ url: string; motivo: string }>);
  readonly tentativas: Array<{ url: string; motivo: string }>;
}

export declare function createClient(options?: ClientOptions): CotacaoClient;
