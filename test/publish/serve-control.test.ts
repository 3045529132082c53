/** The server never serves the data directory's lock, an interrupted publish's files, nor temp files. */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FileCache } from "../../pipeline/serve/files.ts";

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "cotacao-serve-control-"));
  await mkdir(join(root, "api/v1"), { recursive: true });
  await mkdir(join(root, ".cotacao-staging/api/v1"), { recursive: true });
  for (const f of ["api/v1/cotacao.json", "api/v1/cotacao.json.tmp-4242", ".cotacao.lock", ".cotacao-journal.json", ".cotacao-staging/api/v1/cotacao.json"]) {
    await writeFile(join(root, f), "{}");
  }
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe("FileCache and control files", () => {
  it("resolves the site's file and none of the control or temp files", async () => {
    const files = new FileCache(root);
    expect((await files.resolve("api/v1/cotacao.json")).kind).toBe("file");
    for (const rel of ["api/v1/cotacao.json.tmp-4242", ".cotacao.lock", ".cotacao-journal.json", ".cotacao-staging/api/v1/cotacao.json", ".cotacao-staging"]) {
      expect((await files.resolve(rel)).kind, rel).toBe("missing");
    }
  });
});
