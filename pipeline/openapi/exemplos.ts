/**
 * The examples of api/v1/openapi.json: a fixed sample of the published files, committed in
 * pipeline/openapi/exemplos.json, never the data of the current run. Embedding the live files
 * made every data commit rewrite openapi.json; with a fixed sample a data-only run leaves it
 * byte-identical, and the description changes only when the API does.
 *
 * The sample is real output of the pipeline (cut to a readable size), taken once from a built
 * site. test/openapi validates every example against the schemas, so when a schema changes the
 * test says the sample is stale; refresh it from a site built with the new code:
 *
 *   npm run build && npx tsx pipeline/openapi/exemplos.ts [DIR_DO_SITE]   (default public/)
 *
 * The sample names no repository: the site's URLs in it (the feed's ids and links) are stored as
 * markers and filled in from package.json's `repository` when read, so a fork's openapi.json
 * points at the fork like every other file rendered from that setting.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { REPO_ROOT } from "../config.ts";
import { PipelineError } from "../domain/errors.ts";
import { JSDELIVR_URL, PROJECT_URL, SITE_URL, type SiteUrls } from "../domain/site.ts";
import { EVENTOS_PATH, FEED_PATH } from "../events/model.ts";
import { EXEMPLOS } from "../sources/index.ts";

export const EXEMPLOS_FILE = join(REPO_ROOT, "pipeline", "openapi", "exemplos.json");

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Site path (from the site root) -> the sample of that file: parsed JSON, or the text of a CSV/XML head. */
export type Amostra = Readonly<Record<string, Json>>;

type Urls = Pick<SiteUrls, "SITE_URL" | "JSDELIVR_URL" | "PROJECT_URL">;
const URLS: Urls = { SITE_URL, JSDELIVR_URL, PROJECT_URL };

/** Marker -> URL, without the trailing slash (a link to the site's root may be written either way). */
function marcadores(urls: Urls): Array<[marcador: string, url: string]> {
  return [
    ["__SITE_URL__", urls.SITE_URL.replace(/\/$/, "")],
    ["__JSDELIVR_URL__", urls.JSDELIVR_URL.replace(/\/$/, "")],
    ["__PROJECT_URL__", urls.PROJECT_URL.replace(/\/$/, "")],
  ];
}

/** The files sampled, from the site root. */
export function arquivosDaAmostra(): string[] {
  const nac = EXEMPLOS.nacional;
  const est = EXEMPLOS.estadual;
  return [
    "api/v1/cotacao.json",
    "api/v1/cotacao/uf/SP.json",
    `api/v1/cotacao/${nac}.json`,
    `api/v1/cotacao/${est}.json`,
    `api/v1/historico/${nac}.csv`,
    `api/v1/historico/${est}.csv`,
    "api/v1/index.json",
    EVENTOS_PATH,
    FEED_PATH,
  ];
}

/** A document cut to a readable size: `historico` keeps its newest few days, other long arrays their first few. */
function cortado(doc: Json, keep: Record<string, number>): Json {
  if (!doc || typeof doc !== "object" || Array.isArray(doc)) return doc;
  const out: { [k: string]: Json } = {};
  for (const [k, v] of Object.entries(doc)) {
    const n = keep[k];
    out[k] = n !== undefined && Array.isArray(v) ? (k === "historico" ? v.slice(-n) : v.slice(0, n)) : v;
  }
  return out;
}

function cabeca(text: string, maxLines: number): string {
  const lines = text.split("\n");
  return lines.length > maxLines ? lines.slice(0, maxLines).join("\n") + "\n" : text;
}

/** The sample, from the files of a built site (pure), the site's URLs as markers. A missing file is an error naming it. */
export function extrairAmostra(files: ReadonlyMap<string, string>, urls: Urls = URLS): Amostra {
  const out: Record<string, Json> = {};
  for (const path of arquivosDaAmostra()) {
    let text = files.get(path);
    if (text !== undefined) for (const [marcador, url] of marcadores(urls)) text = text.replaceAll(url, marcador);
    if (text === undefined) throw new PipelineError({ stage: "render", reason: `amostra do openapi.json: ${path} não existe no site` });
    if (path.endsWith(".csv")) out[path] = cabeca(text, 4);
    else if (path.endsWith(".xml")) {
      const end = text.indexOf("</entry>");
      out[path] = end < 0 ? text : `${text.slice(0, end + "</entry>".length)}\n</feed>\n`;
    } else out[path] = cortado(JSON.parse(text) as Json, { historico: 3, series: 3, eventos: 3 });
  }
  return out;
}

/** The committed sample with this repository's URLs; a missing or broken file is a clear error. */
export function lerAmostra(file: string = EXEMPLOS_FILE, urls: Urls = URLS): Amostra {
  try {
    let text = readFileSync(file, "utf8");
    // a URL inside a JSON string needs no escaping, so the markers are replaced in the text
    for (const [marcador, url] of marcadores(urls)) text = text.replaceAll(marcador, url);
    return JSON.parse(text) as Amostra;
  } catch (err) {
    throw new PipelineError({
      stage: "render",
      reason: `amostra do openapi.json (${file}): ${(err as Error).message}; gere-a com npx tsx pipeline/openapi/exemplos.ts`,
      cause: err,
    });
  }
}

export function stringifyAmostra(a: Amostra): string {
  return JSON.stringify(a, null, 2) + "\n";
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const dir = process.argv[2] ?? join(REPO_ROOT, "public");
  const files = new Map<string, string>();
  for (const p of arquivosDaAmostra()) {
    try {
      files.set(p, readFileSync(join(dir, p), "utf8"));
    } catch {
      // extrairAmostra names the missing file
    }
  }
  writeFileSync(EXEMPLOS_FILE, stringifyAmostra(extrairAmostra(files)));
  console.log(`exemplos: ${EXEMPLOS_FILE} gravado a partir de ${dir}`);
}
