/**
 * .fatos.json, at the site root beside the data it describes: what the last publish
 * wrote of each series (site/assemble.ts `FatosSerie`), so the next run renders only the series
 * that changed and checks the files that show every series against small facts instead of
 * reading every history again. Published in the same all-or-nothing set as the files it
 * describes, committed with them, never deployed (a dotfile).
 *
 * Trusted only when it was written by code that renders series the same way (`codigo`, from
 * assemble.ts `versaoDoCodigo`) and each series' JSON on disk still has the fingerprint it
 * records; otherwise the run reads and renders every series, as `npm run build` always does.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { FatosSerie, Impressao } from "../render/resumo.ts";

export const FATOS_PATH = ".fatos.json";

export interface Fatos {
  versao: 1;
  /** versaoDoCodigo() of the code that wrote them (assemble.ts) */
  codigo: string;
  /**
   * fonteDoCodigo() of the code that wrote them (assemble.ts): a run of the very same source
   * takes `codigo` as its own instead of rendering the catalogue again to compute it
   */
  fonte?: string;
  series: Record<string, FatosSerie>;
}

export function impressao(bytes: string | Buffer): Impressao {
  const b = typeof bytes === "string" ? Buffer.from(bytes, "utf8") : bytes;
  return { sha256: createHash("sha256").update(b).digest("hex"), bytes: b.length };
}

/** One series per line, in the catalogue's order: a run's diff shows which series it touched. */
export function textoDosFatos(f: Fatos): string {
  const linhas = Object.entries(f.series).map(([id, s]) => `    ${JSON.stringify(id)}: ${JSON.stringify(s)}`);
  const fonte = f.fonte === undefined ? "" : `  "fonte": ${JSON.stringify(f.fonte)},\n`;
  return `{\n  "versao": ${f.versao},\n  "codigo": ${JSON.stringify(f.codigo)},\n${fonte}  "series": {\n${linhas.join(",\n")}\n  }\n}\n`;
}

/**
 * The facts of the published set, or null (none, unreadable, or written by other code): then
 * every series is rendered. `codigo` gives this code's version, told the facts (it may take theirs
 * when they were written by the same source).
 */
export async function lerFatos(root: string, codigo: (lidos: Pick<Fatos, "codigo" | "fonte">) => string): Promise<Fatos | null> {
  let text: string;
  try {
    text = await readFile(join(root, FATOS_PATH), "utf8");
  } catch {
    return null;
  }
  try {
    const f = JSON.parse(text) as Fatos;
    if (f.versao !== 1 || typeof f.codigo !== "string" || (f.fonte !== undefined && typeof f.fonte !== "string")) return null;
    if (typeof f.series !== "object" || f.series === null || f.codigo !== codigo(f)) return null;
    return f;
  } catch {
    return null;
  }
}
