/**
 * The contract's `date` format (pipeline/contract/data.ts) replaces ajv-formats' own in the
 * compiled and the generated validators: it must accept and refuse exactly what ajv-formats'
 * `date` does, and both validators must use it.
 */
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { novoAjv } from "../../pipeline/contract/schemas.ts";
import { isDataValida, isDataValidaEm, isFormatoData } from "../../pipeline/contract/data.ts";
import { VALIDADORES } from "../../pipeline/contract/validadores.gerados.ts";
import { isRealDate } from "../../pipeline/validate/csv.ts";
import { aleatorio } from "../helpers/aleatorio.ts";

const require = createRequire(import.meta.url);
const ajvFormats = require("ajv-formats/dist/formats").fullFormats as { date: { validate: (s: string) => boolean; compare: unknown } };

const CASOS = [
  "2026-09-10", "2024-02-29", "2000-02-29", "1900-02-29", "2026-02-29", "2026-02-28", "2026-02-30", "2026-04-31", "2026-12-31", "2026-13-01",
  "2026-00-10", "2026-09-00", "0000-01-01", "9999-12-31", "2026-9-10", "2026-09-1", "26-09-10", "2026/09/10", "2026-09-10 ", " 2026-09-10",
  "2026-09-10\n", "2026-09-1a", "２０２６-09-10", "2026-09-10T00:00:00Z", "", "2026-0９-10", "+026-09-10", "-026-09-10", "2026--9-10", "2026-09-3:",
];

describe("isDataValida", () => {
  it("says what ajv-formats' date says, on chosen and on random strings", () => {
    const sorteio = aleatorio(2026);
    const alfabeto = "0123456789-/: a\n";
    const casos = [...CASOS];
    for (let k = 0; k < 20_000; k++) {
      // mostly day-shaped strings, each character sometimes replaced
      const base = `${String(Math.floor(sorteio() * 10_000)).padStart(4, "0")}-${String(Math.floor(sorteio() * 14)).padStart(2, "0")}-${String(Math.floor(sorteio() * 33)).padStart(2, "0")}`;
      casos.push(base.replace(/./g, (c) => (sorteio() < 0.03 ? alfabeto[Math.floor(sorteio() * alfabeto.length)]! : c)));
    }
    let validas = 0;
    for (const s of casos) {
      const esperado = ajvFormats.date.validate(s);
      expect(isDataValida(s), JSON.stringify(s)).toBe(esperado);
      expect(isRealDate(s), JSON.stringify(s)).toBe(esperado);
      // in place: the ten characters at 2, whatever follows them
      expect(isDataValidaEm(`x,${s},y`, 2), JSON.stringify(s)).toBe(ajvFormats.date.validate(`x,${s},y`.slice(2, 12)));
      expect(isFormatoData(s), JSON.stringify(s)).toBe(/^\d{4}-\d{2}-\d{2}$/.test(s));
      if (esperado) validas++;
    }
    expect(validas).toBeGreaterThan(casos.length / 4);
    expect(validas).toBeLessThan(casos.length);
  });

  it("is the date format of the runtime Ajv, with ajv-formats' comparison, and the generated validators refuse an impossible day by it", () => {
    expect(novoAjv().formats.date).toEqual({ ...ajvFormats.date, validate: isDataValida });
    const gerado = VALIDADORES["serie.schema.json"]!;
    for (const [data, erro] of [["2026-02-30", true], ["2024-02-29", false]] as const) {
      gerado({ historico: [{ data, valor: 1 }] });
      const formato = (gerado.errors ?? []).filter((e) => e.keyword === "format" && e.instancePath === "/historico/0/data");
      expect(formato.map((e) => e.params), data).toEqual(erro ? [{ format: "date" }] : []);
    }
  });
});
