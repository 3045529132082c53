/**
 * historicoCsvs and pracasCsvs write whole-cent values from a table of cents, and any other
 * number with String: both must be byte for byte what csvTexto and excelTexto write of the same
 * tables (render/csv.ts), for every number a history could hold, and for values that are no
 * numbers at all (a history that failed its schema is still written the same way).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { HistoricoEntry } from "../../pipeline/domain/publicados.ts";
import { historicoCsvs } from "../../pipeline/render/csv.ts";
import { confereCsvs } from "../helpers/csv.ts";

const ESPECIAIS = [0, -0, 0.01, -0.01, 0.1, 0.29, 1.005, 0.1 + 0.2, 1e-7, 123456789012.34, 9999999999999.99, 1e13, 1e13 + 0.5, 1e15, 1e21, 2 ** 53, -2.1, -330.05, 347.7, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 5e-324, 1.7976931348623157e308];

describe("numbers in the one-pass CSV renderers", () => {
  it("are written as String writes them, with Excel's decimal comma, cents or not", () => {
    const historico = ESPECIAIS.map((v, i) => ({ data: `2026-01-${String(i + 1).padStart(2, "0")}`, valor: v, valor_30d: -v, tendencia: (i % 2 ? v : "alta") as "alta", pracas: { Dourados: v, "C. Grande": v / 3 } }));
    confereCsvs(historico);
    expect(historicoCsvs(historico, "@").csv).toContain("\n2026-01-02,0,@,0,0\n2026-01-03,0.01,@,-0.01,alta\n");
    expect(historicoCsvs(historico, "@").excel).toContain("\r\n2026-01-08;0,30000000000000004;@;-0,30000000000000004;0.30000000000000004\r\n");
  });

  it("agree with csvTexto and excelTexto on random doubles, cents and values that are no numbers", () => {
    const numero = fc.oneof(
      fc.double(),
      fc.integer({ min: -1e9, max: 1e9 }).map((c) => c / 100),
      fc.constantFrom(...ESPECIAIS),
      // text that needs no quoting: the one-pass renderers write a value unquoted, as a number
      fc.constantFrom("3.5", "12", null, true) as fc.Arbitrary<unknown> as fc.Arbitrary<number>,
    );
    const entrada = fc.record(
      { data: fc.constantFrom("2026-09-08", 'a,"b"', "c;d"), valor: numero, base_sp: numero, senar_30d: numero, pracas: fc.dictionary(fc.constantFrom("Dourados", "C. Grande", 'x,"y"'), numero, { maxKeys: 3 }) },
      { requiredKeys: ["data", "valor"] },
    ) as fc.Arbitrary<HistoricoEntry>;
    fc.assert(
      fc.property(fc.array(entrada, { maxLength: 10 }), (historico) => confereCsvs(historico)),
      { numRuns: 1000, seed: 15 },
    );
  });
});
