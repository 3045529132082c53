/**
 * Files in parts (the long CSV) copied in a thread (publish/copia.js): the same bytes, hashes and
 * refusals as a copy made in the publishing thread (runs that copy in the thread write what a full
 * rebuild writes: test/site/rascunho.test.ts).
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PipelineError } from "../../pipeline/domain/errors.ts";
import { copiarPartes, type TrechoCopiado } from "../../pipeline/publish/copia.js";
import { STAGING_DIR } from "../../pipeline/publish/journal.ts";
import { publishFiles, setCopiaEmThread, TrechoDivergente } from "../../pipeline/publish/write.ts";

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
