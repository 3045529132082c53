import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLIENT_D_TEMPLATE, GERADOS, gerarArquivos, lerEntradas, MARCA_TEMPLATE, RAIZ, type Entradas } from "../pipeline/gerar/arquivos.ts";

type Json = Record<string, any>;

/** The inputs as on disk, with `mudar` applied to a copy of the schemas. */
function entradasCom(mudar: (schemas: Map<string, Json>) => void): Entradas {
  const e = lerEntradas();
  const schemas = new Map([...e.schemas].map(([k, v]) => [k, structuredClone(v) as Json]));
  mudar(schemas);
  return { ...e, schemas };
}

describe("files generated from schemas/ (npm run gerar)", () => {
  it("are what the committed schemas give", async () => {
    const gerados = await gerarArquivos(lerEntradas());
    expect([...gerados.keys()].sort()).toEqual(Object.values(GERADOS).sort());
    for (const [rel, texto] of gerados) {
      const commitado = readFileSync(join(RAIZ, rel), "utf8");
      // not toBe: a diff of thousands of lines says less than the file's name and the command
      if (commitado !== texto) expect.fail(`${rel} está desatualizado em relação a schemas/, ao catálogo e a ${CLIENT_D_TEMPLATE}: rode npm run gerar`);
    }
  });

  it("follow a schema change: a new field and a new product reach both files", async () => {
    const antes = await gerarArquivos(lerEntradas());
    const depois = await gerarArquivos(
      entradasCom((s) => {
        const defs = s.get("common.schema.json")!.$defs;
        defs.historicoEntrada.properties.valor_exemplo = { description: "Campo de teste.", $ref: "#/$defs/preco" };
        defs.produto.enum.push("frango");
      }),
    );
    for (const rel of [GERADOS.modulo, GERADOS.client]) {
      const texto = depois.get(rel)!;
      expect(texto).not.toBe(antes.get(rel));
      expect(/export interface HistoricoEntrada \{([\s\S]*?)\n\}/.exec(texto)?.[1]).toContain("valor_exemplo?: Preco;");
      expect(texto).toMatch(/export type Produto =\s*\| "boi_gordo"\s*\| "vaca_gorda"\s*\| "soja"\s*\| "milho"\s*\| "bezerro"[^;]*\| "frango";/);
    }
  });

  it("declare every field the schemas publish (client.d.ts once lacked base_sp, funrural_*, senar_*, tendencia)", async () => {
    const { schemas } = lerEntradas();
    const client = (await gerarArquivos(lerEntradas())).get(GERADOS.client)!;
    const entrada = (schemas.get("common.schema.json") as Json).$defs.historicoEntrada.properties as Json;
    const declarada = /export interface HistoricoEntrada \{([\s\S]*?)\n\}/.exec(client)?.[1] ?? "";
    const campos = [...declarada.matchAll(/^ {2}([a-z_0-9]+)\??:/gm)].map((m) => m[1]);
    expect(campos).toEqual(Object.keys(entrada));
    expect(campos).toEqual(expect.arrayContaining(["base_sp", "funrural_avista", "funrural_30d", "senar_avista", "senar_30d", "tendencia"]));
  });

  it("client.d.ts is self-contained: the client's declarations without the template's imports, then the shapes", async () => {
    const client = (await gerarArquivos(lerEntradas())).get(GERADOS.client)!;
    expect(client).not.toMatch(/^import /m);
    expect(client).not.toContain(MARCA_TEMPLATE);
    expect(client).toContain("export declare function createClient(options?: ClientOptions): CotacaoClient;");
    // the names client.d.ts always exported stay, as aliases of the generated shapes
    for (const nome of ["UF", "Dia", "HistoricoEntry", "UfQuote", "PracaQuote", "Cotacao", "Serie", "Produto", "Unidade"]) {
      expect(client, nome).toMatch(new RegExp(`^export (type|interface) ${nome}\\b`, "m"));
    }
  });

  it("an event's dados are typed by its tipo, as the schema's if/then says", async () => {
    const modulo = (await gerarArquivos(lerEntradas())).get(GERADOS.modulo)!;
    const evento = /export type Evento =([\s\S]*?)\n\n/.exec(modulo)?.[1] ?? "";
    const pares = [...evento.matchAll(/tipo: "([a-z_]+)";[\s\S]*?dados: ([A-Za-z]+);/g)].map((m) => `${m[1]}->${m[2]}`);
    expect(pares.sort()).toEqual(["cotacao_atualizada->CotacaoAtualizada", "historico_revisado->HistoricoRevisado", "price_changed->PriceChanged"]);
  });

  it("a schema the generator cannot name is an error naming the file", async () => {
    await expect(
      gerarArquivos(
        entradasCom((s) => {
          // status.schema.json's "serie" would be Serie (a file's type), then StatusSerie (taken too)
          s.get("common.schema.json")!.$defs.statusSerie = { type: "string" };
          s.get("status.schema.json")!.$defs.serie = { type: "string" };
        }),
      ),
    ).rejects.toThrow("schemas/status.schema.json: o nome de tipo StatusSerie já é usado por schemas/common.schema.json");
  });
});
