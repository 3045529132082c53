import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stringifyDoc } from "../pipeline/render/json.ts";
import { fromHundredths, parseBRDecimal, toHundredths, variationPct, diff } from "../pipeline/domain/money.ts";

/** Integer centavos as the shortest decimal text, by integer arithmetic only: 34770 -> "347.7", -7 -> "-0.07". */
function decimalDosCentavos(c: number): string {
  const sinal = c < 0 ? "-" : "";
  const abs = Math.abs(c);
  const reais = Math.floor(abs / 100);
  const cents = String(abs % 100).padStart(2, "0").replace(/0$/, "");
  return `${sinal}${reais}${cents === "" || cents === "0" ? "" : `.${cents}`}`;
}

describe("deterministic JSON", () => {
  it("writes each historico entry on its own line, the rest indented", () => {
    const text = stringifyDoc({ produto: "soja", valor: 161, historico: [{ data: "2026-09-24", valor: 160.5 }, { data: "2026-09-25", valor: 161 }] });
    expect(text).toBe(
      '{\n  "produto": "soja",\n  "valor": 161,\n  "historico": [\n    {"data":"2026-09-24","valor":160.5},\n    {"data":"2026-09-25","valor":161}\n  ]\n}\n',
    );
  });

  it("is a function of the data: same input, same bytes", () => {
    const doc = { a: [1, 2], b: { c: null, d: "é" }, pracas: [{ praca: "Barretos", valor: 345.5 }] };
    expect(stringifyDoc(doc)).toBe(stringifyDoc(structuredClone(doc)));
    expect(JSON.parse(stringifyDoc(doc))).toEqual(doc);
  });

  it("refuses non-finite numbers instead of writing null", () => {
    expect(() => stringifyDoc({ valor: Number.NaN })).toThrow(/não finito/);
  });
});

describe("money to the centavo", () => {
  it("reads Brazilian decimals without float drift", () => {
    expect(JSON.stringify(fromHundredths(parseBRDecimal("347,70")!))).toBe("347.7");
    expect(fromHundredths(parseBRDecimal("3.426,02")!)).toBe(3426.02);
    expect(parseBRDecimal("0,07")).toBe(7);
    expect(parseBRDecimal("-12,92")).toBe(-1292);
    expect(parseBRDecimal("1.2,3")).toBeNull();
    expect(parseBRDecimal("")).toBeNull();
    expect(parseBRDecimal("R$ 161,00")).toBe(16100);
  });

  // The published text must carry exactly the centavos that were read: the literal in the file
  // is the shortest decimal of c/100 ("347.7", "161", "0.07", "-4.35"), written by the real
  // serializer in a line array and in a nested object, and reading it back gives c again. A
  // fromHundredths that rounds or drifts, a serializer that writes toFixed(2) ("347.70") or
  // drops the sign, or a toHundredths that truncates would each fail here.
  it("writes every centavo amount as its exact decimal text, which reads back to the same centavos", () => {
    // up to R$ 10 million: toHundredths's fixed 1e-6 tolerance wrongly refuses some two-decimal
    // values above ~R$ 90 million (134414215.39), far beyond any price
    const centavos = fc.oneof(fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }), fc.integer({ min: -1_000, max: 1_000 }));
    fc.assert(
      fc.property(centavos, (c) => {
        const valor = fromHundredths(c);
        const text = stringifyDoc({ valor, variacao: { absoluta: valor }, historico: [{ data: "2026-09-25", valor }] });
        const literais = [...text.matchAll(/"(?:valor|absoluta)":\s?(-?[0-9.eE+-]+)/g)].map((m) => m[1]);
        expect(literais).toEqual([decimalDosCentavos(c), decimalDosCentavos(c), decimalDosCentavos(c)]);
        expect(toHundredths(JSON.parse(text).historico[0].valor)).toBe(c);
        expect(parseBRDecimal(decimalDosCentavos(c).replace(".", ","))).toBe(c);
      }),
      { numRuns: 5_000 },
    );
  });

  it("computes variations on integers", () => {
    expect(diff(347.6, 347.7)).toBe(0.1);
    expect(diff(0.1, 0.3)).toBe(0.2); // 0.3 - 0.1 in floats is 0.19999999999999998
    expect(variationPct(347.6, 347.7)).toBe(0.03);
    expect(variationPct(100, 90)).toBe(-10);
  });
});
