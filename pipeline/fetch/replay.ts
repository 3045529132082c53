import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { join, relative, resolve, sep } from "node:path";
import { PipelineError } from "../domain/errors.ts";
import { MIRRORS } from "../sources/index.ts";
import { classifyResponse } from "./challenge.ts";
import { MAX_PAGE_BYTES } from "./http.ts";
import { mirrorFile } from "./record.ts";
import { MIRROR_ON, mirrorUrl, pageUrl, type LoadFail, type LoadOk, type PageLoader, type LoadResult } from "./types.ts";
import type { MirrorDef, PageDef, SourceDef } from "../sources/types.ts";

/**
 * Reads recorded pages from DIR/{source}/{page}.html (the layout of test/fixtures). A
 * missing file is that page's failure ("missing"), not the run's; a recorded challenge page or a
 * page without its table is classified exactly as the live fetcher would (blocked, soft_block).
 *
 * A recorded page obeys the live size cap (MAX_PAGE_BYTES): its size is read from the file
 * system before a byte of it is, and a larger file fails as "http_error", the kind the live
 * fetcher gives the same body, so a page fails the same way in both paths.
 *
 * A page whose recording is missing, or fails the way a live page sends the loader to its
 * mirrors (a recorded challenge, a page without its table, a file over the cap), is read from its
 * mirrors' recordings, in the order of MIRRORS: DIR/{mirror}/{last segment of its URL}.html
 * (Notícias Agrícolas) or the mirror's own file (CEPEA's widget: DIR/cepea/widget/{N}.js), as
 * --record saves them. The first recording that holds its table serves the page.
 *
 * The series record when their data was fetched. A recorded page was fetched when it was
 * recorded, not when it is replayed: DIR/capturas.json (optional) maps "{source}/{page}" to the
 * capture time (a mirror's recording: its file without the extension,
 * "noticias-agricolas/indicador-cepea-esalq-milho", "cepea/widget/2"), and pages it does not
 * list count as fetched now.
 */
export function createReplayLoader(dir: string, now: () => Date, env: NodeJS.ProcessEnv = process.env): PageLoader {
  const root = resolve(dir);
  const capturas = readCapturas(root);

  /** A mirror's recording as a load result, or null when there is none. */
  async function readMirror(mirror: MirrorDef, page: PageDef): Promise<LoadOk | LoadFail | null> {
    const viaFile = mirrorFile(root, mirror);
    const via = await readPage(viaFile);
    if (!via.ok && via.code === "ENOENT") return null;
    const mUrl = mirrorUrl(mirror, env);
    if (!via.ok) return { ok: false, kind: via.code === "EFBIG" ? "http_error" : "missing", url: mUrl, reason: via.code === "EFBIG" ? via.reason : `não foi possível ler a página gravada ${viaFile} (${via.code})` };
    const v = classifyResponse({ status: 200, headers: new Headers(), body: via.html, bytes: via.bytes }, (h) => mirror.hasTable(h));
    if (!v.ok) return { ok: false, kind: v.kind, url: mUrl, reason: `${v.reason} (página gravada ${viaFile})` };
    const key = relative(root, viaFile).split(sep).join("/").replace(/\.[a-z]+$/, "");
    // "{mirror}/{page}": the key of the Scot mirror's recordings before mirrors had their own
    const fetchedAt = capturas.get(key) ?? capturas.get(`${mirror.id}/${page.id}`) ?? now();
    return { ok: true, html: via.html, url: viaFile, mirror, mirrorUrl: mUrl, fetchedAt, method: "replay", sha256: via.sha256, bytes: via.bytes };
  }

  return {
    async load(source: SourceDef, page: PageDef): Promise<LoadResult> {
      const file = join(root, source.id, `${page.id}.html`);
      // status.json names the page by its real URL; the reason says which recorded file was used
      const url = pageUrl(source, page, env);
      const got = await readPage(file);
      let direct: LoadResult;
      if (!got.ok) {
        direct =
          got.code === "EFBIG"
            ? { ok: false, kind: "http_error", url, reason: got.reason }
            : {
                ok: false,
                kind: "missing",
                url,
                reason: got.code === "ENOENT" ? `página gravada não encontrada: ${file}` : `não foi possível ler a página gravada ${file} (${got.code})`,
              };
      } else {
        // a recorded challenge or block page fails the same way it failed live
        const verdict = classifyResponse({ status: 200, headers: new Headers(), body: got.html, bytes: got.bytes }, (h) => page.hasTable(h));
        if (verdict.ok) {
          const fetchedAt = capturas.get(`${source.id}/${page.id}`) ?? now();
          return { ok: true, html: got.html, url: file, mirror: null, mirrorUrl: null, fetchedAt, method: "replay", sha256: got.sha256, bytes: got.bytes };
        }
        direct = { ok: false, kind: verdict.kind, url, reason: `${verdict.reason} (página gravada ${file})` };
      }
      if (!MIRROR_ON.has(direct.kind)) return direct;

      // a recording made while the source was blocked holds a mirror's page instead
      const falhas: LoadFail[] = [];
      for (const mirror of MIRRORS[`${source.id}/${page.id}`] ?? []) {
        const r = await readMirror(mirror, page);
        if (r === null) continue; // not recorded
        if (r.ok) return { ...r, origem: { kind: direct.kind, reason: direct.reason } };
        falhas.push(r);
      }
      if (falhas.length === 0) return direct;
      // the page was not recorded but a mirror's page was: its failure is the page's (under the mirror's URL)
      if (!got.ok && got.code === "ENOENT") return falhas[0]!;
      return { ...direct, reason: `${direct.reason}; ${falhas.map((f) => `espelho ${f.url}: ${f.reason}`).join("; ")}` };
    },
    async close() {},
    requestsPerHost: () => ({}),
  };
}

type PageRead = { ok: true; html: string; bytes: number; sha256: string } | { ok: false; code: string; reason: string };

/**
 * A recorded page as UTF-8 (the encoding --record writes), or why not. The size comes from the
 * open file's stat, before a byte is read; a file whose size changes while it is read is
 * refused rather than taken half-written. code "EFBIG" is the cap, the rest are the system's.
 */
async function readPage(file: string, cap = MAX_PAGE_BYTES): Promise<PageRead> {
  let fh;
  try {
    fh = await open(file, "r");
  } catch (err) {
    return { ok: false, code: (err as NodeJS.ErrnoException).code ?? "EIO", reason: (err as Error).message };
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) return { ok: false, code: "EISDIR", reason: `${file} não é um arquivo` };
    if (st.size > cap) {
      return { ok: false, code: "EFBIG", reason: `página gravada grande demais: ${file} tem ${st.size} bytes, limite ${cap} (o mesmo das páginas baixadas)` };
    }
    // one byte more than the stat said, to notice a file still being written
    const buf = Buffer.alloc(st.size + 1);
    let n = 0;
    for (;;) {
      const { bytesRead } = await fh.read(buf, n, buf.length - n, n);
      if (bytesRead === 0) break;
      n += bytesRead;
      if (n === buf.length) break;
    }
    if (n !== st.size) return { ok: false, code: "ECHANGED", reason: `${file} mudou durante a leitura (${st.size} bytes antes, ${n} depois)` };
    const raw = buf.subarray(0, n);
    return { ok: true, html: raw.toString("utf8"), bytes: n, sha256: createHash("sha256").update(raw).digest("hex") };
  } catch (err) {
    return { ok: false, code: (err as NodeJS.ErrnoException).code ?? "EIO", reason: (err as Error).message };
  } finally {
    await fh.close();
  }
}

export const CAPTURAS_FILE = "capturas.json";

function readCapturas(root: string): Map<string, Date> {
  const file = join(root, CAPTURAS_FILE);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return new Map();
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new PipelineError({ stage: "fetch", reason: `${file}: JSON inválido (${(err as Error).message})`, cause: err });
  }
  const out = new Map<string, Date>();
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) {
    throw new PipelineError({ stage: "fetch", reason: `${file}: esperado um objeto {"fonte/pagina": "data ISO 8601"}` });
  }
  for (const [key, value] of Object.entries(doc)) {
    if (key.startsWith("$")) continue; // "$comentario"
    const d = typeof value === "string" ? new Date(value) : new Date(Number.NaN);
    if (!/^[a-z0-9-]+(?:\/[a-z0-9-]+)+$/.test(key) || Number.isNaN(d.getTime())) {
      throw new PipelineError({ stage: "fetch", reason: `${file}: entrada inválida "${key}": ${JSON.stringify(value)} (use "fonte/pagina": "2026-09-06T01:39:00Z")` });
    }
    out.set(key, d);
  }
  return out;
}
