/**
 * The checks of a set as a run renders it (validate/renderizados.ts, the long file's regular
 * blocks in validate/dados.ts): fast, but every day and value of every CSV, Excel-BR variant,
 * praças file and long-file block still held to the series JSON of the same set.
 */
import { describe, expect, it } from "vitest";
import type { HistoricoEntry } from "../../pipeline/domain/publicados.ts";
import { renderSerie } from "../../pipeline/render/serie.ts";
import type { RenderedFile } from "../../pipeline/render/json.ts";
import { renderSiteFiles } from "../../pipeline/site/assemble.ts";
import { serieDef, getSource } from "../../pipeline/sources/index.ts";
import { nextStatus } from "../../pipeline/run/status.ts";
import { FileValidator } from "../../pipeline/validate/ajv.ts";
import { testConfig } from "../helpers/pipeline.ts";

const NOW = new Date("2026-09-10T20:00:00-03:00");
const momento = "2026-09-10T20:00:00-03:00";

function serie(id: string, historico: HistoricoEntry[]) {
  const def = serieDef(id)!;
  const source = getSource(def.fonte);
  return renderSerie({
    def,
    source,
    historico,
    praca: def.uf ? "Dourados" : null,
    pracas: def.uf ? [{ praca: "Dourados", valor: historico[historico.length - 1]!.valor, unidade: def.unidade }] : null,
    proveniencia: { fonte: source.id, nome: source.nome, url: source.site, coletado_em: momento, via: null, via_url: null, licenca: source.termos.licenca, citacao: source.termos.citacao, termos: source.termos.texto },
    atualizado: momento,
  });
}

function conjunto(): RenderedFile[] {
  const series = new Map([
    ["boi_gordo", serie("boi_gordo", [{ data: "2026-09-08", valor: 347.6, valor_usd: 64.1 }, { data: "2026-09-09", valor: 347.7, valor_usd: 64.2 }])],
    [
      "boi_gordo/MS",
      serie("boi_gordo/MS", [
        { data: "2026-09-08", valor: 330, valor_30d: 333, pracas: { Dourados: 330, "C. Grande": 329.5, "Três Lagoas": 331 } },
        { data: "2026-09-09", valor: 331.5, valor_30d: 334, pracas: { Dourados: 331.5, "C. Grande": 330, "Três Lagoas": 332 } },
      ]),
    ],
  ]);
  const config = testConfig("/tmp/nao-usado");
  return [...renderSiteFiles(series, nextStatus(null, [], series, config, NOW, {}), config)];
}

function erros(files: RenderedFile[]): string[] {
  const v = new FileValidator();
  for (const f of files) v.add(f.path, f.text, f.doc, f);
  return v.report().erros;
}

function trocar(files: RenderedFile[], path: string, de: string | RegExp, para: string): RenderedFile[] {
  return files.map((f) => {
    if (f.path !== path) return f;
    const text = f.text.replace(de, para);
    expect(text, `${path}: a troca não mudou nada`).not.toBe(f.text);
    return { ...f, text };
  });
}

describe("a rendered set", () => {
  const files = conjunto();

  it("is valid as rendered, and its CSVs are marked as rendered beside their JSON", () => {
    expect(erros(files)).toEqual([]);
    expect(files.find((f) => f.path === "api/v1/historico/boi_gordo/MS.pracas.excel.csv")?.daSerie).toEqual({ json: "api/v1/cotacao/boi_gordo/MS.json", tabela: "pracas", excel: true });
  });

  it("refuses a CSV whose value is not the JSON's", () => {
    expect(erros(trocar(files, "api/v1/historico/boi_gordo.csv", "2026-09-09,347.7,", "2026-09-09,347.8,")).join("\n")).toMatch(/boi_gordo\.csv: linha 3: .*2026-09-09,347\.8.* não é a linha que o histórico do JSON dá/);
  });

  it("refuses an Excel-BR variant with a day missing, or without its BOM", () => {
    expect(erros(trocar(files, "api/v1/historico/boi_gordo.excel.csv", /2026-09-08;[^\r]*\r\n/, "")).join("\n")).toMatch(/boi_gordo\.excel\.csv: .*tem 1 linhas de dados, mas o histórico do JSON dá 2/);
    expect(erros(trocar(files, "api/v1/historico/boi_gordo.excel.csv", "\ufeff", "")).join("\n")).toContain("deve começar com BOM");
  });

  it("refuses any other column that is not the JSON's: US$, 30 days, in the CSV and in its Excel variant", () => {
    expect(erros(trocar(files, "api/v1/historico/boi_gordo.csv", "2026-09-09,347.7,@,64.2", "2026-09-09,347.7,@,99.9")).join("\n")).toContain("boi_gordo.csv: linha 3:");
    expect(erros(trocar(files, "api/v1/historico/boi_gordo/MS.csv", "2026-09-09,331.5,@,334", "2026-09-09,331.5,@,999")).join("\n")).toContain("MS.csv: linha 3:");
    expect(erros(trocar(files, "api/v1/historico/boi_gordo/MS.excel.csv", "2026-09-09;331,5;@;334", "2026-09-09;331,5;@;999")).join("\n")).toContain("MS.excel.csv: linha 3:");
  });

  it("refuses praças swapped between names, each showing the other's price", () => {
    const trocadas = trocar(files, "api/v1/historico/boi_gordo/MS.pracas.csv", /2026-09-09,Dourados,331\.5,@\n2026-09-09,C\. Grande,330,@/, "2026-09-09,C. Grande,331.5,@\n2026-09-09,Dourados,330,@");
    expect(erros(trocadas).join("\n")).toContain("MS.pracas.csv: linha 5:");
  });

  it("refuses a praças CSV (or its variant) with a praça's value not the JSON's", () => {
    expect(erros(trocar(files, "api/v1/historico/boi_gordo/MS.pracas.csv", "2026-09-09,Três Lagoas,332,", "2026-09-09,Três Lagoas,333,")).join("\n")).toContain("MS.pracas.csv: linha 7:");
    expect(erros(trocar(files, "api/v1/historico/boi_gordo/MS.pracas.excel.csv", "2026-09-08;C. Grande;329,5;", "2026-09-08;C. Grande;329,6;")).join("\n")).toContain("MS.pracas.excel.csv: linha 3:");
  });

  it("refuses a long file whose block says another value, or another day, than the series", () => {
    const valor = erros(trocar(files, "api/v1/historico.csv", "BRL,2026-09-09,331.5\n", "BRL,2026-09-09,331.6\n"));
    expect(valor.join("\n")).toContain("api/v1/historico.csv: boi_gordo/MS: 2 linhas que não conferem com os 2 dias");
    const dia = erros(trocar(files, "api/v1/historico.csv", "BRL,2026-09-08,347.6\n", "BRL,2026-09-07,347.6\n"));
    expect(dia.join("\n")).toContain("api/v1/historico.csv: boi_gordo: 2 linhas que não conferem");
  });
});
