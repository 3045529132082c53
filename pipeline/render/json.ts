/**
 * Deterministic JSON for the published files: two-space indentation, keys in the order the
 * renderer builds them, and the elements of "line arrays" (historico, pracas, ...) each on one
 * line, so a new day is a one-line diff and a revision is one changed line.
 */
import type { TextoValidado } from "../contract/schemas.ts";

/** One file of a published set, as rendered: its path under the site root and its text. */
export interface RenderedFile {
  path: string;
  text: string;
  /** the object the JSON text was serialized from (validated instead of parsing the text) */
  doc?: unknown;
  /**
   * A series' CSV written in the same set as its JSON (site/assemble.ts renderSerieFiles): its
   * lines are held to that JSON's history without parsing them again (validate/renderizados.ts).
   */
  daSerie?: { json: string; tabela: "historico" | "pracas"; excel: boolean };
  /** a series JSON whose CSVs follow in the same set, each with `daSerie` */
  comCsvs?: true;
  /**
   * The text the series was read from (contract/schemas.ts readPublishedComTexto): when `text` is
   * the same, at the same path, its schema validation is not run again (validate/ajv.ts).
   */
  lido?: TextoValidado;
}

const LINE_ARRAYS = new Set(["historico", "pracas", "eventos", "capturas"]);

/** `rapido` false: every element of a line array written on its own (the fast path's tests hold it to that). */
export function stringifyDoc(doc: unknown, rapido = true): string {
  return write(doc, "", null, rapido) + "\n";
}

function write(value: unknown, indent: string, key: string | null, rapido: boolean): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const inner = indent + "  ";
    if (key !== null && LINE_ARRAYS.has(key)) {
      return `[\n${inner}${(rapido ? linhasDeObjetos(value, inner) : null) ?? value.map(compact).join(`,\n${inner}`)}\n${indent}]`;
    }
    return `[\n${value.map((v) => inner + write(v, inner, null, rapido)).join(",\n")}\n${indent}]`;
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return "{}";
    const inner = indent + "  ";
    return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${write(v, inner, k, rapido)}`).join(",\n")}\n${indent}}`;
  }
  return compact(value);
}

/**
 * A line array of plain objects written by one JSON.stringify of the whole array (one call
 * instead of one per day: at 30 years, a million calls per build), then broken between its
 * elements: every element is a plain object, so each boundary is "},{", and when the text holds no
 * other "},{" (nested or inside a string) those are exactly the boundaries. Each element is
 * then what JSON.stringify gives for it alone, since none has a toJSON that could see its index.
 * Null when that does not hold: the caller writes the elements one by one.
 */
function linhasDeObjetos(value: readonly unknown[], inner: string): string | null {
  for (let i = 0; i < value.length; i++) {
    const e = value[i];
    if (typeof e !== "object" || e === null) return null;
    const proto: unknown = Object.getPrototypeOf(e);
    if ((proto !== Object.prototype && proto !== null) || typeof (e as { toJSON?: unknown }).toJSON === "function") return null;
  }
  const s = JSON.stringify(value);
  // the boundaries counted without cutting the text, then broken in one pass: at 30 years, a
  // million substrings joined again cost a third as much as the stringify itself
  let fronteiras = 0;
  for (let i = s.indexOf("},{"); i >= 0; i = s.indexOf("},{", i + 2)) fronteiras++;
  if (fronteiras !== value.length - 1) return null;
  return s.slice(1, -1).replaceAll("},{", `},\n${inner}{`);
}

function compact(value: unknown): string {
  if (typeof value === "number" && !Number.isFinite(value)) {
    throw new TypeError(`número não finito no documento: ${value}`);
  }
  const s = JSON.stringify(value);
  if (s === undefined) throw new TypeError(`valor não serializável: ${String(value)}`);
  return s;
}
