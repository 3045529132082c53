import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cambioPlausivel, checkRows } from "../../pipeline/check/coherence.ts";
import { JUMP_MAX_FACTOR, checkUpdates, jumpLimitPct } from "../../pipeline/check/gates.ts";
import { aceiteArg, diffEntry, judgeRevisions, parseAceite } from "../../pipeline/check/revisions.ts";
import { PRODUTOS, PRODUTO_INFO } from "../../pipeline/domain/products.ts";
import type { PriceRow } from "../../pipeline/domain/row.ts";
import { allSeries } from "../../pipeline/sources/index.ts";
import { FIXTURES } from "../helpers/pipeline.ts";

const def = (id: string) => allSeries().find((d) => d.id === id)!;
const rowsOf = async (rel: string): Promise<PriceRow[]> => JSON.parse(await readFile(join(FIXTURES, rel), "utf8")).rows;

describe("jumps are judged whatever the gap", () => {
  it("widens with the square root of the gap in weeks, capped", () => {
    expect(jumpLimitPct(10, 1)).toBe(10);
    expect(jumpLimitPct(10, 7)).toBe(10);
    expect(jumpLimitPct(10, 12)).toBe(13.09);
    expect(jumpLimitPct(10, 30)).toBe(20.7);
    expect(jumpLimitPct(10, 63)).toBe(30);
    expect(jumpLimitPct(10, 3650)).toBe(30);
  });

  it("never lets +189 % through, for any product and any gap", () => {
    for (const p of PRODUTOS) {
      for (const gap of [1, 12, 100, 10_000]) expect(jumpLimitPct(PRODUTO_INFO[p].saltoMaximoPct, gap)).toBeLessThanOrEqual(PRODUTO_INFO[p].saltoMaximoPct * JUMP_MAX_FACTOR);
      expect(PRODUTO_INFO[p].saltoMaximoPct * JUMP_MAX_FACTOR).toBeLessThan(189);
    }
  });

  it("a quote 12 days after the last stored day at +189 % is rejected; a plausible one passes", () => {
    const now = new Date("2026-09-01T12:00:00-03:00");
    const stored = [{ data: "2026-08-05", valor: 345.5 }];
    const at = (valor: number) => [{ def: def("boi_gordo/SP"), entries: [{ data: "2026-08-17", valor }], pracas: null }];
    const bad = checkUpdates(at(999), () => stored, now);
    expect(bad).toHaveLength(1);
    expect(bad[0]).toMatch(/salto de 189,15% de 05\/08\/2026 .* para 17\/08\/2026 .*limite de 13,09% .*12 dia/);
    expect(checkUpdates(at(370), () => stored, now)).toEqual([]);
  });

  it("judges each praça against its own previous quote", () => {
    const now = new Date("2026-09-01T12:00:00-03:00");
    const stored = [{ data: "2026-08-05", valor: 345.5, pracas: { Barretos: 345.5, Araçatuba: 343 } }];
    const u = [{ def: def("boi_gordo/SP"), entries: [{ data: "2026-08-06", valor: 346, pracas: { Barretos: 346, Araçatuba: 686 } }], pracas: null }];
    expect(checkUpdates(u, () => stored, now).join()).toMatch(/boi_gordo\/SP, praça Araçatuba: salto de 100,00% de 05\/08\/2026 \(R\$ 343,00\) para 06\/08\/2026 \(R\$ 686,00\), acima do limite de 10,00%/);
  });
});

describe("cross-field checks", () => {
  it("every recorded page passes them", async () => {
    for (const rel of ["cepea/boi-gordo", "cepea/bezerro", "cepea/milho", "cepea/soja", "scot/boi-gordo", "scot/vaca-gorda"]) {
      expect(checkRows(await rowsOf(`${rel}.expected.json`)), rel).toEqual([]);
    }
  });

  it("R$ and US$ swapped (bezerro) implies a rate of 0,19 R$/US$ and is refused", async () => {
    const rows = (await rowsOf("cepea/bezerro.expected.json")).map((r) => ({ ...r, valor: r.extras.valor_usd as number, extras: { valor_usd: r.valor } }));
    const problems = checkRows(rows);
    expect(problems).toHaveLength(rows.length);
    expect(problems[0]).toMatch(/câmbio de 0,19 R\$\/US\$, fora do plausível \(1,5–8\); colunas trocadas\?/);
  });

  it("one row whose US$ cell moved stands out from the page's own rate", async () => {
    const rows = await rowsOf("cepea/milho.expected.json");
    rows[3] = { ...rows[3]!, extras: { valor_usd: 11.5 } };
    expect(checkRows(rows)).toEqual([expect.stringMatching(/^milho em .*: câmbio implícito de .* difere mais de 8% da mediana da página/)]);
  });

  it("the plausible rate follows the Real's eras", () => {
    expect(cambioPlausivel("1995-01-02")).toEqual([0.8, 1.3]);
    expect(cambioPlausivel("1999-02-01")).toEqual([1.2, 2.4]);
    expect(cambioPlausivel("2026-09-04")).toEqual([1.5, 8]);
  });

  it("the devaluation of 1999 is read in windows of 15 days as a backfill reads it; swapped columns there are still refused", async () => {
    // the rate's path, roughly (BCB's PTAX): the band widened on 13/01, the float from 15/01, the
    // peak in early March; between the points it moves linearly, business days only
    const pontos: Array<[string, number]> = [
      ["1998-12-01", 1.19], ["1999-01-12", 1.21], ["1999-01-13", 1.32], ["1999-01-14", 1.32], ["1999-01-15", 1.43], ["1999-01-18", 1.53],
      ["1999-01-29", 1.98], ["1999-02-12", 1.9], ["1999-03-03", 2.16], ["1999-03-31", 1.72], ["1999-05-31", 1.68],
    ];
    const [modelo] = await rowsOf("cepea/milho.expected.json");
    const rows = [];
    for (let i = 1; i < pontos.length; i++) {
      const [de, a] = pontos[i - 1]!;
      const [ate, b] = pontos[i]!;
      const total = (Date.parse(ate) - Date.parse(de)) / 864e5;
      for (let t = Date.parse(de) + (i === 1 ? 0 : 864e5); t <= Date.parse(ate); t += 864e5) {
        const dia = new Date(t).getUTCDay();
        if (dia === 0 || dia === 6) continue;
        const cambio = a + ((b - a) * (t - Date.parse(de))) / 864e5 / total;
        const data = new Date(t).toISOString().slice(0, 10);
        rows.push({ ...modelo!, data, valor: 12, extras: { valor_usd: Math.round((12 / cambio) * 100) / 100 } });
      }
    }
    const problemas = [];
    for (let i = 0; i < rows.length; i += 15) problemas.push(...checkRows(rows.slice(i, i + 15)));
    expect(problemas).toEqual([]);
    const trocada = rows.findIndex((r) => r.data === "1999-02-01");
    const comTroca = rows.map((r, i) => (i === trocada ? { ...r, valor: r.extras.valor_usd as number, extras: { valor_usd: r.valor } } : r));
    expect(checkRows(comTroca.slice(trocada - 5, trocada + 10))).toEqual([expect.stringMatching(/^milho em 01\/02\/1999: .* câmbio de 0,\d\d R\$\/US\$, fora do plausível \(1,2–2,4\)/)]);
  });

  it("across the devaluation of 1999 a day is refused only when both its R$ and its US$ value jump beyond the limit", () => {
    const now = new Date("2026-09-07T12:00:00-03:00");
    const par = (id: string, a: string, b: string, antes: [number, number], depois: [number, number]) =>
      checkUpdates([{ def: def(id), entries: [{ data: b, valor: depois[0], valor_usd: depois[1] }], pracas: null }], () => [{ data: a, valor: antes[0], valor_usd: antes[1] }], now);
    // milho, priced in reais: R$ 30,00 both days, the rate 1,32 then 1,55: US$ -14,87 % (limit 12 %)
    expect(par("milho", "1999-01-14", "1999-01-15", [30, 22.73], [30, 19.35])).toEqual([]);
    expect(par("milho", "2026-01-14", "2026-01-15", [30, 22.73], [30, 19.35])).toEqual([expect.stringContaining("milho (US$): salto de -14,87% de 14/01/2026")]);
    // soja, priced in dollars: US$ 50,00 both days, R$ 66,00 then 74,00: +12,12 % (limit 10 %)
    expect(par("soja", "1999-01-14", "1999-01-15", [66, 50], [74, 50])).toEqual([]);
    expect(par("soja", "2026-01-14", "2026-01-15", [66, 50], [74, 50])).toEqual([expect.stringContaining("soja: salto de 12,12% de 14/01/2026")]);
    // both beyond the limit (a row misread or scaled): refused, in R$ and in US$
    expect(par("milho", "1999-01-14", "1999-01-15", [30, 22.73], [35, 19.35])).toEqual([
      expect.stringContaining("milho: salto de 16,67% de 14/01/1999"),
      expect.stringContaining("milho (US$): salto de -14,87% de 14/01/1999"),
    ]);
  });

  it("Scot's à vista far from its own Funrural, Senar and 30-day columns is refused", async () => {
    const rows = await rowsOf("scot/boi-gordo.expected.json");
    const i = rows.findIndex((r) => r.praca === "Barretos");
    rows[i] = { ...rows[i]!, valor: 863.75 };
    const problems = checkRows(rows);
    expect(problems.length).toBeGreaterThanOrEqual(3);
    expect(problems.join("\n")).toMatch(/boi_gordo\/SP, praça Barretos em 05\/08\/2026: Senar à vista \/ à vista = 345,00 \/ 863,75 = 0,399, fora da relação esperada/);
  });
});

describe("revisions of published days", () => {
  const boi = def("boi_gordo");
  const sp = def("boi_gordo/SP");

  it("centavos pass; beyond the product's bound is suspicious, field by field", () => {
    const antes = { data: "2026-09-03", valor: 347.6, valor_usd: 68.1 };
    const small = judgeRevisions(boi, diffEntry("boi_gordo", antes, { ...antes, valor: 347.55 }), [], null);
    expect(small.suspeitas).toEqual([]);
    expect(small.todas).toEqual([{ serie: "boi_gordo", data: "2026-09-03", campo: "valor", antes: 347.6, depois: 347.55, aceita: false }]);
    // 1,5 % of 347,60 is 5,21: 352,81 is in, 352,82 is out
    expect(judgeRevisions(boi, diffEntry("boi_gordo", antes, { ...antes, valor: 352.81 }), [], null).suspeitas).toEqual([]);
    expect(judgeRevisions(boi, diffEntry("boi_gordo", antes, { ...antes, valor: 352.82 }), [], null).suspeitas).toHaveLength(1);
    const usd = judgeRevisions(boi, diffEntry("boi_gordo", antes, { ...antes, valor_usd: 660.12 }), [], null);
    expect(usd.suspeitas.map((c) => c.campo)).toEqual(["valor_usd"]);
  });

  it("base_sp is bounded in percentage points; a trend arrow may change; a praça may appear but not vanish", () => {
    const antes = { data: "2026-08-05", valor: 338, base_sp: -2.32, tendencia: "alta" as const, pracas: { "C. Grande": 338, Dourados: 338 } };
    const depois = { ...antes, base_sp: -3.5, tendencia: "estavel" as const, pracas: { "C. Grande": 338, "Três Lagoas": 331 } };
    const v = judgeRevisions(def("boi_gordo/MS"), diffEntry("boi_gordo/MS", antes, depois), [], "C. Grande");
    expect(v.suspeitas.map((c) => c.campo)).toEqual(["pracas.Dourados"]);
    expect(v.todas.map((c) => c.campo)).toEqual(["base_sp", "tendencia", "pracas.Dourados", "pracas.Três Lagoas"]);
    const far = judgeRevisions(def("boi_gordo/MS"), diffEntry("boi_gordo/MS", antes, { ...antes, base_sp: -0.8 }), [], "C. Grande");
    expect(far.suspeitas.map((c) => c.campo)).toEqual(["base_sp"]);
  });

  it("an operator accepts exactly one field's new value; accepting valor covers the reference praça", () => {
    const antes = { data: "2026-08-05", valor: 345.5, pracas: { Barretos: 345.5 } };
    const depois = { data: "2026-08-05", valor: 363, pracas: { Barretos: 363 } };
    const changes = diffEntry("boi_gordo/SP", antes, depois);
    expect(judgeRevisions(sp, changes, [], "Barretos").suspeitas).toHaveLength(2);
    const ok = judgeRevisions(sp, changes, [parseAceite("boi_gordo/SP@2026-08-05=363")], "Barretos");
    expect(ok.suspeitas).toEqual([]);
    expect(ok.todas.every((c) => c.aceita)).toBe(true);
    // another value, another day or another series accepts nothing
    for (const arg of ["boi_gordo/SP@2026-08-05=362", "boi_gordo/SP@2026-08-06=363", "boi_gordo/MS@2026-08-05=363"]) {
      expect(judgeRevisions(sp, changes, [parseAceite(arg)], "Barretos").suspeitas, arg).toHaveLength(2);
    }
  });

  it("parses and prints the operator's argument", () => {
    expect(parseAceite("boi_gordo/SP@2026-08-05=863,75")).toEqual({ serie: "boi_gordo/SP", data: "2026-08-05", campo: "valor", valor: 863.75 });
    expect(parseAceite("bezerro@2026-09-25:valor_usd=1.660,12")).toEqual({ serie: "bezerro", data: "2026-09-25", campo: "valor_usd", valor: 1660.12 });
    expect(parseAceite("boi_gordo/SP@2026-08-05:pracas.Ara\uFFFDatuba=nenhum")).toMatchObject({ campo: "pracas.Ara\uFFFDatuba", valor: null });
    expect(() => parseAceite("boi_gordo/SP=345")).toThrow(/use SERIE@AAAA-MM-DD=VALOR/);
    expect(() => parseAceite("boi_gordo/SP@2026-08-05=3,4,5")).toThrow(/não é um número/);
    expect(aceiteArg({ serie: "soja", data: "2026-09-25", campo: "valor_usd", antes: 31.02, depois: 40 })).toBe("soja@2026-09-25:valor_usd=40");
    for (const arg of ["boi_gordo/SP@2026-08-05=863.75", "soja@2026-09-25:valor_usd=40"]) {
      const a = parseAceite(arg);
      expect(aceiteArg({ serie: a.serie, data: a.data, campo: a.campo, antes: 1, depois: a.valor })).toBe(arg);
    }
  });
});
