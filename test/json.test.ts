import { describe, expect, it } from "vitest";
import { stringifyDoc } from "../pipeline/render/json.ts";
import { fromHundredths, parseBRDecimal, variationPct, diff } from "../pipeline/domain/money.ts";

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

  it("never writes more than two decimals for any centavo amount", () => {
    for (let c = 0; c < 200_000; c += 7) {
      const s = JSON.stringify(fromHundredths(c));
      expect(s.split(".")[1]?.length ?? 0).toBeLessThanOrEqual(2);
    }
  });

  it("computes variations on integers", () => {
    expect(diff(347.6, 347.7)).toBe(0.1);
    expect(diff(0.1, 0.3)).toBe(0.2); // 0.3 - 0.1 in floats is 0.19999999999999998
    expect(variationPct(347.6, 347.7)).toBe(0.03);
    expect(variationPct(100, 90)).toBe(-10);
  });
});
