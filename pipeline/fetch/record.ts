import { readFile, rm } from "node:fs/promises";
import { writeAtomic } from "../io/files.ts";
import { basename, join, relative, resolve, sep } from "node:path";
import { stripScriptsAndStyles } from "../sources/html.ts";
import { MIRRORS } from "../sources/index.ts";
import type { MirrorDef, PageDef, SourceDef } from "../sources/types.ts";
import type { LoadResult, PageLoader } from "./types.ts";

/**
 * Wraps a loader and saves every page it gets, scripts and styles stripped, in the replay
 * layout: DIR/{source}/{page}.html, so `--replay DIR` reads it back. A page that came through a
 * mirror is the mirror's HTML, which the source's parser cannot read: it is saved where
 * mirrorFile says (DIR/{mirror}/{last segment of the mirror's path}.html, the layout of
 * test/fixtures/noticias-agricolas; CEPEA's widget as DIR/cepea/widget/{N}.js), never under the
 * source's name.
 *
 * DIR is usually recorded into more than once. `--replay` reads the source's own recording
 * first, then its mirrors' in order, so an older recording that comes before today's in that
 * order (yesterday's page from the source when today's came through a mirror) would be replayed
 * in its place, with yesterday's prices: those recordings are removed (never one written in this
 * run: two pages of the Scot share one mirror page). Each recording's capture time goes to
 * DIR/capturas.json, so a replay dates its data by when it was fetched, not by when it is replayed.
 */
export function withRecording(
  loader: PageLoader,
  dir: string,
  log: (line: string) => void = () => {},
  /** each page's mirrors, in the order --replay tries them (the catalogue's, or a test's) */
  espelhos: Readonly<Record<string, readonly MirrorDef[]>> = MIRRORS,
): PageLoader {
  const root = resolve(dir);
  const written = new Set<string>();
  return {
    async load(source: SourceDef, page: PageDef): Promise<LoadResult> {
      const result = await loader.load(source, page);
      if (!result.ok) return result;
      const file = result.mirror ? mirrorFile(root, result.mirror) : join(root, source.id, `${page.id}.html`);
      try {
        await writeAtomic(file, stripScriptsAndStyles(result.html));
        written.add(file);
        log(`${source.id}/${page.id}: gravada em ${file}`);
        const antes = [join(root, source.id, `${page.id}.html`), ...(espelhos[`${source.id}/${page.id}`] ?? []).map((m) => mirrorFile(root, m))];
        const velhas = antes.slice(0, Math.max(0, antes.indexOf(file))).filter((f) => !written.has(f));
        for (const f of velhas) {
          await rm(f, { force: true });
          log(`${source.id}/${page.id}: gravação antiga removida (seria lida antes desta no --replay): ${f}`);
        }
        await noteCapturas(root, { [capturaKey(root, file)]: result.fetchedAt.toISOString() }, velhas.map((f) => capturaKey(root, f)));
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

/** A recording's key in DIR/capturas.json: its path under DIR without the extension ("cepea/milho", "cepea/widget/2"). */
function capturaKey(root: string, file: string): string {
  return relative(root, file).split(sep).join("/").replace(/\.[a-z]+$/, "");
}

/** Sets (and drops) entries of DIR/capturas.json, keeping the others and its "$comentario". */
async function noteCapturas(root: string, set: Record<string, string>, drop: readonly string[]): Promise<void> {
  const file = join(root, "capturas.json");
  let doc: Record<string, unknown> = {};
  try {
    doc = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw new Error(`${file} ilegível, não atualizado: ${(err as Error).message}`);
  }
  for (const k of drop) delete doc[k];
  await writeAtomic(file, `${JSON.stringify({ ...doc, ...set }, null, 2)}\n`);
}
