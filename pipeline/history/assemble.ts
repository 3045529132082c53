import type { Config } from "../config.ts";
import { EXTRAS_PRACA, type PriceRow } from "../domain/row.ts";
import type { SeriesDef } from "../domain/series.ts";
import { allSeries, seriesDoEspelho } from "../sources/index.ts";
import type { HistoricoEntry, PracaQuote } from "../domain/publicados.ts";
import type { MirrorDef, PageDef, SourceDef } from "../sources/types.ts";
import { canonicalEntry, canonicalQuote } from "./entry.ts";
import { avisoPulado, desfeitoNoDia, loadDesfeitos, type Desfeito, type ValorPulado } from "./desfeitos.ts";

/** What one page brings to one series. */
export interface SeriesUpdate {
  def: SeriesDef;
  entries: HistoricoEntry[];
  /** every praça of the UF on the newest day of the page (state series of praça tables) */
  pracas: { data: string; praca: string; quotes: PracaQuote[] } | null;
  /**
   * days of the series the page shows but that were kept out of `entries`: they bring back a
   * value `npm run desfazer` took off the site (history/desfeitos.ts). Not a day the source
   * withdrew: the gates do not count them as missing from the page.
   */
  pulados?: string[];
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
  /** days kept out because they bring back an undone value (desfeitos.json), in catalogue order */
  pulados: ValorPulado[];
}

/** A series' days as the page gives them, before undone values are kept out. */
interface Montada {
  def: SeriesDef;
  entries: HistoricoEntry[];
  /** the praças of one of its days (state series), or null */
  pracasDoDia: (data: string) => SeriesUpdate["pracas"];
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
  const montadas: Montada[] = [];

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
      const porDia = new Map(entries.map((e) => [e.data, e] as const));
      const pracasDoDia = (data: string): SeriesUpdate["pracas"] => {
        const e = porDia.get(data)!;
        return def.uf === null ? null : { data, praca: def.praca ?? def.uf, quotes: [{ praca: def.praca ?? def.uf, valor: e.valor, unidade: def.unidade }] };
      };
      montadas.push({ def, entries, pracasDoDia });
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
    const refName = ufRows.find((r) => r.praca === ref || sameName(r.praca, ref))?.praca ?? ref;
    const pracasDoDia = (data: string): SeriesUpdate["pracas"] =>
      def.uf === null ? null : { data, praca: refName, quotes: ufRows.filter((r) => r.data === data).map(quoteOf) };
    montadas.push({ def, entries, pracasDoDia });
  }

  // a value `npm run desfazer` took off the site, still on the page: that day of that series is
  // kept out (it stays as published) and the rest of the page goes on (history/desfeitos.ts)
  const pulados = diasPulados(montadas, loadDesfeitos(config.publicDir));
  for (const m of montadas) {
    const fora = pulados.filter((p) => p.serie === m.def.id).map((p) => p.data);
    const entries = m.entries.filter((e) => !fora.includes(e.data));
    // all its days kept out (Scot's one-day tables): the series is not updated by this read
    if (entries.length === 0) continue;
    // the praças describe the newest day kept, never the one kept out (its praças hold the value undone)
    const pracas = m.pracasDoDia(entries[entries.length - 1]!.data);
    updates.push({ def: m.def, entries, pracas, ...(fora.length > 0 ? { pulados: fora } : {}) });
  }
  for (const p of pulados) avisos.push(avisoPulado(p));
  return { updates, avisos, problemas, faltas, pulados };
}

/**
 * The days of the page's series that bring back an undone value. A Scot national series (vaca
 * gorda, novilha) is its UF's reference praça, the very cell its UF's series reads: a day kept out
 * of one is kept out of the other, so the two never disagree about that day (and the national
 * series never moves on while the UF's series, which the re-base check reads beside it, stays).
 */
function diasPulados(montadas: readonly Montada[], desfeitos: readonly Desfeito[]): ValorPulado[] {
  if (desfeitos.length === 0) return [];
  const proprios = new Map<string, ValorPulado>();
  for (const m of montadas) {
    for (const e of m.entries) {
      const d = desfeitoNoDia(m.def.id, e, desfeitos, m.pracasDoDia(e.data)?.quotes);
      if (d) proprios.set(`${m.def.id}|${e.data}`, { serie: m.def.id, data: e.data, desfeito: d });
    }
  }
  const grupo = (def: SeriesDef) => (def.ufReferencia !== undefined && !def.referenciaFixa ? `${def.produto}|${def.ufReferencia}` : null);
  const out: ValorPulado[] = [];
  for (const m of montadas) {
    const g = grupo(m.def);
    const irmas = g === null ? [] : montadas.filter((x) => x !== m && grupo(x.def) === g);
    for (const e of m.entries) {
      const p = proprios.get(`${m.def.id}|${e.data}`) ?? irmas.map((x) => proprios.get(`${x.def.id}|${e.data}`)).find((x) => x !== undefined);
      if (p) out.push({ serie: m.def.id, data: e.data, desfeito: p.desfeito });
    }
  }
  return out;
}

function sameName(a: string | null, b: string): boolean {
  const norm = (x: string) => x.normalize("NFD").replace(/\p{Diacritic}/gu, "").trim().toLowerCase();
  return a !== null && norm(a) === norm(b);
}
