import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hasAtMostTwoDecimals } from "../../pipeline/domain/money.ts";
import type { Desconto, LeituraRomaneio, Serie, TotaisAbate, TotaisCarga } from "../../pipeline/domain/publicados.gerados.ts";
import { compararRomaneio, pesoERendimento, seriesDoRomaneio } from "../../pipeline/romaneio/comparar.ts";
import type { Resultado } from "../../pipeline/simulator/simulator.ts";
import { allSeries } from "../../pipeline/sources/index.ts";
import { schemaErrors } from "../events/helpers.ts";

const HOJE = "2026-08-20";

function abate(t: Partial<TotaisAbate> = {}, l: Partial<LeituraRomaneio> = {}): LeituraRomaneio {
  return {
    tipo: "abate",
    data: "2026-08-05",
    produto: "boi_gordo",
    uf: "MS",
    municipio: "Campo Grande",
    comprador: { nome: "Frigorífico Exemplo S.A.", documento: null },
    vendedor: { nome: "Fazenda Boa Vista", documento: null },
    linhas: [],
    totais: {
      cabecas: 18,
      peso_carcaca_kg: 5432.1,
      arrobas: 362.14,
      preco_arroba: 320,
      valor_bruto: 115884.8,
      descontos: [
        { nome: "Funrural (1,3%)", valor: 1506.5, aliquota_pct: 1.3 },
        { nome: "Senar (0,2%)", valor: 231.77, aliquota_pct: 0.2 },
        { nome: "Taxa de abate", valor: 90, aliquota_pct: null },
      ],
      valor_liquido: 114056.53,
      ...t,
    },
    // every field checked and confirmed, as a clean reading gives them
    confianca: { "totais.preco_arroba": 0.96, "totais.arrobas": 0.95, "totais.cabecas": 0.97 },
    avisos: [],
    ...l,
  };
}

function carga(t: Partial<TotaisCarga> = {}, l: Partial<LeituraRomaneio> = {}): LeituraRomaneio {
  return {
    tipo: "carga",
    data: "2026-08-05",
    produto: "soja",
    uf: "PR",
    municipio: "Cascavel",
    comprador: null,
    vendedor: null,
    linhas: [],
    totais: {
      peso_bruto_kg: 90000,
      tara_kg: 15000,
      umidade_pct: 14,
      desconto_umidade_kg: 1000,
      impureza_pct: 1,
      desconto_impureza_kg: 926.4,
      peso_liquido_kg: 74073.6,
      sacas: 1234.56,
      preco_saca: 130.25,
      valor_bruto: 160801.44,
      descontos: [{ nome: "Funrural", valor: 2412.02, aliquota_pct: 1.5 }],
      valor_liquido: 158389.42,
      ...t,
    },
    confianca: { "totais.preco_saca": 1, "totais.sacas": 1 },
    avisos: [],
    ...l,
  };
}

/** A published series document (cotacao/{id}.json) with the given days, oldest first. */
function serie(id: string, dias: Array<[string, number]>, extra: Partial<Serie> = {}): Serie {
  const [produto, uf] = id.split("/") as [Serie["produto"], Serie["uf"] | undefined];
  const [data, valor] = dias[dias.length - 1]!;
  return {
    produto,
    nome: produto === "soja" ? "Soja" : "Boi gordo",
    uf: uf ?? null,
    regiao: uf ? `${uf} (Mercado Físico, Scot Consultoria)` : "Estado de São Paulo (Indicador CEPEA/ESALQ)",
    valor,
    moeda: "BRL",
    unidade: produto === "soja" ? "sc60kg" : "@",
    fonte: uf ? "scot" : "cepea",
    data_cotacao: data,
    variacao: null,
    bordao: `${id} em ${data}`,
    atualizado: "2026-08-19T10:00:00-03:00",
    proveniencia: {
      fonte: uf ? "scot" : "cepea",
      nome: uf ? "Scot Consultoria" : "CEPEA/ESALQ",
      url: "https://example.invalid/",
      coletado_em: "2026-08-19T10:00:00-03:00",
      via: null,
      via_url: null,
      licenca: "teste",
      citacao: "teste",
      termos: "teste",
    },
    license: "teste",
    api_version: "v1",
    historico: dias.map(([d, v]) => ({ data: d, valor: v })),
    ...extra,
  };
}

const MS = serie("boi_gordo/MS", [
  ["2026-08-04", 335],
  ["2026-08-05", 338],
  ["2026-08-07", 340],
  ["2026-08-10", 341.5],
]);
const CEPEA = serie(
  "boi_gordo",
  [
    ["2026-08-05", 310.5],
    ["2026-08-07", 311.25],
  ],
  { sem_funrural: "Valor à vista por arroba de 15 kg, sem Funrural (preço “livre”)." },
);

/** The comparison's output is a valid comparacaoRomaneio of schemas/romaneio.schema.json. */
function valida(c: unknown): void {
  expect(schemaErrors("romaneio.schema.json#/$defs/comparacaoRomaneio", c)).toEqual([]);
}

describe("seriesDoRomaneio", () => {
  it("gives the ids of the state series and the national one, for the published tree to answer", () => {
    expect(seriesDoRomaneio(abate())).toEqual({ estadual: "boi_gordo/MS", nacional: "boi_gordo" });
    expect(seriesDoRomaneio(carga())).toEqual({ estadual: "soja/PR", nacional: "soja" });
    // no Scot table for Piauí: the id is asked for, and the missing file is no reference
    expect(seriesDoRomaneio(abate({}, { uf: "PI" }))).toEqual({ estadual: "boi_gordo/PI", nacional: "boi_gordo" });
    expect(seriesDoRomaneio(abate({}, { uf: "XX" as never }))).toEqual({ estadual: null, nacional: "boi_gordo" });
    expect(seriesDoRomaneio(abate({}, { uf: null }))).toEqual({ estadual: null, nacional: "boi_gordo" });
    expect(seriesDoRomaneio(abate({}, { produto: null }))).toEqual({ estadual: null, nacional: null });
  });

  it("finds every state series of the catalogue", () => {
    for (const d of allSeries().filter((x) => x.uf !== null)) {
      expect(seriesDoRomaneio(abate({}, { produto: d.produto, uf: d.uf })).estadual).toBe(d.id);
    }
  });
});

describe("compararRomaneio: the reference of the day", () => {
  it("same day: the difference per arroba, in percent and over the romaneio's arrobas", () => {
    const c = compararRomaneio(abate(), { estadual: MS, nacional: CEPEA }, { hoje: HOJE });
    valida(c);
    expect(c.referencias).toEqual([
      {
        escopo: "estadual",
        serie: "boi_gordo/MS",
        nome: "Boi gordo, MS (Mercado Físico, Scot Consultoria)",
        fonte: "scot",
        unidade: "@",
        data: "2026-08-05",
        defasagem_dias: 0,
        valor: 338,
        diferenca: -18,
        // -18 / 338 = -5,3254...%
        diferenca_pct: -5.33,
        // -18 × 362,14 @
        diferenca_total: -6518.52,
      },
      {
        escopo: "nacional",
        serie: "boi_gordo",
        nome: "Boi gordo, Estado de São Paulo (Indicador CEPEA/ESALQ)",
        fonte: "cepea",
        unidade: "@",
        data: "2026-08-05",
        defasagem_dias: 0,
        valor: 310.5,
        diferenca: 9.5,
        diferenca_pct: 3.06,
        diferenca_total: 3440.33,
      },
    ]);
    // CEPEA's indicator is net of Funrural, the romaneio's price gross: said, not adjusted
    expect(c.avisos).toEqual([expect.stringMatching(/nacional.*já é sem Funrural.*bruto/)]);
  });

  it("a weekend day takes the last earlier day with a price", () => {
    for (const [dia, defasagem] of [
      ["2026-08-08", 1],
      ["2026-08-09", 2],
    ] as const) {
      const c = compararRomaneio(abate({}, { data: dia }), { estadual: MS, nacional: null }, { hoje: HOJE });
      valida(c);
      expect(c.referencias[0]).toMatchObject({ data: "2026-08-07", defasagem_dias: defasagem, valor: 340, diferenca: -20 });
      expect(c.avisos.filter((a) => /estadual/.test(a))).toEqual([]);
    }
  });

  it("a price more than a week older than the romaneio is flagged", () => {
    const velha = serie("boi_gordo/MS", [
      ["2026-07-20", 330],
      ["2026-08-20", 345],
    ]);
    const c = compararRomaneio(abate(), { estadual: velha, nacional: null }, { hoje: HOJE });
    valida(c);
    expect(c.referencias[0]).toMatchObject({ data: "2026-07-20", defasagem_dias: 16, valor: 330 });
    expect(c.avisos).toContainEqual(expect.stringMatching(/estadual.*20\/07\/2026, 16 dias antes do romaneio/));
  });

  it("a romaneio after the series' last day uses the last price and says so", () => {
    const c = compararRomaneio(abate({}, { data: "2026-08-12" }), { estadual: MS, nacional: CEPEA }, { hoje: HOJE });
    valida(c);
    expect(c.referencias.map((r) => [r.serie, r.data, r.defasagem_dias])).toEqual([
      ["boi_gordo/MS", "2026-08-10", 2],
      ["boi_gordo", "2026-08-07", 5],
    ]);
    expect(c.avisos).toContainEqual(expect.stringMatching(/estadual.*sem preço publicado em 12\/08\/2026; a série vai até 10\/08\/2026/));
    expect(c.avisos).toContainEqual(expect.stringMatching(/nacional.*sem preço publicado em 12\/08\/2026; a série vai até 07\/08\/2026/));
  });

  it("a romaneio before the series' first day has no reference", () => {
    const c = compararRomaneio(abate({}, { data: "2026-08-01" }), { estadual: MS, nacional: null }, { hoje: HOJE });
    valida(c);
    expect(c.referencias).toEqual([]);
    expect(c.avisos).toContainEqual(expect.stringMatching(/começa em 04\/08\/2026/));
  });

  it("a romaneio dated after today is flagged", () => {
    const c = compararRomaneio(abate({}, { data: "2026-09-05" }), { estadual: MS, nacional: null }, { hoje: HOJE });
    expect(c.avisos).toContainEqual(expect.stringMatching(/05\/09\/2026\) é posterior a hoje \(20\/08\/2026\)/));
  });

  it("no state series: only the national reference, and why", () => {
    const c = compararRomaneio(abate({}, { uf: "PI" }), { estadual: null, nacional: CEPEA }, { hoje: HOJE });
    valida(c);
    expect(c.referencias.map((r) => r.escopo)).toEqual(["nacional"]);
    expect(c.avisos).toContainEqual("Sem série estadual de boi gordo para PI: só a referência nacional.");
    const semUf = compararRomaneio(abate({}, { uf: null }), { estadual: null, nacional: CEPEA }, { hoje: HOJE });
    expect(semUf.avisos).toContainEqual("UF do romaneio não lida: sem referência estadual.");
    const semNacional = compararRomaneio(abate(), { estadual: MS, nacional: null }, { hoje: HOJE });
    expect(semNacional.avisos).toContainEqual("Sem série nacional de boi gordo: sem referência nacional.");
  });

  it("a series in another unit (RS, per kg of live weight) is not converted", () => {
    const rs = serie("boi_gordo/RS", [["2026-08-05", 12.1]], { unidade: "kg" });
    const c = compararRomaneio(abate({}, { uf: "RS" }), { estadual: rs, nacional: CEPEA }, { hoje: HOJE });
    valida(c);
    expect(c.referencias.map((r) => r.serie)).toEqual(["boi_gordo"]);
    expect(c.avisos).toContainEqual(expect.stringMatching(/estadual.*cotada por kg \(R\$ 12,10\/kg em 05\/08\/2026\), e o romaneio por arroba: sem comparação/));
  });

  it("missing price: the reference without differences, and no simulation", () => {
    const c = compararRomaneio(abate({ preco_arroba: null }), { estadual: MS, nacional: null }, { hoje: HOJE });
    valida(c);
    expect(c.referencias[0]).toMatchObject({ valor: 338, diferenca: null, diferenca_pct: null, diferenca_total: null });
    expect(c.simulacao).toBeNull();
    expect(c.avisos).toContainEqual("Sem diferença para a referência: preço por arroba não lido (totais.preco_arroba).");
    expect(c.avisos).toContainEqual(expect.stringMatching(/^Sem simulação: faltam preço por arroba \(totais\.preco_arroba\)/));
    // the romaneio's deductions are still listed, without the simulator's figure
    expect(c.deducoes.map((d) => d.simulador)).toEqual([null, null, null]);
  });

  it("missing quantity: the difference per arroba but no total, and no simulation", () => {
    const c = compararRomaneio(abate({ arrobas: null }), { estadual: MS, nacional: null }, { hoje: HOJE });
    valida(c);
    expect(c.referencias[0]).toMatchObject({ diferenca: -18, diferenca_pct: -5.33, diferenca_total: null });
    expect(c.simulacao).toBeNull();
    expect(c.avisos).toContainEqual("Sem diferença total: arrobas não lidas (totais.arrobas).");
    const semCabecas = compararRomaneio(abate({ cabecas: null }), { estadual: MS, nacional: null }, { hoje: HOJE });
    expect(semCabecas.simulacao).toBeNull();
    expect(semCabecas.avisos).toContainEqual("Sem simulação: faltam número de cabeças (totais.cabecas).");
    // the standard rates need only the arrobas and the price
    expect(semCabecas.deducoes.map((d) => d.simulador)).toEqual([1506.5, 231.77, null]);
  });

  it("no date, no product or no totals: says why", () => {
    const semData = compararRomaneio(abate({}, { data: null }), { estadual: MS, nacional: CEPEA }, { hoje: HOJE });
    valida(semData);
    expect(semData.referencias).toEqual([]);
    expect(semData.avisos).toContainEqual("Data do romaneio não lida: sem preço de referência do dia.");
    // the simulation does not need the date
    expect(semData.simulacao).not.toBeNull();
    const semProduto = compararRomaneio(abate({}, { produto: null }), { estadual: null, nacional: null }, { hoje: HOJE });
    valida(semProduto);
    expect(semProduto.simulacao).toBeNull();
    expect(semProduto.avisos).toContainEqual("Produto do romaneio não identificado: sem preço de referência.");
    const semTotais = compararRomaneio(abate({}, { totais: null }), { estadual: MS, nacional: null }, { hoje: HOJE });
    valida(semTotais);
    expect(semTotais.referencias[0]).toMatchObject({ valor: 338, diferenca: null });
    expect(semTotais.avisos).toContainEqual("Sem simulação: os totais do romaneio não foram lidos.");
  });

  it("a price the reading's cross-checks doubt is used as read, and said", () => {
    const l = abate({}, { avisos: [{ codigo: "bruto_preco", mensagem: "bruto não confere", campos: ["totais.valor_bruto", "totais.arrobas", "totais.preco_arroba"] }] });
    const c = compararRomaneio(l, { estadual: MS, nacional: null }, { hoje: HOJE });
    expect(c.avisos).toContainEqual(expect.stringMatching(/^totais\.preco_arroba, totais\.arrobas: não conferem/));
  });

  it("a number no check confirmed (low confidence) is said, and a price far from the reference too", () => {
    // "R$ 32000" for 320,00 with the gross value unread: no cross-check could catch it
    const l = abate({ preco_arroba: 32000, valor_bruto: null }, { confianca: { "totais.preco_arroba": 0.5, "totais.arrobas": 0.95, "totais.cabecas": 0.97 } });
    const c = compararRomaneio(l, { estadual: MS, nacional: null }, { hoje: HOJE });
    expect(c.avisos).toContain("totais.preco_arroba: lidos com pouca confiança (nenhuma conferência os confirmou); confira-os no documento antes de usar a comparação.");
    expect(c.avisos).toContainEqual(expect.stringMatching(/^Referência estadual \(.*\): o preço do romaneio difere [\d.,]+% da referência; confira o preço lido \(totais\.preco_arroba\)/));
    // a field with no confidence at all is not taken as certain
    const sem = compararRomaneio(abate({}, { confianca: {} }), { estadual: MS, nacional: null }, { hoje: HOJE });
    expect(sem.avisos).toContainEqual(expect.stringMatching(/^totais\.preco_arroba, totais\.arrobas, totais\.cabecas: lidos com pouca confiança/));
    // within the plausible band: nothing said about the price
    const ok = compararRomaneio(abate(), { estadual: MS, nacional: null }, { hoje: HOJE });
    expect(ok.avisos.some((a) => a.includes("pouca confiança") || a.includes("confira o preço lido"))).toBe(false);
  });
});

describe("compararRomaneio: the simulation and the deductions", () => {
  it("abate: the simulator's arrobas are the romaneio's, at its price, with the standard Funrural", () => {
    const c = compararRomaneio(abate(), { estadual: MS, nacional: CEPEA }, { hoje: HOJE });
    const r = c.simulacao as Resultado;
    expect(r.quantidade).toMatchObject({ cabecas: 18, arrobas: 362.14, base: "arrobas" });
    expect(r.entrada).toMatchObject({ produto: "boi_gordo", uf: "MS", cabecas: 18, rendimento_pct: 100, preco: 320, funrural_pct: 1.5 });
    // 5.432,10 kg / 18 = 301,783...; 18 × 301,78 = 5.432,04 kg, ÷ 15 = 362,136 -> 362,14 @
    expect(r.entrada.peso_vivo_kg).toBe(301.78);
    expect(r.bruto).toBe(115884.8);
    expect(r.deducoes.funrural.valor).toBe(1738.27);
    expect(r.observacoes[0]).toMatch(/peso de carcaça por cabeça \(301,78 kg\) entra como peso vivo, com rendimento de 100%/);
    // Funrural printed apart from SENAR: 1,3% and 0,2% of the same gross, each rounded on its own
    expect(c.deducoes).toEqual([
      { nome: "Funrural (1,3%)", romaneio: 1506.5, simulador: 1506.5 },
      { nome: "Senar (0,2%)", romaneio: 231.77, simulador: 231.77 },
      { nome: "Taxa de abate", romaneio: 90, simulador: null },
    ]);
  });

  it("a receipt that charges more than the standard shows it side by side", () => {
    const c = compararRomaneio(abate({ descontos: [{ nome: "FUNRURAL", valor: 2375.64, aliquota_pct: 2.05 }] }), { estadual: null, nacional: null }, { hoje: HOJE });
    // one Funrural line covers INSS, RAT and SENAR: the simulator's 1,5%
    expect(c.deducoes).toEqual([{ nome: "FUNRURAL", romaneio: 2375.64, simulador: 1738.27 }]);
    // and says it in words, with the difference to the centavo: 2.375,64 − 1.738,27 = 637,37
    expect(c.avisos).toContain(
      "FUNRURAL: R$ 2.375,64 no romaneio, R$ 637,37 acima de R$ 1.738,27 (INSS 1,2% + RAT 0,1% + SENAR 0,2% do bruto, as alíquotas de produtor pessoa física). " +
        "Confira a alíquota: pessoa jurídica paga mais, e um Funrural de 1,5% já inclui o SENAR de 0,2%.",
    );
    // Funrural at 1,5% beside a separate SENAR line: SENAR charged twice
    const dupla = compararRomaneio(
      abate({ descontos: [{ nome: "Funrural", valor: 1738.27, aliquota_pct: 1.5 }, { nome: "Senar", valor: 231.77, aliquota_pct: 0.2 }] }),
      { estadual: null, nacional: null },
      { hoje: HOJE },
    );
    expect(dupla.deducoes).toEqual([
      { nome: "Funrural", romaneio: 1738.27, simulador: 1506.5 },
      { nome: "Senar", romaneio: 231.77, simulador: 231.77 },
    ]);
    expect(dupla.avisos.filter((a) => a.includes("acima de"))).toEqual([expect.stringMatching(/^Funrural: R\$ 1\.738,27 no romaneio, R\$ 231,77 acima de R\$ 1\.506,50 \(INSS 1,2% \+ RAT 0,1% do bruto/)]);
    // the standard rates: nothing said
    expect(compararRomaneio(abate(), { estadual: null, nacional: null }, { hoje: HOJE }).avisos.some((a) => a.includes("acima de"))).toBe(false);
  });

  it("INSS, RAT and SENAR printed on separate lines", () => {
    const d: Desconto[] = [
      { nome: "INSS 1,2%", valor: 1390.62, aliquota_pct: 1.2 },
      { nome: "GILRAT 0,1%", valor: 115.88, aliquota_pct: 0.1 },
      { nome: "SENAR", valor: 231.77, aliquota_pct: 0.2 },
    ];
    const c = compararRomaneio(abate({ descontos: d }), { estadual: null, nacional: null }, { hoje: HOJE });
    expect(c.deducoes.map((x) => x.simulador)).toEqual([1390.62, 115.88, 231.77]);
  });

  it("no Funrural on the receipt: the standard amount beside nothing", () => {
    const c = compararRomaneio(abate({ descontos: [{ nome: "Frete", valor: 500, aliquota_pct: null }] }), { estadual: null, nacional: null }, { hoje: HOJE });
    valida(c);
    expect(c.deducoes).toEqual([
      { nome: "Frete", romaneio: 500, simulador: null },
      { nome: "Funrural", romaneio: null, simulador: 1738.27 },
    ]);
    expect(c.avisos).toContainEqual(expect.stringMatching(/não mostra desconto de Funrural nem de SENAR.*1,5% do bruto, R\$ 1\.738,27/));
  });

  it("carga: sacks at the romaneio's price, against CEPEA's soja", () => {
    const pr = serie("soja/PR", [["2026-08-05", 135.4]]);
    // a day without CEPEA's indicator between two with it
    const nac = serie("soja", [
      ["2026-08-04", 140],
      ["2026-08-06", 141],
    ]);
    const c = compararRomaneio(carga(), { estadual: pr, nacional: nac }, { hoje: HOJE });
    valida(c);
    expect(c.referencias.map((r) => [r.serie, r.unidade, r.defasagem_dias, r.diferenca, r.diferenca_pct, r.diferenca_total])).toEqual([
      // -5,15 × 1.234,56 = -6.357,984
      ["soja/PR", "sc60kg", 0, -5.15, -3.8, -6357.98],
      // -9,75 × 1.234,56 = -12.036,96
      ["soja", "sc60kg", 1, -9.75, -6.96, -12036.96],
    ]);
    const r = c.simulacao as Resultado;
    expect(r.quantidade).toMatchObject({ sacas: 1234.56, base: "sacas de 60 kg" });
    expect(r.bruto).toBe(160801.44);
    expect(c.deducoes).toEqual([{ nome: "Funrural", romaneio: 2412.02, simulador: 2412.02 }]);
    expect(c.avisos).toEqual([]);
  });

  it("a product the simulator does not sell that way gives no simulation", () => {
    const c = compararRomaneio(abate({}, { produto: "soja" }), { estadual: null, nacional: null }, { hoje: HOJE });
    expect(c.simulacao).toBeNull();
    expect(c.avisos).toContainEqual("Sem simulação: soja não se vende por arroba no simulador.");
  });
});

describe("rounding", () => {
  it("the simulator lands on the romaneio's arrobas, at a yield within 1% of 100%", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 150, max: 500 }), fc.nat(), (cab, arrobasPorCabecaX10, resto) => {
        // between 15 and 50 @ per head, in hundredths of the total, any last digits
        const alvo = BigInt(cab) * BigInt(arrobasPorCabecaX10) * 10n + BigInt(resto % Math.min(cab, 1000));
        const pr = pesoERendimento(BigInt(cab), alvo);
        // up to 200 head there is always one (the window of 150 000 meets a multiple of
        // cabeças × rendimento within a few tries); above, not always: the caller approximates
        if (cab <= 200) expect(pr).not.toBeNull();
        if (!pr) return;
        expect(pr.rendimento >= 9_900n && pr.rendimento <= 10_100n).toBe(true);
        // the simulator's own formula (simulator.ts: contas)
        const x = BigInt(cab) * pr.peso * pr.rendimento;
        expect((2n * x + 150_000n) / 300_000n).toBe(alvo);
      }),
    );
    // up to 15 head, always at a 100% yield
    for (let cab = 1n; cab <= 15n; cab++) {
      for (let alvo = 100_00n; alvo < 100_60n; alvo++) expect(pesoERendimento(cab, alvo)?.rendimento).toBe(10_000n);
    }
  });

  it("the simulation of a romaneio is its gross to the centavo", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1500, max: 5000 }), fc.integer({ min: 10_000, max: 60_000 }), (cab, porCabeca, preco) => {
        const arrobas = cab * porCabeca + (porCabeca % cab); // hundredths
        const c = compararRomaneio(abate({ cabecas: cab, arrobas: arrobas / 100, preco_arroba: preco / 100 }), { estadual: null, nacional: null }, { hoje: HOJE });
        const r = c.simulacao as Resultado;
        expect(r.quantidade.arrobas).toBe(arrobas / 100);
        expect(r.avisos).toEqual([]);
        const bruto = (2n * BigInt(arrobas) * BigInt(preco) + 100n) / 200n;
        expect(r.bruto).toBe(Number(bruto) / 100);
      }),
      { numRuns: 50 },
    );
  });

  it("too many head for an exact weight: the nearest, and the difference said", () => {
    const c = compararRomaneio(abate({ cabecas: 3000, arrobas: 60000.01, preco_arroba: 300 }), { estadual: null, nacional: null }, { hoje: HOJE });
    valida(c);
    const r = c.simulacao as Resultado;
    expect(r.entrada.rendimento_pct).toBe(100);
    expect(r.quantidade.arrobas).not.toBe(60000.01);
    expect(Math.abs(r.quantidade.arrobas! - 60000.01)).toBeLessThanOrEqual(1);
    expect(r.observacoes[0]).toMatch(/com 3000 cabeças nenhum peso ao centésimo de kg dá exatamente as 60\.000,01 arrobas/);
    expect(r.avisos).toEqual([expect.stringMatching(/^As arrobas da simulação \(.*\) diferem das do romaneio \(60\.000,01\)/)]);
    // the standard rates are on the romaneio's own gross: 60.000,01 × 300 = 18.000.003,00
    expect(c.deducoes.map((d) => d.simulador)).toEqual([234000.04, 36000.01, null]);
  });

  it("diferenca_total is the difference times the quantity, to the centavo", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 10_000, max: 100_000 }), // romaneio price, centavos
        fc.integer({ min: 10_000, max: 100_000 }), // reference, centavos
        fc.integer({ min: 1, max: 10_000_000 }), // arrobas, hundredths
        (preco, ref, arrobas) => {
          const c = compararRomaneio(
            abate({ preco_arroba: preco / 100, arrobas: arrobas / 100, cabecas: null }),
            { estadual: serie("boi_gordo/MS", [["2026-08-05", ref / 100]]), nacional: null },
            { hoje: HOJE },
          );
          const r = c.referencias[0]!;
          expect(r.diferenca).toBe((preco - ref) / 100);
          for (const v of [r.diferenca, r.diferenca_pct, r.diferenca_total]) expect(hasAtMostTwoDecimals(v!)).toBe(true);
          // within half a centavo of the exact product, in integers
          const exato = BigInt(preco - ref) * BigInt(arrobas); // centavos × hundredths
          const erro = BigInt(Math.round(r.diferenca_total! * 100)) * 100n - exato;
          expect(erro >= -50n && erro <= 50n).toBe(true);
          const erroPct = BigInt(Math.round(r.diferenca_pct! * 100)) * BigInt(ref) - BigInt(preco - ref) * 10_000n;
          expect(2n * (erroPct < 0n ? -erroPct : erroPct) <= BigInt(ref)).toBe(true);
        },
      ),
    );
  });
});
