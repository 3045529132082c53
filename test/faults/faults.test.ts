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

function check(c: FaultCase) {
  return async () => {
    const o = await c.run(lab);
    expect(judge(c, o), `saída da execução:\n${o.output.slice(-1500)}`).toEqual([]);
  };
}

// in-process cases one at a time (the full-disk case patches node:fs for its run); the real
// commands, child processes that mostly wait on each other, side by side
const groups = [...new Set(CASES.map((c) => c.group))];
for (const group of groups) {
  const cases = CASES.filter((c) => c.group === group);
  const d = group === "linha de comando" ? describe.concurrent : describe;
  d(`every fault is refused whole or recovered, nothing silently changed: ${group}`, () => {
    for (const c of cases) it(`${c.id}: ${c.fault}`, check(c), 120_000);
  });
}

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
