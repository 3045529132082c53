import { createHash } from "node:crypto";
import { closeSync, openSync, readSync } from "node:fs";
import { mkdir, open, readFile, rm, stat, type FileHandle } from "node:fs/promises";
import { dirname, join } from "node:path";
import { PipelineError } from "../domain/errors.ts";
import type { RenderedFile } from "../render/json.ts";
import type { SerieReusada } from "../render/resumo.ts";

/**
 * One item of a published set: a file, or a series the run leaves as it is (its files are not
 * touched; its facts stand for it in the checks across files).
 */
export type ItemDoConjunto = RenderedFile | ArquivoEmBytes | ArquivoEmPartes | BlocoNovo | SerieReusada;

/**
 * A new block of the long file, handed to the checks as it is rendered: the run then puts it
 * aside on disk (a full build's blocks are most of the long file's 75 MB), and the long file's
 * bytes at its place must hash the same as what was checked.
 */
export interface BlocoNovo {
  blocoNovo: string;
  texto: string;
}

/** A file already in bytes (the long CSV, assembled from the published file's blocks without decoding them). */
export interface ArquivoEmBytes {
  path: string;
  bytes: Buffer;
  doc?: unknown;
}
/**
 * A file written from its parts (the long CSV): new bytes, and byte ranges of a published file
 * copied as they are, each checked against the sha256 the last publish recorded for it while it
 * is copied. Streamed into the staging directory, so neither the old file nor the new one is
 * ever held whole.
 */
export interface ArquivoEmPartes {
  path: string;
  partes: ReadonlyArray<Buffer | TrechoCopiado>;
  doc?: unknown;
}

/** A byte range of a published file, copied into a new one. */
export interface TrechoCopiado {
  /** absolute path of the file it is copied from */
  de: string;
  inicio: number;
  bytes: number;
  /** hex sha256 the range must have (the facts of the publish that wrote it) */
  sha256: string;
  /** what the range is, for the error ("o bloco de milho em api/v1/historico.csv") */
  rotulo: string;
}

/**
 * A copied range is not what the last publish wrote (a file edited by hand keeping its size):
 * nothing of the set is published, and the run renders every series instead of copying.
 */
export class TrechoDivergente extends PipelineError {
  constructor(readonly trecho: TrechoCopiado) {
    super({ stage: "merge", reason: `${trecho.rotulo} não é o que a última publicação escreveu (sha256 diferente do registrado nos fatos)` });
    this.name = "TrechoDivergente";
  }
}

/** How much of a copied range is read at a time. */
const PEDACO = 4 << 20;

/** How much of each copied range's start the checks can see (a series id and its comma). */
const CABECA = 256;

/**
 * Stages a file from its parts into `staged` (durably, as writeDurable does) and returns the
 * sha256 and size the journal records, and the bytes the checks may look at. Each copied range
 * is hashed as it is read and refused (TrechoDivergente) when it is not the recorded one.
 * With the test writer set, the file is assembled in memory and handed to it.
 */
async function prepararEmPartes(staged: string | null, f: ArquivoEmPartes, escrever: ((file: string, data: Buffer) => Promise<void>) | undefined): Promise<{ sha256: string; tamanho: number; vista: BytesDoLongo }> {
  const todo = createHash("sha256");
  const pedacos: Array<{ inicio: number; bytes: Buffer }> = [];
  /** what each copied range hashed to, by "inicio-fim" in the new file */
  const copiados = new Map<string, string>();
  const emMemoria: Buffer[] = [];
  let out: FileHandle | null = null;
  let pos = 0;
  const fontes = new Map<string, number>();
  // each piece is written while the next is read and hashed: two buffers, taken in turn, and a
  // buffer is read into again only once its write has finished
  const buffers = [Buffer.allocUnsafe(PEDACO), Buffer.allocUnsafe(PEDACO)];
  let vez = 0;
  let escrita: Promise<unknown> = Promise.resolve();
  const emitir = async (b: Buffer) => {
    todo.update(b);
    if (staged === null) return;
    if (escrever) {
      emMemoria.push(Buffer.from(b));
      return;
    }
    await escrita;
    escrita = out!.write(b, 0, b.length, null);
  };
  try {
    if (staged !== null && !escrever) out = await open(staged, "wx");
    for (const parte of f.partes) {
      if (Buffer.isBuffer(parte)) {
        pedacos.push({ inicio: pos, bytes: parte });
        await emitir(parte);
        pos += parte.length;
        continue;
      }
      let fonte = fontes.get(parte.de);
      if (fonte === undefined) {
        // read with blocking calls: the file is in the page cache after the last publish, and
        // nothing else of the run waits on these reads
        fonte = openSync(parte.de, "r");
        fontes.set(parte.de, fonte);
      }
      const h = createHash("sha256");
      let lido = 0;
      while (lido < parte.bytes) {
        await escrita;
        const buf = buffers[vez++ % 2]!;
        const bytesRead = readSync(fonte, buf, 0, Math.min(buf.length, parte.bytes - lido), parte.inicio + lido);
        if (bytesRead === 0) throw new TrechoDivergente(parte);
        const b = buf.subarray(0, bytesRead);
        h.update(b);
        if (lido === 0) pedacos.push({ inicio: pos, bytes: Buffer.from(b.subarray(0, Math.min(CABECA, bytesRead))) });
        if (lido + bytesRead === parte.bytes) pedacos.push({ inicio: pos + parte.bytes - 1, bytes: Buffer.from(b.subarray(bytesRead - 1)) });
        await emitir(b);
        lido += bytesRead;
      }
      const sha = h.digest("hex");
      if (sha !== parte.sha256) throw new TrechoDivergente(parte);
      copiados.set(`${pos}-${pos + parte.bytes}`, sha);
      pos += parte.bytes;
    }
    await escrita;
    if (out) {
      await out.sync();
    } else if (staged !== null && escrever) {
      await escrever(staged, Buffer.concat(emMemoria));
    }
  } finally {
    await escrita.catch(() => {});
    await out?.close();
    for (const fd of fontes.values()) closeSync(fd);
  }
  const tamanho = pos;
  const achar = (i: number) => pedacos.find((p) => i >= p.inicio && i < p.inicio + p.bytes.length);
  const vista: BytesDoLongo = {
    length: tamanho,
    at: (i) => {
      const p = achar(i);
      return p ? p.bytes[i - p.inicio] : undefined;
    },
    texto: (inicio, fim) => {
      if (fim <= inicio) return "";
      const p = achar(inicio);
      if (!p || fim > p.inicio + p.bytes.length) return null;
      return p.bytes.toString("utf8", inicio - p.inicio, fim - p.inicio);
    },
    sha256De: (inicio, fim) => copiados.get(`${inicio}-${fim}`) ?? null,
  };
  return { sha256: todo.digest("hex"), tamanho, vista };
}

/** sha256 of a whole file, read a piece at a time; null when it does not exist. */
async function hashDoArquivo(file: string): Promise<string | null> {
  let fh: FileHandle;
  try {
    fh = await open(file, "r");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
  try {
    const h = createHash("sha256");
    const buf = Buffer.allocUnsafe(PEDACO);
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      h.update(buf.subarray(0, bytesRead));
    }
    return h.digest("hex");
  } finally {
    await fh.close();
  }
}
import { FileValidator } from "../validate/ajv.ts";
import type { BytesDoLongo } from "../validate/dados.ts";
import { commitStaged, hashBytes, JOURNAL_NAME, Passos, QuedaSimulada, STAGING_DIR, writeDurable, writerDeTeste, type ArquivoPreparado } from "./journal.ts";
import { holdsDataLock, withDataLock } from "./lock.ts";

/**
 * True when the file on disk holds exactly these bytes: compared by size first, then whole (one
 * file at a time, so only the file being checked is held twice).
 */
async function sameBytes(file: string, bytes: Buffer): Promise<boolean> {
  try {
    if ((await stat(file)).size !== bytes.length) return false;
    return (await readFile(file)).equals(bytes);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw err;
  }
}

export interface PublishResult {
  /** files replaced or created, sorted */
  written: string[];
  unchanged: number;
  /** validation problems; when any, nothing was replaced */
  erros: string[];
}

/**
 * Publishes a whole set of files or none of it. Every file is validated (with the checks across
 * files) and the ones whose bytes differ from what is on disk are staged in a directory inside
 * the site root; only when the whole set is valid is it committed through a journal (journal.ts),
 * so a reader sees each file whole, an invalid set or a failed write (a full disk) replaces
 * nothing, and a run killed at any instant leaves the old set or the new set once the next
 * command recovers. Takes the data directory's lock unless this process holds it already.
 * Files are taken one at a time, so their texts need not all be in memory at once.
 */
export async function publishFiles(root: string, files: Iterable<ItemDoConjunto> | AsyncIterable<ItemDoConjunto>): Promise<PublishResult> {
  if (!holdsDataLock(root)) return withDataLock(root, { esperar: true, comando: "publicação" }, () => publishFiles(root, files));
  const passos = new Passos();
  const validator = new FileValidator();
  const staging = join(root, STAGING_DIR);
  const write = writerDeTeste() ?? writeDurable;
  const changed: ArquivoPreparado[] = [];
  let unchanged = 0;
  const discard = () => rm(staging, { recursive: true, force: true });
  // left by a run killed before its journal: never part of the site (withDataLock recovered it)
  await discard();
  let current = "";
  try {
    for await (const f of files) {
      if ("reusada" in f) {
        validator.reusada(f);
        continue;
      }
      if ("blocoNovo" in f) {
        validator.blocoNovo(f.blocoNovo, f.texto);
        continue;
      }
      current = f.path;
      if ("partes" in f) {
        // the target's size tells most runs apart; a file of the same size is compared by its hash
        const tamanho = f.partes.reduce((a, p) => a + (Buffer.isBuffer(p) ? p.length : p.bytes), 0);
        const alvo = join(root, f.path);
        const atual = await stat(alvo).then((st) => st.size, (err: NodeJS.ErrnoException) => {
          if (err.code === "ENOENT") return null;
          throw err;
        });
        // a file of the same size may be the published one: hashed (and its copied ranges
        // checked) without writing, and staged only when it differs
        if (atual === tamanho) {
          const visto = await prepararEmPartes(null, f, undefined);
          if ((await hashDoArquivo(alvo)) === visto.sha256) {
            validator.add(f.path, visto.vista, f.doc);
            unchanged++;
            continue;
          }
        }
        await passos.antes({ tipo: "preparar", arquivo: f.path });
        const staged = join(staging, f.path);
        await mkdir(dirname(staged), { recursive: true });
        const feito = await prepararEmPartes(staged, f, writerDeTeste());
        validator.add(f.path, feito.vista, f.doc);
        changed.push({ arquivo: f.path, sha256: feito.sha256, tamanho: feito.tamanho });
        continue;
      }
      const bytes = "bytes" in f ? f.bytes : Buffer.from(f.text, "utf8");
      validator.add(f.path, "bytes" in f ? f.bytes : f.text, f.doc, "bytes" in f ? undefined : f);
      if (await sameBytes(join(root, f.path), bytes)) {
        unchanged++;
        continue;
      }
      await passos.antes({ tipo: "preparar", arquivo: f.path });
      const staged = join(staging, f.path);
      await mkdir(dirname(staged), { recursive: true });
      await write(staged, bytes);
      // what recovery checks each target against (journal.ts)
      changed.push({ arquivo: f.path, ...hashBytes(bytes) });
    }
    current = "";
    const { erros } = validator.report();
    if (erros.length > 0) {
      await discard();
      return { written: [], unchanged, erros };
    }
    if (changed.length > 0) await commitStaged(root, changed, passos);
  } catch (err) {
    if (err instanceof QuedaSimulada) throw err;
    // the set itself could not be made (a stored file refused while rendering it): that error
    // as it is, and nothing of the set published
    if (err instanceof PipelineError && err.stage !== "write" && !(await hasCommitted(root))) {
      await discard().catch(() => {});
      throw err;
    }
    // before the journal is in place nothing of the set is published: discard it whole; after,
    // the journal stays and the next command finishes the publish
    if (!(await hasCommitted(root))) await discard().catch(() => {});
    throw new PipelineError({
      stage: "write",
      reason: `falha ao publicar${current ? ` ${current}` : ""} em ${root}: ${describeIoError(err)}; ${(await hasCommitted(root)) ? "a publicação foi confirmada e será concluída pelo próximo comando (npm run validate, build ou update)" : "nada foi publicado"}`,
      cause: err,
    });
  }
  return { written: changed.map((c) => c.arquivo).sort(), unchanged, erros: [] };
}

function describeIoError(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  if (e.code === "ENOSPC") return "sem espaço em disco (ENOSPC)";
  if (e.code === "EDQUOT") return "cota de disco excedida (EDQUOT)";
  if (e.code === "EACCES" || e.code === "EPERM") return `sem permissão de escrita (${e.code})`;
  return e.code ? `${e.code}: ${e.message}` : (e as Error).message;
}

const hasCommitted = (root: string) => stat(join(root, JOURNAL_NAME)).then(() => true, () => false);
