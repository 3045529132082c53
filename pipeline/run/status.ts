import type { Config } from "../config.ts";
import { dayBrasilia, isoBrasilia } from "../domain/dates.ts";
import { motivoDesatualizada, passouDoLimite, type ContagemIdade } from "../domain/idade.ts";
import { allSeries, seriesDoEspelho } from "../sources/index.ts";
import type { MirrorDef, SourceDef } from "../sources/types.ts";
import type { FailureKind } from "../domain/errors.ts";
import { SOURCES } from "../sources/index.ts";
import { pageUrl } from "../fetch/types.ts";
import type { SerieFile, SourceState, StatusFile, StatusPage, StatusSource } from "../domain/publicados.ts";
import { avisoPulado, type ValorPulado } from "../history/desfeitos.ts";

/**
 * How a page was read, as status.json says it: its source's page over HTTP, the same page in
 * Chromium (after a challenge), a mirror (named by `via`), or a recorded page (--replay; `via`
 * names the mirror when the recording is a mirror's).
 */
export type Caminho = "http" | "navegador" | "espelho" | "gravacao";

/** The path of a load (fetch/types.ts LoadOk.method). */
export function caminhoDe(method: string): Caminho {
  if (method === "browser") return "navegador";
  if (method === "mirror") return "espelho";
  if (method === "replay") return "gravacao";
  return "http";
}

/** The series of a mirror's page that a read through it leaves as they were (a partial mirror). */
export function seriesNaoLidas(mirror: MirrorDef): string[] {
  const [fonte, pagina] = mirror.paraPagina.split("/");
  const lidas = new Set(seriesDoEspelho(mirror).map((d) => d.id));
  return allSeries()
    .filter((d) => d.fonte === fonte && d.pagina === pagina && !lidas.has(d.id))
    .map((d) => d.id);
}

/** What happened to one page in this run. */
export type PageOutcome =
  | {
      source: string;
      page: string;
      ok: true;
      url: string;
      via: string | null;
      /** how the page was read; "http" when omitted */
      caminho?: Caminho;
      /** the mirror's address when `via` is set */
      viaUrl?: string | null;
      /** the page's series a partial mirror did not carry */
      naoLidas?: string[];
      /** with a mirror: how the source's own page failed first */
      origem?: { kind: FailureKind; reason: string };
      changed: boolean;
      diasNovos?: number;
      diasRevisados?: number;
      /** the days this read kept out because they bring back an undone value (desfeitos.json) */
      pulados?: readonly ValorPulado[];
    }
  | { source: string; page: string; ok: false; url: string; kind: FailureKind; reason: string; revisoes?: StatusPage["revisoes_suspeitas"] };

const EMPTY_PAGE = (id: string, url: string): StatusPage => ({
  id,
  url,
  estado: "ok",
  motivo: null,
  via: null,
  caminho: null,
  via_url: null,
  ultima_tentativa: null,
  ultimo_sucesso: null,
  falhas_consecutivas: 0,
  falhando_desde: null,
});

/** status.json's notices of the days a merged read kept out for an undone value (desfeitos.json). */
function valoresDesfeitos(pulados: readonly ValorPulado[]): NonNullable<StatusPage["valores_desfeitos"]> {
  return pulados.map((p) => {
    const { serie, data, campo, valor, commit } = p.desfeito;
    return { serie: p.serie, data: p.data, desfeito: { serie, data, campo, valor, commit }, aviso: avisoPulado(p) };
  });
}

function nextPage(prev: StatusPage, o: PageOutcome | undefined, now: string, pulados: readonly ValorPulado[] = []): StatusPage {
  if (!o) return prev; // not attempted (source disabled)
  if (o.ok) {
    const caminho = o.caminho ?? "http";
    const viaUrl = o.viaUrl ?? null;
    const naoLidas = o.naoLidas ?? [];
    const desfeitos = valoresDesfeitos(pulados);
    const comDesfeitos = desfeitos.length > 0 ? { valores_desfeitos: desfeitos } : {};
    // a page served another way than last time (a mirror, the browser, back to the source) is news too
    const recovering =
      prev.estado !== "ok" ||
      prev.via !== o.via ||
      prev.url !== o.url ||
      (prev.caminho ?? null) !== caminho ||
      (prev.via_url ?? null) !== viaUrl ||
      (prev.series_nao_lidas ?? []).join() !== naoLidas.join() ||
      // a value kept out, or no longer (the source corrected it): news as well, said on the page
      JSON.stringify(prev.valores_desfeitos ?? []) !== JSON.stringify(desfeitos) ||
      (prev.estado_da_fonte !== undefined) !== (o.origem !== undefined);
    const { revisoes_suspeitas: _, series_nao_lidas: _n, estado_da_fonte: _e, valores_desfeitos: _d, ...rest } = prev;
    if (o.origem) {
      // a mirror served the day, but the source's own page failed: the page is ok (the source is
      // not failed) and its failure stays counted, as the source's, until the source answers
      const sucesso = o.changed || recovering || prev.ultimo_sucesso === null;
      return {
        ...rest,
        url: o.url,
        estado: "ok",
        motivo: o.origem.reason,
        via: o.via,
        caminho,
        via_url: viaUrl,
        ...(naoLidas.length > 0 ? { series_nao_lidas: naoLidas } : {}),
        ...comDesfeitos,
        estado_da_fonte: o.origem.kind as NonNullable<StatusPage["estado_da_fonte"]>,
        ultima_tentativa: now,
        ultimo_sucesso: sucesso ? now : prev.ultimo_sucesso,
        falhas_consecutivas: prev.falhas_consecutivas + 1,
        falhando_desde: prev.falhando_desde ?? now,
      };
    }
    if (!o.changed && !recovering && prev.ultimo_sucesso !== null) return prev;
    return {
      ...rest,
      url: o.url,
      estado: "ok",
      motivo: null,
      via: o.via,
      caminho,
      via_url: viaUrl,
      ...(naoLidas.length > 0 ? { series_nao_lidas: naoLidas } : {}),
      ...comDesfeitos,
      ultima_tentativa: now,
      ultimo_sucesso: now,
      falhas_consecutivas: 0,
      falhando_desde: null,
    };
  }
  // a failed read merged nothing: nothing was kept out either
  const { revisoes_suspeitas: _, series_nao_lidas: _n, estado_da_fonte: _e, valores_desfeitos: _d, ...rest } = prev;
  return {
    ...rest,
    ...(o.revisoes && o.revisoes.length > 0 ? { revisoes_suspeitas: o.revisoes } : {}),
    url: o.url,
    estado: o.kind,
    motivo: o.reason,
    via: null,
    caminho: null,
    via_url: null,
    ultima_tentativa: now,
    falhas_consecutivas: prev.falhas_consecutivas + 1,
    falhando_desde: prev.falhando_desde ?? now,
  };
}

/**
 * How a source's age is counted: in business days when every page of it dates business days
 * only (all of the catalogue's), in calendar days otherwise. Its series are counted as it is, so
 * the dashboard, which knows a series' source and not its page, says what status.json says.
 */
export function contagemDe(source: Pick<SourceDef, "pages">): ContagemIdade {
  return source.pages.every((p) => p.diasUteis) ? "dias_uteis" : "dias_corridos";
}

function minTime(xs: Array<string | null>): string | null {
  const v = xs.filter((x): x is string => x !== null).sort();
  return v[0] ?? null;
}
function maxOf(xs: Array<string | null>): string | null {
  const v = xs.filter((x): x is string => x !== null).sort();
  return v[v.length - 1] ?? null;
}

/**
 * status.json from the previous one and this run's page outcomes. Fields change only when
 * something changed: a run that finds nothing new and nothing broken leaves the file as it was
 * (git history stays quiet); failures count up, and staleness is judged against `now`.
 */
export function nextStatus(
  prev: StatusFile | null,
  outcomes: readonly PageOutcome[],
  series: ReadonlyMap<string, Pick<SerieFile, "data_cotacao">>,
  config: Config,
  now: Date,
  env: NodeJS.ProcessEnv = process.env,
): StatusFile {
  const nowIso = isoBrasilia(now);
  const today = dayBrasilia(now);
  const defs = allSeries();
  const fontes: StatusSource[] = SOURCES.map((source) => {
    const prevSource = prev?.fontes.find((f) => f.id === source.id);
    const paginas = source.pages.map((page) => {
      const prevPage = prevSource?.paginas.find((p) => p.id === page.id) ?? EMPTY_PAGE(page.id, pageUrl(source, page, env));
      const o = outcomes.find((x) => x.source === source.id && x.page === page.id);
      return nextPage(prevPage, o, nowIso, o?.ok ? (o.pulados ?? []) : []);
    });
    const mySeries = defs.filter((d) => d.fonte === source.id).map((d) => series.get(d.id)).filter((f) => f !== undefined);
    const ultimaData = maxOf(mySeries.map((f) => f.data_cotacao));
    const contagem = contagemDe(source);
    const failing = paginas.filter((p) => p.estado !== "ok");
    let estado: SourceState;
    let motivo: string | null;
    if (!config.fontesAtivas[source.id]) {
      estado = "disabled";
      motivo = "fonte desativada na configuração";
    } else if (failing.length > 0) {
      estado = failing.every((p) => p.estado === "blocked" || p.estado === "soft_block") ? "blocked" : "failed";
      motivo = failing.map((p) => `${p.id}: ${p.motivo ?? p.estado}`).join("; ");
    } else if (ultimaData === null) {
      estado = "stale";
      motivo = "sem dados publicados";
    } else if (passouDoLimite(ultimaData, today, source.maxIdadeDias, contagem)) {
      estado = "stale";
      // no day count here: it would change the file every day and make every stale day a commit
      motivo = motivoDesatualizada(ultimaData, source.maxIdadeDias, contagem);
    } else {
      estado = "ok";
      motivo = null;
    }
    return {
      id: source.id,
      nome: source.nome,
      max_idade_dias: source.maxIdadeDias,
      contagem_idade: contagem,
      estado,
      motivo,
      ultima_tentativa: maxOf(paginas.map((p) => p.ultima_tentativa)),
      ultimo_sucesso: maxOf(paginas.map((p) => p.ultimo_sucesso)),
      ultima_data: ultimaData,
      falhas_consecutivas: Math.max(0, ...paginas.map((p) => p.falhas_consecutivas)),
      falhando_desde: minTime(paginas.map((p) => p.falhando_desde)),
      paginas,
    };
  });
  const seriesStatus = defs.map((d) => {
    const f = series.get(d.id);
    const source = SOURCES.find((s) => s.id === d.fonte)!;
    if (!f) return { id: d.id, ultima_data: null, estado: "sem_dados" as const };
    const stale = passouDoLimite(f.data_cotacao, today, source.maxIdadeDias, contagemDe(source));
    return { id: d.id, ultima_data: f.data_cotacao, estado: stale ? ("stale" as const) : ("ok" as const) };
  });
  const body = { fontes, series: seriesStatus };
  const unchanged = prev !== null && JSON.stringify({ fontes: prev.fontes, series: prev.series }) === JSON.stringify(body);
  return { api_version: "v1", atualizado: unchanged ? prev.atualizado : nowIso, ...body };
}
