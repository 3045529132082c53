/**
 * Ajv's errors as readable pt-BR lines: `/historico/3/valor: deve ser número (recebido "161,00")`.
 * The Ajv instance runs with `verbose: true`, so every error carries the offending data and the
 * schema around it.
 */
import type { ErrorObject } from "ajv";

export interface Problema {
  /** JSON Pointer of the offending value ("" is the document itself) */
  ponteiro: string;
  mensagem: string;
}

const TIPOS: Record<string, string> = {
  number: "número",
  integer: "número inteiro",
  string: "texto",
  boolean: "booleano (true/false)",
  object: "objeto",
  array: "lista",
  null: "null",
};

const FORMATOS: Record<string, string> = {
  date: "uma data válida no formato AAAA-MM-DD",
  "date-time": "data e hora ISO 8601 válida com fuso (ex.: 2026-09-06T22:39:05-03:00)",
  uri: "uma URL absoluta",
  decimal2: "um número com no máximo duas casas decimais",
};

const PADROES: Record<string, string> = {
  "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}[+-]\\d{2}:\\d{2}$":
    "deve ser data e hora ao segundo com o deslocamento de fuso explícito (ex.: 2026-09-06T22:39:05-03:00)",
};

/** A value as it appears in the file, shortened for one line. */
export function mostrar(value: unknown): string {
  let s: string;
  if (value === undefined) s = "nada";
  else if (typeof value === "number") s = String(value);
  else s = JSON.stringify(value) ?? String(value);
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

function tipos(t: unknown): string {
  const list = Array.isArray(t) ? t : [t];
  return list.map((x) => TIPOS[String(x)] ?? String(x)).join(" ou ");
}

function recebido(e: ErrorObject): string {
  return ` (recebido ${mostrar(e.data)})`;
}

function mensagem(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case "type":
      return `deve ser ${tipos(p.type)}${recebido(e)}`;
    case "required":
      return `falta o campo obrigatório "${String(p.missingProperty)}"`;
    case "additionalProperties":
      return "campo não previsto no schema";
    case "false schema":
      return "campo não permitido aqui";
    case "enum": {
      const allowed = (p.allowedValues as unknown[]).map((v) => mostrar(v)).join(", ");
      return `deve ser um destes valores: ${allowed}${recebido(e)}`;
    }
    case "const":
      return `deve ser ${mostrar(p.allowedValue)}${recebido(e)}`;
    case "format":
      return `deve ser ${FORMATOS[String(p.format)] ?? `no formato "${String(p.format)}"`}${recebido(e)}`;
    case "pattern":
      return `${PADROES[String(p.pattern)] ?? `deve seguir o padrão ${String(p.pattern)}`}${recebido(e)}`;
    case "minLength":
      return p.limit === 1 ? `não pode ser vazio${recebido(e)}` : `deve ter pelo menos ${String(p.limit)} caracteres${recebido(e)}`;
    case "minItems":
      return p.limit === 1 ? "não pode ser uma lista vazia" : `deve ter pelo menos ${String(p.limit)} itens`;
    case "minProperties":
      return p.limit === 1 ? "não pode ser um objeto vazio" : `deve ter pelo menos ${String(p.limit)} campos`;
    case "minimum":
      return `deve ser maior ou igual a ${String(p.limit)}${recebido(e)}`;
    case "exclusiveMinimum":
      return `deve ser maior que ${String(p.limit)}${recebido(e)}`;
    case "maximum":
      return `deve ser menor ou igual a ${String(p.limit)}${recebido(e)}`;
    case "exclusiveMaximum":
      return `deve ser menor que ${String(p.limit)}${recebido(e)}`;
    case "propertyNames":
      return `nome de campo inválido: ${mostrar(p.propertyName)}`;
    case "uniqueItems":
      return `itens repetidos (posições ${String(p.j)} e ${String(p.i)})`;
    default:
      return `não atende ao schema (${e.keyword}: ${e.message ?? "?"})`;
  }
}

function ponteiro(e: ErrorObject): string {
  if (e.keyword === "additionalProperties") {
    const prop = String((e.params as { additionalProperty: string }).additionalProperty);
    return `${e.instancePath}/${prop.replace(/~/g, "~0").replace(/\//g, "~1")}`;
  }
  return e.instancePath;
}

function within(path: string, base: string): boolean {
  return path === base || path.startsWith(`${base}/`);
}

/**
 * Turns Ajv's raw list into one line per real problem:
 * - `anyOf` (used only for "this shape or null"): when the value has none of the branch types,
 *   one line "deve ser número ou null"; otherwise only the errors of the branch whose type
 *   matched, so a bad object in a nullable field reports what is wrong inside it.
 * - `if`/`then`/`else`: the branch errors get the branch's description as context, the bare
 *   "must match then schema" line is dropped.
 * - identical lines (a `$ref` plus a sibling `type` both failing) appear once.
 */
export function problemasDoAjv(errors: readonly ErrorObject[] | null | undefined): Problema[] {
  const list = [...(errors ?? [])];
  const drop = new Set<number>();
  const extra = new Map<number, Problema>();
  const contexto = new Map<number, string>();

  list.forEach((e, i) => {
    if (e.keyword === "anyOf") {
      drop.add(i);
      const members: number[] = [];
      for (let j = i - 1; j >= 0; j--) {
        const o = list[j]!;
        if (o.keyword === "anyOf" && o.instancePath === e.instancePath) break;
        if (within(o.instancePath, e.instancePath)) members.push(j);
      }
      const typeMisses = members.filter((j) => list[j]!.keyword === "type" && list[j]!.instancePath === e.instancePath);
      if (typeMisses.length === members.length) {
        const wanted = new Set<string>();
        for (const j of typeMisses) {
          const t = (list[j]!.params as { type: string | string[] }).type;
          for (const x of Array.isArray(t) ? t : [t]) wanted.add(x);
          drop.add(j);
        }
        // "null" last: "deve ser número ou null"
        const ordered = [...wanted].sort((a, b) => Number(a === "null") - Number(b === "null"));
        extra.set(i, { ponteiro: e.instancePath, mensagem: `deve ser ${tipos(ordered)}${recebido(e)}` });
      } else {
        for (const j of typeMisses) drop.add(j);
      }
    } else if (e.keyword === "if") {
      drop.add(i);
      const branch = String((e.params as { failingKeyword: string }).failingKeyword);
      const prefix = `${e.schemaPath.replace(/\/if$/, "")}/${branch}/`;
      const parent = e.parentSchema as Record<string, { description?: string } | undefined> | undefined;
      const desc = parent?.[branch]?.description;
      if (desc) {
        list.forEach((o, j) => {
          if (o.schemaPath.startsWith(prefix)) contexto.set(j, desc);
        });
      }
    }
  });

  const out: Problema[] = [];
  const seen = new Set<string>();
  list.forEach((e, i) => {
    const p = extra.get(i) ?? (drop.has(i) ? undefined : { ponteiro: ponteiro(e), mensagem: mensagem(e) });
    if (!p) return;
    const ctx = contexto.get(i);
    if (ctx) p.mensagem += ` [${ctx}]`;
    const key = `${p.ponteiro}\u0000${p.mensagem}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(p);
  });
  return out;
}

/** "api/v1/cotacao/soja.json: /historico/3/valor: deve ser número (recebido "161,00")" */
export function linha(arquivo: string, p: Problema): string {
  return `${arquivo}: ${p.ponteiro || "/"}: ${p.mensagem}`;
}
