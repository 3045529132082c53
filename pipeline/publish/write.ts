import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { RenderedFile } from "../render/site.ts";
import { FileValidator } from "../validate/ajv.ts";

/** The temp file a write goes through, beside its target (removed if a run dies: removeLeftovers). */
export function tempPath(target: string): string {
  return `${target}.tmp-${process.pid}`;
}

/** One file replaced whole: written beside its target, then renamed over it. */
export async function writeAtomic(target: string, data: string | Buffer): Promise<void> {
  await mkdir(dirname(target), { recursive: true });
  const tmp = tempPath(target);
  try {
    await writeFile(tmp, data);
    await rename(tmp, target);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

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
 * Validates every file, stages the ones whose bytes differ from what is on disk (a temp file in
 * the target's directory), and only when the whole set is valid renames the staged files into
 * place: a reader, or a crash, never sees half a file, and an invalid set replaces nothing.
 * Files are taken one at a time, so their texts need not all be in memory at once.
 */
export async function publishFiles(root: string, files: Iterable<RenderedFile>): Promise<PublishResult> {
  await removeLeftovers(root);
  const validator = new FileValidator();
  const staged: Array<[tmp: string, target: string, rel: string]> = [];
  let unchanged = 0;
  const discard = () => Promise.all(staged.map(([tmp]) => rm(tmp, { force: true })));
  try {
    for (const f of files) {
      validator.add(f.path, f.text, f.doc);
      const target = join(root, f.path);
      const bytes = Buffer.from(f.text, "utf8");
      if (await sameBytes(target, bytes)) {
        unchanged++;
        continue;
      }
      await mkdir(dirname(target), { recursive: true });
      const tmp = tempPath(target);
      await writeFile(tmp, bytes);
      staged.push([tmp, target, f.path]);
    }
  } catch (err) {
    await discard();
    throw err;
  }
  const { erros } = validator.report();
  if (erros.length > 0) {
    await discard();
    return { written: [], unchanged, erros };
  }
  for (const [tmp, target] of staged) await rename(tmp, target);
  return { written: staged.map(([, , rel]) => rel).sort(), unchanged, erros: [] };
}

const TEMP = /\.tmp-\d+$/;

/** Temp files a killed run left behind, so they are never deployed with the site. */
async function removeLeftovers(root: string): Promise<void> {
  let entries;
  try {
    entries = await readdir(root, { recursive: true, withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return;
    throw err;
  }
  for (const e of entries) {
    if (e.isFile() && TEMP.test(e.name)) await rm(join(e.parentPath, e.name), { force: true });
  }
}
