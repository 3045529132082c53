/**
 * The set's big files staged in the copy thread (publish/copia.js `compararArquivo`, write.ts
 * `setArquivosEmThread`): the same published bytes, the same "unchanged" answers and the same
 * refusals as files staged in the publishing thread. The publish's fault suite runs through the
 * thread too: test/publish/journal-thread.test.ts, test/site/incremental-thread.test.ts.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PipelineError } from "../../pipeline/domain/errors.ts";
import { compararArquivo, gravarArquivo } from "../../pipeline/publish/copia.js";
import { STAGING_DIR } from "../../pipeline/publish/journal.ts";
import { publishFiles, setArquivosEmThread } from "../../pipeline/publish/write.ts";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cotacao-arquivo-thread-"));
});
afterEach(async () => {
  setArquivosEmThread(null);
  await rm(dir, { recursive: true, force: true });
});

describe("compararArquivo and gravarArquivo", () => {
  it("keeps a text that differs from the target, with its sha256 and size, and writes it when asked; nothing when it is the same", async () => {
    await writeFile(join(dir, "alvo.csv"), "data,valor\n2026-09-03,71.06\n");
    // same size, other bytes: compared whole
    const outro = "data,valor\n2026-09-03,71.07\n";
    expect(compararArquivo("a", outro, join(dir, "alvo.csv"))).toEqual({ sha256: createHash("sha256").update(outro).digest("hex"), tamanho: 28 });
    // nothing written before it is asked for
    expect(existsSync(join(dir, "a"))).toBe(false);
    expect(gravarArquivo("a", join(dir, "a"))).toEqual({ gravado: true });
    expect(await readFile(join(dir, "a"), "utf8")).toBe(outro);
    // once written, its bytes are let go
    expect(() => gravarArquivo("a", join(dir, "a2"))).toThrow(/nada a gravar/);
    expect(compararArquivo("b", "data,valor\n2026-09-03,71.06\n", join(dir, "alvo.csv"))).toEqual({ igual: true });
    expect(() => gravarArquivo("b", join(dir, "b"))).toThrow(/nada a gravar/);
    // UTF-8, as the publishing thread writes it; a target that does not exist
    expect(compararArquivo("c", "praça,São Paulo\n", join(dir, "nao-existe.csv"))).toMatchObject({ tamanho: Buffer.byteLength("praça,São Paulo\n") });
    gravarArquivo("c", join(dir, "c"));
    expect(await readFile(join(dir, "c"), "utf8")).toBe("praça,São Paulo\n");
  });

  it("never writes over a staged file", () => {
    compararArquivo("a", "a\n", join(dir, "alvo"));
    gravarArquivo("a", join(dir, "a"));
    compararArquivo("b", "b\n", join(dir, "alvo"));
    expect(() => gravarArquivo("b", join(dir, "a"))).toThrow(/EEXIST/);
  });
});

const conjunto = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ path: `dados/s${String(i).padStart(2, "0")}.txt`, text: `data,valor\n${"2026-09-03,71.06\n".repeat(i + 1)}` }));

async function arvore(root: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const e of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (e.isFile()) out.set(join(e.parentPath, e.name).slice(root.length + 1), await readFile(join(e.parentPath, e.name), "utf8"));
  }
  return out;
}

describe("publishFiles with every file staged in the thread", () => {
  it("publishes the same tree, and a second publish of the same set changes nothing", async () => {
    const aqui = join(dir, "aqui");
    const la = join(dir, "la");
    setArquivosEmThread(null);
    const r1 = await publishFiles(aqui, conjunto(30));
    setArquivosEmThread(0);
    const r2 = await publishFiles(la, conjunto(30));
    expect(r2).toEqual(r1);
    expect(r2.written).toHaveLength(30);
    expect(await arvore(la)).toEqual(await arvore(aqui));
    // the same set again: every file found equal by the thread; one changed file staged
    const mudado = conjunto(30);
    mudado[7]!.text += "2026-09-04,70.93\n";
    expect(await publishFiles(la, conjunto(30))).toEqual({ written: [], unchanged: 30, erros: [] });
    expect(await publishFiles(la, mudado)).toEqual({ written: [mudado[7]!.path], unchanged: 29, erros: [] });
    expect(await readFile(join(la, mudado[7]!.path), "utf8")).toBe(mudado[7]!.text);
    expect(existsSync(join(la, STAGING_DIR))).toBe(false);
  });

  it("an invalid set publishes nothing and leaves no staging behind", async () => {
    setArquivosEmThread(0);
    const site = join(dir, "site");
    await publishFiles(site, conjunto(3));
    const antes = await arvore(site);
    const ruim = [...conjunto(3).map((f) => ({ ...f, text: f.text + "2026-09-04,70.93\n" })), { path: "api/v1/status.json", text: "{}\n" }];
    const r = await publishFiles(site, ruim);
    expect(r.erros.length).toBeGreaterThan(0);
    expect(await arvore(site)).toEqual(antes);
    expect(existsSync(join(site, STAGING_DIR))).toBe(false);
  });

  it("a file the thread cannot stage fails the set, naming it, and nothing is published", async () => {
    setArquivosEmThread(0);
    const site = join(dir, "site");
    await publishFiles(site, conjunto(3));
    const antes = await arvore(site);
    // a name past the filesystem's limit: its directory is made, the file cannot be opened
    const longo = `dados/${"x".repeat(300)}.txt`;
    const err = await publishFiles(site, [...conjunto(3).map((f) => ({ ...f, text: f.text + "2026-09-04,70.93\n" })), { path: longo, text: "data,valor\n" }]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PipelineError);
    expect((err as PipelineError).stage).toBe("write");
    expect((err as PipelineError).message).toContain(longo);
    expect((err as PipelineError).message).toMatch(/ENAMETOOLONG/);
    expect((err as PipelineError).message).toMatch(/nada foi publicado/);
    expect(await arvore(site)).toEqual(antes);
    expect(existsSync(join(site, STAGING_DIR))).toBe(false);
  });
});
