/**
 * The public contract in code: the validators of every schema in schemas/ (JSON Schema 2020-12,
 * every error, strict, formats; precompiled by `npm run gerar` into validadores.gerados.ts, and
 * compiled with Ajv when the schemas or the catalogue differ from the ones they were generated
 * from), the schema of each published path, and the one reader
 * of published files (`readPublished`): whatever the pipeline reads back from public/ (series,
 * status, events, capture log) is parsed and validated here before it is believed, instead of
 * each loader guarding a few fields by hand. What comes in from sources (scraped rows,
 * configuration) is checked with zod where it enters; this is for what goes out and comes back.
 */
import { readdirSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createHash } from "node:crypto";
import { _, Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { PipelineError, type Stage } from "../domain/errors.ts";
import { hasAtMostTwoDecimals } from "../domain/money.ts";
import { edicaoDosProdutos, isProduto, PRODUTOS, type Produto } from "../domain/products.ts";
import type { PorSchema } from "../domain/publicados.gerados.ts";
import { isUF, type UF } from "../domain/ufs.ts";
import { edicaoDoCatalogo, SOURCES } from "../sources/index.ts";
import { checarAgregado, checarEventos, checarSerie } from "./checks.ts";
import { isDataValida } from "./data.ts";
import { linha, problemasDoAjv, type Problema } from "./messages.ts";
import { CHAVE_DOS_VALIDADORES, VALIDADORES } from "./validadores.gerados.ts";

/** Absolute path of the schemas/ folder at the repository root. */
export const SCHEMA_DIR = fileURLToPath(new URL("../../schemas/", import.meta.url));

/** The schema files (names, sorted), which the build copies to public/schemas/. */
export function listSchemaFiles(): string[] {
  return readdirSync(SCHEMA_DIR)
    .filter((f) => f.endsWith(".schema.json"))
    .sort();
}

/**
 * JSON files under api/v1/ that may be published without a schema of their own. A top-level
 * api/v1/{nome}.json is validated by schemas/{nome}.schema.json as soon as that file exists
 * (then this list no longer applies to it); any other JSON under api/v1/ without a schema is
 * an error.
 */
export const SEM_SCHEMA_PERMITIDOS: readonly string[] = ["api/v1/openapi.json"];

export type SchemaKind = "cotacao" | "serie" | "index" | "status";

export interface SchemaMatch {
  /** "outro": a top-level api/v1/{nome}.json validated by schemas/{nome}.schema.json */
  kind: SchemaKind | "outro";
  /** file name in schemas/, also the schema's `$id` */
  schema: string;
  /** aggregate: null for cotacao.json, the UF for cotacao/uf/{UF}.json; series: its UF or null */
  uf?: UF | null;
  produto?: Produto;
  /** a series' recent file (api/v1/recente/...), the last year of api/v1/cotacao/... */
  recente?: true;
}

/** "public/api/v1/x.json", "/api/v1/x.json", "api\\v1\\x.json" -> "api/v1/x.json" */
export function normalizePath(relPath: string): string {
  return relPath.replace(/\\/g, "/").replace(/^(\.\/)+/, "").replace(/^\/+/, "").replace(/^public\//, "");
}

/** The schema a file under public/ is validated against, or null when there is none. */
export function schemaFor(relPath: string): SchemaMatch | null {
  const p = normalizePath(relPath);
  if (p === "api/v1/cotacao.json") return { kind: "cotacao", schema: "cotacao.schema.json", uf: null };
  if (p === "api/v1/index.json") return { kind: "index", schema: "index.schema.json" };
  if (p === "api/v1/status.json") return { kind: "status", schema: "status.schema.json" };
  let m = /^api\/v1\/cotacao\/uf\/([^/]+)\.json$/.exec(p);
  if (m) return isUF(m[1]!) ? { kind: "cotacao", schema: "cotacao.schema.json", uf: m[1] as UF } : null;
  // a series' file, or its last year (recente/): the same document, the history cut
  m = /^api\/v1\/(cotacao|recente)\/([^/]+)\.json$/.exec(p);
  if (m) return isProduto(m[2]!) ? { kind: "serie", schema: "serie.schema.json", produto: m[2] as Produto, uf: null, ...(m[1] === "recente" ? { recente: true } : {}) } : null;
  m = /^api\/v1\/(cotacao|recente)\/([^/]+)\/([^/]+)\.json$/.exec(p);
  if (m && isProduto(m[2]!) && isUF(m[3]!)) {
    return { kind: "serie", schema: "serie.schema.json", produto: m[2] as Produto, uf: m[3] as UF, ...(m[1] === "recente" ? { recente: true } : {}) };
  }
  // the capture log, one file per year (schemas/capturas.schema.json, once it exists)
  if (/^api\/v1\/capturas\/\d{4}\.json$/.test(p) && compiled().has("capturas.schema.json")) return { kind: "outro", schema: "capturas.schema.json" };
  // files added later (eventos.json, ...) only need their schema in schemas/
  m = /^api\/v1\/([a-z0-9_-]+)\.json$/.exec(p);
  if (m && !["cotacao", "index", "status", "common", "serie"].includes(m[1]!) && compiled().has(`${m[1]}.schema.json`)) {
    return { kind: "outro", schema: `${m[1]}.schema.json` };
  }
  return null;
}

/** True when the shortest decimal form of the number has at most two places (347.7, not 347.70000000000005). */
export const isDecimal2 = hasAtMostTwoDecimals;

// ajv-formats is CommonJS: under Node's ESM loader the default import is module.exports
type FormatsPlugin = (ajv: Ajv2020) => Ajv2020;
const addFormats = ((addFormatsModule as unknown as { default?: FormatsPlugin }).default ??
  addFormatsModule) as unknown as FormatsPlugin;

/**
 * The contract's Ajv (2020-12, every error, strict, verbose, formats). `fonte`: keep each
 * validator's code for `npm run gerar`, whose standalone module names the formats `FORMATOS`
 * (ajv-formats' full set with contract/data.ts's `date`, and decimal2, as here) instead of requiring ajv-formats' own.
 */
export function novoAjv(fonte = false): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true, verbose: true, ...(fonte ? { code: { source: true, lines: true } } : {}) });
  addFormats(ajv);
  // the same rule as ajv-formats' `date`, without a regular expression: it runs on every day of
  // every history (contract/data.ts); its comparison for formatMinimum/Maximum stays ajv-formats'
  ajv.addFormat("date", { ...(ajv.formats.date as object), validate: isDataValida });
  // `multipleOf: 0.01` cannot be used for money: Ajv rejects 0.07 and 1234.56 (float
  // division), and with `multipleOfPrecision` it accepts 347.70000000000005.
  ajv.addFormat("decimal2", { type: "number", validate: isDecimal2 });
  if (fonte) ajv.opts.code.formats = _`FORMATOS`;
  return ajv;
}

let validators: Map<string, ValidateFunction> | undefined;
let catalogoCompilado = "";

/** The enums of products and sources, as the schemas are compiled with them. */
export interface EnumsDoCatalogo {
  produto: readonly string[];
  fonte: readonly string[];
}

/**
 * The enums of products and sources come from the catalogue: schemas/common.schema.json holds
 * the shipped catalogue's (written by `npm run gerar`, checked by test/gerados.test.ts), and the
 * validator uses the live catalogue's, so a product or source registered at run time validates.
 */
function enumsDoCatalogo(): EnumsDoCatalogo {
  return { produto: [...PRODUTOS], fonte: SOURCES.map((s) => s.id) };
}

type SchemaLido = { $id?: string; $defs?: Record<string, { enum?: unknown[] }> };

/**
 * The schemas as they are compiled, in file order: `$id` checked against the file name, and
 * common.schema.json's enums of products and sources replaced by `enums` (copies: the parsed
 * inputs are left as they are).
 */
export function schemasDoContrato(lidos: Iterable<readonly [string, unknown]>, enums: EnumsDoCatalogo): Array<[string, SchemaLido]> {
  const out: Array<[string, SchemaLido]> = [];
  for (const [f, parsed] of lidos) {
    const schema = structuredClone(parsed) as SchemaLido;
    if (schema.$id !== f) throw new PipelineError({ stage: "validate", reason: `schemas/${f}: "$id" deve ser "${f}" (recebido ${JSON.stringify(schema.$id)})` });
    if (f === "common.schema.json") {
      for (const k of ["produto", "fonte"] as const) if (schema.$defs?.[k]) schema.$defs[k].enum = [...enums[k]];
    }
    out.push([f, schema]);
  }
  return out;
}

/**
 * What the validators are compiled from, as one hash: the standalone module of `npm run gerar`
 * records it, and a run uses that module only when the schemas and the catalogue it validates
 * with hash the same (a schema edited without `npm run gerar`, or a product registered at run
 * time, is compiled instead, as before the module existed).
 */
export function chaveDoContrato(schemas: ReadonlyArray<readonly [string, unknown]>): string {
  return createHash("sha256").update(JSON.stringify(schemas)).digest("hex");
}

/** Compiles the schemas with Ajv (used when the generated module does not match them). */
export function compilarSchemas(schemas: ReadonlyArray<readonly [string, unknown]>, ajv = novoAjv()): Map<string, ValidateFunction> {
  for (const [, schema] of schemas) ajv.addSchema(schema as object);
  const out = new Map<string, ValidateFunction>();
  for (const [f] of schemas) {
    const v = ajv.getSchema(f);
    if (!v) throw new PipelineError({ stage: "validate", reason: `schemas/${f}: não compilou` });
    out.set(f, v);
  }
  return out;
}

/** Validators of every schema once per catalogue: the generated module's when it matches, compiled otherwise. */
function compiled(): Map<string, ValidateFunction> {
  const enums = enumsDoCatalogo();
  const chave = JSON.stringify(enums);
  if (validators && catalogoCompilado === chave) return validators;
  const files = listSchemaFiles();
  const schemas = schemasDoContrato(
    files.map((f) => [f, JSON.parse(readFileSync(join(SCHEMA_DIR, f), "utf8"))] as const),
    enums,
  );
  validators = validadoresGerados(schemas) ?? compilarSchemas(schemas);
  catalogoCompilado = chave;
  return validators;
}

/** The generated module's validators, when they were generated from exactly these schemas. */
function validadoresGerados(schemas: ReadonlyArray<readonly [string, unknown]>): Map<string, ValidateFunction> | null {
  if (CHAVE_DOS_VALIDADORES !== chaveDoContrato(schemas)) return null;
  const out = new Map<string, ValidateFunction>();
  for (const [f] of schemas) {
    const v = VALIDADORES[f];
    if (!v) return null;
    out.set(f, v);
  }
  return out;
}

/** Test-only: whether this process validates with the generated module (true) or compiled the schemas (false). */
export function usaValidadoresGerados(): boolean {
  const v = compiled();
  return [...v].every(([f, fn]) => VALIDADORES[f] === fn);
}

function problemasDoDocumento(match: SchemaMatch, data: unknown): Problema[] {
  const validate = compiled().get(match.schema);
  if (!validate) throw new PipelineError({ stage: "validate", reason: `schema ${match.schema} não encontrado em ${SCHEMA_DIR}` });
  const out = validate(data) ? [] : problemasDoAjv(validate.errors);
  if (match.kind === "serie") out.push(...checarSerie(data, { produto: match.produto!, uf: match.uf ?? null }));
  if (match.kind === "cotacao") out.push(...checarAgregado(data, match.uf ?? null));
  if (match.schema === "eventos.schema.json") out.push(...checarEventos(data));
  return out;
}

/**
 * Validates one parsed document against the schema of its path (and the checks in code).
 * Returns readable pt-BR lines, one per problem; empty when the document is valid.
 */
export function validateDocument(relPath: string, data: unknown): string[] {
  const p = normalizePath(relPath);
  const match = schemaFor(p);
  if (!match) {
    if (SEM_SCHEMA_PERMITIDOS.includes(p)) return [];
    return [
      `${p}: sem schema: nenhum schema em schemas/ cobre este caminho (arquivo desconhecido; se deve ser publicado, ` +
        "crie o schema dele ou inclua-o em SEM_SCHEMA_PERMITIDOS em pipeline/contract/schemas.ts)",
    ];
  }
  return problemasDoDocumento(match, data).map((pr) => linha(p, pr));
}


/** How many schema problems a reader's error quotes (a damaged history can have thousands). */
const PROBLEMAS_CITADOS = 5;

/**
 * A published file's text as `readPublishedComTexto` read it and found it valid (schema and checks
 * in code, for its path). Only that function makes one: a file rendered again to exactly these
 * bytes at the same path needs no second validation (`jaValidado`).
 */
export interface TextoValidado {
  readonly caminho: string;
  readonly texto: string;
}

/**
 * the TextoValidado this module made (an object of the same shape made elsewhere proves nothing),
 * each with the catalogue it was checked with: the enums the validators were compiled for, and the
 * editions of the sources and products the checks in code read (a source declared again with the
 * same id keeps the enums but may move a series' place)
 */
const validadosAoLer = new WeakMap<TextoValidado, string>();

function catalogoAtual(): string {
  compiled();
  return `${catalogoCompilado}|${edicaoDoCatalogo()}|${edicaoDosProdutos()}`;
}

/**
 * True when `texto` at `relPath` is byte for byte a text this module read at that path and found
 * valid, with the validators of the same catalogue: validating it again would give the same answer.
 */
export function jaValidado(lido: TextoValidado | undefined, relPath: string, texto: unknown): boolean {
  if (lido === undefined || typeof texto !== "string") return false;
  const catalogo = validadosAoLer.get(lido);
  if (catalogo === undefined) return false;
  return catalogo === catalogoAtual() && lido.caminho === normalizePath(relPath) && texto === lido.texto;
}

/**
 * Reads a published file back (`relPath` under `publicDir`, e.g. "api/v1/status.json"), parses it
 * and validates it against `schema` and the checks in code (a series must also be the series of
 * its path). Returns null when the file does not exist. A file that cannot be read, is not JSON
 * or breaks its schema stops the caller with a PipelineError naming the file and its problems:
 * a damaged file is never "repaired" into an empty one, and nothing is written after it.
 */
export async function readPublished<K extends keyof PorSchema>(
  publicDir: string,
  relPath: string,
  schema: K,
  opts: { stage?: Stage; migrar?: (doc: unknown) => unknown } = {},
): Promise<PorSchema[K] | null> {
  return (await readPublishedComTexto(publicDir, relPath, schema, opts))?.doc ?? null;
}

/**
 * readPublished, with the text it read and validated (TextoValidado). `migrar` brings a file
 * written in an older form of its schema to the current one before it is validated (the
 * TextoValidado stays the text read, so the migrated file, rendered, is validated again).
 */
export async function readPublishedComTexto<K extends keyof PorSchema>(
  publicDir: string,
  relPath: string,
  schema: K,
  opts: { stage?: Stage; migrar?: (doc: unknown) => unknown } = {},
): Promise<{ doc: PorSchema[K]; lido: TextoValidado } | null> {
  const stage = opts.stage ?? "merge";
  const rel = normalizePath(relPath);
  const match = schemaFor(rel);
  if (match?.schema !== schema) {
    throw new PipelineError({ stage, reason: `${rel} não é validado por schemas/${schema} (o caminho pede ${match ? `schemas/${match.schema}` : "nenhum schema"})` });
  }
  let text: string;
  try {
    text = await readFile(join(publicDir, rel), "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new PipelineError({ stage, reason: `não foi possível ler ${rel}: ${(err as Error).message}`, cause: err });
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new PipelineError({
      stage,
      reason: `${rel} não é JSON válido (${(err as Error).message}); nada foi escrito — restaure o arquivo com git`,
      cause: err,
    });
  }
  if (opts.migrar) doc = opts.migrar(doc);
  const problemas = validateDocument(rel, doc);
  if (problemas.length > 0) {
    const citados = problemas.slice(0, PROBLEMAS_CITADOS).map((p) => p.replace(`${rel}: `, ""));
    const mais = problemas.length > PROBLEMAS_CITADOS ? `; e mais ${problemas.length - PROBLEMAS_CITADOS}` : "";
    throw new PipelineError({
      stage,
      reason:
        `${rel} não segue schemas/${schema}: ${citados.join("; ")}${mais}. ` +
        "O arquivo guardado não passou na validação; nada foi escrito — restaure o arquivo com git",
    });
  }
  const lido: TextoValidado = Object.freeze({ caminho: rel, texto: text });
  validadosAoLer.set(lido, catalogoAtual());
  return { doc: doc as PorSchema[K], lido };
}
