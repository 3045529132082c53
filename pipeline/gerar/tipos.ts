/**
 * TypeScript types of every published file, generated from the JSON Schemas in schemas/ (the
 * public contract), so that no shape is written by hand twice: the pipeline's module and the
 * client's client.d.ts both come from one pass over the schemas as they are on disk (a later
 * step may write the enums of common.schema.json from a catalogue; this reads whatever is there).
 *
 * Pure: schema texts in, file texts out (`gerarArquivos`); pipeline/cli/gerar.ts writes them and
 * test/gerados.test.ts compares them with what is committed.
 *
 * json-schema-to-typescript turns every `{ "$ref", "description" }` into a fresh alias (Texto1,
 * Texto2, ... Texto28) and declares a cross-file target once per file that points at it. So each
 * definition is compiled on its own under one stable name, and every `$ref` to a definition
 * becomes a reference to that name (`tsType`), keeping the description for the comment.
 */
import { isDeepStrictEqual } from "node:util";
import { compile, type JSONSchema } from "json-schema-to-typescript";
import { nomeDoTipo as pascal } from "../contract/nome-do-tipo.ts";

/** Schema file name ("serie.schema.json") -> parsed schema, in any order. */
export type Schemas = ReadonlyMap<string, unknown>;

type No = Record<string, unknown>;

const isNo = (v: unknown): v is No => typeof v === "object" && v !== null && !Array.isArray(v);

/** The file whose `$defs` every other schema shares; it describes no file of its own. */
export const COMUM = "common.schema.json";

/** A definition to declare: its schema, the file it is in and, for `$defs`, its key. */
interface Def {
  file: string;
  key: string | null;
  schema: No;
}

/**
 * Type names. A file's root is its file name ("serie.schema.json" -> Serie); a definition of
 * common.schema.json is its key (historicoEntrada -> HistoricoEntrada); a definition local to a
 * file is its key too, unless that name is taken or too short to say anything ("id"), when it
 * gets the file's name in front (eventos.schema.json's "serie" -> EventosSerie).
 */
function nomear(schemas: Schemas): Map<string, Def> {
  const files = [...schemas.keys()].sort((a, b) => (a === COMUM ? -1 : b === COMUM ? 1 : a < b ? -1 : a > b ? 1 : 0));
  const nomes = new Map<string, Def>();
  const put = (nome: string, def: Def) => {
    if (nomes.has(nome)) throw new Error(`[gerar] schemas/${def.file}: o nome de tipo ${nome} já é usado por schemas/${nomes.get(nome)!.file}`);
    nomes.set(nome, def);
  };
  const defsOf = (file: string): Array<[string, No]> => {
    const s = schemas.get(file);
    const defs = isNo(s) && isNo(s.$defs) ? s.$defs : {};
    return Object.entries(defs).filter((e): e is [string, No] => isNo(e[1]));
  };
  for (const [key, schema] of defsOf(COMUM)) put(pascal(key), { file: COMUM, key, schema });
  for (const file of files) {
    if (file === COMUM) continue;
    const s = schemas.get(file);
    if (!isNo(s)) throw new Error(`[gerar] schemas/${file}: não é um objeto JSON`);
    put(pascal(file), { file, key: null, schema: s });
  }
  for (const file of files) {
    if (file === COMUM) continue;
    for (const [key, schema] of defsOf(file)) {
      const curto = pascal(key);
      put(nomes.has(curto) || curto.length < 4 ? pascal(file) + curto : curto, { file, key, schema });
    }
  }
  return nomes;
}

/** Follows a JSON pointer ("/$defs/cotacaoPraca/properties/base_sp") inside a schema. */
function seguir(schema: unknown, pointer: string): unknown {
  let at: unknown = schema;
  for (const raw of pointer.split("/").filter(Boolean)) {
    const part = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    at = isNo(at) ? at[part] : undefined;
  }
  return at;
}

/** The schema a `$ref` of `file` points at, or undefined. */
function seguirRef(ref: string, file: string, schemas: Schemas): No | undefined {
  const m = /^([^#]*)#(.*)$/.exec(ref);
  const t = m ? seguir(schemas.get(m[1] || file), m[2]!) : undefined;
  return isNo(t) ? t : undefined;
}

/** Keywords that only annotate: a `$ref` beside them alone is a plain reference. */
const ANOTACOES = new Set(["description", "title", "$comment", "examples", "deprecated"]);

/** Keywords that narrow values but not their TypeScript type (`preco` = `dinheiro` > 0 is still a Dinheiro). */
const SO_VALIDACAO = new Set([
  "minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "pattern", "format",
  "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties", "propertyNames",
]);

/**
 * The `if {tipo: const} then {dados: ...}` pattern (eventos.schema.json's evento) is a tagged
 * union that the generator would drop (it ignores if/then): it becomes one variant per tag, so
 * that TypeScript narrows `dados` by `tipo` exactly as the validator does.
 */
function uniaoDiscriminada(no: No): No | null {
  const all = no.allOf;
  const props = no.properties;
  if (!Array.isArray(all) || all.length === 0 || !isNo(props)) return null;
  const casos: Array<{ chave: string; valor: unknown; then: No }> = [];
  for (const item of all) {
    if (!isNo(item) || Object.keys(item).sort().join() !== "if,then" || !isNo(item.if) || !isNo(item.then)) return null;
    const ifProps = item.if.properties;
    if (Object.keys(item.if).join() !== "properties" || !isNo(ifProps) || Object.keys(ifProps).length !== 1) return null;
    const [chave, cond] = Object.entries(ifProps)[0]!;
    if (!isNo(cond) || !("const" in cond) || Object.keys(cond).length !== 1) return null;
    if (Object.keys(item.then).join() !== "properties" || !isNo(item.then.properties)) return null;
    casos.push({ chave, valor: cond.const, then: item.then.properties });
  }
  const chave = casos[0]!.chave;
  if (casos.some((c) => c.chave !== chave)) return null;
  const tag = props[chave];
  const todos = isNo(tag) && Array.isArray(tag.enum) ? tag.enum : null;
  if (!todos || casos.some((c) => !todos.includes(c.valor))) return null;
  const { allOf: _allOf, description, ...base } = no;
  const variante = (valor: unknown[], then: No): No => {
    const { enum: _enum, ...tagSemEnum } = tag as No;
    return { ...base, properties: { ...props, [chave]: valor.length === 1 ? { ...tagSemEnum, const: valor[0] } : { ...tagSemEnum, enum: valor }, ...then } };
  };
  const variantes = casos.map((c) => variante([c.valor], c.then));
  const resto = todos.filter((v) => !casos.some((c) => c.valor === v));
  if (resto.length > 0) variantes.push(variante(resto, {}));
  return { ...(description === undefined ? {} : { description }), anyOf: variantes };
}

/**
 * A schema node as json-schema-to-typescript should see it: `$ref` to a definition -> its type
 * name; `$ref` deeper into one -> a copy of the target; `$ref` beside other keywords (2020-12
 * applies both) -> an intersection; `unevaluatedProperties: false` -> closed, as TypeScript's
 * intersection of closed objects already is.
 */
function preparar(node: unknown, file: string, schemas: Schemas, nomeDe: (file: string, key: string) => string | undefined): unknown {
  if (Array.isArray(node)) return node.map((n) => preparar(n, file, schemas, nomeDe));
  if (!isNo(node)) return node;
  const uniao = uniaoDiscriminada(node);
  if (uniao) return preparar(uniao, file, schemas, nomeDe);
  const out: No = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === "$ref" || k === "$id" || k === "$schema" || k === "$defs" || k === "title") continue;
    if (k === "unevaluatedProperties") {
      if (v === false) out.additionalProperties = false;
      continue;
    }
    // properties/$defs keys are names, not keywords
    if (k === "properties" && isNo(v)) {
      out[k] = Object.fromEntries(Object.entries(v).map(([p, s]) => [p, preparar(s, file, schemas, nomeDe)]));
      continue;
    }
    out[k] = preparar(v, file, schemas, nomeDe);
  }
  const ref = node.$ref;
  if (typeof ref !== "string") return out;
  const m = /^([^#]*)#(.*)$/.exec(ref);
  if (!m) throw new Error(`[gerar] schemas/${file}: $ref sem "#" não é suportado: ${ref}`);
  const alvoFile = m[1] || file;
  const pointer = m[2]!;
  let alvo: No;
  const direto = /^\/\$defs\/([^/]+)$/.exec(pointer);
  const nome = direto ? nomeDe(alvoFile, direto[1]!) : pointer === "" ? nomeDe(alvoFile, "") : undefined;
  if (nome) {
    alvo = { tsType: nome };
  } else {
    const t = seguirRef(ref, file, schemas);
    if (!t) throw new Error(`[gerar] schemas/${file}: $ref não encontrado: ${ref}`);
    alvo = preparar(t, alvoFile, schemas, nomeDe) as No;
  }
  const tipoDoAlvo = seguirRef(ref, file, schemas)?.type;
  const estrutural = (k: string) => !ANOTACOES.has(k) && !SO_VALIDACAO.has(k) && !(k === "type" && isDeepStrictEqual(out.type, tipoDoAlvo));
  const anot = Object.fromEntries(Object.entries(out).filter(([k]) => ANOTACOES.has(k)));
  const estrutura = Object.fromEntries(Object.entries(out).filter(([k]) => estrutural(k)));
  if (Object.keys(estrutura).length === 0) return { ...alvo, ...anot };
  return { ...anot, allOf: [alvo, estrutura] };
}

const OPCOES = {
  bannerComment: "",
  // every published object says additionalProperties: false; the one that does not
  // (eventos.schema.json's serie) is only extended through $ref + unevaluatedProperties
  additionalProperties: false,
  declareExternallyReferenced: false,
  // minItems: 1 would become a tuple [T, ...T[]] that no history built by push() satisfies
  ignoreMinAndMaxItems: true,
  unknownAny: true,
  strictIndexSignatures: false,
  format: true,
  style: { bracketSpacing: true, printWidth: 140, semi: true, singleQuote: false, tabWidth: 2, trailingComma: "all", useTabs: false },
} as const;

/** The declarations of every published shape, one per definition, in schema order (no banner). */
export async function gerarDeclaracoes(schemas: Schemas): Promise<string> {
  const nomes = nomear(schemas);
  const porDef = new Map<string, string>();
  for (const [nome, d] of nomes) porDef.set(`${d.file}#${d.key ?? ""}`, nome);
  const nomeDe = (file: string, key: string) => porDef.get(`${file}#${key}`);
  const partes: string[] = [];
  for (const [nome, d] of nomes) {
    const schema = preparar(structuredClone(d.schema), d.file, schemas, nomeDe) as No;
    const onde = d.key === null ? `schemas/${d.file}` : `schemas/${d.file}#/$defs/${d.key}`;
    // the comment of each declaration ends with where it comes from
    const description = typeof schema.description === "string" ? `${schema.description}\n\n${onde}` : onde;
    const ts = await compile({ ...schema, description, "x-nome": nome } as JSONSchema, nome, {
      ...OPCOES,
      customName: (s) => ((s as No)["x-nome"] === nome ? nome : undefined),
    });
    partes.push(ts.trim());
  }
  return partes.join("\n\n") + "\n";
}

/** The schema file each published file's type comes from, by type name: `{ "serie.schema.json": Serie, ... }`. */
export function porSchema(schemas: Schemas): string {
  const linhas = [...nomear(schemas)].filter(([, d]) => d.key === null).map(([nome, d]) => `  ${JSON.stringify(d.file)}: ${nome};`);
  return `\n/** The type of each published file, by the schema that validates it. */\nexport interface PorSchema {\n${linhas.join("\n")}\n}\n`;
}
