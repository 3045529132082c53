/**
 * Deterministic JSON for the published files: two-space indentation, keys in the order the
 * renderer builds them, and the elements of "line arrays" (historico, pracas, ...) each on one
 * line, so a new day is a one-line diff and a revision is one changed line.
 */
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
}

const LINE_ARRAYS = new Set(["historico", "pracas", "eventos", "capturas"]);

export function stringifyDoc(doc: unknown): string {
  return write(doc, "", null) + "\n";
}

function write(value: unknown, indent: string, key: string | null): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const inner = indent + "  ";
    if (key !== null && LINE_ARRAYS.has(key)) {
      return `[\n${inner}${value.map(compact).join(`,\n${inner}`)}\n${indent}]`;
    }
    return `[\n${value.map((v) => inner + write(v, inner, null)).join(",\n")}\n${indent}]`;
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return "{}";
    const inner = indent + "  ";
    return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${write(v, inner, k)}`).join(",\n")}\n${indent}}`;
  }
  return compact(value);
}

function compact(value: unknown): string {
  if (typeof value === "number" && !Number.isFinite(value)) {
    throw new TypeError(`número não finito no documento: ${value}`);
  }
  const s = JSON.stringify(value);
  if (s === undefined) throw new TypeError(`valor não serializável: ${String(value)}`);
  return s;
}
