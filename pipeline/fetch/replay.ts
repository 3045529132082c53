import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { join, resolve } from "node:path";
import { PipelineError } from "../domain/errors.ts";
import { MIRRORS } from "../sources/index.ts";
import { classifyResponse } from "./challenge.ts";
import { MAX_PAGE_BYTES } from "./http.ts";
import { mirrorFile } from "./record.ts";
import { pageUrl, type PageLoader, type LoadResult } from "./types.ts";
import type { PageDef, SourceDef } from "../sources/types.ts";

/**
 * Reads recorded pages from DIR/{source}/{page}.html (the layout of test/fixtures). A
 * missing file is that page's failure ("missing"), not the run's; a recorded challenge page or a
 * page without its table is classified exactly as the live fetcher would (blocked, soft_block).
 *
 * A recorded page obeys the live size cap (MAX_PAGE_BYTES): its size is read from the file
 * system before a byte of it is, and a larger file fails as "http_error", the kind the live
 * fetcher gives the same body, so a page fails the same way in both paths.
 *
 * The series record when their data was fetched. A recorded page was fetched when it was
 * recorded, not when it is replayed: DIR/capturas.json (optional) maps "{source}/{page}" to the
 * capture time, and pages it does not list count as fetched now.
 */
export function createReplayLoader(dir: string, now: () => Date, env: NodeJS.ProcessEnv = process.env): PageLoader {
  const root = resolve(dir);
  const capturas = readCapturas(root);
  return {
    async load(source: SourceDef, page: PageDef): Promise<LoadResult> {
      const file = join(root, source.id, `${page.id}.html`);
      // status.json names the page by its real URL; the reason says which recorded file was used
      const url = pageUrl(source, page, env);
      const got = await readPage(file);
      if (!got.ok && got.code === "ENOENT") {
        // a recording made while the source was blocked holds the mirror's page instead
        const mirror = MIRRORS[`${source.id}/${page.id}`];
        const viaFile = mirror ? mirrorFile(root, mirror) : null;
        const via = viaFile ? await readPage(viaFile) : null;
        if (mirror && viaFile && via && (via.ok || via.code === "EFBIG")) {
          const mirrorUrl = (env[mirror.baseUrlEnv] || mirror.site).replace(/\/+$/, "") + mirror.path;
          if (!via.ok) return { ok: false, kind: "http_error", url: mirrorUrl, reason: via.reason };
          const viaHtml = via.html;
          const v = classifyResponse({ status: 200, headers: new Headers(), body: viaHtml, bytes: via.bytes }, (h) => mirror.hasTable(h));
          if (!v.ok) return { ok: false, kind: v.kind, url: mirrorUrl, reason: `${v.reason} (página gravada ${viaFile})` };
          const fetchedAt = capturas.get(`${mirror.id}/${page.id}`) ?? now();
          return { ok: true, html: viaHtml, url: viaFile, mirror, mirrorUrl, fetchedAt, method: "replay", sha256: via.sha256, bytes: via.bytes };
        }
      }
      if (!got.ok) {
        if (got.code === "EFBIG") return { ok: false, kind: "http_error", url, reason: got.reason };
        return {
          ok: false,
          kind: "missing",
          url,
          reason: got.code === "ENOENT" ? `página gravada não encontrada: ${file}` : `não foi possível ler a página gravada ${file} (${got.code})`,
        };
      }
      const html = got.html;
      // a recorded challenge or block page fails the same way it failed live
      const verdict = classifyResponse({ status: 200, headers: new Headers(), body: html, bytes: got.bytes }, (h) => page.hasTable(h));
      if (!verdict.ok) return { ok: false, kind: verdict.kind, url, reason: `${verdict.reason} (página gravada ${file})` };
      const fetchedAt = capturas.get(`${source.id}/${page.id}`) ?? now();
      return { ok: true, html, url: file, mirror: null, mirrorUrl: null, fetchedAt, method: "replay", sha256: got.sha256, bytes: got.bytes };
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
    if (!/^[a-z0-9-]+\/[a-z0-9-]+$/.test(key) || Number.isNaN(d.getTime())) {
      throw new PipelineError({ stage: "fetch", reason: `${file}: entrada inválida "${key}": ${JSON.stringify(value)} (use "fonte/pagina": "2026-09-06T01:39:00Z")` });
    }
    out.set(key, d);
  }
  return out;
}
