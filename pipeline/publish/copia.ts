/**
 * A file written from its parts (the long CSV): new bytes, and byte ranges of published files
 * copied as they are, each range checked against the sha256 the last publish recorded for it,
 * and the whole new file hashed for the journal. At 30 years that is 75 MB read, hashed twice
 * and written: a thread does it while the run goes on rendering the files that show every
 * series, and this module is that thread's whole code.
 *
 * It imports only Node's built-ins: the thread runs it as plain JavaScript (esbuild strips its
 * types when the thread starts, in a few milliseconds), not through the TypeScript loader, whose
 * start in a thread costs a quarter of a one-day update.
 */
import { createHash } from "node:crypto";
import { closeSync, fsyncSync, openSync, readSync, writeSync } from "node:fs";
import type { MessagePort } from "node:worker_threads";

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

export type Parte = Uint8Array | TrechoCopiado;

/** What a copy found: the new file's sha256 and size, and what the checks may look at. */
export interface Copiado {
  sha256: string;
  tamanho: number;
  /** the start of each copied range (a series id and its comma) and its last byte, where they are in the new file */
  pedacos: Array<{ inicio: number; bytes: Uint8Array }>;
  /** what each copied range hashed to, by "inicio-fim" in the new file */
  copiados: Array<[string, string]>;
}

/** The copy stopped at a range that is not what the last publish wrote (its index in the parts). */
export interface Divergente {
  divergente: number;
}

/** How much of a copied range is read at a time. */
const PEDACO = 4 << 20;

/** How much of each copied range's start the checks can see (a series id and its comma). */
const CABECA = 256;

/**
 * Reads the parts in order, checks each copied range's sha256, hashes the whole, and hands every
 * piece to `emitir` (which must be done with it before returning: the read buffer is reused).
 */
export function copiarPartes(partes: readonly Parte[], emitir: (b: Uint8Array) => void): Copiado | Divergente {
  const todo = createHash("sha256");
  const pedacos: Copiado["pedacos"] = [];
  const copiados: Copiado["copiados"] = [];
  const fontes = new Map<string, number>();
  const buf = Buffer.allocUnsafe(PEDACO);
  let pos = 0;
  try {
    for (let i = 0; i < partes.length; i++) {
      const parte = partes[i]!;
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

/** sha256 of a whole file, read a piece at a time; null when it does not exist. */
export function hashDoArquivo(file: string): string | null {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
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

/** One copy asked of the thread: written durably into `staged` ("wx"), or only hashed (null). */
export interface PedidoDeCopia {
  id: number;
  staged: string | null;
  partes: Parte[];
  /** a file whose sha256 the answer also gives (the published target, to tell whether anything changed) */
  comparar?: string;
}

export type RespostaDeCopia =
  | { id: number; copiado: Copiado; comparado?: string | null }
  | { id: number; divergente: number }
  | { id: number; erro: { message: string; code?: string } };

/** Copies `partes` into `staged` durably (created, written, fsynced, closed), or only reads and hashes them. */
export function copiarParaArquivo(staged: string | null, partes: readonly Parte[]): Copiado | Divergente {
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

/** The thread's side: answers each PedidoDeCopia on `port`, in order. */
export function servirCopias(port: MessagePort): void {
  port.on("message", (p: PedidoDeCopia) => {
    let r: RespostaDeCopia;
    try {
      const feito = copiarParaArquivo(p.staged, p.partes);
      if ("divergente" in feito) r = { id: p.id, divergente: feito.divergente };
      else r = { id: p.id, copiado: feito, ...(p.comparar !== undefined ? { comparado: hashDoArquivo(p.comparar) } : {}) };
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      r = { id: p.id, erro: { message: e.message, ...(e.code ? { code: e.code } : {}) } };
    }
    port.postMessage(r);
  });
}
