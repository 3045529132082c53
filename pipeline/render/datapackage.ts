/**
 * api/v1/datapackage.json: a Frictionless Tabular Data Package describing every canonical CSV
 * (each series' history, each state series' praças, the long file), each with its Table Schema
 * (typed fields, primary key, the unit in the descriptions) and the terms of the source its
 * numbers come from. The Excel-BR variants (*.excel.csv) are the same tables in another
 * spelling and are not listed. Paths are relative to the descriptor (api/v1/), as the spec asks.
 * Nothing here depends on the time of the run: same series, same bytes.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../config.ts";
import { LICENCA_COMPILACAO, PROJECT_NAME } from "../domain/license.ts";
import { prazoDoValor, PRODUTO_INFO, UNIDADE_INFO, UNIDADES, type Unidade } from "../domain/products.ts";
import { seriesCsvPath, type SeriesDef } from "../domain/series.ts";
import { PROJECT_URL, SITE_URL } from "../domain/site.ts";
import { UFS } from "../domain/ufs.ts";
import { SOURCES, allSeries } from "../sources/index.ts";
import type { SourceDef } from "../sources/types.ts";
import { COLUNAS_NUMERICAS, HISTORICO_LONGO_PATH, pracasCsvPath } from "./csv.ts";
import { fatosDe, type SerieOuResumo } from "./resumo.ts";
import { COLUNAS_LONGO, seriesDoLongo } from "./longo.ts";

export const DATAPACKAGE_PATH = "api/v1/datapackage.json";

export const LICENCA_COMPILACAO_URL = "https://creativecommons.org/licenses/by/4.0/legalcode.pt";

export interface CampoTabela {
  name: string;
  type: "date" | "number" | "string" | "boolean";
  description: string;
  constraints?: { required?: true; enum?: string[] };
}

export interface RecursoTabular {
  name: string;
  path: string;
  profile: "tabular-data-resource";
  title: string;
  description: string;
  format: "csv";
  mediatype: "text/csv";
  encoding: "utf-8";
  dialect: { delimiter: ","; lineTerminator: "\n"; header: true };
  schema: { fields: CampoTabela[]; primaryKey: string[]; missingValues: [""] };
  sources: Array<{ title: string; path: string }>;
  licenses: Array<{ title: string; path: string }>;
}

export interface DataPackage {
  profile: "tabular-data-package";
  name: string;
  title: string;
  description: string;
  homepage: string;
  keywords: string[];
  licenses: Array<{ name: string; title: string; path: string }>;
  sources: Array<{ title: string; path: string }>;
  resources: RecursoTabular[];
}

/** path under the site root -> path relative to api/v1/ (where the descriptor is) */
export const relativoApi = (p: string): string => p.replace(/^api\/v1\//, "");

/**
 * The descriptions of a history's columns, from the schema of a history entry
 * (schemas/common.schema.json, historicoEntrada): one text for the JSON and the CSV.
 */
function descricoesDoHistorico(): Record<string, string> {
  const common = JSON.parse(readFileSync(join(REPO_ROOT, "schemas", "common.schema.json"), "utf8")) as {
    $defs: { historicoEntrada: { properties: Record<string, { description?: string }> } };
  };
  return Object.fromEntries(Object.entries(common.$defs.historicoEntrada.properties).map(([k, v]) => [k, v.description ?? k]));
}

/** "R$ por arroba (15 kg de carcaça)"; CEPEA's cotton is in centavos of real. */
function porUnidade(u: Unidade): string {
  const info = UNIDADE_INFO[u];
  return info.emCentavos ? info.nome : `R$ por ${info.nome}`;
}

/**
 * The unit of CEPEA's US$ column: the same unit as the R$ one, and in cents where that one is
 * (cotton, whose download quotes "centavos de US$/lp"): "em dólares" alone read 80 cents as US$ 80.
 */
function porUnidadeUsd(u: Unidade): string {
  const info = UNIDADE_INFO[u];
  return info.emCentavos ? `centavos de US$ ${info.por}` : `US$ por ${info.nome}`;
}

// the terms in short (the full sentence is in index.json and LICENSE): one per resource adds up
const licencasDaFonte = (s: SourceDef) => [{ title: `${s.nome}: ${s.termos.licenca}`, path: s.termos.url }];
const fonteDoRecurso = (s: SourceDef) => ({ title: s.nome, path: s.site });

const campoData = (): CampoTabela => ({ name: "data", type: "date", description: "Dia da cotação (AAAA-MM-DD).", constraints: { required: true } });
const campoValor = (u: Unidade, oQue: string): CampoTabela => ({ name: "valor", type: "number", description: `${oQue}, em ${porUnidade(u)}.`, constraints: { required: true } });
const campoUnidade = (us: readonly Unidade[]): CampoTabela => ({
  name: "unidade",
  type: "string",
  description: `Unidade do valor nesta linha: ${us.map((u) => `"${u}" (${UNIDADE_INFO[u].descricao})`).join(", ")}.`,
  constraints: { required: true, enum: [...us] },
});

function nomeSerie(def: SeriesDef): string {
  return `${PRODUTO_INFO[def.produto].nome}${def.uf ? ` ${UFS[def.uf]}` : ""}`;
}

function recursoSerie(def: SeriesDef, f: SerieOuResumo, desc: Record<string, string>): RecursoTabular {
  const fonte = SOURCES.find((s) => s.id === def.fonte)!;
  const unidade = f.unidade as Unidade;
  const campos: CampoTabela[] = fatosDe(f).colunas.map((c) => {
    if (c === "data") return campoData();
    if (c === "valor") return campoValor(unidade, "Valor de referência da série");
    if (c === "unidade") return campoUnidade([unidade]);
    // the Scot columns quote the reference praça in reais of the same unit; base_sp is a
    // percentage; CEPEA's US$ is in dollars (cotton: cents of a dollar) of the same unit
    const d = desc[c] ?? c;
    if (c === "valor_usd") return { name: c, type: "number", description: `CEPEA: o mesmo indicador em dólares, em ${porUnidadeUsd(unidade)}.` };
    return COLUNAS_NUMERICAS.has(c)
      ? { name: c, type: "number", description: c === "base_sp" ? d : `${d.replace(/, em R\$\.$/, "")}, em ${porUnidade(unidade)}.` }
      : { name: c, type: "string", description: d };
  });
  return {
    name: `historico-${def.id.replace("/", "-").toLowerCase()}`,
    path: relativoApi(seriesCsvPath(def)),
    profile: "tabular-data-resource",
    title: `${nomeSerie(def)}: histórico (${fonte.nome})`,
    description: `${PRODUTO_INFO[def.produto].nome}, ${def.regiao}: um dia por linha, do mais antigo ao mais recente, em ${porUnidade(unidade)}. Fonte: ${fonte.nome}.`,
    ...comum(),
    schema: { fields: campos, primaryKey: ["data"], missingValues: [""] },
    sources: [fonteDoRecurso(fonte)],
    licenses: licencasDaFonte(fonte),
  };
}

function recursoPracas(def: SeriesDef, f: SerieOuResumo): RecursoTabular {
  const fonte = SOURCES.find((s) => s.id === def.fonte)!;
  const unidade = f.unidade as Unidade;
  return {
    name: `pracas-${def.id.replace("/", "-").toLowerCase()}`,
    path: relativoApi(pracasCsvPath(def)),
    profile: "tabular-data-resource",
    title: `${nomeSerie(def)}: praças (${fonte.nome})`,
    description: `Todas as praças de ${nomeSerie(def)}: uma linha por praça por dia, as praças de cada dia na ordem da fonte; preço ${prazoDoValor(def.produto)} em ${porUnidade(unidade)}. Fonte: ${fonte.nome}.`,
    ...comum(),
    schema: {
      fields: [
        campoData(),
        { name: "praca", type: "string", description: "Nome da praça como a fonte o escreve.", constraints: { required: true } },
        campoValor(unidade, `Preço ${prazoDoValor(def.produto)} na praça`),
        campoUnidade([unidade]),
      ],
      primaryKey: ["data", "praca"],
      missingValues: [""],
    },
    sources: [fonteDoRecurso(fonte)],
    licenses: licencasDaFonte(fonte),
  };
}

function recursoLongo(series: ReadonlyMap<string, SerieOuResumo>): RecursoTabular {
  const lista = seriesDoLongo(series);
  const unidades = UNIDADES.filter((u) => lista.some(({ f }) => f.unidade === u));
  const fontes = SOURCES.filter((s) => lista.some(({ def }) => def.fonte === s.id));
  const campos: Record<(typeof COLUNAS_LONGO)[number], CampoTabela> = {
    serie: { name: "serie", type: "string", description: "Identificador da série: {produto} (referência nacional) ou {produto}/{UF}, como em index.json.", constraints: { required: true } },
    produto: { name: "produto", type: "string", description: "Identificador do produto.", constraints: { required: true } },
    uf: { name: "uf", type: "string", description: "UF da série; na referência nacional, a UF onde o indicador é cotado; vazia quando ele é média de mais de um estado." },
    nacional: {
      name: "nacional",
      type: "boolean",
      description: "true na referência nacional do produto (cotacao/{produto}.json), false numa série de UF: filtre por ele, ou por serie, para não misturar as duas quando têm a mesma uf (soja de Paranaguá e soja/PR).",
      constraints: { required: true },
    },
    praca: { name: "praca", type: "string", description: "Praça de referência da série de UF (a de hoje; as praças de cada dia estão nos arquivos *.pracas.csv); vazia na referência nacional." },
    fonte: { name: "fonte", type: "string", description: "Identificador da fonte original dos números (veja sources e index.json).", constraints: { required: true } },
    unidade: campoUnidade(unidades),
    moeda: { name: "moeda", type: "string", description: "Moeda do valor.", constraints: { required: true } },
    data: campoData(),
    valor: {
      name: "valor",
      type: "number",
      description: "Valor de referência da série nesse dia, na unidade da coluna unidade (R$ por unidade; o algodão em centavos de R$ por libra-peso). Não some nem compare séries de unidades diferentes.",
      constraints: { required: true },
    },
  };
  return {
    name: "historico",
    path: relativoApi(HISTORICO_LONGO_PATH),
    profile: "tabular-data-resource",
    title: "Todas as séries, formato longo",
    description: "Todas as séries publicadas, uma linha por série por dia, ordenadas por serie e data. Cada linha traz a sua unidade.",
    ...comum(),
    schema: { fields: COLUNAS_LONGO.map((c) => campos[c]), primaryKey: ["serie", "data"], missingValues: [""] },
    sources: fontes.map(fonteDoRecurso),
    licenses: fontes.flatMap(licencasDaFonte),
  };
}

const comum = () => ({
  format: "csv" as const,
  mediatype: "text/csv" as const,
  encoding: "utf-8" as const,
  dialect: { delimiter: "," as const, lineTerminator: "\n" as const, header: true as const },
});

export function renderDataPackage(series: ReadonlyMap<string, SerieOuResumo>): DataPackage {
  const desc = descricoesDoHistorico();
  const resources: RecursoTabular[] = [recursoLongo(series)];
  for (const def of allSeries()) {
    const f = series.get(def.id);
    if (!f) continue;
    resources.push(recursoSerie(def, f, desc));
    if (fatosDe(f).pracas) resources.push(recursoPracas(def, f));
  }
  const usadas = SOURCES.filter((s) => resources.some((r) => r.sources.some((x) => x.title === s.nome)));
  return {
    profile: "tabular-data-package",
    name: "cotacao-aberta",
    title: `${PROJECT_NAME}: preços de referência do boi, da vaca, do bezerro e dos grãos no Brasil`,
    description:
      `Histórico diário dos preços de referência publicados por ${usadas.map((s) => s.nome).join(", ")}, em CSV. ` +
      `A compilação (seleção, estrutura e arquivos) é ${LICENCA_COMPILACAO}: cite "${PROJECT_NAME}" (${PROJECT_URL}). ` +
      "Os números continuam sob os termos de cada fonte (licenses de cada recurso). Cada arquivo de série tem ao lado uma variante para o Excel em português (X.excel.csv: ';', vírgula decimal, UTF-8 com BOM); historico.csv não, porque passa do limite de linhas de uma planilha do Excel.",
    homepage: SITE_URL,
    keywords: ["agropecuária", "pecuária", "grãos", "preços", "Brasil", ...usadas.map((s) => s.nome)],
    licenses: [{ name: LICENCA_COMPILACAO, title: "Creative Commons Attribution 4.0 (compilação)", path: LICENCA_COMPILACAO_URL }],
    sources: usadas.map(fonteDoRecurso),
    resources,
  };
}
