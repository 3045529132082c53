/**
 * What was wrong: a publish killed among its renames (after its journal, the commit point) leaves
 * the tree half old, half new until the next command (update, build, validate) finishes it from
 * the journal. The server kept serving that tree as it was: milho.csv with the new day
 * (2026-09-04, 70.93) beside soja.csv without its new day (2026-09-25, 161), a mix of two
 * publishes, for as long as no command ran (hours, between two scheduled updates).
 *
 * Now the server reads a committed journal as the publish it is: each file it lists is served
 * from its staged copy while that is still there (its sha256 checked against the journal), so
 * readers see the whole new set from the commit point on; without a journal, or before it is
 * committed, the old set.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { JOURNAL_NAME, QuedaSimulada, recoverInterrupted, setFalhasDePublicacao, STAGING_DIR } from "../../pipeline/publish/journal.ts";
import { withDataLock } from "../../pipeline/publish/lock.ts";
import { publishFiles } from "../../pipeline/publish/write.ts";
import { FileCache } from "../../pipeline/serve/files.ts";

const OLD = {
  "api/v1/historico/milho.csv": "data,valor\n2026-09-03,71.06\n",
  "api/v1/historico/soja.csv": "data,valor\n2026-09-24,161.84\n",
};
const NEW = {
  "api/v1/historico/milho.csv": "data,valor\n2026-09-03,71.06\n2026-09-04,70.93\n",
  "api/v1/historico/soja.csv": "data,valor\n2026-09-24,161.84\n2026-09-25,161\n",
  "api/v1/historico/bezerro.csv": "data,valor\n2026-09-25,3426.02\n",
};

const dirs: string[] = [];
afterEach(async () => {
  setFalhasDePublicacao({});
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function site(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "cotacao-leitura-diario-"));
  dirs.push(root);
  for (const [rel, text] of Object.entries(OLD)) {
    await mkdir(join(root, rel, ".."), { recursive: true });
    await writeFile(join(root, rel), text);
  }
  return root;
}

/** Publishes NEW, stopped (as a kill would) before the step `parar` says. */
async function publicarAte(root: string, parar: (tipo: string, n: number) => boolean): Promise<void> {
  const vistos = new Map<string, number>();
  setFalhasDePublicacao({
    antes: (p, k) => {
      const n = (vistos.get(p.tipo) ?? 0) + 1;
      vistos.set(p.tipo, n);
      if (parar(p.tipo, n)) throw new QuedaSimulada(k);
    },
  });
  await expect(publishFiles(root, Object.entries(NEW).map(([path, text]) => ({ path, text })))).rejects.toBeInstanceOf(QuedaSimulada);
  setFalhasDePublicacao({});
}

async function servido(files: FileCache): Promise<Record<string, string | null>> {
  const out: Record<string, string | null> = {};
  for (const rel of Object.keys(NEW)) {
    const r = await files.resolve(rel);
    out[rel] = r.kind === "file" ? r.entry.body.toString("utf8") : null;
  }
  return out;
}

describe("the server while a publish is left between its commit and its last rename", () => {
  it("serves the whole new set, never milho's new day beside soja's old one", async () => {
    const root = await site();
    // killed at its second rename: milho.csv renamed, soja.csv and bezerro.csv still staged
    await publicarAte(root, (tipo, n) => tipo === "renomear" && n === 2);
    expect(await readFile(join(root, "api/v1/historico/soja.csv"), "utf8")).toBe(OLD["api/v1/historico/soja.csv"]);
    let agora = 0;
    const files = new FileCache(root, { now: () => agora });
    expect(await servido(files)).toEqual(NEW);
    // the next command finishes the publish: the same bytes, the same entries
    const antes = await files.resolve("api/v1/historico/soja.csv");
    await withDataLock(root, { esperar: true, comando: "teste" }, () => recoverInterrupted(root));
    agora += 5000;
    expect(await servido(files)).toEqual(NEW);
    const depois = await files.resolve("api/v1/historico/soja.csv");
    expect(depois.kind === "file" && antes.kind === "file" && depois.entry === antes.entry).toBe(true);
  });

  it("serves the old set before the commit point, and never a staged file damaged since", async () => {
    const root = await site();
    // the journal written but not yet renamed into place: nothing is published
    await publicarAte(root, (tipo) => tipo === "diario_confirmado");
    const files = new FileCache(root);
    expect(await servido(files)).toEqual({ ...OLD, "api/v1/historico/bezerro.csv": null });

    const outro = await site();
    await publicarAte(outro, (tipo, n) => tipo === "renomear" && n === 1);
    expect(JSON.parse(await readFile(join(outro, JOURNAL_NAME), "utf8")).operacoes).toHaveLength(3);
    // soja's staged copy damaged by hand, keeping its size: its old bytes are served, not the damage
    const soja = join(outro, STAGING_DIR, "api/v1/historico/soja.csv");
    await writeFile(soja, NEW["api/v1/historico/soja.csv"].replace("161\n", "999\n"));
    const r = await new FileCache(outro).resolve("api/v1/historico/soja.csv");
    expect(r.kind === "file" && r.entry.body.toString()).toBe(OLD["api/v1/historico/soja.csv"]);
  });
});
