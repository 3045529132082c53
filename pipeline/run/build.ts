import type { Config } from "../config.ts";
import { PipelineError } from "../domain/errors.ts";
import { readPublished } from "../contract/schemas.ts";
import { emptyEventos, loadEventos } from "../events/model.ts";
import { withDataLock } from "../publish/lock.ts";
import { publishFiles } from "../publish/write.ts";
import type { ResumoSerie } from "../render/resumo.ts";
import { montarSite, type EntradaDoSite } from "../site/assemble.ts";
import { lerSerie, rascunhoDoLongo } from "../site/store.ts";
import { nextStatus } from "./status.ts";

/**
 * Re-derives every file from the stored histories (no fetching): series files are re-rendered
 * from their history, praças, provenance and update time, so a change in how a derived field is
 * written reaches every file, and a build of unchanged data changes no byte. A build never
 * trusts the facts of the last run (site/fatos.ts): it reads every series, and writes them anew.
 * The derived files no history of the catalogue produces (a series whose history is gone,
 * praças a history no longer has, a UF the aggregates no longer have) go with the set
 * (site/caminhos.ts); a history is never removed.
 */
export async function runBuild(config: Config, now: Date, lock: BuildLockOptions = {}): Promise<{ written: string[]; removidos: string[]; files: number }> {
  // the lock first: a build must not read a tree another run is publishing
  return withDataLock(config.publicDir, { esperar: lock.esperar ?? true, log: lock.log, comando: lock.comando }, () => build(config, now));
}

export interface BuildLockOptions {
  /** wait for a run holding the data directory (default), or fail at once naming it */
  esperar?: boolean;
  log?: (line: string) => void;
  comando?: string;
}

async function build(config: Config, now: Date): Promise<{ written: string[]; removidos: string[]; files: number }> {
  const root = config.publicDir;
  const prev = await readPublished(root, "api/v1/status.json", "status.schema.json");
  const eventos = (await loadEventos(root)) ?? emptyEventos();
  // one series at a time: read, render, validate, stage, let go (a 30-year site never sits in memory whole)
  const entrada: EntradaDoSite = {
    carregar: (def) => lerSerie(root, def, { paraRenderizar: true }),
    renderizar: () => true,
    fatos: null,
    rascunho: rascunhoDoLongo(root),
    longoPublicado: () => {
      throw new Error("build não copia blocos");
    },
    // the derived files no history of the catalogue produces go with the set
    raiz: root,
  };
  const status = (series: ReadonlyMap<string, ResumoSerie>) => prev ?? nextStatus(null, [], series, config, now);
  const published = await publishFiles(root, montarSite(entrada, status, config, { eventos }));
  if (published.erros.length > 0) {
    throw new PipelineError({ stage: "validate", reason: `arquivos inválidos; nada foi escrito:\n  ${published.erros.join("\n  ")}` });
  }
  return { written: published.written, removidos: published.removidos ?? [], files: published.written.length + published.unchanged };
}
