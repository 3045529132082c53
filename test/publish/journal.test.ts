/**
 * All-or-nothing publishing: a publish stopped at every one of its steps (as a kill would stop
 * it: nothing cleaned up) leaves, once the next command recovers, exactly the old set or exactly
 * the new set; a full disk changes nothing and leaves nothing behind.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  descreverPasso,
  JOURNAL_NAME,
  QuedaSimulada,
  recoverInterrupted,
  setFalhasDePublicacao,
  STAGING_DIR,
  type Passo,
} from "../../pipeline/publish/journal.ts";
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

/** Every file under dir, dotfiles included, with its bytes. */
async function snapshot(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const full = join(e.parentPath, e.name);
    out.set(relative(dir, full).split(sep).join("/"), await readFile(full, "utf8"));
  }
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : 1)));
}

async function siteWith(files: Map<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "cotacao-journal-"));
  for (const [rel, text] of files) {
    await mkdir(join(dir, rel, ".."), { recursive: true });
    await writeFile(join(dir, rel), text);
  }
  return dir;
}

const dirs: string[] = [];
afterEach(async () => {
  setFalhasDePublicacao({});
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe("a publish stopped at any step", () => {
  let passos: Passo[];
  beforeEach(async () => {
    // the steps of an uninterrupted publish of NEW over OLD
    passos = [];
    setFalhasDePublicacao({ antes: (p) => void passos.push(p) });
    const dir = await siteWith(OLD);
    dirs.push(dir);
    const r = await publishFiles(dir, rendered(NEW));
    expect(r.written).toEqual(["api/v1/historico/bezerro.csv", "api/v1/historico/milho.csv", "api/v1/historico/soja.csv"]);
    expect(await snapshot(dir)).toEqual(NEW);
    setFalhasDePublicacao({});
  });

  it("has the steps of the journal's shape: stage all, write and commit the journal, rename, clean up", () => {
    expect(passos.map(descreverPasso)).toEqual([
      "preparar api/v1/historico/milho.csv",
      "preparar api/v1/historico/soja.csv",
      "preparar api/v1/historico/bezerro.csv",
      "diario_escrito",
      "diario_confirmado",
      "renomear api/v1/historico/milho.csv",
      "renomear api/v1/historico/soja.csv",
      "renomear api/v1/historico/bezerro.csv",
      "diario_removido",
      "preparo_removido",
    ]);
  });

  it("at every step k: after recovery the tree is byte for byte the old set (before the commit point) or the new set (after)", async () => {
    const commit = passos.findIndex((p) => p.tipo === "diario_confirmado");
    for (let k = 0; k < passos.length; k++) {
      const dir = await siteWith(OLD);
      dirs.push(dir);
      setFalhasDePublicacao({
        antes: (_p, i) => {
          if (i === k) throw new QuedaSimulada(i);
        },
      });
      await expect(publishFiles(dir, rendered(NEW)), `passo ${k}`).rejects.toBeInstanceOf(QuedaSimulada);
      setFalhasDePublicacao({});
      const log: string[] = [];
      // the next command: takes the lock, which recovers first
      await withDataLock(dir, { esperar: false, log: (l) => log.push(l) }, async () => {});
      const after = await snapshot(dir);
      const expected = k <= commit ? OLD : NEW;
      expect(after, `queda no passo ${k} (${descreverPasso(passos[k]!)})`).toEqual(expected);
      // one line saying what was done, when there was anything to do
      const said = log.join("\n");
      if (k === 0) expect(said).toBe("");
      else if (k <= commit) expect(said, `passo ${k}`).toMatch(/^recuperação: publicação interrompida antes de confirmada descartada \(\d+ arquivo\(s\) preparado\(s\) removido\(s\)\); o site ficou como estava$/);
      else if (k < passos.length - 1) expect(said, `passo ${k}`).toMatch(/^recuperação: publicação interrompida \(PID \d+, [^)]+\) concluída a partir do diário: 3 arquivo\(s\) no conjunto, \d substituído\(s\) agora$/);
      else expect(said).toBe("recuperação: restos vazios de uma publicação já concluída removidos");
      // and the same publish again lands on the new set, with nothing left over
      const again = await publishFiles(dir, rendered(NEW));
      expect(again.erros).toEqual([]);
      expect(await snapshot(dir), `republicação após o passo ${k}`).toEqual(NEW);
    }
  });

  it("a staging directory without a journal is discarded, and recovery is then a no-op", async () => {
    const dir = await siteWith(OLD);
    dirs.push(dir);
    await mkdir(join(dir, STAGING_DIR, "api/v1/historico"), { recursive: true });
    await writeFile(join(dir, STAGING_DIR, "api/v1/historico/milho.csv"), "meio arquivo");
    expect(await recoverInterrupted(dir)).toMatch(/descartada \(1 arquivo\(s\) preparado\(s\) removido\(s\)\)/);
    expect(await snapshot(dir)).toEqual(OLD);
    expect(await recoverInterrupted(dir)).toBeNull();
  });

  it("an unreadable journal stops everything with a message saying how to restore", async () => {
    const dir = await siteWith(OLD);
    dirs.push(dir);
    await writeFile(join(dir, JOURNAL_NAME), "{ nao e json");
    await expect(recoverInterrupted(dir)).rejects.toThrow(/diário .* ilegível; nada foi feito\. Restaure o site com "git checkout --/);
  });
});

describe("a full disk", () => {
  it("ENOSPC while staging: nothing changes, the error names the stage and the file, nothing is left behind", async () => {
    const dir = await siteWith(OLD);
    dirs.push(dir);
    let n = 0;
    setFalhasDePublicacao({
      // the second staged file gets half its bytes, then the disk is full
      writeFile: async (file, data) => {
        if (++n === 2) {
          await writeFile(file, data.subarray(0, data.length >> 1));
          throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
        }
        await writeFile(file, data);
      },
    });
    const err = await publishFiles(dir, rendered(NEW)).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe(`[write] falha ao publicar api/v1/historico/soja.csv em ${dir}: sem espaço em disco (ENOSPC); nada foi publicado`);
    expect(await snapshot(dir)).toEqual(OLD);
    expect(await readdir(dir)).toEqual(["api", "index.html"]);
  });

  it("a temp file of a live run is never removed; one of a dead run is", async () => {
    const dir = await siteWith(OLD);
    dirs.push(dir);
    const live = join(dir, `api/v1/historico/milho.csv.tmp-${process.ppid}`);
    const dead = join(dir, "api/v1/historico/soja.csv.tmp-999999999");
    await writeFile(live, "de uma execução viva");
    await writeFile(dead, "de uma execução morta");
    expect(await recoverInterrupted(dir)).toMatch(/1 arquivo\(s\) temporário\(s\) de execuções mortas removido\(s\) \(api\/v1\/historico\/soja\.csv\.tmp-999999999\)/);
    expect((await snapshot(dir)).has(`api/v1/historico/milho.csv.tmp-${process.ppid}`)).toBe(true);
    expect((await snapshot(dir)).has("api/v1/historico/soja.csv.tmp-999999999")).toBe(false);
  });
});
