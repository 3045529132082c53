import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT, type Config } from "../config.ts";
import { licenseFull, licenseShort, serieLicense } from "../domain/license.ts";
import { PRODUTOS, PRODUTO_INFO, agregadosUf, type Unidade } from "../domain/products.ts";
import { seriesCsvPath, seriesJsonPath, type SeriesDef } from "../domain/series.ts";
import { UFS, type UF } from "../domain/ufs.ts";
import { EXEMPLOS, SOURCES, agregadoSeries, allSeries, fonteDoAgregado, ufsDoAgregado } from "../sources/index.ts";
import type { EventosFile } from "../events/model.ts";
import { eventosFiles } from "../events/render.ts";
import { apiDescriptionFiles } from "../openapi/site.ts";
import { historicoCsv } from "./csv.ts";
import { stringifyDoc } from "./json.ts";
import type { AggregateFile, AggregateKey, IndexFile, SerieFile, StatusFile, UfQuote } from "./shapes.ts";

/** Aggregate keys and the national series each one shows (from the catalogue). */
export function aggregateTable(): Array<[AggregateKey, string]> {
  return agregadoSeries().flatMap((a) => (a.serie ? [[a.chave, a.serie.id] as [AggregateKey, string]] : []));
}

const EPOCH = "1970-01-01T00:00:00-03:00";

function maxTime(times: Iterable<string>): string {
  let best = "";
  for (const t of times) if (t > best) best = t;
  return best || EPOCH;
}

function ufQuote(file: SerieFile | undefined): UfQuote | null {
  if (!file || !file.uf) return null;
  return { uf: file.uf, preco: file.valor, praca: file.praca ?? "", unidade: file.unidade, data: file.data_cotacao };
}

export function renderAggregate(series: ReadonlyMap<string, SerieFile>, uf: UF | null): AggregateFile {
  const used: SerieFile[] = [];
  const pick = (id: string) => {
    const f = series.get(id);
    if (f) used.push(f);
    return f;
  };
  // the contract's key order: each value (and its text field), then units, days, the state quotes
  const doc: Record<string, unknown> = {};
  const unidades: Record<string, Unidade> = {};
  const datas: Record<string, string | null> = {};
  for (const a of agregadoSeries()) {
    const f = a.serie ? pick(a.serie.id) : undefined;
    doc[a.chave] = f?.valor ?? null;
    if (a.praca) doc[a.praca.chave] = a.praca.texto;
    datas[a.chave] = f?.data_cotacao ?? null;
    unidades[a.chave] = PRODUTO_INFO[a.produto].unidade;
  }
  doc.unidades = unidades;
  doc.datas = datas;
  if (uf) for (const a of agregadosUf()) doc[a.chave] = ufQuote(pick(`${a.produto}/${uf}`));
  doc.atualizado = maxTime(used.map((f) => f.atualizado));
  doc.fonte = fonteDoAgregado(uf);
  doc.api_version = "v1";
  doc.license = licenseShort(SOURCES);
  return doc as unknown as AggregateFile;
}

export function renderIndex(series: ReadonlyMap<string, SerieFile>, config: Config): IndexFile {
  const defs = allSeries();
  return {
    api_version: "v1",
    atualizado: maxTime([...series.values()].map((f) => f.atualizado)),
    license: licenseFull(SOURCES),
    fontes: SOURCES.map((s) => ({
      id: s.id,
      nome: s.nome,
      site: s.site,
      ativa: config.fontesAtivas[s.id],
      licenca: s.termos.licenca,
      citacao: s.termos.citacao,
      termos: s.termos.texto,
      termos_url: s.termos.url,
    })),
    produtos: PRODUTOS.map((p) => ({ produto: p, nome: PRODUTO_INFO[p].nome, unidade: PRODUTO_INFO[p].unidade, path: `api/v1/cotacao/${p}.json` })),
    ufs: ufsDoAgregado().map((uf) => ({ uf, nome: UFS[uf], path: `api/v1/cotacao/uf/${uf}.json` })),
    series: defs
      .filter((d) => series.has(d.id))
      .map((d: SeriesDef) => {
        const f = series.get(d.id)!;
        const source = SOURCES.find((s) => s.id === d.fonte)!;
        return {
          id: d.id,
          path: seriesJsonPath(d),
          csv: seriesCsvPath(d),
          produto: d.produto,
          uf: d.uf,
          praca: d.uf ? (f.praca ?? null) : null,
          regiao: d.regiao,
          fonte: d.fonte,
          unidade: d.unidade,
          primeira_data: f.historico[0]?.data ?? null,
          ultima_data: f.historico[f.historico.length - 1]?.data ?? null,
          pontos: f.historico.length,
          valor: f.historico.length ? f.valor : null,
          variacao: f.variacao,
          license: serieLicense(source),
        };
      }),
  };
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

export interface RenderedFile {
  path: string;
  text: string;
  /** the object the JSON text was serialized from (validated instead of parsing the text) */
  doc?: unknown;
}

/** The series files the API description quotes as examples (pipeline/openapi/build.ts). */
const exampleSeries = (): Set<string> =>
  new Set([EXEMPLOS.nacional, EXEMPLOS.estadual].flatMap((id) => [`api/v1/cotacao/${id}.json`, `api/v1/historico/${id}.csv`]));

/**
 * Every derived file of the site from the series and the status: the series files themselves
 * (re-rendered, so formatting is always the canonical one), CSVs, aggregates, catalogue,
 * status, schemas, events and the API description (last: its examples are the other files).
 * One file at a time, so a 30-year history is never held as text all at once.
 */
export function* renderSiteFiles(
  series: ReadonlyMap<string, SerieFile>,
  status: StatusFile,
  config: Config,
  extras: { eventos?: EventosFile } = {},
): Generator<RenderedFile> {
  const kept = new Map<string, string>();
  const EXAMPLE_SERIES = exampleSeries();
  const emit = (path: string, text: string, doc?: unknown): RenderedFile => {
    if (!path.startsWith("api/v1/cotacao/") && !path.startsWith("api/v1/historico/")) kept.set(path, text);
    else if (EXAMPLE_SERIES.has(path) || path.startsWith("api/v1/cotacao/uf/")) kept.set(path, text);
    return doc === undefined ? { path, text } : { path, text, doc };
  };
  for (const def of allSeries()) {
    const f = series.get(def.id);
    if (!f) continue;
    yield emit(seriesJsonPath(def), stringifyDoc(f), f);
    yield emit(seriesCsvPath(def), historicoCsv(f.historico));
  }
  const agg = renderAggregate(series, null);
  yield emit("api/v1/cotacao.json", stringifyDoc(agg), agg);
  for (const uf of ufsDoAgregado()) {
    const doc = renderAggregate(series, uf);
    yield emit(`api/v1/cotacao/uf/${uf}.json`, stringifyDoc(doc), doc);
  }
  const index = renderIndex(series, config);
  yield emit("api/v1/index.json", stringifyDoc(index), index);
  yield emit("api/v1/status.json", stringifyDoc(status), status);
  for (const [path, text] of schemaFiles()) yield emit(path, text);
  if (extras.eventos) for (const [path, text] of eventosFiles(extras.eventos)) yield emit(path, text);
  for (const [path, text] of apiDescriptionFiles(kept)) yield emit(path, text);
}

/** The whole site as a map of path -> text (tests, small sites). */
export function renderSite(
  series: ReadonlyMap<string, SerieFile>,
  status: StatusFile,
  config: Config,
  extras: { eventos?: EventosFile } = {},
): Map<string, string> {
  const files = new Map<string, string>();
  for (const f of renderSiteFiles(series, status, config, extras)) files.set(f.path, f.text);
  return files;
}
