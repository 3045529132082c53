/**
 * One run at a time: a second run waits naming the holder, or with --sem-espera fails at once
 * (exit 75); a lock left by a killed run is broken; two real updates at once run one after the
 * other. The other run is a real process (test/lock/holder.ts).
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../pipeline/config.ts";
import { LOCK_NAME, LockOcupadoError, withDataLock, type LockHolder } from "../../pipeline/publish/lock.ts";

const TSX = join(REPO_ROOT, "node_modules", ".bin", "tsx");
const FIXTURES = join(REPO_ROOT, "test", "fixtures");
const dirs: string[] = [];
const children: ChildProcessWithoutNullStreams[] = [];

async function tempDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), "cotacao-lock-"));
  dirs.push(d);
  return d;
}

/** Starts the holder and resolves once it holds the lock. */
async function holder(dir: string): Promise<ChildProcessWithoutNullStreams> {
  // node itself (not the tsx wrapper), so the PID in the lock is the child's and a kill reaches it
  const child = spawn(process.execPath, ["--import", "tsx", join(REPO_ROOT, "test/lock/holder.ts"), dir], { stdio: "pipe", cwd: REPO_ROOT });
  children.push(child);
  let out = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => {
      out += String(d);
      if (out.includes("travado")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`holder saiu (${code}) antes de travar: ${out}`)));
  });
  return child;
}

const exited = (c: ChildProcessWithoutNullStreams) =>
  c.exitCode !== null || c.signalCode !== null ? Promise.resolve() : new Promise<void>((r) => c.once("exit", () => r()));

afterEach(async () => {
  for (const c of children.splice(0)) {
    if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
    await exited(c);
  }
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe("the data directory's lock", () => {
  it("names its holder: PID, host, command and since when", async () => {
    const dir = await tempDir();
    const child = await holder(dir);
    const h = JSON.parse(await readFile(join(dir, LOCK_NAME), "utf8")) as LockHolder;
    expect(h).toMatchObject({ pid: child.pid, host: hostname(), comando: "teste: segura a trava" });
    expect(Number.isNaN(Date.parse(h.desde))).toBe(false);

    const err = await withDataLock(dir, { esperar: false }, async () => "não devia rodar").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LockOcupadoError);
    expect((err as Error).message).toBe(
      `[write] ${dir} está em uso por outra execução (PID ${child.pid} em ${hostname()}, "teste: segura a trava", desde ${h.desde}); ` +
        "nada foi feito. Espere ela terminar ou rode sem --sem-espera para aguardar",
    );
  });

  it("a second run waits, saying once who holds it and then how long it has waited, and runs when it is released", async () => {
    const dir = await tempDir();
    const child = await holder(dir);
    const log: string[] = [];
    let ran = false;
    const waiting = withDataLock(dir, { esperar: true, log: (l) => log.push(l), intervaloMs: 20, progressoMs: 0 }, async () => {
      ran = true;
    });
    while (log.length < 3) await new Promise((r) => setTimeout(r, 20));
    expect(ran).toBe(false);
    expect(log[0]).toBe(
      `trava: ${dir} está em uso por outra execução (PID ${child.pid} em ${hostname()}, "teste: segura a trava", desde ${JSON.parse(await readFile(join(dir, LOCK_NAME), "utf8")).desde}); ` +
        "aguardando ela terminar (use --sem-espera para sair em vez de esperar)",
    );
    expect(log[1]).toMatch(new RegExp(`^trava: ainda aguardando PID ${child.pid} \\(há \\d+ s\\)$`));
    child.stdin.write("solta\n");
    await waiting;
    expect(ran).toBe(true);
    expect(log.at(-1)).toMatch(/^trava: .* liberada após \d+ s; seguindo$/);
    expect(log.filter((l) => l.includes("está em uso"))).toHaveLength(1);
    // released by its holder, not broken as stale
    expect(log.filter((l) => l.includes("não existe mais"))).toEqual([]);
    // released: no lock file, nothing else left
    expect(await readdir(dir)).toEqual([]);
  });

  it("a lock left by a killed run is stale: broken with one line, and the next run goes on", async () => {
    const dir = await tempDir();
    const child = await holder(dir);
    child.kill("SIGKILL");
    await exited(child);
    expect(existsSync(join(dir, LOCK_NAME))).toBe(true);
    const log: string[] = [];
    expect(await withDataLock(dir, { esperar: false, log: (l) => log.push(l) }, async () => "rodou")).toBe("rodou");
    expect(log).toEqual([`trava: a execução que travava ${dir} (PID ${child.pid} em ${hostname()}, "teste: segura a trava", desde ${log[0]!.match(/desde ([^)]+)\)/)![1]}) não existe mais; trava abandonada removida`]);
    expect(await readdir(dir)).toEqual([]);
  });

  it("two tasks of one process take turns; a call inside the holder's own work does not wait for itself", async () => {
    const dir = await tempDir();
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const first = withDataLock(dir, { esperar: true }, async () => {
      order.push("primeira: início");
      // nested: re-entrant
      await withDataLock(dir, { esperar: false }, async () => order.push("primeira: aninhada"));
      await gate;
      order.push("primeira: fim");
    });
    while (order.length < 2) await new Promise((r) => setTimeout(r, 5));
    await expect(withDataLock(dir, { esperar: false }, async () => order.push("intrusa"))).rejects.toBeInstanceOf(LockOcupadoError);
    const second = withDataLock(dir, { esperar: true, intervaloMs: 5 }, async () => order.push("segunda"));
    await new Promise((r) => setTimeout(r, 30));
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(["primeira: início", "primeira: aninhada", "primeira: fim", "segunda"]);
  });
});

describe("npm run update with another run holding the data directory", () => {
  const update = (dir: string, ...args: string[]) =>
    spawnSync(TSX, [join(REPO_ROOT, "pipeline/cli/update.ts"), "--replay", FIXTURES, ...args], {
      encoding: "utf8",
      env: { ...process.env, COTACAO_PUBLIC_DIR: dir, COTACAO_NOW: "2026-09-27T22:00:00-03:00", NO_COLOR: "1" },
    });

  it("--sem-espera: exits 75 at once naming the run that holds it, and touches nothing", async () => {
    const dir = await tempDir();
    const child = await holder(dir);
    const r = update(dir, "--sem-espera");
    expect(r.status).toBe(75);
    expect(r.stderr).toMatch(new RegExp(`está em uso por outra execução \\(PID ${child.pid} em .*"teste: segura a trava", desde [^)]+\\); nada foi feito`));
    expect(await readdir(dir)).toEqual([LOCK_NAME]);
  });

  it("two at once: the second waits for the first and then runs on its result", async () => {
    const dir = await tempDir();
    const run = () =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const c = spawn(TSX, [join(REPO_ROOT, "pipeline/cli/update.ts"), "--replay", FIXTURES], {
          env: { ...process.env, COTACAO_PUBLIC_DIR: dir, COTACAO_NOW: "2026-09-27T22:00:00-03:00", NO_COLOR: "1" },
        });
        let out = "";
        c.stdout.on("data", (d: Buffer) => (out += String(d)));
        c.stderr.on("data", (d: Buffer) => (out += String(d)));
        c.on("exit", (code) => resolve({ code, out }));
      });
    const [a, b] = await Promise.all([run(), run()]);
    const waited = [a, b].filter((r) => /está em uso por outra execução .*aguardando/.test(r.out));
    expect(waited).toHaveLength(1);
    // the holder is named as an operator types it, whatever npm script started the test runner
    expect(waited[0]!.out).toMatch(new RegExp(`"npm run update -- --replay ${FIXTURES.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}"`));
    expect([a.code, b.code]).toEqual([0, 0]);
    expect(await readdir(dir)).not.toContain(LOCK_NAME);
  }, 120_000);
});
