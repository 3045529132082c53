/**
 * api/v1/historico.csv: every published series in long ("tidy") format, one line per series per
 * day, so one read_csv gives everything and a filter on `serie` (or `produto`, `uf`, `unidade`)
 * gives any part. Sorted by `serie` (code-unit order, not locale: the same bytes on every machine)
 * and then by `data`, oldest first.
 *
 * The file is its header and then one block per series, each a function of that series alone, so
 * a run that changes one series rewrites its block and copies the others' bytes (../site/).
 * No Excel variant: at 30 years it is past the million rows a spreadsheet can open.
 */
import type { SerieFile } from "../domain/publicados.ts";
import { ufPublicada, type SeriesDef } from "../domain/series.ts";
import { allSeries } from "../sources/index.ts";
import { csvLinha, Linhas, Numeros } from "./csv.ts";

export const COLUNAS_LONGO = ["serie", "produto", "uf", "nacional", "praca", "fonte", "unidade", "moeda", "data", "valor"] as const;

export const CABECALHO_LONGO = `${COLUNAS_LONGO.join(",")}\n`;

const porId = (a: SeriesDef, b: SeriesDef) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The catalogue's series in the long file's order. */
export function defsDoLongo(): SeriesDef[] {
  return [...allSeries()].sort(porId);
}

/** The published series in the long file's order. */
export function seriesDoLongo<T>(series: ReadonlyMap<string, T>): Array<{ def: SeriesDef; f: T }> {
  return defsDoLongo()
    .filter((d) => series.has(d.id))
    .map((def) => ({ def, f: series.get(def.id)! }));
}

/** The columns every line of a series repeats, as the long file writes them (before data,valor). */
export function fixosDoLongo(def: SeriesDef, f: Pick<SerieFile, "praca" | "unidade" | "moeda">): string[] {
  // the reference praça of a state series as it is today (the praças of each day are in
  // historico/{produto}/{UF}.pracas.csv); national series have none. `nacional` keeps a
  // national series apart from the state series of its own UF (soja Paranaguá and soja/PR
  // are both PR; vaca_gorda and vaca_gorda/SP both SP)
  return [def.id, def.produto, ufPublicada(def) ?? "", def.uf === null ? "true" : "false", f.praca ?? "", def.fonte, f.unidade, f.moeda];
}

/** One series' lines of the long file, each ending in \n. */
export function blocoLongo(def: SeriesDef, f: SerieFile): string {
  const fixos = csvLinha(fixosDoLongo(def, f));
  const out = new Linhas();
  const n = new Numeros();
  for (const e of f.historico) {
    if (typeof e.valor === "number") {
      n.ler(e.valor);
      out.push(`${fixos},${e.data},${n.csv}\n`);
    } else out.push(`${fixos},${e.data},${e.valor}\n`);
  }
  return out.texto();
}

/** The whole long file of a set of series held in memory. */
export function historicoLongoCsv(series: ReadonlyMap<string, SerieFile>): string {
  return CABECALHO_LONGO + seriesDoLongo(series).map(({ def, f }) => blocoLongo(def, f)).join("");
}
