import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT, type Config } from "../config.ts";
import { LICENSE_FULL, LICENSE_SHORT, serieLicense } from "../domain/license.ts";
import { PRODUTOS, PRODUTO_INFO, type Unidade } from "../domain/products.ts";
import { allSeries, seriesCsvPath, seriesJsonPath, type SeriesDef } from "../domain/series.ts";
import { SCOT_UFS, UFS, type UF } from "../domain/ufs.ts";
import { SOURCES } from "../sources/index.ts";
import type { EventosFile } from "../events/model.ts";
import { eventosFiles } from "../events/render.ts";
import { apiDescriptionFiles } from "../openapi/site.ts";
import { historicoCsv } from "./csv.ts";
import { stringifyDoc } from "./json.ts";
import type { AggregateFile, AggregateKey, IndexFile, SerieFile, StatusFile, UfQuote } from "./shapes.ts";

/** Aggregate keys and the national series each one shows. */
const AGGREGATE: ReadonlyArray<[AggregateKey, string]> = [
  ["boi_gordo_cepea_sp", "boi_gordo"],
  ["vaca_gorda", "vaca_gorda"],
  ["soja", "soja"],
  ["milho", "milho"],
  ["bezerro_ms", "bezerro"],
];

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
  const values = {} as Record<AggregateKey, number | null>;
  const datas = {} as Record<AggregateKey, string | null>;
  const unidades = {} as Record<AggregateKey, Unidade>;
  for (const [key, id] of AGGREGATE) {
    const f = pick(id);
    values[key] = f?.valor ?? null;
    datas[key] = f?.data_cotacao ?? null;
    unidades[key] = PRODUTO_INFO[id as keyof typeof PRODUTO_INFO].unidade;
  }
  const doc: AggregateFile = {
    boi_gordo_cepea_sp: values.boi_gordo_cepea_sp,
    boi_gordo_praca: "Estado de São Paulo (Indicador CEPEA/ESALQ)",
    vaca_gorda: values.vaca_gorda,
    soja: values.soja,
    milho: values.milho,
    bezerro_ms: values.bezerro_ms,
    unidades,
    datas,
    atualizado: EPOCH,
    fonte: "CEPEA/ESALQ (boi gordo SP, soja Paranaguá, milho Campinas, bezerro MS); Scot Consultoria (vaca gorda SP)",
    api_version: "v1",
    license: LICENSE_SHORT,
  };
  if (uf) {
    doc.boi_gordo_uf = ufQuote(pick(`boi_gordo/${uf}`));
    doc.vaca_gorda_uf = ufQuote(pick(`vaca_gorda/${uf}`));
    doc.fonte += `; Scot Consultoria (boi e vaca gorda ${uf})`;
  }
  doc.atualizado = maxTime(used.map((f) => f.atualizado));
  // keep key order stable: atualizado after the per-UF quotes
  const { atualizado, fonte, api_version, license, ...rest } = doc;
  return { ...rest, atualizado, fonte, api_version, license };
}

export function renderIndex(series: ReadonlyMap<string, SerieFile>, config: Config): IndexFile {
  const defs = allSeries();
  return {
    api_version: "v1",
    atualizado: maxTime([...series.values()].map((f) => f.atualizado)),
    license: LICENSE_FULL,
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
    ufs: SCOT_UFS.map((uf) => ({ uf, nome: UFS[uf], path: `api/v1/cotacao/uf/${uf}.json` })),
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

/**
 * Every derived file of the site from the series and the status: the series files themselves
 * (re-rendered, so formatting is always the canonical one), CSVs, aggregates, catalogue,
 * status and schemas. Pure apart from reading schemas/.
 */
export function renderSite(
  series: ReadonlyMap<string, SerieFile>,
  status: StatusFile,
  config: Config,
  extras: { eventos?: EventosFile } = {},
): Map<string, string> {
  return renderSiteDocs(series, status, config, extras).files;
}

/** renderSite, plus the object each JSON file was serialized from (for validation). */
export function renderSiteDocs(
  series: ReadonlyMap<string, SerieFile>,
  status: StatusFile,
  config: Config,
  extras: { eventos?: EventosFile } = {},
): { files: Map<string, string>; docs: Map<string, unknown> } {
  const files = new Map<string, string>();
  const docs = new Map<string, unknown>();
  const json = (path: string, doc: unknown) => {
    files.set(path, stringifyDoc(doc));
    docs.set(path, doc);
  };
  for (const def of allSeries()) {
    const f = series.get(def.id);
    if (!f) continue;
    json(seriesJsonPath(def), f);
    files.set(seriesCsvPath(def), historicoCsv(f.historico));
  }
  json("api/v1/cotacao.json", renderAggregate(series, null));
  for (const uf of SCOT_UFS) json(`api/v1/cotacao/uf/${uf}.json`, renderAggregate(series, uf));
  json("api/v1/index.json", renderIndex(series, config));
  json("api/v1/status.json", status);
  for (const [path, text] of schemaFiles()) files.set(path, text);
  if (extras.eventos) for (const [path, text] of eventosFiles(extras.eventos)) files.set(path, text);
  for (const [path, text] of apiDescriptionFiles(files)) files.set(path, text);
  return { files, docs };
}
