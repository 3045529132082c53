/**
 * cotacao.json and cotacao/uf/{UF}.json: the headline of each aggregate key, from the series
 * the catalogue assigns to it (../sources/index.ts).
 */
import { licenseShort } from "../domain/license.ts";
import { PRODUTO_INFO, agregadosUf, type Unidade } from "../domain/products.ts";
import type { AggregateFile, AggregateKey, SerieFile, UfQuote } from "../domain/publicados.ts";
import type { UF } from "../domain/ufs.ts";
import { SOURCES, agregadoSeries, fonteDoAgregado, serieDef } from "../sources/index.ts";

/** Aggregate keys and the national series each one shows (from the catalogue). */
export function aggregateTable(): Array<[AggregateKey, string]> {
  return agregadoSeries().flatMap((a) => (a.serie ? [[a.chave, a.serie.id] as [AggregateKey, string]] : []));
}

/** What an aggregate reads of a series: its file without the history (a summary will do). */
type Cabeca = Omit<SerieFile, "historico">;

const EPOCH = "1970-01-01T00:00:00-03:00";

/** The latest of some `atualizado` instants (all in -03:00, so they sort as text); the epoch when none. */
export function maxTime(times: Iterable<string>): string {
  let best = "";
  for (const t of times) if (t > best) best = t;
  return best || EPOCH;
}

function ufQuote(file: Cabeca | undefined): UfQuote | null {
  if (!file || !file.uf) return null;
  return { uf: file.uf, preco: file.valor, praca: file.praca ?? "", unidade: file.unidade, data: file.data_cotacao, data_cotacao: file.data_cotacao };
}

export function renderAggregate(series: ReadonlyMap<string, Cabeca>, uf: UF | null): AggregateFile {
  const used: Cabeca[] = [];
  const pick = (id: string) => {
    const f = series.get(id);
    if (f) used.push(f);
    return f;
  };
  // the contract's key order: each value (and its text field), then units, days, the state quotes
  const doc: Record<string, unknown> = {};
  const unidades: Record<string, Unidade> = {};
  const datas: Record<string, string | null> = {};
  for (const a of agregadoSeries()) {
    const f = a.serie ? pick(a.serie.id) : undefined;
    doc[a.chave] = f?.valor ?? null;
    if (a.praca) doc[a.praca.chave] = a.praca.texto;
    datas[a.chave] = f?.data_cotacao ?? null;
    // the unit of the value shown, from its own series; the product's only when there is none
    unidades[a.chave] = f?.unidade ?? a.serie?.unidade ?? PRODUTO_INFO[a.produto].unidade;
  }
  doc.unidades = unidades;
  doc.datas = datas;
  if (uf) for (const a of agregadosUf()) doc[a.chave] = ufQuote(pick(`${a.produto}/${uf}`));
  doc.atualizado = maxTime(used.map((f) => f.atualizado));
  doc.fonte = fonteDoAgregado(uf);
  doc.api_version = "v1";
  // the terms of the sources it shows, not of every source (cotacao.json stays under 1 KB)
  const fontes = new Set([
    ...agregadoSeries().map((a) => a.serie?.fonte),
    ...(uf ? agregadosUf().map((a) => serieDef(`${a.produto}/${uf}`)?.fonte) : []),
  ]);
  doc.license = licenseShort(SOURCES.filter((s) => fontes.has(s.id)));
  return doc as unknown as AggregateFile;
}
