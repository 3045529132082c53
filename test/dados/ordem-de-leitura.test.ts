/**
 * npm run validate reads a whole tree in one order (validate/ajv.ts ordemDeLeitura): each series'
 * CSVs right after its JSON, so only one series' history waits in memory for its CSV instead of
 * every history of the tree (870 MB → 370 MB peak at 30 years, `npm run bench -- build`).
 */
import { readdirSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../pipeline/config.ts";
import { HISTORICO_LONGO_PATH } from "../../pipeline/render/csv.ts";
import { ordemDeLeitura } from "../../pipeline/validate/ajv.ts";

function arvore(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...arvore(p));
    else out.push(p);
  }
  return out;
}

describe("the order npm run validate reads a tree in", () => {
  const publico = join(REPO_ROOT, "public");
  const caminhos = arvore(publico).map((p) => relative(publico, p).split(sep).join("/"));
  const ordem = ordemDeLeitura(caminhos);

  it("reads every path once", () => {
    expect([...ordem].sort()).toEqual([...caminhos].sort());
  });

  it("puts each series' CSVs right after its JSON, with nothing else between them", () => {
    const csvs = ordem.filter((p) => /^api\/v1\/historico\/.+\.csv$/.test(p));
    expect(csvs.length).toBeGreaterThan(20);
    for (const csv of csvs) {
      const json = csv.replace("api/v1/historico/", "api/v1/cotacao/").replace(/(\.pracas)?(\.excel)?\.csv$/, ".json");
      const i = ordem.indexOf(json);
      expect(i, `${json} existe`).toBeGreaterThanOrEqual(0);
      const entre = ordem.slice(i + 1, ordem.indexOf(csv));
      expect(entre.every((p) => p.startsWith(json.replace("api/v1/cotacao/", "api/v1/historico/").replace(/\.json$/, "."))), `${csv}: ${entre.join(", ")}`).toBe(true);
    }
  });

  it("keeps everything else in plain order, the long file included", () => {
    const resto = ordem.filter((p) => !/^api\/v1\/historico\/.+\.csv$/.test(p));
    expect(resto).toEqual(caminhos.filter((p) => !/^api\/v1\/historico\/.+\.csv$/.test(p)).sort());
    expect(resto).toContain(HISTORICO_LONGO_PATH);
  });
});
