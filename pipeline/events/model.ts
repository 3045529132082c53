/**
 * Events of an update run, recorded in api/v1/eventos.json (newest first, bounded) and turned
 * into the Atom feed and the webhook deliveries. An event's id is a hash of what it says (series,
 * days, values) chained to the id heading the previous file, never of when it was computed, so a
 * rerun of the same data finds the same ids and adds nothing; a run with no changes adds no event
 * and so changes no byte. Every event also has a sequence number (`seq`), one more than the newest
 * event of the previous file, so a consumer that remembers the highest seq it read knows exactly
 * whether events left the bounded list before it saw them (the ids, being hashes, cannot say).
 */
import { createHash } from "node:crypto";
import { daysBetween, isoBrasilia } from "../domain/dates.ts";
import { diff, variationPct } from "../domain/money.ts";
import { PRODUTO_INFO } from "../domain/products.ts";
import { seriesJsonPath, type SeriesDef } from "../domain/series.ts";
import { allSeries } from "../sources/index.ts";
import type {
  CotacaoAtualizada,
  Evento as EventoGerado,
  Eventos,
  EventosSerie,
  HistoricoRevisado,
  Ponto,
  PriceChanged,
} from "../domain/publicados.gerados.ts";
import type { SeriesChange } from "../history/changes.ts";
import { EVENTOS_PATH, FEED_PATH, loadEventos, numerarLegado } from "../contract/eventos.ts";
import { PipelineError } from "../domain/errors.ts";

/**
 * How many events eventos.json (and so the feed) keeps of the runs before the latest one. The
 * latest run's own events are all kept even when they alone pass it: one run can bring
 * 1 + 2 × (number of series) events (the summary, a price_changed and a historico_revisado per
 * series), and one of them cut here would never reach the file, the feed or any webhook.
 */
export const EVENTOS_LIMITE = 200;
const EPOCH = "1970-01-01T00:00:00-03:00";

export const TIPOS_EVENTO = ["cotacao_atualizada", "price_changed", "historico_revisado"] as const satisfies ReadonlyArray<EventoGerado["tipo"]>;
export type TipoEvento = (typeof TIPOS_EVENTO)[number];

// where eventos.json and the feed live, and how the published file is read: the contract stage
// (contract/eventos.ts), which the deploy reads too
export { EVENTOS_PATH, FEED_PATH, loadEventos, numerarLegado };

// The shapes come from schemas/eventos.schema.json (../domain/publicados.gerados.ts); the names
// below are the ones the events code and its importers use.
export type { Ponto };
type SerieRef = EventosSerie;
export type PriceChangedDados = PriceChanged;
export type HistoricoRevisadoDados = HistoricoRevisado;
export type CotacaoAtualizadaDados = CotacaoAtualizada;
/** One event; `tipo` says the shape of `dados` (the schema's if/then, as a union). */
export type Evento = EventoGerado;
/** An event before it enters the file, which numbers it (`seq`). */
export type EventoSemSeq = Evento extends infer E ? (E extends unknown ? Omit<E, "seq"> : never) : never;
export type EventosFile = Eventos;

/**
 * What one run changed in a series, as the events tell it: an update's change (SeriesChange),
 * or an undo's (`npm run desfazer`), which may also take days out (`removidos`, the days a wrong
 * commit added) and bring the latest day back to an earlier one.
 */
export type MudancaDeSerie = SeriesChange & { removidos?: readonly string[] };

export function emptyEventos(): EventosFile {
  return { api_version: "v1", atualizado: EPOCH, limite: EVENTOS_LIMITE, feed: FEED_PATH, eventos: [] };
}

/** "evt_" + 20 hex digits of the SHA-256 of the event's type and content. */
export function eventoId(tipo: TipoEvento, conteudo: unknown): string {
  return `evt_${createHash("sha256").update(JSON.stringify([tipo, conteudo])).digest("hex").slice(0, 20)}`;
}

function serieRef(def: SeriesDef): SerieRef {
  return {
    serie: def.id,
    produto: def.produto,
    nome: PRODUTO_INFO[def.produto].nome,
    uf: def.uf,
    unidade: def.unidade,
    fonte: def.fonte,
    path: seriesJsonPath(def),
  };
}

/**
 * The events of one run, from the changes runUpdate collected: one `cotacao_atualizada` when
 * anything changed, one `price_changed` per series whose latest value changed, one
 * `historico_revisado` per series whose past days were revised. Newest first means, inside a
 * run: the summary, then the series in catalogue order.
 */
export function eventsFromChanges(changes: readonly MudancaDeSerie[], now: Date): EventoSemSeq[] {
  if (changes.length === 0) return [];
  const criado_em = isoBrasilia(now);
  const order = new Map(allSeries().map((d, i) => [d.id, i] as const));
  const defs = new Map(allSeries().map((d) => [d.id, d] as const));
  const sorted = [...changes].sort((a, b) => (order.get(a.id) ?? 1e9) - (order.get(b.id) ?? 1e9) || (a.id < b.id ? -1 : 1));

  const precos: EventoSemSeq[] = [];
  const revisoes: EventoSemSeq[] = [];
  for (const c of sorted) {
    const def = defs.get(c.id);
    if (!def) continue;
    // the latest value subscribers were told: the day before as published before this run when
    // this run revised it along with new days (not on a re-based praça: the old praça's price is
    // no "before"). A new day equal to the revised day before still moves that value.
    const publicado =
      c.antes !== null && c.antes.data !== c.depois.data && !c.rebase.some((r) => r.data === c.antes!.data)
        ? c.revised.find((r) => r.data === c.antes!.data)?.antes.valor
        : undefined;
    // an undo that takes the latest day out brings the latest back to an earlier day: a change of
    // the latest point even at the same value (subscribers were told the later day)
    const voltou = c.antes !== null && c.depois.data < c.antes.data;
    const mudou = c.antes !== null && (voltou || c.antes.valor !== c.depois.valor || (publicado !== undefined && publicado !== c.depois.valor));
    if (c.antes && mudou) {
      const dados: PriceChangedDados = {
        ...serieRef(def),
        anterior: { data: c.antes.data, valor: c.antes.valor },
        atual: { data: c.depois.data, valor: c.depois.valor },
        variacao: { absoluta: diff(c.antes.valor, c.depois.valor), percentual: variationPct(c.antes.valor, c.depois.valor) },
        // the distance between the two days: after an undo `atual` may be the earlier one
        dias: Math.abs(daysBetween(c.antes.data, c.depois.data)),
        dias_novos: [...c.added],
      };
      precos.push({ id: eventoId("price_changed", [c.id, dados.anterior, dados.atual]), tipo: "price_changed", criado_em, dados });
    }
    // a revision of the latest day is already the price_changed above when that event tells it
    // (same day, from the value published before); the latest day re-based on a new reference
    // praça with no new day tells no price change (anterior is the new praça's own value), so
    // its move from the old praça's price is told here, or nothing but the summary would say
    // that the latest published number changed
    const contado = (r: (typeof c.revised)[number]) =>
      mudou && c.antes !== null && r.data === c.antes.data && r.data === c.depois.data && r.antes.valor === c.antes.valor;
    const past = c.revised.filter((r) => r.antes.valor !== r.depois.valor && !contado(r));
    if (past.length > 0) {
      const dados: HistoricoRevisadoDados = {
        ...serieRef(def),
        revisoes: past.map((r) => ({ data: r.data, anterior: r.antes.valor, atual: r.depois.valor })),
      };
      revisoes.push({ id: eventoId("historico_revisado", [c.id, dados.revisoes]), tipo: "historico_revisado", criado_em, dados });
    }
  }
  const series = sorted.flatMap((c) => {
    const def = defs.get(c.id);
    if (!def) return [];
    const { data, valor } = c.depois;
    // a day an undo took out counts as a revised day: no event type names a removed day
    const revisoes = c.revised.length + (c.removidos?.length ?? 0);
    return [{ serie: c.id, path: seriesJsonPath(def), unidade: def.unidade, data, valor, dias_novos: c.added.length, revisoes }];
  });

  const resumo: CotacaoAtualizadaDados = {
    series,
    dias_novos: series.reduce((n, s) => n + s.dias_novos, 0),
    revisoes: series.reduce((n, s) => n + s.revisoes, 0),
  };
  const atualizada: EventoSemSeq = {
    id: eventoId(
      "cotacao_atualizada",
      // the removed days only when there are (an update's ids stay what they always were)
      sorted.map((c) => [c.id, c.depois, c.added, c.revised.map((r) => [r.data, r.depois]), c.pracasChanged, ...(c.removidos?.length ? [c.removidos] : [])]),
    ),
    tipo: "cotacao_atualizada",
    criado_em,
    dados: resumo,
  };
  return [atualizada, ...precos, ...revisoes];
}

/** What an event is about: its type and, but for the run summary, its series. */
function assunto(e: EventoSemSeq): string {
  return e.tipo === "cotacao_atualizada" ? e.tipo : `${e.tipo}|${e.dados.serie}`;
}

/**
 * This run's event as it enters the file, or null when the file already tells it. The same content
 * comes back legitimately: a source flip-flopping a day (origin 347,70, then a lagging mirror's
 * 347,60, then the origin again, each within the revision bound) makes the third run's events
 * identical to the first's. Dropped as already seen, the third would leave subscribers on
 * 347,60 while the series says 347,70. So an event is "already there" only when the latest one
 * about the same subject says the same (a replay of the same run against the file it wrote).
 * Its id is the content's hash chained to the id heading the previous file: the same run against
 * the same file gives the same ids, while content that comes back never gets an id handed out
 * before, even when its earlier twin has left the bounded list (a receiver discarding repeated
 * webhook-ids, a feed reader, would drop it).
 */
function comoNovo(e: EventoSemSeq, cabeca: string | null, ultimo: ReadonlyMap<string, Evento>): EventoSemSeq | null {
  const latest = ultimo.get(assunto(e));
  if (latest && JSON.stringify(latest.dados) === JSON.stringify(e.dados)) return null;
  return cabeca === null ? e : { ...e, id: eventoId(e.tipo, [e.id, cabeca]) };
}

/** The event with its number, right after its id where a reader of the file looks for it. */
function comSeq(e: EventoSemSeq, seq: number): Evento {
  const { id, ...resto } = e;
  // the rest is one member of the union, whose Omit TypeScript cannot follow through the spread
  return { id, seq, ...resto } as Evento;
}

/**
 * The new eventos.json: this run's events (ids not seen before), all of them, on top of the
 * previous ones, which fill what is left of `limite` (the bound trims only older runs' events).
 * They are numbered on from the previous file's newest seq, the run's oldest (the list's last)
 * first, so seq falls by one down the list and never comes back, whatever the bound trims.
 */
export function nextEventos(previous: EventosFile | null, changes: readonly MudancaDeSerie[], now: Date, limite = EVENTOS_LIMITE): EventosFile {
  const prev = previous ?? emptyEventos();
  // newest first: the first event of each subject is its latest
  const ultimo = new Map<string, Evento>();
  for (const e of prev.eventos) if (!ultimo.has(assunto(e))) ultimo.set(assunto(e), e);
  const novos = eventsFromChanges(changes, now).flatMap((e) => comoNovo(e, prev.eventos[0]?.id ?? null, ultimo) ?? []);
  // nothing new: the file stays as it is (its latest run, kept whole even past the bound, too)
  if (novos.length === 0) return { ...prev, limite };
  const topo = prev.eventos[0]?.seq ?? 0;
  const numerados = novos.map((e, i) => comSeq(e, topo + novos.length - i));
  const eventos = [...numerados, ...prev.eventos.slice(0, Math.max(0, limite - novos.length))];
  return {
    api_version: "v1",
    atualizado: eventos[0]?.criado_em ?? EPOCH,
    limite,
    feed: FEED_PATH,
    eventos,
  };
}

