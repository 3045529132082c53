/**
 * Site assembly: every file of one published set, in one place, from the series, the status,
 * the events and the capture log. Series JSON and CSV (with the praças CSV and the Excel-BR
 * variants), the long CSV of every series, aggregates, catalogue, the Frictionless
 * datapackage.json, LICENSE and CITATION.cff, status, schemas, events and feed, then the API description (openapi.json, docs/, client.js: last, its examples
 * are the other files), then the year's capture log. The pure renderers live in ../render/ and
 * the event and API files in their own stages; run/ calls this and hands the set to publish/.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT, type Config } from "../config.ts";
import type { SerieFile, StatusFile } from "../domain/publicados.ts";
import { seriesCsvPath, seriesJsonPath } from "../domain/series.ts";
import { EXEMPLOS, SOURCES, allSeries, ufsDoAgregado } from "../sources/index.ts";
import type { CapturasFile } from "../history/capturas.ts";
import { renderAggregate } from "../render/aggregate.ts";
import { renderCapturas } from "../render/capturas.ts";
import { renderIndex } from "../render/catalogue.ts";
import { HISTORICO_LONGO_PATH, csvTexto, excelPath, excelTexto, historicoTabela, pracasCsvPath, pracasTabela, type Tabela } from "../render/csv.ts";
import { DATAPACKAGE_PATH, renderDataPackage } from "../render/datapackage.ts";
import { CITATION_PATH, LICENSE_PATH, citacaoCff, licencaTexto } from "../render/licenca.ts";
import { historicoLongoTabela } from "../render/longo.ts";
import { stringifyDoc, type RenderedFile } from "../render/json.ts";
import type { EventosFile } from "../events/model.ts";
import { eventosFiles } from "../events/render.ts";
import { apiDescriptionFiles } from "../openapi/site.ts";
import { paginaDoSite } from "./painel.ts";

export type { RenderedFile };

/** What a set holds besides the series and the status. */
export interface SiteExtras {
  /** api/v1/eventos.json and feed.xml */
  eventos?: EventosFile;
  /** the year's capture log, api/v1/capturas/{ano}.json (update writes it; build leaves it as it is) */
  capturas?: CapturasFile;
}

export const SCHEMAS_DIR = join(REPO_ROOT, "schemas");

/** The JSON Schemas, published as they are under public/schemas/. */
export function schemaFiles(): Map<string, string> {
  const out = new Map<string, string>();
  let names: string[] = [];
  try {
    names = readdirSync(SCHEMAS_DIR).filter((n) => n.endsWith(".schema.json")).sort();
  } catch {
    return out;
  }
  for (const n of names) out.set(`schemas/${n}`, readFileSync(join(SCHEMAS_DIR, n), "utf8"));
  return out;
}

/** The series files the API description quotes as examples (pipeline/openapi/build.ts). */
const exampleSeries = (): Set<string> =>
  new Set([EXEMPLOS.nacional, EXEMPLOS.estadual].flatMap((id) => [`api/v1/cotacao/${id}.json`, `api/v1/historico/${id}.csv`]));

/**
 * Every file of the site from the series and the status: the series files themselves
 * (re-rendered, so formatting is always the canonical one), CSVs, aggregates, catalogue,
 * status, schemas, events, the API description (its examples are a fixed sample,
 * pipeline/openapi/exemplos.json), the dashboard's page and the capture log. One file at a time, so a 30-year history is never held as text all at once.
 */
export function* renderSiteFiles(
  series: ReadonlyMap<string, SerieFile>,
  status: StatusFile,
  config: Config,
  extras: SiteExtras = {},
): Generator<RenderedFile> {
  const kept = new Map<string, string>();
  const EXAMPLE_SERIES = exampleSeries();
  const emit = (path: string, text: string, doc?: unknown): RenderedFile => {
    // the long CSV holds every series' history: too big to keep, and no example quotes it
    if (path === HISTORICO_LONGO_PATH || path === excelPath(HISTORICO_LONGO_PATH)) return { path, text };
    if (!path.startsWith("api/v1/cotacao/") && !path.startsWith("api/v1/historico/")) kept.set(path, text);
    else if (EXAMPLE_SERIES.has(path) || path.startsWith("api/v1/cotacao/uf/")) kept.set(path, text);
    return doc === undefined ? { path, text } : { path, text, doc };
  };
  for (const def of allSeries()) {
    const f = series.get(def.id);
    if (!f) continue;
    yield emit(seriesJsonPath(def), stringifyDoc(f), f);
    yield* emitCsv(emit, seriesCsvPath(def), historicoTabela(f.historico, f.unidade));
    const pracas = pracasTabela(f.historico, f.unidade);
    if (pracas) yield* emitCsv(emit, pracasCsvPath(def), pracas);
  }
  yield* emitCsv(emit, HISTORICO_LONGO_PATH, historicoLongoTabela(series));
  const agg = renderAggregate(series, null);
  yield emit("api/v1/cotacao.json", stringifyDoc(agg), agg);
  for (const uf of ufsDoAgregado()) {
    const doc = renderAggregate(series, uf);
    yield emit(`api/v1/cotacao/uf/${uf}.json`, stringifyDoc(doc), doc);
  }
  const index = renderIndex(series, config);
  yield emit("api/v1/index.json", stringifyDoc(index), index);
  const pacote = renderDataPackage(series);
  yield emit(DATAPACKAGE_PATH, stringifyDoc(pacote), pacote);
  yield emit(LICENSE_PATH, licencaTexto(SOURCES));
  yield emit(CITATION_PATH, citacaoCff(SOURCES));
  yield emit("api/v1/status.json", stringifyDoc(status), status);
  // the dashboard's page shows this run's prices (and link previews) without JavaScript
  yield emit("index.html", paginaDoSite({ agg, index, status }));
  for (const [path, text] of schemaFiles()) yield emit(path, text);
  if (extras.eventos) for (const [path, text] of eventosFiles(extras.eventos)) yield emit(path, text);
  for (const [path, text] of apiDescriptionFiles(kept)) yield emit(path, text);
  // after the API description: its examples never quote the capture log
  if (extras.capturas) yield renderCapturas(extras.capturas);
}

/** A CSV and, next to it, its Excel-BR variant: two spellings of one table. */
function* emitCsv(emit: (path: string, text: string) => RenderedFile, path: string, t: Tabela): Generator<RenderedFile> {
  yield emit(path, csvTexto(t));
  yield emit(excelPath(path), excelTexto(t));
}

/** The whole site as a map of path -> text (tests, small sites). */
export function renderSite(
  series: ReadonlyMap<string, SerieFile>,
  status: StatusFile,
  config: Config,
  extras: SiteExtras = {},
): Map<string, string> {
  const files = new Map<string, string>();
  for (const f of renderSiteFiles(series, status, config, extras)) files.set(f.path, f.text);
  return files;
}
