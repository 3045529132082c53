/**
 * The aggregates' units, checked against the series they show: since the outputs audit,
 * cotacao.json's `unidades` come from the series shown, but `npm run validate` compared only the
 * value and the day, so an aggregate labelling a price per kg as per arroba (R$ 12,35 "@" for RS's
 * boi) passed. A unit that differs from the series' is now a cross-file problem, as a value is.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../pipeline/config.ts";
import { ChecagemCruzada } from "../../pipeline/validate/cruzada.ts";

const ler = (rel: string) => JSON.parse(readFileSync(join(REPO_ROOT, "public", rel), "utf8")) as Record<string, any>;
const MIX = "os arquivos são de versões diferentes dos dados (publicação misturada?); rode npm run build";

function problemas(editar: (agg: Record<string, any>, rs: Record<string, any>) => void): string[] {
  const c = new ChecagemCruzada();
  for (const rel of ["api/v1/cotacao/boi_gordo.json", "api/v1/cotacao/boi_gordo/RS.json", "api/v1/cotacao/vaca_gorda/RS.json"]) c.add(rel, ler(rel));
  const agg = ler("api/v1/cotacao.json");
  const rs = ler("api/v1/cotacao/uf/RS.json");
  editar(agg, rs);
  c.add("api/v1/cotacao.json", agg);
  c.add("api/v1/cotacao/uf/RS.json", rs);
  return [...c.problemas().values()].flat();
}

describe("an aggregate's unit must be the series' unit", () => {
  it("the published aggregates agree with their series", () => {
    expect(problemas(() => {})).toEqual([]);
  });

  it("cotacao.json's unidades naming another unit than the series shown", () => {
    expect(problemas((agg) => (agg.unidades.boi_gordo_cepea_sp = "kg"))).toContain(`api/v1/cotacao.json: /unidades/boi_gordo_cepea_sp: "kg" não confere com a unidade de api/v1/cotacao/boi_gordo.json ("@"); ${MIX}`);
  });

  it("a state quote labelled in another unit than its series (RS's boi per kg shown as per arroba)", () => {
    const p = problemas((_agg, rs) => (rs.boi_gordo_uf.unidade = "@"));
    expect(p.some((m) => m.startsWith('api/v1/cotacao/uf/RS.json: /boi_gordo_uf: 12.35 "@" de "2026-08-05"') && m.includes('(12.35 "kg", praça "Oeste")'))).toBe(true);
  });
});
