import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

export interface WriteReport {
  written: string[];
  unchanged: number;
}

async function current(file: string): Promise<string | null> {
  try {
    return await readFile(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

/**
 * Writes only the files whose bytes differ, each through a temp file in the same directory and a
 * rename, so a reader (or a crash) never sees half a file. The caller validates the whole set
 * first: nothing is replaced unless everything is valid.
 */
export async function writeChanged(root: string, files: ReadonlyMap<string, string>): Promise<WriteReport> {
  const changed: Array<[string, string]> = [];
  let unchanged = 0;
  for (const [rel, text] of files) {
    if ((await current(join(root, rel))) === text) unchanged++;
    else changed.push([rel, text]);
  }
  // stage every temp file first, then rename them all: a failure while staging replaces nothing
  const staged: Array<[string, string]> = [];
  try {
    for (const [rel, text] of changed) {
      const target = join(root, rel);
      await mkdir(dirname(target), { recursive: true });
      const tmp = `${target}.tmp-${process.pid}`;
      await writeFile(tmp, text, "utf8");
      staged.push([tmp, target]);
    }
  } catch (err) {
    await Promise.all(staged.map(([tmp]) => rm(tmp, { force: true })));
    throw err;
  }
  for (const [tmp, target] of staged) await rename(tmp, target);
  return { written: changed.map(([rel]) => rel).sort(), unchanged };
}
