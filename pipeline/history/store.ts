import { seriesJsonPath } from "../domain/series.ts";
import { allSeries } from "../sources/index.ts";
import type { SerieFile, StatusFile } from "../domain/publicados.ts";
import { readPublished } from "../contract/schemas.ts";

/**
 * The history lives in the published series files themselves (git is the database). Loading is
 * strict: a file that exists but cannot be read or breaks its schema stops the run before anything
 * is written, so a damaged file is never "repaired" into an empty history.
 */
export interface Store {
  series: Map<string, SerieFile>;
  status: StatusFile | null;
}

export async function loadStore(publicDir: string): Promise<Store> {
  const series = new Map<string, SerieFile>();
  // one file at a time: a 30-year history is megabytes of text per series, and holding every
  // raw text at once while parsing would double the peak memory of a build
  for (const def of allSeries()) {
    // validated against schemas/serie.schema.json, including that it is the series of its path
    const doc = await readPublished(publicDir, seriesJsonPath(def), "serie.schema.json");
    if (doc) series.set(def.id, doc);
  }
  const status = await readPublished(publicDir, "api/v1/status.json", "status.schema.json");
  return { series, status };
}
