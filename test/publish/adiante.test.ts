/**
 * A publish compares and hashes files ahead of staging them (publish/write.ts `adiante`: the
 * comparison with the published file and the sha256 run in libuv's pool while the set goes on),
 * yet stages each file only after its step and records the sha256 of exactly the bytes staged.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PipelineError } from "../../pipeline/domain/errors.ts";
import { JOURNAL_NAME, QuedaSimulada, setFalhasDePublicacao, STAGING_DIR, type Passo } from "../../pipeline/publish/journal.ts";
import { publishFiles } from "../../pipeline/publish/write.ts";
import { REPO_ROOT } from "../../pipeline/config.ts";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cotacao-adiante-"));
});
afterEach(async () => {
  setFalhasDePublicacao({});
  await rm(dir, { recursive: true, force: true });
});

const sha = (t: string | Buffer) => createHash("sha256").update(t).digest("hex");

/** 30 files of about 230 KB: more than the publish holds ahead (4 MB), so it waits for them as it goes. */
const conjunto = () =>
  Array.from({ length: 30 }, (_, i) => ({ path: `dados/s${String(i).padStart(2, "0")}.txt`, text: `praça ${i},São Paulo\n${"2026-09-03,71.06\n".repeat(14000 + i)}` }));

async function arvore(root: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const e of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (e.isFile()) out.set(join(e.parentPath, e.name).slice(root.length + 1), await readFile(join(e.parentPath, e.name), "utf8"));
  }
  return out;
}

describe("files compared and hashed ahead", () => {
  it("publishes every file; the same set again changes nothing; one changed file is the only one written", async () => {
    const r = await publishFiles(dir, conjunto());
    expect(r).toEqual({ written: conjunto().map((f) => f.path), unchanged: 0, erros: [] });
    expect(await arvore(dir)).toEqual(new Map(conjunto().map((f) => [f.path, f.text])));
    expect(await publishFiles(dir, conjunto())).toEqual({ written: [], unchanged: 30, erros: [] });
    const mudado = conjunto();
    // same size, other bytes: compared whole
    mudado[17]!.text = mudado[17]!.text.replace("71.06\n", "71.07\n");
    expect(await publishFiles(dir, mudado)).toEqual({ written: [mudado[17]!.path], unchanged: 29, erros: [] });
    expect(await readFile(join(dir, mudado[17]!.path), "utf8")).toBe(mudado[17]!.text);
    expect(existsSync(join(dir, STAGING_DIR))).toBe(false);
  });

  it("stages each file only after its step, and the journal records the sha256 of the bytes staged", async () => {
    const passos: Passo[] = [];
    let noPasso: Map<string, string> | null = null;
    setFalhasDePublicacao({
      antes: async (p, k) => {
        passos.push(p);
        if (p.tipo === "preparar") {
          // at a file's step: the files before it are staged, it and the ones after are not
          const preparados = existsSync(join(dir, STAGING_DIR)) ? [...(await arvore(join(dir, STAGING_DIR))).keys()].sort() : [];
          expect(preparados, `passo ${k}`).toEqual(conjunto().map((f) => f.path).slice(0, k));
        }
        // the journal in place, nothing renamed yet
        if (p.tipo === "renomear") {
          noPasso = await arvore(join(dir, STAGING_DIR));
          throw new QuedaSimulada(k);
        }
      },
    });
    await expect(publishFiles(dir, conjunto())).rejects.toBeInstanceOf(QuedaSimulada);
    expect(passos.filter((p) => p.tipo === "preparar").map((p) => ("arquivo" in p ? p.arquivo : ""))).toEqual(conjunto().map((f) => f.path));
    const journal = JSON.parse(await readFile(join(dir, JOURNAL_NAME), "utf8")) as { operacoes: Array<{ arquivo: string; sha256: string; tamanho: number }> };
    expect(journal.operacoes.map((o) => [o.arquivo, o.sha256, o.tamanho])).toEqual(conjunto().map((f) => [f.path, sha(f.text), Buffer.byteLength(f.text)]));
    expect(noPasso).toEqual(new Map(conjunto().map((f) => [f.path, f.text])));
  });

  it("a file that cannot be staged fails the set, naming it, and nothing is published", async () => {
    await publishFiles(dir, conjunto());
    const antes = await arvore(dir);
    // a name past the filesystem's limit: its directory is made, the file cannot be opened
    const longo = `dados/${"x".repeat(300)}.txt`;
    const err = await publishFiles(dir, [...conjunto().map((f) => ({ ...f, text: `${f.text}2026-09-04,70.93\n` })), { path: longo, text: "data,valor\n" }]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PipelineError);
    expect((err as PipelineError).stage).toBe("write");
    expect((err as PipelineError).message).toContain(longo);
    expect((err as PipelineError).message).toMatch(/ENAMETOOLONG/);
    expect((err as PipelineError).message).toMatch(/nada foi publicado/);
    expect(await arvore(dir)).toEqual(antes);
    expect(existsSync(join(dir, STAGING_DIR))).toBe(false);
  });

  it("compares thousands of small files with the published ones under a low ulimit -n (no EMFILE: only a few are open ahead)", async () => {
    // 2000 files of 500 bytes fit in the bytes held ahead many times over: before the cap on
    // files ahead, each comparison opened its published file at once and the run failed with EMFILE
    const saida = await new Promise<{ codigo: number | null; out: string; err: string }>((resolve, reject) => {
      const filho = spawn("bash", ["-c", 'ulimit -n 128 && exec "$0" --import tsx test/publish/muitos-arquivos-filho.ts "$1"', process.execPath, dir], { cwd: REPO_ROOT, stdio: "pipe" });
      let out = "";
      let err = "";
      filho.stdout.on("data", (d) => (out += d));
      filho.stderr.on("data", (d) => (err += d));
      filho.on("error", reject);
      filho.on("exit", (codigo) => resolve({ codigo, out, err }));
    });
    expect(saida.err).toBe("");
    expect(saida.codigo).toBe(0);
    expect(JSON.parse(saida.out)).toEqual({ written: 1000, unchanged: 1000, erros: [] });
    expect(await readFile(join(dir, "d/f1999.txt"), "utf8")).toBe(`${"praça 1999\n".repeat(50)}71.06\n`);
  }, 60_000);
});
