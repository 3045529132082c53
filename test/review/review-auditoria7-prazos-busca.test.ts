import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent } from "undici";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createBrowserFetcher, DEBIAN_CHROMIUM, type BrowserFetcher } from "../../pipeline/fetch/browser.ts";
import { createHttpClient, FetchError, HostGate } from "../../pipeline/fetch/http.ts";
import { createLiveLoader, type LiveLoaderOptions } from "../../pipeline/fetch/live.ts";
import type { LoadResult, PageLoader } from "../../pipeline/fetch/types.ts";
import type { StatusFile } from "../../pipeline/domain/publicados.ts";
import { runUpdate } from "../../pipeline/run/update.ts";
import { cepea } from "../../pipeline/sources/cepea.ts";
import { SOURCES } from "../../pipeline/sources/index.ts";
import type { PageDef, SourceDef } from "../../pipeline/sources/types.ts";
import { cleanup, readJson, tempSite, testConfig } from "../helpers/pipeline.ts";
import { endlessChallenge, fixture, hang, jsChallenge, ok, routeCepeaMirrors, sequence, startSources, status, trickle, type Handler } from "../fetch/server.ts";

// Audit of the fetch path's time budgets: every wait on the network or on Chromium is bounded,
// a Chromium that does not start fails its page clearly and leaves nothing running, and a
// source that trickles a byte at a time cannot hold the run.

type Sites = Awaited<ReturnType<typeof startSources>>;
let s: Sites;
let root: string;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  s = await startSources();
  root = await mkdtemp(join(tmpdir(), "cotacao-prazos-"));
});
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
  s.cepea.route("/br/indicador/boi-gordo.aspx", ok(fixture("cepea/boi-gordo.html")));
  s.cepea.route("/br/indicador/milho.aspx", ok(fixture("cepea/milho.html")));
});
afterAll(async () => {
  await s.close();
  await rm(root, { recursive: true, force: true });
});

const page = (id: string) => cepea.pages.find((p) => p.id === id)!;

/** a fresh folder of its own under `root`: the fake executable's and the user-data dirs' home */
async function area(name: string): Promise<{ dir: string; perfis: string }> {
  const dir = join(root, name);
  const perfis = join(dir, "perfis");
  await mkdir(perfis, { recursive: true });
  return { dir, perfis };
}

/** a "browser executable": a shell script that misbehaves like a broken Chromium */
async function fakeChromium(dir: string, body: string): Promise<string> {
  const file = join(dir, "chromium-falso.sh");
  await writeFile(file, `#!/bin/sh\necho "$$" >> "${dir}/pids"\n${body}\n`);
  await chmod(file, 0o755);
  return file;
}

/** processes whose command line mentions `dir` (the fake itself, Chromium and its children) */
function pgrep(dir: string): string[] {
  const r = spawnSync("pgrep", ["-f", dir], { encoding: "utf8" });
  return r.stdout.split("\n").filter(Boolean);
}

/** a pid that is gone, or a zombie waiting for init to reap it: it runs no more */
function dead(pid: string): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return true;
  }
}

function pidsOf(dir: string): string[] {
  const f = join(dir, "pids");
  return existsSync(f) ? readFileSync(f, "utf8").split("\n").filter(Boolean) : [];
}

function liveLoader(over: LiveLoaderOptions): PageLoader {
  const l = createLiveLoader({ env: s.env, minIntervalMs: 0, browser: true, mirrors: {}, http: { backoffBaseMs: 10, backoffMaxMs: 20 }, ...over });
  closers.push(() => l.close());
  return l;
}

async function timed<T>(p: Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = Date.now();
  const value = await p;
  return { value, ms: Date.now() - t0 };
}

function failure(r: LoadResult): { kind: string; reason: string; url: string } {
  if (r.ok) throw new Error(`esperava falha, veio a página (${r.method})`);
  return r;
}

const CHALLENGE = "desafio Cloudflare (HTTP 403, cf-mitigated: challenge)";

describe("Chromium's launch is inside the page's budget and has its own bound", () => {
  it("a Chromium that hangs on launch (and its child) is killed at the launch bound, its user-data dir removed; later pages fail at once", async () => {
    const { dir, perfis } = await area("pendurado");
    // like a zygote that never comes up: no DevTools pipe ever answers; a child process too
    const exe = await fakeChromium(dir, `echo "iniciando" >&2\nsleep 600 &\necho "$!" >> "${dir}/pids"\nwait`);
    s.cepea.route("/br/indicador/boi-gordo.aspx", endlessChallenge());
    s.cepea.route("/br/indicador/milho.aspx", endlessChallenge());
    const lines: string[] = [];
    const l = liveLoader({
      timeouts: { requestMs: 2000, pageMs: 20_000, browserMs: 10_000, launchMs: 1500 },
      navegador: { executablePath: exe, tmpDir: perfis },
      log: (x) => lines.push(x),
    });

    const first = await timed(l.load(cepea, page("boi-gordo")));
    expect(failure(first.value)).toMatchObject({
      kind: "blocked",
      url: `${s.cepea.url}/br/indicador/boi-gordo.aspx`,
      reason: `${CHALLENGE}; navegador indisponível: o Chromium não abriu em 1.5 s (${exe})`,
    });
    // the launch bound (1.5 s), not Playwright's 60 s nor the page's 10 s
    expect(first.ms).toBeLessThan(5000);
    // before close(): nothing of it runs and its user-data dir is gone
    expect(pidsOf(dir)).toHaveLength(2);
    expect(pidsOf(dir).filter((p) => !dead(p))).toEqual([]);
    expect(pgrep(perfis)).toEqual([]);
    expect(await readdir(perfis)).toEqual([]);

    // the run goes on without a browser: the next challenged page does not wait for another launch
    const second = await timed(l.load(cepea, page("milho")));
    expect(failure(second.value).reason).toBe(`${CHALLENGE}; navegador indisponível: o Chromium não abriu em 1.5 s (${exe})`);
    expect(second.ms).toBeLessThan(1000);
    expect(lines.filter((x) => x.startsWith("navegador: iniciando Chromium"))).toHaveLength(1);
    expect(pidsOf(dir)).toHaveLength(2); // launched once
  }, 20_000);

  it("a page's budget shorter than the launch: the page fails at its budget, close() waits for the launch's bound and kills it", async () => {
    const { dir, perfis } = await area("prazo-da-pagina");
    const exe = await fakeChromium(dir, "exec sleep 600");
    const b = createBrowserFetcher({ executablePath: exe, tmpDir: perfis, launchTimeoutMs: 3000, gate: new HostGate(0) });
    const r = await timed(b.fetch(`${s.cepea.url}/br/indicador/boi-gordo.aspx`, () => true, 800));
    expect(r.value).toEqual({ ok: false, reason: `navegador: o Chromium não abriu em 0.8 s, o prazo da página (${exe})` });
    expect(r.ms).toBeLessThan(2000);
    const closing = await timed(b.close());
    expect(closing.ms).toBeLessThan(6000);
    expect(pidsOf(dir).filter((p) => !dead(p))).toEqual([]);
    expect(pgrep(perfis)).toEqual([]);
    expect(await readdir(perfis)).toEqual([]);
  }, 20_000);

  it("a Chromium that exits at once says why (its stderr and exit code), and leaves no user-data dir", async () => {
    const { dir, perfis } = await area("sai");
    const exe = await fakeChromium(dir, 'echo "chromium: error while loading shared libraries: libnss3.so: cannot open shared object file" >&2\nexit 127');
    s.cepea.route("/br/indicador/boi-gordo.aspx", endlessChallenge());
    const l = liveLoader({ timeouts: { requestMs: 2000, pageMs: 20_000, browserMs: 10_000 }, navegador: { executablePath: exe, tmpDir: perfis } });
    const r = await timed(l.load(cepea, page("boi-gordo")));
    expect(failure(r.value).reason).toBe(
      `${CHALLENGE}; navegador indisponível: o Chromium não abriu (${exe}): saiu com código 127: chromium: error while loading shared libraries: libnss3.so: cannot open shared object file`,
    );
    expect(r.ms).toBeLessThan(5000);
    expect(await readdir(perfis)).toEqual([]);
    expect(pgrep(perfis)).toEqual([]);
  }, 20_000);

  it("a Chromium that prints garbage and never opens its pipe is treated like a hung one", async () => {
    const { dir, perfis } = await area("lixo");
    const exe = await fakeChromium(dir, "head -c 4096 /dev/urandom\necho '[0101/000000:FATAL:zygote_host_impl_linux.cc(201)] Check failed' >&2\nexec sleep 600");
    const b = createBrowserFetcher({ executablePath: exe, tmpDir: perfis, launchTimeoutMs: 1000 });
    closers.push(() => b.close());
    const r = await timed(b.fetch(`${s.cepea.url}/br/indicador/boi-gordo.aspx`, () => true, 10_000));
    expect(r.value).toEqual({ ok: false, reason: `navegador indisponível: o Chromium não abriu em 1 s (${exe})` });
    expect(r.ms).toBeLessThan(4000);
    expect(pidsOf(dir).filter((p) => !dead(p))).toEqual([]);
    expect(pgrep(perfis)).toEqual([]);
    expect(await readdir(perfis)).toEqual([]);
  }, 20_000);
});

describe("the real Chromium: a page that never yields does not hold the run", () => {
  /** a challenge whose script, once the document is parsed, never returns (a busy loop) */
  const busyChallenge: Handler = (_req, res) => {
    res.writeHead(403, { "content-type": "text/html; charset=UTF-8", "cf-mitigated": "challenge" });
    res.end(`<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><div id="challenge-running">...</div>
<script>window._cf_chl_opt={};setTimeout(function(){for(;;){}},1000);</script></body></html>`);
  };

  it("fails the busy page at its budget, keeps the browser for the next page, and leaves no process after close()", async () => {
    const { perfis } = await area("real");
    const lines: string[] = [];
    let b: BrowserFetcher | null = createBrowserFetcher({ executablePath: DEBIAN_CHROMIUM, tmpDir: perfis, gate: new HostGate(0), log: (x) => lines.push(x) });
    closers.push(async () => void (await b?.close()));
    s.cepea.route("/br/indicador/milho.aspx", busyChallenge);
    s.cepea.route("/br/indicador/boi-gordo.aspx", jsChallenge(ok(fixture("cepea/boi-gordo.html"))));
    const hasTable = (html: string) => page("boi-gordo").hasTable(html);

    // the first page pays for the launch (a loaded 2-core machine has taken more than 10 s)
    const warm = await b.fetch(`${s.cepea.url}/br/indicador/boi-gordo.aspx`, hasTable, 40_000);
    expect(warm.ok).toBe(true);
    expect(pgrep(perfis).length).toBeGreaterThan(0); // Chromium runs, on our user-data dir

    const busy = await timed(b.fetch(`${s.cepea.url}/br/indicador/milho.aspx`, hasTable, 3000));
    // the title is there when a look at the page came before the loop (1 s after it loaded):
    // on a loaded machine that first look can come later, and the reason is the same without it
    expect(busy.value.ok).toBe(false);
    expect((busy.value as { reason: string }).reason).toMatch(/^navegador: a página travou( \(página "Just a moment\.\.\."\))?: sem resposta do Chromium em 3 s$/);
    // its budget, plus closing its tab
    expect(busy.ms).toBeLessThan(3000 + 5000);

    const again = await b.fetch(`${s.cepea.url}/br/indicador/boi-gordo.aspx`, hasTable, 30_000);
    expect(again.ok).toBe(true);

    await b.close();
    b = null;
    expect(pgrep(perfis)).toEqual([]);
    expect(await readdir(perfis)).toEqual([]);
  }, 90_000);
});

describe("a run stopped while Chromium is open leaves no process and no user-data dir", () => {
  /** the child run, stopped by `how` once its page is read; its exit code and what it printed */
  async function stopped(perfis: string, how: "SIGINT" | "exit"): Promise<{ code: number | null; out: string }> {
    const child = spawn(process.execPath, ["--import", "tsx", "test/review/review-auditoria7-prazos-busca-filho.ts", perfis, ...(how === "exit" ? ["exit"] : [])], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    closers.push(async () => void child.kill("SIGKILL"));
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (how === "SIGINT" && out.includes("aberto\n")) child.kill("SIGINT");
    });
    const code = await new Promise<number | null>((r) => child.once("exit", (c) => r(c)));
    return { code, out };
  }

  it("Ctrl-C (SIGINT): Playwright closes Chromium, the user-data dir goes too", async () => {
    const { perfis } = await area("sigint");
    const r = await stopped(perfis, "SIGINT");
    expect(r.out).toBe("aberto\n");
    expect(r.code).toBe(130);
    expect(pgrep(perfis)).toEqual([]);
    expect(await readdir(perfis)).toEqual([]);
  }, 90_000);

  it("a process.exit() elsewhere in the run: Chromium killed, the user-data dir removed", async () => {
    const { perfis } = await area("exit");
    const r = await stopped(perfis, "exit");
    expect(r.out).toBe("aberto\n");
    expect(r.code).toBe(3);
    expect(pgrep(perfis)).toEqual([]);
    expect(await readdir(perfis)).toEqual([]);
  }, 90_000);
});

describe("a source that trickles a byte at a time (slowloris)", () => {
  const CEPEA_PAGES = cepea.pages.map((p) => p.path);

  it("fails each page within its budget with a clear error, asks a stuck host once per later page, and the run goes on to the mirrors and the other sources", async () => {
    // one byte every 100 ms: never silent for the 500 ms of undici's idle timeouts
    for (const path of new Set(CEPEA_PAGES)) s.cepea.route(path, trickle(100));
    routeCepeaMirrors(s);
    const site = await tempSite();
    closers.push(() => cleanup(site));
    const before = new Map([...new Set(CEPEA_PAGES)].map((p) => [p, s.cepea.hits(p)]));
    const took = new Map<string, number>();
    const lines: string[] = [];
    const live = createLiveLoader({
      env: s.env,
      minIntervalMs: 0,
      browser: false,
      timeouts: { requestMs: 500, pageMs: 2000 },
      http: { retries: 2, backoffBaseMs: 10, backoffMaxMs: 20 },
      log: (x) => lines.push(x),
    });
    const loader: PageLoader = {
      async load(src: SourceDef, p: PageDef) {
        const t = await timed(live.load(src, p));
        took.set(`${src.id}/${p.id}`, t.ms);
        return t.value;
      },
      close: () => live.close(),
      requestsPerHost: () => live.requestsPerHost(),
    };
    await runUpdate({ loader, config: testConfig(site, s.env), now: new Date("2026-09-27T12:00:00-03:00"), env: s.env, log: (x) => lines.push(x) });
    const status = await readJson<StatusFile>(site, "api/v1/status.json");
    const pages = Object.fromEntries(status.fontes.flatMap((f) => f.paginas.map((p) => [`${f.id}/${p.id}`, p])));

    // the first CEPEA page: three attempts of 0.5 s each, cut by the request's deadline
    expect(lines).toContain("cepea/boi-gordo: sem resposta completa em 0.5 s (3 tentativas)");
    // CEPEA's later pages: one attempt each, saying why
    const umaSo = `sem resposta completa em 0.5 s; uma só tentativa: ${s.cepea.host} já ficou sem responder a tempo em cepea/boi-gordo nesta execução`;
    for (const id of ["arroz", "acucar", "citros", "frango", "suino"]) {
      expect(pages[`cepea/${id}`]).toMatchObject({ estado: "timeout", motivo: umaSo, url: `${s.cepea.url}${page(id).path}` });
    }
    expect(lines).toContain(`cepea/arroz: FALHA timeout — ${umaSo} (${s.cepea.url}/br/indicador/arroz.aspx)`);
    expect(s.cepea.hits("/br/indicador/boi-gordo.aspx") - before.get("/br/indicador/boi-gordo.aspx")!).toBe(3 + 1); // + boi-gordo-prazo, same path
    for (const path of new Set(CEPEA_PAGES)) if (path !== "/br/indicador/boi-gordo.aspx") expect(s.cepea.hits(path) - before.get(path)!, path).toBe(1);

    // the mirrors served what they cover, and the other sources were read as usual
    for (const k of ["cepea/milho", "cepea/soja", "cepea/bezerro", "cepea/algodao", "cepea/trigo", "cepea/cafe"]) expect(pages[k]!.via, k).toBe("noticias-agricolas");
    expect(pages["cepea/boi-gordo"]!.via).toBe("cepea-widget");
    for (const src of SOURCES.filter((x) => x.id !== "cepea")) for (const p of src.pages) expect(pages[`${src.id}/${p.id}`]!.estado, `${src.id}/${p.id}`).not.toBe("timeout");

    // no page past its budget (the page, then its mirrors: two budgets at most)
    for (const [k, ms] of took) expect(ms, k).toBeLessThan(2 * 2000 + 500);
    // the fetching (not the run's writing, which a loaded machine slows): 13 CEPEA pages stuck
    // took ~8 s; three attempts a page cannot take less than 13 × 3 × 0.5 s
    const fetching = [...took.values()].reduce((a, b) => a + b, 0);
    expect(fetching).toBeLessThan(13 * 3 * 500);
  }, 60_000);

  it("the run's fetching budget: once spent, the remaining pages fail at once and the run ends within it", async () => {
    for (const path of new Set(CEPEA_PAGES)) s.cepea.route(path, trickle(50));
    const l = liveLoader({ browser: false, timeouts: { requestMs: 300, pageMs: 1000, runMs: 2000 }, http: { retries: 2, backoffBaseMs: 10, backoffMaxMs: 20 } });
    const t0 = Date.now();
    const results: { id: string; r: LoadResult; ms: number }[] = [];
    for (const p of cepea.pages) {
      const t = await timed(l.load(cepea, p));
      results.push({ id: p.id, r: t.value, ms: t.ms });
    }
    const total = Date.now() - t0;
    for (const { id, r, ms } of results) {
      expect(failure(r).kind, id).toBe("timeout");
      expect(ms, id).toBeLessThan(1000 + 300);
    }
    const late = results.filter(({ r }) => failure(r).reason === "prazo da busca desta execução (2 s) esgotado antes desta página");
    expect(late.length).toBeGreaterThan(0);
    // at once: well under one request's 300 ms
    expect(late.every(({ ms }) => ms < 150)).toBe(true);
    // 2 s, plus at most the one request that was running when it ran out
    expect(total).toBeLessThan(2000 + 300 + 700);
  }, 30_000);

  it("a page cut by the run's budget says so, not only that its source did not answer", async () => {
    s.cepea.route("/br/indicador/boi-gordo.aspx", hang());
    s.cepea.route("/br/indicador/milho.aspx", hang());
    const l = liveLoader({ browser: false, timeouts: { requestMs: 60_000, pageMs: 60_000, runMs: 1000 } });
    const first = failure(await l.load(cepea, page("boi-gordo")));
    expect(first.kind).toBe("timeout");
    // the request's own bound (60 s) never came: the run's budget (1 s) cut it
    expect(first.reason).toMatch(/^sem resposta completa em (0\.\d|1) s; prazo da busca desta execução \(1 s\) esgotado$/);
    expect(failure(await l.load(cepea, page("milho"))).reason).toBe("prazo da busca desta execução (1 s) esgotado antes desta página");
  }, 20_000);
});

describe("a host that left a page unanswered: its later pages lose only the retries of a timeout", () => {
  it("a later page's 503 or dropped connection is retried as on any host (a price is not made late by one stuck page); a later page that hangs is asked once", async () => {
    const again = { bezerro: "/br/indicador/bezerro.aspx", soja: "/br/indicador/soja.aspx", trigo: "/br/indicador/trigo.aspx" };
    closers.push(async () => {
      for (const [id, path] of Object.entries(again)) s.cepea.route(path, ok(fixture(`cepea/${id}.html`)));
    });
    const hits = (path: string) => s.cepea.hits(path);
    const before = Object.fromEntries(Object.values(again).map((p) => [p, hits(p)]));
    s.cepea.route("/br/indicador/boi-gordo.aspx", hang());
    // an overloaded server that comes back: a 503, a connection dropped, then the page
    s.cepea.route(again.bezerro, sequence(status(503), ok(fixture("cepea/bezerro.html"))));
    s.cepea.route("/br/indicador/milho.aspx", sequence((req) => req.socket.destroy(), ok(fixture("cepea/milho.html"))));
    s.cepea.route(again.soja, sequence(hang(), ok(fixture("cepea/soja.html"))));
    s.cepea.route(again.trigo, sequence(status(503), hang(), ok(fixture("cepea/trigo.html"))));
    const l = liveLoader({ browser: false, timeouts: { requestMs: 300, pageMs: 10_000 }, http: { retries: 2, backoffBaseMs: 10, backoffMaxMs: 20 } });

    expect(failure(await l.load(cepea, page("boi-gordo")))).toMatchObject({ kind: "timeout", reason: "sem resposta completa em 0.3 s (3 tentativas)" });

    const bezerro = await l.load(cepea, page("bezerro"));
    expect(bezerro).toMatchObject({ ok: true, method: "http" });
    expect(hits(again.bezerro) - before[again.bezerro]!).toBe(2);
    const milho = await l.load(cepea, page("milho"));
    expect(milho).toMatchObject({ ok: true, method: "http" });

    // a timeout on that host is not asked again: the stuck host does not spend the run's budget
    const umaSo = `; uma só tentativa: ${s.cepea.host} já ficou sem responder a tempo em cepea/boi-gordo nesta execução`;
    expect(failure(await l.load(cepea, page("soja")))).toMatchObject({ kind: "timeout", reason: `sem resposta completa em 0.3 s${umaSo}` });
    expect(hits(again.soja) - before[again.soja]!).toBe(1);
    // a 503 is retried, the timeout after it is not
    expect(failure(await l.load(cepea, page("trigo")))).toMatchObject({ kind: "timeout", reason: `sem resposta completa em 0.3 s (2 tentativas)${umaSo}` });
    expect(hits(again.trigo) - before[again.trigo]!).toBe(2);
  }, 20_000);
});

describe("the HTTP client: waits below the request's deadline", () => {
  it("a name lookup that never answers is cut by the request's deadline (no DNS wait is unbounded)", async () => {
    const dispatcher = new Agent({ connect: { timeout: 60_000, lookup: (() => {}) as never } });
    closers.push(() => dispatcher.destroy());
    const client = createHttpClient({ dispatcher, requestTimeoutMs: 400, retries: 0, gate: new HostGate(0) });
    const t = await timed(client.get("http://fonte-que-nao-resolve.invalid/").then(() => null, (e: unknown) => e));
    expect(t.value).toBeInstanceOf(FetchError);
    expect(t.value).toMatchObject({ kind: "timeout", reason: "sem resposta completa em 0.4 s" });
    expect(t.ms).toBeLessThan(1500);
  });
});
