import type { Config } from "../config.ts";
import { PipelineError } from "../domain/errors.ts";
import { allSeries } from "../sources/index.ts";
import { emptyEventos, loadEventos } from "../events/model.ts";
import { loadStore } from "../history/store.ts";
import { withDataLock } from "../publish/lock.ts";
import { publishFiles } from "../publish/write.ts";
import { renderSerie } from "../render/serie.ts";
import { renderSiteFiles } from "../site/assemble.ts";
import type { SerieFile } from "../domain/publicados.ts";
import { getSource } from "../sources/index.ts";
import { nextStatus } from "./status.ts";

/**
 * Re-derives every file from the stored histories (no fetching): series files are re-rendered
 * from their history, praças, provenance and update time, so a change in how a derived field is
 * written reaches every file, and a build of unchanged data changes no byte.
 */
export async function runBuild(config: Config, now: Date, lock: BuildLockOptions = {}): Promise<{ written: string[]; files: number }> {
  // the lock first: a build must not read a tree another run is publishing
  return withDataLock(config.publicDir, { esperar: lock.esperar ?? true, log: lock.log, comando: lock.comando }, () => build(config, now));
}

export interface BuildLockOptions {
  /** wait for a run holding the data directory (default), or fail at once naming it */
  esperar?: boolean;
  log?: (line: string) => void;
  comando?: string;
}

async function build(config: Config, now: Date): Promise<{ written: string[]; files: number }> {
  const store = await loadStore(config.publicDir);
  const series = new Map<string, SerieFile>();
  for (const def of allSeries()) {
    const f = store.series.get(def.id);
    if (!f || f.historico.length === 0) continue;
    series.set(
      def.id,
      renderSerie({
        def,
        source: getSource(def.fonte),
        historico: f.historico,
        praca: f.praca ?? null,
        pracas: f.pracas ?? null,
        proveniencia: f.proveniencia,
        atualizado: f.atualizado,
      }),
    );
  }
  const status = store.status ?? nextStatus(null, [], series, config, now);
  const eventos = (await loadEventos(config.publicDir)) ?? emptyEventos();
  const published = await publishFiles(config.publicDir, renderSiteFiles(series, status, config, { eventos }));
  if (published.erros.length > 0) {
    throw new PipelineError({ stage: "validate", reason: `arquivos inválidos; nada foi escrito:\n  ${published.erros.join("\n  ")}` });
  }
  return { written: published.written, files: published.written.length + published.unchanged };
}
