import type { Fonte } from "./row.ts";
import { PRODUTO_INFO, type Produto, type ProdutoInfo, type Unidade } from "./products.ts";
import type { UF } from "./ufs.ts";

/** A series is one product at one place: the national reference (uf null) or a state. */
export interface SeriesKey {
  produto: Produto;
  uf: UF | null;
}

/**
 * What a source page declares of each series it feeds (pipeline/sources/*): everything the
 * catalogue needs but the series' id, source and page, which come from where it is declared.
 */
export interface SerieDecl extends SeriesKey {
  /** unit of the series as published */
  unidade: Unidade;
  /** where the price is from, in words */
  regiao: string;
  /**
   * For series built from a praça table: the UF whose reference praça gives the value (the
   * national vaca_gorda is Scot's SP reference praça), and that praça by default
   * (cotacao.config.json `pracasReferencia` chooses another).
   */
  ufReferencia?: UF;
  pracaReferencia?: string;
  /**
   * the reference praça is always `pracaReferencia`: cotacao.config.json's pracasReferencia
   * (praças of Scot's Mercado Físico tables, by UF) does not apply (Scot's Boi China regions)
   */
  referenciaFixa?: boolean;
  /**
   * the page's mirrors do not republish this series: a page read through a mirror does not
   * feed it, and it waits for the source's own page (Scot's Boi China table)
   */
  semEspelho?: boolean;
  /**
   * where a national or single-place series is quoted, as its published `uf` says (CEPEA's boi
   * gordo: SP; soja Paranaguá: PR); the file is still `cotacao/{produto}.json`. Absent for an
   * indicator that averages several states.
   */
  lugar?: UF;
  /**
   * the source's own words saying the price is already net of Funrural (CEPEA's boi gordo: "sem
   * Funrural (preço livre)"); published as `sem_funrural`, so the simulator deducts none. Absent:
   * the price is gross, as Scot's Mercado Físico headline.
   */
  semFunrural?: string;
  /** name shown as the praça of a state indicator (no praça table behind it) */
  praca?: string;
  /**
   * the praça table a state series is read from, as its bordão names it ("Mercado Físico da
   * Scot Consultoria"); without it the bordão names the series' region
   */
  tabela?: string;
  /**
   * the source's download of the whole history of this series (CEPEA: `id` of
   * `/br/indicador/series/{pagina}.aspx?id={id}`), and how its file is recognised: words its title
   * must and must not hold, the price term of its columns (pipeline/sources/cepea-series.ts)
   */
  serieHistorica?: { id: number; titulo: readonly string[]; tituloSem?: readonly string[]; termo: string };
  /** the product's sanity bounds, when this series needs its own (domain/products.ts) */
  limites?: Partial<Pick<ProdutoInfo, "faixa" | "saltoMaximoPct" | "revisaoMaximaPct">>;
}

/** A series of the catalogue (pipeline/sources/index.ts: allSeries). */
export interface SeriesDef extends SerieDecl {
  id: string;
  fonte: Fonte;
  /** page of the source (PageDef.id) the series is read from */
  pagina: string;
}

/** The sanity bounds of a series: its own where it declares them, else its product's. */
export function limitesDaSerie(def: Pick<SeriesDef, "produto" | "limites">): Pick<ProdutoInfo, "faixa" | "saltoMaximoPct" | "revisaoMaximaPct"> {
  const p = PRODUTO_INFO[def.produto];
  return {
    faixa: def.limites?.faixa ?? p.faixa,
    saltoMaximoPct: def.limites?.saltoMaximoPct ?? p.saltoMaximoPct,
    revisaoMaximaPct: def.limites?.revisaoMaximaPct ?? p.revisaoMaximaPct,
  };
}

/**
 * The `uf` a series' files publish: a state series' own UF; a national series' place (its
 * `lugar`, or the UF of the reference praça it is read from); null for a multi-state average.
 */
export function ufPublicada(def: Pick<SerieDecl, "uf" | "lugar" | "ufReferencia">): UF | null {
  return def.uf ?? def.lugar ?? def.ufReferencia ?? null;
}

export function seriesId(key: SeriesKey): string {
  return key.uf ? `${key.produto}/${key.uf}` : key.produto;
}

export function seriesJsonPath(key: SeriesKey): string {
  return `api/v1/cotacao/${seriesId(key)}.json`;
}

/**
 * The series' last year (render/serie.ts: janelaRecente): the same document as its JSON file
 * with the history cut, so a chart of the last 30 days or year does not download decades.
 */
export function seriesRecentePath(key: SeriesKey): string {
  return `api/v1/recente/${seriesId(key)}.json`;
}

export function seriesCsvPath(key: SeriesKey): string {
  return `api/v1/historico/${seriesId(key)}.csv`;
}
