/**
 * One run at a time on a data directory, the way git guards its index: a lock file created
 * exclusively inside the site root (`.cotacao.lock`), naming its holder (PID, host, command,
 * start time). A second run waits for it, or with `esperar: false` fails at once naming the
 * holder. A lock whose PID is gone on this host, or now belongs to another process (its start
 * time differs), is stale and is broken. While holding the lock, and before anything else, an
 * interrupted publish is finished or rolled back (journal.ts).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { randomBytes } from "node:crypto";
import { link, mkdir, readFile, readdir, rm, unlink, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join, resolve } from "node:path";
import { PipelineError } from "../domain/errors.ts";
import { inicioDoProcesso, pidAlive, type InicioDeProcesso } from "../io/files.ts";
import { recoverInterrupted } from "./journal.ts";

/** The lock file, inside the site root: a dotfile, never served, deployed nor committed. */
export const LOCK_NAME = ".cotacao.lock";
/** Held for an instant while a stale lock is removed, so two waiters never both break it. */
const BREAKER_NAME = ".cotacao.lock.quebra";
/** The lock's content is written here first and then hard-linked to LOCK_NAME (all or nothing). */
const LOCK_TEMP = /^\.cotacao\.lock\.(\d+)\.[0-9a-f]+$/;

export interface LockHolder {
  pid: number;
  host: string;
  /** ISO date-time the holder took the lock */
  desde: string;
  /** what the holder runs ("npm run update -- --replay x") */
  comando: string;
  /** random, tells two holders with the same PID apart (a PID reused after a crash) */
  token: string;
  /**
   * The holder process's start, where the system tells it (Linux /proc): boot id and start time
   * in clock ticks since boot. A live PID with another start is an unrelated process that got the
   * PID after the holder died. Absent in locks written where /proc is not there.
   */
  inicio?: InicioDeProcesso;
}

export interface LockOptions {
  /** wait for the holder to finish (default), or fail at once naming it */
  esperar: boolean;
  log?: (line: string) => void;
  /** what this run is, shown to a second run; default: the command line */
  comando?: string;
  /** polling interval while waiting (ms) */
  intervaloMs?: number;
  /** how often a waiting run says it is still waiting (ms) */
  progressoMs?: number;
}

/** Thrown when the data directory is locked and the caller chose not to wait. */
export class LockOcupadoError extends PipelineError {
  readonly holder: LockHolder | null;
  constructor(dir: string, holder: LockHolder | null) {
    super({
      stage: "write",
      reason: `${dir} está em uso por outra execução (${descreverDono(holder)}); nada foi feito. Espere ela terminar ou rode sem --sem-espera para aguardar`,
    });
    this.name = "LockOcupadoError";
    this.holder = holder;
  }
}

/** Exit code of a command that found the data directory locked and did not wait (EX_TEMPFAIL). */
export const EXIT_LOCK_OCUPADO = 75;

export function descreverDono(h: LockHolder | null): string {
  // the lock is linked into place already written: unreadable means damaged by hand or another tool
  if (!h) return `dono desconhecido: o arquivo de trava ${LOCK_NAME} está ilegível; apague-o se nenhuma execução estiver rodando`;
  return `PID ${h.pid} em ${h.host}, "${h.comando}", desde ${h.desde}`;
}

/**
 * The tokens of every withDataLock call of this process still running (waiting, holding or
 * releasing): a lock file with our PID and one of these is ours and never stale; with our PID and
 * another token it was left by an earlier process that had our PID. A token is added before its
 * lock file can exist and removed only after that file is gone, so no task of this process ever
 * judges another one's lock stale.
 */
const ownTokens = new Set<string>();

/**
 * Test-only hooks at the instants where another task of this process could look at the lock:
 * `criada` right after the lock file is linked into place, `soltando` between the lock file's
 * removal and the end of the release. Production never sets them.
 */
export interface GanchosDeTrava {
  criada?: (dir: string) => Promise<void>;
  soltando?: (dir: string) => Promise<void>;
}
let ganchos: GanchosDeTrava = {};
/** Test-only: sets the lock's hooks (`{}` removes them). */
export function setGanchosDeTrava(g: GanchosDeTrava): void {
  ganchos = g;
}
/**
 * The directories locked by the current call chain: withDataLock is re-entrant for code running
 * inside its `fn` (runBuild inside the build command, publishFiles inside runUpdate), while an
 * unrelated task of the same process waits like any other run.
 */
const chain = new AsyncLocalStorage<ReadonlySet<string>>();

/** True when the current call chain holds the lock on `dir` (publishFiles takes it only when not). */
export function holdsDataLock(dir: string): boolean {
  return chain.getStore()?.has(resolve(dir)) ?? false;
}

const isCode = (err: unknown, code: string) => (err as NodeJS.ErrnoException | undefined)?.code === code;

async function readHolder(file: string): Promise<LockHolder | null | "ausente"> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    if (isCode(err, "ENOENT")) return "ausente";
    throw err;
  }
  try {
    const h = JSON.parse(text) as LockHolder;
    return typeof h.pid === "number" && typeof h.token === "string" ? h : null;
  } catch {
    return null;
  }
}

/**
 * A holder is gone when it ran on this host and its PID no longer exists, or exists but started
 * at another time than the holder did (the PID was reused by an unrelated process, or the host
 * rebooted), or when the PID is ours but the token is not one of this process's (a PID reused
 * after the holder was killed, as happens in a fresh container). Without a recorded start, or
 * where /proc is absent, a live PID is a live holder. A holder on another host is never judged:
 * only a person can.
 */
function isStale(h: LockHolder): boolean {
  if (h.host !== hostname()) return false;
  if (h.pid === process.pid) return !ownTokens.has(h.token);
  if (!pidAlive(h.pid)) return true;
  if (!h.inicio || typeof h.inicio.boot !== "string" || typeof h.inicio.ticks !== "string") return false;
  const agora = inicioDoProcesso(h.pid);
  if (!agora) return false;
  return agora.boot !== h.inicio.boot || agora.ticks !== h.inicio.ticks;
}

/** Creates `name` in `dir` holding `text`, only if it does not exist: written aside, then linked. */
async function createExclusive(dir: string, name: string, text: string): Promise<boolean> {
  const tmp = join(dir, `${LOCK_NAME}.${process.pid}.${randomBytes(6).toString("hex")}`);
  await writeFile(tmp, text, { flag: "wx" });
  try {
    await link(tmp, join(dir, name));
    return true;
  } catch (err) {
    if (isCode(err, "EEXIST")) return false;
    throw err;
  } finally {
    await rm(tmp, { force: true });
  }
}

/** Removes a stale lock, under the breaker, only if it is still the one judged stale. */
async function breakStale(dir: string, stale: LockHolder, me: LockHolder): Promise<void> {
  const breaker = join(dir, BREAKER_NAME);
  if (!(await createExclusive(dir, BREAKER_NAME, JSON.stringify(me)))) {
    const b = await readHolder(breaker);
    // a breaker is held for an instant; one left by a killed process is removed
    if (b !== "ausente" && (b === null || isStale(b))) await rm(breaker, { force: true });
    return;
  }
  try {
    const now = await readHolder(join(dir, LOCK_NAME));
    if (now !== "ausente" && now !== null && now.token === stale.token) await unlink(join(dir, LOCK_NAME));
  } finally {
    await rm(breaker, { force: true });
  }
}

/** Lock temp files whose writer is dead (killed between writing and linking). */
async function removeDeadLockTemps(dir: string): Promise<void> {
  for (const name of await readdir(dir)) {
    const m = LOCK_TEMP.exec(name);
    if (m && Number(m[1]) !== process.pid && !pidAlive(Number(m[1]))) await rm(join(dir, name), { force: true });
  }
}

/**
 * The holder as an operator would have typed it. Read from this process's own script, not from
 * npm's environment: npm_lifecycle_event is inherited by every child (a test runner started by
 * `npm test`, an npx), so it would name the parent's script instead.
 */
function defaultComando(): string {
  const args = process.argv.slice(2).join(" ");
  const cli = /(?:^|[\\/])pipeline[\\/]cli[\\/]([a-z-]+)\.ts$/.exec(process.argv[1] ?? "");
  if (cli) return `npm run ${cli[1]}${args ? ` -- ${args}` : ""}`;
  return process.argv.slice(1).join(" ");
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs `fn` holding the lock on the data directory `dir` (created if missing). Before `fn`, an
 * interrupted publish left in `dir` by a killed run is finished or rolled back. Re-entrant: a call
 * made inside `fn` on the same directory just runs its own `fn`.
 */
export async function withDataLock<T>(dirArg: string, opts: LockOptions, fn: () => Promise<T>): Promise<T> {
  const dir = resolve(dirArg);
  const outer = chain.getStore();
  if (outer?.has(dir)) return fn();
  const me: LockHolder = {
    pid: process.pid,
    host: hostname(),
    desde: new Date().toISOString(),
    comando: opts.comando ?? defaultComando(),
    token: randomBytes(12).toString("hex"),
  };
  const inicio = inicioDoProcesso(process.pid);
  if (inicio) me.inicio = inicio;
  ownTokens.add(me.token);
  try {
    return await holdAndRun(dir, outer, opts, me, fn);
  } finally {
    ownTokens.delete(me.token);
  }
}

async function holdAndRun<T>(dir: string, outer: ReadonlySet<string> | undefined, opts: LockOptions, me: LockHolder, fn: () => Promise<T>): Promise<T> {
  const log = opts.log ?? (() => {});
  await mkdir(dir, { recursive: true });
  const file = join(dir, LOCK_NAME);
  const intervalo = opts.intervaloMs ?? 250;
  const progresso = opts.progressoMs ?? 10_000;
  const start = Date.now();
  let avisado: string | null = null;
  let ultimoAviso = start;
  for (;;) {
    if (await createExclusive(dir, LOCK_NAME, `${JSON.stringify(me, null, 2)}\n`)) break;
    const h = await readHolder(file);
    if (h === "ausente") continue;
    if (h !== null && isStale(h)) {
      log(`trava: a execução que travava ${dir} (${descreverDono(h)}) não existe mais; trava abandonada removida`);
      await breakStale(dir, h, me);
      continue;
    }
    if (!opts.esperar) throw new LockOcupadoError(dir, h);
    const quem = descreverDono(h);
    const now = Date.now();
    if (avisado !== quem) {
      log(`trava: ${dir} está em uso por outra execução (${quem}); aguardando ela terminar (use --sem-espera para sair em vez de esperar)`);
      avisado = quem;
      ultimoAviso = now;
    } else if (now - ultimoAviso >= progresso) {
      log(`trava: ainda aguardando ${h ? `PID ${h.pid}` : "a outra execução"} (há ${Math.round((now - start) / 1000)} s)`);
      ultimoAviso = now;
    }
    await sleep(intervalo);
  }
  try {
    await ganchos.criada?.(dir);
    if (avisado) log(`trava: ${dir} liberada após ${Math.round((Date.now() - start) / 1000)} s; seguindo`);
    await removeDeadLockTemps(dir);
    const recovered = await recoverInterrupted(dir);
    if (recovered) log(recovered);
    return await chain.run(new Set([...(outer ?? []), dir]), fn);
  } finally {
    // the lock file goes first; only then (withDataLock) is the token forgotten
    const h = await readHolder(file).catch(() => null);
    if (h !== "ausente" && h !== null && h.token === me.token) await rm(file, { force: true });
    await ganchos.soltando?.(dir);
  }
}
