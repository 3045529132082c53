// Types of client.js (Cotação Aberta static API v1). The published JSON Schemas under
// /schemas/ are the full contract; these types cover what the client returns.

export type Produto = "boi_gordo" | "vaca_gorda" | "soja" | "milho" | "bezerro";
export type Unidade = "@" | "kg" | "sc60kg" | "cabeca";
/** Two-letter state code, e.g. "MS". */
export type UF = string;
/** YYYY-MM-DD */
export type Dia = string;

export declare const PRODUTOS: readonly Produto[];
export declare const DEFAULT_MIRRORS: readonly string[];
export declare const DEFAULT_TIMEOUT_MS: number;

export interface HistoricoEntry {
  data: Dia;
  valor: number;
  valor_usd?: number;
  valor_30d?: number;
  pracas?: Record<string, number>;
}

export interface UfQuote {
  uf: UF;
  preco: number;
  praca: string;
  unidade: Unidade;
  data: Dia;
}

type AggregateKey = "boi_gordo_cepea_sp" | "vaca_gorda" | "soja" | "milho" | "bezerro_ms";

/** cotacao.json and cotacao/uf/{UF}.json */
export interface Cotacao {
  boi_gordo_cepea_sp: number | null;
  boi_gordo_praca: string;
  vaca_gorda: number | null;
  soja: number | null;
  milho: number | null;
  bezerro_ms: number | null;
  unidades: Record<AggregateKey, Unidade>;
  /** the day of each value: products may be of different days */
  datas: Record<AggregateKey, Dia | null>;
  boi_gordo_uf?: UfQuote | null;
  vaca_gorda_uf?: UfQuote | null;
  atualizado: string;
  fonte: string;
  api_version: "v1";
  license: string;
}

export interface PracaQuote {
  praca: string;
  valor: number;
  unidade: Unidade;
  [extra: string]: unknown;
}

/** cotacao/{produto}.json and cotacao/{produto}/{UF}.json */
export interface Serie {
  produto: Produto;
  nome: string;
  uf: UF | null;
  regiao: string;
  valor: number;
  moeda: "BRL";
  unidade: Unidade;
  fonte: "cepea" | "scot";
  data_cotacao: Dia;
  variacao: { data_anterior: Dia; anterior: number; absoluta: number; percentual: number } | null;
  bordao: string;
  praca?: string;
  pracas?: PracaQuote[];
  atualizado: string;
  proveniencia: Record<string, unknown>;
  license: string;
  api_version: "v1";
  historico: HistoricoEntry[];
}

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

export interface CotacaoClient {
  readonly mirrors: readonly string[];
  /** the aggregate; with `uf`, plus that state's boi and vaca gorda */
  cotacao(opts?: { uf?: UF }): Promise<Cotacao>;
  /** one series (national, or of a state), with its whole history */
  serie(produto: Produto, uf?: UF | null): Promise<Serie>;
  /** days of a series from `de` to `ate` (inclusive), oldest first */
  historico(produto: Produto, uf?: UF | null, intervalo?: Intervalo): Promise<HistoricoEntry[]>;
  historico(produto: Produto, intervalo: Intervalo): Promise<HistoricoEntry[]>;
}

export declare class CotacaoError extends Error {
  constructor(message: string, tentativas?: Array<{ url: string; motivo: string }>);
  readonly tentativas: Array<{ url: string; motivo: string }>;
}

export declare function createClient(options?: ClientOptions): CotacaoClient;
