/**
 * The CSV renderers on small histories: the unit on every row, stable columns, the praças in
 * their own long file, the Excel-BR spelling, the long file's order. Real parsers (csv-parse)
 * read what they write.
 */
import { parse } from "csv-parse/sync";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { HistoricoEntry, SerieFile } from "../../pipeline/domain/publicados.ts";
import { csvTexto, excelPath, excelTexto, historicoCsv, historicoCsvs, historicoTabela, pracasCsv, pracasCsvPath, pracasCsvs } from "../../pipeline/render/csv.ts";
import { COLUNAS_LONGO, historicoLongoCsv } from "../../pipeline/render/longo.ts";
import { excelDoCsv } from "../../pipeline/validate/dados.ts";
import { confereCsvs } from "../helpers/csv.ts";

const RS: HistoricoEntry[] = [
  { data: "2026-08-05", valor: 12.35, valor_30d: 12.5, base_sp: 7.11, tendencia: "estavel", pracas: { Oeste: 12.35, Pelotas: 12.5 } },
  { data: "2026-08-06", valor: 12.4, valor_30d: 12.55, base_sp: 7.2, tendencia: "alta", pracas: { Oeste: 12.4, "Fronteira; Sul": 12.1 } },
];
const CEPEA: HistoricoEntry[] = [
  { data: "2026-09-03", valor: 347.6, valor_usd: 68.1 },
  { data: "2026-09-04", valor: 347.7, valor_usd: 67.78 },
];

describe("series CSV", () => {
  it("starts with data,valor,unidade and carries the unit on every row; no praça columns", () => {
    const csv = historicoCsv(RS, "kg");
    expect(csv).toBe("data,valor,unidade,valor_30d,base_sp,tendencia\n2026-08-05,12.35,kg,12.5,7.11,estavel\n2026-08-06,12.4,kg,12.55,7.2,alta\n");
    const rows = parse(csv, { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((r) => r.unidade)).toEqual(["kg", "kg"]);
    expect(Object.keys(rows[0]!).some((k) => k.startsWith("praca"))).toBe(false);
  });

  it("a new day is one added line", () => {
    const antes = historicoCsv(CEPEA.slice(0, 1), "@").split("\n");
    const depois = historicoCsv(CEPEA, "@").split("\n");
    expect(depois.filter((l) => !antes.includes(l))).toEqual(["2026-09-04,347.7,@,67.78"]);
  });
});

describe("praças CSV", () => {
  it("one line per praça per day, in the source's order, with the unit", () => {
    const csv = pracasCsv(RS, "kg")!;
    expect(csv).toBe("data,praca,valor,unidade\n2026-08-05,Oeste,12.35,kg\n2026-08-05,Pelotas,12.5,kg\n2026-08-06,Oeste,12.4,kg\n2026-08-06,Fronteira; Sul,12.1,kg\n");
    expect(parse(csv, { columns: true })).toHaveLength(4);
  });

  it("a national series has no praças file", () => {
    expect(pracasCsv(CEPEA, "@")).toBeNull();
  });

  it("names files predictably", () => {
    expect(pracasCsvPath({ produto: "boi_gordo", uf: "RS" })).toBe("api/v1/historico/boi_gordo/RS.pracas.csv");
    expect(excelPath("api/v1/historico/boi_gordo/RS.pracas.csv")).toBe("api/v1/historico/boi_gordo/RS.pracas.excel.csv");
    expect(excelPath("api/v1/historico.csv")).toBe("api/v1/historico.excel.csv");
  });
});

describe("Excel-BR variant", () => {
  const t = historicoTabela(RS, "kg");
  const excel = excelTexto(t);

  it("BOM, ';', decimal comma in number columns only, CRLF", () => {
    expect(excel.startsWith("\ufeffdata;valor;unidade;")).toBe(true);
    expect(excel).toContain("\r\n2026-08-05;12,35;kg;12,5;7,11;estavel\r\n");
    expect(excel.endsWith("\r\n")).toBe(true);
    expect(excel.replace(/\r\n/g, "")).not.toContain("\n");
  });

  it("quotes a field holding ';' and reads back with csv-parse as the same table", () => {
    const pr = excelTexto({ colunas: ["data", "praca", "valor", "unidade"], linhas: [["2026-08-06", "Fronteira; Sul", "12.1", "kg"]] });
    expect(pr).toContain('"Fronteira; Sul"');
    const rows = parse(pr, { bom: true, delimiter: ";", columns: true }) as Array<Record<string, string>>;
    expect(rows).toEqual([{ data: "2026-08-06", praca: "Fronteira; Sul", valor: "12,1", unidade: "kg" }]);
  });

  it("is what the validator derives from the canonical CSV", () => {
    expect(excelDoCsv(csvTexto(t))).toBe(excel);
  });
});

describe("long file", () => {
  const serie = (over: Partial<SerieFile>): SerieFile => ({ moeda: "BRL", unidade: "@", historico: CEPEA, ...over }) as SerieFile;

  it("one row per series per day, sorted by serie and data, with uf from the catalogue", () => {
    const series = new Map<string, SerieFile>([
      ["boi_gordo/RS", serie({ unidade: "kg", praca: "Oeste", historico: RS })],
      ["boi_gordo", serie({})],
    ]);
    const csv = historicoLongoCsv(series);
    expect(csv.split("\n")[0]).toBe(COLUNAS_LONGO.join(","));
    expect(csv.split("\n").slice(1, 5)).toEqual([
      "boi_gordo,boi_gordo,SP,true,,cepea,@,BRL,2026-09-03,347.6",
      "boi_gordo,boi_gordo,SP,true,,cepea,@,BRL,2026-09-04,347.7",
      "boi_gordo/RS,boi_gordo,RS,false,Oeste,scot,kg,BRL,2026-08-05,12.35",
      "boi_gordo/RS,boi_gordo,RS,false,Oeste,scot,kg,BRL,2026-08-06,12.4",
    ]);
  });

  it("tells a national series from the state series of its own UF (nacional), and the validator refuses a row that says otherwise", async () => {
    const { lerCsvLongo } = await import("../../pipeline/validate/dados.ts");
    const series = new Map<string, SerieFile>([
      ["boi_gordo/RS", serie({ unidade: "kg", praca: "Oeste", historico: RS })],
      ["boi_gordo", serie({})],
    ]);
    const csv = historicoLongoCsv(series);
    expect(lerCsvLongo(csv).problemas).toEqual([]);
    const trocado = csv.replace("boi_gordo,boi_gordo,SP,true,", "boi_gordo,boi_gordo,SP,false,");
    expect(lerCsvLongo(trocado).problemas.map((p) => p.mensagem).join(" ")).toContain('nacional deve ser true na série "boi_gordo"');
  });
});

describe("the one-pass renderers (historicoCsvs, pracasCsvs)", () => {
  const texto = fc.string({ unit: "grapheme", maxLength: 6 }).map((s) => s.replace(/[\r\n]/g, ""));
  const preco = fc.integer({ min: -99999, max: 9999999 }).map((c) => c / 100);
  const dia = fc.integer({ min: 0, max: 20000 }).map((n) => new Date(Date.UTC(1990, 0, 1) + n * 86400000).toISOString().slice(0, 10));
  const entrada = fc.record(
    {
      data: dia,
      valor: preco,
      valor_usd: preco,
      valor_30d: preco,
      base_sp: preco,
      funrural_avista: preco,
      tendencia: fc.oneof(texto, fc.constantFrom("alta", "baixa", "estavel", 'a;b,"c"')),
      pracas: fc.dictionary(fc.oneof(texto, fc.constantFrom("Três Lagoas", "C. Grande; Sul", 'Norte, "x"')), preco, { maxKeys: 4 }),
    },
    { requiredKeys: ["data", "valor"] },
  ) as fc.Arbitrary<HistoricoEntry>;

  it("write byte for byte what csvTexto and excelTexto write of the same tables", () => {
    fc.assert(
      fc.property(fc.array(entrada, { maxLength: 12 }), fc.constantFrom("@", "sc60kg", "kg", 'u;"x",'), (historico, unidade) => confereCsvs(historico, unidade)),
      { numRuns: 300 },
    );
  });
});
