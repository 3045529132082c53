import { copyFile, cp, mkdir, mkdtemp, readdir, readFile, writeFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { loadConfig, type Config } from "../../pipeline/config.ts";
import { createReplayLoader } from "../../pipeline/fetch/replay.ts";
import { runUpdate, type UpdateReport } from "../../pipeline/run/update.ts";
import { mirrorFile } from "../../pipeline/fetch/record.ts";
import { MIRRORS, SOURCES } from "../../pipeline/sources/index.ts";

export const FIXTURES = new URL("../fixtures/", import.meta.url).pathname;

/** A temp dir holding a copy of the recorded pages in the replay layout, editable per test. */
export async function replayDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "cotacao-replay-"));
  // every source of the catalogue (not the mirrors' recordings, CEPEA's widget in cepea/widget/
  // included: a test adds those when it wants them)
  const espelhos = new Set(Object.values(MIRRORS).flatMap((ms) => ms.map((m) => mirrorFile(FIXTURES, m).replace(/[^/]+$/, ""))));
  for (const src of SOURCES.map((s) => s.id)) {
    await cp(join(FIXTURES, src), join(dir, src), { recursive: true, filter: (from) => !espelhos.has(`${from}/`) });
  }
  return dir;
}

/** An edit of a recorded page: the first `de` written `para`; a page without `de` is an error of the test, not a pass. */
export function trocarUma(de: string, para: string): (html: string) => string {
  return (h) => {
    const out = h.replace(de, para);
    if (out === h) throw new Error(`edição de teste: "${de}" não está na página`);
    return out;
  };
}

/** An edit of a recorded page: the first `a` and the first `b` written as each other (two labels swapped, numbers kept). */
export function trocarEntreSi(a: string, b: string): (html: string) => string {
  return (h) => {
    const i = h.indexOf(a);
    const j = h.indexOf(b);
    if (i < 0 || j < 0) throw new Error(`edição de teste: "${i < 0 ? a : b}" não está na página`);
    const [p, q, x, y] = i < j ? [i, j, a, b] : [j, i, b, a];
    return h.slice(0, p) + y + h.slice(p + x.length, q) + x + h.slice(q + y.length);
  };
}

export async function editPage(dir: string, rel: string, edit: (html: string) => string): Promise<void> {
  const file = join(dir, rel);
  const before = await readFile(file, "utf8");
  const after = edit(before);
  if (after === before) throw new Error(`edição de teste não mudou ${rel}`);
  await writeFile(file, after);
}

export async function tempSite(): Promise<string> {
  return mkdtemp(join(tmpdir(), "cotacao-site-"));
}

export function testConfig(publicDir: string, env: NodeJS.ProcessEnv = {}): Config {
  return loadConfig({ publicDir, env, root: join(FIXTURES, "no-config") });
}

export async function replay(
  pages: string,
  publicDir: string,
  now: string,
  env: NodeJS.ProcessEnv = {},
): Promise<UpdateReport & { log: string[] }> {
  const log: string[] = [];
  const at = new Date(now);
  const report = await runUpdate({
    loader: createReplayLoader(pages, () => at, env),
    config: testConfig(publicDir, env),
    now: at,
    env,
    log: (l) => log.push(l),
  });
  return { ...report, log };
}

/**
 * `replay` with a cotacao.config.json of its own (`config`, as the file would hold it: reference
 * praças, accepted revisions...), written to a temporary root that is removed afterwards.
 */
export async function replayComConfig(pages: string, publicDir: string, now: string, config: object): Promise<UpdateReport> {
  const root = await mkdtemp(join(tmpdir(), "cotacao-config-"));
  try {
    await writeFile(join(root, "cotacao.config.json"), JSON.stringify(config));
    const at = new Date(now);
    return await runUpdate({ loader: createReplayLoader(pages, () => at, {}), config: loadConfig({ root, publicDir, env: {} }), now: at, env: {} });
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

export async function readJson<T = any>(publicDir: string, rel: string): Promise<T> {
  return JSON.parse(await readFile(join(publicDir, rel), "utf8")) as T;
}

export async function cleanup(...dirs: string[]): Promise<void> {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
}

/** Every file under `dir` (absolute paths, sorted). */
export async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name)).sort();
}

/** The histories and logs a build reads; everything else under the site is derived from them. */
export const ENTRADAS_DO_SITE = /^(api\/v1\/cotacao\/[a-z_]+(\/[A-Z]{2})?\.json|api\/v1\/status\.json|api\/v1\/eventos\.json|api\/v1\/capturas\/\d{4}\.json)$/;

/** Copies a site's inputs (ENTRADAS_DO_SITE) into another, for a build that must write everything else. */
export async function copiarEntradas(de: string, para: string): Promise<void> {
  for (const f of await listFiles(de)) {
    const rel = relative(de, f);
    if (ENTRADAS_DO_SITE.test(rel)) await cp(f, join(para, rel), { recursive: true });
  }
}

/** Every file of a site by its path under it, with its bytes. */
export async function arvore(dir: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const f of await listFiles(dir)) out.set(relative(dir, f), await readFile(f));
  return out;
}

/** The paths whose bytes differ between two trees (or that only one has), sorted. */
export function diferencas(a: ReadonlyMap<string, Buffer>, b: ReadonlyMap<string, Buffer>): string[] {
  return [...new Set([...a.keys(), ...b.keys()])].filter((k) => !a.get(k) || !b.get(k) || !a.get(k)!.equals(b.get(k)!)).sort();
}

/** A recorded CEPEA milho page with one more day (08/09/2026, 71,10), for an update that changes one series. */
export async function milhoComDiaNovo(paginas: string): Promise<void> {
  await editPage(paginas, "cepea/milho.html", (h) =>
    h.replace(/(<table id="imagenet-indicador1"[\s\S]*?<tbody>)/, "$1<tr><td>08/09/2026</td><td>71,10</td><td>0,24%</td><td>1,24%</td><td>13,86</td></tr>"),
  );
}

/**
 * A temp site holding what an update of the recorded CEPEA boi gordo page publishes at `now`
 * (its 15 days): where the backfill tests import a series file. Both temp dirs are pushed to
 * `dirs`, for the caller's cleanup.
 */
export async function siteComBoiCepea(now: Date, dirs: string[]): Promise<string> {
  const pages = await mkdtemp(join(tmpdir(), "cotacao-boi-pages-"));
  dirs.push(pages);
  await mkdir(join(pages, "cepea"));
  await copyFile(join(FIXTURES, "cepea/boi-gordo.html"), join(pages, "cepea/boi-gordo.html"));
  await copyFile(join(FIXTURES, "capturas.json"), join(pages, "capturas.json"));
  const site = await tempSite();
  dirs.push(site);
  await replay(pages, site, now.toISOString());
  return site;
}
