import { diffEntry, diffQuotes } from "../check/revisions.ts";
import { isoBrasilia } from "../domain/dates.ts";
import type { SeriesDef } from "../domain/series.ts";
import type { RevisaoCampo, SeriesChange } from "../history/changes.ts";
import { mergeHistorico } from "../history/merge.ts";
import type { SeriesUpdate } from "../history/assemble.ts";
import { canonicalEntry, mergeQuotes } from "../history/entry.ts";
import type { HistoricoEntry, Proveniencia, SerieFile } from "../domain/publicados.ts";
import { renderSerie } from "../render/serie.ts";
import type { SourceDef } from "../sources/types.ts";

export interface Origin {
  url: string;
  via: string | null;
  viaUrl: string | null;
  fetchedAt: Date;
}

/**
 * Merges one page's update into one series. Returns null when nothing changed: the stored file,
 * its update time and its provenance then stay exactly as they were.
 */
export function applyUpdate(
  def: SeriesDef,
  source: SourceDef,
  existing: SerieFile | undefined,
  update: SeriesUpdate,
  origin: Origin,
  now: Date,
): { file: SerieFile; change: SeriesChange } | null {
  const stored = existing?.historico ?? [];
  // The UF's reference praça was changed in cotacao.config.json: re-base the stored days on the
  // new praça (every day keeps every praça's à vista), so the series never mixes two praças.
  // The old praça's other columns do not belong to the new one and are dropped from those days.
  const rebaseTo = existing?.praca && update.pracas && def.uf !== null && update.pracas.praca !== existing.praca ? update.pracas.praca : null;
  const base = rebaseTo ? stored.map((e) => rebased(e, rebaseTo)) : stored;
  const merged = mergeHistorico(base, update.entries);
  const campos = merged.revised.flatMap((r) => diffEntry(def.id, r.antes, r.depois));
  const rebase: RevisaoCampo[] = [];
  if (rebaseTo) {
    const final = new Map(merged.historico.map((e) => [e.data, e]));
    const already = new Set(merged.revised.map((r) => r.data));
    stored.forEach((e, i) => {
      if (base[i] !== e) rebase.push(...diffEntry(def.id, e, base[i]!));
      if (base[i] !== e && !already.has(e.data)) merged.revised.push({ data: e.data, antes: e, depois: final.get(e.data)! });
    });
    merged.revised.sort((a, b) => (a.data < b.data ? -1 : 1));
  }
  const newest = merged.historico[merged.historico.length - 1];
  if (!newest) return null;

  // praças describe the newest day: an older page never replaces them
  let praca = existing?.praca ?? null;
  let pracas = existing?.pracas ?? null;
  if (update.pracas && update.pracas.data === newest.data) {
    praca = update.pracas.praca;
    // the same day seen again (e.g. through a mirror with fewer columns): merge, never erase
    const sameDay = existing?.pracas && existing.data_cotacao === newest.data;
    pracas = sameDay ? mergeQuotes(existing.pracas!, update.pracas.quotes) : update.pracas.quotes;
    if (sameDay) campos.push(...diffQuotes(def.id, newest.data, existing.pracas!, pracas, new Set(Object.keys(newest.pracas ?? {}))));
  } else if (rebaseTo && newest.pracas?.[rebaseTo] !== undefined) {
    // an older page (a lagging mirror) re-based the stored days, the newest among them: its
    // value is now the new praça's, and so is the praça the series names (else the headline
    // would name the old praça beside the new one's price)
    praca = rebaseTo;
  }
  const pracasChanged = JSON.stringify(pracas) !== JSON.stringify(existing?.pracas ?? null) || praca !== (existing?.praca ?? null);
  if (existing && merged.added.length === 0 && merged.revised.length === 0 && !pracasChanged) return null;

  const proveniencia: Proveniencia = {
    fonte: source.id,
    nome: source.nome,
    url: origin.url,
    coletado_em: isoBrasilia(origin.fetchedAt),
    via: origin.via,
    via_url: origin.viaUrl,
    licenca: source.termos.licenca,
    citacao: source.termos.citacao,
    termos: source.termos.texto,
  };
  const file = renderSerie({
    def,
    source,
    historico: merged.historico,
    praca,
    pracas,
    proveniencia,
    atualizado: isoBrasilia(now),
  });
  // the last day before this run, on the praça the series names now: a new reference praça makes
  // the old praça's price no "before" of the new one's (their difference is no market move).
  // When this run also revises that day (CEPEA often corrects the day before along with a new
  // one), its value is the revised one the series now shows: measured from the superseded
  // number, the event's variation would disagree with the series' own `variacao`, even in sign;
  // the revision itself goes to historico_revisado.
  const ultimo = rebaseTo ? base[base.length - 1] : existing?.historico[existing.historico.length - 1];
  const before = ultimo && ultimo.data !== newest.data ? (merged.historico.find((e) => e.data === ultimo.data) ?? ultimo) : ultimo;
  return {
    file,
    change: {
      id: def.id,
      added: merged.added,
      revised: merged.revised,
      campos,
      rebase,
      pracasChanged,
      antes: before ? { data: before.data, valor: before.valor } : null,
      depois: { data: newest.data, valor: newest.valor },
    },
  };
}

/** A day re-based on another praça of the UF; the same object when that praça was not quoted. */
function rebased(e: HistoricoEntry, praca: string): HistoricoEntry {
  const v = e.pracas?.[praca];
  if (v === undefined) return e;
  return canonicalEntry({ data: e.data, valor: v, pracas: e.pracas });
}
