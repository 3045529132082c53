import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { LeituraRomaneio, Serie, TotaisAbate, TotaisCarga } from "../../pipeline/domain/publicados.gerados.ts";
import { compararRomaneio } from "../../pipeline/romaneio/comparar.ts";
import { CONFIANCA_MINIMA, lerRomaneio, type TextoLido } from "../../pipeline/romaneio/ler.ts";
import { datasNaLinha } from "../../pipeline/romaneio/numeros.ts";
import { numerosErradosEmSilencio } from "../romaneio/corpus.ts";
import { DOCUMENTOS, esperado } from "../romaneio/modelos/calculo.ts";

/**
 * Audit of the romaneio reader: single OCR faults (a digit misread, lost or doubled) on the real
 * OCR and PDF texts of the corpus that came out as a number wrong with nothing saying so, and a
 * letterhead whose state was not the sale's. Each case is one such fault on a corpus fixture.
 */

const OCR = join(import.meta.dirname, "../fixtures/romaneio/ocr");
const fixture = (nome: string): TextoLido => JSON.parse(readFileSync(join(OCR, nome), "utf8")) as TextoLido;
const doc = (id: string) => esperado(DOCUMENTOS.find((d) => d.id === id)!);

/** One OCR fault: `de` read as `para`, the word keeping the confidence the engine gave it. */
function trocar(t: TextoLido, de: string, para: string): TextoLido {
  expect(t.texto).toContain(de);
  return {
    ...t,
    texto: t.texto.replace(de, para),
    ...(t.palavras ? { palavras: t.palavras.map((p) => (p.texto === de ? { ...p, texto: para } : p)) } : {}),
  };
}

const duvidoso = (l: LeituraRomaneio, c: string): boolean => (l.confianca[c] ?? 1) < CONFIANCA_MINIMA || l.avisos.some((a) => a.campos.includes(c));

describe("auditoria 6, romaneio: a year broken by OCR is not a two-digit year", () => {
  it("\"20Z6\" and \"20 26\" are no date, never 2020", () => {
    expect(datasNaLinha("Data do abate: 22/09/20Z6").map((d) => d.data)).toEqual([]);
    expect(datasNaLinha("Data do abate: 22/09/20 26").map((d) => d.data)).toEqual([]);
    // a two-digit year and a time, a four-digit year and a time: still read
    expect(datasNaLinha("Emissão: 05/08/26 14:32").map((d) => d.data)).toEqual(["2026-08-05"]);
    expect(datasNaLinha("Emissão: 05/08/2026 14:32").map((d) => d.data)).toEqual(["2026-08-05"]);
    const l = lerRomaneio(trocar(fixture("abate-grande-boi-go.png.json"), "22/09/2026", "22/09/20Z6"));
    expect(l.data).toBeNull();
    expect(numerosErradosEmSilencio(l, doc("abate-grande-boi-go"))).toEqual([]);
  });
});

describe("auditoria 6, romaneio: arrobas rounded or truncated, the document's one way", () => {
  it("an animal's arrobas that lost their last digit (the truncation of kg ÷ 15, where the other rows round) are said", () => {
    // 309,1 kg ÷ 15 = 20,6067: 20,61 rounded (as every row of this document), 20,60 truncated
    const l = lerRomaneio(trocar(fixture("abate-bandas-boi-mt.png.json"), "20,61", "20,6"));
    expect(l.linhas[3]!.arrobas).toBe(20.6);
    expect(l.avisos.find((a) => a.campos.includes("linhas[3].arrobas"))?.codigo).toBe("arrobas_kg");
    expect(numerosErradosEmSilencio(l, doc("abate-bandas-boi-mt"))).toEqual([]);
  });

  it("a total that lost its last digit is not let through as kg ÷ 15 truncated when the rows round", () => {
    // 1.156,6 kg ÷ 15 = 77,1067; the gross value unread, so only the rows and the kg can tell
    let t = trocar(fixture("abate-bandas-vaca-pr.pdf.json"), "77,11", "77,1");
    t = trocar(t, "Valor bruto R$        23.229,39\n", "");
    const l = lerRomaneio(t);
    expect((l.totais as TotaisAbate).arrobas).toBe(77.1);
    expect(duvidoso(l, "totais.arrobas")).toBe(true);
    expect(numerosErradosEmSilencio(l, doc("abate-bandas-vaca-pr"))).toEqual([]);
  });

  it("a check that passes rounded or truncated does not confirm the last centavo (a deduction, the gross)", () => {
    // a scanned copy whose net value OCR lost: the deduction's rate is its only check.
    // 0,20% of 23.229,39 = 46,4588: 46,46 rounded, 46,45 truncated
    const senar = lerRomaneio(trocar(fixture("abate-bandas-vaca-pr.pdfEscaneado.json"), "46,46", "46,45"));
    expect((senar.totais as TotaisAbate).descontos[1]!.valor).toBe(46.45);
    expect(numerosErradosEmSilencio(senar, doc("abate-bandas-vaca-pr"))).toEqual([]);
    // 77,11 @ × R$ 301,25 = 23.229,3875: 23.229,39 rounded, 23.229,38 truncated
    const bruto = lerRomaneio(trocar(fixture("abate-bandas-vaca-pr.pdfEscaneado.json"), "23.229,39", "23.229,38"));
    expect((bruto.totais as TotaisAbate).valor_bruto).toBe(23229.38);
    expect(numerosErradosEmSilencio(bruto, doc("abate-bandas-vaca-pr"))).toEqual([]);
    // the same reading, right: what a check confirms unambiguously keeps its confidence
    const certo = lerRomaneio(fixture("abate-bandas-vaca-pr.pdfEscaneado.json"));
    expect(certo.confianca["totais.descontos[0].valor"]).toBeGreaterThanOrEqual(CONFIANCA_MINIMA);
    expect(certo.confianca["totais.preco_arroba"]).toBeGreaterThanOrEqual(CONFIANCA_MINIMA);
  });
});

describe("auditoria 6, romaneio: numbers no check reaches are doubted", () => {
  it("animal rows whose carcass and arrobas OCR lost: their bands, and a total kg only near arrobas × 15", () => {
    // the scanned copy: rows 2 to 5 came out as "2  Fêmea  115,5  115,5", the rest of the row lost
    const l = lerRomaneio(fixture("abate-bandas-vaca-pr.pdfEscaneado.json"));
    expect(l.linhas[1]!.bandas_kg).toEqual([115.5, 115.5]);
    expect(l.linhas[1]!.peso_carcaca_kg).toBeNull();
    for (const i of [1, 2, 3, 4]) expect([i, l.confianca[`linhas[${i}].bandas_kg`]! < CONFIANCA_MINIMA]).toEqual([i, true]);
    const banda = lerRomaneio(trocar(fixture("abate-bandas-vaca-pr.pdfEscaneado.json"), "115,5", "116,5"));
    expect(numerosErradosEmSilencio(banda, doc("abate-bandas-vaca-pr"))).toEqual([]);
    // 1.156,5 ÷ 15 = 77,10 against 77,11: close enough for arrobas summed per animal, but no row
    // has its numbers to sum
    const kg = lerRomaneio(trocar(fixture("abate-bandas-vaca-pr.pdfEscaneado.json"), "1.156,6", "1.156,5"));
    expect((kg.totais as TotaisAbate).peso_carcaca_kg).toBe(1156.5);
    expect(numerosErradosEmSilencio(kg, doc("abate-bandas-vaca-pr"))).toEqual([]);
  });

  it("a grain load's moisture and impurity read by OCR (no check reaches them); a text layer's stay believed", () => {
    const l = lerRomaneio(trocar(fixture("carga-cooperativa-soja-pr.png.json"), "15,80%", "15,30%"));
    expect((l.totais as TotaisCarga).umidade_pct).toBe(15.3);
    expect(l.confianca["totais.umidade_pct"]).toBeLessThan(CONFIANCA_MINIMA);
    expect(l.confianca["totais.impureza_pct"]).toBeLessThan(CONFIANCA_MINIMA);
    expect(numerosErradosEmSilencio(l, doc("carga-cooperativa-soja-pr"))).toEqual([]);
    const pdf = lerRomaneio(fixture("carga-cooperativa-soja-pr.pdf.json"));
    expect(pdf.confianca["totais.umidade_pct"]).toBe(1);
  });
});

/** A series document with one day, as cotacao/{id}.json serves it. */
function serie(produto: string, uf: string | null, data: string, valor: number): Serie {
  return {
    produto,
    nome: "Boi gordo",
    uf,
    regiao: uf ?? "Estado de São Paulo",
    valor,
    moeda: "BRL",
    unidade: "@",
    fonte: "scot",
    data_cotacao: data,
    variacao: null,
    bordao: "",
    atualizado: `${data}T18:00:00-03:00`,
    proveniencia: { fonte: "scot", nome: "Scot", url: "https://example.invalid/", coletado_em: `${data}T18:00:00-03:00`, via: null, via_url: null, licenca: "t", citacao: "t", termos: "t" },
    license: "t",
    api_version: "v1",
    historico: [{ data, valor }],
  } as Serie;
}

describe("auditoria 6, romaneio: the fields that pick the reference", () => {
  it("the buyer's head office in another state is not the sale's UF", () => {
    const l = lerRomaneio(trocar(fixture("abate-grande-boi-ms.pdf.json"), "Unidade: Campo Grande - MS", "Matriz: São Paulo - SP\nUnidade: Campo Grande - MS"));
    expect([l.uf, l.municipio]).toEqual(["MS", "Campo Grande"]);
    expect(l.confianca["uf"]).toBe(1);
  });

  it("two places in two states, neither labelled: the UF is doubted, and the comparison says its state reference may be another state's", () => {
    const l = lerRomaneio(trocar(fixture("abate-grande-boi-ms.png.json"), "Unidade: Campo Grande - MS", "Av. Paulista, 1000 - São Paulo - SP\nCampo Grande - MS"));
    expect(l.confianca["uf"]).toBeLessThan(CONFIANCA_MINIMA);
    const c = compararRomaneio(l, { estadual: serie("boi_gordo", l.uf, "2026-08-05", 338), nacional: null }, { hoje: "2026-08-20" });
    expect(c.referencias).toHaveLength(1);
    expect(c.avisos.filter((a) => a.startsWith(`UF do romaneio (${l.uf}) lida com dúvida`))).toHaveLength(1);
  });

  it("a date the reading doubts: the comparison says its reference is that day's", () => {
    const t = fixture("abate-grande-boi-ms.png.json");
    const l = lerRomaneio({ ...t, palavras: t.palavras!.map((p) => (p.texto === "05/08/2026" ? { ...p, confianca: 0.41 } : p)) });
    expect(l.data).toBe("2026-08-05");
    expect(l.confianca["data"]).toBeLessThan(CONFIANCA_MINIMA);
    const series = { estadual: serie("boi_gordo", "MS", "2026-08-05", 338), nacional: null };
    const c = compararRomaneio(l, series, { hoje: "2026-08-20" });
    expect(c.avisos.filter((a) => a.startsWith("Data do romaneio (05/08/2026) lida com dúvida"))).toHaveLength(1);
    // read with confidence, or typed by the person on the page (confidence 1): nothing said
    const certo = compararRomaneio({ ...l, confianca: { ...l.confianca, data: 1 } }, series, { hoje: "2026-08-20" });
    expect(certo.avisos.some((a) => a.startsWith("Data do romaneio"))).toBe(false);
  });
});
