/**
 * api/v1/historico.csv: every published series in long ("tidy") format, one line per series per
 * day, so one read_csv gives everything and a filter on `serie` (or `produto`, `uf`, `unidade`)
 * gives any part. Sorted by `serie` (code-unit order, not locale: the same bytes on every machine)
 * and then by `data`, oldest first.
 */
import type { SerieFile } from "../domain/publicados.ts";
import { ufPublicada, type SeriesDef } from "../domain/series.ts";
import { allSeries } from "../sources/index.ts";
import { iteravel, type Tabela } from "./csv.ts";

export const COLUNAS_LONGO = ["serie", "produto", "uf", "nacional", "praca", "fonte", "unidade", "moeda", "data", "valor"] as const;

/** The published series in the long file's order. */
export function seriesDoLongo(series: ReadonlyMap<string, SerieFile>): Array<{ def: SeriesDef; f: SerieFile }> {
  return allSeries()
    .filter((d) => series.has(d.id))
    .map((def) => ({ def, f: series.get(def.id)! }))
    .sort((a, b) => (a.def.id < b.def.id ? -1 : a.def.id > b.def.id ? 1 : 0));
}

export function historicoLongoTabela(series: ReadonlyMap<string, SerieFile>): Tabela {
  const lista = seriesDoLongo(series);
  return {
    colunas: COLUNAS_LONGO,
    linhas: iteravel(function* () {
      for (const { def, f } of lista) {
        // the reference praça of a state series as it is today (the praças of each day are in
        // historico/{produto}/{UF}.pracas.csv); national series have none. `nacional` keeps a
        // national series apart from the state series of its own UF (soja Paranaguá and soja/PR
        // are both PR; vaca_gorda and vaca_gorda/SP both SP)
        const fixos = [def.id, def.produto, ufPublicada(def) ?? "", def.uf === null ? "true" : "false", f.praca ?? "", def.fonte, f.unidade, f.moeda];
        for (const e of f.historico) yield [...fixos, e.data, String(e.valor)];
      }
    }),
  };
}
