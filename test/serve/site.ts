import { afterAll, beforeAll } from "vitest";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig, REPO_ROOT } from "../../pipeline/config.ts";
import { createReplayLoader } from "../../pipeline/fetch/replay.ts";
import { runUpdate } from "../../pipeline/run/update.ts";
import { buildAssets } from "../../pipeline/serve/assets.ts";

/** The clock of the test site: the day after the last CEPEA day of the recorded pages. */
export const SITE_NOW = new Date("2026-09-26T20:00:00-03:00");

/**
 * A complete site built by the pipeline itself from the recorded pages of test/fixtures into a
 * temp dir (never hand-written JSON), plus the dashboard's pages and generated assets.
 */
export async function buildTestSite(): Promise<{ dir: string; publicDir: string; cleanup(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "cotacao-serve-"));
  const publicDir = join(dir, "public");
  const config = loadConfig({ publicDir, env: {} });
  const report = await runUpdate({
    loader: createReplayLoader(join(REPO_ROOT, "test", "fixtures"), () => SITE_NOW),
    config,
    now: SITE_NOW,
    env: {},
  });
  if (report.written.length === 0) throw new Error("buildTestSite: o pipeline não escreveu nenhum arquivo");
  // index.html is the run's own (site assembly writes it); the rest is the committed static part
  for (const rel of ["simulador", "assets/painel.css", "favicon.svg", "favicon.png", "favicon-512.png"]) {
    await cp(join(REPO_ROOT, "public", rel), join(publicDir, rel), { recursive: true });
  }
  await buildAssets(publicDir);
  return { dir, publicDir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** The test site for the tests of one describe: built before them, removed after; the getter gives it. */
export function siteDoDescribe(): () => Awaited<ReturnType<typeof buildTestSite>> {
  let site: Awaited<ReturnType<typeof buildTestSite>> | undefined;
  beforeAll(async () => {
    site = await buildTestSite();
  }, 120_000);
  afterAll(async () => {
    await site?.cleanup();
  });
  return () => {
    if (!site) throw new Error("o site de teste do describe não foi gerado");
    return site;
  };
}
