/** The layout table of the backfill (sources/cepea-series.ts) against the catalogue, and its title and term rules. */
import { describe, expect, it } from "vitest";
import { lerSerieCepea, SERIES_CEPEA } from "../../pipeline/sources/cepea-series.ts";
import { serieDef } from "../../pipeline/sources/index.ts";
import { abrirPlanilha } from "../../pipeline/sources/planilha.ts";
import { planilha, type LinhaSerie } from "./planilhas.ts";

const serie = (id: string) => SERIES_CEPEA.find((s) => s.serie === id)!;
const linhas: LinhaSerie[] = [
  { data: "2026-08-13", brl: 160.1, usd: 30.5 },
  { data: "2026-08-14", brl: "161,00", usd: "30,70" },
];

describe("CEPEA's series downloads", () => {
  it("every indicator the backfill knows is a CEPEA series of the catalogue, on its page, with one id each", () => {
    for (const s of SERIES_CEPEA) {
      const def = serieDef(s.serie);
      expect([s.serie, def?.fonte, def?.pagina]).toEqual([s.serie, "cepea", s.pagina]);
    }
    expect(new Set(SERIES_CEPEA.map((s) => s.id)).size).toBe(SERIES_CEPEA.length);
    expect(new Set(SERIES_CEPEA.map((s) => s.serie)).size).toBe(SERIES_CEPEA.length);
  });

  it("Paraná's soja file is not Paranaguá's, and the other way round", () => {
    const pr = planilha(linhas, "biff8", { titulo: "Indicador da Soja CEPEA/ESALQ - Paraná" });
    const pgua = planilha(linhas, "biff8", { titulo: "Indicador da Soja CEPEA/ESALQ - Paranaguá" });
    expect(lerSerieCepea(abrirPlanilha(pr), serie("soja/PR")).dias).toEqual([
      { data: "2026-08-13", valor: 160.1, valor_usd: 30.5 },
      { data: "2026-08-14", valor: 161, valor_usd: 30.7 },
    ]);
    expect(lerSerieCepea(abrirPlanilha(pgua), serie("soja")).dias).toHaveLength(2);
    expect(() => lerSerieCepea(abrirPlanilha(pgua), serie("soja/PR"))).toThrow('esperado um título com "SOJA" e "PARANA" e sem "PARANAGUA"');
    expect(() => lerSerieCepea(abrirPlanilha(pr), serie("soja"))).toThrow('esperado um título com "SOJA" e "PARANAGUA"');
  });

  it("a neighbouring indicator's file is refused by its title: refined sugar for crystal sugar, boi's a prazo or moving average, the calf's weight", () => {
    const ler = (titulo: string, id: string) => () => lerSerieCepea(abrirPlanilha(planilha(linhas, "biff8", { titulo })), serie(id));
    expect(ler("Indicador do Açúcar Cristal Branco CEPEA/ESALQ - São Paulo", "acucar_cristal_sp")().dias).toHaveLength(2);
    expect(ler("Indicador do Açúcar Refinado Amorfo CEPEA/ESALQ - São Paulo", "acucar_cristal_sp")).toThrow('esperado um título com "ACUCAR" e "CRISTAL" e sem "SANTOS"');
    expect(ler("Indicador do Boi Gordo CEPEA/ESALQ", "boi_gordo")().dias).toHaveLength(2);
    expect(ler("Boi Gordo - Média a Prazo Estado de São Paulo", "boi_gordo")).toThrow('esperado um título com "BOI GORDO" e sem "PRAZO", "MOVEL"');
    expect(ler("Boi Gordo - Média Móvel (5 últimos indic.)", "boi_gordo")).toThrow("a planilha é de outro indicador");
    expect(ler("Indicador do Bezerro CEPEA/ESALQ - Mato Grosso do Sul", "bezerro")().dias).toHaveLength(2);
    expect(ler("Peso Médio do Bezerro - MS", "bezerro")).toThrow('esperado um título com "BEZERRO" e sem "PESO"');
  });

  it("an indicator with another price term than À vista is read by that term, and refused under À vista", () => {
    const algodao = serie("algodao");
    const file = planilha(linhas, "xlsx", { titulo: "Indicador do Algodão em Pluma CEPEA/ESALQ", cabecalho: ["Data", "Prazo de 8 dias R$", "Prazo de 8 dias US$"] });
    expect(lerSerieCepea(abrirPlanilha(file), algodao).dias).toHaveLength(2);
    expect(() => lerSerieCepea(abrirPlanilha(file), { ...algodao, termo: "À vista" })).toThrow('coluna "À vista R$" não encontrada');
  });

  it("the header on another row than the 4th is found by its labels, with a warning", () => {
    const r = lerSerieCepea(abrirPlanilha(planilha(linhas, "biff8", { vazias: 0 })), serie("boi_gordo"));
    expect(r.linhaCabecalho).toBe(2);
    expect(r.avisos).toEqual(["cabeçalho na linha 2 (o CEPEA o põe na linha 4); lido pelos rótulos"]);
  });
});
