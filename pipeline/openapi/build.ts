/**
 * api/v1/openapi.json (OpenAPI 3.1): every static file of the site and the query interface of
 * the local/self-hosted server. Response bodies $ref the JSON Schemas published under /schemas/
 * (relative to this file: ../../schemas/x.schema.json), never copies of them; the query
 * interface's shapes are built from $refs into the same schemas' properties. Examples are taken
 * from the files rendered in the same run, so they are real data and change only when it does.
 */
import { licenseShort, PROJECT_NAME } from "../domain/license.ts";
import { SOURCES } from "../sources/index.ts";
import { agregadosUf, PRODUTO_INFO, PRODUTOS, type TipoProduto } from "../domain/products.ts";
import { allSeries, EXEMPLOS, getSource, nomesDosProdutos, produtosComUf, ufsComSerie, ufsDoAgregado } from "../sources/index.ts";

/** The ids of the products sold in these ways, for a parameter's description. */
function doTipo(...tipos: TipoProduto[]): string {
  return PRODUTOS.filter((p) => tipos.includes(PRODUTO_INFO[p].tipo)).join(", ");
}
import { EVENTOS_PATH, FEED_PATH } from "../events/model.ts";
import { stringifyDoc } from "../render/json.ts";
import { JSDELIVR_URL, LOCAL_URL, SITE_URL } from "./servers.ts";

export const OPENAPI_PATH = "api/v1/openapi.json";

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };

const SCHEMAS = "../../schemas/";
const ref = (schema: string, pointer = "") => ({ $ref: `${SCHEMAS}${schema}${pointer ? `#${pointer}` : ""}` });

/** UFs with a state series: Scot's 18 plus PR (CEPEA's Paraná soy indicator). */
/** "boi gordo e vaca gorda: 18 UFs (Scot Consultoria); soja: PR (CEPEA/ESALQ)", from the catalogue. */
function ufsPorProduto(): string {
  const grupos = new Map<string, string[]>();
  for (const p of produtosComUf()) {
    const defs = allSeries().filter((d) => d.produto === p && d.uf !== null);
    const fontes = [...new Set(defs.map((d) => getSource(d.fonte).nomeCurto))].join(", ");
    const ufs = defs.length > 3 ? `${defs.length} UFs` : defs.map((d) => d.uf).join(", ");
    const chave = `${ufs} (${fontes})`;
    grupos.set(chave, [...(grupos.get(chave) ?? []), PRODUTO_INFO[p].nome.toLowerCase()]);
  }
  return [...grupos].map(([onde, nomes]) => `${nomes.join(" e ")}: ${onde}`).join("; ");
}

/** "Scot Consultoria": the sources of the state aggregates' quotes. */
function fontesDoAgregadoUf(): string {
  const produtos = new Set(agregadosUf().map((a) => a.produto));
  return [...new Set(allSeries().filter((d) => d.uf && produtos.has(d.produto)).map((d) => getSource(d.fonte).nome))].join(", ");
}

function parseJson(files: ReadonlyMap<string, string>, path: string): Json | undefined {
  const text = files.get(path);
  if (text === undefined) return undefined;
  return JSON.parse(text) as Json;
}

/** A real file cut to a readable size: long arrays keep their last (newest) few entries. */
function trimmed(doc: Json | undefined, keep: Record<string, number>): Json | undefined {
  if (!doc || typeof doc !== "object" || Array.isArray(doc)) return doc;
  const out: Obj = {};
  for (const [k, v] of Object.entries(doc)) {
    const n = keep[k];
    out[k] = n !== undefined && Array.isArray(v) ? (k === "historico" ? v.slice(-n) : v.slice(0, n)) : v;
  }
  return out;
}

function jsonExample(summary: string, value: Json | undefined): Obj {
  return value === undefined ? {} : { examples: { real: { summary, value } } };
}

function textExample(summary: string, text: string | undefined, maxLines: number): Obj {
  if (text === undefined) return {};
  const lines = text.split("\n");
  const value = lines.length > maxLines ? lines.slice(0, maxLines).join("\n") + "\n" : text;
  return { examples: { real: { summary, value } } };
}

function feedExample(text: string | undefined): Obj {
  if (text === undefined) return {};
  const end = text.indexOf("</entry>");
  const value = end < 0 ? text : `${text.slice(0, end + "</entry>".length)}\n</feed>\n`;
  return { examples: { real: { summary: "Início do feed publicado (primeira entrada)", value } } };
}

/** Mark a static path as served by every mirror (the default servers). */
function staticGet(opts: { id: string; summary: string; description: string; tag: string; params?: Json[]; content: Obj }): Obj {
  const op: Obj = {
    operationId: opts.id,
    summary: opts.summary,
    description: opts.description,
    tags: [opts.tag],
    responses: {
      "200": { description: "O arquivo.", content: opts.content },
      "404": {
        description:
          "Arquivo inexistente. O GitHub Pages responde com uma página HTML, não JSON: um cliente deve conferir o tipo e a forma da resposta (o client.js faz isso).",
      },
    },
  };
  if (opts.params) op.parameters = opts.params;
  return { get: op };
}

const P = {
  produto: { $ref: "#/components/parameters/produtoPath" },
  produtoUf: { $ref: "#/components/parameters/produtoUfPath" },
  uf: { $ref: "#/components/parameters/ufPath" },
  ufScot: { $ref: "#/components/parameters/ufScotPath" },
};

const RATE_HEADERS: Obj = {
  "X-RateLimit-Limit": { description: "Requisições permitidas por dia (100 sem chave, 10.000 com X-API-Key).", schema: { type: "integer" } },
  "X-RateLimit-Remaining": { description: "Requisições restantes hoje (zera às 00:00 UTC).", schema: { type: "integer" } },
  ETag: { description: "Validador do conteúdo; envie em If-None-Match para receber 304.", schema: { type: "string" } },
  "Cache-Control": { description: "public, max-age=1800", schema: { type: "string" } },
};

function erro(description: string): Obj {
  return { description, headers: RATE_HEADERS, content: { "application/json": { schema: { $ref: "#/components/schemas/Erro" } } } };
}

const QUERY_ERRORS: Obj = {
  "304": { description: "Não modificado (If-None-Match igual ao ETag; o ETag da consulta não muda com o contador da cota)." },
  "400": erro("Parâmetro malformado (uf, produto ou outro); a mensagem lista os valores válidos."),
  "401": erro("X-API-Key desconhecida."),
  "404": erro("UF válida sem série para o produto pedido."),
  "405": erro("Método diferente de GET, HEAD ou OPTIONS."),
  "414": erro("Consulta longa demais."),
  "431": { description: "Cabeçalhos grandes demais (recusados pelo servidor HTTP antes da aplicação)." },
  "429": {
    description: "Cota diária esgotada.",
    headers: { ...RATE_HEADERS, "Retry-After": { description: "Segundos até a cota zerar (00:00 UTC).", schema: { type: "integer" } } },
    content: { "application/json": { schema: { $ref: "#/components/schemas/Erro" } } },
  },
};

/** Every property of a published schema by $ref, minus some, plus rate_limit: the query answers. */
function queryShape(schemaFile: string, schemaText: string | undefined, omit: string[], description: string): Obj {
  const schema = schemaText ? (JSON.parse(schemaText) as { properties?: Obj; required?: string[] }) : {};
  const props: Obj = {};
  for (const k of Object.keys(schema.properties ?? {})) if (!omit.includes(k)) props[k] = ref(schemaFile, `/properties/${k}`);
  props.rate_limit = { $ref: "#/components/schemas/RateLimit" };
  return {
    description,
    type: "object",
    required: [...(schema.required ?? []).filter((k) => !omit.includes(k)), "rate_limit"],
    properties: props,
  };
}

function withRateLimit(doc: Json | undefined, omit: string[]): Json | undefined {
  if (!doc || typeof doc !== "object" || Array.isArray(doc)) return undefined;
  const out: Obj = {};
  for (const [k, v] of Object.entries(doc)) if (!omit.includes(k)) out[k] = v;
  out.rate_limit = { diario: 100, restante: 99 };
  return out;
}

/** The description, from the files of the same render (schemas/ included). */
export function buildOpenApi(files: ReadonlyMap<string, string>): Obj {
  const cotacao = parseJson(files, "api/v1/cotacao.json");
  const cotacaoSP = parseJson(files, "api/v1/cotacao/uf/SP.json");
  // the catalogue's example series: one national, one state with several praças
  const nac = EXEMPLOS.nacional;
  const est = EXEMPLOS.estadual;
  const [estProduto, estUf] = est.split("/") as [string, string];
  const boi = parseJson(files, `api/v1/cotacao/${nac}.json`);
  const boiMT = parseJson(files, `api/v1/cotacao/${est}.json`);
  const schemaNames = [...files.keys()].filter((k) => /^schemas\/[^/]+\.schema\.json$/.test(k)).map((k) => k.slice("schemas/".length)).sort();
  const historicoSlice = boi && typeof boi === "object" && !Array.isArray(boi) && Array.isArray(boi.historico) ? boi.historico.slice(-5) : undefined;

  const paths: Obj = {
    "/api/v1/cotacao.json": staticGet({
      id: "getCotacao",
      summary: "Cotação agregada (referências nacionais)",
      description: "Os últimos valores das referências nacionais de cada produto, com o dia de cada um (`datas`): produtos diferentes podem ser de dias diferentes.",
      tag: "Cotações",
      content: { "application/json": { schema: ref("cotacao.schema.json"), ...jsonExample("cotacao.json publicado", cotacao) } },
    }),
    "/api/v1/cotacao/uf/{uf}.json": staticGet({
      id: "getCotacaoUf",
      summary: "Cotação agregada com o boi e a vaca gorda de uma UF",
      description: "O agregado nacional mais `boi_gordo_uf` e `vaca_gorda_uf` (praça de referência da UF, Scot Consultoria).",
      tag: "Cotações",
      params: [P.ufScot],
      content: { "application/json": { schema: ref("cotacao.schema.json"), ...jsonExample("cotacao/uf/SP.json publicado", cotacaoSP) } },
    }),
    "/api/v1/cotacao/{produto}.json": staticGet({
      id: "getSerie",
      summary: "Série nacional de um produto, com todo o histórico",
      description: "A cotação de referência nacional do produto e o `historico` inteiro (um dia por linha, do mais antigo ao mais novo).",
      tag: "Séries",
      params: [P.produto],
      content: {
        "application/json": { schema: ref("serie.schema.json"), ...jsonExample(`cotacao/${nac}.json publicado (histórico cortado nos últimos 3 dias)`, trimmed(boi, { historico: 3 })) },
      },
    }),
    "/api/v1/cotacao/{produto}/{uf}.json": staticGet({
      id: "getSerieUf",
      summary: "Série estadual de um produto, com as praças e todo o histórico",
      description: "A cotação da praça de referência da UF (`praca`), todas as praças da UF no último dia (`pracas`) e o `historico` inteiro.",
      tag: "Séries",
      params: [P.produtoUf, P.uf],
      content: {
        "application/json": {
          schema: ref("serie.schema.json"),
          ...jsonExample(`cotacao/${est}.json publicado (histórico cortado nos últimos 3 dias)`, trimmed(boiMT, { historico: 3 })),
        },
      },
    }),
    "/api/v1/historico/{produto}.csv": staticGet({
      id: "getHistoricoCsv",
      summary: "Histórico nacional em CSV",
      description: "O mesmo histórico de `cotacao/{produto}.json`, em CSV (UTF-8, separador vírgula, ponto decimal, uma linha por dia).",
      tag: "Séries",
      params: [P.produto],
      content: { "text/csv": { schema: { type: "string" }, ...textExample(`Início de historico/${nac}.csv`, files.get(`api/v1/historico/${nac}.csv`), 4) } },
    }),
    "/api/v1/historico/{produto}/{uf}.csv": staticGet({
      id: "getHistoricoUfCsv",
      summary: "Histórico estadual em CSV",
      description: "O mesmo histórico de `cotacao/{produto}/{uf}.json`, em CSV.",
      tag: "Séries",
      params: [P.produtoUf, P.uf],
      content: { "text/csv": { schema: { type: "string" }, ...textExample(`Início de historico/${est}.csv`, files.get(`api/v1/historico/${est}.csv`), 4) } },
    }),
    "/api/v1/index.json": staticGet({
      id: "getIndice",
      summary: "Catálogo de séries, fontes e licenças",
      description: "Cada série com caminho, produto, UF, praça, fonte, unidade, primeira e última data, número de pontos e licença.",
      tag: "Catálogo",
      content: { "application/json": { schema: ref("index.schema.json"), ...jsonExample("index.json publicado (séries cortadas nas 3 primeiras)", trimmed(parseJson(files, "api/v1/index.json"), { series: 3 })) } },
    }),
    "/api/v1/status.json": staticGet({
      id: "getStatus",
      summary: "Situação das fontes e das séries",
      description: "Por fonte e página: última tentativa e último sucesso, estado (ok, stale, blocked, failed, disabled) e motivo; por série: a última data.",
      tag: "Catálogo",
      // no example: status.json records every run's attempt, and openapi.json must not change with it
      content: { "application/json": { schema: ref("status.schema.json") } },
    }),
    "/api/v1/capturas/{ano}.json": staticGet({
      id: "getCapturas",
      summary: "Registro de capturas de um ano (proveniência de cada dia)",
      description:
        "Cada página aceita que mudou dados publicados: fonte, página, URL, espelho, quando foi buscada, SHA-256 dos bytes, os dias que trouxe, os dias que acrescentou a cada série (`novos`) e cada valor publicado que revisou (`revisoes`). Um arquivo por ano de registro, uma captura por linha; só cresce.",
      tag: "Catálogo",
      params: [{ name: "ano", in: "path", required: true, description: "Ano de registro (horário de Brasília).", schema: { type: "integer", minimum: 2000, maximum: 2999 }, example: 2026 }],
      // no example: the log grows with every run that brings data, and openapi.json must not change with it
      content: { "application/json": { schema: ref("capturas.schema.json") } },
    }),
    [`/${EVENTOS_PATH}`]: staticGet({
      id: "getEventos",
      summary: "Eventos recentes (mudanças de preço, revisões, atualizações)",
      description:
        "Os eventos mais recentes, do mais novo para o mais antigo, com ids estáveis. Os mesmos objetos são enviados por POST aos webhooks de `webhooks.json` (cabeçalho `X-Cotacao-Signature: sha256=<HMAC-SHA256 do corpo>`).",
      tag: "Eventos",
      content: { "application/json": { schema: ref("eventos.schema.json"), ...jsonExample("eventos.json publicado (3 eventos mais novos)", trimmed(parseJson(files, EVENTOS_PATH), { eventos: 3 })) } },
    }),
    [`/${FEED_PATH}`]: staticGet({
      id: "getFeed",
      summary: "Feed Atom dos eventos",
      description: "Os mesmos eventos de `eventos.json` como feed Atom (RFC 4287), em português, para leitores de feed.",
      tag: "Eventos",
      content: { "application/atom+xml": { schema: { type: "string" }, ...feedExample(files.get(FEED_PATH)) } },
    }),
    [`/${OPENAPI_PATH}`]: staticGet({
      id: "getOpenApi",
      summary: "Esta descrição (OpenAPI 3.1)",
      description: "A descrição OpenAPI 3.1 da API; a página /docs/ a apresenta.",
      tag: "Catálogo",
      content: { "application/json": { schema: { type: "object" } } },
    }),
    "/api/v1/client.js": staticGet({
      id: "getClient",
      summary: "Cliente JavaScript (módulo ES)",
      description:
        "`import { createClient } from \"<site>/api/v1/client.js\"`: tenta os espelhos em ordem (GitHub Pages, jsDelivr) com tempo limite e confere a forma do JSON. Tipos em `client.d.ts`.",
      tag: "Catálogo",
      content: { "text/javascript": { schema: { type: "string" } } },
    }),
    "/api/v1/client.d.ts": staticGet({
      id: "getClientTypes",
      summary: "Tipos TypeScript do cliente",
      description: "Declarações de tipos de `client.js`.",
      tag: "Catálogo",
      content: { "application/typescript": { schema: { type: "string" } } },
    }),
    "/schemas/{schema}": staticGet({
      id: "getSchema",
      summary: "JSON Schema (2020-12) dos arquivos",
      description: "Os schemas que validam cada arquivo publicado, antes de cada publicação.",
      tag: "Catálogo",
      params: [{ name: "schema", in: "path", required: true, description: "Nome do arquivo do schema.", schema: { type: "string", enum: schemaNames } }],
      content: { "application/schema+json": { schema: { type: "object" } } },
    }),
  };

  const localOnly = [{ url: LOCAL_URL.replace(/\/$/, ""), description: "Servidor local (`npm start`) ou implantação própria: a interface de consulta só existe nele" }];
  const query = (op: Obj): Obj => ({ servers: localOnly, get: { tags: ["Consulta (servidor)"], security: [{}, { apiKey: [] }], ...op } });

  paths["/api/v1/cotacao"] = query({
    operationId: "consultarCotacao",
    summary: "Cotação agregada ou de um produto",
    description:
      `Sem parâmetros: o agregado. \`?uf=MS\`: o agregado com ${agregadosUf().map((a) => `\`${a.chave}\``).join(" e ")}. \`?produto=soja\`: a cotação nacional do produto. \`?produto=${estProduto}&uf=${estUf}\`: a cotação estadual. Sem \`historico\`; com \`rate_limit\`.`,
    parameters: [{ $ref: "#/components/parameters/ufQuery" }, { $ref: "#/components/parameters/produtoQuery" }],
    responses: {
      "200": {
        description: "Agregado (sem produto) ou cotação única (com produto).",
        headers: RATE_HEADERS,
        content: {
          "application/json": {
            schema: { oneOf: [{ $ref: "#/components/schemas/CotacaoConsulta" }, { $ref: "#/components/schemas/SerieConsulta" }] },
            examples: {
              ...(cotacao ? { agregado: { summary: "GET /api/v1/cotacao", value: withRateLimit(cotacao, []) ?? null } } : {}),
              ...(boiMT ? { estadual: { summary: `GET /api/v1/cotacao?produto=${estProduto}&uf=${estUf}`, value: withRateLimit(boiMT, ["historico"]) ?? null } } : {}),
            },
          },
        },
      },
      ...QUERY_ERRORS,
    },
  });
  paths["/api/v1/historico"] = query({
    operationId: "consultarHistorico",
    summary: "Trecho de um histórico",
    description: "Os dias de `de` a `ate` (inclusive) da série de `produto` (e `uf`, para a série estadual).",
    parameters: [
      { $ref: "#/components/parameters/produtoQuery" },
      { $ref: "#/components/parameters/ufQuery" },
      { name: "de", in: "query", required: false, description: "Primeiro dia (AAAA-MM-DD).", schema: ref("common.schema.json", "/$defs/data") },
      { name: "ate", in: "query", required: false, description: "Último dia (AAAA-MM-DD).", schema: ref("common.schema.json", "/$defs/data") },
    ],
    responses: {
      "200": {
        description: "O trecho pedido.",
        headers: RATE_HEADERS,
        content: {
          "application/json": {
            schema: { $ref: "#/components/schemas/HistoricoConsulta" },
            ...(historicoSlice
              ? { examples: { real: { summary: `GET /api/v1/historico?produto=${nac} (últimos 5 dias)`, value: { produto: nac, uf: null, historico: historicoSlice, rate_limit: { diario: 100, restante: 99 } } } } }
              : {}),
          },
        },
      },
      ...QUERY_ERRORS,
    },
  });
  const num = (description: string): Obj => ({ type: "string", pattern: "^\\d{1,3}(\\.\\d{3})*(,\\d+)?$|^\\d+([.,]\\d+)?$", description });
  paths["/api/v1/simulador"] = query({
    operationId: "simularVenda",
    summary: "Simulação de venda",
    description:
      "Arrobas a partir do peso vivo e do rendimento de carcaça (gado), sacas (grãos) ou cabeças (bezerro); valor bruto pelo último preço publicado (ou `preco`), Funrural (padrão 1,5%, pessoa física), comissão e frete; valor líquido. As entradas voltam em `entrada`, validadas. Números aceitam vírgula ou ponto decimal.",
    parameters: [
      { name: "produto", in: "query", required: true, description: "Produto.", schema: ref("common.schema.json", "/$defs/produto") },
      { $ref: "#/components/parameters/ufQuery" },
      { name: "cabecas", in: "query", required: false, description: `Número de cabeças (${doTipo("gado_arroba", "cabeca")}).`, schema: { type: "integer", minimum: 1 } },
      { name: "peso_vivo_kg", in: "query", required: false, description: `Peso vivo médio por cabeça, kg (${doTipo("gado_arroba")}).`, schema: num("kg") },
      { name: "rendimento_pct", in: "query", required: false, description: `Rendimento de carcaça, % (${doTipo("gado_arroba")}; ex.: 52).`, schema: num("%") },
      { name: "sacas", in: "query", required: false, description: `Sacas de 60 kg (${doTipo("grao_saca")}).`, schema: num("sacas") },
      { name: "preco", in: "query", required: false, description: "Preço por unidade em R$, no lugar do publicado.", schema: num("R$") },
      { name: "funrural_pct", in: "query", required: false, description: "Alíquota do Funrural, % (padrão 1,5).", schema: num("%") },
      { name: "comissao_pct", in: "query", required: false, description: "Comissão, % do bruto.", schema: num("%") },
      { name: "frete", in: "query", required: false, description: "Frete, R$.", schema: num("R$") },
    ],
    responses: {
      "200": { description: "A simulação.", headers: RATE_HEADERS, content: { "application/json": { schema: { $ref: "#/components/schemas/Simulacao" } } } },
      ...QUERY_ERRORS,
    },
  });

  const pathParam = (name: string, description: string, values: readonly string[]): Obj => ({
    name,
    in: "path",
    required: true,
    description,
    schema: { type: "string", enum: [...values] },
  });

  return {
    openapi: "3.1.0",
    info: {
      title: `${PROJECT_NAME} API`,
      version: "1.0.0",
      summary: `Preços de referência de ${nomesDosProdutos()} como JSON estático e aberto.`,
      description:
        "Arquivos JSON e CSV estáticos, reconstruídos a cada coleta e publicados no GitHub Pages (espelho no jsDelivr). " +
        "Cada arquivo é validado pelos JSON Schemas de /schemas/ antes de ser publicado; esta descrição os referencia. " +
        "A interface de consulta (`/api/v1/cotacao`, `/api/v1/historico`, `/api/v1/simulador`) existe no servidor local (`npm start`) e em implantações próprias.\n\n" +
        `Licença: ${licenseShort(SOURCES)}`,
      license: { name: "CC-BY-4.0 (compilação); dados sob os termos de cada fonte", identifier: "CC-BY-4.0" },
    },
    servers: [
      { url: SITE_URL.replace(/\/$/, ""), description: "GitHub Pages" },
      { url: JSDELIVR_URL.replace(/\/$/, ""), description: "Espelho jsDelivr (mesmos arquivos, do branch gh-pages)" },
      { url: LOCAL_URL.replace(/\/$/, ""), description: "Servidor local (`npm start`)" },
    ],
    security: [{}],
    tags: [
      { name: "Cotações", description: "Agregados: o último valor de cada produto." },
      { name: "Séries", description: "Uma série por produto e lugar, com todo o histórico, em JSON e CSV." },
      { name: "Catálogo", description: "O que existe, de onde vem, e em que estado está." },
      { name: "Eventos", description: "Mudanças de preço e atualizações, em JSON e Atom; também por webhook." },
      { name: "Consulta (servidor)", description: "A interface dinâmica do servidor local e de implantações próprias, com cota diária." },
    ],
    paths,
    components: {
      parameters: {
        // the products with a national (or single-place) series file
        produtoPath: pathParam("produto", "Produto com série nacional ou de local único.", PRODUTOS.filter((p) => allSeries().some((d) => d.produto === p && d.uf === null))),
        produtoUfPath: pathParam("produto", "Produto com séries estaduais.", produtosComUf()),
        ufPath: pathParam("uf", `UF com série estadual (${ufsPorProduto()}).`, [...ufsComSerie()].sort()),
        ufScotPath: pathParam("uf", `UF coberta pela ${fontesDoAgregadoUf()}.`, ufsDoAgregado()),
        ufQuery: { name: "uf", in: "query", required: false, description: "Sigla da UF (ex.: MS).", schema: ref("common.schema.json", "/$defs/uf") },
        produtoQuery: { name: "produto", in: "query", required: false, description: "Produto.", schema: ref("common.schema.json", "/$defs/produto") },
      },
      securitySchemes: {
        apiKey: { type: "apiKey", in: "header", name: "X-API-Key", description: "Chave configurada no servidor (COTACAO_API_KEYS): 10.000 requisições por dia em vez de 100." },
      },
      schemas: {
        RateLimit: {
          type: "object",
          description: "Cota do dia para quem fez a requisição.",
          required: ["diario", "restante"],
          properties: { diario: { type: "integer", description: "Requisições por dia." }, restante: { type: "integer", description: "Restantes hoje." } },
        },
        Erro: {
          type: "object",
          description: "Erro em JSON: código estável e mensagem em português (nunca HTML nem pilha de chamadas).",
          required: ["erro", "mensagem"],
          properties: {
            erro: { type: "string", description: "Código estável do erro." },
            mensagem: { type: "string", description: "Mensagem em português." },
          },
        },
        CotacaoConsulta: queryShape("cotacao.schema.json", files.get("schemas/cotacao.schema.json"), [], "O agregado de cotacao.json (ou cotacao/uf/{UF}.json com ?uf), mais rate_limit."),
        SerieConsulta: queryShape("serie.schema.json", files.get("schemas/serie.schema.json"), ["historico"], "A cotação única de cotacao/{produto}[/{UF}].json sem o historico, mais rate_limit."),
        HistoricoConsulta: {
          type: "object",
          description: "Um trecho do histórico de uma série.",
          required: ["produto", "uf", "historico"],
          properties: {
            produto: ref("common.schema.json", "/$defs/produto"),
            uf: { anyOf: [ref("common.schema.json", "/$defs/uf"), { type: "null" }] },
            historico: { type: "array", items: ref("common.schema.json", "/$defs/historicoEntrada") },
            rate_limit: { $ref: "#/components/schemas/RateLimit" },
          },
        },
        Simulacao: {
          type: "object",
          description: "Resultado da simulação de venda; valores em R$ com duas casas.",
          required: ["entrada", "preco", "quantidade", "bruto", "deducoes", "liquido"],
          properties: {
            entrada: { type: "object", description: "As entradas, validadas e normalizadas." },
            preco: { type: "object", description: "O preço usado: da série publicada (`origem: serie`) ou informado (`origem: informado`)." },
            quantidade: { type: "object", description: "Cabeças, peso vivo total, arrobas ou sacas, e a base que o preço multiplica." },
            bruto: ref("common.schema.json", "/$defs/dinheiro"),
            deducoes: { type: "object", description: "Funrural, comissão, frete e total." },
            liquido: ref("common.schema.json", "/$defs/dinheiro"),
            liquido_por_unidade: { anyOf: [ref("common.schema.json", "/$defs/dinheiro"), { type: "null" }] },
            observacoes: { type: "array", items: { type: "string" } },
          },
        },
      },
    },
  };
}

export function renderOpenApi(files: ReadonlyMap<string, string>): string {
  return stringifyDoc(buildOpenApi(files));
}
