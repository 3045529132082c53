import { createHash } from "node:crypto";
import { readFileSync, statSync, type Stats } from "node:fs";
import { open, realpath, stat } from "node:fs/promises";
import { extname, join, sep } from "node:path";
import { brotliCompressSync, constants as zc, gzipSync } from "node:zlib";
import { isControlPath, JOURNAL_NAME, STAGING_DIR } from "../publish/journal.ts";

/**
 * The files of public/ held in memory with their ETag and, once asked for, their gzip and
 * brotli forms. Each entry is re-checked on disk at most once per `recheckMs`, so a new build is
 * picked up without restarting; total memory is bounded by `maxBytes` (least recently used out).
 */
export interface FileEntry {
  rel: string;
  body: Buffer;
  etag: string;
  type: string;
  mtimeMs: number;
  /** the inode read: a rename over the file (every publish) changes it even at the same size and mtime */
  ino: number;
  compressible: boolean;
  gzip?: Buffer;
  br?: Buffer;
  /** parsed JSON, for the query handlers */
  json?: unknown;
  checkedAt: number;
}

export const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".csv": "text/csv; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".xml": "application/atom+xml; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".webmanifest": "application/manifest+json",
  ".map": "application/json; charset=utf-8",
  ".cff": "text/yaml; charset=utf-8",
  ".yaml": "text/yaml; charset=utf-8",
  // the romaneio page's engines (romaneio/vendor/): WebAssembly compiles streaming only with this type
  ".wasm": "application/wasm",
};

/** Files published without an extension (the site root's LICENSE). */
const CONTENT_TYPES_POR_NOME: Record<string, string> = { LICENSE: "text/plain; charset=utf-8" };

export type Resolved = { kind: "file"; entry: FileEntry } | { kind: "dir" } | { kind: "missing" };

/**
 * Where a cache tells the other processes serving the same root (the workers of a cluster,
 * ./arquivos-cluster.ts) that it is about to hand out a version of a file. It resolves once none of
 * them can hand out an older one any more; `tudo`: a new version of a file it knew (a publish),
 * so the caller drops what it holds too (every entry is checked on disk again before its next use).
 */
export interface Coordenacao {
  anunciar(rel: string, versao: string, geracao: number): Promise<{ tudo: boolean }>;
}

/**
 * Whether a version about to be handed out means a new set: a file known in another version, or
 * the site root changed since the last version seen (a publish's journal is renamed into it and
 * removed at the commit point, so a file it adds counts too). The cluster's primary holds one for
 * all workers; a single process, its own.
 */
export class Versoes {
  private readonly conhecidas = new Map<string, string>();
  private geracao: number | undefined;

  nova(rel: string, versao: string, geracao: number): boolean {
    const antes = this.conhecidas.get(rel);
    // bounded by the files of the site: only a file that exists gets a version
    this.conhecidas.set(rel, versao);
    const g = this.geracao;
    this.geracao = geracao;
    return (antes !== undefined && antes !== versao) || (g !== undefined && g !== geracao);
  }
}

const versaoDe = (e: { ino: number; mtimeMs: number; body: { length: number } }) => `${e.ino}:${e.mtimeMs}:${e.body.length}`;

export class FileCache {
  private readonly entries = new Map<string, FileEntry>();
  private bytes = 0;
  private rootReal: string | null = null;

  /** a single process's own judge of a new set (a cluster's is in its primary) */
  private readonly versoes = new Versoes();

  constructor(
    readonly root: string,
    private readonly opts: { maxBytes?: number; recheckMs?: number; now?: () => number; coordenacao?: Coordenacao } = {},
  ) {}

  /**
   * Every entry is checked on disk again before its next use (another process handed out a new
   * version of some file: this one's other entries may be of the set before it).
   */
  invalidarTudo(): void {
    for (const e of this.entries.values()) e.checkedAt = -Infinity;
  }

  private async realRoot(): Promise<string> {
    this.rootReal ??= await realpath(this.root);
    return this.rootReal;
  }

  /**
   * `rel` is a path already checked by safePath (no "..", no NUL, no backslash). A symlink that
   * leads out of the root is treated as missing.
   */
  async resolve(rel: string): Promise<Resolved> {
    // the lock, an interrupted publish's staging and journal, temp files: never the site
    if (isControlPath(rel)) return { kind: "missing" };
    const now = (this.opts.now ?? Date.now)();
    const cached = this.entries.get(rel);
    if (cached && now - cached.checkedAt < (this.opts.recheckMs ?? 1000)) {
      this.entries.delete(rel);
      this.entries.set(rel, cached);
      return { kind: "file", entry: cached };
    }
    // A publish renames a new file over this one while the server reads. Two requests reading
    // it at once may finish in either order (a big old file read in 512 KB chunks, a small new
    // one at once): the one that read the old bytes must not replace, after the other handed out
    // the new ones, what later requests get (new, then old for a second). So the bytes are read
    // through one handle whose own stat says which file they are, and they are kept only if the
    // path still names that file at the instant they are installed (a synchronous stat, so no
    // other request runs in between): the cached entries of a path only move forward.
    let lido: { body: Buffer; st: { mtimeMs: number; ino: number } } | null = null;
    let semPreparado = false;
    for (let tentativa = 0; tentativa < 5 && !lido; tentativa++) {
      const { full, op, st: visto } = await this.caminho(rel, semPreparado);
      let st = visto;
      if (!st) {
        try {
          st = await stat(full);
        } catch {
          // another request may have loaded it meanwhile: only the entry this one saw is dropped
          if (cached && this.entries.get(rel) === cached) this.drop(rel);
          return { kind: "missing" };
        }
      }
      if (st.isDirectory()) return { kind: "dir" };
      if (!st.isFile()) return { kind: "missing" };
      // confirmed where the set names the file now, not where it did when the stat was asked:
      // an entry marked stale meanwhile (another process handed out a newer version) is not revived
      // by a stat that saw the disk before that
      if (cached && this.entries.get(rel) === cached && mesmoArquivo(cached, st)) {
        const agora = this.ondeAgora(rel, semPreparado);
        if (agora && mesmoArquivo(cached, agora)) {
          cached.checkedAt = now;
          return { kind: "file", entry: cached };
        }
        continue;
      }
      const real = await realpath(full).catch(() => null);
      // renamed away (a staged file into its place) between the stat and here: look again
      if (real === null) continue;
      const root = await this.realRoot();
      if (real !== root && !real.startsWith(root + sep)) return { kind: "missing" };
      let fh;
      try {
        fh = await open(real, "r");
      } catch {
        continue;
      }
      let body: Buffer;
      let hst;
      try {
        hst = await fh.stat();
        body = await fh.readFile();
      } finally {
        await fh.close();
      }
      // a staged file is fsynced before its journal; one damaged since is never served (its target is)
      if (op && createHash("sha256").update(body).digest("hex") !== op.sha256) {
        semPreparado = true;
        continue;
      }
      const lida = { ino: hst.ino, mtimeMs: hst.mtimeMs, body };
      const instalada = this.entries.get(rel);
      if (!(instalada && versaoDe(instalada) === versaoDe(lida))) {
        // a version not handed out yet: the other processes drop what they hold first, or a
        // client whose requests land on two workers would get the new bytes, then the old ones
        let geracao = 0;
        try {
          geracao = statSync(this.root).mtimeMs;
        } catch {
          // the root itself gone: the file's own version still counts
        }
        const tudo = this.opts.coordenacao ? (await this.opts.coordenacao.anunciar(rel, versaoDe(lida), geracao)).tudo : this.versoes.nova(rel, versaoDe(lida), geracao);
        if (tudo) this.invalidarTudo();
      }
      // What the set names the file as now, synchronously, so that nothing runs between this and
      // the install below: the path, or from a journal's commit point its staged copy. Replaced
      // (or committed) while read: read again. The path alone is not enough: a request that opened
      // the old target just before a commit finds it still there (the renames come later), while
      // another already installed and served the staged copy.
      const agora = this.ondeAgora(rel, semPreparado);
      if (agora && mesmoArquivo(lida, agora)) lido = { body, st: hst };
    }
    const atual = this.entries.get(rel);
    if (!lido) {
      if (atual) return { kind: "file", entry: atual };
      return { kind: "missing" };
    }
    const { body } = lido;
    if (atual && atual !== cached && atual.ino === lido.st.ino && atual.mtimeMs === lido.st.mtimeMs && atual.body.length === body.length) {
      // another request installed these same bytes meanwhile
      atual.checkedAt = now;
      return { kind: "file", entry: atual };
    }
    const ext = extname(rel).toLowerCase();
    const type = CONTENT_TYPES[ext] ?? CONTENT_TYPES_POR_NOME[rel.slice(rel.lastIndexOf("/") + 1)] ?? "application/octet-stream";
    const entry: FileEntry = {
      rel,
      body,
      etag: `"${createHash("sha1").update(body).digest("base64url")}"`,
      type,
      mtimeMs: lido.st.mtimeMs,
      ino: lido.st.ino,
      compressible: /^(text\/|application\/(json|atom\+xml|manifest\+json)|image\/svg)/.test(type) && body.length > 256,
      checkedAt: now,
    };
    if (atual) this.drop(rel);
    this.entries.set(rel, entry);
    this.bytes += body.length;
    this.evict();
    return { kind: "file", entry };
  }

  /**
   * Where `rel`'s bytes are. While a committed journal is in the root (a publish between its
   * commit point and its last rename, or killed there: the next command finishes it), the set is
   * the journal's: a file it lists is read from its staged copy while that is still there (a
   * rename keeps the inode, so the entry stays valid once it moves into place). Without this a
   * publish killed among its renames left the server answering a mix (milho's new day beside
   * soja's old one) until the next command ran, which can be hours later.
   */
  private async caminho(rel: string, semPreparado: boolean): Promise<{ full: string; op?: OperacaoDoDiario; st?: Stats }> {
    const full = join(this.root, rel);
    const op = semPreparado ? undefined : this.diario()?.get(rel);
    if (!op) return { full };
    const preparado = join(this.root, STAGING_DIR, rel);
    try {
      const st = await stat(preparado);
      if (st.isFile() && st.size === op.tamanho) return { full: preparado, op, st };
    } catch {
      // renamed into place already
    }
    return { full };
  }

  private diarioLido: { chave: string; ops: Map<string, OperacaoDoDiario> } | null = null;

  /**
   * The committed journal's files, or null without one (read again only when it changes). Read
   * synchronously: ondeAgora judges the set at one instant.
   */
  private diario(): Map<string, OperacaoDoDiario> | null {
    const arquivo = join(this.root, JOURNAL_NAME);
    let st;
    try {
      st = statSync(arquivo);
    } catch {
      this.diarioLido = null;
      return null;
    }
    const chave = `${st.ino}:${st.mtimeMs}:${st.size}`;
    if (this.diarioLido?.chave === chave) return this.diarioLido.ops;
    const ops = new Map<string, OperacaoDoDiario>();
    try {
      // renamed into place whole: an unreadable one is not this server's to judge (every command refuses it)
      const j = JSON.parse(readFileSync(arquivo, "utf8")) as { operacoes?: unknown };
      if (!Array.isArray(j.operacoes)) return null;
      for (const o of j.operacoes as Array<Partial<OperacaoDoDiario> & { arquivo?: unknown }>) {
        if (typeof o?.arquivo === "string" && typeof o.sha256 === "string" && typeof o.tamanho === "number") ops.set(o.arquivo, { sha256: o.sha256, tamanho: o.tamanho });
      }
    } catch {
      return null;
    }
    this.diarioLido = { chave, ops };
    return ops;
  }

  /** The stat of what the set names `rel` as at this instant (caminho's answer, synchronously), or null. */
  private ondeAgora(rel: string, semPreparado: boolean): Stats | null {
    const op = semPreparado ? undefined : this.diario()?.get(rel);
    if (op) {
      try {
        const st = statSync(join(this.root, STAGING_DIR, rel));
        if (st.isFile() && st.size === op.tamanho) return st;
      } catch {
        // renamed into place already
      }
    }
    try {
      return statSync(join(this.root, rel));
    } catch {
      return null;
    }
  }

  /**
   * Whether an entry handed out earlier is still the cached one and was checked on disk less than
   * `recheckMs` ago: what resolve() would answer without touching the disk.
   */
  isFresh(entry: FileEntry): boolean {
    return this.entries.get(entry.rel) === entry && (this.opts.now ?? Date.now)() - entry.checkedAt < (this.opts.recheckMs ?? 1000);
  }

  /** The parsed JSON of a file under the root, or null when it does not exist. */
  async json<T>(rel: string): Promise<{ doc: T; entry: FileEntry } | null> {
    const r = await this.resolve(rel);
    if (r.kind !== "file") return null;
    r.entry.json ??= JSON.parse(r.entry.body.toString("utf8"));
    return { doc: r.entry.json as T, entry: r.entry };
  }

  encoded(entry: FileEntry, encoding: "br" | "gzip"): Buffer {
    if (encoding === "br") {
      if (!entry.br) {
        entry.br = brotliCompressSync(entry.body, { params: { [zc.BROTLI_PARAM_QUALITY]: 9, [zc.BROTLI_PARAM_SIZE_HINT]: entry.body.length } });
        this.bytes += entry.br.length;
      }
      return entry.br;
    }
    if (!entry.gzip) {
      entry.gzip = gzipSync(entry.body, { level: 9 });
      this.bytes += entry.gzip.length;
    }
    return entry.gzip;
  }

  private drop(rel: string): void {
    const e = this.entries.get(rel);
    if (!e) return;
    this.bytes -= e.body.length + (e.gzip?.length ?? 0) + (e.br?.length ?? 0);
    this.entries.delete(rel);
  }

  private evict(): void {
    const max = this.opts.maxBytes ?? 64 * 1024 * 1024;
    for (const key of this.entries.keys()) {
      if (this.bytes <= max || this.entries.size <= 1) break;
      this.drop(key);
    }
  }
}

interface OperacaoDoDiario {
  sha256: string;
  tamanho: number;
}

/** Whether a stat names the file an entry holds: the same inode, mtime and size. */
function mesmoArquivo(e: { ino: number; mtimeMs: number; body: { length: number } }, st: { ino: number; mtimeMs: number; size: number }): boolean {
  return e.ino === st.ino && e.mtimeMs === st.mtimeMs && e.body.length === st.size;
}

const PLAIN_PATH = /^(?:\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*\/?$/;

/**
 * The raw request path (as the client sent it, before any URL normalisation) to a path relative
 * to the site root, or the reason it is refused. Each segment is percent-decoded once, strictly
 * (bad escapes and invalid UTF-8 are refused); "..", "." and empty segments, backslashes, NUL and
 * control characters, a "%" left after decoding (double encoding) and dotfiles are refused, so no
 * encoding of a traversal ("%2e%2e", "%252e", "..%5c", overlong UTF-8) gets through.
 */
export function safePath(rawPath: string): { ok: true; rel: string; trailingSlash: boolean } | { ok: false; motivo: string } {
  if (!rawPath.startsWith("/")) return { ok: false, motivo: "o caminho precisa começar com /" };
  if (rawPath.length > 1024) return { ok: false, motivo: "caminho longo demais" };
  // the common case: plain segments, nothing to decode, none hidden, empty, "." or ".."
  if (PLAIN_PATH.test(rawPath)) {
    const trailingSlash = rawPath.length > 1 && rawPath.endsWith("/");
    return { ok: true, rel: rawPath.slice(1, trailingSlash ? -1 : undefined), trailingSlash: trailingSlash || rawPath === "/" };
  }
  const parts = rawPath.slice(1).split("/");
  const trailingSlash = parts[parts.length - 1] === "";
  if (trailingSlash) parts.pop();
  const out: string[] = [];
  for (const raw of parts) {
    let seg: string;
    try {
      seg = decodeURIComponent(raw);
    } catch {
      return { ok: false, motivo: "codificação percentual inválida ou UTF-8 inválido no caminho" };
    }
    if (seg === "") return { ok: false, motivo: "segmento vazio no caminho (//)" };
    if (seg === "." || seg === ".." || seg.includes("/") || seg.includes("\\")) {
      return { ok: false, motivo: "caminho com '..', '.', barra codificada ou barra invertida" };
    }
    if (seg.includes("%")) return { ok: false, motivo: "caminho com codificação dupla (%25)" };
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(seg)) return { ok: false, motivo: "caractere de controle no caminho" };
    if (seg.startsWith(".")) return { ok: false, motivo: "arquivos ocultos não são servidos" };
    out.push(seg);
  }
  return { ok: true, rel: out.join("/"), trailingSlash };
}

/** The encoding to send, from Accept-Encoding with its q-values: br over gzip, or none. */
export function chooseEncoding(accept: string | undefined): "br" | "gzip" | null {
  if (!accept) return null;
  const q: Record<string, number> = {};
  for (const part of accept.split(",")) {
    const [name = "", ...params] = part.trim().toLowerCase().split(";");
    const qp = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const value = qp ? Number(qp.slice(2)) : 1;
    q[name.trim()] = Number.isFinite(value) ? value : 0;
  }
  const get = (n: string) => q[n] ?? (q["*"] !== undefined && !(n in q) ? q["*"] : 0);
  if (get("br") > 0) return "br";
  if (get("gzip") > 0 || get("x-gzip") > 0) return "gzip";
  return null;
}
