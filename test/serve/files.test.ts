import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { FileCache, safePath } from "../../pipeline/serve/files.ts";

/** every character but the slashes percent-encoded: forces the decoding path of safePath */
function encodeAll(path: string): string {
  return path.replace(/[^/]/g, (ch) => `%${ch.charCodeAt(0).toString(16).padStart(2, "0").toUpperCase()}`);
}

describe("safePath", () => {
  it("reads plain paths, with and without a trailing slash", () => {
    expect(safePath("/")).toEqual({ ok: true, rel: "", trailingSlash: true });
    expect(safePath("/api/v1/cotacao")).toEqual({ ok: true, rel: "api/v1/cotacao", trailingSlash: false });
    expect(safePath("/simulador/")).toEqual({ ok: true, rel: "simulador", trailingSlash: true });
    expect(safePath("/api/v1/historico/boi_gordo/MS.csv")).toEqual({ ok: true, rel: "api/v1/historico/boi_gordo/MS.csv", trailingSlash: false });
    for (const bad of ["", "//", "/a//b", "/a/../b", "/./a", "/.git/config", "/a/.env", "/api/v1/cotacao.json/.."]) {
      expect(safePath(bad).ok, bad).toBe(false);
    }
  });

  it("gives a plain path the same answer as its percent-encoded form", () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9._-]{0,6}$/);
    const path = fc.tuple(fc.array(segment, { maxLength: 5 }), fc.boolean()).map(([segs, slash]) => `/${segs.join("/")}${slash && segs.length ? "/" : ""}`);
    fc.assert(
      fc.property(path, (p) => {
        expect(safePath(p)).toEqual(safePath(encodeAll(p)));
      }),
      { numRuns: 2000 },
    );
  });
});

describe("FileCache content types", () => {
  it("serves the romaneio page's WebAssembly as application/wasm, uncompressed-as-sent data as bytes", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cotacao-files-"));
    try {
      await mkdir(join(dir, "romaneio", "vendor"), { recursive: true });
      // a module header: streaming compilation refuses any other Content-Type
      await writeFile(join(dir, "romaneio", "vendor", "x.wasm"), Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
      await writeFile(join(dir, "romaneio", "vendor", "por.traineddata.gz"), gzipSync(Buffer.alloc(1000)));
      const files = new FileCache(dir);
      const wasm = await files.resolve("romaneio/vendor/x.wasm");
      expect(wasm.kind === "file" && wasm.entry.type).toBe("application/wasm");
      // the language data is gunzipped by tesseract.js itself: never re-encoded or labelled as text
      const dados = await files.resolve("romaneio/vendor/por.traineddata.gz");
      expect(dados.kind === "file" && [dados.entry.type.startsWith("text/"), dados.entry.compressible]).toEqual([false, false]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
