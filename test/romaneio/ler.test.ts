import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { LeituraRomaneio, TotaisAbate, TotaisCarga } from "../../pipeline/domain/publicados.gerados.ts";
import { CONFIANCA_MINIMA, conferirLeitura, lerRomaneio, nomeDoDesconto, reconferir, type TextoLido } from "../../pipeline/romaneio/ler.ts";
import { acharDocumento, datasNaLinha, digitosOcr, documentoValido, formatarBR, formatarDocumento, numeroBR } from "../../pipeline/romaneio/numeros.ts";
import { diferencas, numerosErradosEmSilencio } from "./corpus.ts";
import { br, documentoValido as documentoDoModelo, DOCUMENTOS, esperado } from "./modelos/calculo.ts";

const FIXTURES = join(import.meta.dirname, "../fixtures/romaneio");
const OCR = join(FIXTURES, "ocr");

function fixture(nome: string): TextoLido {
  return JSON.parse(readFileSync(join(OCR, nome), "utf8")) as TextoLido;
}
function manual(nome: string): LeituraRomaneio {
  return lerRomaneio({ texto: readFileSync(join(FIXTURES, "manuais", nome), "utf8"), origem: "texto" });
}
function doc(id: string) {
  const d = DOCUMENTOS.find((x) => x.id === id);
  if (!d) throw new Error(id);
  return d;
}
const codigos = (l: LeituraRomaneio): string[] => l.avisos.map((a) => a.codigo);

// Real outputs of tesseract.js (por, best_int) and of the PDF text layer on the clean corpus,
// captured once and kept verbatim: <documento>.<png|pdf|pdfEscaneado>.json
const ARQUIVOS = readdirSync(OCR).filter((f) => f.endsWith(".json")).sort();

describe("lerRomaneio on real OCR and PDF text of the clean corpus", () => {
  it("has the three readings of every corpus document", () => {
    expect(ARQUIVOS).toHaveLength(DOCUMENTOS.length * 3);
  });

  for (const f of ARQUIVOS.filter((x) => !x.includes(".pdfEscaneado."))) {
    it(`reads every field of ${f} exactly, with no aviso`, () => {
      const [id] = f.split(".");
      const l = lerRomaneio(fixture(f));
      expect(diferencas(l, esperado(doc(id!)))).toEqual([]);
      expect(l.avisos).toEqual([]);
    });
  }

  for (const f of ARQUIVOS) {
    it(`gets no number of ${f} wrong without saying so`, () => {
      const [id] = f.split(".");
      const l = lerRomaneio(fixture(f));
      expect(numerosErradosEmSilencio(l, esperado(doc(id!)))).toEqual([]);
    });
  }

  it("takes confidences from the OCR words (below 1) and 1 from a text layer", () => {
    const ocr = lerRomaneio(fixture("abate-grande-boi-ms.png.json"));
    const pdf = lerRomaneio(fixture("abate-grande-boi-ms.pdf.json"));
    expect(Object.keys(ocr.confianca)).toEqual(expect.arrayContaining(["data", "totais.valor_bruto", "linhas[0].arrobas", "vendedor.documento"]));
    for (const v of Object.values(ocr.confianca)) expect(v).toBeGreaterThanOrEqual(0), expect(v).toBeLessThanOrEqual(1);
    expect(Math.min(...Object.values(ocr.confianca))).toBeLessThan(1);
    expect(pdf.confianca["totais.valor_bruto"]).toBe(1);
  });

  it("lowers the confidence of a field named by a failed check", () => {
    const t = fixture("abate-grande-boi-ms.pdf.json");
    const l = lerRomaneio({ ...t, texto: t.texto.replace("R$ 51.696,00", "R$ 51.969,00") });
    expect(l.totais?.valor_bruto).toBe(51969);
    expect(codigos(l)).toContain("bruto_preco");
    expect(l.confianca["totais.valor_bruto"]).toBeLessThan(CONFIANCA_MINIMA);
  });

  it("a word OCR was unsure of keeps its low confidence", () => {
    const t = fixture("abate-grande-boi-ms.png.json");
    const palavras = t.palavras!.map((p) => (p.texto === "320,00" ? { ...p, confianca: 0.31 } : p));
    const l = lerRomaneio({ ...t, palavras });
    expect(l.totais && "preco_arroba" in l.totais ? l.totais.preco_arroba : null).toBe(320);
    expect(l.confianca["totais.preco_arroba"]).toBeLessThan(CONFIANCA_MINIMA);
  });
});

// Real OCR of degraded copies (test/romaneio/degradar.ts), kept verbatim: the hard cases
const DEGRADADOS = join(FIXTURES, "ocr-degradado");

describe("lerRomaneio on real OCR of degraded copies", () => {
  for (const f of readdirSync(DEGRADADOS).sort()) {
    it(`gets no number of ${f} wrong without saying so`, () => {
      const l = lerRomaneio(JSON.parse(readFileSync(join(DEGRADADOS, f), "utf8")) as TextoLido);
      expect(numerosErradosEmSilencio(l, esperado(doc(f.split(".")[0]!)))).toEqual([]);
    });
  }

  it("doubts weights whose every 0 a phone photo read as 6 (bruto − tara still matches, so only the OCR confidence can tell)", () => {
    const l = lerRomaneio(JSON.parse(readFileSync(join(DEGRADADOS, "carga-ticket-milho-ms.celular.json"), "utf8")) as TextoLido);
    const t = l.totais as TotaisCarga;
    expect([t.peso_bruto_kg, t.tara_kg]).toEqual([49876, 16116]);
    expect(l.confianca["totais.peso_bruto_kg"]).toBeLessThan(CONFIANCA_MINIMA);
    expect(l.confianca["totais.tara_kg"]).toBeLessThan(CONFIANCA_MINIMA);
  });

  // <documento>.<degradacao>.psm4.json: captured with tessedit_pageseg_mode 4 (the others with 3)
  it("cleans the debris PSM 4 reads after a deduction's name on a noisy copy; its value stays as read", () => {
    const t = JSON.parse(readFileSync(join(DEGRADADOS, "abate-bandas-boi-mt.ruido.psm4.json"), "utf8")) as TextoLido;
    expect(t.texto).toMatch(/Taxa de abate\s{3,}é\s+o\s+é\s+:\s+45,00/);
    const l = lerRomaneio(t);
    const e = esperado(doc("abate-bandas-boi-mt"));
    expect((l.totais as TotaisAbate).descontos).toEqual((e.totais as TotaisAbate).descontos);
    expect(l.confianca["totais.descontos[2].valor"]).toBeGreaterThanOrEqual(CONFIANCA_MINIMA);
  });

  it("reads every field of a blurred copy with PSM 4", () => {
    const l = lerRomaneio(JSON.parse(readFileSync(join(DEGRADADOS, "abate-grande-boi-ms.desfoque.psm4.json"), "utf8")) as TextoLido);
    expect(diferencas(l, esperado(doc("abate-grande-boi-ms")))).toEqual([]);
    expect(l.avisos).toEqual([]);
  });

  it("reads an abbreviated label at low resolution (\"Valor líq\")", () => {
    const l = lerRomaneio(JSON.parse(readFileSync(join(DEGRADADOS, "carga-cooperativa-soja-pr.baixa_resolucao.json"), "utf8")) as TextoLido);
    expect(diferencas(l, esperado(doc("carga-cooperativa-soja-pr")))).toEqual([]);
  });
});

describe("lerRomaneio on noisy and broken texts", () => {
  it("tolerates glued R$, @ read as 6/©, O and l for digits, missing thousands dots, a value on the next line", () => {
    const l = manual("ruidoso-compacto.txt");
    const e = esperado(doc("abate-compacto-boi-sp"));
    expect(diferencas(l, e)).toEqual([]);
    expect(l.avisos).toEqual([]);
    // "l9,10" needed a look-alike: believed a little less than the rest of a typed text
    expect(l.confianca["linhas[2].arrobas"]).toBeLessThan(1);
    expect(l.confianca["linhas[1].arrobas"]).toBe(1);
  });

  it("drops OCR debris around a deduction's name (after a wide gap, or stray letters at its ends), never a word of it", () => {
    const l = manual("detritos-descontos.txt");
    const e = esperado(doc("abate-bandas-boi-mt"));
    expect(diferencas(l, e)).toEqual([]);
    expect(l.avisos).toEqual([]);
    const casos: Array<[string, string]> = [
      ["Taxa de abate          é     o       é   :   45,00", "Taxa de abate"],
      // typed or single-spaced: only the stray tokens at the end
      ["Taxa de abate é o é: 45,00", "Taxa de abate"],
      ["Taxa  de  secagem  e.  —  :  R$  180,00", "Taxa de secagem"],
      ["é Taxa de secagem R$ 180,00", "Taxa de secagem"],
      ["(-) Senar 0,20%   .   :     84,24", "Senar"],
      // a name is never cut: short words inside it, abbreviations in capitals at its end
      ["Taxa de abate 45,00", "Taxa de abate"],
      ["Frete MS   120,00", "Frete MS"],
      ["Taxa GTA 35,00", "Taxa GTA"],
      ["Contribuição ao fundo   a   12,00", "Contribuição ao fundo"],
      ["Taxa 25,00", "Taxa"],
      // nothing but debris: no name
      ["-   é   :   25,00", "Desconto"],
    ];
    for (const [linha, nome] of casos) expect({ linha, nome: nomeDoDesconto(linha) }).toEqual({ linha, nome });
  });

  it("reads a thousands dot read as a space after a label, never joins an animal's number to its weight", () => {
    const t = fixture("abate-grande-vaca-sp.pdf.json");
    expect(t.texto).toContain("1.375,30");
    const texto = t.texto.replace("1.375,30", "1 375,30").replace("R$ 27.369,47", "R$ 27 369,47").replace(/^1\s+161480\s+F\s+/m, "1 ");
    const l = lerRomaneio({ texto, origem: "texto" });
    const e = esperado(doc("abate-grande-vaca-sp"));
    expect((l.totais as TotaisAbate).peso_carcaca_kg).toBe(1375.3);
    expect((l.totais as TotaisAbate).valor_bruto).toBe(27369.47);
    expect(l.linhas[0]).toEqual({ ...e.linhas[0], sexo: null });
    expect(l.avisos).toEqual([]);
  });

  it("names the failed checks with their numbers", () => {
    const l = manual("conferencias-erradas.txt");
    expect(codigos(l)).toEqual(["cabecas_linhas", "arrobas_kg", "soma_linhas", "bruto_preco", "liquido_descontos"]);
    const [cab, arr, soma, bruto, liq] = l.avisos;
    expect(cab!.mensagem).toBe("O romaneio diz 4 cabeças, mas foram lidas 3 linhas de animais.");
    expect(arr!.mensagem).toBe("Animal 2: 308,10 kg ÷ 15 = 20,54 @, mas a linha diz 20,45 @.");
    expect(arr!.campos).toEqual(["linhas[1].peso_carcaca_kg", "linhas[1].arrobas"]);
    expect(soma!.mensagem).toBe("As arrobas dos animais somam 62,17 @, mas o total diz 62,26 @.");
    expect(bruto!.mensagem).toBe("62,26 arrobas × R$ 320,00/@ = R$ 19.923,20, mas o valor bruto diz R$ 19.932,00.");
    expect(liq!.mensagem).toBe("Valor bruto R$ 19.932,00 − descontos R$ 338,84 = R$ 19.593,16, mas o líquido diz R$ 19.600,00.");
    expect(liq!.campos).toEqual(["totais.valor_bruto", "totais.descontos[0].valor", "totais.descontos[1].valor", "totais.valor_liquido"]);
    for (const c of ["totais.valor_bruto", "totais.valor_liquido", "linhas[1].arrobas"]) expect(l.confianca[c]).toBeLessThan(CONFIANCA_MINIMA);
  });

  it("keeps an invalid CPF/CNPJ as read, with documento_invalido; an impossible date is null with data_invalida", () => {
    const l = manual("cnpj-invalido.txt");
    expect(l.comprador).toEqual({ nome: "Cooperativa Agroindustrial Oeste Verde", documento: "80.317.546/0001-01" });
    expect(l.vendedor).toEqual({ nome: "Roberto Carlos Weber", documento: "734.019.582-33" });
    expect(l.data).toBeNull();
    expect(codigos(l).sort()).toEqual(["data_invalida", "documento_invalido", "documento_invalido"]);
    expect(l.avisos.find((a) => a.campos.includes("vendedor.documento"))!.mensagem).toContain("734.019.582-33");
    expect(l.confianca["vendedor.documento"]).toBeLessThan(CONFIANCA_MINIMA);
    // the numbers themselves are fine
    expect((l.totais as TotaisCarga).valor_liquido).toBe(65658.8);
  });

  it("reads a text whose lines came out of order", () => {
    const l = manual("embaralhado.txt");
    const e = esperado(doc("carga-ticket-milho-ms"));
    expect(l.comprador).toEqual(e.comprador);
    expect(l.totais).toEqual(e.totais);
    expect(l.avisos).toEqual([]);
  });

  it("on a cut text: what is missing is null and said, the cut number is not believed", () => {
    const l = manual("truncado.txt");
    const t = l.totais as TotaisCarga;
    expect(t.peso_bruto_kg).toBe(49870);
    expect(t.valor_liquido).toBeNull();
    expect(l.avisos).toEqual([
      expect.objectContaining({ codigo: "campo_ausente", campos: ["totais.peso_liquido_kg", "totais.sacas", "totais.preco_saca", "totais.valor_bruto", "totais.valor_liquido"] }),
    ]);
    // "Desc.: 6" is what is left of "68 kg"
    expect(numerosErradosEmSilencio(l, esperado(doc("carga-ticket-milho-ms")))).toEqual([]);
    expect(l.confianca["totais.desconto_impureza_kg"]).toBeLessThan(CONFIANCA_MINIMA);
    expect(l.data).toBe("2026-08-05"); // "05/08/26": a two-digit year
  });

  it("says when it cannot tell the kind of document", () => {
    const l = lerRomaneio({ texto: "Recibo\nValor: R$ 100,00", origem: "texto" });
    expect(l.tipo).toBeNull();
    expect(l.totais).toBeNull();
    expect(codigos(l)).toContain("tipo_desconhecido");
  });

  it("infers the product: vaca from the females, boi from the males, soja and milho by name", () => {
    expect(lerRomaneio(fixture("abate-grande-vaca-sp.png.json")).produto).toBe("vaca_gorda");
    expect(lerRomaneio(fixture("abate-bandas-boi-mt.png.json")).produto).toBe("boi_gordo");
    expect(lerRomaneio(fixture("carga-cooperativa-soja-pr.png.json")).produto).toBe("soja");
    const misto = lerRomaneio({ texto: "Romaneio de abate\n1 M 300,00 20,00\n2 F 225,00 15,00", origem: "texto" });
    expect(misto.produto).toBeNull();
  });
});

describe("numerosErradosEmSilencio (the corpus check) can fail", () => {
  it("reports a wrong date, UF, product or type (they pick the reference), unless doubted or named in an aviso", () => {
    const e = esperado(doc("abate-compacto-boi-sp"));
    const certa = lerRomaneio(fixture("abate-compacto-boi-sp.pdf.json"));
    expect(numerosErradosEmSilencio(certa, e)).toEqual([]);
    const errada = structuredClone(certa);
    errada.data = "2026-08-12";
    errada.uf = "MS";
    errada.produto = "vaca_gorda";
    errada.tipo = "carga";
    expect(numerosErradosEmSilencio(errada, e)).toEqual([
      `tipo: lido "carga", certo "abate" (confiança 1)`,
      `data: lido "2026-08-12", certo ${JSON.stringify(e.data)} (confiança ${certa.confianca["data"]})`,
      `uf: lido "MS", certo "SP" (confiança ${certa.confianca["uf"]})`,
      `produto: lido "vaca_gorda", certo "boi_gordo" (confiança 1)`,
    ]);
    errada.confianca["data"] = CONFIANCA_MINIMA - 0.01;
    errada.avisos.push({ codigo: "tipo_desconhecido", mensagem: "x", campos: ["tipo", "uf", "produto"] });
    expect(numerosErradosEmSilencio(errada, e)).toEqual([]);
    // not read at all is not wrong
    expect(numerosErradosEmSilencio({ ...certa, data: null, uf: null, produto: null, tipo: null }, e)).toEqual([]);
  });

  it("reports a deduction's wrong value under its right name, and any value under a name that is not the document's", () => {
    const e = esperado(doc("abate-bandas-boi-mt"));
    const certa = lerRomaneio(fixture("abate-bandas-boi-mt.pdf.json"));
    expect(numerosErradosEmSilencio(certa, e)).toEqual([]);
    const errada = structuredClone(certa);
    (errada.totais as TotaisAbate).descontos[2]!.valor = 54;
    expect(numerosErradosEmSilencio(errada, e)).toEqual(["totais.descontos[2].valor: lido 54, certo 45 (confiança 1)"]);
    // a name the cleaning missed is never matched loosely: even the right value is reported
    const suja = structuredClone(certa);
    (suja.totais as TotaisAbate).descontos[2]!.nome = "Taxa de abate é o é";
    expect(numerosErradosEmSilencio(suja, e)).toEqual(["totais.descontos[2].valor: lido 45, certo null (confiança 1)"]);
    // a wrong value the reader doubts or names in an aviso is not silent
    errada.confianca["totais.descontos[2].valor"] = CONFIANCA_MINIMA - 0.01;
    expect(numerosErradosEmSilencio(errada, e)).toEqual([]);
  });
});

describe("conferirLeitura", () => {
  const base = (id: string): LeituraRomaneio => ({ ...structuredClone(esperado(doc(id))), confianca: {}, avisos: [] });

  it("reconferir (after an edit on the page) keeps what only the reading could say, until that field is edited", () => {
    const l = base("abate-grande-boi-ms");
    const dupla = { codigo: "data_ambigua" as const, mensagem: "duas datas", campos: ["data"] };
    const cpf = { codigo: "documento_invalido" as const, mensagem: "CPF", campos: ["vendedor.documento"] };
    l.avisos = [dupla, cpf];
    (l.totais as TotaisAbate).preco_arroba = 321;
    // the price edit: the new check fails, the date and document avisos stay
    const depois = reconferir(l, "totais.preco_arroba");
    expect(depois.map((a) => a.codigo)).toEqual(["data_ambigua", "documento_invalido", "bruto_preco"]);
    // the person fixed the date: its aviso goes, the document's stays
    expect(reconferir({ ...l, avisos: depois }, "data").map((a) => a.codigo)).toEqual(["documento_invalido", "bruto_preco"]);
  });

  it("finds nothing wrong in any corpus document's own numbers", () => {
    for (const d of DOCUMENTOS) expect(conferirLeitura(base(d.id)), d.id).toEqual([]);
  });

  it("checks the bands against the carcass", () => {
    const l = base("abate-bandas-boi-mt");
    l.linhas[2]!.bandas_kg = [100, 100];
    const [a] = conferirLeitura(l);
    expect(a).toEqual({ codigo: "bandas", mensagem: expect.stringMatching(/^Animal 3: banda A 100,00 kg \+ banda B 100,00 kg = 200,00 kg, mas a carcaça diz 276,20 kg\.$/), campos: ["linhas[2].bandas_kg", "linhas[2].peso_carcaca_kg"] });
  });

  it("accepts arrobas rounded per animal and summed, and rounded on the total; says when it is one centésimo off", () => {
    const porLinha = base("abate-grande-boi-ms"); // 2.423,40 kg: 161,56 @ on the total, 161,55 summed per animal
    expect((porLinha.totais as TotaisAbate).arrobas).toBe(161.55);
    expect(conferirLeitura(porLinha)).toEqual([]);
    // lines not read: up to half a centésimo per animal may come from rounding each one
    const semLinhas = { ...porLinha, linhas: [], totais: { ...(porLinha.totais as TotaisAbate), arrobas: 161.53 } };
    expect(conferirLeitura(semLinhas).map((a) => a.codigo)).not.toContain("arrobas_kg");
    semLinhas.totais.arrobas = 161.5;
    const a = conferirLeitura(semLinhas).find((x) => x.codigo === "arrobas_kg");
    expect(a).toEqual({ codigo: "arrobas_kg", mensagem: "2.423,40 kg ÷ 15 = 161,56 @, mas o total diz 161,50 @.", campos: ["totais.peso_carcaca_kg", "totais.arrobas"] });
    const semCabecas = { ...semLinhas, totais: { ...semLinhas.totais, cabecas: null, arrobas: 161.55 } };
    expect(conferirLeitura(semCabecas).find((x) => x.codigo === "arrobas_kg")!.mensagem).toBe(
      "2.423,40 kg ÷ 15 = 161,56 @, mas o total diz 161,55 @ (diferença de um centésimo: o documento parece arredondar de outro jeito, por animal ou truncando).",
    );
  });

  it("checks a grain load: weights, sacks, gross value and deductions", () => {
    const l = base("carga-cooperativa-soja-pr");
    const t = l.totais as TotaisCarga;
    t.tara_kg = 16430;
    t.sacas = 519.9;
    const cod = conferirLeitura(l).map((a) => a.codigo);
    expect(cod).toEqual(["peso_liquido", "sacas_kg", "bruto_preco"]);
    expect(conferirLeitura(l)[0]!.mensagem).toBe("Peso bruto 48.760,00 kg − tara 16.430,00 kg − umidade 875,00 kg − impureza 357,00 kg = 31.098,00 kg, mas o peso líquido diz 31.188,00 kg.");
  });

  it("checks a deduction against its printed rate", () => {
    const l = base("abate-compacto-boi-sp");
    (l.totais as TotaisAbate).descontos[0]!.valor = 397.47;
    const cod = conferirLeitura(l).map((a) => a.codigo);
    expect(cod).toEqual(["liquido_descontos", "desconto_aliquota"]);
  });

  it("lists what is missing", () => {
    const l = base("carga-ticket-soja-go");
    (l.totais as TotaisCarga).preco_saca = null;
    l.data = null;
    expect(conferirLeitura(l)).toEqual([{ codigo: "campo_ausente", mensagem: "Não foi possível ler: data, totais.preco_saca.", campos: ["data", "totais.preco_saca"] }]);
  });
});

describe("numbers, dates and documents (properties)", () => {
  const h = fc.integer({ min: 0, max: 99_999_999_99 });

  it("reads back every Brazilian number it writes, with or without thousands dots", () => {
    fc.assert(
      fc.property(h, (x) => {
        const s = formatarBR(x);
        expect(numeroBR(s)).toBe(x);
        expect(numeroBR(s.replace(/\./g, ""))).toBe(x);
        expect(numeroBR(br(x))).toBe(x);
      }),
    );
  });

  it("never reads a number with three decimals or misplaced thousands dots", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999_999 }), fc.integer({ min: 0, max: 999 }), (a, b) => {
        expect(numeroBR(`${a},${String(b).padStart(3, "0")}`)).toBeNull();
        expect(numeroBR(`${a}.${String(b % 100).padStart(2, "0")},00`)).toBeNull();
        expect(numeroBR(`0.${String(b).padStart(3, "0")},00`)).toBeNull();
      }),
    );
  });

  it("reads O/o as 0 and l/I as 1 inside numbers, never inside words", () => {
    fc.assert(
      fc.property(h, (x) => {
        const s = formatarBR(x);
        const trocado = s.replace(/0/, "O").replace(/1/, "l");
        if ((s.match(/\d/g) ?? []).length >= 4) expect(numeroBR(digitosOcr(trocado)!)).toBe(x);
      }),
    );
    expect(digitosOcr("Bois")).toBeNull();
    expect(digitosOcr("ol")).toBeNull();
    expect(digitosOcr("3l0,00")).toBe("310,00");
  });

  it("reads every date as dd/mm/aaaa, dd/mm/aa, dd.mm.aaaa and written out", () => {
    const MESES = ["janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro", "novembro", "dezembro"];
    fc.assert(
      fc.property(fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2099-12-31T00:00:00Z"), noInvalidDate: true }), (d) => {
        const iso = d.toISOString().slice(0, 10);
        const [a, m, dd] = iso.split("-");
        for (const t of [`${dd}/${m}/${a}`, `${dd}/${m}/${a!.slice(2)}`, `${dd}.${m}.${a}`, `Data: ${dd}-${m}-${a} 14:32`, `Rio Verde (GO), ${dd} de ${MESES[Number(m) - 1]} de ${a}`]) {
          expect(datasNaLinha(t).map((x) => x.data), t).toEqual([iso]);
        }
      }),
    );
    expect(datasNaLinha("31/02/2026")[0]!.data).toBeNull();
    expect(datasNaLinha("O5 de agosto de 2026")[0]!.data).toBe("2026-08-05");
  });

  it("validates and finds CPF and CNPJ, also garbled by OCR", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{9}$|^\d{12}$/), (base) => {
        const d = documentoDoModelo(base);
        const digitos = d.replace(/\D/g, "");
        expect(documentoValido(digitos)).toBe(!/^(\d)\1+$/.test(digitos));
        if (!documentoValido(digitos)) return;
        expect(formatarDocumento(digitos)).toBe(d);
        expect(acharDocumento(`CNPJ) ${d}  x`)?.documento).toBe(d);
        // one digit changed: invalid, kept as read
        const i = digitos.length - 1;
        const errado = digitos.slice(0, i) + String((Number(digitos[i]) + 1) % 10);
        expect(documentoValido(errado)).toBe(false);
      }),
    );
    expect(acharDocumento("CNP) 09.352.716/0!   001-22   Categoria")).toMatchObject({ documento: "09.352.716/0001-22", valido: true });
    expect(acharDocumento("CNPJ 19.357.248/OOO1-32")).toMatchObject({ documento: "19.357.248/0001-32", valido: true });
  });
});

// The compact layout as typed text: every check can run and passes
const COMPACTO = `Frigorífico Alta Paulista Ltda - CNPJ 19.357.248/0001-32
Presidente Prudente (SP), 05 de agosto de 2026
Romaneio de abate
Vendedor: Luiz Fernando Okamoto - CPF/CNPJ 640.297.185-58
Origem: Fazenda Bela Vista - Pirapozinho/SP
Animais
Nº        Sexo        Kg        @
01        M        297,20        19,81
02        M        291,90        19,46
03        M        286,50        19,10
04        M        292,00        19,47
Acerto
Qtde. animais        4
Peso total carcaça        1.167,60 kg
Total @        77,84
Valor da @        R$ 325,00
Vlr. Bruto        25.298,00
(-) Funrural 1,50%        379,47
(-) Senar 0,20%        50,60
Taxa        25,00
Líquido a receber        R$ 24.842,93`;
const LINHAS_DO_COMPACTO = /^0[1-4] .*\n/gm;

function compacto(trocas: Array<[string | RegExp, string]> = []): string {
  let s = COMPACTO;
  for (const [a, b] of trocas) {
    const antes = s;
    s = s.replace(a, b);
    if (s === antes) throw new Error(`sem ${a}`);
  }
  return s;
}
const lerTexto = (texto: string): LeituraRomaneio => lerRomaneio({ texto, origem: "texto" });
/** OCR words for a typed text: every word read with the same confidence. */
function comoOcr(texto: string, c = 0.95): TextoLido {
  const palavras = texto.split("\n").flatMap((l, i) => l.split(/\s+/).filter(Boolean).map((w) => ({ texto: w, confianca: c, linha: i })));
  return { texto, origem: "ocr", palavras };
}
const duvidoso = (l: LeituraRomaneio, c: string): boolean => (l.confianca[c] ?? 1) < CONFIANCA_MINIMA || l.avisos.some((a) => a.campos.includes(c));

describe("silent misreads found in review", () => {
  it("reads the compact layout fully confident, with no aviso", () => {
    const l = lerTexto(COMPACTO);
    expect(diferencas(l, esperado(doc("abate-compacto-boi-sp")))).toEqual([]);
    expect(l.avisos).toEqual([]);
    for (const [k, v] of Object.entries(l.confianca)) expect([k, v]).toEqual([k, 1]);
  });

  it("takes the slaughter date over an issue date, whatever the order", () => {
    const l = lerTexto(compacto([["Romaneio de abate\n", "Romaneio de abate\nEmissão: 12/08/2026\nData do abate: 05/08/2026\n"]]));
    expect(l.data).toBe("2026-08-05");
    expect(l.avisos).toEqual([]);
    expect(l.confianca["data"]).toBe(1);
  });

  it("reads a label alone on the line above its date, and a short \"Dt\" label", () => {
    const acima = lerTexto("ROMANEIO DE ABATE\nData do abate\n05/08/2026\nEmissão: 06/08/2026");
    expect([acima.data, acima.avisos.filter((a) => a.codigo.startsWith("data"))]).toEqual(["2026-08-05", []]);
    const dt = lerTexto("ROMANEIO DE ABATE\nData: 05/08/2026\nDt: 06/08/2026");
    expect(dt.avisos.map((a) => a.codigo)).toContain("data_ambigua");
    expect(dt.confianca["data"]).toBeLessThan(CONFIANCA_MINIMA);
  });

  it("never takes a due, payment or birth date, even after a title with \"abate\"", () => {
    for (const extra of ["Data de pagamento: 20/08/2026", "Romaneio de abate   Vencimento: 20/08/2026", "Vencto.: 20/08/2026", "Nascimento: 20/08/2024", "Previsão de pagamento 20/08/2026"]) {
      const l = lerTexto(compacto([["Romaneio de abate\n", `Romaneio de abate\n${extra}\n`]]));
      expect([extra, l.data]).toEqual([extra, "2026-08-05"]);
      expect(l.avisos).toEqual([]);
    }
  });

  it("says when two dates with labels of the same weight disagree, and doubts the one it picked", () => {
    const l = lerTexto(compacto([["Romaneio de abate\n", "Romaneio de abate\nData: 05/08/2026\nEmissão: 12/08/2026\n"]]));
    expect(l.data).toBe("2026-08-05");
    expect(codigos(l)).toEqual(["data_ambigua"]);
    expect(l.avisos[0]).toEqual({ codigo: "data_ambigua", mensagem: expect.stringContaining('"05/08/2026", "12/08/2026"'), campos: ["data"] });
    expect(l.confianca["data"]).toBeLessThan(CONFIANCA_MINIMA);
    // the same date printed twice is no ambiguity
    expect(codigos(lerTexto(compacto([["Romaneio de abate\n", "Romaneio de abate\nData: 05/08/2026\nEmissão: 05/08/2026 14:32\n"]])))).toEqual([]);
  });

  it("takes the head count right after its label when another pair shares the line", () => {
    const l = lerTexto(compacto([[LINHAS_DO_COMPACTO, ""], ["Qtde. animais        4\n", ""], ["Total @        77,84", "Cabeças 4  Total @ 77,84"]]));
    const t = l.totais as TotaisAbate;
    expect(t.cabecas).toBe(4);
    expect(t.cabecas === 78 && !duvidoso(l, "totais.cabecas")).toBe(false);
  });

  it("doubts a head count no row can confirm", () => {
    const l = lerTexto(compacto([[LINHAS_DO_COMPACTO, ""]]));
    expect((l.totais as TotaisAbate).cabecas).toBe(4);
    expect(l.confianca["totais.cabecas"]).toBeLessThan(CONFIANCA_MINIMA);
    // with the rows read it is confirmed by them
    expect(lerTexto(COMPACTO).confianca["totais.cabecas"]).toBe(1);
  });

  it("doubts a number a look-alike was glued in front of (\"|4\": a table rule or a 1)", () => {
    const l = lerRomaneio(comoOcr(compacto([["Qtde. animais        4", "Qtde. animais   |4"]])));
    const t = l.totais as TotaisAbate;
    expect(t.cabecas === 14 && !duvidoso(l, "totais.cabecas")).toBe(false);
    // without rows to count, the same
    const s = lerRomaneio(comoOcr(compacto([[LINHAS_DO_COMPACTO, ""], ["Qtde. animais        4", "Qtde. animais   |4"]])));
    expect((s.totais as TotaisAbate).cabecas).toBe(14);
    expect(s.confianca["totais.cabecas"]).toBeLessThan(CONFIANCA_MINIMA);
    // a look-alike inside a number is still believed (a little less)
    const d = lerRomaneio(comoOcr(compacto([["297,20", "297,2O"]])));
    expect(d.linhas[0]!.peso_carcaca_kg).toBe(297.2);
    expect(d.confianca["linhas[0].peso_carcaca_kg"]).toBeGreaterThanOrEqual(CONFIANCA_MINIMA);
  });

  it("without animal rows, doubts a kg total that is only near arrobas × 15", () => {
    const l = lerTexto(compacto([[LINHAS_DO_COMPACTO, ""], ["1.167,60 kg", "1.167,50 kg"]]));
    const t = l.totais as TotaisAbate;
    expect(t.peso_carcaca_kg).toBe(1167.5);
    expect(duvidoso(l, "totais.peso_carcaca_kg")).toBe(true);
    // the arrobas (right) are still confirmed by the gross value: 77,84 @ × R$ 325,00
    expect(l.confianca["totais.arrobas"]).toBe(1);
    // the right kg, exactly 77,84 @ × 15 rounded: confirmed
    const certo = lerTexto(compacto([[LINHAS_DO_COMPACTO, ""]]));
    expect(certo.confianca["totais.peso_carcaca_kg"]).toBe(1);
    expect(certo.confianca["totais.arrobas"]).toBe(1);
  });

  it("doubts a price, and any checked total, whose every check could not run", () => {
    const l = lerTexto(compacto([["R$ 325,00", "R$ 32500"], ["Vlr. Bruto        25.298,00\n", ""]]));
    const t = l.totais as TotaisAbate;
    expect(t.preco_arroba).toBe(32500);
    expect(t.valor_bruto).toBeNull();
    expect(l.confianca["totais.preco_arroba"]).toBeLessThan(CONFIANCA_MINIMA);
    // the net value and the deductions lost their partner (the gross) too
    for (const c of ["totais.valor_liquido", "totais.descontos[0].valor", "totais.descontos[2].valor"]) expect([c, l.confianca[c]! < CONFIANCA_MINIMA]).toEqual([c, true]);
    // a grain load without its gross value: the price per sack is doubted the same way
    const g = lerRomaneio(fixture("carga-cooperativa-soja-pr.pdf.json"));
    expect(g.confianca["totais.preco_saca"]).toBe(1);
    const sem = lerRomaneio({ ...fixture("carga-cooperativa-soja-pr.pdf.json"), texto: fixture("carga-cooperativa-soja-pr.pdf.json").texto.replace(/^.*bruto.*R\$.*$/im, "") });
    expect((sem.totais as TotaisCarga).valor_bruto).toBeNull();
    expect(sem.confianca["totais.preco_saca"]).toBeLessThan(CONFIANCA_MINIMA);
  });
});
