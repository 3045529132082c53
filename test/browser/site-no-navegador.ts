import { afterAll, beforeAll } from "vitest";
import { startServer, type RunningServer } from "../../pipeline/serve/app.ts";
import { buildTestSite } from "../serve/site.ts";
import { openChromium } from "./chromium.ts";

// Apart from chromium.ts, which `npm run bench` imports: vitest's hooks fail outside vitest.

/**
 * For a test file: a site the pipeline built from the recorded pages (test/serve/site.ts), the
 * server on it, and Chromium, opened before the file's tests and closed after them. The fields
 * are set by the file's beforeAll.
 */
export function siteNoNavegador(opts: { bypassCSP?: boolean; timeoutMs?: number } = {}): {
  site: Awaited<ReturnType<typeof buildTestSite>>;
  srv: RunningServer;
  browser: Awaited<ReturnType<typeof openChromium>>;
} {
  const s = {} as ReturnType<typeof siteNoNavegador>;
  beforeAll(async () => {
    s.site = await buildTestSite();
    s.srv = await startServer({ publicDir: s.site.publicDir });
    s.browser = await openChromium({ bypassCSP: opts.bypassCSP });
  }, opts.timeoutMs ?? 180_000);
  afterAll(async () => {
    await s.browser?.close();
    await s.srv?.close();
    await s.site?.cleanup();
  });
  return s;
}
