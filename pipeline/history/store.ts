import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { PipelineError } from "../domain/errors.ts";
import { allSeries, seriesJsonPath } from "../domain/series.ts";
import type { SerieFile, StatusFile } from "../render/shapes.ts";

/**
 * The history lives in the published series files themselves (git is the database). Loading is
 * strict: a file that exists but cannot be read stops the run before anything is written, so a
 * damaged file is never "repaired" into an empty history.
 */
export interface Store {
  series: Map<string, SerieFile>;
  status: StatusFile | null;
}

async function readJson<T>(file: string, rel: string): Promise<T | null> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new PipelineError({ stage: "merge", reason: `não foi possível ler ${rel}: ${(err as Error).message}`, cause: err });
  }
  try {
    return JSON.parse(text) as T;
  } catch (err) {
    throw new PipelineError({
      stage: "merge",
      reason: `${rel} não é JSON válido (${(err as Error).message}); nada foi escrito — restaure o arquivo com git`,
      cause: err,
    });
  }
}

export async function loadStore(publicDir: string): Promise<Store> {
  const series = new Map<string, SerieFile>();
  // one file at a time: a 30-year history is megabytes of text per series, and holding every
  // raw text at once while parsing would double the peak memory of a build
  for (const def of allSeries()) {
    {
      const rel = seriesJsonPath(def);
      const doc = await readJson<SerieFile>(join(publicDir, rel), rel);
      if (!doc) continue;
      if (!Array.isArray(doc.historico) || doc.produto !== def.produto || (doc.uf ?? null) !== def.uf) {
        throw new PipelineError({
          stage: "merge",
          reason: `${rel} não tem a forma de uma série ${def.id} (produto/uf/historico); nada foi escrito`,
        });
      }
      series.set(def.id, doc);
    }
  }
  const status = await readJson<StatusFile>(join(publicDir, "api/v1/status.json"), "api/v1/status.json");
  return { series, status };
}
