import type { PriceRow, Fonte } from "../domain/row.ts";
import type { SerieDecl } from "../domain/series.ts";

export interface ParsedPage {
  rows: PriceRow[];
  /** things worth a line in the run report that do not invalidate the page */
  avisos: string[];
}

export interface PageDef {
  /** file name in the replay layout (`DIR/{source}/{id}.html`) */
  id: string;
  /** path on the source's site, appended to its base URL */
  path: string;
  /** what the page is, for reports */
  titulo: string;
  /** true when the HTML holds the table this page is fetched for (soft-block detection) */
  hasTable(html: string): boolean;
  /** pure: HTML in, rows out; throws ParseError when the page is not what it should be */
  parse(html: string): ParsedPage;
  /** the series this page feeds, in the order the source lists them (the catalogue's entries) */
  series: readonly SerieDecl[];
  /**
   * The page dates business days only (CEPEA's daily indicators, Scot's and Datagro's tables):
   * a new day on a Saturday or Sunday, read from it or from a mirror of it, is a mistyped date
   * and refuses the page (check/gates.ts checkFimDeSemana). False for a page that dates weekly
   * or monthly prices by a calendar day, which may fall on a weekend.
   */
  diasUteis: boolean;
}

export interface Termos {
  /** SPDX-like id or short name of the source's terms */
  licenca: string;
  /** how the source asks to be cited */
  citacao: string;
  /** the terms in one sentence, pt-BR */
  texto: string;
  url: string;
}

export interface SourceDef {
  id: Fonte;
  nome: string;
  /** how the aggregate's `fonte` names it ("CEPEA/ESALQ (boi gordo SP, ...)") */
  nomeCurto: string;
  /** default base URL (the real site) */
  site: string;
  /** environment variable that overrides the base URL */
  baseUrlEnv: string;
  termos: Termos;
  /** after this many days without a new day of data the source is reported as stale */
  maxIdadeDias: number;
  pages: PageDef[];
}

/**
 * Another site that republishes the same table (e.g. Notícias Agrícolas for Scot's "Mercado
 * Físico"), or another way into the source's own data (CEPEA's widget script). Rows read through
 * a mirror keep the original `fonte`; the series records `via` and `via_url`.
 *
 * A page may have several mirrors, tried in order (MIRRORS in sources/index.ts); the first that
 * answers serves the page for that run. A mirror may cover only part of the page it stands in
 * for (`series`): the NA soja page is only Paranaguá, CEPEA's widget only the latest day of boi
 * gordo. Such a read is judged atomic over what the mirror covers: its own page is checked whole
 * (every row, every cell, as any page), every series it declares must be fed by it, or nothing of
 * it is merged; the page's other series are not touched by that read (they keep their data and
 * wait for the source's own page) and status.json lists them (`series_nao_lidas`). The days a
 * mirror does not show are simply not updated: a mirror never removes a day or a column.
 */
export interface MirrorDef {
  /** the page it stands in for: "{source}/{page}" */
  paraPagina: string;
  /** who it is, as `via` names it ("noticias-agricolas", "cepea-widget") */
  id: string;
  nome: string;
  site: string;
  baseUrlEnv: string;
  /** path (and query) on the mirror's site */
  path: string;
  /**
   * where --record saves its page and --replay reads it, relative to DIR; default
   * `{id}/{last segment of path}.html` (test/fixtures/noticias-agricolas/...)
   */
  arquivo?: string;
  /**
   * the series of the page it republishes (ids, "soja", "cafe_arabica"); every series of the page
   * but those declared `semEspelho` when omitted
   */
  series?: readonly string[];
  /** false: a challenge on this mirror is not worth Chromium (a script, not a page) */
  navegador?: boolean;
  hasTable(html: string): boolean;
  /** rows for the page it stands in for, in the same shape the original page's parser returns */
  parse(html: string): ParsedPage;
}
