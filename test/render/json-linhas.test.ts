/**
 * stringifyDoc writes a line array of plain objects with one JSON.stringify of the whole array,
 * cut between its elements. These tests hold it to writing each element on its own
 * (`referencia`, the same serializer with its fast path off): the same bytes, or the same error, for
 * elements whose text holds "},{" (nested or in a string), that are not plain objects, or that
 * are no objects at all.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stringifyDoc } from "../../pipeline/render/json.ts";

/** Each element of a line array written on its own: the serializer with its fast path off. */
const referencia = (doc: unknown): string => stringifyDoc(doc, false);

const resultado = (f: () => string) => {
  try {
    return f();
  } catch (e) {
    return `erro ${(e as Error).constructor.name}: ${(e as Error).message}`;
  }
};

class Dia {
  constructor(
    public data: string,
    public valor: number,
  ) {}
}

describe("stringifyDoc's line arrays", () => {
  it("writes each element as JSON.stringify writes it alone, whatever the elements are", () => {
    const semProto = Object.assign(Object.create(null) as object, { data: "2026-09-08", valor: 1 });
    const casos: unknown[][] = [
      [{ data: "2026-09-08", valor: 330, pracas: { Dourados: 330, "C. Grande": 329.5 } }, { data: "2026-09-09", valor: 331.5 }],
      [{ praca: "a},{b", valor: 1 }, { praca: "c", valor: 2 }],
      [{ a: [{}, {}] }, { b: { c: {} } }, {}],
      [{ "},{": "},{" }],
      [{ v: Number.NaN, w: undefined, x: () => 1 }, { v: Number.POSITIVE_INFINITY }],
      [new String("a},{b") as unknown, {}],
      [new Number(1) as unknown, { a: 1 }],
      [new Date(0), { a: 1 }],
      [{ toJSON: (k: string) => ({ chave: k }) }, { toJSON: (k: string) => ({ chave: k }) }],
      [new Dia("2026-09-08", 1), new Dia("2026-09-09", 2)],
      [semProto, semProto],
      // eslint-disable-next-line no-sparse-arrays
      [{ a: 1 }, , { b: 2 }],
      [{ a: 1 }, undefined],
      [{ a: 1 }, null, { b: 2 }],
      [[1, 2], [3]],
      [1, 2, 3],
      [{ a: 1 }, Number.NaN],
      [{ a: 1 }, "},{"],
      [{ a: "\u2028\ud800" }, { b: "é\n\"" }],
    ];
    for (const [i, linhas] of casos.entries()) {
      for (const chave of ["historico", "pracas", "eventos", "capturas", "outra"]) {
        const doc = { produto: "soja", [chave]: linhas, fim: { [chave]: linhas } };
        expect(resultado(() => stringifyDoc(doc)), `caso ${i}, ${chave}`).toBe(resultado(() => referencia(doc)));
      }
    }
  });

  it("agrees with the element-by-element writer on random documents", () => {
    const linha = fc.oneof(fc.dictionary(fc.oneof(fc.string(), fc.constantFrom("},{", "data", "valor")), fc.jsonValue({ maxDepth: 3 })), fc.jsonValue({ maxDepth: 2 }));
    fc.assert(
      fc.property(fc.array(linha, { maxLength: 8 }), fc.constantFrom("historico", "pracas", "outra"), (linhas, chave) => {
        const doc = { [chave]: linhas };
        expect(resultado(() => stringifyDoc(doc))).toBe(resultado(() => referencia(doc)));
      }),
      { numRuns: 2000, seed: 15 },
    );
  });
});
