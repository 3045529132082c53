/**
 * What was wrong: the server's file cache (pipeline/serve/files.ts) could go back to the old
 * bytes of a file after handing out the new ones. Two requests resolving the same file while a
 * publish renamed a new version over it: the first opened the old file (a 30-year series is
 * megabytes, read in 512 KB chunks) before the rename, the second stat'ed and read the new one
 * after it and finished first; the first then installed the old bytes over the new entry. A
 * client got `cotacao/boi_gordo/SP.json` with 350.10 (new), then, for up to a second (until the
 * next recheck), 347.70 again from the same process, with its matching ETag and length: a
 * published number taken back. The same held for every answer derived from that file (query
 * routes keep answers ready per cached entry).
 *
 * Also: the cache told a file unchanged by its mtime and size only; a file replaced by another
 * of the same size and mtime (a copy that keeps times) kept the old bytes until evicted. The
 * inode is compared too (every publish renames, so the inode always changes).
 */
import { mkdir, mkdtemp, rename, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FileCache } from "../../pipeline/serve/files.ts";

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "cotacao-leitura-cache-"));
  await mkdir(join(root, "api/v1/cotacao/boi_gordo"), { recursive: true });
});
afterAll(() => rm(root, { recursive: true, force: true }));

/** A series file: its last price, and a history long enough to be read in many chunks. */
function serie(valor: number, dias: number): string {
  const linha = `{"data":"2026-01-01","valor":${valor},"fonte":"scot","praca":"São Paulo"},`;
  return `{"produto":"boi_gordo","uf":"SP","valor":${valor},"historico":[${linha.repeat(dias)}{"data":"2026-09-04","valor":${valor}}]}`;
}
const valorDe = (body: Buffer) => JSON.parse(body.toString("utf8")).valor as number;

describe("the file cache while a publish renames files under it", () => {
  it("never hands out the old bytes of a file after the new ones", async () => {
    const rel = "api/v1/cotacao/boi_gordo/SP.json";
    const alvo = join(root, rel);
    for (let vez = 0; vez < 3; vez++) {
      // old: a long history (about 40 MB); new: a short file of the next publish
      await writeFile(alvo, serie(347.7, 400_000));
      // one clock instant: every resolve below is within the recheck interval of the others
      const files = new FileCache(root, { now: () => 1000, maxBytes: 1 << 30 });
      const primeiro = files.resolve(rel);
      // the first request has opened the old file and is reading it
      await new Promise((r) => setTimeout(r, 5));
      await writeFile(`${alvo}.novo`, serie(350.1, 1));
      await rename(`${alvo}.novo`, alvo);
      const segundo = await files.resolve(rel);
      expect(segundo.kind === "file" && valorDe(segundo.entry.body)).toBe(350.1);
      await primeiro;
      // a later request of the same process: the new price, never the old one again
      const terceiro = await files.resolve(rel);
      expect(terceiro.kind === "file" && valorDe(terceiro.entry.body), `vez ${vez}`).toBe(350.1);
      if (terceiro.kind === "file") {
        const { createHash } = await import("node:crypto");
        expect(terceiro.entry.etag).toBe(`"${createHash("sha1").update(terceiro.entry.body).digest("base64url")}"`);
      }
    }
  });

  it("tells a replaced file by its inode, not only its mtime and size", async () => {
    const rel = "api/v1/cotacao.json";
    const alvo = join(root, rel);
    await writeFile(alvo, '{"boi_gordo_cepea_sp":347.70}');
    const mtime = new Date("2026-09-04T21:00:00Z");
    await utimes(alvo, mtime, mtime);
    let agora = 0;
    const files = new FileCache(root, { now: () => agora });
    const velho = await files.resolve(rel);
    expect(velho.kind === "file" && velho.entry.body.toString()).toBe('{"boi_gordo_cepea_sp":347.70}');
    // same size, same mtime, another file renamed over it
    await writeFile(`${alvo}.novo`, '{"boi_gordo_cepea_sp":350.10}');
    await utimes(`${alvo}.novo`, mtime, mtime);
    await rename(`${alvo}.novo`, alvo);
    agora += 5000;
    const novo = await files.resolve(rel);
    expect(novo.kind === "file" && novo.entry.body.toString()).toBe('{"boi_gordo_cepea_sp":350.10}');
  });
});
