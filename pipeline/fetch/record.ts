import { writeAtomic } from "../io/files.ts";
import { basename, join, resolve } from "node:path";
import { stripScriptsAndStyles } from "../sources/html.ts";
import type { MirrorDef, PageDef, SourceDef } from "../sources/types.ts";
import type { LoadResult, PageLoader } from "./types.ts";

/**
 * Wraps a loader and saves every page it gets, scripts and styles stripped, in the replay
 * layout: DIR/{source}/{page}.html, so `--replay DIR` reads it back. A page that came through a
 * mirror is the mirror's HTML, which the source's parser cannot read: it is saved where
 * mirrorFile says (DIR/{mirror}/{last segment of the mirror's path}.html, the layout of
 * test/fixtures/noticias-agricolas; CEPEA's widget as DIR/cepea/widget/{N}.js), never under the
 * source's name.
 */
export function withRecording(loader: PageLoader, dir: string, log: (line: string) => void = () => {}): PageLoader {
  const root = resolve(dir);
  return {
    async load(source: SourceDef, page: PageDef): Promise<LoadResult> {
      const result = await loader.load(source, page);
      if (!result.ok) return result;
      const file = result.mirror ? mirrorFile(root, result.mirror) : join(root, source.id, `${page.id}.html`);
      try {
        await writeAtomic(file, stripScriptsAndStyles(result.html));
        log(`${source.id}/${page.id}: gravada em ${file}`);
      } catch (err) {
        // recording is a by-product: the page itself was fetched fine and still counts
        log(`${source.id}/${page.id}: não foi possível gravar ${file}: ${(err as Error).message}`);
      }
      return result;
    },
    close: () => loader.close(),
    requestsPerHost: () => loader.requestsPerHost(),
  };
}

/**
 * Where a page read through a mirror is recorded (and where --replay looks for it): the mirror's
 * own `arquivo` (CEPEA's widget: cepea/widget/{N}.js), else {mirror}/{last segment of its
 * path}.html (noticias-agricolas/indicador-cepea-esalq-milho.html).
 */
export function mirrorFile(root: string, mirror: MirrorDef): string {
  if (mirror.arquivo) return join(root, ...mirror.arquivo.split("/"));
  return join(root, mirror.id, `${basename(mirror.path.replace(/[?#].*$/, "").replace(/\/+$/, "")) || "index"}.html`);
}
