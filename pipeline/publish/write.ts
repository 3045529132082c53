import { mkdir, readFile, rm, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { PipelineError } from "../domain/errors.ts";
import type { RenderedFile } from "../render/json.ts";
import type { SerieReusada } from "../render/resumo.ts";

/**
 * One item of a published set: a file, or a series the run leaves as it is (its files are not
 * touched; its facts stand for it in the checks across files).
 */
export type ItemDoConjunto = RenderedFile | ArquivoEmBytes | SerieReusada;

/** A file already in bytes (the long CSV, assembled from the published file's blocks without decoding them). */
export interface ArquivoEmBytes {
  path: string;
  bytes: Buffer;
  doc?: unknown;
}
import { FileValidator } from "../validate/ajv.ts";
import { commitStaged, hashBytes, JOURNAL_NAME, Passos, QuedaSimulada, STAGING_DIR, writeDurable, writerDeTeste, type ArquivoPreparado } from "./journal.ts";
import { holdsDataLock, withDataLock } from "./lock.ts";

/**
 * True when the file on disk holds exactly these bytes: compared by size first, then whole (one
 * file at a time, so only the file being checked is held twice).
 */
async function sameBytes(file: string, bytes: Buffer): Promise<boolean> {
  try {
    if ((await stat(file)).size !== bytes.length) return false;
    return (await readFile(file)).equals(bytes);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw err;
  }
}

export interface PublishResult {
  /** files replaced or created, sorted */
  written: string[];
  unchanged: number;
  /** validation problems; when any, nothing was replaced */
  erros: string[];
}

/**
 * Publishes a whole set of files or none of it. Every file is validated (with the checks across
 * files) and the ones whose bytes differ from what is on disk are staged in a directory inside
 * the site root; only when the whole set is valid is it committed through a journal (journal.ts),
 * so a reader sees each file whole, an invalid set or a failed write (a full disk) replaces
 * nothing, and a run killed at any instant leaves the old set or the new set once the next
 * command recovers. Takes the data directory's lock unless this process holds it already.
 * Files are taken one at a time, so their texts need not all be in memory at once.
 */
export async function publishFiles(root: string, files: Iterable<ItemDoConjunto> | AsyncIterable<ItemDoConjunto>): Promise<PublishResult> {
  if (!holdsDataLock(root)) return withDataLock(root, { esperar: true, comando: "publicação" }, () => publishFiles(root, files));
  const passos = new Passos();
  const validator = new FileValidator();
  const staging = join(root, STAGING_DIR);
  const write = writerDeTeste() ?? writeDurable;
  const changed: ArquivoPreparado[] = [];
  let unchanged = 0;
  const discard = () => rm(staging, { recursive: true, force: true });
  // left by a run killed before its journal: never part of the site (withDataLock recovered it)
  await discard();
  let current = "";
  try {
    for await (const f of files) {
      if ("reusada" in f) {
        validator.reusada(f);
        continue;
      }
      current = f.path;
      const bytes = "bytes" in f ? f.bytes : Buffer.from(f.text, "utf8");
      validator.add(f.path, "bytes" in f ? f.bytes : f.text, f.doc, "bytes" in f ? undefined : f);
      if (await sameBytes(join(root, f.path), bytes)) {
        unchanged++;
        continue;
      }
      await passos.antes({ tipo: "preparar", arquivo: f.path });
      const staged = join(staging, f.path);
      await mkdir(dirname(staged), { recursive: true });
      await write(staged, bytes);
      // what recovery checks each target against (journal.ts)
      changed.push({ arquivo: f.path, ...hashBytes(bytes) });
    }
    current = "";
    const { erros } = validator.report();
    if (erros.length > 0) {
      await discard();
      return { written: [], unchanged, erros };
    }
    if (changed.length > 0) await commitStaged(root, changed, passos);
  } catch (err) {
    if (err instanceof QuedaSimulada) throw err;
    // the set itself could not be made (a stored file refused while rendering it): that error
    // as it is, and nothing of the set published
    if (err instanceof PipelineError && err.stage !== "write" && !(await hasCommitted(root))) {
      await discard().catch(() => {});
      throw err;
    }
    // before the journal is in place nothing of the set is published: discard it whole; after,
    // the journal stays and the next command finishes the publish
    if (!(await hasCommitted(root))) await discard().catch(() => {});
    throw new PipelineError({
      stage: "write",
      reason: `falha ao publicar${current ? ` ${current}` : ""} em ${root}: ${describeIoError(err)}; ${(await hasCommitted(root)) ? "a publicação foi confirmada e será concluída pelo próximo comando (npm run validate, build ou update)" : "nada foi publicado"}`,
      cause: err,
    });
  }
  return { written: changed.map((c) => c.arquivo).sort(), unchanged, erros: [] };
}

function describeIoError(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  if (e.code === "ENOSPC") return "sem espaço em disco (ENOSPC)";
  if (e.code === "EDQUOT") return "cota de disco excedida (EDQUOT)";
  if (e.code === "EACCES" || e.code === "EPERM") return `sem permissão de escrita (${e.code})`;
  return e.code ? `${e.code}: ${e.message}` : (e as Error).message;
}

const hasCommitted = (root: string) => stat(join(root, JOURNAL_NAME)).then(() => true, () => false);
