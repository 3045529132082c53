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
 * Físico"). Rows read through a mirror keep the original `fonte`; the series records `via`.
 */
export interface MirrorDef {
  /** the page it stands in for: "{source}/{page}" */
  paraPagina: string;
  id: string;
  nome: string;
  site: string;
  baseUrlEnv: string;
  path: string;
  hasTable(html: string): boolean;
  /** rows for the page it stands in for, in the same shape the original page's parser returns */
  parse(html: string): ParsedPage;
}
