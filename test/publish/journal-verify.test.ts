/**
 * Recovery checks bytes, not presence: the journal records each file's sha256 and size, a missing
 * staged file counts as renamed only when its target holds exactly the new bytes, and a journal
 * that cannot be finished is kept and makes every later command refuse to run until the site is
 * restored with git.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../pipeline/config.ts";
import { DiarioIrrecuperavelError, JOURNAL_NAME, QuedaSimulada, setFalhasDePublicacao, STAGING_DIR, type Journal } from "../../pipeline/publish/journal.ts";
import { withDataLock } from "../../pipeline/publish/lock.ts";
import { publishFiles } from "../../pipeline/publish/write.ts";

const OLD = new Map([
  ["api/v1/historico/milho.csv", "data,valor\n2026-09-03,71.06\n"],
  ["api/v1/historico/soja.csv", "data,valor\n2026-09-24,161.84\n"],
  ["index.html", "<!doctype html><title>Cotação Aberta</title>\n"],
]);
const NEW = new Map([
  ["api/v1/historico/milho.csv", "data,valor\n2026-09-03,71.06\n2026-09-04,70.93\n"],
  ["api/v1/historico/soja.csv", "data,valor\n2026-09-24,161.84\n2026-09-25,161\n"],
  ["api/v1/historico/bezerro.csv", "data,valor\n2026-09-25,3426.02\n"],
  ["index.html", "<!doctype html><title>Cotação Aberta</title>\n"],
]);
const rendered = (m: Map<string, string>) => [...m].map(([path, text]) => ({ path, text }));
const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

async function snapshot(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const full = join(e.parentPath, e.name);
    out.set(relative(dir, full).split(sep).join("/"), await readFile(full, "utf8"));
  }
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : 1)));
}

const dirs: string[] = [];
async function siteWith(files: Map<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "cotacao-journal-verify-"));
  dirs.push(dir);
  for (const [rel, text] of files) {
    await mkdir(join(dir, rel, ".."), { recursive: true });
    await writeFile(join(dir, rel), text);
  }
  return dir;
}

afterEach(async () => {
  setFalhasDePublicacao({});
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** Publishes NEW over OLD and stops (as a kill would) just before the rename of `arquivo`. */
async function stoppedBeforeRenameOf(arquivo: string): Promise<string> {
  const dir = await siteWith(OLD);
  setFalhasDePublicacao({
    antes: (p, k) => {
      if (p.tipo === "renomear" && p.arquivo === arquivo) throw new QuedaSimulada(k);
    },
  });
  await expect(publishFiles(dir, rendered(NEW))).rejects.toBeInstanceOf(QuedaSimulada);
  setFalhasDePublicacao({});
  return dir;
}

/** The next command: takes the lock (which recovers first) and runs nothing of its own when that fails. */
async function nextCommand(dir: string): Promise<{ ran: boolean; err: unknown }> {
  let ran = false;
  const err = await withDataLock(dir, { esperar: false }, async () => {
    ran = true;
  }).then(
    () => null,
    (e: unknown) => e,
  );
  return { ran, err };
}

describe("the journal", () => {
  it("records the sha256 and size of every file it renames", async () => {
    const dir = await stoppedBeforeRenameOf("api/v1/historico/milho.csv");
    const journal = JSON.parse(await readFile(join(dir, JOURNAL_NAME), "utf8")) as Journal;
    expect(journal.versao).toBe(2);
    expect(journal.operacoes).toEqual(
      ["api/v1/historico/milho.csv", "api/v1/historico/soja.csv", "api/v1/historico/bezerro.csv"].map((arquivo) => ({
        op: "renomear",
        arquivo,
        sha256: sha256(NEW.get(arquivo)!),
        tamanho: Buffer.byteLength(NEW.get(arquivo)!),
      })),
    );
  });
});

describe("recovery of a journal whose staged files are gone", () => {
  it("fails naming the files and how to restore, keeps the journal, writes nothing, and every later command refuses", async () => {
    // milho renamed, soja and bezerro still staged when the run died; then the staging directory is lost
    const dir = await stoppedBeforeRenameOf("api/v1/historico/soja.csv");
    await rm(join(dir, STAGING_DIR), { recursive: true, force: true });
    const before = await snapshot(dir);
    expect(before.get("api/v1/historico/milho.csv")).toBe(NEW.get("api/v1/historico/milho.csv"));
    expect(before.get("api/v1/historico/soja.csv")).toBe(OLD.get("api/v1/historico/soja.csv"));

    const first = await nextCommand(dir);
    expect(first.ran).toBe(false);
    expect(first.err).toBeInstanceOf(DiarioIrrecuperavelError);
    const msg = (first.err as Error).message;
    expect(msg).toMatch(/^\[write\] recuperação: a publicação interrompida \(PID \d+, [^)]+\) não pode ser concluída: 2 de 3 arquivo\(s\) do diário perderam o arquivo preparado \(ou ele não tem mais os bytes do diário\) e não têm os bytes novos/);
    expect(msg).toContain("api/v1/historico/soja.csv, api/v1/historico/bezerro.csv");
    // milho has its new bytes: not named
    expect(msg).not.toContain("milho");
    expect(msg).toContain(`o diário ${JOURNAL_NAME} foi mantido`);
    expect(msg).toContain(`Restaure o site com "git checkout -- `);
    expect(msg).toMatch(/git checkout -- (\S+) && git clean -fdx -- \1"/);
    expect((first.err as DiarioIrrecuperavelError).arquivos).toEqual(["api/v1/historico/soja.csv", "api/v1/historico/bezerro.csv"]);
    // nothing written, nothing removed: the lock released, the journal in place
    expect(await snapshot(dir)).toEqual(before);
    expect(existsSync(join(dir, JOURNAL_NAME))).toBe(true);

    // every later command refuses the same way: a publish and a second command
    await expect(publishFiles(dir, rendered(NEW))).rejects.toThrow(/não pode ser concluída: 2 de 3 arquivo\(s\)/);
    const second = await nextCommand(dir);
    expect(second.ran).toBe(false);
    expect((second.err as Error).message).toBe(msg);
    expect(await snapshot(dir)).toEqual(before);

    // restored (what "git checkout && git clean -fdx" does to this tree): the next publish lands on the new set
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir);
    for (const [rel, text] of OLD) {
      await mkdir(join(dir, rel, ".."), { recursive: true });
      await writeFile(join(dir, rel), text);
    }
    expect((await nextCommand(dir)).ran).toBe(true);
    await publishFiles(dir, rendered(NEW));
    expect(await snapshot(dir)).toEqual(NEW);
  });

  it("npm run validate refuses with the message and exits non-zero", async () => {
    const dir = await stoppedBeforeRenameOf("api/v1/historico/soja.csv");
    await rm(join(dir, STAGING_DIR), { recursive: true, force: true });
    const r = spawnSync(process.execPath, ["--import", "tsx", join(REPO_ROOT, "pipeline/cli/validate.ts"), dir], { encoding: "utf8", cwd: REPO_ROOT, env: { ...process.env, NO_COLOR: "1" } });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("não pode ser concluída: 2 de 3 arquivo(s) do diário perderam o arquivo preparado");
    expect(r.stderr).toContain("git clean -fdx -- ");
    expect(existsSync(join(dir, JOURNAL_NAME))).toBe(true);
  });

  it("one staged file gone whose target already has the new bytes is a finished rename: recovery completes", async () => {
    const dir = await stoppedBeforeRenameOf("api/v1/historico/soja.csv");
    // milho's staged file is already gone (renamed); soja's and bezerro's are still there
    expect(await readdir(join(dir, STAGING_DIR, "api/v1/historico"))).toEqual(expect.arrayContaining(["soja.csv", "bezerro.csv"]));
    expect((await nextCommand(dir)).err).toBeNull();
    expect(await snapshot(dir)).toEqual(NEW);
  });

  it("a staged file of the wrong size is refused before any rename: the targets keep their bytes", async () => {
    const dir = await stoppedBeforeRenameOf("api/v1/historico/soja.csv");
    await writeFile(join(dir, STAGING_DIR, "api/v1/historico/bezerro.csv"), "meio");
    const before = await snapshot(dir);
    const { ran, err } = await nextCommand(dir);
    expect(ran).toBe(false);
    expect((err as DiarioIrrecuperavelError).arquivos).toEqual(["api/v1/historico/bezerro.csv"]);
    // soja was still staged and intact, yet not renamed: recovery writes nothing once it knows it cannot finish
    expect(await snapshot(dir)).toEqual(before);
  });

  it("a staged file of the right size but other bytes is refused before any rename: its damaged bytes never reach the tree", async () => {
    const dir = await stoppedBeforeRenameOf("api/v1/historico/soja.csv");
    const staged = join(dir, STAGING_DIR, "api/v1/historico/soja.csv");
    const text = await readFile(staged, "utf8");
    // soja's new last line "2026-09-25,161" becomes "2026-09-25,999": same size, other bytes
    await writeFile(staged, text.replace(/161\n$/, "999\n"));
    expect(await readFile(staged, "utf8")).not.toBe(text);
    expect((await readFile(staged)).length).toBe(Buffer.byteLength(text));
    const before = await snapshot(dir);
    const { ran, err } = await nextCommand(dir);
    expect(ran).toBe(false);
    expect(err).toBeInstanceOf(DiarioIrrecuperavelError);
    expect((err as DiarioIrrecuperavelError).arquivos).toEqual(["api/v1/historico/soja.csv"]);
    expect((err as Error).message).toContain("1 de 3 arquivo(s) do diário perderam o arquivo preparado (ou ele não tem mais os bytes do diário) e não têm os bytes novos (sha256 do diário): api/v1/historico/soja.csv");
    // nothing renamed: soja keeps its old bytes (never 999), bezerro is still only staged
    expect(await snapshot(dir)).toEqual(before);
    expect(before.get("api/v1/historico/soja.csv")).toBe(OLD.get("api/v1/historico/soja.csv"));
    expect(existsSync(join(dir, JOURNAL_NAME))).toBe(true);
    expect((await nextCommand(dir)).ran).toBe(false);
  });

  it("a damaged staged file beside a target that already holds the journal's bytes is removed, never renamed over it", async () => {
    const dir = await stoppedBeforeRenameOf("api/v1/historico/soja.csv");
    // milho was renamed before the run died; a staged milho.csv of the same size but other bytes
    // turns up (a copy restored by hand, a tool replaying the staging directory)
    const novo = NEW.get("api/v1/historico/milho.csv")!;
    await writeFile(join(dir, STAGING_DIR, "api/v1/historico/milho.csv"), novo.replace("70.93", "99.99"));
    expect((await nextCommand(dir)).err).toBeNull();
    expect(await snapshot(dir)).toEqual(NEW);
  });

  it("a journal of an older version (no hashes) is refused as unreadable, with the restore command", async () => {
    const dir = await siteWith(OLD);
    await writeFile(join(dir, JOURNAL_NAME), JSON.stringify({ versao: 1, pid: 1, criado: "2026-09-27T12:00:00.000Z", operacoes: [{ op: "renomear", arquivo: "index.html" }] }));
    const { ran, err } = await nextCommand(dir);
    expect(ran).toBe(false);
    expect((err as Error).message).toMatch(/ilegível; nada foi feito\. Restaure o site com "git checkout -- \S+ && git clean -fdx -- \S+"/);
  });
});
