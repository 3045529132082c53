/**
 * Review of 6791417 (the long file copied in a thread, publish/copia.js + write.ts Copiador):
 * what a publish that fails while the thread is copying leaves behind, and the scratch file's end.
 * Both checks pass (kept as regressions). Temp dirs only.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readlinkSync, statSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { STAGING_DIR } from "../../pipeline/publish/journal.ts";
import { publishFiles, setCopiaEmThread, type ItemDoConjunto, type TrechoCopiado } from "../../pipeline/publish/write.ts";
import { runBuild } from "../../pipeline/run/build.ts";
import { setLimiteDoLongoEmMemoria } from "../../pipeline/site/assemble.ts";
import { rascunhoDoLongo } from "../../pipeline/site/store.ts";
import { cleanup, replay, replayDir, tempSite, testConfig } from "../helpers/pipeline.ts";

const sha = (b: Buffer | string) => createHash("sha256").update(b).digest("hex");

/** Open file descriptors of this process whose target lies under `dir` ("(deleted)" included). */
function fdsSob(dir: string): string[] {
  const out: string[] = [];
  for (const fd of readdirSync("/proc/self/fd")) {
    let alvo: string;
    try {
      alvo = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      continue;
    }
    if (alvo.startsWith(dir)) out.push(`${fd} -> ${alvo}`);
  }
  return out;
}

describe.skipIf(process.platform !== "linux")("review: a publish that fails while the thread copies the file in parts", () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "cotacao-review-copia-"));
  });
  afterEach(async () => {
    setCopiaEmThread(null);
    await rm(root, { recursive: true, force: true });
  });

  it("leaves no file descriptor open on the discarded staged file nor on the copied source (sound: Node closes a terminated worker's fds)", async () => {
    // many small ranges: the thread takes a while to copy them, so the set can fail meanwhile
    const linha = "soja,soja,PR,true,,cepea,sc60kg,BRL,2026-09-04,1\n";
    const n = 150_000;
    const fonte = join(root, "velho.csv");
    await writeFile(fonte, linha.repeat(n));
    const h = sha(linha);
    const partes: TrechoCopiado[] = [];
    for (let i = 0; i < n; i++) partes.push({ de: fonte, inicio: i * linha.length, bytes: linha.length, sha256: h, rotulo: `linha ${i}` });
    const total = n * linha.length;
    const staged = join(root, STAGING_DIR, "dados/longo.csv");
    let meioDaCopia = false;
    async function* conjunto(): AsyncGenerator<ItemDoConjunto> {
      yield { path: "dados/longo.csv", partes };
      // wait (no timing assert) until the thread has started writing, then fail the set while it copies
      for (let i = 0; i < 20_000 && !(existsSync(staged) && statSync(staged).size > 0); i++) await new Promise((r) => setTimeout(r, 1));
      meioDaCopia = existsSync(staged) && statSync(staged).size > 0 && statSync(staged).size < total;
      throw new Error("falha simulada ao gerar o arquivo seguinte");
    }
    setCopiaEmThread(0);
    const err = await publishFiles(root, conjunto()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toContain("nada foi publicado");
    // precondition: the set failed while the copy was under way
    expect(meioDaCopia).toBe(true);
    expect(existsSync(join(root, STAGING_DIR))).toBe(false);
    // the thread is terminated inside copiarPartes' loop (its `finally` never runs): the staged
    // file (deleted) and the source must not stay open, holding the disk space, until the process ends
    expect(fdsSob(root)).toEqual([]);
  }, 60_000);
});

describe("review: the scratch file of new blocks outlives montarSite", () => {
  it("is gone after a build that puts every block aside and copies in the thread, whether it writes files or none", async () => {
    const pages = await replayDir();
    const site = await tempSite();
    try {
      await replay(pages, site, "2026-09-26T20:00:00-03:00");
      let visto = false;
      const { setFalhasDePublicacao } = await import("../../pipeline/publish/journal.ts");
      setFalhasDePublicacao({ antes: (p) => void (p.tipo === "diario_escrito" || p.tipo === "preparar" ? (visto ||= existsSync(rascunhoDoLongo(site))) : undefined) });
      setLimiteDoLongoEmMemoria(0);
      setCopiaEmThread(0);
      try {
        await rm(join(site, "api/v1/historico.csv"));
        const r1 = await runBuild(testConfig(site), new Date("2026-09-26T20:00:00-03:00"));
        expect(r1.written).toContain("api/v1/historico.csv");
        expect(visto).toBe(true);
        expect(existsSync(join(site, STAGING_DIR))).toBe(false);
        const r2 = await runBuild(testConfig(site), new Date("2026-09-26T20:00:00-03:00"));
        expect(r2.written).toEqual([]);
        expect(existsSync(join(site, STAGING_DIR))).toBe(false);
      } finally {
        setFalhasDePublicacao({});
        setLimiteDoLongoEmMemoria(null);
        setCopiaEmThread(null);
      }
    } finally {
      await cleanup(pages, site);
    }
  }, 180_000);
});
