/**
 * Review of 937a692/557e5da (publish/write.ts: files compared and hashed ahead, staged in order
 * after their step). The set now goes on (the generator resumes) before a file's bytes are
 * staged, and a later file's comparison is awaited before an earlier file's write:
 * - a file given in bytes (ArquivoEmBytes) whose Buffer its producer reuses after yielding it
 *   is hashed for the journal as it was, and staged as it became (before, the publish was done
 *   with an item before it asked for the next one);
 * - an earlier file's failed write (a full disk) is hidden by a later file's failed comparison:
 *   the error names the later file and its cause.
 * Temp dirs only.
 */
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PipelineError } from "../../pipeline/domain/errors.ts";
import { JOURNAL_NAME, QuedaSimulada, setFalhasDePublicacao, STAGING_DIR } from "../../pipeline/publish/journal.ts";
import { publishFiles, type ItemDoConjunto } from "../../pipeline/publish/write.ts";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cotacao-review-adiante-"));
});
afterEach(async () => {
  setFalhasDePublicacao({});
  await rm(dir, { recursive: true, force: true });
});

const sha = (t: string | Buffer) => createHash("sha256").update(t).digest("hex");

describe("review: files compared and hashed ahead of their staging", () => {
  it("a file in bytes whose buffer is reused after it was handed over: the journal's sha256 is the staged bytes'", async () => {
    async function* conjunto(): AsyncGenerator<ItemDoConjunto> {
      const buf = Buffer.from("original\n");
      yield { path: "dados/a.txt", bytes: buf };
      // the producer reuses its buffer for what comes next (same length)
      buf.write("MUDADO!!\n");
      yield { path: "dados/b.txt", text: "b\n" };
    }
    // stop with the journal in place, before any rename: what it records vs what is staged
    setFalhasDePublicacao({
      antes: (p, k) => {
        if (p.tipo === "renomear") throw new QuedaSimulada(k);
      },
    });
    await expect(publishFiles(dir, conjunto())).rejects.toBeInstanceOf(QuedaSimulada);
    const journal = JSON.parse(await readFile(join(dir, JOURNAL_NAME), "utf8")) as { operacoes: Array<{ arquivo: string; sha256: string; tamanho: number }> };
    const op = journal.operacoes.find((o) => o.arquivo === "dados/a.txt")!;
    const staged = await readFile(join(dir, STAGING_DIR, "dados/a.txt"));
    // before 937a692 the file was staged before the generator resumed: "original\n", and its hash
    expect(op.sha256).toBe(sha(staged));
    expect(staged.toString("utf8")).toBe("original\n");
  });

  it("an earlier file's failed write is the error, not a later file's failed comparison", async () => {
    // the later file's target is a directory of the size of its bytes: comparing them fails (EISDIR)
    await mkdir(join(dir, "dados", "b.txt"), { recursive: true });
    const tamanho = (await stat(join(dir, "dados", "b.txt"))).size;
    setFalhasDePublicacao({
      writeFile: async (file, data) => {
        if (file.endsWith("a.txt")) throw Object.assign(new Error("no space left on device"), { code: "ENOSPC" });
        await writeFile(file, data, { flag: "wx" });
      },
    });
    const err = await publishFiles(dir, [
      { path: "dados/a.txt", text: "a\n" },
      { path: "dados/b.txt", text: "x".repeat(tamanho) },
    ]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PipelineError);
    // before 937a692: "falha ao publicar dados/a.txt em ...: sem espaço em disco (ENOSPC); nada foi publicado"
    expect((err as PipelineError).message).toContain("dados/a.txt");
    expect((err as PipelineError).message).toMatch(/ENOSPC/);
  });
});
