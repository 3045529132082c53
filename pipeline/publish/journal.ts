/**
 * All-or-nothing publishing, in the shape of SQLite's journal and git's index.lock: the new
 * bytes of every changed file are written to a staging directory inside the site root (same
 * filesystem, so a rename is atomic); then a journal listing every rename is written aside and
 * renamed into place, which is the commit point; then the renames; then the journal is removed.
 * After a kill at any instant the next command finds either a journal (roll forward: the renames
 * are idempotent) or a staging directory without one (roll back: discard it), so the tree is the
 * old set or the new set, never a mix.
 *
 * The journal records each file's sha256 and size, so rolling forward never takes a missing
 * staged file on trust: a staged file can vanish (a staging directory cleaned by hand, entries
 * not yet durable at a power cut), and then only the target's bytes tell whether its rename
 * happened. A journal that cannot be finished to exactly its hashes stays in place and every
 * command refuses to run until the operator restores the tree with git.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { open, readdir, readFile, rename, rm, rmdir, mkdir, stat } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { PipelineError } from "../domain/errors.ts";
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

/** A staged file: its target (relative to the site root) and the bytes it must end up holding. */
export interface ArquivoPreparado {
  arquivo: string;
  /** hex sha256 of the new bytes */
  sha256: string;
  /** size of the new bytes */
  tamanho: number;
}

export interface JournalRename extends ArquivoPreparado {
  /** rename the staged file over the target (created if missing) */
  op: "renomear";
}

/** remove the target (a derived file the new set does not have), after every rename; idempotent */
export interface JournalRemove {
  op: "apagar";
  arquivo: string;
}

export type JournalOp = JournalRename | JournalRemove;

export interface Journal {
  versao: 2;
  pid: number;
  criado: string;
  operacoes: JournalOp[];
}

const renomeacoes = (j: Journal): JournalRename[] => j.operacoes.filter((o): o is JournalRename => o.op === "renomear");
const remocoes = (j: Journal): JournalRemove[] => j.operacoes.filter((o): o is JournalRemove => o.op === "apagar");

/** The steps of a publish, in order: each is a point where a fault can be injected. */
export type Passo =
  | { tipo: "preparar"; arquivo: string }
  | { tipo: "diario_escrito" }
  | { tipo: "diario_confirmado" }
  | { tipo: "renomear"; arquivo: string }
  | { tipo: "apagar"; arquivo: string }
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

/**
 * Writes a staged file without waiting for the disk: commitStaged forces every staged file to disk
 * before the journal that relies on them, many at a time (one fsync after another was most of
 * a full build's waiting, 684 files at 30 years).
 */
export async function writeStaged(file: string, data: Buffer | string): Promise<void> {
  const fh = await open(file, "wx");
  try {
    await fh.writeFile(data);
  } finally {
    await fh.close();
  }
}

/** fsyncs files, a few at a time: the filesystem covers concurrent fsyncs with one commit of its journal. */
async function syncFiles(files: readonly string[]): Promise<void> {
  await variosPorVez(files, async (file) => {
    // opened for writing: some platforms refuse to flush a file opened only for reading
    const fh = await open(file, "r+");
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  });
}

/** `fn` on every item, at most 16 at a time; the first failure is thrown once all have settled. */
async function variosPorVez<T>(itens: readonly T[], fn: (item: T) => Promise<void>): Promise<void> {
  let proximo = 0;
  const uma = async () => {
    while (proximo < itens.length) await fn(itens[proximo++]!);
  };
  const r = await Promise.allSettled(Array.from({ length: Math.min(16, itens.length) }, uma));
  const falha = r.find((x): x is PromiseRejectedResult => x.status === "rejected");
  if (falha) throw falha.reason;
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

/**
 * fsyncs the directories holding `files` (paths under `root`) and every directory between them
 * and `root`: a file's rename is durable once its directory is, and a directory mkdir created
 * is durable once its parent is. Each once, several at a time.
 */
async function syncDirsOf(root: string, files: Iterable<string>): Promise<void> {
  const dirs = new Set<string>();
  for (const f of files) {
    for (let d = dirname(f); ; d = dirname(d)) {
      if (dirs.has(d)) break;
      dirs.add(d);
      if (d === root || !d.startsWith(root + sep)) break;
    }
  }
  dirs.add(root);
  // every one is durable before the caller goes on, in whatever order they finish
  await variosPorVez([...dirs], syncDir);
}

const exists = (p: string) => stat(p).then(() => true, (err: NodeJS.ErrnoException) => (err.code === "ENOENT" ? false : Promise.reject(err)));

/** The sha256 (hex) and size of a file, streamed; null when it does not exist. */
export async function hashFile(file: string): Promise<{ sha256: string; tamanho: number } | null> {
  const h = createHash("sha256");
  let tamanho = 0;
  try {
    for await (const chunk of createReadStream(file)) {
      h.update(chunk as Buffer);
      tamanho += (chunk as Buffer).length;
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "EISDIR") return null;
    throw err;
  }
  return { sha256: h.digest("hex"), tamanho };
}

/** The hash and size a journal records for a file's new bytes. */
export function hashBytes(bytes: Buffer): { sha256: string; tamanho: number } {
  return { sha256: createHash("sha256").update(bytes).digest("hex"), tamanho: bytes.length };
}

/**
 * Commits a staged set: the journal, then the renames, then the removals (`apagar`: files of the
 * tree the new set does not have), then the journal and staging removed.
 */
export async function commitStaged(root: string, arquivos: readonly ArquivoPreparado[], passos: Passos, apagar: readonly string[] = []): Promise<void> {
  const journal: Journal = {
    versao: 2,
    pid: process.pid,
    criado: new Date().toISOString(),
    operacoes: [
      ...arquivos.map(({ arquivo, sha256, tamanho }): JournalOp => ({ op: "renomear", arquivo, sha256, tamanho })),
      ...apagar.map((arquivo): JournalOp => ({ op: "apagar", arquivo })),
    ],
  };
  // the staged files' bytes and entries must be on disk before the journal that relies on them
  const preparados = arquivos.map((a) => join(root, STAGING_DIR, a.arquivo));
  await syncFiles(preparados);
  await syncDirsOf(root, preparados);
  await passos.antes({ tipo: "diario_escrito" });
  await writeDurable(join(root, JOURNAL_TEMP), `${JSON.stringify(journal, null, 1)}\n`);
  await passos.antes({ tipo: "diario_confirmado" });
  await rename(join(root, JOURNAL_TEMP), join(root, JOURNAL_NAME));
  await syncDir(root);
  await rollForward(root, journal, passos, true);
}

/** Thrown when a committed journal cannot be finished to exactly its hashes: the tree is a mix. */
export class DiarioIrrecuperavelError extends PipelineError {
  /** the targets that hold neither a staged file nor their new bytes */
  readonly arquivos: readonly string[];
  constructor(root: string, journal: Journal, problemas: readonly string[], motivo: string) {
    const lista = problemas.slice(0, 8).join(", ") + (problemas.length > 8 ? ` e mais ${problemas.length - 8}` : "");
    super({
      stage: "write",
      reason:
        `recuperação: a publicação interrompida (PID ${journal.pid}, ${journal.criado}) não pode ser concluída: ` +
        `${problemas.length} de ${journal.operacoes.length} arquivo(s) do diário ${motivo}: ${lista}. ` +
        `O site pode estar misturado (parte antiga, parte nova); nada mais foi escrito e o diário ${JOURNAL_NAME} foi mantido, ` +
        `então todo comando (update, build, validate, start) recusa rodar até o site ser restaurado. ${restaurar(root)}, e rode o comando de novo`,
    });
    this.name = "DiarioIrrecuperavelError";
    this.arquivos = problemas;
  }
}

/** How to put the site back as git has it: removes the journal, the staging directory and every file the publish added. */
function restaurar(root: string): string {
  const rel = relative(process.cwd(), resolve(root));
  const p = rel === "" ? "." : rel.startsWith("..") || isAbsolute(rel) ? root : rel;
  return `Restaure o site com "git checkout -- ${p} && git clean -fdx -- ${p}"`;
}

/**
 * The targets of a journal that will not end with their new bytes: staged file gone (or not the new
 * bytes) and target not the new bytes. `conferirPreparados`: in a recovery each staged file is
 * read back whole before anything is renamed (it may have been damaged since, keeping its size),
 * so a damaged one never replaces a published file; a damaged one whose target already holds the
 * new bytes is only removed (`descartar`). The commit that staged them wrote and hashed them itself.
 */
async function unfinishable(root: string, journal: Journal, conferirPreparados: boolean): Promise<{ faltam: string[]; descartar: string[] }> {
  const faltam: string[] = [];
  const descartar: string[] = [];
  for (const o of renomeacoes(journal)) {
    const staged = join(root, STAGING_DIR, o.arquivo);
    let st: Awaited<ReturnType<typeof stat>> | null = null;
    try {
      st = await stat(staged);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    }
    // a staged file is fsynced before the journal: a wrong size means it was damaged since
    let preparado = st?.isFile() === true && st.size === o.tamanho;
    if (preparado && conferirPreparados) preparado = (await hashFile(staged))?.sha256 === o.sha256;
    if (preparado) continue;
    const t = await hashFile(join(root, o.arquivo));
    if (t && t.sha256 === o.sha256 && t.tamanho === o.tamanho) {
      if (st !== null) descartar.push(staged);
      continue;
    }
    faltam.push(o.arquivo);
  }
  return { faltam, descartar };
}

/**
 * Finishes a committed journal: checks first that every target can end with its new bytes (its
 * staged file is there, or the target already holds them), renames the files still staged, makes
 * the renames durable, then checks every target's sha256 before removing the journal. Anything
 * short of exactly the journal's bytes keeps the journal and throws.
 */
async function rollForward(root: string, journal: Journal, passos?: Passos, preparadosAgora = false): Promise<number> {
  const antes = await unfinishable(root, journal, !preparadosAgora);
  if (antes.faltam.length > 0) throw new DiarioIrrecuperavelError(root, journal, antes.faltam, "perderam o arquivo preparado (ou ele não tem mais os bytes do diário) e não têm os bytes novos (sha256 do diário)");
  // a staged file that is not the journal's bytes, beside a target that already is: never renamed
  for (const staged of antes.descartar) await rm(staged, { force: true });
  let feitos = 0;
  const renamed: string[] = [];
  for (const { arquivo } of renomeacoes(journal)) {
    await passos?.antes({ tipo: "renomear", arquivo });
    const staged = join(root, STAGING_DIR, arquivo);
    const target = join(root, arquivo);
    // the rename first (one call for a file of an existing directory); its target's directory
    // made when it is missing; a staged file that is gone was renamed (checked above: its target
    // holds the new bytes)
    try {
      await rename(staged, target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
      if (!(await exists(staged))) continue;
      await mkdir(dirname(target), { recursive: true });
      await rename(staged, target);
    }
    renamed.push(target);
    feitos++;
  }
  // after every rename: a reader of the tree in between sees a file the old set had, never a
  // file of the new set missing; each removal is a step of its own, redone by a recovery (a file
  // already gone is one removed)
  const apagados: string[] = [];
  for (const { arquivo } of remocoes(journal)) {
    await passos?.antes({ tipo: "apagar", arquivo });
    const alvo = join(root, arquivo);
    await rm(alvo, { force: true });
    apagados.push(alvo);
    // the folders it leaves empty (a series' last file), up to the root: git keeps no empty folder
    for (let d = dirname(alvo); d !== root && d.startsWith(root + sep); d = dirname(d)) {
      try {
        await rmdir(d);
      } catch {
        break;
      }
    }
  }
  // the renames and removals must be durable before the journal that would redo them goes
  await syncDirsOf(root, [...renamed, ...apagados]);
  const depois: string[] = [];
  // in the commit that staged them, the renamed files hold the bytes this process wrote, hashed
  // and fsynced; in a recovery every target is read back whole (a staged file may have been
  // damaged in between, keeping its size)
  const agora = new Set(preparadosAgora ? renamed : []);
  for (const o of renomeacoes(journal)) {
    if (agora.has(join(root, o.arquivo))) continue;
    const t = await hashFile(join(root, o.arquivo));
    if (!t || t.sha256 !== o.sha256 || t.tamanho !== o.tamanho) depois.push(o.arquivo);
  }
  for (const o of remocoes(journal)) if (await exists(join(root, o.arquivo))) depois.push(o.arquivo);
  if (depois.length > 0) throw new DiarioIrrecuperavelError(root, journal, depois, "não ficaram com os bytes novos (sha256 do diário) depois das renomeações");
  await passos?.antes({ tipo: "diario_removido" });
  await rm(join(root, JOURNAL_NAME), { force: true });
  await syncDir(root);
  await passos?.antes({ tipo: "preparo_removido" });
  await rm(join(root, STAGING_DIR), { recursive: true, force: true });
  return feitos;
}

function validJournal(j: unknown): j is Journal {
  const x = j as Journal | null;
  return (
    !!x &&
    x.versao === 2 &&
    typeof x.pid === "number" &&
    typeof x.criado === "string" &&
    Array.isArray(x.operacoes) &&
    x.operacoes.every(
      (o) =>
        o &&
        typeof o.arquivo === "string" &&
        o.arquivo !== "" &&
        !o.arquivo.split(/[\\/]/).some((s) => s === ".." || s === "") &&
        !o.arquivo.startsWith(sep) &&
        (o.op === "apagar"
          ? Object.keys(o).length === 2 && !isControlPath(o.arquivo)
          : o.op === "renomear" && typeof o.sha256 === "string" && /^[0-9a-f]{64}$/.test(o.sha256) && Number.isSafeInteger(o.tamanho) && o.tamanho >= 0),
    )
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
    // the journal is renamed into place whole: an unreadable one was damaged by hand (or written
    // by an older version, without the hashes recovery checks)
    if (!validJournal(journal)) {
      throw new PipelineError({
        stage: "write",
        reason:
          `recuperação: o diário ${join(root, JOURNAL_NAME)} de uma publicação interrompida está ilegível; nada foi feito. ` +
          `${restaurar(root)} (apaga também ${JOURNAL_NAME} e ${STAGING_DIR}/), e rode o comando de novo`,
      });
    }
    const feitos = await rollForward(root, journal);
    said.push(
      `recuperação: publicação interrompida (PID ${journal.pid}, ${journal.criado}) concluída a partir do diário: ` +
        `${renomeacoes(journal).length} arquivo(s) no conjunto, ${feitos} substituído(s) agora` +
        (remocoes(journal).length > 0 ? `, ${remocoes(journal).length} arquivo(s) derivado(s) que o conjunto não tem mais apagado(s)` : ""),
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
