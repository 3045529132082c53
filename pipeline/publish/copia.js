// @ts-check
/**
 * A file written from its parts (the long CSV): new bytes, and byte ranges of published files
 * copied as they are, each range checked against the sha256 the last publish recorded for it,
 * and the whole new file hashed for the journal. At 30 years that is 75 MB read, hashed twice
 * and written: a thread does it while the run goes on rendering the files that show every
 * series, and this module is that thread's whole code.
 *
 * It is JavaScript, its types in JSDoc (checked by tsc like the TypeScript around it), and it
 * imports only Node's built-ins: a thread starts it as it is, in a few tens of milliseconds. A
 * TypeScript module in a thread needs a loader (tsx, or esbuild stripping its types), whose start
 * costs more than the copy saves on a one-day update.
 */
import { createHash } from "node:crypto";
import { closeSync, fsyncSync, openSync, readSync, writeSync } from "node:fs";
import { isMainThread, parentPort, workerData } from "node:worker_threads";

/**
 * A byte range of a published file, copied into a new one.
 * @typedef {object} TrechoCopiado
 * @property {string} de absolute path of the file it is copied from
 * @property {number} inicio
 * @property {number} bytes
 * @property {string} sha256 hex sha256 the range must have (the facts of the publish that wrote it)
 * @property {string} rotulo what the range is, for the error ("o bloco de milho em api/v1/historico.csv")
 */

/** @typedef {Uint8Array | TrechoCopiado} Parte */

/**
 * What a copy found: the new file's sha256 and size, and what the checks may look at.
 * @typedef {object} Copiado
 * @property {string} sha256
 * @property {number} tamanho
 * @property {Array<{ inicio: number, bytes: Uint8Array }>} pedacos the start of each copied range (a series id and its comma) and its last byte, where they are in the new file
 * @property {Array<[string, string]>} copiados what each copied range hashed to, by "inicio-fim" in the new file
 */

/**
 * The copy stopped at a range that is not what the last publish wrote (its index in the parts).
 * @typedef {{ divergente: number }} Divergente
 */

/**
 * One copy asked of the thread: written durably into `staged` ("wx"), or only hashed (null);
 * `comparar`: a file whose sha256 the answer also gives (the published target).
 * @typedef {{ id: number, staged: string | null, partes: Parte[], comparar?: string }} PedidoDeCopia
 */

/**
 * @typedef {{ id: number, copiado: Copiado, comparado?: string | null }
 *   | { id: number, divergente: number }
 *   | { id: number, erro: { message: string, code?: string } }} RespostaDeCopia
 */

/** How much of a copied range is read at a time. */
const PEDACO = 4 << 20;

/** How much of each copied range's start the checks can see (a series id and its comma). */
const CABECA = 256;

/**
 * Reads the parts in order, checks each copied range's sha256, hashes the whole, and hands every
 * piece to `emitir` (which must be done with it before returning: the read buffer is reused).
 * @param {readonly Parte[]} partes
 * @param {(b: Uint8Array) => void} emitir
 * @returns {Copiado | Divergente}
 */
export function copiarPartes(partes, emitir) {
  const todo = createHash("sha256");
  /** @type {Copiado["pedacos"]} */
  const pedacos = [];
  /** @type {Copiado["copiados"]} */
  const copiados = [];
  /** @type {Map<string, number>} */
  const fontes = new Map();
  const buf = Buffer.allocUnsafe(PEDACO);
  let pos = 0;
  try {
    for (let i = 0; i < partes.length; i++) {
      const parte = /** @type {Parte} */ (partes[i]);
      if (parte instanceof Uint8Array) {
        // the caller holds new parts whole: no copy of them comes back
        todo.update(parte);
        emitir(parte);
        pos += parte.length;
        continue;
      }
      let fonte = fontes.get(parte.de);
      if (fonte === undefined) {
        fonte = openSync(parte.de, "r");
        fontes.set(parte.de, fonte);
      }
      const h = createHash("sha256");
      let lido = 0;
      while (lido < parte.bytes) {
        const n = readSync(fonte, buf, 0, Math.min(buf.length, parte.bytes - lido), parte.inicio + lido);
        if (n === 0) return { divergente: i };
        const b = buf.subarray(0, n);
        h.update(b);
        if (lido === 0) pedacos.push({ inicio: pos, bytes: Uint8Array.prototype.slice.call(b, 0, Math.min(CABECA, n)) });
        if (lido + n === parte.bytes) pedacos.push({ inicio: pos + parte.bytes - 1, bytes: Uint8Array.prototype.slice.call(b, n - 1) });
        todo.update(b);
        emitir(b);
        lido += n;
      }
      const sha = h.digest("hex");
      if (sha !== parte.sha256) return { divergente: i };
      copiados.push([`${pos}-${pos + parte.bytes}`, sha]);
      pos += parte.bytes;
    }
  } finally {
    for (const fd of fontes.values()) closeSync(fd);
  }
  return { sha256: todo.digest("hex"), tamanho: pos, pedacos, copiados };
}

/**
 * sha256 of a whole file, read a piece at a time; null when it does not exist.
 * @param {string} file
 * @returns {string | null}
 */
export function hashDoArquivo(file) {
  let fd;
  try {
    fd = openSync(file, "r");
  } catch (err) {
    if (/** @type {NodeJS.ErrnoException} */ (err).code === "ENOENT") return null;
    throw err;
  }
  try {
    const h = createHash("sha256");
    const buf = Buffer.allocUnsafe(PEDACO);
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      h.update(buf.subarray(0, n));
    }
    return h.digest("hex");
  } finally {
    closeSync(fd);
  }
}

/**
 * Copies `partes` into `staged` durably (created, written, fsynced, closed), or only reads and hashes them.
 * @param {string | null} staged
 * @param {readonly Parte[]} partes
 * @returns {Copiado | Divergente}
 */
export function copiarParaArquivo(staged, partes) {
  if (staged === null) return copiarPartes(partes, () => {});
  const fd = openSync(staged, "wx");
  try {
    const r = copiarPartes(partes, (b) => {
      for (let feito = 0; feito < b.length; ) feito += writeSync(fd, b, feito, b.length - feito);
    });
    if ("sha256" in r) fsyncSync(fd);
    return r;
  } finally {
    closeSync(fd);
  }
}

/**
 * The thread's side: answers each PedidoDeCopia on `port`, in order.
 * @param {import("node:worker_threads").MessagePort} port
 */
export function servirCopias(port) {
  port.on("message", (/** @type {PedidoDeCopia} */ p) => {
    /** @type {RespostaDeCopia} */
    let r;
    try {
      const feito = copiarParaArquivo(p.staged, p.partes);
      if ("divergente" in feito) r = { id: p.id, divergente: feito.divergente };
      else r = { id: p.id, copiado: feito, ...(p.comparar !== undefined ? { comparado: hashDoArquivo(p.comparar) } : {}) };
    } catch (err) {
      const e = /** @type {NodeJS.ErrnoException} */ (err);
      r = { id: p.id, erro: { message: e.message, ...(e.code ? { code: e.code } : {}) } };
    }
    port.postMessage(r);
  });
}

// started as a thread by publish/write.ts (workerData.copia)
if (!isMainThread && parentPort && /** @type {{ copia?: boolean } | null} */ (workerData)?.copia) servirCopias(parentPort);
