import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { PageLoader, LoadResult } from "./types.ts";
import type { PageDef, SourceDef } from "../sources/types.ts";

/**
 * Reads recorded pages from DIR/{source}/{page}.html (the layout of ../shared/fixtures). A
 * missing file is that page's failure ("missing"), not the run's.
 */
export function createReplayLoader(dir: string, now: () => Date): PageLoader {
  const root = resolve(dir);
  return {
    async load(source: SourceDef, page: PageDef): Promise<LoadResult> {
      const file = join(root, source.id, `${page.id}.html`);
      let html: string;
      try {
        html = await readFile(file, "utf8");
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        return {
          ok: false,
          kind: "missing",
          url: file,
          reason: code === "ENOENT" ? "página gravada não encontrada" : `não foi possível ler a página gravada (${code})`,
        };
      }
      return { ok: true, html, url: file, mirror: null, mirrorUrl: null, fetchedAt: now(), method: "replay" };
    },
    async close() {},
    requestsPerHost: () => ({}),
  };
}
