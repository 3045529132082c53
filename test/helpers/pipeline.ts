import { cp, mkdtemp, readdir, readFile, writeFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
