import { dayBrasilia, daysBetween, formatDateBR } from "../domain/dates.ts";
import { CAMBIO_TRANSICAO } from "./coherence.ts";
import { PRODUTO_INFO } from "../domain/products.ts";
import { limitesDaSerie } from "../domain/series.ts";
import { formatDecimalBR, variationPct } from "../domain/money.ts";
import type { HistoricoEntry, PracaQuote } from "../domain/publicados.ts";
import type { SeriesUpdate } from "../history/assemble.ts";

/** Below this many calendar days between two quotes the product's own jump limit applies as is. */
export const JUMP_BASE_DAYS = 7;
/** However long the gap, the limit never grows past this multiple of the product's limit. */
export const JUMP_MAX_FACTOR = 3;

/**
 * The largest change accepted between two consecutive quotes `gapDays` apart. A price may drift
 * further the longer nobody looked, so the product's limit widens with the square root of the
 * gap in weeks (a random walk's spread), capped at JUMP_MAX_FACTOR times the limit: 10 % the
 * next day, 13,1 % after 12 days, 20,7 % after a month, 30 % after two months or more. The
 * largest limit of any product is therefore 45 % (the 15 % products: coffee, orange, Datagro's
 * reposição): a +189 % "quote" after any gap is held for an operator, never published.
 */
export function jumpLimitPct(basePct: number, gapDays: number): number {
  const factor = Math.min(JUMP_MAX_FACTOR, Math.max(1, Math.sqrt(gapDays / JUMP_BASE_DAYS)));
  return Math.round(basePct * factor * 100) / 100;
}

/**
 * The gates a page must pass before any of its values is merged: plausible range for the
 * product and unit, no day in the future (Brasília), no jump beyond the product's limit between
 * consecutive quotes of the stored history with the page's days laid in, whatever the gap
 * (jumpLimitPct), for the series' value and for every praça of a state series. Returns the
 * reasons the page is rejected; empty when it passes.
 */
export function checkUpdates(
  updates: readonly SeriesUpdate[],
  history: (id: string) => readonly HistoricoEntry[],
  now: Date,
  /** the stored series' latest praças (every column, every unit), when it has them */
  storedQuotes: (id: string) => { data: string; quotes: readonly PracaQuote[] } | null = () => null,
): string[] {
  const problems: string[] = [];
  const today = dayBrasilia(now);
  const fmt = formatDecimalBR;
  for (const u of updates) {
    const info = PRODUTO_INFO[u.def.produto];
    const limites = limitesDaSerie(u.def);
    const range = limites.faixa[u.def.unidade];
    const inRange = (v: number) => !range || (v >= range[0] && v <= range[1]);
    for (const e of u.entries) {
      if (e.data > today) {
        problems.push(`${u.def.id}: data ${formatDateBR(e.data)} no futuro (hoje é ${formatDateBR(today)} em Brasília)`);
      }
      if (!inRange(e.valor)) {
        problems.push(`${u.def.id} em ${formatDateBR(e.data)}: R$ ${fmt(e.valor)}/${u.def.unidade} fora da faixa plausível (${range![0]}–${range![1]})`);
      }
      for (const [praca, v] of Object.entries(e.pracas ?? {})) {
        if (!inRange(v)) {
          problems.push(`${u.def.id}, praça ${praca} em ${formatDateBR(e.data)}: R$ ${fmt(v)}/${u.def.unidade} fora da faixa plausível (${range![0]}–${range![1]})`);
        }
      }
    }
    for (const q of u.pracas?.quotes ?? []) {
      const r = limites.faixa[q.unidade];
      if (r && (q.valor < r[0] || q.valor > r[1])) {
        problems.push(`${u.def.id}, praça ${q.praca}: R$ ${fmt(q.valor)}/${q.unidade} fora da faixa plausível (${r[0]}–${r[1]})`);
      }
    }
    // jumps, over the stored history with the page's days laid in: every pair of consecutive
    // days of which at least one comes from the page is judged, however far apart they are
    const incoming = new Set(u.entries.map((e) => e.data));
    const merged = new Map<string, HistoricoEntry>();
    for (const e of history(u.def.id)) merged.set(e.data, e);
    for (const e of u.entries) merged.set(e.data, e);
    const days = [...merged.values()].sort((a, b) => (a.data < b.data ? -1 : 1));
    const nome = info.nome.toLowerCase();
    for (let i = 1; i < days.length; i++) {
      const prev = days[i - 1]!;
      const cur = days[i]!;
      if (!incoming.has(cur.data) && !incoming.has(prev.data)) continue;
      const gap = daysBetween(prev.data, cur.data);
      const limit = jumpLimitPct(limites.saltoMaximoPct, gap);
      const judge = (what: string, a: number, b: number) => {
        const pct = variationPct(a, b);
        if (Math.abs(pct) > limit) {
          problems.push(
            `${u.def.id}${what}: salto de ${fmt(pct)}% de ${formatDateBR(prev.data)} (R$ ${fmt(a)}) para ${formatDateBR(cur.data)} (R$ ${fmt(b)}), ` +
              `acima do limite de ${fmt(limit)}% para ${nome} com ${gap} dia(s) de intervalo`,
          );
        }
      };
      const usd = prev.valor_usd !== undefined && cur.valor_usd !== undefined;
      // across the devaluation of 1999 the rate itself moved up to 9 % a day: a price set in
      // dollars (soja, algodão) jumped in R$, one set in reais (milho, boi) in US$. A day is
      // refused only when both moved beyond the limit (a row scaled whole, or one misread: the
      // era's rate band holds R$ against US$ on the same row)
      const desvalorizacao = cur.data >= CAMBIO_TRANSICAO[0] && prev.data <= CAMBIO_TRANSICAO[1];
      if (desvalorizacao && usd && Math.abs(variationPct(prev.valor_usd!, cur.valor_usd!)) <= limit) continue;
      judge("", prev.valor, cur.valor);
      // the US$ value too: a page scaled whole keeps its own implied rate
      if (usd && !(desvalorizacao && Math.abs(variationPct(prev.valor, cur.valor)) <= limit)) judge(" (US$)", prev.valor_usd!, cur.valor_usd!);
    }
    // each praça against its own last quote, however many days back it was (a praça may be
    // absent some days), with the limit widened by that gap
    for (let i = 1; i < days.length; i++) {
      const cur = days[i]!;
      for (const [praca, v] of Object.entries(cur.pracas ?? {})) {
        let j = i - 1;
        while (j >= 0 && days[j]!.pracas?.[praca] === undefined) j--;
        if (j < 0) continue;
        const prev = days[j]!;
        if (!incoming.has(cur.data) && !incoming.has(prev.data)) continue;
        const gap = daysBetween(prev.data, cur.data);
        const limit = jumpLimitPct(limites.saltoMaximoPct, gap);
        const a = prev.pracas![praca]!;
        const pct = variationPct(a, v);
        if (Math.abs(pct) > limit) {
          problems.push(
            `${u.def.id}, praça ${praca}: salto de ${fmt(pct)}% de ${formatDateBR(prev.data)} (R$ ${fmt(a)}) para ${formatDateBR(cur.data)} (R$ ${fmt(v)}), ` +
              `acima do limite de ${fmt(limit)}% para ${nome} com ${gap} dia(s) de intervalo`,
          );
        }
      }
    }
    // the latest praças in every unit (a praça quoted in another unit than the series' is not in
    // the history's `pracas`): against the stored latest quotes; a praça never changes unit silently
    const stored = storedQuotes(u.def.id);
    if (u.pracas && stored && stored.data <= u.pracas.data) {
      const byName = new Map(stored.quotes.map((q) => [q.praca, q]));
      const gap = daysBetween(stored.data, u.pracas.data);
      const limit = jumpLimitPct(limites.saltoMaximoPct, gap);
      for (const q of u.pracas.quotes) {
        const old = byName.get(q.praca);
        if (!old) continue;
        if (old.unidade !== q.unidade) {
          problems.push(`${u.def.id}, praça ${q.praca}: cotada em "${q.unidade}" em ${formatDateBR(u.pracas.data)}, mas em "${old.unidade}" em ${formatDateBR(stored.data)}; uma praça não muda de unidade sem revisão`);
          continue;
        }
        if (q.unidade === u.def.unidade) continue; // judged above, day by day
        const pct = variationPct(old.valor, q.valor);
        if (Math.abs(pct) > limit) {
          problems.push(
            `${u.def.id}, praça ${q.praca}: salto de ${fmt(pct)}% de ${formatDateBR(stored.data)} (R$ ${fmt(old.valor)}/${old.unidade}) para ${formatDateBR(u.pracas.data)} (R$ ${fmt(q.valor)}/${q.unidade}), ` +
              `acima do limite de ${fmt(limit)}% para ${nome} com ${gap} dia(s) de intervalo`,
          );
        }
      }
    }
  }
  return problems;
}

/**
 * A reference praça changed in the configuration re-bases the stored days on the new praça
 * (run/apply.ts), but a day that did not quote it keeps the old praça's price: under the new
 * praça's name it would be a wrong number, and the day after it a variation between two praças.
 * When the old praça is still on the page (so it is another praça, not the same one renamed) and
 * some stored day lacks the new one, the page is refused: the series stays on the old praça
 * until an operator chooses a praça quoted on every day. Returns the reasons; empty when it passes.
 */
export function checkRebase(updates: readonly SeriesUpdate[], stored: (id: string) => { praca?: string; historico: readonly HistoricoEntry[] } | undefined): string[] {
  const problems: string[] = [];
  for (const u of updates) {
    // A national series read from a UF's reference praça (Scot's vaca and novilha gorda: SP)
    // follows that UF's praça but keeps no praças per day, so it cannot be re-based: its
    // published days would stay the old praça's and the next day's variation would be the
    // difference between two praças. The move is seen on the UF's own series of the same page.
    if (u.def.uf === null && u.def.ufReferencia !== undefined && !u.def.referenciaFixa && (stored(u.def.id)?.historico.length ?? 0) > 0) {
      const irma = updates.find((s) => s.def.produto === u.def.produto && s.def.uf === u.def.ufReferencia && s.pracas);
      const antiga = irma ? stored(irma.def.id)?.praca : undefined;
      const nova = irma?.pracas?.praca;
      if (irma && antiga && nova && nova !== antiga && irma.pracas!.quotes.some((q) => q.praca === antiga)) {
        problems.push(
          `${u.def.id}: a praça de referência de ${u.def.ufReferencia} mudou de "${antiga}" para "${nova}" (pracasReferencia em cotacao.config.json), ` +
            `mas a série nacional ${u.def.id} não guarda as praças de cada dia e não pode ser reescrita sobre ${nova}: os dias já publicados ficariam com o preço de ${antiga} ` +
            `e a variação do dia seguinte seria a diferença entre as duas praças. Volte pracasReferencia.${u.def.ufReferencia} para "${antiga}"`,
        );
      }
      continue;
    }
    const f = stored(u.def.id);
    const antiga = f?.praca;
    if (u.def.uf === null || !u.pracas || !antiga || u.pracas.praca === antiga) continue;
    const nova = u.pracas.praca;
    if (!u.pracas.quotes.some((q) => q.praca === antiga)) continue; // renamed on the page: the same praça
    const sem = f.historico.filter((e) => e.pracas?.[nova] === undefined).map((e) => e.data);
    if (sem.length === 0) continue;
    // the days themselves, not a range: the days between them may quote it
    const dias = sem.length <= 3 ? sem.map(formatDateBR).join(", ") : `${formatDateBR(sem[0]!)}, ${formatDateBR(sem[1]!)}, … e ${formatDateBR(sem.at(-1)!)}`;
    problems.push(
      `${u.def.id}: a praça de referência mudou de "${antiga}" para "${nova}" (pracasReferencia em cotacao.config.json), ` +
        `mas ${nova} não tem cotação em ${sem.length} dia(s) do histórico (${dias}); esses dias ficariam com o preço de ${antiga} sob o nome de ${nova}. ` +
        `Volte pracasReferencia.${u.def.uf} para "${antiga}" ou escolha uma praça cotada em todos os dias`,
    );
  }
  return problems;
}

/**
 * How far before the series' newest day (stored or on the page) a day the history does not have
 * may be. No page of the catalogue's series spans more than 21 calendar days (CEPEA's 15 business
 * days), so a new day further back is a date mistyped on the page (CEPEA's suíno rows once read
 * 09/04 for 04/09, a year typed wrong on the oldest row) or a copy long behind, never a day the
 * source just published. A weekly or monthly series (CEPEA's etanol and leite pages, not in the
 * catalogue) would need bounds of its own, here and in DIAS_SALTO_MAX.
 */
export const DIAS_ATRAS_MAX = 45;

/**
 * The longest step between two consecutive days of one series on a page: the recorded pages step
 * at most 4 days (a weekend and a holiday), the year's end and Carnaval at most about 9. A longer
 * step from a day no other series of the page has is a date mistyped within the page's span (the
 * oldest row a month back), first run or not.
 */
export const DIAS_SALTO_MAX = 14;

/**
 * Dates a page may have mistyped while keeping its order, each refusing the page:
 * - a day the history does not have, more than DIAS_ATRAS_MAX days before the series' newest day
 *   (it would be added as a gap fill: a wrong date with a real price);
 * - a day more than DIAS_SALTO_MAX days before the series' next day on the page, when no other
 *   series of the page has that day (a state of suíno vivo missing for two weeks, or a seasonal
 *   table, steps over days the page's other series have; a typed date does not);
 * - on a source's own page of one day (Scot's tables), a new day older than the last published
 *   one (the source never publishes a day late; a mirror may lag, and fills a missed day).
 * Days the history has are revisions, judged by the revision bound; a day in the future is refused
 * by checkUpdates. Update runs only: a backfill reads whole histories on purpose. Returns the
 * reasons; empty when the page passes.
 */
export function checkDiasAntigos(
  updates: readonly SeriesUpdate[],
  history: (id: string) => readonly HistoricoEntry[],
  now: Date,
  /** the source's own page, not a mirror's copy */
  propria = true,
): string[] {
  const problems: string[] = [];
  const today = dayBrasilia(now);
  const talvez = "é uma data digitada errada (dia e mês trocados, ano errado) ou uma cópia antiga da página?";
  const diasDe = (u: SeriesUpdate) => [...new Set(u.entries.map((e) => e.data))].filter((d) => d <= today).sort();
  const porSerie = updates.map((u) => ({ u, dias: diasDe(u) }));
  const diasDaPagina = new Set(porSerie.flatMap((x) => x.dias));
  for (const { u, dias } of porSerie) {
    if (dias.length === 0) continue;
    const stored = history(u.def.id);
    const guardado = (d: string) => stored.some((s) => s.data === d);
    const ultimoGuardado = stored.at(-1)?.data;
    const maisNovo = ultimoGuardado !== undefined && ultimoGuardado > dias.at(-1)! ? ultimoGuardado : dias.at(-1)!;
    const deQue = maisNovo === ultimoGuardado ? "do último dia publicado" : "do dia mais novo da página";
    for (const d of dias) {
      const atras = daysBetween(d, maisNovo);
      if (atras <= DIAS_ATRAS_MAX || guardado(d)) continue;
      problems.push(
        `${u.def.id}: o dia ${formatDateBR(d)} não está no histórico e fica ${atras} dias antes ${deQue} (${formatDateBR(maisNovo)}); ` +
          `nenhuma página mostra dias tão antigos (o máximo é ${DIAS_ATRAS_MAX}): ${talvez}`,
      );
    }
    const outras = new Set(porSerie.filter((x) => x.u !== u && x.u.def.id !== u.def.id).flatMap((x) => x.dias));
    for (let i = 1; i < dias.length; i++) {
      const salto = daysBetween(dias[i - 1]!, dias[i]!);
      if (salto <= DIAS_SALTO_MAX || outras.has(dias[i - 1]!)) continue;
      problems.push(
        `${u.def.id}: na página, o dia seguinte a ${formatDateBR(dias[i - 1]!)} é ${formatDateBR(dias[i]!)}, ${salto} dias depois, e nenhuma outra série da página tem ${formatDateBR(dias[i - 1]!)}; ` +
          `nenhuma página salta mais de ${DIAS_SALTO_MAX} dias entre dois dias seguidos: ${talvez}`,
      );
    }
    const [unico] = dias;
    if (propria && diasDaPagina.size === 1 && ultimoGuardado !== undefined && unico! < ultimoGuardado && !guardado(unico!)) {
      problems.push(
        `${u.def.id}: a página traz um só dia, ${formatDateBR(unico!)}, que o histórico não tem e que é anterior ao último dia publicado (${formatDateBR(ultimoGuardado)}); ` +
          `a própria fonte não publica um dia atrasado: ${talvez}`,
      );
    }
  }
  return problems;
}

const FIM_DE_SEMANA: Readonly<Record<number, string>> = { 0: "domingo", 6: "sábado" };

/** How many series a message names before it counts the rest. */
const SERIES_CITADAS = 5;

/**
 * On a page that dates business days only (PageDef.diasUteis), a new day on a Saturday or Sunday
 * is a mistyped date that kept the page's order: Monday typed one or two days early (09/11 as
 * 08/11), Friday one or two days late. Merged, it would be a price under a day with no market,
 * and the true day would be filled in beside it when the page is put right, the wrong one staying.
 * A weekend day the history already has (a backfill's) is left to the revision bound. Holidays are
 * not judged: which ones a source skips varies (regional ones, Carnaval). Update runs only.
 * Returns the reasons, one per weekend day; empty when the page passes.
 */
export function checkFimDeSemana(updates: readonly SeriesUpdate[], history: (id: string) => readonly HistoricoEntry[], diasUteis: boolean): string[] {
  if (!diasUteis) return [];
  const porDia = new Map<string, string[]>();
  for (const u of updates) {
    const stored = history(u.def.id);
    for (const d of new Set(u.entries.map((e) => e.data))) {
      if (FIM_DE_SEMANA[new Date(`${d}T12:00:00Z`).getUTCDay()] === undefined || stored.some((s) => s.data === d)) continue;
      const ids = porDia.get(d) ?? porDia.set(d, []).get(d)!;
      ids.push(u.def.id);
    }
  }
  return [...porDia].sort(([a], [b]) => a.localeCompare(b)).map(([d, ids]) => {
    const nomes = ids.slice(0, SERIES_CITADAS).join(", ") + (ids.length > SERIES_CITADAS ? ` e mais ${ids.length - SERIES_CITADAS}` : "");
    return (
      `${nomes}: o dia ${formatDateBR(d)} é um ${FIM_DE_SEMANA[new Date(`${d}T12:00:00Z`).getUTCDay()]}, que o histórico não tem, e esta página só traz dias úteis: ` +
      "é uma data digitada errada (a segunda-feira datada um ou dois dias antes, a sexta-feira depois)?"
    );
  });
}

/**
 * A page of several days that does not list a day the history has, inside the span it shows for
 * that series. With a day the history lacks before its newest one (a gap fill), it is a row whose
 * date was retyped: the oldest row 17/08 typed 10/08 keeps the page's order and would be merged
 * as 10/08 with 17/08's price; the page is refused (`problemas`) until it lists the day again or
 * the day leaves its window (a stored day the source never had, from a mirror or a backfill, beside
 * a late fill refuses it too: the message says so). Without one, the source withdrew the day (or the page is missing a
 * row): nothing new is wrong, the published day stays, and it is said (`avisos`). The source's own
 * page only: a mirror may skip a day the source has.
 */
export function checkDiasSumidos(
  updates: readonly SeriesUpdate[],
  history: (id: string) => readonly HistoricoEntry[],
  propria: boolean,
): { problemas: string[]; avisos: string[] } {
  const out = { problemas: [] as string[], avisos: [] as string[] };
  if (!propria) return out;
  for (const u of updates) {
    const dias = new Set(u.entries.map((e) => e.data));
    if (dias.size < 2) continue;
    const ordenados = [...dias].sort();
    const [de, ate] = [ordenados[0]!, ordenados.at(-1)!];
    const guardados = new Set(history(u.def.id).map((e) => e.data));
    // a day kept out for an undone value (desfeitos.json) is on the page: not withdrawn
    const pulados = new Set(u.pulados ?? []);
    const sumidos = [...guardados].filter((d) => d > de && d < ate && !dias.has(d) && !pulados.has(d)).sort();
    if (sumidos.length === 0) continue;
    const ultimo = [...guardados].sort().at(-1)!;
    const preenchidos = ordenados.filter((d) => !guardados.has(d) && d < ultimo);
    const falta = `${u.def.id}: a página vai de ${formatDateBR(de)} a ${formatDateBR(ate)} e não traz ${sumidos.map(formatDateBR).join(", ")}, que o histórico tem`;
    if (preenchidos.length > 0) {
      out.problemas.push(
        `${falta}, mas traz ${preenchidos.map(formatDateBR).join(", ")}, que o histórico não tem: a data de uma linha foi trocada ` +
          "(ou o dia publicado veio de um espelho ou de um backfill e a fonte não o tem)? " +
          "A página volta a ser aceita quando trouxer o dia de novo ou quando ele sair da janela dela",
      );
    } else {
      out.avisos.push(`${falta} (a fonte retirou o dia? o valor publicado fica como está)`);
    }
  }
  return out;
}
