/**
 * The files for data people in a site built from the recorded pages (a temp dir): the
 * Frictionless descriptor through the reference JavaScript implementation (datapackage, offline),
 * every CSV through csv-parse against its Table Schema, the Excel-BR variants, index.json's
 * relative paths, the README's one-liners, and the validator refusing each kind of drift.
 */
import { readFileSync } from "node:fs";
import { cp, readFile, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { parse } from "csv-parse/sync";
// frictionless-js: the Data Package reference implementation for JavaScript (types: ./datapackage.d.ts)
import { Package } from "datapackage";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { REPO_ROOT } from "../../pipeline/config.ts";
import { ufPublicada } from "../../pipeline/domain/series.ts";
import { SITE_URL } from "../../pipeline/domain/site.ts";
import type { DataPackage, RecursoTabular } from "../../pipeline/render/datapackage.ts";
import { SOURCES, serieDef } from "../../pipeline/sources/index.ts";
import { runValidate } from "../../pipeline/cli/validate.ts";
import { validateFiles } from "../../pipeline/validate/ajv.ts";
import { FIXTURES, cleanup, listFiles, replay, tempSite } from "../helpers/pipeline.ts";

let site: string;
let api: string;
let files: Map<string, string>;
let pacote: DataPackage;

beforeAll(async () => {
  site = await tempSite();
  await replay(FIXTURES, site, "2026-09-27T18:30:00-03:00");
  api = join(site, "api", "v1");
  files = new Map();
  for (const f of await listFiles(site)) files.set(relative(site, f).split("\\").join("/"), await readFile(f, "utf8"));
  pacote = JSON.parse(files.get("api/v1/datapackage.json")!) as DataPackage;
}, 180_000);

afterAll(() => cleanup(site));

const csvsCanonicos = () => [...files.keys()].filter((p) => /^api\/v1\/historico(\.csv$|\/.*\.csv$)/.test(p) && !p.endsWith(".excel.csv")).sort();

describe("datapackage.json", () => {
  it("is a valid Tabular Data Package for frictionless-js (its own profiles, offline)", async () => {
    const pkg = await Package.load(join(api, "datapackage.json"), { basePath: api });
    expect(pkg.errors.map((e) => e.message)).toEqual([]);
    expect(pkg.valid).toBe(true);
    expect(pkg.descriptor.profile).toBe("tabular-data-package");
    expect(pkg.resources.length).toBe(csvsCanonicos().length);
  });

  it("every resource reads and casts through frictionless-js (types, required, enum)", async () => {
    const pkg = await Package.load(join(api, "datapackage.json"), { basePath: api });
    for (const r of pkg.resources) {
      expect(r.tabular, r.name).toBe(true);
      const rows = await r.read({ cast: true, keyed: true });
      expect(rows.length, r.name).toBeGreaterThan(0);
    }
  }, 120_000);

  it("lists exactly the canonical CSVs on disk, each with its header as fields", () => {
    const listed = pacote.resources.map((r) => `api/v1/${r.path}`).sort();
    expect(listed).toEqual(csvsCanonicos());
    expect(listed).toContain("api/v1/historico.csv");
    expect(listed).toContain("api/v1/historico/boi_gordo/RS.pracas.csv");
    for (const r of pacote.resources) {
      const header = files.get(`api/v1/${r.path}`)!.split("\n")[0];
      expect(r.schema.fields.map((f) => f.name).join(","), r.path).toBe(header);
      for (const k of r.schema.primaryKey) expect(r.schema.fields.map((f) => f.name)).toContain(k);
    }
  });

  it("gives each resource its source's terms, and the package the compilation's CC-BY-4.0", () => {
    expect(pacote.licenses.map((l) => l.name)).toEqual(["CC-BY-4.0"]);
    const porNome = new Map(SOURCES.map((s) => [s.nome, s]));
    for (const r of pacote.resources) {
      expect(r.licenses.length, r.path).toBe(r.sources.length);
      for (const src of r.sources) {
        const s = porNome.get(src.title)!;
        expect(s, src.title).toBeDefined();
        expect(r.licenses.map((l) => l.path)).toContain(s.termos.url);
      }
    }
    const rs = pacote.resources.find((r) => r.path === "historico/boi_gordo/RS.csv")!;
    expect(rs.licenses[0]!.title).toContain("Scot Consultoria");
    expect(rs.schema.fields.find((f) => f.name === "valor")!.description).toContain("por quilo");
    expect(rs.schema.fields.find((f) => f.name === "unidade")!.constraints?.enum).toEqual(["kg"]);
  });
});

/** One cell against its Table Schema field; null when it fits. */
function desajuste(v: string, f: RecursoTabular["schema"]["fields"][number]): string | null {
  if (v === "") return f.constraints?.required ? "vazio em campo obrigatório" : null;
  if (f.type === "date" && !(/^\d{4}-\d{2}-\d{2}$/.test(v) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v))) return "data inválida";
  if (f.type === "number" && !(/^-?\d+(\.\d+)?$/.test(v) && Number.isFinite(Number(v)))) return "número inválido";
  if (f.type === "boolean" && v !== "true" && v !== "false") return "booleano inválido";
  if (f.constraints?.enum && !f.constraints.enum.includes(v)) return "fora do enum";
  return null;
}

describe("every CSV against its Table Schema (csv-parse)", () => {
  it("each row has every field, each cell fits its type, the primary key is unique", () => {
    let linhas = 0;
    for (const r of pacote.resources) {
      const text = files.get(`api/v1/${r.path}`)!;
      expect(text.includes("\r") || text.startsWith("\ufeff"), r.path).toBe(false);
      const rows = parse(text, { columns: true, relax_column_count: false }) as Array<Record<string, string>>;
      const chaves = new Set<string>();
      for (const row of rows) {
        for (const f of r.schema.fields) {
          expect(row[f.name], `${r.path} ${f.name}`).toBeDefined();
          const erro = desajuste(row[f.name]!, f);
          if (erro) expect.fail(`${r.path}: ${f.name}=${JSON.stringify(row[f.name])}: ${erro}`);
        }
        const k = r.schema.primaryKey.map((c) => row[c]).join("\u0000");
        if (chaves.has(k)) expect.fail(`${r.path}: chave primária repetida ${k}`);
        chaves.add(k);
      }
      linhas += rows.length;
    }
    expect(linhas).toBeGreaterThan(1000);
  });

  it("the long file holds every series' every day, with the same values as the series JSON", () => {
    const longo = parse(files.get("api/v1/historico.csv")!, { columns: true }) as Array<Record<string, string>>;
    const index = JSON.parse(files.get("api/v1/index.json")!) as { series: Array<{ id: string; path: string; pontos: number }> };
    for (const s of index.series) {
      const doc = JSON.parse(files.get(`api/v1/${s.path}`)!) as { unidade: string; historico: Array<{ data: string; valor: number }> };
      const minhas = longo.filter((r) => r.serie === s.id);
      expect(minhas.map((r) => [r.data, Number(r.valor), r.unidade]), s.id).toEqual(doc.historico.map((e) => [e.data, e.valor, doc.unidade]));
      expect(minhas.every((r) => r.uf === (ufPublicada(serieDef(s.id)!) ?? ""))).toBe(true);
    }
    // RS is quoted per kg beside the arroba elsewhere: the unit column tells them apart
    expect(new Set(longo.filter((r) => r.produto === "boi_gordo").map((r) => `${r.uf}:${r.unidade}`))).toContain("RS:kg");
    expect(new Set(longo.filter((r) => r.produto === "boi_gordo").map((r) => `${r.uf}:${r.unidade}`))).toContain("MS:@");
  });
});

describe("Excel-BR variants", () => {
  it("sit next to every CSV but the long one, and read, with ';' and the BOM, as the same table with decimal commas", () => {
    // the long file has none: at 30 years it is past the rows a spreadsheet opens
    expect(files.has("api/v1/historico.excel.csv")).toBe(false);
    for (const p of csvsCanonicos().filter((c) => c !== "api/v1/historico.csv")) {
      const x = p.replace(/\.csv$/, ".excel.csv");
      const excel = files.get(x);
      expect(excel, x).toBeDefined();
      expect(excel!.startsWith("\ufeff")).toBe(true);
      expect(excel!.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
      const a = parse(files.get(p)!, { columns: true }) as Array<Record<string, string>>;
      const b = parse(excel!, { columns: true, bom: true, delimiter: ";" }) as Array<Record<string, string>>;
      const numericas = new Set(pacote.resources.find((r) => `api/v1/${r.path}` === p)!.schema.fields.filter((f) => f.type === "number").map((f) => f.name));
      expect(b, x).toEqual(a.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, numericas.has(k) ? v.replace(".", ",") : v]))));
    }
  });
});

describe("index.json", () => {
  it("paths resolve from index.json's own URL, on any mirror", () => {
    const index = JSON.parse(files.get("api/v1/index.json")!) as {
      produtos: Array<{ path: string | null }>;
      ufs: Array<{ path: string }>;
      series: Array<{ id: string; path: string; csv: string; csv_excel: string; pracas_csv: string | null; uf: string | null; nacional: boolean }>;
    };
    const refs = [
      ...index.produtos.flatMap((p) => (p.path ? [p.path] : [])),
      ...index.ufs.map((u) => u.path),
      ...index.series.flatMap((s) => [s.path, s.csv, s.csv_excel, ...(s.pracas_csv ? [s.pracas_csv] : [])]),
    ];
    expect(refs.length).toBeGreaterThan(300);
    for (const mirror of ["https://cdn.example.net/gh/x/y@gh-pages/api/v1/index.json", "http://127.0.0.1:8080/api/v1/index.json"]) {
      const root = new URL("../../", mirror);
      for (const ref of refs) {
        const rel = new URL(ref, mirror).href.slice(root.href.length);
        expect(files.has(rel), `${ref} -> ${rel}`).toBe(true);
      }
    }
    const ms = index.series.find((s) => s.id === "boi_gordo/MS")!;
    expect(ms).toMatchObject({ path: "cotacao/boi_gordo/MS.json", csv: "historico/boi_gordo/MS.csv", pracas_csv: "historico/boi_gordo/MS.pracas.csv", uf: "MS", nacional: false });
    const boi = index.series.find((s) => s.id === "boi_gordo")!;
    expect(boi).toMatchObject({ uf: "SP", nacional: true, pracas_csv: null });
  });
});

describe("LICENSE and CITATION.cff in the site", () => {
  it("are the repository's own", () => {
    expect(files.get("LICENSE")).toBe(readFileSync(join(REPO_ROOT, "LICENSE"), "utf8"));
    expect(files.get("CITATION.cff")).toBe(readFileSync(join(REPO_ROOT, "CITATION.cff"), "utf8"));
  });
});

describe("README one-liners", () => {
  const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
  const inicio = readme.indexOf("### Carregar os dados em uma linha");
  const secao = readme.slice(inicio, readme.indexOf("\n### ", inicio + 1));
  const blocos = [...secao.matchAll(/```(python|r|sql)\n([\s\S]*?)```/g)].map((m) => ({ lingua: m[1]!, codigo: m[2]! }));

  it("there is a pandas, an R and a DuckDB one-liner, each one line", () => {
    expect(inicio).toBeGreaterThan(0);
    expect(blocos.map((b) => b.lingua)).toEqual(["python", "r", "sql"]);
    for (const b of blocos) expect(b.codigo.trim().split("\n"), b.lingua).toHaveLength(1);
  });

  it("each reads a file of the built site that parses, with the columns and series it uses", () => {
    for (const { lingua, codigo } of blocos) {
      const urls = [...codigo.matchAll(/https?:\/\/[^"')\s]+/g)].map((m) => m[0]);
      expect(urls.length, lingua).toBeGreaterThan(0);
      // the one-liners name the columns they use in a trailing comment ("colunas: a, b")
      const colunas = /colunas: ([a-z_, ]+)/.exec(codigo)?.[1]!.split(",").map((c) => c.trim()) ?? [];
      expect(colunas.length, `${lingua}: comentário "colunas:"`).toBeGreaterThan(0);
      const semComentario = codigo.replace(/(#|--)\s*colunas:.*$/m, "");
      for (const url of urls) {
        expect(url.startsWith(SITE_URL), url).toBe(true);
        const rel = url.slice(SITE_URL.length);
        expect(files.has(rel), `${url} -> ${rel} no site gerado`).toBe(true);
        const rows = parse(files.get(rel)!, { columns: true }) as Array<Record<string, string>>;
        expect(rows.length).toBeGreaterThan(0);
        for (const c of colunas) {
          expect(Object.keys(rows[0]!), `${lingua}: coluna ${c}`).toContain(c);
          expect(semComentario, `${lingua} não usa a coluna ${c} que diz usar`).toMatch(new RegExp(`\\b${c}\\b`));
        }
        for (const m of semComentario.matchAll(/["']([a-z_]+\/[A-Z]{2}|boi_gordo|milho|soja)["']/g)) expect(rows.some((r) => r.serie === m[1]), `${lingua}: série ${m[1]}`).toBe(true);
      }
    }
  });
});

describe("npm run validate's checks of these files", () => {
  const erros = (mudar: (m: Map<string, string>) => void) => {
    const m = new Map(files);
    mudar(m);
    return validateFiles(m, { arvoreCompleta: true }).erros;
  };

  it("pass on the built site", () => {
    expect(validateFiles(new Map(files), { arvoreCompleta: true }).erros).toEqual([]);
  });

  it("refuse an Excel variant that is not its CSV", () => {
    const p = "api/v1/historico/boi_gordo/MS.excel.csv";
    const e = erros((m) => m.set(p, m.get(p)!.replace(/338(?=;@)/, "339")));
    expect(e).toEqual([expect.stringMatching(/^api\/v1\/historico\/boi_gordo\/MS\.excel\.csv: não é api\/v1\/historico\/boi_gordo\/MS\.csv com ';'/)]);
    // index.json points at it too
    expect(erros((m) => m.delete(p))).toEqual([expect.stringContaining(`${p}: falta`), expect.stringContaining("/csv_excel: aponta para um arquivo que não existe")]);
  });

  it("refuse a praças CSV that is not its series' history", () => {
    const p = "api/v1/historico/boi_gordo/MS.pracas.csv";
    const e = erros((m) => {
      m.set(p, m.get(p)!.replace("Dourados,338", "Dourados,337"));
      m.set(p.replace(".csv", ".excel.csv"), m.get(p.replace(".csv", ".excel.csv"))!.replace("Dourados;338", "Dourados;337"));
    });
    expect(e).toEqual([expect.stringContaining(`${p}: difere do que o histórico de api/v1/cotacao/boi_gordo/MS.json dá para as praças`)]);
  });

  it("refuse a long file whose values are not the series'", () => {
    const p = "api/v1/historico.csv";
    const e = erros((m) => {
      m.set(p, m.get(p)!.replace(/^(boi_gordo\/MS,[^\n]*,)338$/m, "$1339"));
    });
    expect(e).toEqual([expect.stringContaining("api/v1/historico.csv: boi_gordo/MS: 1 linhas que não conferem")]);
  });

  it("refuse a descriptor whose fields are not the CSV's header, or that misses or invents a CSV", () => {
    const D = "api/v1/datapackage.json";
    const com = (f: (d: DataPackage) => void) => (m: Map<string, string>) => {
      const d = JSON.parse(m.get(D)!) as DataPackage;
      f(d);
      m.set(D, JSON.stringify(d));
    };
    expect(erros(com((d) => (d.resources[1]!.schema.fields[2]!.name = "unit")))).toEqual([expect.stringContaining(`/resources/1/schema/fields: `)]);
    expect(erros(com((d) => d.resources.splice(1, 1)))).toEqual([expect.stringContaining(`${D}: não lista api/v1/`)]);
    expect(erros(com((d) => d.resources.push({ ...d.resources[1]!, name: "x", path: "historico/x.csv" })))).toEqual([
      expect.stringContaining('/resources/' + String(pacote.resources.length) + '/path: "historico/x.csv" não existe'),
    ]);
  });

  it("refuse index.json paths written from the site root", () => {
    const e = erros((m) => m.set("api/v1/index.json", m.get("api/v1/index.json")!.replace('"path": "cotacao/boi_gordo.json"', '"path": "api/v1/cotacao/boi_gordo.json"')));
    expect(e.length).toBeGreaterThan(0);
    expect(e[0]).toContain("api/v1/index.json");
  });
});

describe("npm run validate on the built tree", () => {
  it("passes, and fails naming the descriptor when a CSV on disk is not in it", async () => {
    const copia = await tempSite();
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    const err = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      await cp(site, copia, { recursive: true });
      expect(runValidate(copia)).toBe(0);
      await writeFile(join(copia, "api/v1/historico/milho.copia.csv"), files.get("api/v1/historico/milho.csv")!);
      expect(runValidate(copia)).toBe(1);
      const saida = log.mock.calls.flat().join("\n");
      expect(saida).toContain("api/v1/datapackage.json: não lista api/v1/historico/milho.copia.csv em resources");
    } finally {
      log.mockRestore();
      err.mockRestore();
      await cleanup(copia);
    }
  });
});
