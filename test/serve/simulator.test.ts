import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FUNRURAL_PADRAO, LIMITES, lerDecimal, ROTULOS, SimulacaoForaDoLimite, simular, validarEntrada, type PrecoReferencia } from "../../pipeline/simulator/simulator.ts";

const MS: PrecoReferencia = { valor: 338, unidade: "@", data_cotacao: "2026-08-05", fonte: "scot", serie: "boi_gordo/MS", praca: "C. Grande" };

function run(params: Record<string, string>, preco: PrecoReferencia | null) {
  const v = validarEntrada(params);
  if (!v.ok) throw new Error(JSON.stringify(v.erros));
  return simular(v.entrada, preco);
}

describe("simulator", () => {
  it("cattle: heads × live weight × yield ÷ 15 = arrobas, minus Funrural, commission and freight", () => {
    const r = run({ produto: "boi_gordo", uf: "ms", cabecas: "10", peso_vivo_kg: "540", rendimento_pct: "52", comissao_pct: "2", frete: "1.500,00" }, MS);
    expect(r.quantidade.arrobas).toBe(187.2); // 10 × 540 × 0,52 ÷ 15
    expect(r.bruto).toBe(63273.6); // 187,20 × 338,00
    expect(r.deducoes.funrural).toMatchObject({ aliquota_pct: 1.5, valor: 949.1, padrao: true }); // 949,104
    expect(r.deducoes.comissao.valor).toBe(1265.47); // 1.265,472
    expect(r.deducoes.frete).toBe(1500);
    expect(r.deducoes.total).toBe(3714.57);
    expect(r.liquido).toBe(59559.03);
    expect(r.preco).toMatchObject({ origem: "serie", data_cotacao: "2026-08-05", praca: "C. Grande" });
    expect(r.preco.descricao).toContain("R$ 338,00/@");
  });

  it("rounds arrobas to the hundredth before pricing, half up", () => {
    // 1 × 487,3 × 51,37% ÷ 15 = 16,688... -> 16,69 @
    const r = run({ produto: "vaca_gorda", cabecas: "1", peso_vivo_kg: "487,3", rendimento_pct: "51.37" }, { ...MS, valor: 300.01 });
    expect(r.quantidade.arrobas).toBe(16.69);
    expect(r.bruto).toBe(5007.17); // 16,69 × 300,01 = 5.007,1669
  });

  it("prices Scot's RS per kg of live weight, never as arrobas", () => {
    const rs: PrecoReferencia = { valor: 12.35, unidade: "kg", data_cotacao: "2026-08-05", fonte: "scot", serie: "boi_gordo/RS", praca: "Oeste" };
    const r = run({ produto: "boi_gordo", uf: "RS", cabecas: "3", peso_vivo_kg: "500", rendimento_pct: "50" }, rs);
    expect(r.quantidade.base).toBe("kg de peso vivo");
    expect(r.bruto).toBe(18525); // 1.500 kg × 12,35
  });

  it("bezerro per head, grain per 60 kg sack, a typed price replacing the series", () => {
    expect(run({ produto: "bezerro", cabecas: "25", funrural_pct: "0" }, { ...MS, valor: 3426.02, unidade: "cabeca", serie: "bezerro" }).liquido).toBe(85650.5);
    const soja = run({ produto: "soja", sacas: "1000,5", preco: "161" }, null);
    expect(soja.preco.origem).toBe("informado");
    expect(soja.bruto).toBe(161080.5);
    expect(soja.deducoes.funrural.valor).toBe(2416.21); // 2.416,2075
  });

  it("reads Brazilian and dotted decimals exactly, refuses the rest", () => {
    expect(lerDecimal("1.540,5", 2)).toBe(154050n);
    expect(lerDecimal("540.25", 2)).toBe(54025n);
    expect(lerDecimal("12", 0)).toBe(12n);
    // a dot before three digits groups thousands, as in Brazil
    expect(lerDecimal("1.000", 0)).toBe(1000n);
    expect(lerDecimal("1.000", 2)).toBe(100000n);
    expect(lerDecimal("1.000.000", 0)).toBe(1000000n);
    expect(lerDecimal("R$ 1.500,00", 2)).toBe(150000n);
    expect(lerDecimal("-5", 2)).toBe(-500n);
    expect(lerDecimal("12,5", 0)).toBeNull();
    for (const bad of ["1e3", "1,234", "abc", "", "1.2.3", "0x10", "Infinity", "540.2555", "1.2345"]) expect(lerDecimal(bad, 2), bad).toBeNull();
  });

  it("names the page's labels, says negatives must be above zero and reads 1.000 as a thousand", () => {
    const v = validarEntrada({ produto: "boi_gordo", cabecas: "-5", peso_vivo_kg: "-1", rendimento_pct: "52", frete: "-10" });
    expect(v.ok).toBe(false);
    if (v.ok) return;
    const msg = Object.fromEntries(v.erros.map((e) => [e.campo, e.mensagem]));
    expect(msg).toEqual({
      cabecas: "Número de cabeças: deve ser maior que zero",
      peso_vivo_kg: "Peso vivo médio por cabeça (kg): deve ser maior que zero",
      frete: "Frete (R$, total): não pode ser negativo",
    });
    const mil = validarEntrada({ produto: "bezerro", cabecas: "1.000", preco: "3.426,02" });
    expect(mil.ok && mil.entrada.cabecas).toBe(1000);
    expect(run({ produto: "bezerro", cabecas: "1.000", preco: "3.426,02", funrural_pct: "0" }, null).bruto).toBe(3426020);
  });

  it("keeps every figure exact at the limits and refuses what would not be", () => {
    const [, maxCab] = LIMITES.cabecas;
    const [, maxPreco] = LIMITES.preco;
    expect(maxCab).toBe(100_000);
    expect(maxPreco).toBe(100_000);
    // the largest cattle sale at the national reference (per arroba): 10.000.000 @ × R$ 100.000,00
    const gado = run({ produto: "boi_gordo", cabecas: "100.000", peso_vivo_kg: "2.000", rendimento_pct: "75", preco: "100.000,00", comissao_pct: "3,33" }, null);
    expect(gado.quantidade.arrobas).toBe(10_000_000);
    expect(gado.bruto).toBe(1_000_000_000_000);
    expect(gado.deducoes.funrural.valor).toBe(15_000_000_000);
    expect(gado.deducoes.comissao.valor).toBe(33_300_000_000);
    expect(gado.liquido).toBe(951_700_000_000);
    const graos = run({ produto: "soja", sacas: "10.000.000", preco: "99.999,99", funrural_pct: "0,01" }, null);
    expect(graos.bruto).toBe(999_999_900_000);
    expect(graos.deducoes.funrural.valor).toBe(99_999_990);
    // one head, one centavo above each limit
    const acima = validarEntrada({ produto: "boi_gordo", cabecas: "100001", peso_vivo_kg: "540", rendimento_pct: "52", preco: "100.000,01" });
    expect(!acima.ok && acima.erros.map((e) => e.mensagem)).toEqual([
      "Número de cabeças: deve estar entre 1 e 100.000 cabeças",
      "Preço por unidade (R$): deve estar entre 0,01 e 100.000,00",
    ]);
    // per kg of live weight (a state's series may be): 200.000.000 kg × R$ 100.000,00 has 16 digits of centavos
    const porKg = validarEntrada({ produto: "boi_gordo", uf: "RS", cabecas: "100.000", peso_vivo_kg: "2.000", rendimento_pct: "75", preco: "100.000,00" });
    expect(porKg.ok).toBe(false);
    if (!porKg.ok) {
      expect(porKg.erros).toHaveLength(1);
      expect(porKg.erros[0]!.campo).toBe("cabecas");
      expect(porKg.erros[0]!.mensagem).toMatch(/^Número de cabeças: .*não seria exato ao centavo/);
    }
  });

  it("refuses, never rounds, the reviewer's case under the old limits and an absurd published price", () => {
    // 1.000.000 head at R$ 999.999,99 (the old limits) gave more than 2^53 centavos
    const antigos = { ...LIMITES, cabecas: [1, 1_000_000], preco: [0.01, 1_000_000] } as const;
    const v = validarEntrada({ produto: "boi_gordo", cabecas: "1000000", peso_vivo_kg: "1999.99", rendimento_pct: "74.99", preco: "999999.99" }, antigos);
    expect(v.ok).toBe(false);
    expect(!v.ok && v.erros[0]!.campo).toBe("cabecas");
    const ok = validarEntrada({ produto: "boi_gordo", cabecas: "100000", peso_vivo_kg: "1999.99", rendimento_pct: "74.99" });
    if (!ok.ok) throw new Error(JSON.stringify(ok.erros));
    expect(() => simular(ok.entrada, { ...MS, valor: 1e9 })).toThrow(SimulacaoForaDoLimite);
    try {
      simular(ok.entrada, { ...MS, valor: 1e9 });
    } catch (err) {
      expect((err as SimulacaoForaDoLimite).erros[0]).toMatchObject({ campo: "cabecas" });
    }
  });

  it("has a label for every parameter", () => {
    expect(Object.keys(ROTULOS).sort()).toEqual(["cabecas", "comissao_pct", "frete", "funrural_pct", "peso_vivo_kg", "preco", "produto", "rendimento_pct", "sacas", "uf"]);
  });

  it("reports every bad field at once, in Portuguese", () => {
    const v = validarEntrada({ produto: "boi_gordo", cabecas: "0", peso_vivo_kg: "9999", rendimento_pct: "52,123", uf: "XX", nada: "1" });
    expect(v.ok).toBe(false);
    if (v.ok) return;
    expect(v.erros.map((e) => e.campo).sort()).toEqual(["cabecas", "nada", "peso_vivo_kg", "rendimento_pct", "uf"]);
    expect(v.erros.find((e) => e.campo === "cabecas")!.mensagem).toBe("Número de cabeças: deve ser maior que zero");
    expect(v.erros.find((e) => e.campo === "peso_vivo_kg")!.mensagem).toBe("Peso vivo médio por cabeça (kg): deve estar entre 30,00 e 2.000,00 kg");
    const semProduto = validarEntrada({});
    expect(!semProduto.ok && semProduto.erros[0]!.mensagem).toContain("Produto: obrigatório");
  });

  it("states the default Funrural rate and its legal basis", () => {
    expect(FUNRURAL_PADRAO.aliquota_pct).toBe(1.5);
    expect(FUNRURAL_PADRAO.componentes.reduce((s, c) => s + c.aliquota_pct * 10, 0)).toBe(15);
    expect(FUNRURAL_PADRAO.base_legal).toContain("Lei 13.606/2018");
  });

  it("keeps gross − deductions = net to the centavo for any input", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 3000, max: 200000 }),
        fc.integer({ min: 3000, max: 7500 }),
        fc.integer({ min: 1, max: 100000 }),
        fc.integer({ min: 0, max: 1000 }),
        fc.integer({ min: 0, max: 10000000 }),
        (cab, peso, rend, precoC, com, frete) => {
          const r = run(
            { produto: "boi_gordo", cabecas: String(cab), peso_vivo_kg: (peso / 100).toFixed(2), rendimento_pct: (rend / 100).toFixed(2), preco: (precoC / 100).toFixed(2), comissao_pct: (com / 100).toFixed(2), frete: (frete / 100).toFixed(2) },
            null,
          );
          const c = (x: number) => Math.round(x * 100);
          expect(c(r.bruto) - c(r.deducoes.funrural.valor) - c(r.deducoes.comissao.valor) - c(r.deducoes.frete)).toBe(c(r.liquido));
          expect(Number.isInteger(c(r.bruto))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
