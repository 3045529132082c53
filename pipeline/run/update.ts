import type { Config } from "../config.ts";
import { ParseError, PipelineError } from "../domain/errors.ts";
import { PriceRowSchema, type PriceRow } from "../domain/row.ts";
import { checkUpdates } from "../check/gates.ts";
import { pageUrl, type PageLoader } from "../fetch/types.ts";
import { loadEventos, nextEventos } from "../events/model.ts";
import { assemble } from "../history/assemble.ts";
import { loadStore } from "../history/store.ts";
import { publishFiles } from "../publish/write.ts";
import { renderSiteFiles } from "../render/site.ts";
import type { SerieFile } from "../render/shapes.ts";
import { SOURCES } from "../sources/index.ts";
import type { PageDef, SourceDef } from "../sources/types.ts";
import { applyUpdate, type SeriesChange } from "./apply.ts";
import { formatReport, outcomeLine } from "./report.ts";
import { nextStatus, type PageOutcome } from "./status.ts";

export interface UpdateOptions {
  loader: PageLoader;
  config: Config;
  now: Date;
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
}

export interface UpdateReport {
  outcomes: PageOutcome[];
  changes: SeriesChange[];
  avisos: string[];
  written: string[];
  /** 0 when every enabled page was read and merged, 1 otherwise */
  exitCode: number;
}

/** Parsing, validating and assembling one page; a failure names source, page and URL. */
function readPage(
  source: SourceDef,
  page: PageDef,
  html: string,
  parse: (html: string) => { rows: PriceRow[]; avisos: string[] },
  config: Config,
):
  | { ok: true; updates: ReturnType<typeof assemble>["updates"]; avisos: string[]; faltas: string[] }
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
  const a = assemble(source, page, parsed.rows, config);
  if (a.problemas.length > 0) return { ok: false, kind: "rejected", reason: a.problemas.join("; ") };
  return { ok: true, updates: a.updates, avisos: [...parsed.avisos, ...a.avisos], faltas: a.faltas };
}

/**
 * fetch -> parse -> check -> merge -> render -> validate -> write. A page that fails keeps its
 * series as they were and is recorded in status.json; the other pages still update. Nothing is
 * written unless every file of the new site validates.
 */
export async function runUpdate(opts: UpdateOptions): Promise<UpdateReport> {
  const { loader, config, now } = opts;
  const env = opts.env ?? process.env;
  const log = opts.log ?? (() => {});
  const store = await loadStore(config.publicDir);
  const series = new Map<string, SerieFile>(store.series);
  const outcomes: PageOutcome[] = [];
  const changes: SeriesChange[] = [];
  const avisos: string[] = [];

  const record = (o: PageOutcome) => {
    outcomes.push(o);
    log(outcomeLine(o));
  };
  try {
    for (const source of SOURCES) {
      if (!config.fontesAtivas[source.id]) {
        log(`${source.id}: desativada na configuração; séries mantidas como estão`);
        continue;
      }
      for (const page of source.pages) {
        const url = pageUrl(source, page, env);
        const loaded = await loader.load(source, page);
        if (!loaded.ok) {
          record({ source: source.id, page: page.id, ok: false, url: loaded.url || url, kind: loaded.kind, reason: loaded.reason });
          continue;
        }
        const parse = loaded.mirror ? loaded.mirror.parse.bind(loaded.mirror) : page.parse.bind(page);
        const read = readPage(source, page, loaded.html, parse, config);
        if (!read.ok) {
          record({ source: source.id, page: page.id, ok: false, url: loaded.mirrorUrl ?? url, kind: read.kind, reason: read.reason });
          continue;
        }
        const problems = checkUpdates(read.updates, (id) => series.get(id)?.historico ?? [], now);
        if (problems.length > 0) {
          record({ source: source.id, page: page.id, ok: false, url: loaded.mirrorUrl ?? url, kind: "rejected", reason: problems.join("; ") });
          continue;
        }
        for (const a of read.avisos) avisos.push(`${source.id}/${page.id}: ${a}`);
        let changed = false;
        for (const u of read.updates) {
          const def = u.def;
          const applied = applyUpdate(def, source, series.get(def.id), u, {
            url,
            via: loaded.mirror?.id ?? null,
            viaUrl: loaded.mirrorUrl,
            fetchedAt: loaded.fetchedAt,
          }, now);
          if (applied) {
            series.set(def.id, applied.file);
            changes.push(applied.change);
            changed = true;
          }
        }
        if (read.faltas.length > 0) {
          // the series that could be read were merged; the page still fails, loudly
          record({ source: source.id, page: page.id, ok: false, url: loaded.mirrorUrl ?? url, kind: "parse_error", reason: read.faltas.join("; ") });
        } else {
          record({ source: source.id, page: page.id, ok: true, url, via: loaded.mirror?.id ?? null, changed });
        }
      }
    }
  } finally {
    await loader.close();
  }

  const status = nextStatus(store.status, outcomes, series, config, now, env);
  const eventos = nextEventos(await loadEventos(config.publicDir), changes, now);
  const published = await publishFiles(config.publicDir, renderSiteFiles(series, status, config, { eventos }));
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
