/**
 * The shapes of the published files (../../schemas/*.schema.json is their public contract;
 * test/schemas.test.ts checks that every rendered file validates against it).
 */
import type { Fonte } from "../domain/row.ts";
import type { Produto, Unidade } from "../domain/products.ts";
import type { UF } from "../domain/ufs.ts";
import type { FailureKind } from "../domain/errors.ts";

export type Money = number;
export type IsoDate = string; // YYYY-MM-DD
export type IsoDateTime = string; // 2026-09-06T22:39:05-03:00

/** One day of a series; one line in the file. */
export interface HistoricoEntry {
  data: IsoDate;
  valor: Money;
  /** CEPEA: the same indicator in US$ */
  valor_usd?: Money;
  /** Scot: the reference praça's other columns that day (see PracaQuote) */
  valor_30d?: Money;
  base_sp?: number;
  funrural_avista?: Money;
  funrural_30d?: Money;
  senar_avista?: Money;
  senar_30d?: Money;
  tendencia?: "alta" | "estavel" | "baixa";
  /** Scot state series: à vista price of every praça of the UF that day, in source order */
  pracas?: Record<string, Money>;
}

/** One praça of a Scot UF on the latest day, with every column Scot publishes. */
export interface PracaQuote {
  praca: string;
  valor: Money;
  unidade: Unidade;
  valor_30d?: Money;
  /** "# base": Scot's basis differential to São Paulo, in percent (RS reads 7,11 on a 12,35/kg price) */
  base_sp?: Money;
  funrural_avista?: Money;
  funrural_30d?: Money;
  senar_avista?: Money;
  senar_30d?: Money;
  tendencia?: "alta" | "estavel" | "baixa";
  nota?: string;
}

export interface Proveniencia {
  fonte: Fonte;
  nome: string;
  url: string;
  /** when the data now in this series was fetched (the run that last changed it) */
  coletado_em: IsoDateTime;
  /** mirror the data came through, when not the source itself (e.g. "noticias-agricolas") */
  via: string | null;
  via_url: string | null;
  licenca: string;
  citacao: string;
  termos: string;
}

export interface Variacao {
  data_anterior: IsoDate;
  anterior: Money;
  absoluta: Money;
  percentual: number;
}

/** cotacao/{produto}.json and cotacao/{produto}/{UF}.json */
export interface SerieFile {
  produto: Produto;
  nome: string;
  uf: UF | null;
  regiao: string;
  valor: Money;
  moeda: "BRL";
  unidade: Unidade;
  fonte: Fonte;
  data_cotacao: IsoDate;
  variacao: Variacao | null;
  bordao: string;
  /** state series only */
  praca?: string;
  pracas?: PracaQuote[];
  atualizado: IsoDateTime;
  proveniencia: Proveniencia;
  license: string;
  api_version: "v1";
  historico: HistoricoEntry[];
}

export type AggregateKey = "boi_gordo_cepea_sp" | "vaca_gorda" | "soja" | "milho" | "bezerro_ms";

export interface UfQuote {
  uf: UF;
  preco: Money;
  praca: string;
  unidade: Unidade;
  data: IsoDate;
}

/** cotacao.json and cotacao/uf/{UF}.json */
export interface AggregateFile {
  boi_gordo_cepea_sp: Money | null;
  boi_gordo_praca: string;
  vaca_gorda: Money | null;
  soja: Money | null;
  milho: Money | null;
  bezerro_ms: Money | null;
  unidades: Record<AggregateKey, Unidade>;
  datas: Record<AggregateKey, IsoDate | null>;
  boi_gordo_uf?: UfQuote | null;
  vaca_gorda_uf?: UfQuote | null;
  atualizado: IsoDateTime;
  fonte: string;
  api_version: "v1";
  license: string;
}

export interface IndexSeries {
  id: string;
  path: string;
  csv: string;
  produto: Produto;
  uf: UF | null;
  praca: string | null;
  regiao: string;
  fonte: Fonte;
  unidade: Unidade;
  primeira_data: IsoDate | null;
  ultima_data: IsoDate | null;
  pontos: number;
  /** latest value and its change, so a page can show every series without each history */
  valor: Money | null;
  variacao: Variacao | null;
  license: string;
}

export interface IndexFile {
  api_version: "v1";
  atualizado: IsoDateTime;
  license: string;
  fontes: Array<{ id: Fonte; nome: string; site: string; ativa: boolean; licenca: string; citacao: string; termos: string; termos_url: string }>;
  produtos: Array<{ produto: Produto; nome: string; unidade: Unidade; path: string }>;
  ufs: Array<{ uf: UF; nome: string; path: string }>;
  series: IndexSeries[];
}

export type SourceState = "ok" | "stale" | "blocked" | "failed" | "disabled";
export type PageState = "ok" | FailureKind;

export interface StatusPage {
  id: string;
  url: string;
  estado: PageState;
  motivo: string | null;
  via: string | null;
  ultima_tentativa: IsoDateTime | null;
  ultimo_sucesso: IsoDateTime | null;
  falhas_consecutivas: number;
  falhando_desde: IsoDateTime | null;
  /** only with estado "revisao_suspeita": what the page would change beyond the bound */
  revisoes_suspeitas?: Array<{ serie: string; data: IsoDate; campo: string; antes: number | string | null; depois: number | string | null; aceitar: string }>;
}

export interface StatusSource {
  id: Fonte;
  nome: string;
  estado: SourceState;
  motivo: string | null;
  ultima_tentativa: IsoDateTime | null;
  ultimo_sucesso: IsoDateTime | null;
  ultima_data: IsoDate | null;
  falhas_consecutivas: number;
  falhando_desde: IsoDateTime | null;
  paginas: StatusPage[];
}

export interface StatusFile {
  api_version: "v1";
  atualizado: IsoDateTime;
  fontes: StatusSource[];
  series: Array<{ id: string; ultima_data: IsoDate | null; estado: "ok" | "stale" | "sem_dados" }>;
}
