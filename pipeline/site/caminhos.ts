/**
 * The paths of a series' files and of the state aggregates, from the one place the renderers
 * (assemble.ts) take them, and the files of a tree that are derived but that no input of the
 * current set produces: a series whose history is gone (or never fetched), a series taken out of
 * the catalogue, praças a history no longer has, a UF no series of the aggregates has any more.
 * A run removes those with its set (publish/write.ts, journaled with it). A file is the
 * pipeline's to remove only when it is exactly one of these paths for the series or UF its path
 * names: histories (`cotacao/{id}.json`), the long file, docs, schemas, assets, dotfiles and
 * anything else in the tree are never touched.
 */
import { readdir } from "node:fs/promises";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { seriesId, seriesJsonPath, seriesCsvPath, seriesRecentePath, type SeriesKey } from "../domain/series.ts";
import { isUF, type UF } from "../domain/ufs.ts";
import type { Produto } from "../domain/products.ts";
import { excelPath, pracasCsvPath } from "../render/csv.ts";
import { allSeries, ufsDoAgregado } from "../sources/index.ts";

/** Every file of one series: its history (the input, never derived) and what is derived from it. */
export interface CaminhosDaSerie {
  /** the history: read by every run, written by the update, never removed by the pipeline */
  json: string;
  recente: string;
  csv: string;
  csvExcel: string;
  /** only for a history with praças (render/csv.ts pracasCsvs) */
  pracas: string;
  pracasExcel: string;
}

export function caminhosDaSerie(key: SeriesKey): CaminhosDaSerie {
  const csv = seriesCsvPath(key);
  const pracas = pracasCsvPath(key);
  return { json: seriesJsonPath(key), recente: seriesRecentePath(key), csv, csvExcel: excelPath(csv), pracas, pracasExcel: excelPath(pracas) };
}

/** The derived files of a published series (its history excluded). */
export function derivadosDaSerie(key: SeriesKey, comPracas: boolean): string[] {
  const c = caminhosDaSerie(key);
  return [c.recente, c.csv, c.csvExcel, ...(comPracas ? [c.pracas, c.pracasExcel] : [])];
}

/** api/v1/cotacao/uf/{UF}.json: the aggregate plus one state's series (ufsDoAgregado). */
export function agregadoUfPath(uf: UF): string {
  return `api/v1/cotacao/uf/${uf}.json`;
}

/** Where the derived files of series and the state aggregates live (the scan for leftovers reads only these). */
const PASTAS_DERIVADAS = ["api/v1/recente", "api/v1/historico", "api/v1/cotacao/uf"] as const;

/** What a path of the tree is, when it is one the pipeline writes for a series or a UF its path names. */
export type Dono = { tipo: "derivado"; key: SeriesKey; id: string } | { tipo: "historico"; key: SeriesKey; id: string } | { tipo: "agregado"; uf: UF };

/** The series a path names (`{produto}` or `{produto}/{UF}` after its folder, before its extensions), if it has that shape. */
function serieDoCaminho(resto: string): SeriesKey | null {
  const m = /^([a-z][a-z0-9_]*)(?:\/([A-Z]{2}))?(?:\.[a-z.]+)$/.exec(resto);
  if (!m) return null;
  if (m[2] !== undefined && !isUF(m[2])) return null;
  return { produto: m[1] as Produto, uf: (m[2] as UF | undefined) ?? null };
}

/**
 * Whose a path is: a derived file of the series its path names (one of derivadosDaSerie's paths
 * for it, with praças), its history, or a state aggregate; null for anything else (the pipeline
 * never removes it).
 */
export function donoDoCaminho(rel: string): Dono | null {
  const uf = /^api\/v1\/cotacao\/uf\/([A-Z]{2})\.json$/.exec(rel)?.[1];
  if (uf !== undefined && isUF(uf) && agregadoUfPath(uf) === rel) return { tipo: "agregado", uf };
  for (const pasta of ["api/v1/cotacao/", "api/v1/recente/", "api/v1/historico/"]) {
    if (!rel.startsWith(pasta)) continue;
    const key = serieDoCaminho(rel.slice(pasta.length));
    if (!key) return null;
    if (caminhosDaSerie(key).json === rel) return { tipo: "historico", key, id: seriesId(key) };
    if (derivadosDaSerie(key, true).includes(rel)) return { tipo: "derivado", key, id: seriesId(key) };
    return null;
  }
  return null;
}

/** Every file under the derived folders of a tree (paths relative to it, "/"-separated), sorted. */
async function arquivosDerivaveis(root: string): Promise<string[]> {
  const out: string[] = [];
  for (const pasta of PASTAS_DERIVADAS) {
    let entradas;
    try {
      entradas = await readdir(join(root, pasta), { recursive: true, withFileTypes: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") continue;
      throw err;
    }
    for (const e of entradas) if (e.isFile()) out.push(relative(root, join(e.parentPath, e.name)).split(sep).join("/"));
  }
  return out.sort();
}

/**
 * The derived files on disk that the set being published does not hold (`doConjunto`: every
 * derived file of the set, the series it leaves as they are included): left by a series whose
 * history is gone or that left the catalogue, by praças a history no longer has, by a UF the
 * aggregates no longer have. Sorted.
 */
export async function sobrasNoDisco(root: string, doConjunto: ReadonlySet<string>): Promise<string[]> {
  return (await arquivosDerivaveis(root)).filter((rel) => {
    const d = donoDoCaminho(rel);
    return d !== null && d.tipo !== "historico" && !doConjunto.has(rel);
  });
}

/** The histories in a tree of series the catalogue no longer has (api/v1/cotacao/{id}.json), sorted. */
export async function historicosForaDoCatalogo(root: string): Promise<string[]> {
  let entradas;
  try {
    entradas = await readdir(join(root, "api/v1/cotacao"), { recursive: true, withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
  const ids = new Set(allSeries().map((d) => d.id));
  const out: string[] = [];
  for (const e of entradas) {
    if (!e.isFile()) continue;
    const rel = relative(root, join(e.parentPath, e.name)).split(sep).join("/");
    const d = donoDoCaminho(rel);
    if (d?.tipo === "historico" && !ids.has(d.id)) out.push(rel);
  }
  return out.sort();
}

/** The site root as the operator names it in a command: relative to the working directory when inside it. */
export function nomeDaRaiz(root: string): string {
  const rel = relative(process.cwd(), resolve(root));
  return rel === "" ? "." : rel.startsWith("..") || isAbsolute(rel) ? resolve(root) : rel.split(sep).join("/");
}

/** How to take a history out of the published tree, for an error message. */
export function comoTirarDoSite(root: string, historicos: readonly string[]): string {
  const raiz = nomeDaRaiz(root);
  const arquivos = historicos.map((h) => `${raiz}/${h}`).join(" ");
  return (
    `o pipeline nunca apaga um histórico: guarde-o fora do site (por exemplo, mkdir -p series-retiradas && git mv ${arquivos} series-retiradas/) ` +
    `ou apague-o (git rm ${arquivos}), ou devolva a série ao catálogo; depois rode npm run build, que apaga os arquivos derivados dela`
  );
}

/**
 * The leftovers of a tree as npm run validate sees it (every file by its path), each with its
 * error: a derived file whose series has no history in the tree or is not in the catalogue, a
 * state aggregate of a UF no series has, and a history of a series not in the catalogue (which
 * every run refuses to publish around). Praças a history no longer has are the praças CSV's own
 * check (validate/dados.ts). `root`: the site root.
 */
export function sobrasDaArvore(arvore: { has(rel: string): boolean; keys(): Iterable<string> }, root: string): Map<string, string[]> {
  const raiz = nomeDaRaiz(root);
  const ids = new Set(allSeries().map((d) => d.id));
  const ufs = new Set<string>(ufsDoAgregado());
  const out = new Map<string, string[]>();
  const build = "rode npm run build, que apaga os arquivos derivados que nenhum histórico gera";
  for (const rel of arvore.keys()) {
    const d = donoDoCaminho(rel);
    if (!d) continue;
    let erro: string | null = null;
    if (d.tipo === "agregado") {
      if (!ufs.has(d.uf)) erro = `sobra: nenhuma série do catálogo que entra nos agregados é da UF ${d.uf}; ${build}`;
    } else if (d.tipo === "historico") {
      if (!ids.has(d.id)) erro = `a série ${d.id} não está mais no catálogo (pipeline/sources/), e nenhuma execução publica em volta do seu histórico; ${comoTirarDoSite(root, [rel])}`;
    } else if (!ids.has(d.id)) {
      const json = caminhosDaSerie(d.key).json;
      // while its history is in the tree the build refuses: that file's error says what to do first
      erro = `sobra da série ${d.id}, que não está mais no catálogo (pipeline/sources/); ${arvore.has(json) ? `tire do site o histórico ${json} (veja o erro dele) e ` : ""}${build}`;
    } else if (!arvore.has(caminhosDaSerie(d.key).json)) {
      const json = caminhosDaSerie(d.key).json;
      erro = `sobra: ${json}, o histórico de que este arquivo é derivado, não existe; ${build} (uma série do catálogo sem histórico não é publicada, como uma série nova antes da primeira busca), ou, se o histórico foi apagado por engano, restaure-o (git checkout -- ${raiz}/${json}) e rode npm run build`;
    }
    if (erro) out.set(rel, [`${rel}: ${erro}`]);
  }
  return out;
}
