/**
 * Files in parts (the long CSV) copied in a thread (publish/copia.js): the same bytes, hashes and
 * refusals as a copy made in the publishing thread, and a run that copies in the thread writes
 * what a full rebuild writes.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PipelineError } from "../../pipeline/domain/errors.ts";
import { copiarPartes, type TrechoCopiado } from "../../pipeline/publish/copia.js";
import { STAGING_DIR } from "../../pipeline/publish/journal.ts";
import { publishFiles, setCopiaEmThread, TrechoDivergente } from "../../pipeline/publish/write.ts";
import { runBuild } from "../../pipeline/run/build.ts";
import { setLimiteDoLongoEmMemoria } from "../../pipeline/site/assemble.ts";
import { cleanup, editPage, listFiles, replay, replayDir, tempSite, testConfig } from "../helpers/pipeline.ts";

const sha = (b: Buffer | string) => createHash("sha256").update(b).digest("hex");

describe("copiarPartes", () => {
  let dir: string;
  let a: string;
  const texto = "milho,milho,,false,cepea,sc60kg,BRL,2026-09-03,71.06\n".repeat(2000);
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "cotacao-copia-"));
    a = join(dir, "a.csv");
    await writeFile(a, `cabecalho\n${texto}fim\n`);
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const trecho = (over: Partial<TrechoCopiado> = {}): TrechoCopiado => ({ de: a, inicio: 10, bytes: Buffer.byteLength(texto), sha256: sha(texto), rotulo: "o bloco de milho", ...over });

  it("gives the sha256 of the whole, each copied range's hash where it lands, and the ends of each range", () => {
    const pedacos: Buffer[] = [];
    const r = copiarPartes([Buffer.from("cab\n"), trecho(), Buffer.from("novo\n")], (b) => pedacos.push(Buffer.from(b)));
    const todo = Buffer.concat(pedacos);
    expect(todo.toString()).toBe(`cab\n${texto}novo\n`);
    if (!("sha256" in r)) throw new Error("cópia recusada");
    expect({ ...r, pedacos: r.pedacos.map((p) => ({ inicio: p.inicio, texto: Buffer.from(p.bytes).toString() })) }).toEqual({
      sha256: sha(todo),
      tamanho: todo.length,
      pedacos: [
        { inicio: 4, texto: texto.slice(0, 256) },
        { inicio: 4 + texto.length - 1, texto: "\n" },
      ],
      copiados: [[`4-${4 + texto.length}`, sha(texto)]],
    });
  });

  it("stops at a range whose bytes are not the recorded ones, or that the file no longer holds", () => {
    const emitidos: number[] = [];
    expect(copiarPartes([Buffer.from("x"), trecho({ sha256: sha(texto.replace("71.06", "71.07")) })], (b) => emitidos.push(b.length))).toEqual({ divergente: 1 });
    expect(copiarPartes([trecho({ inicio: 10 + texto.length })], () => {})).toEqual({ divergente: 0 });
  });
});

describe("publishFiles copying a file in parts in its thread", () => {
  let root: string;
  let fonte: string;
  const bloco = "soja,soja,PR,true,,cepea,sc60kg,BRL,2026-09-04,160.87\n".repeat(500);
  beforeEach(async () => {
    setCopiaEmThread(0);
    root = await mkdtemp(join(tmpdir(), "cotacao-copia-pub-"));
    fonte = join(root, "velho.bin");
    await writeFile(fonte, `xx${bloco}yy`);
  });
  afterEach(async () => {
    setCopiaEmThread(null);
    await rm(root, { recursive: true, force: true });
  });

  const partes = (over: Partial<TrechoCopiado> = {}) => [Buffer.from("inicio\n"), { de: fonte, inicio: 2, bytes: bloco.length, sha256: sha(bloco), rotulo: "o bloco de soja em dados/partes.csv", ...over }, Buffer.from("fim\n")];

  it("writes the bytes of the parts, and on a second run with the same bytes writes nothing", async () => {
    const r = await publishFiles(root, [{ path: "dados/partes.csv", partes: partes() }]);
    expect(r).toEqual({ written: ["dados/partes.csv"], unchanged: 0, erros: [] });
    expect(await readFile(join(root, "dados/partes.csv"), "utf8")).toBe(`inicio\n${bloco}fim\n`);
    const de_novo = await publishFiles(root, [{ path: "dados/partes.csv", partes: partes() }]);
    expect(de_novo).toEqual({ written: [], unchanged: 1, erros: [] });
    expect(existsSync(join(root, STAGING_DIR))).toBe(false);
  });

  it("refuses the set when a copied range is not what the last publish wrote, naming it, and publishes nothing", async () => {
    await writeFile(join(root, "outro.json"), "{}\n");
    const err = await publishFiles(root, [
      { path: "dados/partes.csv", partes: partes({ sha256: sha(bloco.replace("160.87", "160.88")) }) },
      { path: "outro.json", text: '{"novo":1}\n' },
    ]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TrechoDivergente);
    expect((err as Error).message).toContain("o bloco de soja em dados/partes.csv não é o que a última publicação escreveu");
    expect(existsSync(join(root, "dados/partes.csv"))).toBe(false);
    expect(await readFile(join(root, "outro.json"), "utf8")).toBe("{}\n");
    expect(existsSync(join(root, STAGING_DIR))).toBe(false);
  });

  it("turns a failure inside the thread into the write stage's error, naming the file, and publishes nothing", async () => {
    const err = await publishFiles(root, [
      { path: "dados/partes.csv", partes: partes({ de: join(root, "nao-existe.bin") }) },
      { path: "outro.json", text: "{}\n" },
    ]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PipelineError);
    expect((err as PipelineError).stage).toBe("write");
    expect((err as Error).message).toMatch(/falha ao publicar dados\/partes\.csv em .*: ENOENT.*nada foi publicado/);
    expect(existsSync(join(root, "outro.json"))).toBe(false);
    expect(existsSync(join(root, STAGING_DIR))).toBe(false);
  });
});

describe("runs that copy the long file in the thread", () => {
  const NOW1 = "2026-09-26T20:00:00-03:00";
  const NOW2 = "2026-09-28T20:00:00-03:00";
  const ENTRADA = /^(api\/v1\/cotacao\/[a-z_]+(\/[A-Z]{2})?\.json|api\/v1\/status\.json|api\/v1\/eventos\.json|api\/v1\/capturas\/\d{4}\.json)$/;
  let pages: string;
  let base: string;
  const dirs: string[] = [];
  const novo = async () => {
    const d = await tempSite();
    dirs.push(d);
    return d;
  };
  const tree = async (dir: string) => {
    const out = new Map<string, string>();
    for (const f of await listFiles(dir)) out.set(relative(dir, f), sha(await readFile(f)));
    return out;
  };
  const soEntradas = async (de: string, para: string) => {
    for (const f of await listFiles(de)) {
      const rel = relative(de, f);
      if (ENTRADA.test(rel)) await cp(f, join(para, rel), { recursive: true });
    }
  };

  beforeAll(async () => {
    pages = await replayDir();
    base = await novo();
    await replay(pages, base, NOW1);
  }, 120_000);

  afterAll(async () => {
    setCopiaEmThread(null);
    setLimiteDoLongoEmMemoria(null);
    await cleanup(pages, ...dirs);
  });

  it("an update copying in the thread, and a build with its blocks put aside and copied in the thread, write what a full rebuild writes", async () => {
    const inc = await novo();
    await cp(base, inc, { recursive: true });
    const paginas = await replayDir();
    dirs.push(paginas);
    await editPage(paginas, "cepea/milho.html", (h) =>
      h.replace(/(<table id="imagenet-indicador1"[\s\S]*?<tbody>)/, "$1<tr><td>08/09/2026</td><td>71,10</td><td>0,24%</td><td>1,24%</td><td>13,86</td></tr>"),
    );
    setCopiaEmThread(0);
    let r;
    try {
      r = await replay(paginas, inc, NOW2);
    } finally {
      setCopiaEmThread(null);
    }
    expect(r.log.join("\n")).not.toContain("todas as séries serão geradas de novo");
    expect(r.written).toContain("api/v1/historico.csv");

    const cheia = await novo();
    await soEntradas(inc, cheia);
    await runBuild(testConfig(cheia), new Date(NOW2));
    const deLado = await novo();
    await soEntradas(inc, deLado);
    setCopiaEmThread(0);
    setLimiteDoLongoEmMemoria(0);
    try {
      await runBuild(testConfig(deLado), new Date(NOW2));
    } finally {
      setCopiaEmThread(null);
      setLimiteDoLongoEmMemoria(null);
    }
    const esperado = await tree(cheia);
    expect(esperado.has("api/v1/historico.csv")).toBe(true);
    expect(await tree(inc)).toEqual(esperado);
    expect(await tree(deLado)).toEqual(esperado);
  }, 120_000);
});
