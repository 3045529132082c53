import { formatDateBR } from "../domain/dates.ts";
import { PipelineError } from "../domain/errors.ts";
import { serieLicense } from "../domain/license.ts";
import { diff, formatPreco, variationPct } from "../domain/money.ts";
import { PRODUTO_INFO } from "../domain/products.ts";
import { ufPublicada, type SeriesDef } from "../domain/series.ts";
import type { SourceDef } from "../sources/types.ts";
import type { HistoricoEntry, PracaQuote, Proveniencia, SerieFile, Variacao } from "../domain/publicados.ts";

export interface SerieParts {
  def: SeriesDef;
  source: SourceDef;
  historico: HistoricoEntry[];
  praca: string | null;
  pracas: PracaQuote[] | null;
  proveniencia: Proveniencia;
  atualizado: string;
}

export function variacaoOf(historico: readonly HistoricoEntry[]): Variacao | null {
  const n = historico.length;
  if (n < 2) return null;
  const prev = historico[n - 2]!;
  const last = historico[n - 1]!;
  return {
    data_anterior: prev.data,
    anterior: prev.valor,
    absoluta: diff(prev.valor, last.valor),
    percentual: variationPct(prev.valor, last.valor),
  };
}

/** "Boi gordo a R$ 347,70/@ em 04/09/2026, Estado de São Paulo (...)" */
export function bordaoOf(def: SeriesDef, valor: number, data: string, praca: string | null): string {
  // a praça table's series names its praça and the table it is from; any other, its region
  const where = praca && def.uf && def.tabela ? `${praca} (${def.uf}), ${def.tabela}` : def.regiao;
  return `${PRODUTO_INFO[def.produto].nome} a ${formatPreco(valor, def.unidade)} em ${formatDateBR(data)}, ${where}`;
}

/**
 * A series file from its parts. Everything but the history, the praças, the provenance and the
 * update time is derived here, so `build` can re-render any stored file byte for byte.
 */
export function renderSerie(p: SerieParts): SerieFile {
  const last = p.historico[p.historico.length - 1];
  if (!last) throw new PipelineError({ stage: "render", reason: `série ${p.def.id} sem histórico não pode ser publicada` });
  const file: SerieFile = {
    produto: p.def.produto,
    nome: PRODUTO_INFO[p.def.produto].nome,
    // a national series still says where it is quoted (the original API's clients read it)
    uf: ufPublicada(p.def),
    regiao: p.def.regiao,
    valor: last.valor,
    moeda: "BRL",
    unidade: p.def.unidade,
    fonte: p.def.fonte,
    ...(p.def.semFunrural ? { sem_funrural: p.def.semFunrural } : {}),
    data_cotacao: last.data,
    variacao: variacaoOf(p.historico),
    bordao: bordaoOf(p.def, last.valor, last.data, p.def.uf ? p.praca : null),
    atualizado: p.atualizado,
    proveniencia: p.proveniencia,
    license: serieLicense(p.source),
    api_version: "v1",
    historico: p.historico,
  };
  if (p.def.uf !== null) {
    // praca/pracas sit right after the headline fields, before provenance
    const { atualizado, proveniencia, license, api_version, historico, ...head } = file;
    return {
      ...head,
      praca: p.praca ?? "",
      pracas: p.pracas ?? [],
      atualizado,
      proveniencia,
      license,
      api_version,
      historico,
    };
  }
  return file;
}


/** How far back the recent file goes from the series' last day, in calendar days (a year and a leap day). */
export const DIAS_RECENTE = 366;

/** The first day the recent file keeps: `DIAS_RECENTE` calendar days before the last one. */
export function inicioDaJanela(ultimoDia: string): string {
  const t = Date.parse(`${ultimoDia}T00:00:00Z`) - DIAS_RECENTE * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

/**
 * The recent file (api/v1/recente/...): the series file with its headline unchanged and its
 * history cut to the days from `inicioDaJanela(last day)` on, but never fewer than the last two
 * days, so `variacao` can still be checked against the history it is shown with (a series that
 * comes back after a year without quotes).
 */
export function janelaRecente(f: SerieFile): SerieFile {
  const h = f.historico;
  const n = h.length;
  if (n === 0) return f;
  const corte = inicioDaJanela(h[n - 1]!.data);
  let i = n;
  while (i > 0 && h[i - 1]!.data >= corte) i--;
  i = Math.min(i, Math.max(0, n - 2));
  return i === 0 ? f : { ...f, historico: h.slice(i) };
}
