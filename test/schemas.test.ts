import { readdirSync, readFileSync, statSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FAILURE_KINDS, PipelineError } from "../pipeline/domain/errors.ts";
import { loadEventos } from "../pipeline/events/model.ts";
import { loadCapturas } from "../pipeline/history/capturas.ts";
import { PRODUTOS, UNIDADES } from "../pipeline/domain/products.ts";
import { SOURCES } from "../pipeline/sources/index.ts";
import { ALL_UFS } from "../pipeline/domain/ufs.ts";
import {
  isDecimal2,
  listSchemaFiles,
  readPublished,
  SCHEMA_DIR,
  schemaFor,
  SEM_SCHEMA_PERMITIDOS,
  validateDocument,
  validateFiles,
} from "../pipeline/validate/ajv.ts";
import { checarCsvHistorico } from "../pipeline/validate/csv.ts";

const FIXTURES = new URL("./fixtures/api/", import.meta.url).pathname;

/** test/fixtures/api/v1/x.json -> "api/v1/x.json" */
function fixtureFiles(): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string) => {
    for (const f of readdirSync(dir).sort()) {
      const p = join(dir, f);
      if (statSync(p).isDirectory()) walk(p);
      else out.set(`api/${relative(FIXTURES, p)}`, readFileSync(p, "utf8"));
    }
  };
  walk(FIXTURES);
  return out;
}

type Doc = Record<string, any>;

function load(path: string): Doc {
  return JSON.parse(readFileSync(join(FIXTURES, path.replace(/^api\//, "")), "utf8")) as Doc;
}

const SERIE = "api/v1/cotacao/boi_gordo.json";
const SOJA = "api/v1/cotacao/soja.json";
const ESTADO = "api/v1/cotacao/boi_gordo/MS.json";
const AGREGADO = "api/v1/cotacao.json";
const AGREGADO_UF = "api/v1/cotacao/uf/MS.json";

/** Decimal places of the number's shortest form ("347.7" -> 1, "1e-7" -> 7, "1e+21" -> 0). */
function casasDecimais(v: number): number {
  if (!Number.isFinite(v)) return Infinity;
  const [mantissa, exp = "0"] = String(v).split("e");
  const casas = (mantissa!.split(".")[1] ?? "").length;
  return Math.max(0, casas - Number(exp));
}

/** The double `k` steps (ulps) away from `v`. */
function vizinho(v: number, k: number): number {
  const f = new Float64Array([v]);
  const i = new BigInt64Array(f.buffer);
  // for negative numbers the bit pattern grows away from zero
  i[0] = i[0]! + BigInt(v < 0 ? -k : k);
  return f[0]!;
}

function schemaJson(name: string): Doc {
  return JSON.parse(readFileSync(join(SCHEMA_DIR, name), "utf8")) as Doc;
}

describe("sample documents", () => {
  const files = fixtureFiles();

  it("covers every kind of published file", () => {
    const kinds = new Set([...files.keys()].map((p) => schemaFor(p)?.kind ?? (p.endsWith(".csv") ? "csv" : "?")));
    // "outro": datapackage.json, under its own schema
    expect([...kinds].sort()).toEqual(["cotacao", "csv", "index", "outro", "serie", "status"]);
    // every kind of CSV: a series, a state series' praças, its Excel-BR variant, the long file
    expect([...files.keys()].filter((p) => p.endsWith(".csv"))).toEqual(
      expect.arrayContaining(["api/v1/historico.csv", "api/v1/historico/boi_gordo/MS.csv", "api/v1/historico/boi_gordo/MS.pracas.csv", "api/v1/historico/boi_gordo/MS.excel.csv"]),
    );
    expect(files.size).toBeGreaterThanOrEqual(10);
  });

  for (const [path, text] of fixtureFiles()) {
    if (!path.endsWith(".json")) continue;
    it(`${path} is valid`, () => {
      expect(validateDocument(path, JSON.parse(text))).toEqual([]);
    });
  }

  it("the whole set is valid (CSV layout, CSV = JSON history, index paths exist)", () => {
    const report = validateFiles(files, { arvoreCompleta: true });
    expect(report.erros).toEqual([]);
    expect(report.arquivos.map((a) => a.path)).toEqual([...files.keys()].sort());
    expect(report.ignorados).toEqual([]);
  });
});

describe("money: at most two decimals, judged on the number as written", () => {
  it.each([347.7, 3426.02, 0.07, 12.35, 1234.56, 0.29, 1.15, 161, -4.35, 9999999.99])("%s passes", (v) => {
    expect(isDecimal2(v)).toBe(true);
  });
  it.each([347.701, 347.70000000000005, 0.1 + 0.2, 1e-7, Number.NaN, Number.POSITIVE_INFINITY])("%s fails", (v) => {
    expect(isDecimal2(v)).toBe(false);
  });

  // The contract: a number passes when its shortest decimal form (what JSON.stringify writes)
  // has at most two places. The oracle reads that form as text; the implementation must agree
  // with it on whole centavos, on their float neighbours (347.70000000000005 is one ulp above
  // 347.7), on values with a third decimal and on any double in the money range. Accepting
  // everything, a float tolerance, `% 1` or toFixed would each fail one of these.
  it("agrees with the number's shortest decimal form: centavos pass; their float neighbours and a third decimal fail", () => {
    const centavos = fc.integer({ min: -100_000_000_000, max: 100_000_000_000 });
    const exemplos = fc.oneof(
      centavos.map((c) => c / 100),
      fc.tuple(centavos, fc.integer({ min: -4, max: 4 }).filter((k) => k !== 0)).map(([c, k]) => vizinho(c / 100, k)),
      fc.tuple(centavos, fc.integer({ min: 1, max: 9 })).map(([c, d]) => (c * 10 + Math.sign(c || 1) * d) / 1000),
      fc.double({ min: -1e9, max: 1e9, noNaN: true }),
    );
    fc.assert(
      fc.property(exemplos, (v) => {
        expect(isDecimal2(v), `${v}`).toBe(casasDecimais(v) <= 2);
      }),
      { numRuns: 20_000 },
    );
    // the generators reach both answers (a property that only ever sees "true" proves nothing)
    expect([isDecimal2(347.7), isDecimal2(vizinho(347.7, 1)), isDecimal2(347.705)]).toEqual([true, false, false]);
  });

  it("a series whose value has a third decimal is rejected by the schema; the same value in centavos passes", () => {
    const base = load(SERIE);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 99_999_999 }), fc.integer({ min: 1, max: 9 }), (c, d) => {
        const ok = structuredClone(base);
        ok.historico.at(-1).valor = ok.valor = c / 100;
        ok.variacao = null;
        ok.historico = [ok.historico.at(-1)];
        expect(validateDocument(SERIE, ok)).toEqual([]);
        const ruim = structuredClone(ok);
        const v = (c * 10 + d) / 1000;
        ruim.historico[0].valor = ruim.valor = v;
        expect(validateDocument(SERIE, ruim)).toEqual([
          `${SERIE}: /valor: deve ser um número com no máximo duas casas decimais (recebido ${v})`,
          `${SERIE}: /historico/0/valor: deve ser um número com no máximo duas casas decimais (recebido ${v})`,
        ]);
      }),
      { numRuns: 300 },
    );
  });

  it("float drift in a history is reported with the value as received", () => {
    const doc = load(SERIE);
    doc.historico[5].valor = 347.70000000000005;
    doc.valor = 347.70000000000005;
    expect(validateDocument(SERIE, doc)).toEqual([
      `${SERIE}: /valor: deve ser um número com no máximo duas casas decimais (recebido 347.70000000000005)`,
      `${SERIE}: /historico/5/valor: deve ser um número com no máximo duas casas decimais (recebido 347.70000000000005)`,
    ]);
  });

  it("347.701 in a praça fails; 12.35 R$/kg passes", () => {
    const doc = load(ESTADO);
    doc.pracas[0].valor_30d = 347.701;
    expect(validateDocument(ESTADO, doc)).toEqual([
      `${ESTADO}: /pracas/0/valor_30d: deve ser um número com no máximo duas casas decimais (recebido 347.701)`,
    ]);
    expect(validateDocument("api/v1/cotacao/boi_gordo/RS.json", load("api/v1/cotacao/boi_gordo/RS.json"))).toEqual([]);
  });
});

describe("invalid documents fail with a readable pt-BR message", () => {
  it("missing field", () => {
    const doc = load(SERIE);
    delete doc.bordao;
    expect(validateDocument(SERIE, doc)).toEqual([`${SERIE}: /: falta o campo obrigatório "bordao"`]);
  });

  it("number written as a Brazilian string", () => {
    const doc = load(SOJA);
    doc.historico[3].valor = "161,00";
    expect(validateDocument(SOJA, doc)).toEqual([`${SOJA}: /historico/3/valor: deve ser número (recebido "161,00")`]);
  });

  it("extra property", () => {
    const doc = load(SERIE);
    doc.rate_limit = { diario: 100, restante: 99 };
    doc.historico[0].volume = 3;
    expect(validateDocument(SERIE, doc)).toEqual([
      `${SERIE}: /rate_limit: campo não previsto no schema`,
      `${SERIE}: /historico/0/volume: campo não previsto no schema`,
    ]);
  });

  it("aggregate with a historico", () => {
    const doc = load(AGREGADO);
    doc.historico = [{ data: "2026-09-04", valor: 347.7 }];
    expect(validateDocument(AGREGADO, doc)).toEqual([`${AGREGADO}: /historico: campo não previsto no schema`]);
  });

  it("wrong UF in a state file, in the aggregate and in the path", () => {
    const doc = load(ESTADO);
    doc.uf = "XX";
    const errs = validateDocument(ESTADO, doc);
    expect(errs[0]).toMatch(/^api\/v1\/cotacao\/boi_gordo\/MS\.json: \/uf: deve ser um destes valores: "AC", "AL", .*"TO" \(recebido "XX"\)$/);
    expect(errs).toContain(`${ESTADO}: /uf: não corresponde ao caminho do arquivo: deve ser "MS" (recebido "XX")`);

    const ms = load(ESTADO);
    ms.uf = "MT";
    expect(validateDocument(ESTADO, ms)).toEqual([`${ESTADO}: /uf: não corresponde ao caminho do arquivo: deve ser "MS" (recebido "MT")`]);

    const agg = load(AGREGADO_UF);
    agg.boi_gordo_uf.uf = "Mato Grosso do Sul";
    expect(validateDocument(AGREGADO_UF, agg)[0]).toMatch(/\/boi_gordo_uf\/uf: deve ser um destes valores: .* \(recebido "Mato Grosso do Sul"\)$/);

    expect(validateDocument("api/v1/cotacao/boi_gordo/XX.json", load(ESTADO))[0]).toMatch(/^api\/v1\/cotacao\/boi_gordo\/XX\.json: sem schema/);
  });

  it("unsorted historico", () => {
    const doc = load(SERIE);
    const h = doc.historico;
    [h[1], h[2]] = [h[2], h[1]];
    expect(validateDocument(SERIE, doc)).toEqual([
      `${SERIE}: /historico/2/data: fora de ordem: "2026-08-31" vem depois de "2026-09-01" (/historico/1); o histórico vai do mais antigo ao mais recente`,
    ]);
  });

  it("duplicate day in historico", () => {
    const doc = load(SOJA);
    doc.historico.splice(2, 0, { ...doc.historico[1] });
    expect(validateDocument(SOJA, doc)).toEqual([
      `${SOJA}: /historico/2/data: data repetida: "2026-09-23" já aparece em /historico/1 (um dia por entrada)`,
    ]);
  });

  it("headline that is not the last day of the history", () => {
    const doc = load(SERIE);
    doc.historico.pop();
    expect(validateDocument(SERIE, doc)).toEqual([
      `${SERIE}: /data_cotacao: deve ser igual à data da última entrada do histórico, "2026-09-03" (recebido "2026-09-04")`,
      `${SERIE}: /valor: deve ser igual ao valor da última entrada do histórico, 347.6 (recebido 347.7)`,
      `${SERIE}: /variacao/data_anterior: deve ser a data da penúltima entrada do histórico, "2026-09-02" (recebido "2026-09-03")`,
      `${SERIE}: /variacao/anterior: deve ser o valor da penúltima entrada do histórico, 347.4 (recebido 347.6)`,
      `${SERIE}: /variacao/absoluta: deve ser 0.2 (último menos anterior) (recebido 0.1)`,
      `${SERIE}: /variacao/percentual: deve ser 0.06 (recebido 0.03)`,
    ]);
  });

  it("empty historico", () => {
    const doc = load(SERIE);
    doc.historico = [];
    expect(validateDocument(SERIE, doc)).toEqual([`${SERIE}: /historico: não pode ser uma lista vazia`]);
  });

  it("state file without pracas, with empty pracas, with a reference praça not in pracas", () => {
    const semPracas = load(ESTADO);
    delete semPracas.pracas;
    expect(validateDocument(ESTADO, semPracas)).toEqual([
      `${ESTADO}: /: falta o campo obrigatório "pracas" [Série de UF (api/v1/cotacao/{produto}/{UF}.json): praca (praça de referência) e pracas (não vazia), e uf não nula.]`,
    ]);
    const semAmbas = load(ESTADO);
    delete semAmbas.praca;
    delete semAmbas.pracas;
    expect(validateDocument(ESTADO, semAmbas)).toEqual([`${ESTADO}: /: faltam praca e pracas, obrigatórios nos arquivos de UF`]);

    const vazia = load(ESTADO);
    vazia.pracas = [];
    expect(validateDocument(ESTADO, vazia)).toEqual([`${ESTADO}: /pracas: não pode ser uma lista vazia`]);

    const semRef = load(ESTADO);
    semRef.praca = "Campo Grande";
    expect(validateDocument(ESTADO, semRef)).toEqual([
      `${ESTADO}: /praca: a praça de referência "Campo Grande" não está em pracas ("Dourados", "C. Grande", "Três Lagoas")`,
    ]);

    const semPraca = load(ESTADO);
    semPraca.praca = "";
    expect(validateDocument(ESTADO, semPraca)).toEqual([`${ESTADO}: /praca: não pode ser vazio (recebido "")`]);
  });

  it("national file with praças", () => {
    const doc = load(SERIE);
    doc.praca = "Barretos";
    doc.pracas = load(ESTADO).pracas;
    expect(validateDocument(SERIE, doc)).toEqual([
      `${SERIE}: /praca: só existe nos arquivos de UF (api/v1/cotacao/{produto}/{UF}.json)`,
      `${SERIE}: /pracas: só existe nos arquivos de UF (api/v1/cotacao/{produto}/{UF}.json)`,
    ]);
  });

  it("series file whose produto or uf does not match its path", () => {
    const doc = load(SOJA);
    expect(validateDocument("api/v1/cotacao/milho.json", doc)).toEqual([
      `api/v1/cotacao/milho.json: /produto: não corresponde ao caminho do arquivo: deve ser "milho" (recebido "soja")`,
      `api/v1/cotacao/milho.json: /uf: não corresponde ao caminho do arquivo: deve ser "SP" (o lugar da referência nacional) (recebido "PR")`,
    ]);
    // the national soja says PR, like soja/PR: without praças the path check is what catches it
    expect(validateDocument("api/v1/cotacao/soja/PR.json", doc)).toEqual([
      `api/v1/cotacao/soja/PR.json: /: faltam praca e pracas, obrigatórios nos arquivos de UF`,
    ]);
    // a national file that says null where its indicator has one place
    expect(validateDocument(SOJA, { ...doc, uf: null })).toEqual([
      `${SOJA}: /uf: não corresponde ao caminho do arquivo: deve ser "PR" (o lugar da referência nacional) (recebido null)`,
    ]);
  });

  it("nullable fields: null passes, a wrong type says both", () => {
    const doc = load(AGREGADO);
    doc.soja = null;
    doc.datas.soja = null;
    expect(validateDocument(AGREGADO, doc)).toEqual([]);
    doc.milho = "70,93";
    expect(validateDocument(AGREGADO, doc)).toEqual([`${AGREGADO}: /milho: deve ser número ou null (recebido "70,93")`]);
  });

  it("aggregate: value without its day, UF quote outside the UF files", () => {
    const doc = load(AGREGADO);
    doc.datas.milho = null;
    doc.boi_gordo_uf = load(AGREGADO_UF).boi_gordo_uf;
    expect(validateDocument(AGREGADO, doc)).toEqual([
      `${AGREGADO}: /boi_gordo_uf: só existe nos arquivos api/v1/cotacao/uf/{UF}.json`,
      `${AGREGADO}: /datas/milho: não pode ser null: milho tem valor e precisa dizer de que dia é`,
    ]);
    const uf = load(AGREGADO_UF);
    delete uf.boi_gordo_uf.praca;
    expect(validateDocument(AGREGADO_UF, uf)).toEqual([`${AGREGADO_UF}: /boi_gordo_uf: falta o campo obrigatório "praca"`]);
  });

  it("dates and times", () => {
    const doc = load(SERIE);
    doc.atualizado = "2026-09-05T22:39:05";
    doc.proveniencia.coletado_em = "2026-09-06T01:39:05Z";
    doc.historico[0].data = "2026-02-30";
    expect(validateDocument(SERIE, doc)).toEqual([
      `${SERIE}: /atualizado: deve ser data e hora ao segundo com o deslocamento de fuso explícito (ex.: 2026-09-06T22:39:05-03:00) (recebido "2026-09-05T22:39:05")`,
      `${SERIE}: /atualizado: deve ser data e hora ISO 8601 válida com fuso (ex.: 2026-09-06T22:39:05-03:00) (recebido "2026-09-05T22:39:05")`,
      `${SERIE}: /proveniencia/coletado_em: deve ser data e hora ao segundo com o deslocamento de fuso explícito (ex.: 2026-09-06T22:39:05-03:00) (recebido "2026-09-06T01:39:05Z")`,
      `${SERIE}: /historico/0/data: deve ser uma data válida no formato AAAA-MM-DD (recebido "2026-02-30")`,
    ]);
  });

  it("enums and constants", () => {
    const doc = load(SERIE);
    doc.moeda = "USD";
    doc.api_version = "v2";
    doc.unidade = "arroba";
    expect(validateDocument(SERIE, doc)).toEqual([
      `${SERIE}: /moeda: deve ser "BRL" (recebido "USD")`,
      `${SERIE}: /unidade: deve ser um destes valores: ${UNIDADES.map((u) => `"${u}"`).join(", ")} (recebido "arroba")`,
      `${SERIE}: /api_version: deve ser "v1" (recebido "v2")`,
    ]);
  });

  it("status: unknown states, negative counters", () => {
    const doc = load("api/v1/status.json");
    doc.fontes[0].estado = "down";
    doc.fontes[1].paginas[0].estado = "captcha";
    doc.fontes[1].falhas_consecutivas = -1;
    expect(validateDocument("api/v1/status.json", doc)).toEqual([
      `api/v1/status.json: /fontes/0/estado: deve ser um destes valores: "ok", "stale", "blocked", "failed", "disabled" (recebido "down")`,
      `api/v1/status.json: /fontes/1/falhas_consecutivas: deve ser maior ou igual a 0 (recebido -1)`,
      `api/v1/status.json: /fontes/1/paginas/0/estado: deve ser um destes valores: "ok", "blocked", "soft_block", "timeout", "http_error", "network_error", "parse_error", "rejected", "revisao_suspeita", "missing" (recebido "captcha")`,
    ]);
  });

  it("index: non-integer count, unknown source", () => {
    const doc = load("api/v1/index.json");
    doc.series[0].pontos = 6.5;
    doc.fontes[1].id = "noticias-agricolas";
    expect(validateDocument("api/v1/index.json", doc)).toEqual([
      // the catalogue's sources, in its order (a new source is one line in SOURCES, not here too)
      `api/v1/index.json: /fontes/1/id: deve ser um destes valores: ${SOURCES.map((f) => `"${f.id}"`).join(", ")} (recebido "noticias-agricolas")`,
      `api/v1/index.json: /series/0/pontos: deve ser número inteiro (recebido 6.5)`,
    ]);
  });

  it("a document that is not an object at all", () => {
    expect(validateDocument(SERIE, [])).toEqual([`${SERIE}: /: deve ser objeto (recebido [])`]);
  });
});

describe("schemaFor", () => {
  it.each([
    ["api/v1/cotacao.json", "cotacao"],
    ["api/v1/cotacao/uf/MT.json", "cotacao"],
    ["api/v1/cotacao/boi_gordo.json", "serie"],
    ["api/v1/cotacao/vaca_gorda/RS.json", "serie"],
    ["public/api/v1/cotacao/soja/PR.json", "serie"],
    ["/api/v1/index.json", "index"],
    ["api/v1/status.json", "status"],
  ])("%s -> %s", (path, kind) => {
    expect(schemaFor(path)?.kind).toBe(kind);
  });

  it.each(["api/v1/cotacao/uf/XX.json", "api/v1/cotacao/frango.json", "api/v1/cotacao/boi_gordo/mt.json", "api/v1/precos.json", "api/v1/common.json", "api/v2/cotacao.json"])(
    "%s has no schema",
    (path) => {
      expect(schemaFor(path)).toBeNull();
    },
  );

  it("unknown JSON under api/v1 is an error unless allow-listed", () => {
    expect(validateDocument("api/v1/precos.json", {})).toEqual([
      expect.stringMatching(/^api\/v1\/precos\.json: sem schema: nenhum schema em schemas\/ cobre este caminho/),
    ]);
    expect(SEM_SCHEMA_PERMITIDOS).toEqual(["api/v1/openapi.json"]);
    for (const p of SEM_SCHEMA_PERMITIDOS) {
      if (schemaFor(p) === null) expect(validateDocument(p, { qualquer: "coisa" })).toEqual([]);
    }
  });

  it("a later top-level file is validated by its schema once schemas/ has it", () => {
    expect(schemaFor("api/v1/eventos.json")).toEqual({ kind: "outro", schema: "eventos.schema.json" });
    expect(validateDocument("api/v1/eventos.json", { qualquer: "coisa" })).toContain("api/v1/eventos.json: /qualquer: campo não previsto no schema");
  });
});

describe("validateFiles", () => {
  it("reports unparsable JSON, bad CSV, CSV that disagrees with its JSON, stale schema copies", () => {
    const files = fixtureFiles();
    files.set("api/v1/cotacao/milho.json", '{"produto": "milho",');
    files.set("api/v1/historico/soja.csv", files.get("api/v1/historico/soja.csv")!.replace("2026-09-25,161,", "2026-09-25,161.01,"));
    files.set("schemas/serie.schema.json", "{}");
    files.set("schemas/common.schema.json", readFileSync(join(SCHEMA_DIR, "common.schema.json")).toString());
    files.set("index.html", "<!doctype html>");
    const report = validateFiles(new Map([...files].map(([k, v]) => [k, Buffer.from(v)])));
    const byPath = Object.fromEntries(report.arquivos.map((a) => [a.path, a.erros]));
    expect(byPath["api/v1/cotacao/milho.json"]).toEqual([expect.stringMatching(/^api\/v1\/cotacao\/milho\.json: JSON inválido: /)]);
    expect(byPath["api/v1/historico/soja.csv"]).toEqual([
      "api/v1/historico/soja.csv: linha 5: 2026-09-25,161.01 difere de api/v1/cotacao/soja.json /historico/3 (\"2026-09-25\", 161)",
    ]);
    expect(byPath["schemas/serie.schema.json"]).toEqual([
      "schemas/serie.schema.json: difere de schemas/serie.schema.json do repositório (cópia desatualizada: rode npm run build)",
    ]);
    // the Excel-BR variant beside it is still the old CSV respelled
    expect(byPath["api/v1/historico/soja.excel.csv"]).toEqual([expect.stringMatching(/^api\/v1\/historico\/soja\.excel\.csv: não é api\/v1\/historico\/soja\.csv com ';'/)]);
    expect(byPath["schemas/common.schema.json"]).toEqual([]);
    expect(report.ignorados).toEqual(["index.html"]);
    expect(report.erros).toHaveLength(4);
  });

  it("with the whole tree, index.json paths must exist", () => {
    const files = fixtureFiles();
    files.delete("api/v1/historico/boi_gordo/RS.csv");
    // index.json's paths are relative to its own directory; the descriptor and the Excel
    // variant left beside the missing CSV say so too
    expect(validateFiles(files, { arvoreCompleta: true }).erros).toEqual([
      'api/v1/datapackage.json: /resources/5/path: "historico/boi_gordo/RS.csv" não existe (o recurso deve ser um CSV publicado)',
      "api/v1/historico/boi_gordo/RS.excel.csv: variante para o Excel sem o CSV api/v1/historico/boi_gordo/RS.csv ao lado (arquivo órfão)",
      'api/v1/index.json: /series/3/csv: aponta para um arquivo que não existe ("historico/boi_gordo/RS.csv")',
    ]);
    expect(validateFiles(files).erros).toEqual([]);
  });
});

describe("CSV histories", () => {
  const ok = "data,valor,valor_usd\n2026-09-03,347.6,68.1\n2026-09-04,347.7,67.78\n";

  it("accepts the renderer's layout, with quoted praça headers", () => {
    expect(checarCsvHistorico(ok).problemas).toEqual([]);
    expect(checarCsvHistorico('data,valor,"praca:Oeste, RS"\n2026-08-05,12.35,12.35\n').problemas).toEqual([]);
  });

  it.each([
    ["valor,data\n347.7,2026-09-04\n", 'linha 1: cabeçalho deve começar com "data,valor" (recebido "valor,data")'],
    ["data,valor\n2026-09-04,\"347,70\"\n", 'linha 2: valor deve ser número positivo com ponto decimal e até duas casas (recebido "347,70")'],
    ["data,valor\n04/09/2026,347.7\n", 'linha 2: data deve ser AAAA-MM-DD válida (recebido "04/09/2026")'],
    ["data,valor\n2026-09-04,347.7\n2026-09-03,347.6\n", 'linha 3: fora de ordem: "2026-09-03" vem depois de "2026-09-04" (do mais antigo ao mais recente)'],
    ["data,valor\n2026-09-04,347.7\n2026-09-04,347.7\n", 'linha 3: data repetida "2026-09-04" (um dia por linha)'],
    ["data,valor\n2026-09-04,347.701\n", 'linha 2: valor deve ser número positivo com ponto decimal e até duas casas (recebido "347.701")'],
    ["data,valor,valor_usd\n2026-09-04,347.7\n", 'linha 2: deve ter 3 campos como o cabeçalho (recebido 2: "2026-09-04,347.7")'],
    ["data,valor\r\n2026-09-04,347.7\r\n", "quebras de linha CRLF/CR: use apenas LF (\\n)"],
    ["data,valor\n2026-09-04,347.7", "a última linha deve terminar com \\n"],
    ["data,valor\n\n2026-09-04,347.7\n", "linha 2: linha em branco"],
    ["data,valor\n", "sem nenhuma linha de dados"],
    ["data,valor,valor_30d\n2026-09-04,347.7,abc\n", 'linha 2: coluna "valor_30d" deve ser número com ponto decimal e até duas casas, ou vazia (recebido "abc")'],
  ])("%j -> %s", (csv, msg) => {
    const lines = checarCsvHistorico(csv).problemas.map((p) => (p.ponteiro ? `${p.ponteiro}: ${p.mensagem}` : p.mensagem));
    expect(lines).toEqual([msg]);
  });
});

describe("the schemas themselves", () => {
  const MINE = ["common.schema.json", "cotacao.schema.json", "index.schema.json", "serie.schema.json", "status.schema.json"];
  const names = listSchemaFiles();

  it("include the five of the core files", () => {
    expect(names).toEqual(expect.arrayContaining(MINE));
  });

  it("are 2020-12 with an $id equal to the file name (relative: resolves wherever they are served)", () => {
    for (const n of names) {
      const s = schemaJson(n);
      expect(s.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
      expect(s.$id).toBe(n);
      expect(typeof s.title).toBe("string");
      expect(typeof s.description).toBe("string");
    }
  });

  it("describe every property and every $def in Portuguese", () => {
    const missing: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${at}/${i}`));
      if (typeof node !== "object" || node === null) return;
      const o = node as Doc;
      for (const key of ["properties", "$defs"]) {
        if (!o[key]) continue;
        for (const [name, sub] of Object.entries(o[key] as Doc)) {
          // `false` forbids a property (if/then branches), it needs no description
          if (sub !== false && !(typeof sub.description === "string" && sub.description.length > 5)) missing.push(`${at}/${key}/${name}`);
        }
      }
      // an `if` condition describes no field of the document
      for (const [k, v] of Object.entries(o)) if (k !== "if") walk(v, `${at}/${k}`);
    };
    for (const n of MINE) walk(schemaJson(n), n);
    expect(missing).toEqual([]);
  });

  it("close every object shape", () => {
    const open: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (typeof node !== "object" || node === null) return;
      const o = node as Doc;
      if (o.type === "object" && o.properties && o.additionalProperties !== false) open.push(at);
      for (const [k, v] of Object.entries(o)) walk(v, `${at}/${k}`);
    };
    for (const n of MINE) walk(schemaJson(n), n);
    expect(open).toEqual([]);
  });

  it("hold one truth per shape: the others only $ref common.schema.json for shared types", () => {
    const common = schemaJson("common.schema.json");
    for (const n of MINE.filter((x) => x !== "common.schema.json")) {
      const text = readFileSync(join(SCHEMA_DIR, n), "utf8");
      expect(text).not.toContain('"boi_gordo", "vaca_gorda"');
      expect(text).not.toContain('"AC", "AL"');
      expect(text).not.toContain('"decimal2"');
    }
    expect(Object.keys(common.$defs)).toEqual(expect.arrayContaining(["dinheiro", "data", "dataHora", "produto", "unidade", "uf", "fonte", "proveniencia", "variacao", "historicoEntrada", "cotacaoPraca"]));
  });

  it("enums match the pipeline's constants", () => {
    const defs = schemaJson("common.schema.json").$defs;
    expect(defs.produto.enum).toEqual([...PRODUTOS]);
    expect(defs.unidade.enum).toEqual([...UNIDADES]);
    expect(defs.uf.enum).toEqual([...ALL_UFS]);
    expect(defs.uf.enum).toHaveLength(27);
    expect(defs.fonte.enum).toEqual(SOURCES.map((s) => s.id));
    expect(schemaJson("status.schema.json").$defs.estadoPagina.enum).toEqual(["ok", ...FAILURE_KINDS]);
  });
});

describe("readPublished: what the pipeline reads back is validated against its schema", () => {
  async function site(files: Record<string, string>): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), "cotacao-ler-"));
    for (const [rel, text] of Object.entries(files)) {
      await mkdir(join(dir, rel, ".."), { recursive: true });
      await writeFile(join(dir, rel), text);
    }
    return dir;
  }

  it("returns the document when valid, null when the file does not exist", async () => {
    const dir = await site({ [SOJA]: JSON.stringify(load(SOJA)) });
    try {
      expect(await readPublished(dir, SOJA, "serie.schema.json")).toEqual(load(SOJA));
      expect(await readPublished(dir, "api/v1/cotacao/milho.json", "serie.schema.json")).toBeNull();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("names the file and each schema problem in Portuguese, and says nothing was written", async () => {
    const doc = load(SOJA);
    doc.historico[0].valor = "161,00";
    delete doc.bordao;
    const dir = await site({ [SOJA]: JSON.stringify(doc), "api/v1/cotacao/milho.json": JSON.stringify(load(SOJA)), "api/v1/status.json": "{ quebrado" });
    try {
      const erro = await readPublished(dir, SOJA, "serie.schema.json").catch((e: unknown) => e);
      expect(erro).toBeInstanceOf(PipelineError);
      expect((erro as Error).message).toMatch(/^\[merge\] api\/v1\/cotacao\/soja\.json não segue schemas\/serie\.schema\.json: /);
      expect((erro as Error).message).toContain('/: falta o campo obrigatório "bordao"');
      expect((erro as Error).message).toContain('/historico/0/valor: deve ser número (recebido "161,00")');
      expect((erro as Error).message).toContain("nada foi escrito");
      // schema-valid, but the soja series is not the milho file
      await expect(readPublished(dir, "api/v1/cotacao/milho.json", "serie.schema.json")).rejects.toThrow(/milho\.json não segue .*\/produto: não corresponde ao caminho do arquivo: deve ser "milho"/);
      await expect(readPublished(dir, "api/v1/status.json", "status.schema.json")).rejects.toThrow(/^\[merge\] api\/v1\/status\.json não é JSON válido/);
      await expect(readPublished(dir, SOJA, "status.schema.json")).rejects.toThrow(/soja\.json não é validado por schemas\/status\.schema\.json \(o caminho pede schemas\/serie\.schema\.json\)/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("the loaders of events and of the capture log refuse a file that breaks its schema", async () => {
    const eventos = {
      api_version: "v1",
      atualizado: "2026-09-25T18:00:00-03:00",
      limite: 200,
      feed: "api/v1/feed.xml",
      // dados of a price_changed without its series: the old hand-written guard let it through
      eventos: [{ id: "evt_0123456789abcdef0123", tipo: "price_changed", criado_em: "2026-09-25T18:00:00-03:00", dados: { anterior: { data: "2026-09-24", valor: 1 } } }],
    };
    const capturas = { api_version: "v1", ano: 2025, capturas: [] };
    const dir = await site({ "api/v1/eventos.json": JSON.stringify(eventos), "api/v1/capturas/2026.json": JSON.stringify(capturas), "api/v1/capturas/2024.json": '{"api_version":"v1","ano":2024}' });
    try {
      await expect(loadEventos(dir)).rejects.toThrow(
        /^\[merge\] api\/v1\/eventos\.json não segue schemas\/eventos\.schema\.json: \/eventos\/0\/dados: falta o campo obrigatório "serie";.*; e mais 6\. /,
      );
      await expect(loadCapturas(dir, 2026)).rejects.toThrow("api/v1/capturas/2026.json tem as capturas de 2025, não de 2026");
      await expect(loadCapturas(dir, 2024)).rejects.toThrow(/capturas\/2024\.json não segue schemas\/capturas\.schema\.json: \/: falta o campo obrigatório "capturas"/);
      expect(await loadCapturas(dir, 2023)).toEqual({ api_version: "v1", ano: 2023, capturas: [] });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
