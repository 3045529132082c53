/**
 * Issue 10's fault suite: every fault kind of catalogue.ts, injected on the recorded pages, on
 * loopback sources and on the real commands, judged by the same rules the bench prints
 * (`npm run bench -- faults`): history unchanged or exactly the expected change, exit code,
 * status.json state and reason, `validate` green, no temp, staging or lock file left.
 */
import { afterAll, describe, expect, it } from "vitest";
import { CASES, Lab, judge, valueChanges, type FaultCase, type Outcome } from "./catalogue.ts";

const lab = new Lab();
afterAll(() => lab.close());

describe("every fault is refused whole or recovered, nothing silently changed", () => {
  for (const c of CASES) {
    it(`${c.id}: ${c.fault}`, async () => {
      const o = await c.run(lab);
      expect(judge(c, o), `saída da execução:\n${o.output.slice(-1500)}`).toEqual([]);
    }, 120_000);
  }
});

describe("the judge itself", () => {
  const tree = (historico: object[]) =>
    new Map([["api/v1/cotacao/milho.json", Buffer.from(JSON.stringify({ historico }))]]);
  const conforming: Outcome = {
    exit: 1,
    pages: { "cepea/milho": { estado: "rejected", motivo: "salto de 30%" } },
    values: [],
    events: [],
    leftovers: [],
    changedFiles: [],
    validation: [],
    output: "",
    after: new Map(),
    notes: [],
  };
  const c: FaultCase = {
    id: "x",
    group: "páginas gravadas",
    fault: "x",
    expect: { exit: 1, page: { id: "cepea/milho", estado: "rejected", motivo: /salto/ }, values: "inalterados", events: "nenhum" },
    run: async () => conforming,
  };

  it("passes an outcome that meets the expectation", () => {
    expect(judge(c, conforming)).toEqual([]);
  });

  it("names every way an outcome falls short", () => {
    const bad = judge(c, {
      ...conforming,
      exit: 0,
      pages: { "cepea/milho": { estado: "ok", motivo: null } },
      values: ["milho@2026-09-04:valor 70.93→90.93"],
      events: ["price_changed milho"],
      leftovers: [".cotacao-staging/api/v1/cotacao/milho.json"],
      validation: ["✗ api/v1/cotacao.json (1 erro)"],
    });
    expect(bad).toHaveLength(7);
    expect(bad.join("\n")).toMatch(/código de saída 0/);
    expect(bad.join("\n")).toMatch(/histórico alterado: milho@2026-09-04:valor 70\.93→90\.93/);
    expect(bad.join("\n")).toMatch(/arquivos deixados: \.cotacao-staging/);
  });

  it("reads a change of any numeric field, a praça's included, and a new or lost day", () => {
    const before = tree([{ data: "2026-09-03", valor: 71.2, valor_usd: 13.9, pracas: { Barretos: 345.5 } }, { data: "2026-09-04", valor: 70.93 }]);
    const after = tree([{ data: "2026-09-03", valor: 71.2, valor_usd: 13.8, pracas: { Barretos: 863.75 } }, { data: "2026-09-05", valor: 71 }]);
    expect(valueChanges(before, after)).toEqual([
      "milho@2026-09-03:pracas.Barretos 345.5→863.75",
      "milho@2026-09-03:valor_usd 13.9→13.8",
      "milho@2026-09-04 removido",
      "milho@2026-09-05 novo",
    ]);
  });
});
