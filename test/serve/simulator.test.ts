import { readFile } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../pipeline/config.ts";
import type { SerieFile } from "../../pipeline/domain/publicados.ts";
import {
  diasUteisEntre,
  FUNRURAL_PADRAO,
  hojeEmBrasilia,
  LIMITES,
  lerDecimal,
  nomeDaColuna,
  referenciaDaSerie,
  ROTULOS,
  SimulacaoForaDoLimite,
  simular,
  unidadeSimulavel,
  validarEntrada,
  type PrecoReferencia,
} from "../../pipeline/simulator/simulator.ts";

const MS: PrecoReferencia = { valor: 338, unidade: "@", data_cotacao: "2026-08-05", fonte: "scot", serie: "boi_gordo/MS", praca: "C. Grande" };

function run(params: Record<string, string>, preco: PrecoReferencia | null, hoje = "2026-08-06") {
  const v = validarEntrada(params);
  if (!v.ok) throw new Error(JSON.stringify(v.erros));
  return simular(v.entrada, preco, { hoje });
}

/** A single file as the pipeline writes it, from the recorded pages (test/fixtures/api). */
async function fixture(rel: string): Promise<SerieFile> {
  return JSON.parse(await readFile(join(REPO_ROOT, "test", "fixtures", "api", "v1", "cotacao", rel), "utf8")) as SerieFile;
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
    expect(Object.keys(ROTULOS).sort()).toEqual(["cabecas", "coluna", "comissao_pct", "frete", "funrural_pct", "peso_vivo_kg", "preco", "produto", "rendimento_pct", "sacas", "uf"]);
  });

  it("ignores parameters it does not know, as the query interface does (cache busters, shared links)", () => {
    const v = validarEntrada({ produto: "soja", sacas: "10", preco: "100", _: "1732300000", utm_source: "whatsapp" });
    expect(v.ok).toBe(true);
    const semUtm = validarEntrada({ produto: "soja", sacas: "10", preco: "100" });
    expect(v.ok && semUtm.ok && v.entrada).toEqual(semUtm.ok && semUtm.entrada);
  });

  it("reports every bad field at once, in Portuguese", () => {
    const v = validarEntrada({ produto: "boi_gordo", cabecas: "0", peso_vivo_kg: "9999", rendimento_pct: "52,123", uf: "XX", coluna: "liquida" });
    expect(v.ok).toBe(false);
    if (v.ok) return;
    expect(v.erros.map((e) => e.campo).sort()).toEqual(["cabecas", "coluna", "peso_vivo_kg", "rendimento_pct", "uf"]);
    expect(v.erros.find((e) => e.campo === "coluna")!.mensagem).toContain("válidas: valor, valor_30d, funrural_avista");
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

describe("the price's own domain: Funrural per source, the day it is from, names", () => {
  const GADO = { produto: "boi_gordo", cabecas: "10", peso_vivo_kg: "540", rendimento_pct: "52" };

  it("never deducts Funrural from CEPEA's boi gordo indicator, which is published without it", async () => {
    const cepea = referenciaDaSerie(await fixture("boi_gordo.json"), "boi_gordo");
    expect(cepea).toMatchObject({ fonte: "cepea", fonte_nome: "CEPEA/ESALQ-USP" });
    const r = run(GADO, cepea, "2026-09-04");
    expect(r.bruto).toBe(65089.44); // 187,20 @ × 347,70
    expect(r.deducoes.funrural).toMatchObject({ aliquota_pct: 0, valor: 0, padrao: true, preco_sem_funrural: true });
    expect(r.deducoes.funrural.motivo).toContain("O preço de CEPEA/ESALQ-USP já é sem Funrural");
    expect(r.deducoes.funrural.motivo).toContain("nada a deduzir");
    expect(r.observacoes[0]).toBe(r.deducoes.funrural.motivo);
    expect(r.liquido).toBe(65089.44);
    // the rate the person states is still echoed; deducting it anyway means typing the gross price
    const pj = run({ ...GADO, funrural_pct: "2,05" }, cepea, "2026-09-04");
    expect(pj.deducoes.funrural.valor).toBe(0);
    expect(pj.entrada.funrural_pct).toBe(2.05);
    expect(pj.observacoes.join(" ")).toContain("A alíquota de 2,05% não foi aplicada");
    const bruto = run({ ...GADO, preco: "347,70" }, cepea, "2026-09-04");
    expect(bruto.deducoes.funrural).toMatchObject({ aliquota_pct: 1.5, valor: 976.34, preco_sem_funrural: false, motivo: null });
  });

  it("knows it from the series' declaration, published as sem_funrural: not from the page (the a prazo average shares it)", async () => {
    const { allSeries } = await import("../../pipeline/sources/index.ts");
    const semFunrural = allSeries().filter((d) => d.semFunrural).map((d) => d.id);
    expect(semFunrural).toEqual(["boi_gordo"]);
    const prazo = allSeries().find((d) => d.id === "boi_gordo_prazo")!;
    expect(prazo.fonte).toBe("cepea");
    expect(prazo.semFunrural).toBeUndefined();
    const semCampo = { ...(await fixture("boi_gordo.json")), sem_funrural: undefined };
    expect(referenciaDaSerie(semCampo, "boi_gordo").sem_funrural).toBeNull();
  });

  it("deducts it from gross prices: Scot's Preços Brutos and CEPEA's grain indicators", async () => {
    const ms = referenciaDaSerie(await fixture("boi_gordo/MS.json"), "boi_gordo/MS");
    const r = run(GADO, ms);
    expect(r.deducoes.funrural).toMatchObject({ aliquota_pct: 1.5, valor: 949.1, preco_sem_funrural: false, motivo: null });
    const soja = referenciaDaSerie(await fixture("soja.json"), "soja");
    const s = run({ produto: "soja", sacas: "100" }, soja, "2026-09-25");
    expect(s.bruto).toBe(16100);
    expect(s.deducoes.funrural.valor).toBe(241.5);
  });

  it("offers Scot's own after-Funrural and SENAR-only columns of the series' day instead of recomputing", async () => {
    const ms = referenciaDaSerie(await fixture("boi_gordo/MS.json"), "boi_gordo/MS");
    expect(ms.colunas).toEqual({ valor_30d: 342, funrural_avista: 332.5, funrural_30d: 336.5, senar_avista: 337.5, senar_30d: 341.5 });
    const fun = run({ ...GADO, coluna: "funrural_avista" }, ms);
    expect(fun.preco).toMatchObject({ valor: 332.5, coluna: "funrural_avista", origem: "serie" });
    expect(fun.bruto).toBe(62244); // 187,20 @ × 332,50
    expect(fun.deducoes.funrural).toMatchObject({ aliquota_pct: 0, valor: 0, preco_sem_funrural: true });
    expect(fun.deducoes.funrural.motivo).toContain("o Funrural já foi descontado pela fonte");
    expect(fun.entrada.coluna).toBe("funrural_avista");
    const prazo = run({ ...GADO, coluna: "funrural_30d" }, ms);
    expect(prazo.bruto).toBe(62992.8); // 187,20 × 336,50
    const senar = run({ ...GADO, coluna: "SENAR_AVISTA" }, ms);
    expect(senar.preco.valor).toBe(337.5);
    expect(senar.deducoes.funrural.valor).toBe(0);
    const bruto30 = run({ ...GADO, coluna: "valor_30d" }, ms);
    expect(bruto30.deducoes.funrural).toMatchObject({ aliquota_pct: 1.5, preco_sem_funrural: false });
    expect(bruto30.bruto).toBe(64022.4); // 187,20 × 342
    // the default column is the headline one, and says so
    expect(run(GADO, ms).preco.coluna).toBe("valor");
  });

  it("refuses a column the series does not publish, and a column with a typed price", async () => {
    const cepea = referenciaDaSerie(await fixture("boi_gordo.json"), "boi_gordo");
    const v = validarEntrada({ ...GADO, coluna: "funrural_avista" });
    if (!v.ok) throw new Error(JSON.stringify(v.erros));
    let erro: SimulacaoForaDoLimite | null = null;
    try {
      simular(v.entrada, cepea, { hoje: "2026-09-04" });
    } catch (e) {
      erro = e as SimulacaoForaDoLimite;
    }
    expect(erro).toBeInstanceOf(SimulacaoForaDoLimite);
    expect(erro!.erros[0]!.campo).toBe("coluna");
    expect(erro!.erros[0]!.mensagem).toContain("Boi gordo, Estado de São Paulo");
    expect(erro!.erros[0]!.mensagem).toContain("não publica a coluna funrural_avista em 04/09/2026");
    const informado = validarEntrada({ ...GADO, preco: "300", coluna: "funrural_avista" });
    expect(!informado.ok && informado.erros.map((e) => e.campo)).toEqual(["coluna"]);
  });

  it("says which day the price is from and warns when it is more than a few business days old", async () => {
    const ms = referenciaDaSerie(await fixture("boi_gordo/MS.json"), "boi_gordo/MS");
    const velho = run(GADO, ms, "2026-11-22");
    expect(velho.preco).toMatchObject({ data_cotacao: "2026-08-05", idade_dias: 109, desatualizado: true });
    expect(velho.avisos).toHaveLength(1);
    expect(velho.avisos[0]).toMatch(/^Preço de 05\/08\/2026, há 109 dias: /);
    expect(velho.avisos[0]).toContain("Scot Consultoria");
    // Wednesday's price on the next Monday: 3 business days, still current
    const fresco = run(GADO, ms, "2026-08-10");
    expect(fresco.preco).toMatchObject({ idade_dias: 5, desatualizado: false });
    expect(fresco.avisos).toEqual([]);
    expect(run(GADO, ms, "2026-08-11").avisos).toHaveLength(1);
    // a typed price has no day to be old
    const informado = run({ ...GADO, preco: "300" }, ms, "2026-11-22");
    expect(informado.avisos).toEqual([]);
    expect(informado.preco.idade_dias).toBeUndefined();
  });

  it("prices a sale only from a series in a unit it can use", () => {
    expect(unidadeSimulavel("boi_gordo", "@")).toBe(true);
    expect(unidadeSimulavel("boi_gordo", "kg")).toBe(true); // Scot's RS, per kg of live weight
    expect(unidadeSimulavel("bezerro", "cabeca")).toBe(true);
    expect(unidadeSimulavel("bezerro", "kg")).toBe(false); // Datagro's reposição
    expect(unidadeSimulavel("soja", "sc60kg")).toBe(true);
    expect(unidadeSimulavel("soja", "kg")).toBe(false);
    expect(unidadeSimulavel("trigo", "t")).toBe(false);
  });

  it("counts business days as status.json does (no weekends, no national holidays) and knows today's day in Brasília", () => {
    expect(diasUteisEntre("2026-09-04", "2026-09-04")).toBe(0); // a Friday
    expect(diasUteisEntre("2026-09-04", "2026-09-06")).toBe(0); // the weekend
    expect(diasUteisEntre("2026-09-04", "2026-09-07")).toBe(0); // Independence Day
    expect(diasUteisEntre("2026-09-04", "2026-09-08")).toBe(1);
    expect(diasUteisEntre("2026-09-04", "2026-09-11")).toBe(4);
    // 77 weekdays (counted independently, Python datetime) less 07/09, 12/10, 02/11 and 20/11
    expect(diasUteisEntre("2026-08-05", "2026-11-22")).toBe(73);
    expect(diasUteisEntre("2026-09-05", "2026-09-04")).toBe(0);
    // 02:30 UTC is still the previous evening in Brasília
    expect(hojeEmBrasilia(new Date("2026-09-05T02:30:00Z"))).toBe("2026-09-04");
    expect(hojeEmBrasilia(new Date("2026-09-05T03:30:00Z"))).toBe("2026-09-05");
  });

  it("names the series and its source, not their ids", async () => {
    const ms = referenciaDaSerie(await fixture("boi_gordo/MS.json"), "boi_gordo/MS");
    const r = run(GADO, ms);
    expect(r.preco.descricao).toBe("R$ 338,00/@ de 05/08/2026 (Boi gordo, Mato Grosso do Sul (Mercado Físico, Scot Consultoria), praça C. Grande, fonte Scot Consultoria)");
    expect(r.preco.descricao).not.toContain("boi_gordo/MS");
    // the serie id stays in the result for programs
    expect(r.preco.serie).toBe("boi_gordo/MS");
  });
});

describe("a headline price's payment term", () => {
  it("is cash unless the product declares another: Boi China's valor is Scot's 30-day price", async () => {
    expect(nomeDaColuna("valor", "boi_gordo")).toBe("bruto, à vista");
    expect(nomeDaColuna("valor", "boi_china")).toBe("bruto, a prazo (30 dias)");
    expect(nomeDaColuna("funrural_30d", "boi_china")).toContain("30 dias, com o Funrural");
    const pacote = JSON.parse(await readFile(join(REPO_ROOT, "public", "api", "v1", "datapackage.json"), "utf8")) as {
      resources: Array<{ path: string; schema: { fields: Array<{ name: string; description: string }> } }>;
    };
    const china = pacote.resources.find((r) => r.path === "historico/boi_china/PR.pracas.csv")!;
    expect(china.schema.fields.find((f) => f.name === "valor")!.description).toContain("a prazo (30 dias)");
    const ms = pacote.resources.find((r) => r.path === "historico/boi_gordo/MS.pracas.csv")!;
    expect(ms.schema.fields.find((f) => f.name === "valor")!.description).toContain("à vista");
  });
});
