import { webcrypto } from "node:crypto";
import { mkdir, readFile, rm, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { Worker } from "node:worker_threads";
import { copiarPartes, copiarParaArquivo, hashDoArquivo, type Copiado, type Divergente, type PedidoDeCopia, type RespostaDeCopia, type TrechoCopiado } from "./copia.js";
import { PipelineError } from "../domain/errors.ts";
import type { RenderedFile } from "../render/json.ts";
import type { SerieReusada } from "../render/resumo.ts";

/**
 * One item of a published set: a file, or a series the run leaves as it is (its files are not
 * touched; its facts stand for it in the checks across files).
 */
export type ItemDoConjunto = RenderedFile | ArquivoEmBytes | ArquivoEmPartes | BlocoNovo | SerieReusada | ArquivoApagado;

/**
 * A file of the published tree the set no longer has (a derived file no input produces:
 * site/caminhos.ts), removed with the set: journaled with its renames, so a run killed at any
 * instant leaves the old tree (the file still there) or the new one (gone), never a mix.
 */
export interface ArquivoApagado {
  apagar: string;
}

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

export type { TrechoCopiado } from "./copia.js";

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

/** Files in parts at least this big are copied in a thread (copia.js) while the set goes on; smaller ones here. */
let copiaEmThread = 8 << 20;

/** Test-only: from what size a file in parts is copied in a thread (0: every one; null: the default). */
export function setCopiaEmThread(bytes: number | null): void {
  copiaEmThread = bytes ?? 8 << 20;
}

/** The thread that copies files in parts (copia.js), started on the first one and ended with the set. */
class Copiador {
  private thread: Worker | null = null;
  private fechado = false;
  private proximo = 0;
  private readonly esperando = new Map<number, { ok: (r: RespostaDeCopia) => void; falha: (e: unknown) => void }>();

  async pedir(p: Omit<PedidoDeCopia, "id">): Promise<RespostaDeCopia> {
    if (this.fechado) throw new Error("a publicação terminou antes da cópia em partes começar");
    if (!this.thread) {
      const t = new Worker(new URL("./copia.js", import.meta.url), { workerData: { copia: true }, execArgv: [] });
      t.on("message", (r: RespostaDeCopia) => {
        const e = this.esperando.get(r.id);
        this.esperando.delete(r.id);
        e?.ok(r);
      });
      const morreu = (err: unknown) => {
        for (const e of this.esperando.values()) e.falha(err);
        this.esperando.clear();
        this.thread = null;
      };
      t.on("error", morreu);
      t.on("exit", (codigo) => morreu(new Error(`a cópia em partes terminou antes de responder (código ${codigo})`)));
      this.thread = t;
    }
    const id = this.proximo++;
    const thread = this.thread;
    return new Promise((ok, falha) => {
      this.esperando.set(id, { ok, falha });
      thread.postMessage({ id, ...p } satisfies PedidoDeCopia);
    });
  }

  async fechar(): Promise<void> {
    this.fechado = true;
    const t = this.thread;
    this.thread = null;
    if (t) await t.terminate();
  }
}

/**
 * Stages a file from its parts into `staged` (durably), or only hashes it
 * (null), and returns the sha256 and size the journal records and the bytes the checks may look
 * at; `comparar`: a file whose sha256 comes back too. A copied range that is not the recorded one
 * throws TrechoDivergente. Big files are copied in the set's thread; with the test writer set,
 * the file is assembled in memory and handed to it.
 */
async function prepararEmPartes(
  copiador: Copiador,
  staged: string | null,
  f: ArquivoEmPartes,
  escrever: ((file: string, data: Buffer) => Promise<void>) | undefined,
  comparar?: string,
): Promise<{ sha256: string; tamanho: number; vista: BytesDoLongo; comparado?: string | null }> {
  const partes = f.partes;
  const tamanho = partes.reduce((a, p) => a + (p instanceof Uint8Array ? p.length : p.bytes), 0);
  let r: Copiado | Divergente;
  let comparado: string | null | undefined;
  if (escrever || tamanho < copiaEmThread) {
    const emMemoria: Buffer[] = [];
    r = escrever && staged !== null ? copiarPartes(partes, (b) => emMemoria.push(Buffer.from(b))) : copiarParaArquivo(staged, partes);
    if ("sha256" in r && escrever && staged !== null) await escrever(staged, Buffer.concat(emMemoria));
    if (comparar !== undefined) comparado = hashDoArquivo(comparar);
  } else {
    const resposta = await copiador.pedir({ staged, partes: [...partes], ...(comparar !== undefined ? { comparar } : {}) });
    if ("erro" in resposta) throw Object.assign(new Error(resposta.erro.message), resposta.erro.code ? { code: resposta.erro.code } : {});
    r = "divergente" in resposta ? resposta : resposta.copiado;
    if ("copiado" in resposta) comparado = resposta.comparado;
  }
  if ("divergente" in r) throw new TrechoDivergente(partes[r.divergente] as TrechoCopiado);
  // new parts are held here whole; of the copied ranges, their first bytes and their last
  const pedacos = [...r.pedacos];
  let pos = 0;
  for (const p of partes) {
    if (p instanceof Uint8Array) pedacos.push({ inicio: pos, bytes: p });
    pos += p instanceof Uint8Array ? p.length : p.bytes;
  }
  pedacos.sort((a, b) => a.inicio - b.inicio);
  const copiados = new Map(r.copiados);
  const achar = (i: number) => {
    // the last piece starting at or before i
    let lo = 0;
    let hi = pedacos.length - 1;
    let achado = -1;
    while (lo <= hi) {
      const m = (lo + hi) >> 1;
      if (pedacos[m]!.inicio <= i) {
        achado = m;
        lo = m + 1;
      } else hi = m - 1;
    }
    const p = achado >= 0 ? pedacos[achado]! : undefined;
    return p && i < p.inicio + p.bytes.length ? p : undefined;
  };
  const vista: BytesDoLongo = {
    length: r.tamanho,
    at: (i) => {
      const p = achar(i);
      return p ? p.bytes[i - p.inicio] : undefined;
    },
    texto: (inicio, fim) => {
      if (fim <= inicio) return "";
      const p = achar(inicio);
      if (!p || fim > p.inicio + p.bytes.length) return null;
      return Buffer.from(p.bytes.buffer, p.bytes.byteOffset, p.bytes.length).toString("utf8", inicio - p.inicio, fim - p.inicio);
    },
    sha256De: (inicio, fim) => copiados.get(`${inicio}-${fim}`) ?? null,
  };
  return { sha256: r.sha256, tamanho: r.tamanho, vista, ...(comparado !== undefined ? { comparado } : {}) };
}

import { FileValidator } from "../validate/ajv.ts";
import type { BytesDoLongo } from "../validate/dados.ts";
import { commitStaged, hashBytes, isControlPath, JOURNAL_NAME, Passos, QuedaSimulada, STAGING_DIR, writeStaged, writerDeTeste, type ArquivoPreparado } from "./journal.ts";
import { holdsDataLock, withDataLock } from "./lock.ts";

/** Bytes of files compared and hashed ahead of their staging, at most: past it the run waits for them. */
const ADIANTE = 4 << 20;
/**
 * Files compared ahead, at most: each comparison may hold its published file open, and hundreds of
 * small files (the aggregates, the recent windows) within ADIANTE's bytes gave EMFILE under a low
 * `ulimit -n`. libuv's pool reads four at a time anyway.
 */
const ARQUIVOS_ADIANTE = 16;

/**
 * sha256 (hex) of bytes, in libuv's thread pool (WebCrypto's digest), so the hashing of a 30-year
 * set's 190 MB overlaps the rendering of the next files instead of taking turns with it.
 */
async function sha256EmSegundoPlano(bytes: Uint8Array): Promise<string> {
  return Buffer.from(await webcrypto.subtle.digest("SHA-256", bytes)).toString("hex");
}

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
  /** files removed (ArquivoApagado), sorted; absent when none */
  removidos?: string[];
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
  // made durable, all at once, before the journal (commitStaged)
  const write = writerDeTeste() ?? writeStaged;
  const changed: ArquivoPreparado[] = [];
  // what the set removes, and every path it holds (a file is never both)
  const apagar = new Set<string>();
  const doConjunto = new Set<string>();
  let unchanged = 0;
  // each staging directory made once (a set is hundreds of files in a few dozen directories)
  const pastas = new Set<string>();
  const criarPasta = async (dir: string) => {
    if (pastas.has(dir)) return;
    await mkdir(dir, { recursive: true });
    pastas.add(dir);
  };
  const copiador = new Copiador();
  const emCopia: Array<{ f: ArquivoEmPartes; copia: ReturnType<typeof prepararEmPartes> }> = [];
  // files whose comparison with the published one and sha256 run (in libuv's pool) while the set
  // goes on; taken in order, each staged only after its step, as if nothing ran ahead
  const adiante: Array<{ path: string; bytes: Buffer; igual: Promise<boolean>; sha256: Promise<string> }> = [];
  let gravando: { path: string; feito: Promise<void> } | null = null;
  let emVoo = 0;
  const gravado = async () => {
    if (!gravando) return;
    current = gravando.path;
    await gravando.feito;
    gravando = null;
  };
  const recolher = async () => {
    const a = adiante.shift()!;
    emVoo -= a.bytes.length;
    // a failure of the file before comes first
    await gravado();
    current = a.path;
    if (await a.igual) {
      unchanged++;
      return;
    }
    const sha256 = await a.sha256;
    // at a file's step, every file before it is staged (gravado, above)
    await passos.antes({ tipo: "preparar", arquivo: a.path });
    const staged = join(staging, a.path);
    await criarPasta(dirname(staged));
    const feito = write(staged, a.bytes);
    feito.catch(() => {});
    gravando = { path: a.path, feito };
    // what recovery checks each target against (journal.ts)
    changed.push({ arquivo: a.path, sha256, tamanho: a.bytes.length });
  };
  // a copy still running when the set fails must not write into the staging being discarded
  const discard = async () => {
    await copiador.fechar();
    // a copy made here (small file, test writer) or a file being staged may still be writing into the staging
    await Promise.allSettled([...emCopia.map((c) => c.copia), ...(gravando ? [gravando.feito] : [])]);
    await rm(staging, { recursive: true, force: true });
  };
  // left by a run killed before its journal: never part of the site (withDataLock recovered it)
  await rm(staging, { recursive: true, force: true });
  let current = "";
  const resultadoRemovidos: string[] = [];
  try {
    for await (const f of files) {
      if ("apagar" in f) {
        apagar.add(f.apagar);
        continue;
      }
      if ("path" in f) doConjunto.add(f.path);
      if ("reusada" in f) {
        validator.reusada(f);
        continue;
      }
      if ("blocoNovo" in f) {
        validator.blocoNovo(f.blocoNovo, f.texto);
        continue;
      }
      if ("partes" in f) {
        // the files before it take their steps first
        while (adiante.length > 0) await recolher();
        await gravado();
        current = f.path;
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
          const visto = await prepararEmPartes(copiador, null, f, undefined, alvo);
          if (visto.comparado === visto.sha256) {
            validator.add(f.path, visto.vista, f.doc);
            unchanged++;
            continue;
          }
        }
        await passos.antes({ tipo: "preparar", arquivo: f.path });
        const staged = join(staging, f.path);
        await criarPasta(dirname(staged));
        // copied (in the thread, when big) while the rest of the set is rendered; checked and
        // put in the journal after the last file
        const copia = prepararEmPartes(copiador, staged, f, writerDeTeste());
        copia.catch(() => {});
        emCopia.push({ f, copia });
        continue;
      }
      if ("bytes" in f) {
        // bytes its producer may reuse once the set goes on: staged (and hashed) before it does
        while (adiante.length > 0) await recolher();
        await gravado();
        current = f.path;
        validator.add(f.path, f.bytes, f.doc);
        if (await sameBytes(join(root, f.path), f.bytes)) {
          unchanged++;
          continue;
        }
        await passos.antes({ tipo: "preparar", arquivo: f.path });
        const staged = join(staging, f.path);
        await criarPasta(dirname(staged));
        await write(staged, f.bytes);
        changed.push({ arquivo: f.path, ...hashBytes(f.bytes) });
        continue;
      }
      current = f.path;
      const bytes = Buffer.from(f.text, "utf8");
      validator.add(f.path, f.text, f.doc, f);
      const igual = sameBytes(join(root, f.path), bytes);
      const sha256 = sha256EmSegundoPlano(bytes);
      igual.catch(() => {});
      sha256.catch(() => {});
      adiante.push({ path: f.path, bytes, igual, sha256 });
      emVoo += bytes.length;
      while (emVoo > ADIANTE || adiante.length >= ARQUIVOS_ADIANTE) await recolher();
    }
    while (adiante.length > 0) await recolher();
    await gravado();
    for (const { f, copia } of emCopia) {
      current = f.path;
      const feito = await copia;
      validator.add(f.path, feito.vista, f.doc);
      changed.push({ arquivo: f.path, sha256: feito.sha256, tamanho: feito.tamanho });
    }
    current = "";
    await copiador.fechar();
    const { erros } = validator.report();
    const ambos = [...apagar].filter((p) => doConjunto.has(p));
    if (ambos.length > 0) erros.push(...ambos.map((p) => `${p}: o conjunto escreve e apaga este arquivo (erro do pipeline)`));
    for (const p of apagar) if (!caminhoApagavel(p)) erros.push(`${p}: caminho que uma publicação não apaga (erro do pipeline)`);
    if (erros.length > 0) {
      await discard();
      return { written: [], unchanged, erros };
    }
    // a file already gone needs no step (a run with nothing new changes nothing)
    for (const p of [...apagar].sort()) if (await existe(join(root, p))) resultadoRemovidos.push(p);
    if (changed.length > 0 || resultadoRemovidos.length > 0) await commitStaged(root, changed, passos, resultadoRemovidos);
    // nothing to commit: the staging directory holds at most the run's scratch file (site/assemble.ts)
    else await rm(staging, { recursive: true, force: true });
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
  } finally {
    await copiador.fechar();
  }
  return { written: changed.map((c) => c.arquivo).sort(), ...(resultadoRemovidos.length > 0 ? { removidos: resultadoRemovidos } : {}), unchanged, erros: [] };
}

/** A path a publish may remove: relative, inside the root, not a control or temp file (journal.ts). */
function caminhoApagavel(p: string): boolean {
  return p !== "" && !p.startsWith("/") && !p.split(/[\\/]/).some((s) => s === ".." || s === "" || s === ".") && !isControlPath(p);
}

const existe = (p: string) => stat(p).then(() => true, (err: NodeJS.ErrnoException) => (err.code === "ENOENT" ? false : Promise.reject(err)));

function describeIoError(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  if (e.code === "ENOSPC") return "sem espaço em disco (ENOSPC)";
  if (e.code === "EDQUOT") return "cota de disco excedida (EDQUOT)";
  if (e.code === "EACCES" || e.code === "EPERM") return `sem permissão de escrita (${e.code})`;
  return e.code ? `${e.code}: ${e.message}` : (e as Error).message;
}

const hasCommitted = (root: string) => stat(join(root, JOURNAL_NAME)).then(() => true, () => false);
