import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { MIRRORS } from "../sources/index.ts";
import { classifyResponse } from "./challenge.ts";
import { mirrorFile } from "./record.ts";
import { pageUrl, type PageLoader, type LoadResult } from "./types.ts";
import type { PageDef, SourceDef } from "../sources/types.ts";

/**
 * Reads recorded pages from DIR/{source}/{page}.html (the layout of test/fixtures). A
 * missing file is that page's failure ("missing"), not the run's; a recorded challenge page or a
 * page without its table is classified exactly as the live fetcher would (blocked, soft_block).
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
      let html: string;
      try {
        html = await readFile(file, "utf8");
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        // a recording made while the source was blocked holds the mirror's page instead
        const mirror = MIRRORS[`${source.id}/${page.id}`];
        if (code === "ENOENT" && mirror) {
          const viaFile = mirrorFile(root, mirror);
          const viaHtml = await readFile(viaFile, "utf8").catch(() => null);
          if (viaHtml !== null) {
            const mirrorUrl = (env[mirror.baseUrlEnv] || mirror.site).replace(/\/+$/, "") + mirror.path;
            const v = classifyResponse({ status: 200, headers: new Headers(), body: viaHtml, bytes: Buffer.byteLength(viaHtml) }, (h) => mirror.hasTable(h));
            if (!v.ok) return { ok: false, kind: v.kind, url: mirrorUrl, reason: `${v.reason} (página gravada ${viaFile})` };
            return { ok: true, html: viaHtml, url: viaFile, mirror, mirrorUrl, fetchedAt: capturas.get(`${mirror.id}/${page.id}`) ?? now(), method: "replay" };
          }
        }
        return {
          ok: false,
          kind: "missing",
          url,
          reason: code === "ENOENT" ? `página gravada não encontrada: ${file}` : `não foi possível ler a página gravada ${file} (${code})`,
        };
      }
      // a recorded challenge or block page fails the same way it failed live
      const verdict = classifyResponse({ status: 200, headers: new Headers(), body: html, bytes: Buffer.byteLength(html) }, (h) => page.hasTable(h));
      if (!verdict.ok) return { ok: false, kind: verdict.kind, url, reason: `${verdict.reason} (página gravada ${file})` };
      const fetchedAt = capturas.get(`${source.id}/${page.id}`) ?? now();
      return { ok: true, html, url: file, mirror: null, mirrorUrl: null, fetchedAt, method: "replay" };
    },
    async close() {},
    requestsPerHost: () => ({}),
  };
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
    throw new Error(`${file}: JSON inválido (${(err as Error).message})`);
  }
  const out = new Map<string, Date>();
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) {
    throw new Error(`${file}: esperado um objeto {"fonte/pagina": "data ISO 8601"}`);
  }
  for (const [key, value] of Object.entries(doc)) {
    if (key.startsWith("$")) continue; // "$comentario"
    const d = typeof value === "string" ? new Date(value) : new Date(Number.NaN);
    if (!/^[a-z0-9-]+\/[a-z0-9-]+$/.test(key) || Number.isNaN(d.getTime())) {
      throw new Error(`${file}: entrada inválida "${key}": ${JSON.stringify(value)} (use "fonte/pagina": "2026-09-06T01:39:00Z")`);
    }
    out.set(key, d);
  }
  return out;
}
