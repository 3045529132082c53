/**
 * The files `npm run gerar` writes, as a pure function of its inputs (the schemas and the
 * hand-written half of client.d.ts), so test/gerados.test.ts can regenerate them in memory and
 * compare with what is committed.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PRODUTO_INFO, PRODUTOS, UNIDADE_INFO, UNIDADES } from "../domain/products.ts";
import { allSeries, SOURCES } from "../sources/index.ts";
import { PROJECT_URL, SITE_URL, type SiteUrls } from "../domain/site.ts";
import { renderClient } from "../openapi/client.ts";
import { citacaoCff, licencaTexto } from "../render/licenca.ts";
import { gerarDeclaracoes, porSchema, type Schemas } from "./tipos.ts";
import { gerarValidadores } from "./validadores.ts";

/** Repository root (this file is pipeline/gerar/arquivos.ts). */
export const RAIZ = fileURLToPath(new URL("../../", import.meta.url));

/** What `npm run gerar` writes, relative to the repository root. */
export const GERADOS = {
  /** the README's table of every series ("Catálogo de séries") */
  readme: "README.md",
  /** the enums (and their descriptions) of products, sources and units, from the catalogue */
  common: "schemas/common.schema.json",
  /** the pipeline's types of every published file */
  modulo: "pipeline/domain/publicados.gerados.ts",
  /** the contract's validators, compiled (Ajv standalone): a run loads them instead of compiling the schemas */
  validadores: "pipeline/contract/validadores.gerados.ts",
  /** the client's types, published next to client.js */
  client: "public/api/v1/client.d.ts",
  /** the npm package (cliente/): the same client as api/v1/client.js, and the same types as client.d.ts */
  pacoteJs: "cliente/index.js",
  pacoteTipos: "cliente/index.d.ts",
  /** the package's manifest: its repository, homepage and bugs from package.json's `repository` (the rest as written) */
  pacoteManifesto: "cliente/package.json",
  /** the terms of the compilation and of each source's numbers, from the catalogue's sources */
  licenca: "LICENSE",
  /** how to cite the data (CFF 1.2.0), from the same sources */
  citacao: "CITATION.cff",
} as const;

/** The client itself, from which api/v1/client.js (npm run build) and cliente/index.js are rendered. */
export const CLIENT_JS_TEMPLATE = "pipeline/openapi/client.template.js";

/** The hand-written half of client.d.ts: client.js's own functions and constants. */
export const CLIENT_D_TEMPLATE = "pipeline/openapi/client.d.template.ts";

/**
 * Everything above this line of the template (its imports of the generated module) is only
 * there for tsc to check the template; client.d.ts declares those types itself.
 */
export const MARCA_TEMPLATE = "// ---- client.d.ts ----";

/** What the schemas' enums say, from the catalogue (domain/products.ts, sources/index.ts). */
export interface Catalogo {
  produtos: readonly string[];
  fontes: ReadonlyArray<{ id: string; nome: string }>;
  unidades: ReadonlyArray<{ id: string; descricao: string }>;
}

export interface Entradas {
  /** schema file name -> parsed schema */
  schemas: Schemas;
  /** text of schemas/common.schema.json, whose enums come from the catalogue */
  commonTexto: string;
  /** text of README.md, whose series table comes from the catalogue */
  readmeTexto: string;
  series: ReadonlyArray<{ id: string; nome: string; local: string; fonte: string; unidade: string }>;
  catalogo: Catalogo;
  /** text of pipeline/openapi/client.d.template.ts */
  clientTemplate: string;
  /** text of pipeline/openapi/client.template.js */
  clientJsTemplate: string;
  /** text of cliente/package.json, hand-written but for the fields that name the repository */
  pacoteManifestoTexto: string;
}

/** Reads the inputs from the working tree: every schemas/*.schema.json and the client template. */
export function lerEntradas(raiz = RAIZ): Entradas {
  const dir = join(raiz, "schemas");
  const schemas = new Map<string, unknown>();
  for (const f of readdirSync(dir).filter((n) => n.endsWith(".schema.json")).sort()) {
    try {
      schemas.set(f, JSON.parse(readFileSync(join(dir, f), "utf8")));
    } catch (err) {
      throw new Error(`[gerar] schemas/${f}: JSON inválido: ${(err as Error).message}`, { cause: err });
    }
  }
  const catalogo: Catalogo = { produtos: [...PRODUTOS], fontes: SOURCES.map((s) => ({ id: s.id, nome: s.nome })), unidades: UNIDADES.map((u) => ({ id: u, descricao: UNIDADE_INFO[u].descricao })) };
  const commonTexto = readFileSync(join(dir, "common.schema.json"), "utf8");
  // the types are generated from the schemas as the catalogue makes them, in one run
  schemas.set("common.schema.json", JSON.parse(commonDoCatalogo(commonTexto, catalogo)));
  const nomeFonte = new Map(SOURCES.map((s) => [s.id as string, s.nome]));
  return {
    schemas,
    commonTexto,
    readmeTexto: readFileSync(join(raiz, "README.md"), "utf8"),
    series: allSeries().map((d) => ({
      id: d.id,
      nome: PRODUTO_INFO[d.produto].nome,
      local: d.uf ? `${d.uf}${d.praca ? ` (${d.praca})` : ""}` : d.regiao,
      fonte: nomeFonte.get(d.fonte) ?? d.fonte,
      unidade: UNIDADE_INFO[d.unidade].nome,
    })),
    catalogo,
    clientTemplate: readFileSync(join(raiz, CLIENT_D_TEMPLATE), "utf8"),
    clientJsTemplate: readFileSync(join(raiz, CLIENT_JS_TEMPLATE), "utf8"),
    pacoteManifestoTexto: readFileSync(join(raiz, GERADOS.pacoteManifesto), "utf8"),
  };
}

/**
 * cliente/package.json with `repository`, `homepage` and `bugs` from package.json's `repository`
 * (domain/site.ts), the other fields as written. A fork's package then names the fork, which npm's
 * provenance requires: it refuses a package whose repository is not the one that built it.
 */
export function manifestoDoPacote(texto: string, urls: Pick<SiteUrls, "PROJECT_URL" | "SITE_URL"> = { PROJECT_URL, SITE_URL }): string {
  let pacote: Record<string, unknown>;
  try {
    pacote = JSON.parse(texto) as Record<string, unknown>;
  } catch (err) {
    throw new Error(`[gerar] ${GERADOS.pacoteManifesto}: JSON inválido: ${(err as Error).message}`, { cause: err });
  }
  const repositorio = pacote["repository"];
  const diretorio = repositorio && typeof repositorio === "object" && "directory" in repositorio ? (repositorio as { directory: unknown }).directory : "cliente";
  // assigning existing keys keeps their place, so a hand edit elsewhere is the only diff
  pacote["repository"] = { type: "git", url: `git+${urls.PROJECT_URL}.git`, directory: diretorio };
  pacote["homepage"] = urls.SITE_URL;
  pacote["bugs"] = `${urls.PROJECT_URL}/issues`;
  return JSON.stringify(pacote, null, 2) + "\n";
}

const INICIO_SERIES = "<!-- series: gerado por npm run gerar a partir do catálogo; não edite -->";
const FIM_SERIES = "<!-- /series -->";

/** README.md with the table of every series written between its markers, the rest as it is. */
export function readmeComSeries(texto: string, series: Entradas["series"]): string {
  const i = texto.indexOf(INICIO_SERIES);
  const j = texto.indexOf(FIM_SERIES);
  if (i < 0 || j < i) throw new Error(`[gerar] README.md: faltam as marcas ${INICIO_SERIES} e ${FIM_SERIES} da tabela de séries`);
  const celula = (t: string) => t.replace(/\|/g, "\\|");
  const linhas = [
    `${series.length} séries.`,
    "",
    "| série | produto | local | fonte | unidade |",
    "|---|---|---|---|---|",
    ...series.map((x) => `| \`${x.id}\` | ${celula(x.nome)} | ${celula(x.local)} | ${celula(x.fonte)} | ${celula(x.unidade)} |`),
  ];
  return `${texto.slice(0, i + INICIO_SERIES.length)}\n${linhas.join("\n")}\n${texto.slice(j)}`;
}

/** "a, b, c ou d" */
function ou(xs: readonly string[]): string {
  return xs.length <= 1 ? (xs[0] ?? "") : `${xs.slice(0, -1).join(", ")} ou ${xs[xs.length - 1]}`;
}

/**
 * schemas/common.schema.json with the enums of `produto`, `fonte` and `unidade` (and the first
 * two's descriptions) written from the catalogue, the rest of the file as it is.
 */
export function commonDoCatalogo(texto: string, c: Catalogo): string {
  const enumLine = (xs: readonly string[]) => `[${xs.map((x) => JSON.stringify(x)).join(", ")}]`;
  const definir = (t: string, def: string, descricao: string | null, valores: readonly string[]): string => {
    const re = new RegExp(`("${def}": \\{\\s*"description": )("(?:[^"\\\\]|\\\\.)*")(,\\s*"type": "string",\\s*"enum": )\\[[^\\]]*\\]`);
    if (!re.test(t)) throw new Error(`[gerar] schemas/common.schema.json: $defs.${def} não tem a forma {description, type: "string", enum}`);
    return t.replace(re, (_m, a: string, d: string, b: string) => `${a}${descricao === null ? d : JSON.stringify(descricao)}${b}${enumLine(valores)}`);
  };
  let t = definir(texto, "produto", `Identificador do produto: ${ou(c.produtos)}.`, c.produtos);
  t = definir(
    t,
    "fonte",
    `Identificador da fonte original dos números: ${ou(c.fontes.map((f) => `"${f.id}" (${f.nome})`))}. Dados obtidos por um espelho mantêm a fonte original.`,
    c.fontes.map((f) => f.id),
  );
  return definir(t, "unidade", `Unidade do preço: ${ou(c.unidades.map((u) => `"${u.id}" (${u.descricao})`))}.`, c.unidades.map((u) => u.id));
}

const BANNER_MODULO =
  "// Generated by `npm run gerar` from schemas/*.schema.json (pipeline/gerar/): do not edit. Change the\n" +
  "// schema and run `npm run gerar`; test/gerados.test.ts fails while this file is stale.\n" +
  "// Each type's comment ends with the schema definition it comes from.\n";

const BANNER_CLIENT =
  "// Tipos de client.js (API estática v1 da Cotação Aberta). Gerado por `npm run gerar` a partir de\n" +
  "// schemas/*.schema.json (o contrato completo, publicado em /schemas/) e de\n" +
  `// ${CLIENT_D_TEMPLATE}; não edite este arquivo, edite os schemas ou o modelo.\n`;

const BANNER_PACOTE_JS =
  "// @cotacao-aberta/cliente: gerado por `npm run gerar` a partir de pipeline/openapi/client.template.js (o mesmo\n" +
  "// modelo de api/v1/client.js), com as URLs do campo \"repository\" do package.json; não edite este arquivo.\n";

const BANNER_PACOTE_TIPOS =
  "// Tipos de @cotacao-aberta/cliente. Gerado por `npm run gerar` a partir de schemas/*.schema.json e de\n" +
  `// ${CLIENT_D_TEMPLATE} (o mesmo texto de api/v1/client.d.ts); não edite este arquivo.\n`;

/** The client's declarations: the template below its marker line. */
function parteDoCliente(template: string): string {
  const i = template.indexOf(`\n${MARCA_TEMPLATE}\n`);
  if (i < 0) throw new Error(`[gerar] ${CLIENT_D_TEMPLATE}: falta a linha ${JSON.stringify(MARCA_TEMPLATE)} que separa os imports das declarações`);
  return template.slice(i + MARCA_TEMPLATE.length + 2).trim() + "\n";
}

/** The generated files, path (from the repository root) -> text. Pure: writes nothing. */
export async function gerarArquivos(entradas: Entradas): Promise<Map<string, string>> {
  const common = commonDoCatalogo(entradas.commonTexto, entradas.catalogo);
  const schemas = entradas.schemas;
  const declaracoes = await gerarDeclaracoes(schemas);
  const tipos = `${parteDoCliente(entradas.clientTemplate)}\n// Formas dos arquivos publicados, geradas de schemas/.\n\n${declaracoes}`;
  return new Map([
    [GERADOS.readme, readmeComSeries(entradas.readmeTexto, entradas.series)],
    [GERADOS.common, common],
    [GERADOS.modulo, `${BANNER_MODULO}\n${declaracoes}${porSchema(schemas)}`],
    [GERADOS.validadores, gerarValidadores(schemas, entradas.catalogo)],
    [GERADOS.client, `${BANNER_CLIENT}\n${tipos}`],
    [GERADOS.pacoteJs, renderClient(entradas.clientJsTemplate, undefined, BANNER_PACOTE_JS)],
    [GERADOS.pacoteTipos, `${BANNER_PACOTE_TIPOS}\n${tipos}`],
    [GERADOS.pacoteManifesto, manifestoDoPacote(entradas.pacoteManifestoTexto)],
    [GERADOS.licenca, licencaTexto(SOURCES)],
    [GERADOS.citacao, citacaoCff(SOURCES)],
  ]);
}
