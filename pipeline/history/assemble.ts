import type { Config } from "../config.ts";
import { EXTRAS_PRACA, type PriceRow } from "../domain/row.ts";
import type { SeriesDef } from "../domain/series.ts";
import { allSeries, seriesDoEspelho } from "../sources/index.ts";
import type { HistoricoEntry, PracaQuote } from "../domain/publicados.ts";
import type { MirrorDef, PageDef, SourceDef } from "../sources/types.ts";
import { canonicalEntry, canonicalQuote } from "./entry.ts";
import { checkDesfeitos } from "../check/desfeitos.ts";
import { loadDesfeitos } from "./desfeitos.ts";

/** What one page brings to one series. */
export interface SeriesUpdate {
  def: SeriesDef;
  entries: HistoricoEntry[];
  /** every praça of the UF on the newest day of the page (state series of praça tables) */
  pracas: { data: string; praca: string; quotes: PracaQuote[] } | null;
}

export interface Assembled {
  updates: SeriesUpdate[];
  avisos: string[];
  /** problems that make the page unusable as a whole (e.g. a unit that changed) */
  problemas: string[];
  /**
   * series the page should have fed but could not (a UF without rows, a reference praça not in
   * the table): the other series still update, but the page is reported as failed, so a
   * renamed praça never leaves a series silently frozen
   */
  faltas: string[];
}

function quoteOf(row: PriceRow): PracaQuote {
  const q: Record<string, unknown> = { praca: row.praca ?? "", valor: row.valor, unidade: row.unidade };
  for (const k of EXTRAS_PRACA) q[k] = row.extras[k];
  q.nota = row.nota;
  return canonicalQuote(q as unknown as PracaQuote);
}

function num(v: number | string | undefined): number | undefined {
  return typeof v === "number" ? v : undefined;
}

/**
 * Turns the rows of one page into updates of the series that page feeds (catalogue in
 * domain/series.ts). Praça tables give each UF's value from its reference praça and keep every
 * praça; the national vaca_gorda is the SP reference praça.
 */
export function assemble(source: SourceDef, page: PageDef, rows: readonly PriceRow[], config: Config, opts: { espelho?: MirrorDef | null } = {}): Assembled {
  // read through a mirror, the page feeds only the series that mirror republishes (all of them
  // or nothing: a series it should carry and does not fails the read, as on the page itself)
  const defs = opts.espelho ? seriesDoEspelho(opts.espelho) : allSeries().filter((d) => d.fonte === source.id && d.pagina === page.id);
  const updates: SeriesUpdate[] = [];
  const avisos: string[] = [];
  const problemas: string[] = [];
  const faltas: string[] = [];

  for (const def of defs) {
    if (def.ufReferencia === undefined) {
      // indicator series: one row per day
      const mine = rows.filter((r) => r.produto === def.produto && r.uf === def.uf && r.praca === null);
      if (mine.length === 0) {
        problemas.push(`nenhuma linha para a série ${def.id}`);
        continue;
      }
      const badUnit = mine.find((r) => r.unidade !== def.unidade);
      if (badUnit) {
        problemas.push(`série ${def.id}: unidade "${badUnit.unidade}" na página, esperada "${def.unidade}"`);
        continue;
      }
      const entries = mine
        .map((r): HistoricoEntry => {
          const e: HistoricoEntry = { data: r.data, valor: r.valor };
          const usd = num(r.extras.valor_usd);
          if (usd !== undefined) e.valor_usd = usd;
          return e;
        })
        .sort((a, b) => (a.data < b.data ? -1 : 1));
      // a state indicator (soja/PR) has no praça table: the state itself is its one praça
      const newest = entries[entries.length - 1]!;
      const pracas =
        def.uf === null
          ? null
          : { data: newest.data, praca: def.praca ?? def.uf, quotes: [{ praca: def.praca ?? def.uf, valor: newest.valor, unidade: def.unidade }] };
      updates.push({ def, entries, pracas });
      continue;
    }

    const uf = def.ufReferencia;
    const ref = def.referenciaFixa && def.pracaReferencia ? def.pracaReferencia : config.pracasReferencia[uf];
    const ufRows = rows.filter((r) => r.produto === def.produto && r.uf === uf && r.praca !== null);
    if (ufRows.length === 0) {
      faltas.push(`série ${def.id}: a tabela não traz nenhuma praça de ${uf}`);
      continue;
    }
    const dates = [...new Set(ufRows.map((r) => r.data))].sort();
    const entries: HistoricoEntry[] = [];
    let missingRef = false;
    for (const data of dates) {
      const day = ufRows.filter((r) => r.data === data);
      // "Cuiaba" in the configuration still finds Scot's "Cuiabá"
      const refRow = day.find((r) => r.praca === ref) ?? day.find((r) => sameName(r.praca, ref));
      if (!refRow) {
        missingRef = true;
        continue;
      }
      if (refRow.unidade !== def.unidade) {
        problemas.push(`série ${def.id}: praça ${ref} em "${refRow.unidade}", esperada "${def.unidade}"`);
        continue;
      }
      // the reference praça's every column, so nothing Scot publishes for the series is lost
      const e: Record<string, unknown> = { data, valor: refRow.valor };
      for (const k of EXTRAS_PRACA) e[k] = refRow.extras[k];
      if (def.uf !== null) {
        // à vista of every praça, only those quoted in the series' unit: never mix units
        e.pracas = Object.fromEntries(day.filter((r) => r.unidade === def.unidade).map((r) => [r.praca as string, r.valor]));
      }
      entries.push(canonicalEntry(e as unknown as HistoricoEntry));
    }
    if (missingRef) {
      faltas.push(
        `série ${def.id}: praça de referência "${ref}" não está na tabela (praças de ${uf}: ${[...new Set(ufRows.map((r) => r.praca))].join(", ")}); ajuste pracasReferencia em cotacao.config.json`,
      );
    }
    if (entries.length === 0) continue;
    const newest = entries[entries.length - 1]!.data;
    const refName = ufRows.find((r) => r.praca === ref || sameName(r.praca, ref))?.praca ?? ref;
    const pracas =
      def.uf === null
        ? null
        : { data: newest, praca: refName, quotes: ufRows.filter((r) => r.data === newest).map(quoteOf) };
    updates.push({ def, entries, pracas });
  }
  // a value `npm run desfazer` took off the site, still on the page: the page is refused
  problemas.push(...checkDesfeitos(updates, loadDesfeitos(config.publicDir)));
  return { updates, avisos, problemas, faltas };
}

function sameName(a: string | null, b: string): boolean {
  const norm = (x: string) => x.normalize("NFD").replace(/\p{Diacritic}/gu, "").trim().toLowerCase();
  return a !== null && norm(a) === norm(b);
}
