/**
 * The contract's validators as `npm run gerar` compiles them (pipeline/contract/validadores.gerados.ts,
 * Ajv standalone): a run loads them instead of compiling every schema, and they must say exactly
 * what the compiled schemas say; a catalogue or a schema they were not generated from is compiled.
 */
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../pipeline/config.ts";
import {
  chaveDoContrato,
  compilarSchemas,
  listSchemaFiles,
  SCHEMA_DIR,
  schemaFor,
  schemasDoContrato,
  usaValidadoresGerados,
  validateDocument,
} from "../pipeline/contract/schemas.ts";
import { CHAVE_DOS_VALIDADORES, VALIDADORES } from "../pipeline/contract/validadores.gerados.ts";
import { PRODUTOS, registrarProduto, removerProduto } from "../pipeline/domain/products.ts";
import { SOURCES } from "../pipeline/sources/index.ts";
import { listFiles } from "./helpers/pipeline.ts";

type Json = Record<string, any>;

const lidos = () => listSchemaFiles().map((f) => [f, JSON.parse(readFileSync(join(SCHEMA_DIR, f), "utf8"))] as const);
const enums = () => ({ produto: [...PRODUTOS], fonte: SOURCES.map((s) => s.id) });

/** Documents of every schema: the committed ones, and each broken in the ways a damaged file is. */
async function documentos(): Promise<Array<{ nome: string; schema: string; doc: unknown }>> {
  const out: Array<{ nome: string; schema: string; doc: unknown }> = [];
  const pub = join(REPO_ROOT, "public");
  for (const f of await listFiles(join(pub, "api/v1"))) {
    const rel = relative(pub, f);
    const m = schemaFor(rel);
    if (!m || !rel.endsWith(".json")) continue;
    const doc = JSON.parse(readFileSync(f, "utf8")) as Json;
    out.push({ nome: rel, schema: m.schema, doc });
    const quebrar = (como: string, mudar: (d: Json) => void) => {
      const d = structuredClone(doc);
      mudar(d);
      out.push({ nome: `${rel} (${como})`, schema: m.schema, doc: d });
    };
    quebrar("sem api_version", (d) => delete d.api_version);
    quebrar("campo a mais", (d) => (d.campo_a_mais = 1));
    quebrar("api_version errada", (d) => (d.api_version = 1));
    if (Array.isArray(d0(doc).historico) && doc.historico.length > 0) {
      quebrar("valor com três casas", (d) => (d.historico[0].valor = 1.234));
      quebrar("valor em texto", (d) => (d.historico[0].valor = "161,00"));
      quebrar("data impossível", (d) => (d.historico[0].data = "2026-02-30"));
      quebrar("produto desconhecido", (d) => (d.produto = "frango"));
    }
  }
  return out;
}
const d0 = (d: unknown) => (d && typeof d === "object" ? (d as Json) : {});

describe("generated validators (pipeline/contract/validadores.gerados.ts)", () => {
  it("are the ones a run uses, with the shipped schemas and catalogue", () => {
    expect(CHAVE_DOS_VALIDADORES).toBe(chaveDoContrato(schemasDoContrato(lidos(), enums())));
    expect(Object.keys(VALIDADORES).sort()).toEqual(listSchemaFiles());
    expect(usaValidadoresGerados()).toBe(true);
  });

  it("say exactly what the compiled schemas say, error by error, on valid and broken documents", async () => {
    const compilados = compilarSchemas(schemasDoContrato(lidos(), enums()));
    const docs = await documentos();
    expect(docs.length).toBeGreaterThan(50);
    let invalidos = 0;
    for (const { nome, schema, doc } of docs) {
      const g = VALIDADORES[schema]!;
      const c = compilados.get(schema)!;
      const ok = g(doc);
      expect(ok, nome).toBe(c(doc));
      expect(g.errors ?? null, nome).toEqual(c.errors ?? null);
      if (!ok) invalidos++;
    }
    // the broken documents are refused (at least one error each)
    expect(invalidos).toBeGreaterThan(docs.length / 2);
  });

  it("give way to compiling when the catalogue differs: a product registered at run time validates", () => {
    const serie = JSON.parse(readFileSync(join(REPO_ROOT, "public/api/v1/cotacao/milho.json"), "utf8")) as Json;
    const doc = { ...serie, produto: "novilha_teste" };
    expect(validateDocument("api/v1/cotacao/milho.json", doc).join("\n")).toContain("/produto");
    registrarProduto("novilha_teste", { nome: "Novilha de teste", tipo: "gado_arroba", unidade: "@", faixa: { "@": [100, 1000] }, saltoMaximoPct: 10, revisaoMaximaPct: 1.5 });
    try {
      expect(usaValidadoresGerados()).toBe(false);
      // the schema now accepts the product (the checks in code still tie a file to its path)
      expect(validateDocument("api/v1/cotacao/novilha_teste.json", { ...doc, historico: serie.historico }).filter((l) => l.includes("deve ser um destes valores"))).toEqual([]);
    } finally {
      removerProduto("novilha_teste");
    }
    expect(usaValidadoresGerados()).toBe(true);
  });

  it("are keyed by what they were compiled from: any schema change or catalogue change changes the key", () => {
    const base = chaveDoContrato(schemasDoContrato(lidos(), enums()));
    const editado = lidos().map(([f, s]) => [f, f === "serie.schema.json" ? { ...s, description: `${s.description} (editado)` } : s] as const);
    expect(chaveDoContrato(schemasDoContrato(editado, enums()))).not.toBe(base);
    expect(chaveDoContrato(schemasDoContrato(lidos(), { ...enums(), fonte: [...enums().fonte, "outra"] }))).not.toBe(base);
    // the enums of common.schema.json on disk do not count: the live catalogue's replace them
    const comuns = lidos().map(([f, s]) => [f, f === "common.schema.json" ? { ...s, $defs: { ...s.$defs, produto: { ...s.$defs.produto, enum: ["x"] } } } : s] as const);
    expect(chaveDoContrato(schemasDoContrato(comuns, enums()))).toBe(base);
  });
});
