/**
 * The analysts' path, read as an analyst's tool reads it: a site built from the recorded pages (one
 * praça renamed with a comma, quotes and a semicolon, the characters that quoting must carry in
 * both spellings) read through datapackage.json alone by frictionless-js (types, missing values,
 * dialect as declared), and every cast value held to the series JSON it was rendered from: every
 * column of every series' CSV, every praça of every day, every line of the long file. The Excel-BR
 * variants are read as a pt-BR spreadsheet reads them (';', decimal comma, BOM) against the same
 * JSON. The README's R one-liner is held to what R's read.csv does with the long file's columns.
 */
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { Package } from "datapackage";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../pipeline/config.ts";
import type { DataPackage } from "../../pipeline/render/datapackage.ts";
import { cleanup, editPage, replay, replayDir, tempSite, trocarUma } from "../helpers/pipeline.ts";

// a praça name that needs quoting in the canonical file (',' and '"') and in the Excel one (';')
const PRACA_CRUA = 'MS Três Lagoas, "Velha"; Sul';
const PRACA = 'Três Lagoas, "Velha"; Sul';

interface Entrada {
  data: string;
  valor: number;
  pracas?: Record<string, number>;
  [k: string]: unknown;
}
interface Serie {
  produto: string;
  unidade: string;
  moeda: string;
  fonte: string;
  praca?: string;
  historico: Entrada[];
}
interface NoIndice {
  id: string;
  path: string;
  csv: string;
  csv_excel: string;
  pracas_csv: string | null;
  uf: string | null;
  nacional: boolean;
  produto: string;
  fonte: string;
}

let paginas: string;
let site: string;
let api: string;
let pacote: DataPackage;
let indice: NoIndice[];
const docs = new Map<string, Serie>();

beforeAll(async () => {
  paginas = await replayDir();
  await editPage(paginas, "scot/boi-gordo.html", trocarUma("MS Três Lagoas", PRACA_CRUA));
  site = await tempSite();
  const r = await replay(paginas, site, "2026-09-27T18:30:00-03:00");
  expect(r.exitCode, r.log.join("\n")).toBe(0);
  api = join(site, "api", "v1");
  pacote = JSON.parse(await readFile(join(api, "datapackage.json"), "utf8")) as DataPackage;
  indice = (JSON.parse(await readFile(join(api, "index.json"), "utf8")) as { series: NoIndice[] }).series;
  for (const s of indice) docs.set(s.id, JSON.parse(await readFile(join(api, s.path), "utf8")) as Serie);
}, 180_000);

afterAll(() => cleanup(paginas, site));

/** A date cast by frictionless-js (a Date at local midnight) as the day it names. */
const dia = (d: unknown): unknown =>
  d instanceof Date ? `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}` : d;

/** What each resource of the package must read as, cell for cell, from the series JSON. */
function esperado(path: string): Array<Record<string, unknown>> {
  if (path === "historico.csv") {
    const ordem = [...indice].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return ordem.flatMap((s) => {
      const d = docs.get(s.id)!;
      return d.historico.map((e) => ({
        serie: s.id,
        produto: s.produto,
        uf: s.uf,
        nacional: s.nacional,
        praca: s.nacional ? null : (d.praca ?? null),
        fonte: s.fonte,
        unidade: d.unidade,
        moeda: d.moeda,
        data: e.data,
        valor: e.valor,
      }));
    });
  }
  const porCsv = indice.find((s) => s.csv === path);
  if (porCsv) {
    const d = docs.get(porCsv.id)!;
    const campos = pacote.resources.find((r) => r.path === path)!.schema.fields.map((f) => f.name);
    return d.historico.map((e) => Object.fromEntries(campos.map((c) => [c, c === "unidade" ? d.unidade : (e[c] ?? null)])));
  }
  const porPracas = indice.find((s) => s.pracas_csv === path);
  if (porPracas) {
    const d = docs.get(porPracas.id)!;
    return d.historico.flatMap((e) => Object.entries(e.pracas ?? {}).map(([praca, valor]) => ({ data: e.data, praca, valor, unidade: d.unidade })));
  }
  throw new Error(`${path}: recurso sem série no index.json`);
}

describe("a reader driven only by datapackage.json", () => {
  it("lists every series' CSV, and its praças CSV when it has praças, and the long file", () => {
    const caminhos = new Set(pacote.resources.map((r) => r.path));
    expect(caminhos.has("historico.csv")).toBe(true);
    for (const s of indice) {
      expect(caminhos.has(s.csv), s.csv).toBe(true);
      const temPracas = docs.get(s.id)!.historico.some((e) => e.pracas && Object.keys(e.pracas).length > 0);
      expect(s.pracas_csv !== null && caminhos.has(s.pracas_csv), `${s.id}: pracas_csv`).toBe(temPracas);
    }
    expect(pacote.resources.length).toBe(1 + indice.length + indice.filter((s) => s.pracas_csv).length);
  });

  it("gets exactly the JSON's numbers, days, units and names, every column of every resource", async () => {
    const pkg = await Package.load(join(api, "datapackage.json"), { basePath: api });
    expect(pkg.errors.map((e) => e.message)).toEqual([]);
    let celulas = 0;
    for (const r of pkg.resources) {
      const path = pacote.resources.find((x) => x.name === r.name)!.path;
      const lidas = (await r.read({ cast: true, keyed: true })) as Array<Record<string, unknown>>;
      const linhas = lidas.map((l) => Object.fromEntries(Object.entries(l).map(([k, v]) => [k, dia(v)])));
      const quer = esperado(path);
      expect(linhas.length, path).toBe(quer.length);
      // field by field, so a difference names its resource, line and column
      for (let i = 0; i < quer.length; i++) {
        for (const [k, v] of Object.entries(quer[i]!)) {
          if (!Object.is(linhas[i]![k], v)) expect.fail(`${path}, linha ${i + 2}, ${k}: lido ${JSON.stringify(linhas[i]![k])}, o JSON dá ${JSON.stringify(v)}`);
          celulas++;
        }
        expect(Object.keys(linhas[i]!).sort(), path).toEqual(Object.keys(quer[i]!).sort());
      }
    }
    expect(celulas).toBeGreaterThan(5000);
  }, 120_000);

  it("carries no column of a history entry that its CSV leaves out (pracas go to the praças file)", () => {
    for (const s of indice) {
      const campos = new Set(pacote.resources.find((r) => r.path === s.csv)!.schema.fields.map((f) => f.name));
      for (const e of docs.get(s.id)!.historico) for (const k of Object.keys(e)) if (k !== "pracas") expect(campos.has(k), `${s.csv}: coluna ${k}`).toBe(true);
    }
  });

  it("reads the renamed praça back with its comma, quotes and semicolon", async () => {
    const pkg = await Package.load(join(api, "datapackage.json"), { basePath: api });
    const r = pkg.resources.find((x) => x.name === "pracas-boi_gordo-ms")!;
    const linhas = (await r.read({ cast: true, keyed: true })) as Array<{ praca: string }>;
    expect(linhas.some((l) => l.praca === PRACA)).toBe(true);
  });
});

/** A cell as Excel in pt-BR reads a number: ',' decimal, '.' grouping (never written here). */
const numeroPtBr = (v: string): number | null => (v === "" ? null : /^-?\d{1,3}(\.\d{3})*(,\d+)?$|^-?\d+(,\d+)?$/.test(v) ? Number(v.replace(/\./g, "").replace(",", ".")) : NaN);

describe("the Excel-BR variants, read as a pt-BR spreadsheet reads them", () => {
  it("give the JSON's numbers in the numeric columns and its text, untouched, in the others", async () => {
    let celulas = 0;
    for (const r of pacote.resources) {
      if (r.path === "historico.csv") continue;
      const texto = await readFile(join(api, r.path.replace(/\.csv$/, ".excel.csv")), "utf8");
      expect(texto.startsWith("\ufeff"), r.path).toBe(true);
      expect(texto.replace(/\r\n/g, ""), r.path).not.toMatch(/[\r\n]/);
      const linhas = parse(texto, { columns: true, bom: true, delimiter: ";", record_delimiter: "\r\n" }) as Array<Record<string, string>>;
      const quer = esperado(r.path);
      expect(linhas.length, r.path).toBe(quer.length);
      for (let i = 0; i < quer.length; i++) {
        for (const f of r.schema.fields) {
          const v = linhas[i]![f.name]!;
          const q = quer[i]![f.name];
          const lido = f.type === "number" ? numeroPtBr(v) : v === "" ? null : v;
          if (!Object.is(lido, q)) expect.fail(`${r.path} (Excel), linha ${i + 2}, ${f.name}: ${JSON.stringify(v)} lido como ${JSON.stringify(lido)}, o JSON dá ${JSON.stringify(q)}`);
          celulas++;
        }
      }
    }
    expect(celulas).toBeGreaterThan(1000);
  });
});

describe("README: the R one-liner", () => {
  const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
  const secao = readme.slice(readme.indexOf("### Carregar os dados em uma linha"));
  const r = /```r\n([^\n]+)\n```/.exec(secao)?.[1] ?? "";

  it("gives the long file's boolean and date columns their class (R's read.csv reads true/false as text)", () => {
    expect(r).toContain("historico.csv");
    const classes = /colClasses = c\(([^)]*)\)/.exec(r)?.[1] ?? "";
    const dadas = new Map([...classes.matchAll(/(\w+) = "(\w+)"/g)].map((m) => [m[1]!, m[2]!]));
    const campos = pacote.resources.find((x) => x.path === "historico.csv")!.schema.fields;
    for (const f of campos) {
      if (f.type === "boolean") expect(dadas.get(f.name), `colClasses sem ${f.name} = "logical"`).toBe("logical");
      if (f.type === "date") expect(dadas.get(f.name), `colClasses sem ${f.name} = "Date"`).toBe("Date");
    }
  });
});
