import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Config, RevisaoAceita } from "../config.ts";
import { ParseError, PipelineError } from "../domain/errors.ts";
import { PriceRowSchema, type PriceRow } from "../domain/row.ts";
import { checkRows } from "../check/coherence.ts";
import { checkDiasAntigos, checkDiasSumidos, checkFimDeSemana, checkRebase, checkUpdates } from "../check/gates.ts";
import { aceiteArg, describeRevision, judgeRevisions } from "../check/revisions.ts";
import type { RevisaoCampo, SeriesChange } from "../history/changes.ts";
import { dayBrasilia, formatDateBR, isoBrasilia } from "../domain/dates.ts";
import { baselines, capturaId, loadCapturas, loadTodasCapturas, sha256Hex, type Captura, type CapturaRevisao } from "../history/capturas.ts";
import { pageUrl, type PageLoader } from "../fetch/types.ts";
import { loadEventos, nextEventos } from "../events/model.ts";
import { assemble } from "../history/assemble.ts";
import { readPublished } from "../contract/schemas.ts";
import { holdsDataLock, withDataLock } from "../publish/lock.ts";
import { publishFiles, TrechoDivergente } from "../publish/write.ts";
import type { ResumoSerie } from "../render/resumo.ts";
import { montarSite } from "../site/assemble.ts";
import { abrirStore, lerSerie } from "../site/store.ts";
import type { SerieFile } from "../domain/publicados.ts";
import { seriesJsonPath, type SeriesDef } from "../domain/series.ts";
import { allSeries, SOURCES } from "../sources/index.ts";
import type { MirrorDef, PageDef, SourceDef } from "../sources/types.ts";
import { applyUpdate } from "./apply.ts";
import { formatReport, outcomeLine, type UpdateReport } from "./report.ts";
import { caminhoDe, nextStatus, seriesNaoLidas, type PageOutcome } from "./status.ts";

export interface UpdateOptions {
  loader: PageLoader;
  config: Config;
  now: Date;
  /** revisions beyond the bound an operator accepts for this run (`--aceitar-revisao`), besides the configuration's */
  aceitar?: RevisaoAceita[];
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
  /**
   * the run was cancelled (SIGINT/SIGTERM): no page is fetched after it and nothing is published
   * (AtualizacaoInterrompida); once the publish has begun it is finished, all or nothing
   */
  signal?: AbortSignal;
  /** called once, just before the publish begins: from here a cancelled run finishes it */
  aoPublicar?: () => void;
}

export type { UpdateReport } from "./report.ts";

/** The run was cancelled before publishing: nothing of it was published. `onde` is what it was doing (pt-BR). */
export class AtualizacaoInterrompida extends Error {
  constructor(readonly onde: string) {
    super(`atualização interrompida durante ${onde}; nada foi publicado, o site ficou como estava`);
    this.name = "AtualizacaoInterrompida";
  }
}

/**
 * Each series the published catalogue lists (api/v1/index.json), with its last day: it was
 * published, so its history file missing is a file lost (deleted by mistake and committed), not
 * a series still to start; `npm run build` drops such a series from the catalogue. Empty before
 * the first publish.
 */
export async function seriesDoIndice(root: string): Promise<ReadonlyMap<string, string | null>> {
  const index = await readPublished(root, "api/v1/index.json", "index.schema.json");
  return new Map((index?.series ?? []).map((s) => [s.id, s.ultima_data]));
}

/**
 * Why a series the catalogue lists is not merged into without its history: a history started
 * afresh from what was just read (a page's month, in place of decades) would be published as the
 * series. `depois` is the command to run once the series is dropped on purpose.
 */
export function historicoSumido(root: string, def: SeriesDef, ultima: string | null, depois: string): string {
  const p = join(root, seriesJsonPath(def));
  return (
    `a série ${def.id} já foi publicada (api/v1/index.json a lista${ultima ? `, até ${formatDateBR(ultima)}` : ""}), mas o histórico dela, ${p}, não existe (apagado por engano?); ` +
    `nada foi mesclado nela, para não publicar no lugar do histórico um novo só com os dias lidos agora. ` +
    `Restaure-o: git log --diff-filter=D -- ${p} mostra o commit que o apagou, git checkout <commit>~1 -- ${p} (ou git checkout HEAD~N -- ${p}) o traz de volta, e npm run build republica a série inteira. ` +
    `Se a série deve mesmo recomeçar do zero, rode npm run build antes (ele a tira do index.json) e depois ${depois}`
  );
}

/** Parsing, validating and assembling one page; a failure names source, page and URL. */
function readPage(
  source: SourceDef,
  page: PageDef,
  html: string,
  parse: (html: string) => { rows: PriceRow[]; avisos: string[] },
  config: Config,
  espelho: MirrorDef | null,
):
  | { ok: true; updates: ReturnType<typeof assemble>["updates"]; avisos: string[]; incoerentes: string[]; pulados: ReturnType<typeof assemble>["pulados"] }
  | { ok: false; kind: "parse_error" | "soft_block" | "rejected"; reason: string } {
  let parsed;
  try {
    parsed = parse(html);
  } catch (err) {
    if (err instanceof ParseError) return { ok: false, kind: err.kind, reason: err.message };
    return { ok: false, kind: "parse_error", reason: `erro inesperado ao ler a página: ${(err as Error).message}` };
  }
  for (const [i, row] of parsed.rows.entries()) {
    const r = PriceRowSchema.safeParse(row);
    if (!r.success) {
      const issue = r.error.issues[0]!;
      return { ok: false, kind: "parse_error", reason: `linha ${i + 1} inválida: ${issue.path.join(".")}: ${issue.message}` };
    }
  }
  const a = assemble(source, page, parsed.rows, config, { espelho });
  if (a.problemas.length > 0) return { ok: false, kind: "rejected", reason: a.problemas.join("; ") };
  // a page is atomic: a series it should have fed and could not (a UF without rows, a reference
  // praça renamed) fails the whole page, so nothing of a half-read page is ever merged
  if (a.faltas.length > 0) return { ok: false, kind: "parse_error", reason: a.faltas.join("; ") };
  // cross-field checks are judged with the other gates, so one report lists every problem
  return { ok: true, updates: a.updates, avisos: [...parsed.avisos, ...a.avisos], incoerentes: checkRows(parsed.rows), pulados: a.pulados };
}

export async function runUpdate(opts: UpdateOptions): Promise<UpdateReport> {
  // from the first read of the tree to its publish, one run at a time (as runBuild): without the
  // lock two updates read the same state and the second to publish wrote over the first's days;
  // the CLI already holds it (re-entrant)
  if (!holdsDataLock(opts.config.publicDir)) {
    return withDataLock(opts.config.publicDir, { esperar: true, log: opts.log, comando: "atualização (runUpdate)" }, () => runUpdate(opts));
  }
  const { loader, config, now } = opts;
  const env = opts.env ?? process.env;
  const log = opts.log ?? (() => {});
  const root = config.publicDir;
  const prevStatus = await readPublished(root, "api/v1/status.json", "status.schema.json");
  // the series a page feeds are read when the page is; the others stay on disk, standing by
  // the facts of the last publish (or, without trustworthy facts, are rendered again at the end)
  let store = await abrirStore(root);
  const series = new Map<string, SerieFile>();
  const alteradas = new Set<string>();
  const outcomes: PageOutcome[] = [];
  const changes: SeriesChange[] = [];
  const avisos: string[] = [];

  const record = (o: PageOutcome) => {
    outcomes.push(o);
    log(outcomeLine(o));
  };
  const aceitas = [...config.revisoesAceitas, ...(opts.aceitar ?? [])];
  const usadas = new Set<RevisaoAceita>();
  const capturas: Captura[] = [];
  // what each revised field was published at by right, from the capture log (no ratchet)
  const base = baselines(await loadTodasCapturas(config.publicDir));
  // a series the published index lists whose history file is gone (deleted by mistake and
  // committed) stops the whole run before anything is fetched: refusing only its page would still
  // publish the rest of the set, which drops the series from index.json and removes its files, and
  // the next run would start it afresh from a page's month in place of decades
  const noIndice = await seriesDoIndice(root);
  const sumidas: string[] = [];
  for (const def of allSeries()) {
    if (noIndice.has(def.id) && !existsSync(join(root, seriesJsonPath(def)))) sumidas.push(historicoSumido(root, def, noIndice.get(def.id)!, "npm run update"));
  }
  if (sumidas.length > 0) throw new PipelineError({ stage: "merge", reason: `nada foi buscado nem publicado: ${sumidas.join("; ")}` });
  try {
    for (const source of SOURCES) {
      if (!config.fontesAtivas[source.id]) {
        log(`${source.id}: desativada na configuração; séries mantidas como estão`);
        continue;
      }
      for (const page of source.pages) {
        const url = pageUrl(source, page, env);
        if (opts.signal?.aborted) throw new AtualizacaoInterrompida(`a busca, antes de ${source.id}/${page.id}`);
        const loaded = await loader.load(source, page);
        // whatever the loader returned once the run was cancelled, it is not merged
        if (opts.signal?.aborted) throw new AtualizacaoInterrompida(`a busca de ${source.id}/${page.id}`);
        if (!loaded.ok) {
          record({ source: source.id, page: page.id, ok: false, url: loaded.url || url, kind: loaded.kind, reason: loaded.reason });
          continue;
        }
        const where = loaded.mirrorUrl ?? url;
        const parse = loaded.mirror ? loaded.mirror.parse.bind(loaded.mirror) : page.parse.bind(page);
        const read = readPage(source, page, loaded.html, parse, config, loaded.mirror);
        if (!read.ok) {
          record({ source: source.id, page: page.id, ok: false, url: where, kind: read.kind, reason: read.reason });
          continue;
        }
        for (const u of read.updates) {
          if (!series.has(u.def.id)) {
            const f = await lerSerie(root, u.def);
            if (f) series.set(u.def.id, f);
          }
        }
        const storedQuotes = (id: string) => {
          const f = series.get(id);
          return f?.pracas ? { data: f.data_cotacao, quotes: f.pracas } : null;
        };
        const sumidos = checkDiasSumidos(read.updates, (id) => series.get(id)?.historico ?? [], !loaded.mirror);
        const problems = [
          ...checkUpdates(read.updates, (id) => series.get(id)?.historico ?? [], now, storedQuotes),
          ...checkDiasAntigos(read.updates, (id) => series.get(id)?.historico ?? [], now, !loaded.mirror),
          ...checkFimDeSemana(read.updates, (id) => series.get(id)?.historico ?? [], page.diasUteis),
          ...sumidos.problemas,
          ...checkRebase(read.updates, (id) => series.get(id)),
          ...read.incoerentes,
        ];

        // merge every series of the page aside (applyUpdate is pure), judge what it would
        // revise, and only then keep all of it or none of it
        const origin = { url, via: loaded.mirror?.id ?? null, viaUrl: loaded.mirrorUrl, fetchedAt: loaded.fetchedAt };
        const applied = read.updates.map((u) => ({ u, r: applyUpdate(u.def, source, series.get(u.def.id), u, origin, now) }));
        const revisoes: CapturaRevisao[] = [];
        const suspeitas: RevisaoCampo[] = [];
        const usadasAqui: RevisaoAceita[] = [];
        const atrasos: string[] = [];
        for (const { u, r } of applied) {
          if (!r) continue;
          // a page whose newest day is older than the series' last published day is behind the
          // source (a cached copy served while the origin is down, a mirror that lags): the values
          // it would change are the source's superseded ones, not a revision
          const publicadoAte = series.get(u.def.id)?.historico.at(-1)?.data;
          const paginaAte = u.entries.at(-1)?.data;
          const atrasada = publicadoAte !== undefined && paginaAte !== undefined && paginaAte < publicadoAte;
          const v = judgeRevisions(u.def, r.change.campos, aceitas, u.pracas?.praca ?? null, (c) => base.get(`${c.serie}|${c.data}|${c.campo}`), atrasada);
          if (atrasada && v.suspeitas.length > 0) atrasos.push(`${u.def.id} vai até ${formatDateBR(paginaAte!)} na página e até ${formatDateBR(publicadoAte!)} no histórico`);
          revisoes.push(...v.todas, ...r.change.rebase.map((c) => ({ ...c, aceita: true })));
          suspeitas.push(...v.suspeitas);
          usadasAqui.push(...v.usadas);
        }
        // a page that fails a plausibility gate is rejected outright: what it would revise is
        // said too, but an operator is never invited to accept numbers the gates refuse
        if (problems.length > 0) {
          const revisa = suspeitas.length > 0 ? `; além disso, mudaria valores já publicados além do limite de revisão: ${suspeitas.map(describeRevision).join("; ")}` : "";
          record({ source: source.id, page: page.id, ok: false, url: where, kind: "rejected", reason: problems.join("; ") + revisa });
          continue;
        }
        if (suspeitas.length > 0) {
          const atras = atrasos.length > 0 ? `a página está atrás do que já foi publicado: ${atrasos.join("; ")} (cópia antiga, de cache ou de um espelho atrasado?); ` : "";
          const reason =
            atras +
            `a página mudaria ${suspeitas.length} valor(es) já publicado(s)${atras ? "" : " além do limite de revisão"}; nada dela foi mesclado: ` +
            suspeitas.map(describeRevision).join("; ") +
            `. Se a revisão for legítima, aceite-a: npm run update -- ${suspeitas.map((c) => `--aceitar-revisao ${aceiteArg(c)}`).join(" ")}`;
          const lista = suspeitas.map((c) => ({ ...c, aceitar: aceiteArg(c) }));
          record({ source: source.id, page: page.id, ok: false, url: where, kind: "revisao_suspeita", reason, revisoes: lista });
          continue;
        }
        for (const a of [...read.avisos, ...sumidos.avisos]) avisos.push(`${source.id}/${page.id}: ${a}`);
        // an acceptance counts as used only by a page that was merged
        for (const a of usadasAqui) usadas.add(a);
        for (const rv of revisoes) {
          const key = `${rv.serie}|${rv.data}|${rv.campo}`;
          if (rv.aceita) base.set(key, rv.depois);
          else if (!base.has(key)) base.set(key, rv.antes);
        }
        const novos: Record<string, string[]> = {};
        for (const { u, r } of applied) {
          if (!r) continue;
          series.set(u.def.id, r.file);
          alteradas.add(u.def.id);
          changes.push(r.change);
          if (r.change.added.length > 0) novos[u.def.id] = r.change.added;
        }
        const changed = applied.some(({ r }) => r !== null);
        if (changed) {
          const sha256 = loaded.sha256 ?? sha256Hex(loaded.html);
          capturas.push({
            id: capturaId(source.id, page.id, sha256, isoBrasilia(now)),
            fonte: source.id,
            pagina: page.id,
            url,
            via: origin.via,
            via_url: origin.viaUrl,
            coletado_em: isoBrasilia(loaded.fetchedAt),
            registrado_em: isoBrasilia(now),
            sha256,
            bytes: loaded.bytes ?? Buffer.byteLength(loaded.html),
            dias: [...new Set(read.updates.flatMap((u) => u.entries.map((e) => e.data)))].sort(),
            novos,
            revisoes,
          });
        }
        const diasNovos = new Set(Object.values(novos).flat()).size;
        const diasRevisados = new Set(revisoes.map((rv) => rv.data)).size;
        record({
          source: source.id,
          page: page.id,
          ok: true,
          url,
          via: loaded.mirror?.id ?? null,
          caminho: caminhoDe(loaded.method),
          viaUrl: loaded.mirrorUrl,
          ...(loaded.mirror ? { naoLidas: seriesNaoLidas(loaded.mirror) } : {}),
          ...(loaded.origem ? { origem: loaded.origem } : {}),
          changed,
          diasNovos,
          diasRevisados,
          ...(read.pulados.length > 0 ? { pulados: read.pulados } : {}),
        });
      }
    }
  } finally {
    await loader.close();
  }
  for (const a of aceitas) {
    if (!usadas.has(a)) avisos.push(`revisão aceita não usada nesta execução: ${a.serie} em ${a.data}, ${a.campo} = ${a.valor ?? "nenhum"}`);
  }

  const status = (resumos: ReadonlyMap<string, ResumoSerie>) => nextStatus(prevStatus, outcomes, resumos, config, now, env);
  const eventos = nextEventos(await loadEventos(root), changes, now);
  const log_ = capturas.length > 0 ? await loadCapturas(root, Number(dayBrasilia(now).slice(0, 4))) : null;
  const extras = { eventos, ...(log_ ? { capturas: { ...log_, capturas: [...log_.capturas, ...capturas] } } : {}) };
  const semFatos = () => log(`fatos da última publicação ausentes ou desatualizados (${store.motivo}): todas as séries serão geradas de novo`);
  if (!store.fatos) semFatos();
  // the last point where a cancelled run stops with nothing published
  if (opts.signal?.aborted) throw new AtualizacaoInterrompida("a preparação, antes da publicação");
  opts.aoPublicar?.();
  let published;
  try {
    published = await publishFiles(root, montarSite(store.entrada(series, alteradas), status, config, extras));
  } catch (err) {
    // a block of the long file the facts vouched for was changed (same size): nothing was
    // published; the set again, every series rendered, as without facts
    if (!(err instanceof TrechoDivergente) || !store.fatos) throw err;
    store = await abrirStore(root, err.reason);
    semFatos();
    published = await publishFiles(root, montarSite(store.entrada(series, alteradas), status, config, extras));
  }
  if (published.erros.length > 0) {
    throw new PipelineError({
      stage: "validate",
      reason: `os arquivos gerados não passaram na validação; nada foi escrito:\n  ${published.erros.join("\n  ")}`,
    });
  }
  const exitCode = outcomes.some((o) => !o.ok) ? 1 : 0;
  const report: UpdateReport = { outcomes, changes, avisos, written: published.written, exitCode };
  for (const line of formatReport(report, loader.requestsPerHost())) log(line);
  return report;
}
