import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { safePath } from "../../pipeline/serve/files.ts";

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
