/**
 * What was wrong: the file cache's guard that a file's entries only move forward compared the
 * bytes a request read with what the file's own path named when it finished. From a journal's
 * commit point the server reads the new set from the staged copies, so a request that opened the
 * old target just before the commit (a 30-year series is megabytes, read in chunks) still found
 * its path naming the old file when it finished (the renames come later), and installed the old
 * bytes over the new entry another request had just installed from the staged copy and served.
 * A client got milho's last day at 350.10 (new, staged), then 347.70 again from the
 * same process for up to a second: a published price taken back.
 *
 * Now what a read installs is checked, at the instant it is installed, against where the set
 * names that file then (the journal's staged copy, or the path).
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { QuedaSimulada, setFalhasDePublicacao } from "../../pipeline/publish/journal.ts";
import { publishFiles } from "../../pipeline/publish/write.ts";
import { FileCache } from "../../pipeline/serve/files.ts";

const dirs: string[] = [];
afterEach(async () => {
  setFalhasDePublicacao({});
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** A history: its last day's price, after enough days to be read in many chunks. */
function serie(valor: number, dias: number): string {
  return `data,valor\n${"2026-01-01,300.00\n".repeat(dias)}2026-09-04,${valor}\n`;
}
const valorDe = (r: Awaited<ReturnType<FileCache["resolve"]>>) => (r.kind === "file" ? Number(r.entry.body.toString("utf8").trimEnd().split(",").pop()) : null);

describe("the file cache while a publish commits its journal under a read", () => {
  it("never hands out the old bytes of a file after the new staged ones", async () => {
    const rel = "api/v1/historico/milho.csv";
    let aplicaveis = 0;
    for (let vez = 0; vez < 8 && aplicaveis < 3; vez++) {
      const root = await mkdtemp(join(tmpdir(), "cotacao-diario-corrida-"));
      dirs.push(root);
      await mkdir(join(root, "api/v1/historico"), { recursive: true });
      // old: a long history (about 45 MB), read in many chunks
      await writeFile(join(root, rel), serie(347.7, 2_500_000));
      // one clock instant: every resolve below is within the recheck interval of the others
      const files = new FileCache(root, { now: () => 1000, maxBytes: 1 << 30 });
      // the publish, held just before its commit point (everything staged and on disk), killed before its first rename
      let soltar!: () => void;
      const solto = new Promise<void>((r) => (soltar = r));
      let noPonto!: () => void;
      const chegou = new Promise<void>((r) => (noPonto = r));
      setFalhasDePublicacao({
        antes: async (p, k) => {
          if (p.tipo === "diario_confirmado") {
            noPonto();
            await solto;
          }
          if (p.tipo === "renomear") throw new QuedaSimulada(k);
        },
      });
      const publicacao = publishFiles(root, [{ path: rel, text: serie(350.1, 1) }]);
      await chegou;
      let terminou = false;
      const primeiro = files.resolve(rel).then((r) => ((terminou = true), r));
      // the first request has opened the old file and is reading it
      await new Promise((r) => setTimeout(r, 5));
      soltar();
      await expect(publicacao).rejects.toBeInstanceOf(QuedaSimulada);
      setFalhasDePublicacao({});
      // the first read done before the commit is the old set served for its second, not this race
      if (terminou) {
        await primeiro;
        continue;
      }
      aplicaveis++;
      expect(valorDe(await files.resolve(rel))).toBe(350.1);
      await primeiro;
      // a later request of the same process: the new price, never the old one again
      expect(valorDe(await files.resolve(rel)), `vez ${vez}`).toBe(350.1);
    }
    expect(aplicaveis).toBeGreaterThan(0);
  });
});
