import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumExecutable, DEBIAN_CHROMIUM } from "../../pipeline/fetch/browser.ts";
import { createLiveLoader } from "../../pipeline/fetch/live.ts";
import type { PageLoader } from "../../pipeline/fetch/types.ts";
import { cepea } from "../../pipeline/sources/cepea.ts";
import { endlessChallenge, fixture, jsChallenge, ok, startSources } from "./server.ts";

type Sites = Awaited<ReturnType<typeof startSources>>;
let s: Sites;
let loader: PageLoader | null = null;

beforeAll(async () => {
  s = await startSources();
});
afterAll(async () => {
  await loader?.close();
  await s.close();
});

describe("browser fallback", () => {
  it("finds Chromium: env, then Debian's, then Playwright's own", () => {
    expect(chromiumExecutable({ PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH: "/opt/chrome" }, () => true)).toBe("/opt/chrome");
    expect(chromiumExecutable({}, (p) => p === DEBIAN_CHROMIUM)).toBe(DEBIAN_CHROMIUM);
    expect(chromiumExecutable({}, () => false)).toBeUndefined();
    // on GitHub Actions the workflows install Playwright's own build: it wins over /usr/bin/chromium
    expect(chromiumExecutable({ GITHUB_ACTIONS: "true" }, () => true, () => "/ms-playwright/chrome")).toBeUndefined();
    expect(chromiumExecutable({ GITHUB_ACTIONS: "true" }, (p) => p === DEBIAN_CHROMIUM, () => "/ms-playwright/chrome")).toBe(DEBIAN_CHROMIUM);
  });

  // The one real browser test: Chromium runs the challenge's JavaScript, which sets the
  // clearance cookie and reloads; the table then appears and the same parser reads it.
  it("clears a JavaScript challenge in Chromium, once launched, and gives up on one that never clears", async () => {
    const boi = cepea.pages.find((p) => p.id === "boi-gordo")!;
    const milho = cepea.pages.find((p) => p.id === "milho")!;
    const soja = cepea.pages.find((p) => p.id === "soja")!;
    s.cepea.route("/br/indicador/boi-gordo.aspx", jsChallenge(ok(fixture("cepea/boi-gordo.html"))));
    s.cepea.route("/br/indicador/milho.aspx", endlessChallenge());
    const padded = fixture("cepea/soja.html").replace("</body>", `<!-- ${"x".repeat(120_000)} --></body>`);
    s.cepea.route("/br/indicador/soja.aspx", jsChallenge(ok(padded)));
    const lines: string[] = [];
    loader = createLiveLoader({
      env: s.env,
      minIntervalMs: 0,
      browser: true,
      // the browser alone: CEPEA's mirrors (test/fetch/cepea-mirrors.test.ts) would serve these pages
      mirrors: {},
      // the browser's wait includes launching Chromium, which on a loaded 2-core CI machine (other
      // test files launch Chromium at the same time) has taken more than 10 s; the never-clearing
      // page is given up after 6 loads, well before this budget
      timeouts: { requestMs: 5000, pageMs: 60_000, browserMs: 30_000 },
      // the recorded pages are ~50 KB; the padded soja page below is past this cap
      http: { maxBytes: 100_000 },
      log: (l) => lines.push(l),
    });

    const r = await loader.load(cepea, boi);
    if (!r.ok) throw new Error(`${r.kind}: ${r.reason}`);
    expect(r.method).toBe("browser");
    expect(r.mirror).toBeNull();
    const rows = boi.parse(r.html).rows;
    expect(rows.at(-1)).toMatchObject({ fonte: "cepea", produto: "boi_gordo", data: "2026-09-04", valor: 347.7 });
    // HTTP saw the challenge; the browser got it too, then came back with the cookie
    const hits = s.cepea.requests.filter((q) => q.path === "/br/indicador/boi-gordo.aspx");
    expect(hits.length).toBeGreaterThanOrEqual(3);
    expect(hits.at(-1)!.cookie).toContain("cf_clearance=");
    // the recorded page links assets on www.cepea.org.br: the browser never fetches them
    expect(loader.requestsPerHost()).toEqual({ [s.cepea.host]: hits.length });

    const stuck = await loader.load(cepea, milho);
    expect(stuck).toMatchObject({ ok: false, kind: "blocked", url: `${s.cepea.url}/br/indicador/milho.aspx` });
    if (!stuck.ok) {
      expect(stuck.reason).toBe(
        'desafio Cloudflare (HTTP 403, cf-mitigated: challenge); desafio não resolvido no navegador após 6 carregamentos (página "Just a moment...")',
      );
    }
    // a challenge that reloads forever is given up after a few loads, not hammered until the deadline
    expect(s.cepea.hits("/br/indicador/milho.aspx")).toBe(1 + 6);

    // a page past the size cap is refused after the browser too, not only over HTTP
    const big = await loader.load(cepea, soja);
    expect(big).toMatchObject({ ok: false, kind: "http_error" });
    if (!big.ok) expect(big.reason).toMatch(/^resposta grande demais no navegador: 1\d{5} bytes, limite 100000$/);

    expect(lines.filter((l) => l.startsWith("navegador: iniciando Chromium"))).toHaveLength(1);
  }, 90_000);
});
