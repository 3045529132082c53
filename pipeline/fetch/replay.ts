import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { classifyResponse } from "./challenge.ts";
import { pageUrl, type PageLoader, type LoadResult } from "./types.ts";
import type { PageDef, SourceDef } from "../sources/types.ts";

/**
 * Reads recorded pages from DIR/{source}/{page}.html (the layout of ../shared/fixtures). A
 * missing file is that page's failure ("missing"), not the run's; a recorded challenge page or a
 * page without its table is classified exactly as the live fetcher would (blocked, soft_block).
 */
export function createReplayLoader(dir: string, now: () => Date, env: NodeJS.ProcessEnv = process.env): PageLoader {
  const root = resolve(dir);
  return {
    async load(source: SourceDef, page: PageDef): Promise<LoadResult> {
      const file = join(root, source.id, `${page.id}.html`);
      // status.json names the page by its real URL; the reason says which recorded file was used
      const url = pageUrl(source, page, env);
      let html: string;
      try {
        html = await readFile(file, "utf8");
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        return {
          ok: false,
          kind: "missing",
          url,
          reason: code === "ENOENT" ? `página gravada não encontrada: ${file}` : `não foi possível ler a página gravada ${file} (${code})`,
        };
      }
      // a recorded challenge or block page fails the same way it failed live
      const verdict = classifyResponse({ status: 200, headers: new Headers(), body: html, bytes: Buffer.byteLength(html) }, (h) => page.hasTable(h));
      if (!verdict.ok) return { ok: false, kind: verdict.kind, url, reason: `${verdict.reason} (página gravada ${file})` };
      return { ok: true, html, url: file, mirror: null, mirrorUrl: null, fetchedAt: now(), method: "replay" };
    },
    async close() {},
    requestsPerHost: () => ({}),
  };
}
