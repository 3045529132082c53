/**
 * Audit 5, outputs: the unit an analyst or a web developer is told for each number. CEPEA's cotton
 * is quoted in centavos of real per pound (ct_lb), and its US$ column, when a backfill brings one,
 * in cents of a dollar per pound (the page's implied exchange rate, R$ / US$, only passes the
 * coherence check when both are cents). "em dólares (US$)" and "em R$ por unidade" read 421.71 as
 * R$ 421,71/lb and 80 cents as US$ 80.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../pipeline/config.ts";
import { renderAggregate } from "../../pipeline/render/aggregate.ts";
import { renderDataPackage } from "../../pipeline/render/datapackage.ts";
import { businessDays, syntheticSeries } from "../bench/synthetic.ts";

const NOW = new Date("2026-09-26T20:00:00-03:00");
const series = syntheticSeries(businessDays(new Date(Date.UTC(2026, 0, 5)), 0.1), NOW);

function campo(recurso: string, nome: string): { description: string } {
  const r = renderDataPackage(series).resources.find((x) => x.name === recurso);
  const f = r?.schema.fields.find((x) => x.name === nome);
  if (!f) throw new Error(`${recurso}: sem o campo ${nome}`);
  return f;
}

describe("datapackage.json: the unit of CEPEA's US$ column", () => {
  it("cotton's valor_usd is in cents of a dollar per pound, as its valor is in centavos of real", () => {
    expect(series.get("algodao")!.historico[0]!.valor_usd).toBeTypeOf("number");
    expect(campo("historico-algodao", "valor").description).toContain("centavos de real por libra-peso");
    expect(campo("historico-algodao", "valor_usd").description).toBe("CEPEA: o mesmo indicador em dólares, em centavos de US$ por libra-peso.");
  });

  it("any other series' valor_usd names the series' own unit", () => {
    expect(campo("historico-boi_gordo", "valor_usd").description).toBe("CEPEA: o mesmo indicador em dólares, em US$ por arroba (15 kg de carcaça).");
    expect(campo("historico-bezerro", "valor_usd").description).toBe("CEPEA: o mesmo indicador em dólares, em US$ por cabeça.");
  });
});

describe("the schemas (and the client's types generated from them) say cotton is in centavos", () => {
  const schema = (n: string) => JSON.parse(readFileSync(join(REPO_ROOT, "schemas", n), "utf8"));
  const entrada = schema("common.schema.json").$defs.historicoEntrada.properties;

  it("a history entry's valor and valor_usd, and a series' valor", () => {
    expect(entrada.valor.description).toMatch(/algodão.*centavos de R\$ por libra-peso/);
    expect(entrada.valor_usd.description).toMatch(/algodão.*centavos de US\$ por libra-peso/);
    expect(schema("serie.schema.json").properties.valor.description).toMatch(/algodão.*centavos de R\$ por libra-peso/);
    const tipos = readFileSync(join(REPO_ROOT, "cliente", "index.d.ts"), "utf8");
    expect(tipos).toContain("centavos de US$ por libra-peso");
  });
});

describe("cotacao.json: each value's unit is its own series'", () => {
  it("unidades follows the series shown, not the product's usual unit", () => {
    const soja = series.get("soja")!;
    // a national reference quoted in another unit than its product's (as boi gordo is in kg in RS)
    const emOutra = new Map(series);
    emOutra.set("soja", { ...soja, unidade: "t" });
    const doc = renderAggregate(emOutra, null);
    expect(doc.soja).toBe(soja.valor);
    expect(doc.unidades.soja).toBe("t");
    expect(renderAggregate(series, null).unidades.soja).toBe("sc60kg");
  });
});
