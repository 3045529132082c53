/**
 * The whole `npm run update` without --replay, against the fake sites of server.ts, for the
 * test files that run it end to end.
 */
import type { StatusFile } from "../../pipeline/domain/publicados.ts";
import { createLiveLoader } from "../../pipeline/fetch/live.ts";
import { runUpdate } from "../../pipeline/run/update.ts";
import { afterAll, beforeAll } from "vitest";
import { cleanup, readJson, tempSite, testConfig } from "../helpers/pipeline.ts";
import { startSources } from "./server.ts";

export type Sites = Awaited<ReturnType<typeof startSources>>;

// generous budgets where every page is healthy (a loaded CI machine must not turn a slow answer
// into a retry), short ones where a page is meant to hang
export const HEALTHY = { requestMs: 10_000, pageMs: 20_000 };
export const SHORT = { requestMs: 500, pageMs: 1500 };

export async function liveUpdate(s: Sites, site: string, at: Date, timeouts: { requestMs: number; pageMs: number }) {
  const log: string[] = [];
  const loader = createLiveLoader({
    env: s.env,
    minIntervalMs: 0,
    browser: false,
    timeouts,
    http: { retries: 1, backoffBaseMs: 10, backoffMaxMs: 20 },
    log: (l) => log.push(l),
  });
  const report = await runUpdate({ loader, config: testConfig(site, s.env), now: at, env: s.env, log: (l) => log.push(l) });
  const status = await readJson<StatusFile>(site, "api/v1/status.json");
  const pages = Object.fromEntries(status.fontes.flatMap((f) => f.paginas.map((p) => [`${f.id}/${p.id}`, p])));
  return { report, status, pages, log };
}

/** The fake sites and a temp site for one describe block, started before its tests and closed after (read the fields inside tests). */
export function fontesESiteNoTeste(): { s: Sites; site: string } {
  const t = {} as { s: Sites; site: string };
  beforeAll(async () => {
    t.s = await startSources();
    t.site = await tempSite();
  });
  afterAll(async () => {
    await t.s.close();
    await cleanup(t.site);
  });
  return t;
}
