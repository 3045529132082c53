/**
 * All-or-nothing publishing, in the shape of SQLite's journal and git's index.lock: the new
 * bytes of every changed file are written to a staging directory inside the site root (same
 * filesystem, so a rename is atomic); then a journal listing every rename is written aside and
 * renamed into place, which is the commit point; then the renames; then the journal is removed.
 * After a kill at any instant the next command finds either a journal (roll forward: the renames
 * are idempotent) or a staging directory without one (roll back: discard it), so the tree is the
 * old set or the new set, never a mix.
 */
import { open, readdir, readFile, rename, rm, mkdir, stat } from "node:fs/promises";
import { dirname, join, sep } from "node:path";
import { pidAlive } from "../io/files.ts";

/** The staging directory, inside the site root: never served, deployed nor committed. */
export const STAGING_DIR = ".cotacao-staging";
/** The journal: present = the publish is committed and must be finished. */
export const JOURNAL_NAME = ".cotacao-journal.json";
/** Where the journal is written before the rename that commits it. */
export const JOURNAL_TEMP = `${JOURNAL_NAME}.tmp`;
/**
 * Every name in the site root that is not part of the site: the lock (and its temp and breaker
 * files), the staging directory, the journal and its temp. Deploy, the server, validate and
 * changelog skip or refuse them.
 */
export const CONTROL_NAME = /^\.cotacao(?:-staging|-journal\.json(?:\.tmp)?|\.lock(?:\..+)?)$/;
/** A per-file temp left beside its target by writeAtomic (or by a publish before the journal). */
export const TEMP_FILE = /\.tmp-(\d+)$/;

/** True for a path (relative to the site root, "/" separated) that is a control or temp file, not the site. */
export function isControlPath(rel: string): boolean {
  const parts = rel.replace(/\\/g, "/").split("/");
  return CONTROL_NAME.test(parts[0] ?? "") || TEMP_FILE.test(parts[parts.length - 1] ?? "");
}

export interface JournalOp {
  /** rename the staged file over the target (created if missing) */
  op: "renomear";
  /** the target, relative to the site root */
  arquivo: string;
}

export interface Journal {
  versao: 1;
  pid: number;
  criado: string;
  operacoes: JournalOp[];
}

/** The steps of a publish, in order: each is a point where a fault can be injected. */
export type Passo =
  | { tipo: "preparar"; arquivo: string }
  | { tipo: "diario_escrito" }
  | { tipo: "diario_confirmado" }
  | { tipo: "renomear"; arquivo: string }
  | { tipo: "diario_removido" }
  | { tipo: "preparo_removido" };

export function descreverPasso(p: Passo): string {
  return "arquivo" in p ? `${p.tipo} ${p.arquivo}` : p.tipo;
}

/**
 * Test-only fault hooks. `antes(passo, k)` runs before step k (0-based) of a publish and may throw
 * a `QuedaSimulada` to stop the publish as a kill would (nothing cleaned up); `writeFile` replaces
 * the writer of staged files (a full disk). Production never sets them.
 */
export interface Falhas {
  antes?: (passo: Passo, k: number) => void | Promise<void>;
  writeFile?: (file: string, data: Buffer) => Promise<void>;
}

let falhas: Falhas = {};

/** Test-only: sets the fault hooks of publishFiles (`{}` removes them). */
export function setFalhasDePublicacao(f: Falhas): void {
  falhas = f;
}

/** Test-only: a simulated kill; publishFiles rethrows it without any cleanup. */
export class QuedaSimulada extends Error {
  constructor(k: number) {
    super(`queda simulada no passo ${k}`);
    this.name = "QuedaSimulada";
  }
}

/**
 * Test-only fault hook for a real process: COTACAO_TESTE_MATAR_NO_PASSO=k makes the process send
 * itself SIGKILL just before step k of its publish, so tests can kill a real `npm run update` or
 * `build` at an exact instant. Read once per publish.
 */
function passoParaMatar(): number | null {
  const v = process.env.COTACAO_TESTE_MATAR_NO_PASSO;
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : null;
}

/** Runs the hooks before each step; counts the steps. */
export class Passos {
  private k = 0;
  private readonly matar = passoParaMatar();
  async antes(p: Passo): Promise<void> {
    const k = this.k++;
    if (this.matar === k) process.kill(process.pid, "SIGKILL");
    await falhas.antes?.(p, k);
  }
  get total(): number {
    return this.k;
  }
}

export function writerDeTeste(): ((file: string, data: Buffer) => Promise<void>) | undefined {
  return falhas.writeFile;
}

/** Writes a file and forces it to disk, so the journal never commits bytes a power cut could lose. */
export async function writeDurable(file: string, data: Buffer | string): Promise<void> {
  const fh = await open(file, "wx");
  try {
    await fh.writeFile(data);
    await fh.sync();
  } finally {
    await fh.close();
  }
}

async function syncDir(dir: string): Promise<void> {
  // a directory's fsync makes a rename in it durable; not every platform allows opening one
  try {
    const fh = await open(dir, "r");
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  } catch {
    /* best effort */
  }
}

const exists = (p: string) => stat(p).then(() => true, (err: NodeJS.ErrnoException) => (err.code === "ENOENT" ? false : Promise.reject(err)));

/** Commits a staged set: the journal, then the renames, then the journal and staging removed. */
export async function commitStaged(root: string, arquivos: readonly string[], passos: Passos): Promise<void> {
  const journal: Journal = { versao: 1, pid: process.pid, criado: new Date().toISOString(), operacoes: arquivos.map((arquivo) => ({ op: "renomear", arquivo })) };
  await passos.antes({ tipo: "diario_escrito" });
  await writeDurable(join(root, JOURNAL_TEMP), `${JSON.stringify(journal, null, 1)}\n`);
  await passos.antes({ tipo: "diario_confirmado" });
  await rename(join(root, JOURNAL_TEMP), join(root, JOURNAL_NAME));
  await syncDir(root);
  await rollForward(root, journal, passos);
}

/** The renames of a committed journal (each skipped when already done), then the cleanup. */
async function rollForward(root: string, journal: Journal, passos?: Passos): Promise<number> {
  let feitos = 0;
  for (const { arquivo } of journal.operacoes) {
    await passos?.antes({ tipo: "renomear", arquivo });
    const staged = join(root, STAGING_DIR, arquivo);
    // the staging directory is only touched under the lock: a staged file that is gone was renamed
    if (!(await exists(staged))) continue;
    const target = join(root, arquivo);
    await mkdir(dirname(target), { recursive: true });
    await rename(staged, target);
    feitos++;
  }
  await passos?.antes({ tipo: "diario_removido" });
  await rm(join(root, JOURNAL_NAME), { force: true });
  await passos?.antes({ tipo: "preparo_removido" });
  await rm(join(root, STAGING_DIR), { recursive: true, force: true });
  return feitos;
}

function validJournal(j: unknown): j is Journal {
  const x = j as Journal | null;
  return (
    !!x &&
    x.versao === 1 &&
    Array.isArray(x.operacoes) &&
    x.operacoes.every((o) => o && o.op === "renomear" && typeof o.arquivo === "string" && o.arquivo !== "" && !o.arquivo.split(/[\\/]/).some((s) => s === ".." || s === "") && !o.arquivo.startsWith(sep))
  );
}

/**
 * Finishes or rolls back a publish a killed run left in `root`, and removes the temp files of dead
 * runs. Call it holding the lock (withDataLock does). Returns one line saying what it did, or null
 * when there was nothing to do.
 */
export async function recoverInterrupted(root: string): Promise<string | null> {
  const said: string[] = [];
  let text: string | null = null;
  try {
    text = await readFile(join(root, JOURNAL_NAME), "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  if (text !== null) {
    let journal: unknown;
    try {
      journal = JSON.parse(text);
    } catch {
      journal = null;
    }
    // the journal is renamed into place whole: an unreadable one was damaged by hand
    if (!validJournal(journal)) {
      throw new Error(
        `recuperação: o diário ${join(root, JOURNAL_NAME)} de uma publicação interrompida está ilegível; nada foi feito. ` +
          `Restaure o site com "git checkout -- ${root}" e apague ${JOURNAL_NAME} e ${STAGING_DIR}/`,
      );
    }
    const feitos = await rollForward(root, journal);
    said.push(
      `recuperação: publicação interrompida (PID ${journal.pid}, ${journal.criado}) concluída a partir do diário: ` +
        `${journal.operacoes.length} arquivo(s) no conjunto, ${feitos} substituído(s) agora`,
    );
  } else {
    const staged = await countFiles(join(root, STAGING_DIR));
    const temp = await exists(join(root, JOURNAL_TEMP));
    if (staged !== null || temp) {
      await rm(join(root, JOURNAL_TEMP), { force: true });
      await rm(join(root, STAGING_DIR), { recursive: true, force: true });
      said.push(
        staged
          ? `recuperação: publicação interrompida antes de confirmada descartada (${staged} arquivo(s) preparado(s) removido(s)); o site ficou como estava`
          : // killed after its last rename and its journal's removal: only empty directories were left
            "recuperação: restos vazios de uma publicação já concluída removidos",
      );
    }
  }
  const temps = await removeDeadTemps(root);
  if (temps.length > 0) said.push(`recuperação: ${temps.length} arquivo(s) temporário(s) de execuções mortas removido(s) (${temps.slice(0, 3).join(", ")}${temps.length > 3 ? ", ..." : ""})`);
  return said.length > 0 ? said.join("; ") : null;
}

async function countFiles(dir: string): Promise<number | null> {
  try {
    return (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).length;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

/** `*.tmp-PID` files whose PID is dead (a live run's temp files are never touched). */
async function removeDeadTemps(root: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(root, { recursive: true, withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
  const out: string[] = [];
  for (const e of entries) {
    const m = TEMP_FILE.exec(e.name);
    if (!e.isFile() || !m) continue;
    const pid = Number(m[1]);
    if (pid === process.pid || pidAlive(pid)) continue;
    const full = join(e.parentPath, e.name);
    await rm(full, { force: true });
    out.push(full.slice(root.length + 1).split(sep).join("/"));
  }
  return out;
}

/** Whether a publish was left unfinished in `root` (a journal, or a staging directory). */
export async function hasInterrupted(root: string): Promise<boolean> {
  return (await exists(join(root, JOURNAL_NAME))) || (await exists(join(root, STAGING_DIR))) || (await exists(join(root, JOURNAL_TEMP)));
}
