/**
 * The compressed head and its tail appended per request (pipeline/serve/app.ts): whatever the
 * head's size (both brotli qualities), its characters (UTF-8) and the tail's length, the body
 * decodes, with Node's zlib, to exactly head + tail, at either strength.
 */
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { comprimirCabeca, fecharComprimida } from "../../pipeline/serve/app.ts";

/** a JSON-like head of about `n` characters, with accents, not all of it repetitive */
function cabeca(n: number): string {
  let s = "{";
  for (let i = 0; s.length < n; i++) s += `"praça_${i}":{"preço":${(i * 7919) % 100_003 / 100},"unidade":"@","data":"2026-09-${String((i % 28) + 1).padStart(2, "0")}"},`;
  return s;
}

describe("compressed head plus a stored tail", () => {
  for (const n of [1, 1500, 40_000, 300_000]) {
    for (const enc of ["br", "gzip"] as const) {
      it(`${enc}, head of ${n} characters`, () => {
        const head = cabeca(n);
        for (const forte of [true, false]) {
          const c = comprimirCabeca(head, enc, forte);
          for (const cauda of ['"rate_limit":{"diario":100,"restante":99}}', '"rate_limit":{"diario":1000000000,"restante":0}}', "}"]) {
            const corpo = fecharComprimida(c, enc, cauda);
            const texto = (enc === "br" ? brotliDecompressSync(corpo) : gunzipSync(corpo)).toString("utf8");
            expect(texto).toBe(head + cauda);
          }
          // the head is compressed: a large one much smaller than itself
          if (n >= 40_000) expect(c.prefixo.length).toBeLessThan(Buffer.byteLength(head) / 3);
        }
      });
    }
  }
});
