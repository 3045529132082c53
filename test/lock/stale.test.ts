/**
 * When a lock is stale: a live PID that started at another time than the holder did (a PID reused
 * by an unrelated process) is not the holder; a lock of a task of this very process is never
 * stale, at any instant of its taking or its release. Deterministic: the instants are reached
 * through the lock's test hooks, never by timing.
 */
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { inicioDoProcesso } from "../../pipeline/io/files.ts";
import { LOCK_NAME, LockOcupadoError, setGanchosDeTrava, withDataLock, type LockHolder } from "../../pipeline/publish/lock.ts";

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), "cotacao-stale-"));
  dirs.push(d);
  return d;
}
afterEach(async () => {
  setGanchosDeTrava({});
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

const linux = inicioDoProcesso(process.pid) !== null;

/** A lock file naming this host and a live process that is not this one (our parent). */
async function lockOfLiveProcess(dir: string, inicio: LockHolder["inicio"]): Promise<LockHolder> {
  const h: LockHolder = { pid: process.ppid, host: hostname(), desde: "2026-09-27T12:00:00.000Z", comando: "npm run update", token: "0123456789abcdef01234567" };
  if (inicio) h.inicio = inicio;
  await writeFile(join(dir, LOCK_NAME), `${JSON.stringify(h, null, 2)}\n`);
  return h;
}

async function tryLock(dir: string): Promise<{ result: unknown; log: string[] }> {
  const log: string[] = [];
  const result = await withDataLock(dir, { esperar: false, log: (l) => log.push(l) }, async () => "rodou").catch((e: unknown) => e);
  return { result, log };
}

describe.runIf(linux)("a lock whose PID is alive (Linux: /proc tells the process's start)", () => {
  it("records the holder's boot id and start time, as /proc gives them", async () => {
    const dir = await tempDir();
    const h = await withDataLock(dir, { esperar: false }, async () => JSON.parse(await readFile(join(dir, LOCK_NAME), "utf8")) as LockHolder);
    expect(h.inicio).toEqual(inicioDoProcesso(process.pid));
    expect(h.inicio!.ticks).toMatch(/^\d+$/);
    expect(h.inicio!.boot).toBe((await readFile("/proc/sys/kernel/random/boot_id", "utf8")).trim());
  });

  it("started at another time (the PID was reused): stale, broken with one line, and the run goes on", async () => {
    const dir = await tempDir();
    const real = inicioDoProcesso(process.ppid)!;
    const h = await lockOfLiveProcess(dir, { boot: real.boot, ticks: String(BigInt(real.ticks) + 1n) });
    const { result, log } = await tryLock(dir);
    expect(result).toBe("rodou");
    expect(log).toEqual([`trava: a execução que travava ${dir} (PID ${h.pid} em ${hostname()}, "npm run update", desde ${h.desde}) não existe mais; trava abandonada removida`]);
    expect(await readdir(dir)).toEqual([]);
  });

  it("started in another boot: stale", async () => {
    const dir = await tempDir();
    const real = inicioDoProcesso(process.ppid)!;
    await lockOfLiveProcess(dir, { boot: "00000000-0000-0000-0000-000000000000", ticks: real.ticks });
    expect((await tryLock(dir)).result).toBe("rodou");
  });

  it("started exactly when the holder did: live, the run does not go on", async () => {
    const dir = await tempDir();
    await lockOfLiveProcess(dir, inicioDoProcesso(process.ppid)!);
    const { result, log } = await tryLock(dir);
    expect(result).toBeInstanceOf(LockOcupadoError);
    expect(log).toEqual([]);
    expect(existsSync(join(dir, LOCK_NAME))).toBe(true);
  });
});

describe("a lock whose PID is alive, without a recorded start (older lock, or no /proc)", () => {
  it("is live: judged by the PID alone", async () => {
    const dir = await tempDir();
    await lockOfLiveProcess(dir, undefined);
    expect((await tryLock(dir)).result).toBeInstanceOf(LockOcupadoError);
  });
});

describe("a lock of another task of this very process", () => {
  it("right after it is created: not stale, another task does not break it", async () => {
    const dir = await tempDir();
    let seen: { result: unknown; log: string[]; token: string } | null = null;
    let mine = "";
    let once = false;
    setGanchosDeTrava({
      criada: async (d) => {
        // only the first task's: the other task, should it get the lock, runs this hook too
        if (once) return;
        once = true;
        mine = (JSON.parse(await readFile(join(d, LOCK_NAME), "utf8")) as LockHolder).token;
        const other = await tryLock(d);
        seen = { ...other, token: (JSON.parse(await readFile(join(d, LOCK_NAME), "utf8")) as LockHolder).token };
      },
    });
    expect(await withDataLock(dir, { esperar: false }, async () => "primeira")).toBe("primeira");
    expect(seen).not.toBeNull();
    expect(seen!.result).toBeInstanceOf(LockOcupadoError);
    expect(seen!.log).toEqual([]);
    expect(seen!.token).toBe(mine);
    expect(await readdir(dir)).toEqual([]);
  });

  it("while it is released: the lock file goes before the token is forgotten, so another task never breaks it", async () => {
    const dir = await tempDir();
    let seen: { result: unknown; log: string[] } | null = null;
    let once = false;
    setGanchosDeTrava({
      soltando: async (d) => {
        // only the first release: the other task's own release runs this hook too
        if (once) return;
        once = true;
        seen = await tryLock(d);
      },
    });
    expect(await withDataLock(dir, { esperar: false }, async () => "primeira")).toBe("primeira");
    expect(seen).not.toBeNull();
    // the file was already gone: the other task took the lock as a free one, breaking nothing
    expect(seen!.log.filter((l) => l.includes("não existe mais"))).toEqual([]);
    expect(seen!.result).toBe("rodou");
    expect(await readdir(dir)).toEqual([]);
  });
});
