import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { cp, mkdir, mkdtemp, readdir, readlink, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createBrowserFetcher, limparPastasAbandonadas } from "../../pipeline/fetch/browser.ts";
import { HostGate } from "../../pipeline/fetch/http.ts";
import { inicioDoProcesso } from "../../pipeline/io/files.ts";
import { arvore, diferencas, FIXTURES, milhoComDiaNovo, replayDir } from "../helpers/pipeline.ts";
import { hang, jsChallenge, startSources } from "../fetch/server.ts";

// Audit 8: cancelling `npm run update` (Ctrl-C, or GitHub Actions cancelling the job: SIGINT,
// SIGTERM, then SIGKILL). A real command, a real Chromium (/usr/bin/chromium), the fake sites on
// loopback: the run stops within seconds with 130/143, leaves no Chromium process nor folder, no
// lock, and either publishes nothing or finishes its publish whole.

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const PASSO = fileURLToPath(new URL("./review-auditoria8-cancelamento-passo.ts", import.meta.url));
const OCUPADO = fileURLToPath(new URL("./review-auditoria8-cancelamento-ocupado.mjs", import.meta.url));
const NOW = "2026-09-27T12:00:00-03:00";
const BOI = "/br/indicador/boi-gordo.aspx";
/** from the signal to the exit: "within a few seconds", on a loaded 2-core machine */
const PRAZO_MS = 6_000;
/** python3 -c PTY CMD...: runs CMD on a new pty, copying what it writes; SIGTERM closes the pty's master (a terminal window closed) */
const PTY = `
import os, pty, signal, sys, select
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
fechar = []
signal.signal(signal.SIGTERM, lambda *_: fechar.append(1))
while not fechar:
    try:
        r, _, _ = select.select([fd], [], [], 0.1)
        if fd not in r:
            continue
        dados = os.read(fd, 65536)
    except OSError:
        break
    if not dados:
        break
    sys.stdout.buffer.write(dados)
    sys.stdout.flush()
os.close(fd)
_, st = os.waitpid(pid, 0)
print(f"\\n[pty] status {st}", flush=True)
`;

type Sites = Awaited<ReturnType<typeof startSources>>;
let s: Sites;
let root: string;
/** a site an update of the recorded pages published (the CLI's own config) */
let base: string;
const closers: (() => void | Promise<void>)[] = [];

interface Execucao {
  child: ChildProcess;
  out(): string;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

/**
 * `npm run update -- ARGS` on `site`: node + tsx as npm and the faults catalogue run it. Never
 * through tsx's CLI (`npx tsx`): it relays a signal, waits 30 ms for its child to acknowledge, and
 * SIGKILLs a child whose event loop was busy 60 ms (a loaded machine: the lock stayed behind)
 */
function update(args: string[], o: { site: string; tmp: string; env?: NodeJS.ProcessEnv; passo?: string }): Execucao {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("COTACAO_")));
  const argv = ["--import", "tsx", ...(o.passo ? ["--import", PASSO] : []), "pipeline/cli/update.ts", ...args];
  const child = spawn(process.execPath, argv, {
    cwd: REPO,
    env: {
      ...clean,
      NO_COLOR: "1",
      COTACAO_PUBLIC_DIR: o.site,
      COTACAO_NOW: NOW,
      // Chromium's folders (and only this run's) go here
      TMPDIR: o.tmp,
      ...(o.passo ? { COTACAO_TESTE_SINAIS_NO_PASSO: o.passo } : {}),
      ...o.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString("utf8")));
  child.stderr!.on("data", (d: Buffer) => (out += d.toString("utf8")));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((r) =>
    child.once("close", (code, signal) => r({ code, signal, at: Date.now() })),
  );
  // a run the test gave up on never outlives it
  closers.push(() => void (child.exitCode === null && child.signalCode === null && child.kill("SIGKILL")));
  return { child, out: () => out, done };
}

/** waits for `cond`, polling; false when `ms` passed first */
async function until(cond: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await cond()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return cond();
}

/** the exit of a run, or null when it did not end within `ms` (then it is SIGKILLed) */
async function saida(e: Execucao, ms: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number } | null> {
  const r = await Promise.race([e.done, new Promise<null>((res) => setTimeout(() => res(null), ms))]);
  if (r === null) e.child.kill("SIGKILL");
  return r;
}

/** processes whose command line names `dir` (Chromium's, through its --user-data-dir) */
function pgrep(dir: string): number[] {
  const r = spawnSync("pgrep", ["-f", dir], { encoding: "utf8" });
  return r.stdout.split("\n").filter(Boolean).map(Number);
}

/** processes of process group `g`, zombies waiting to be reaped left out */
function doGrupo(g: number): number[] {
  const r = spawnSync("pgrep", ["-g", String(g)], { encoding: "utf8" });
  return r.stdout
    .split("\n")
    .filter(Boolean)
    .map(Number)
    .filter((pid) => {
      try {
        const st = readFileSync(`/proc/${pid}/stat`, "latin1");
        return !st.slice(st.lastIndexOf(")") + 2).startsWith("Z");
      } catch {
        return false;
      }
    });
}

/** the processes below `pid` (children, their children, ...), from /proc */
function descendentes(pid: number): number[] {
  const filhos = new Map<number, number[]>();
  for (const n of readdirSync("/proc")) {
    if (!/^\d+$/.test(n)) continue;
    try {
      const st = readFileSync(`/proc/${n}/stat`, "latin1");
      const ppid = Number(st.slice(st.lastIndexOf(")") + 2).split(" ")[1]);
      filhos.set(ppid, [...(filhos.get(ppid) ?? []), Number(n)]);
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  for (let fila = [pid]; fila.length > 0; ) {
    const p = fila.shift()!;
    for (const c of filhos.get(p) ?? []) {
      out.push(c);
      fila.push(c);
    }
  }
  return out;
}

function grupoDe(pid: number): number | null {
  try {
    const st = readFileSync(`/proc/${pid}/stat`, "latin1");
    return Number(st.slice(st.lastIndexOf(")") + 2).split(" ")[2]);
  } catch {
    return null;
  }
}

/**
 * what Chromium and Playwright put in the temp dir: the run's folder, Playwright's artifacts and
 * Chromium's singleton socket folder (org.chromium.Chromium.XXXXXX, which Chromium removes only
 * when it closes: a killed one left it). tsx keeps its cache there too: not counted
 */
async function restosDoChromium(tmp: string): Promise<string[]> {
  return (await readdir(tmp)).filter((n) => /^(cotacao-chromium-|playwright|org\.chromium\.)/.test(n)).sort();
}

/** a fresh copy of the base site and a temp dir of its own */
async function area(name: string): Promise<{ site: string; tmp: string }> {
  const site = join(root, name, "site");
  const tmp = join(root, name, "tmp");
  await cp(base, site, { recursive: true });
  await mkdir(tmp, { recursive: true });
  return { site, tmp };
}

beforeAll(async () => {
  s = await startSources();
  root = await mkdtemp(join(tmpdir(), "cotacao-cancelamento-"));
  base = join(root, "base");
  await mkdir(join(root, "tmp-base"));
  const r = await saida(update(["--replay", FIXTURES], { site: base, tmp: join(root, "tmp-base") }), 120_000);
  if (r?.code !== 0) throw new Error(`o site base não foi gerado (saída ${r?.code})`);
}, 150_000);
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
  s.cepea.route(BOI, (_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(readFileSync(join(FIXTURES, "cepea/boi-gordo.html")));
  });
});
afterAll(async () => {
  await s.close();
  await rm(root, { recursive: true, force: true });
});

describe("a signal while fetching: the run stops within seconds, publishes nothing, leaves nothing", () => {
  /**
   * The first page is a challenge (Chromium opens it) whose reload never gets an answer: the run
   * is signalled once Chromium is waiting on it. Returns what the test checks.
   */
  async function noNavegador(name: string, sinal: "SIGINT" | "SIGTERM" | "SIGHUP") {
    const { site, tmp } = await area(name);
    const antes = await arvore(site);
    s.cepea.route(BOI, jsChallenge(hang()));
    const h0 = s.cepea.hits(BOI);
    const run = update([], { site, tmp, env: s.env });
    // HTTP's challenge, Chromium's challenge, Chromium's reload (which hangs)
    const esperando = await until(() => s.cepea.hits(BOI) >= h0 + 3 && pgrep(tmp).length > 0, 60_000);
    expect(esperando, run.out()).toBe(true);
    const grupos = [...new Set(pgrep(tmp).map(grupoDe).filter((g): g is number => g !== null))];
    expect(grupos.length).toBeGreaterThan(0);
    const t0 = Date.now();
    run.child.kill(sinal);
    const r = await saida(run, 30_000);
    console.log(`${name}: saiu ${r ? r.at - t0 : "?"} ms depois do ${sinal}`);
    return { r, ms: r ? r.at - t0 : null, out: run.out(), site, tmp, antes, grupos };
  }

  it("SIGTERM with Chromium waiting on a page that never answers: exit 143 within seconds, Chromium's group gone, no folder, site and lock as before", async () => {
    const x = await noNavegador("sigterm-navegador", "SIGTERM");
    expect(x.r, x.out).not.toBeNull();
    expect({ code: x.r!.code, signal: x.r!.signal }, x.out).toEqual({ code: 143, signal: null });
    expect(x.ms!).toBeLessThan(PRAZO_MS);
    expect(x.out).toMatch(/atualização interrompida por SIGTERM durante a busca de cepea\/boi-gordo: nada foi publicado; o site ficou como estava/);
    // nothing of it was merged nor went on to the next page
    expect(x.out).not.toMatch(/cepea\/bezerro/);
    for (const g of x.grupos) expect(doGrupo(g), `grupo ${g}`).toEqual([]);
    expect(pgrep(x.tmp)).toEqual([]);
    expect(await restosDoChromium(x.tmp)).toEqual([]);
    // the very same tree: no file published, no lock, no staging
    expect(diferencas(x.antes, await arvore(x.site))).toEqual([]);
  }, 120_000);

  it("SIGINT (Ctrl-C, or the first signal of GitHub Actions cancelling the job) to the update: exit 130, the same clean state", async () => {
    const x = await noNavegador("sigint-navegador", "SIGINT");
    expect(x.r, x.out).not.toBeNull();
    expect({ code: x.r!.code, signal: x.r!.signal }, x.out).toEqual({ code: 130, signal: null });
    expect(x.ms!).toBeLessThan(PRAZO_MS);
    // the lock released, nothing else written
    expect(diferencas(x.antes, await arvore(x.site))).toEqual([]);
    for (const g of x.grupos) expect(doGrupo(g), `grupo ${g}`).toEqual([]);
    expect(pgrep(x.tmp)).toEqual([]);
    expect(await restosDoChromium(x.tmp)).toEqual([]);
    expect(x.out).toMatch(/atualização interrompida por SIGINT durante a busca de cepea\/boi-gordo: nada foi publicado/);
  }, 120_000);

  it("SIGHUP (the terminal or ssh session closed) with Chromium waiting: exit 129 within seconds, the same clean state", async () => {
    // Playwright's SIGHUP handler is off (the run owns its signals): node's default ended the run
    // on the spot, its lock and Chromium's folder left behind
    const x = await noNavegador("sighup-navegador", "SIGHUP");
    expect(x.r, x.out).not.toBeNull();
    expect({ code: x.r!.code, signal: x.r!.signal }, x.out).toEqual({ code: 129, signal: null });
    expect(x.ms!).toBeLessThan(PRAZO_MS);
    expect(x.out).toMatch(/atualização interrompida por SIGHUP durante a busca de cepea\/boi-gordo: nada foi publicado/);
    for (const g of x.grupos) expect(doGrupo(g), `grupo ${g}`).toEqual([]);
    expect(pgrep(x.tmp)).toEqual([]);
    expect(await restosDoChromium(x.tmp)).toEqual([]);
    expect(diferencas(x.antes, await arvore(x.site))).toEqual([]);
  }, 120_000);

  it.skipIf(spawnSync("python3", ["-c", "import pty"]).status !== 0)(
    "the terminal running it closes (a real pty hung up): every later write fails with EIO, and the run still winds down: lock free, no Chromium, site as before",
    async () => {
      const { site, tmp } = await area("terminal-fechado");
      const antes = await arvore(site);
      s.cepea.route(BOI, jsChallenge(hang()));
      const h0 = s.cepea.hits(BOI);
      const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("COTACAO_")));
      // python's pty runs the update as a terminal's session; SIGTERM to it closes the terminal
      // (the master side), and the kernel sends SIGHUP to the session
      const child = spawn("python3", ["-c", PTY, process.execPath, "--import", "tsx", "pipeline/cli/update.ts"], {
        cwd: REPO,
        env: { ...clean, NO_COLOR: "1", COTACAO_PUBLIC_DIR: site, COTACAO_NOW: NOW, TMPDIR: tmp, ...s.env },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      child.stdout!.on("data", (d: Buffer) => (out += d.toString("utf8")));
      child.stderr!.on("data", (d: Buffer) => (out += d.toString("utf8")));
      const done = new Promise<number>((r) => child.once("close", () => r(Date.now())));
      let abaixo: number[] = [];
      closers.push(() => {
        for (const pid of [child.pid!, ...abaixo]) {
          try {
            process.kill(pid, "SIGKILL");
          } catch {
            // gone
          }
        }
      });
      expect(await until(() => s.cepea.hits(BOI) >= h0 + 3 && pgrep(tmp).length > 0, 60_000), out).toBe(true);
      abaixo = descendentes(child.pid!);
      const grupos = [...new Set(pgrep(tmp).map(grupoDe).filter((g): g is number => g !== null))];
      const t0 = Date.now();
      child.kill("SIGTERM");
      const fim = await Promise.race([done, new Promise<null>((r) => setTimeout(() => r(null), 30_000))]);
      expect(fim, out).not.toBeNull();
      expect(fim! - t0).toBeLessThan(PRAZO_MS);
      // the run's own status is not checked: node, exiting on a terminal that is gone, may abort
      // while restoring the terminal's mode (after its exit handlers ran); nobody reads it there
      expect(out).toMatch(/\[pty\] status /);
      for (const g of grupos) expect(doGrupo(g), `grupo ${g}`).toEqual([]);
      expect(pgrep(tmp)).toEqual([]);
      expect(await restosDoChromium(tmp)).toEqual([]);
      // no lock left: the run released it
      expect(diferencas(antes, await arvore(site))).toEqual([]);
    },
    120_000,
  );

  it("Ctrl-C at a terminal: SIGINT to the whole process group of `npm run update` (npm and the update, which npm also forwards it to) is one cancellation, not two", async () => {
    const { site, tmp } = await area("sigint-npm");
    const antes = await arvore(site);
    s.cepea.route(BOI, jsChallenge(hang()));
    const h0 = s.cepea.hits(BOI);
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("COTACAO_") && !k.startsWith("npm_")));
    // its own process group, as a terminal's foreground job
    const child = spawn("npm", ["run", "update"], {
      cwd: REPO,
      detached: true,
      env: { ...clean, NO_COLOR: "1", COTACAO_PUBLIC_DIR: site, COTACAO_NOW: NOW, TMPDIR: tmp, ...s.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    closers.push(() => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // the group is gone
      }
    });
    let out = "";
    child.stdout!.on("data", (d: Buffer) => (out += d.toString("utf8")));
    child.stderr!.on("data", (d: Buffer) => (out += d.toString("utf8")));
    const done = new Promise<number>((r) => child.once("close", () => r(Date.now())));
    expect(await until(() => s.cepea.hits(BOI) >= h0 + 3 && pgrep(tmp).length > 0, 60_000), out).toBe(true);
    const grupos = [...new Set(pgrep(tmp).map(grupoDe).filter((g): g is number => g !== null))];
    const t0 = Date.now();
    process.kill(-child.pid!, "SIGINT");
    const fim = await Promise.race([done, new Promise<null>((r) => setTimeout(() => r(null), 30_000))]);
    expect(fim, out).not.toBeNull();
    expect(fim! - t0).toBeLessThan(PRAZO_MS);
    // the graceful path, once: not "segundo sinal"
    expect(out).toMatch(/atualização interrompida por SIGINT durante a busca de cepea\/boi-gordo: nada foi publicado/);
    expect(out).not.toMatch(/segundo sinal/);
    expect(doGrupo(child.pid!)).toEqual([]);
    for (const g of grupos) expect(doGrupo(g), `grupo ${g}`).toEqual([]);
    expect(await restosDoChromium(tmp)).toEqual([]);
    expect(diferencas(antes, await arvore(site))).toEqual([]);
  }, 120_000);

  it("SIGTERM while an HTTP request hangs (no browser): the request is cut, exit 143 within seconds, lock free", async () => {
    const { site, tmp } = await area("sigterm-http");
    const antes = await arvore(site);
    s.cepea.route(BOI, hang());
    const h0 = s.cepea.hits(BOI);
    const run = update([], { site, tmp, env: s.env });
    expect(await until(() => s.cepea.hits(BOI) > h0, 60_000), run.out()).toBe(true);
    const t0 = Date.now();
    run.child.kill("SIGTERM");
    const r = await saida(run, 30_000);
    expect(r, run.out()).not.toBeNull();
    expect({ code: r!.code, signal: r!.signal }, run.out()).toEqual({ code: 143, signal: null });
    expect(r!.at - t0).toBeLessThan(PRAZO_MS);
    expect(run.out()).toMatch(/interrompida por SIGTERM durante a busca de cepea\/boi-gordo: nada foi publicado/);
    // the hanging request was cut, not left to its 30 s timeout
    expect(await until(() => s.cepea.openSockets() === 0, 2_000)).toBe(true);
    expect(diferencas(antes, await arvore(site))).toEqual([]);
    // and the next run takes the lock at once
    const depois = update(["--replay", FIXTURES, "--sem-espera"], { site, tmp });
    const rd = await saida(depois, 120_000);
    expect(rd?.code, depois.out()).toBe(0);
    expect(depois.out()).not.toMatch(/trava/);
  }, 180_000);
});

describe("`npm run update` is the update's own process: no wrapper between npm and it decides for it", () => {
  it("SIGTERM to npm while the update's event loop is busy: the update's own handler runs (message, lock free), it is not SIGKILLed by a wrapper", async () => {
    // npm forwards the signal to its script's process only: a shell there (dash does not exec a
    // lone command) dies and leaves the update orphaned and running; tsx's CLI there gives its
    // child 30 ms to acknowledge, forwards it, 30 ms more, then SIGKILLs it (a busy loop:
    // rendering, a big page)
    const { site, tmp } = await area("npm-ocupado");
    const antes = await arvore(site);
    s.cepea.route(BOI, hang());
    const h0 = s.cepea.hits(BOI);
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("COTACAO_") && !k.startsWith("npm_")));
    const child = spawn("npm", ["run", "update"], {
      cwd: REPO,
      env: { ...clean, NO_COLOR: "1", COTACAO_PUBLIC_DIR: site, COTACAO_NOW: NOW, TMPDIR: tmp, NODE_OPTIONS: `--import=${OCUPADO}`, ...s.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout!.on("data", (d: Buffer) => (out += d.toString("utf8")));
    child.stderr!.on("data", (d: Buffer) => (out += d.toString("utf8")));
    const done = new Promise<number>((r) => child.once("close", () => r(Date.now())));
    closers.push(() => void (child.exitCode === null && child.signalCode === null && child.kill("SIGKILL")));
    expect(await until(() => s.cepea.hits(BOI) > h0, 60_000), out).toBe(true);
    // a run left orphaned by its wrapper (the fault) is still ended, by its own PID
    const abaixo = descendentes(child.pid!);
    closers.push(() => {
      for (const pid of abaixo) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // gone
        }
      }
    });
    const t0 = Date.now();
    child.kill("SIGTERM");
    const fim = await Promise.race([done, new Promise<null>((r) => setTimeout(() => r(null), 30_000))]);
    expect(fim, out).not.toBeNull();
    expect(fim! - t0).toBeLessThan(PRAZO_MS);
    expect(out).toMatch(/atualização interrompida por SIGTERM durante a busca de cepea\/boi-gordo: nada foi publicado/);
    expect(diferencas(antes, await arvore(site))).toEqual([]);
  }, 120_000);
});

describe("a run killed by SIGKILL: the next run removes its Chromium folder", () => {
  it("SIGKILL with Chromium open; the next run (a replay) removes the folder, naming the dead PID, and kills what still ran on it", async () => {
    const { site, tmp } = await area("sigkill");
    s.cepea.route(BOI, jsChallenge(hang()));
    const h0 = s.cepea.hits(BOI);
    const run = update([], { site, tmp, env: s.env });
    expect(await until(() => s.cepea.hits(BOI) >= h0 + 3 && pgrep(tmp).length > 0, 60_000), run.out()).toBe(true);
    // the node process running the update (no tsx parent here)
    const pid = run.child.pid!;
    run.child.kill("SIGKILL");
    expect((await saida(run, 30_000))?.signal).toBe("SIGKILL");
    // (Chromium, its pipe closed, may still be on its way out: only the run's folder is looked at)
    const deixadas = (await restosDoChromium(tmp)).filter((n) => n.startsWith("cotacao-chromium-"));
    // its folder names its owner: cotacao-chromium-<pid>.<start>-XXXXXX
    expect(deixadas).toEqual([expect.stringMatching(new RegExp(`^cotacao-chromium-${pid}\\.\\d+-[A-Za-z0-9]{6}$`))]);

    const proxima = update(["--replay", FIXTURES], { site, tmp });
    const r = await saida(proxima, 120_000);
    expect(r?.code, proxima.out()).toBe(0);
    expect(proxima.out()).toContain(`navegador: pasta do Chromium deixada por uma execução encerrada à força (PID ${pid}, que não existe mais) removida: ${join(tmp, deixadas[0]!)}`);
    // and the stale lock of the killed run was broken
    expect(proxima.out()).toMatch(new RegExp(`trava: a execução que travava .* \\(PID ${pid} .*não existe mais; trava abandonada removida`));
    expect(await restosDoChromium(tmp)).toEqual([]);
    expect(pgrep(tmp)).toEqual([]);
  }, 240_000);

  it("only folders of ours whose owner is gone: a live owner's, an unnamed one and a stranger's stay", async () => {
    const dir = join(root, "varredura");
    await mkdir(dir, { recursive: true });
    const morto = spawnSync(process.execPath, ["-e", "process.pid"]).pid!;
    const eu = inicioDoProcesso(process.pid)!;
    const nomes = {
      morto: `cotacao-chromium-${morto}.123-abcDEF`,
      mortoSemInicio: `cotacao-chromium-${morto}-abc123`,
      pidReusado: `cotacao-chromium-${process.pid}.${Number(eu.ticks) + 1}-xyz789`,
      vivo: `cotacao-chromium-${process.pid}.${eu.ticks}-qwe456`,
      antigo: "cotacao-chromium-Zx81Qa",
      alheio: `outro-${morto}.123-abcdef`,
    };
    for (const n of Object.values(nomes)) await mkdir(join(dir, n, "perfil"), { recursive: true });
    const linhas: string[] = [];
    const removidas = await limparPastasAbandonadas({ tmpDir: dir, log: (l) => linhas.push(l) });
    expect(removidas.sort()).toEqual([nomes.morto, nomes.mortoSemInicio, nomes.pidReusado].map((n) => join(dir, n)).sort());
    expect((await readdir(dir)).sort()).toEqual([nomes.vivo, nomes.antigo, nomes.alheio].sort());
    expect(linhas).toHaveLength(3);
    expect(linhas.find((l) => l.includes(nomes.pidReusado))).toBe(
      `navegador: pasta do Chromium deixada por uma execução encerrada à força (PID ${process.pid}, cujo PID hoje é de outro processo) removida: ${join(dir, nomes.pidReusado)}`,
    );
    expect(linhas.find((l) => l.includes(nomes.morto))).toBe(
      `navegador: pasta do Chromium deixada por uma execução encerrada à força (PID ${morto}, que não existe mais) removida: ${join(dir, nomes.morto)}`,
    );
  });
});

describe("Chromium's singleton socket folder, which it removes only when it closes", () => {
  it("a dead run's folder takes the socket folder its profile links to along; a link to anything else is not followed", async () => {
    const dir = join(root, "socket");
    await mkdir(dir, { recursive: true });
    const morto = spawnSync(process.execPath, ["-e", "process.pid"]).pid!;
    const comSocket = join(dir, `cotacao-chromium-${morto}.123-abcDEF`);
    const outroLink = join(dir, `cotacao-chromium-${morto}.123-ghiJKL`);
    const socket = join(dir, "org.chromium.Chromium.Qw12Er");
    const alheia = join(dir, "alheia");
    for (const d of [join(comSocket, "perfil"), join(outroLink, "perfil"), socket, alheia]) await mkdir(d, { recursive: true });
    await writeFile(join(socket, "SingletonCookie"), "1");
    await writeFile(join(alheia, "dados"), "1");
    await symlink(join(socket, "SingletonSocket"), join(comSocket, "perfil", "SingletonSocket"));
    // a link Chromium would not make: left alone, and so is where it points
    await symlink(join(alheia, "SingletonSocket"), join(outroLink, "perfil", "SingletonSocket"));
    const removidas = await limparPastasAbandonadas({ tmpDir: dir });
    expect(removidas.sort()).toEqual([comSocket, outroLink].sort());
    expect((await readdir(dir)).sort()).toEqual(["alheia"]);
    expect(await readdir(alheia)).toEqual(["dados"]);
  });

  it("a live run's Chromium closed by a cancelled run (AbortSignal): its socket folder goes with its own", async () => {
    const tmp = join(root, "socket-vivo");
    await mkdir(tmp, { recursive: true });
    const ac = new AbortController();
    const b = createBrowserFetcher({ executablePath: "/usr/bin/chromium", tmpDir: tmp, gate: new HostGate(0), signal: ac.signal });
    closers.push(() => b.close());
    s.cepea.route("/socket", (_req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end("<html><head><title>ok</title></head><body><table><tr><td>1</td></tr></table></body></html>");
    });
    const r = await b.fetch(`${s.cepea.url}/socket`, () => true, 60_000);
    expect(r.ok, r.ok ? "" : r.reason).toBe(true);
    const [pasta] = (await readdir(tmp)).filter((n) => n.startsWith("cotacao-chromium-"));
    const link = await readlink(join(tmp, pasta!, "perfil", "SingletonSocket"));
    // Chromium's own choice: the temp dir of its environment
    expect(basename(dirname(link))).toMatch(/^org\.chromium\.Chromium\.[A-Za-z0-9]{6}$/);
    ac.abort();
    await b.close();
    expect(await readdir(tmp)).toEqual([]);
    expect(existsSync(dirname(link))).toBe(false);
  }, 90_000);
});

describe("a signal while publishing: the publish is finished whole, or (second signal) left to the journal", () => {
  let paginas: string;
  /** the tree an uninterrupted run of `paginas` leaves, and how many files it changes */
  let novo: Map<string, Buffer>;
  let antigo: Map<string, Buffer>;
  let n: number;

  beforeAll(async () => {
    paginas = await replayDir();
    await milhoComDiaNovo(paginas);
    const { site, tmp } = await area("referencia");
    antigo = await arvore(site);
    const r = await saida(update(["--replay", paginas], { site, tmp }), 120_000);
    if (r?.code !== 0) throw new Error(`a execução de referência saiu com ${r?.code}`);
    novo = await arvore(site);
    n = diferencas(antigo, novo).length;
    if (n < 4) throw new Error(`a execução de referência mudou só ${n} arquivo(s)`);
  }, 150_000);
  afterAll(async () => {
    await rm(paginas, { recursive: true, force: true });
  });

  /** steps of a publish of n files: n "preparar", the journal written and committed, n renames, ... */
  const meioDoPreparo = () => Math.floor(n / 2);
  const meioDasRenomeacoes = () => n + 2 + Math.floor(n / 2);

  for (const [onde, passo] of [
    ["while staging (before the journal)", meioDoPreparo],
    ["in the middle of the renames (after the journal)", meioDasRenomeacoes],
  ] as const) {
    it(`SIGTERM ${onde}: the publish is finished, exit 143, exactly an uninterrupted run's tree, lock free`, async () => {
      const { site, tmp } = await area(`publicando-${passo()}`);
      const run = update(["--replay", paginas], { site, tmp, passo: `${passo()}:SIGTERM` });
      const r = await saida(run, 120_000);
      expect(run.out()).toContain(`[teste] sinais SIGTERM no passo ${passo()}`);
      expect({ code: r?.code, signal: r?.signal }, run.out()).toEqual({ code: 143, signal: null });
      expect(run.out()).toContain("SIGTERM recebido durante a publicação; ela vai até o fim");
      expect(run.out()).toMatch(new RegExp(`atualização interrompida por SIGTERM durante a publicação: a publicação foi concluída \\(${n} arquivo\\(s\\) escrito\\(s\\)\\)`));
      // no lock, journal nor staging: byte for byte what a run without the signal leaves
      expect(diferencas(novo, await arvore(site))).toEqual([]);
    }, 150_000);

    it(`SIGTERM then SIGINT ${onde}: exit 130 at once; the next command makes the site the old or the new set whole`, async () => {
      const { site, tmp } = await area(`segundo-sinal-${passo()}`);
      const run = update(["--replay", paginas], { site, tmp, passo: `${passo()}:SIGTERM,SIGINT` });
      const r = await saida(run, 120_000);
      expect({ code: r?.code, signal: r?.signal }, run.out()).toEqual({ code: 130, signal: null });
      expect(run.out()).toMatch(/atualização interrompida por SIGINT \(segundo sinal, depois de SIGTERM\): saindo agora; a publicação foi cortada no meio/);
      const cortado = await arvore(site);
      const controle = [...cortado.keys()].filter((f) => f.startsWith("."));
      // cut mid-publish, as a SIGKILL there would: its staging (and past the commit point, its journal) left for the next command
      expect(controle.some((f) => f.startsWith(".cotacao-staging/"))).toBe(true);
      expect(controle.includes(".cotacao-journal.json")).toBe(passo() > n);

      // the next command (validate recovers first) sees the old set before the journal, the new one after, never a mix
      const v = spawnSync(process.execPath, ["--import", "tsx", "pipeline/cli/validate.ts", site], { cwd: REPO, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
      expect(v.status, v.stdout + v.stderr).toBe(0);
      expect(v.stderr).toMatch(/recuperação: publicação interrompida/);
      expect(diferencas(passo() > n ? novo : antigo, await arvore(site))).toEqual([]);
      // and a rerun reaches the uninterrupted run's bytes
      const again = update(["--replay", paginas], { site, tmp });
      expect((await saida(again, 120_000))?.code, again.out()).toBe(0);
      expect(diferencas(novo, await arvore(site))).toEqual([]);
    }, 240_000);
  }
});
