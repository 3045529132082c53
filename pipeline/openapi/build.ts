/**
 * api/v1/openapi.json (OpenAPI 3.1): every static file of the site and the query interface of
 * the local/self-hosted server. The JSON Schemas of /schemas/ are bundled into
 * components/schemas (every $ref rewritten to "#/components/schemas/...", no external refs), so
 * code generators and linters resolve them without fetching anything; the query interface's
 * shapes are built from $refs into the same components. Examples come from the fixed sample in
 * exemplos.json (exemplos.ts), never from the run's data: a data-only run leaves this file
 * byte-identical. Every operation carries x-codeSamples (curl, JavaScript fetch, Python requests).
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
import { lerAmostra, type Amostra } from "./exemplos.ts";
import { JSDELIVR_URL, LOCAL_URL, SITE_URL } from "./servers.ts";
import { nomeDoTipo as pascal } from "../contract/nome-do-tipo.ts";

export const OPENAPI_PATH = "api/v1/openapi.json";

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

const COMUM = "common.schema.json";

/**
 * The published schemas as components: a file's root under its file's name (Serie), a
 * definition of common.schema.json under its key (HistoricoEntrada), another file's definition
 * under its key unless that name is taken or too short (eventos' "serie" -> EventosSerie): the
 * same names as the generated TypeScript types. `ref(file, pointer)` is where a pointer into a
 * schema file now lives.
 */
export function bundleSchemas(files: ReadonlyMap<string, string>): { schemas: Map<string, Obj>; ref: (file: string, pointer?: string) => Obj } {
  const docs = new Map<string, Obj>();
  for (const [k, text] of files) {
    const m = /^schemas\/([^/]+\.schema\.json)$/.exec(k);
    if (m) docs.set(m[1]!, JSON.parse(text) as Obj);
  }
  const order = [...docs.keys()].sort((a, b) => (a === COMUM ? -1 : b === COMUM ? 1 : a < b ? -1 : a > b ? 1 : 0));
  const nome = new Map<string, string>(); // "file#key" ("file#" for the root) -> component name
  const usados = new Set<string>();
  const put = (chave: string, n: string) => {
    if (usados.has(n)) throw new Error(`[openapi] o nome de componente ${n} (${chave}) já é usado`);
    usados.add(n);
    nome.set(chave, n);
  };
  const defsOf = (file: string) => Object.keys(isObj(docs.get(file)?.$defs) ? (docs.get(file)!.$defs as Obj) : {});
  for (const key of defsOf(COMUM)) put(`${COMUM}#${key}`, pascal(key));
  for (const file of order) if (file !== COMUM) put(`${file}#`, pascal(file));
  for (const file of order) {
    if (file === COMUM) continue;
    for (const key of defsOf(file)) {
      const curto = pascal(key);
      put(`${file}#${key}`, usados.has(curto) || curto.length < 4 ? pascal(file) + curto : curto);
    }
  }
  const alvo = (file: string, pointer: string): string => {
    const d = /^\/\$defs\/([^/]+)(.*)$/.exec(pointer);
    const n = d ? nome.get(`${file}#${d[1]}`) : nome.get(`${file}#`);
    if (!n) throw new Error(`[openapi] $ref sem destino: ${file}#${pointer}`);
    return `#/components/schemas/${n}${d ? d[2] : pointer}`;
  };
  const reescrever = (node: Json, file: string): Json => {
    if (Array.isArray(node)) return node.map((n) => reescrever(n, file));
    if (!isObj(node)) return node;
    const out: Obj = {};
    for (const [k, v] of Object.entries(node)) {
      // $id would make tools resolve the rewritten refs against the schema's old file name
      if (k === "$id" || k === "$schema" || k === "$defs") continue;
      if (k === "$ref" && typeof v === "string") {
        const m = /^([^#]*)#?(.*)$/.exec(v)!;
        out[k] = alvo(m[1] || file, m[2] ?? "");
      } else out[k] = k === "properties" && isObj(v) ? Object.fromEntries(Object.entries(v).map(([p, x]) => [p, reescrever(x, file)])) : reescrever(v, file);
    }
    return out;
  };
  const schemas = new Map<string, Obj>();
  for (const [chave, n] of nome) {
    const [file, key] = chave.split("#") as [string, string];
    const doc = docs.get(file)!;
    schemas.set(n, reescrever(key ? ((doc.$defs as Obj)[key] as Json) : doc, file) as Obj);
  }
  return { schemas, ref: (file, pointer = "") => ({ $ref: alvo(file, pointer) }) };
}

/** The component names a document reaches through "#/components/schemas/X" refs, transitively. */
function alcancados(doc: Json, schemas: ReadonlyMap<string, Json>): Set<string> {
  const vistos = new Set<string>();
  const fila: Json[] = [doc];
  while (fila.length > 0) {
    JSON.stringify(fila.pop(), (k, v) => {
      const m = k === "$ref" && typeof v === "string" ? /^#\/components\/schemas\/([^/]+)/.exec(v) : null;
      if (m && !vistos.has(m[1]!)) {
        vistos.add(m[1]!);
        if (schemas.has(m[1]!)) fila.push(schemas.get(m[1]!)!);
      }
      return v;
    });
  }
  return vistos;
}

type CodeSample = { lang: string; label: string; source: string };

/** x-codeSamples: the same GET as curl, JavaScript fetch and Python requests. */
function codeSamples(url: string, kind: "json" | "text", comChave = false): CodeSample[] {
  const chaveCurl = comChave ? ` \\\n  -H "X-API-Key: $COTACAO_API_KEY"   # opcional: cota maior` : "";
  const chaveJs = comChave ? `, {\n  headers: { "X-API-Key": process.env.COTACAO_API_KEY }, // opcional: cota maior\n}` : "";
  const chavePy = comChave ? `,\n    headers={"X-API-Key": os.environ["COTACAO_API_KEY"]},  # opcional: cota maior` : "";
  const ler = kind === "json" ? "await r.json()" : "await r.text()";
  return [
    { lang: "Shell", label: "curl", source: `curl -sf "${url}"${chaveCurl}` },
    {
      lang: "JavaScript",
      label: "fetch",
      source: `const r = await fetch("${url}"${chaveJs});\nif (!r.ok) throw new Error(\`HTTP \${r.status}\`);\nconst dados = ${ler};`,
    },
    {
      lang: "Python",
      label: "requests",
      source: `${comChave ? "import os\n" : ""}import requests\n\nr = requests.get(\n    "${url}"${chavePy},\n    timeout=30,\n)\nr.raise_for_status()\ndados = ${kind === "json" ? "r.json()" : "r.text"}`,
    },
  ];
}

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

function example(summary: string, value: Json | undefined): Obj {
  return value === undefined ? {} : { examples: { amostra: { summary, value } } };
}

/** Mark a static path as served by every mirror (the default servers). `url` is a concrete example, for x-codeSamples. */
function staticGet(opts: { id: string; summary: string; description: string; tag: string; params?: Json[]; content: Obj; url: string }): Obj {
  const kind = Object.keys(opts.content).some((t) => t.includes("json")) ? "json" : "text";
  const op: Obj = {
    operationId: opts.id,
    summary: opts.summary,
    description: opts.description,
    tags: [opts.tag],
    "x-codeSamples": codeSamples(new URL(opts.url.replace(/^\//, ""), SITE_URL).href, kind),
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
  "X-RateLimit-Remaining": { description: "Requisições restantes hoje (zera às 00:00 UTC). Só respostas 200 e 304 consomem a cota; erros não.", schema: { type: "integer" } },
  "X-Cotacao-Parametros-Ignorados": {
    description:
      "Parâmetros desconhecidos recebidos e ignorados (ex.: o cache buster `_`), separados por vírgula, com percent-encoding fora do ASCII: `_,cidade`. Ausente quando não há nenhum. Parâmetros conhecidos malformados ou repetidos continuam dando 400.",
    schema: { type: "string" },
  },
  ETag: { description: "Validador do conteúdo; envie em If-None-Match para receber 304.", schema: { type: "string" } },
  "Cache-Control": { description: "public, max-age=1800", schema: { type: "string" } },
};

function erro(description: string): Obj {
  return { description, headers: RATE_HEADERS, content: { "application/json": { schema: { $ref: "#/components/schemas/Erro" } } } };
}

export const ROMANEIO_PATH = "/api/v1/romaneio";

/** x-codeSamples of the romaneio upload: the file as the raw body (curl, fetch) and as a form (requests). */
function romaneioSamples(url: string): CodeSample[] {
  return [
    {
      lang: "Shell",
      label: "curl",
      source: `curl -s "${url}" \\
  -H "X-API-Key: $COTACAO_ROMANEIO_KEY" \\
  -H "Content-Type: image/png" \\
  --data-binary @romaneio.png
# ou como formulário: -F "arquivo=@romaneio.pdf;type=application/pdf"`,
    },
    {
      lang: "JavaScript",
      label: "fetch",
      source: `import { readFile } from "node:fs/promises";\n\nconst r = await fetch("${url}", {\n  method: "POST",\n  headers: { "X-API-Key": process.env.COTACAO_ROMANEIO_KEY, "Content-Type": "image/png" },\n  body: await readFile("romaneio.png"),\n});\nconst romaneio = await r.json();\nconsole.log(romaneio.leitura.totais, romaneio.comparacao.referencias);`,
    },
    {
      lang: "Python",
      label: "requests",
      source: `import os\nimport requests\n\nwith open("romaneio.pdf", "rb") as f:\n    r = requests.post(\n        "${url}",\n        headers={"X-API-Key": os.environ["COTACAO_ROMANEIO_KEY"]},\n        files={"arquivo": ("romaneio.pdf", f, "application/pdf")},\n    )\nromaneio = r.json()\nprint(romaneio["leitura"]["avisos"])`,
    },
  ];
}

/** POST /api/v1/romaneio: the upload, its key and quota, every answer. */
function romaneioPath(ref: (file: string, pointer?: string) => Obj): Obj {
  const arquivo = { type: "string", contentMediaType: "application/octet-stream", description: "Os bytes do arquivo." };
  const comRetry = (description: string, retry: string): Obj => ({
    description,
    headers: { ...RATE_HEADERS, "Retry-After": { description: retry, schema: { type: "integer" } } },
    content: { "application/json": { schema: { $ref: "#/components/schemas/Erro" } } },
  });
  return {
    servers: [{ url: LOCAL_URL.replace(/\/$/, ""), description: "Implantação própria (`npm start` com COTACAO_ROMANEIO_KEYS): a leitura de romaneio só existe nela" }],
    post: {
      tags: ["Romaneio (servidor, beta)"],
      operationId: "lerRomaneio",
      summary: "Leitura de um romaneio (beta)",
      description:
        "Lê por OCR (Tesseract, português) um romaneio de abate (gado) ou de carga (grãos), em PNG, JPEG, WebP ou PDF (com camada de texto, ou escaneado): " +
        "data, partes, linhas, totais, deduções, a confiança de cada campo e as conferências que falharam (linhas × totais, arrobas = kg ÷ 15, bruto = quantidade × preço, líquido = bruto − deduções). " +
        "Compara o preço com a referência publicada do dia (estadual e nacional) e com o simulador. " +
        "O arquivo vai como corpo com o seu Content-Type, ou no campo `arquivo` de `multipart/form-data`; o tipo real é conferido pelos primeiros bytes. " +
        "Limite de 10 MB por requisição (COTACAO_ROMANEIO_MAX_MB) e de 60 s por leitura (COTACAO_ROMANEIO_TEMPO_S). " +
        "Só com uma chave com permissão de romaneio (COTACAO_ROMANEIO_KEYS), que tem cota própria (padrão 50 leituras por dia, COTACAO_ROMANEIO_COTA_DIARIA), separada da cota de consultas: " +
        "uma unidade é reservada logo antes do OCR (duas leituras nunca disputam a última unidade) e só é devolvida quando o motor não chegou a trabalhar no arquivo (503 `ocupado`); " +
        "uma falha depois de o motor começar conta (422 do motor, 504, 500), e o que pode ser recusado sem decodificar (400, 408, 413, 415, o 422 do cabeçalho da imagem e da imagem grande demais) é recusado antes da reserva e não conta. " +
        "No máximo 2 leituras da mesma chave ao mesmo tempo por processo do servidor, do envio ao fim (COTACAO_ROMANEIO_SIMULTANEAS; num cluster, esse número em cada worker): além disso, 429 `leituras_simultaneas`. " +
        "O envio tem pelo menos 120 s para chegar inteiro (mais com um limite de tamanho maior). " +
        "O arquivo nunca é gravado em disco nem registrado em log. `Cache-Control: no-store`.",
      security: [{ apiKeyRomaneio: [] }],
      requestBody: {
        required: true,
        description: "O arquivo do romaneio.",
        content: {
          "image/png": { schema: arquivo },
          "image/jpeg": { schema: arquivo },
          "image/webp": { schema: arquivo },
          "application/pdf": { schema: arquivo },
          "multipart/form-data": {
            schema: { type: "object", required: ["arquivo"], properties: { arquivo: { ...arquivo, description: "O arquivo (PNG, JPEG, WebP ou PDF)." } } },
            encoding: { arquivo: { contentType: "image/png, image/jpeg, image/webp, application/pdf, application/octet-stream" } },
          },
        },
      },
      responses: {
        "200": {
          description: "O romaneio lido e comparado, com a cota de leituras da chave em `rate_limit` e nos cabeçalhos X-RateLimit-*.",
          headers: { ...RATE_HEADERS, "Cache-Control": { description: "no-store", schema: { type: "string" } } },
          content: { "application/json": { schema: ref("romaneio.schema.json") } },
        },
        "400": erro(
          "Corpo vazio (`corpo_vazio`), multipart malformado (`multipart_invalido`), com mais de 16 partes (`multipart_partes_demais`) ou sem o campo `arquivo` como arquivo (`campo_ausente`), ou envio interrompido no meio (`envio_interrompido`). Não consome a cota.",
        ),
        "401": erro("Sem X-API-Key, ou chave desconhecida. Não consome a cota."),
        "403": erro("Chave válida para as consultas, mas sem permissão de leitura de romaneio (não está em COTACAO_ROMANEIO_KEYS). Não consome a cota."),
        "405": erro("Método diferente de POST ou OPTIONS."),
        "408": erro("O arquivo não chegou inteiro no tempo do envio (`tempo_de_envio_esgotado`: pelo menos 120 s). Não consome a cota."),
        "413": erro("Arquivo maior que o limite (`arquivo_grande_demais`, com `limite_bytes`; 10 MB por padrão), pelo Content-Length ou contado durante o envio; a conexão é fechada sem ler o resto. Não consome a cota."),
        "415": erro("Tipo não aceito (`tipo_nao_aceito`, com a lista `aceitos`): Content-Type ausente ou diferente de PNG, JPEG, WebP, PDF e multipart/form-data, ou bytes que não são do tipo declarado. Não consome a cota."),
        "422": erro(
          "Arquivo do tipo certo mas ilegível. Antes do OCR, sem consumir a cota: imagem com cabeçalho ilegível (`arquivo_invalido`) ou grande demais (`imagem_grande_demais`: mais de 50 megapixels; traz `largura`, `altura` e `pixels_maximos`). " +
            "Pelo motor, depois de começar a decodificar, consumindo a unidade: imagem corrompida ou truncada (`arquivo_invalido`), PDF corrompido, truncado, sem páginas, protegido ou com imagem grande demais (`pdf_invalido`). A mensagem diz o motivo.",
        ),
        "429": comRetry(
          "Cota diária de leituras de romaneio da chave esgotada (`limite_excedido`; a cota de consultas não é afetada), ou a chave já tem 2 leituras em andamento neste processo (`leituras_simultaneas`, com `simultaneas`; COTACAO_ROMANEIO_SIMULTANEAS). Nenhum dos dois consome a cota.",
          "Segundos até a cota zerar (00:00 UTC), ou 5 quando são leituras simultâneas demais.",
        ),
        "500": erro("Falha do próprio servidor (`erro_interno`), por exemplo do motor de OCR; o registro do servidor nomeia só a requisição, nunca o conteúdo. Consome a unidade: o arquivo pode ter sido lido por inteiro antes da falha."),
        "503": comRetry(
          "Todos os leitores de OCR ocupados e a fila cheia (`ocupado`: o motor recusou o arquivo sem trabalhar nele, e a unidade é devolvida), o motor de OCR do servidor sem conseguir iniciar (`ocr_indisponivel`: falha do servidor, a unidade é devolvida), ou o contador da cota indisponível (`cota_indisponivel`). Não consome a cota.",
          "Segundos até tentar de novo (5 quando ocupado, 60 com o motor indisponível, 30 sem contador).",
        ),
        "504": erro("A leitura passou do tempo limite (`tempo_esgotado`; 60 s por padrão, COTACAO_ROMANEIO_TEMPO_S). Consome a unidade: o motor trabalhou o tempo todo."),
      },
      "x-codeSamples": romaneioSamples(new URL(ROMANEIO_PATH.replace(/^\//, ""), LOCAL_URL).href),
    },
  };
}

/** Only the query routes have a quota: errors (4xx other than 429, 5xx) do not consume it. */
const QUERY_ERRORS: Obj = {
  "304": { description: "Não modificado (If-None-Match igual ao ETag; o ETag da consulta não muda com o contador da cota)." },
  "400": erro("Parâmetro conhecido malformado (uf, produto ou outro) ou repetido; a mensagem lista os valores válidos. Parâmetros desconhecidos não dão erro: são ignorados e listados em `X-Cotacao-Parametros-Ignorados`. Não consome a cota."),
  "401": erro("X-API-Key desconhecida (só nas rotas de consulta: os arquivos estáticos ignoram a chave). Não consome a cota."),
  "404": erro("Cotação única (`produto` com `uf`) de uma série que não existe. Uma série nacional responde pela própria UF (`?produto=bezerro&uf=MS`). Não consome a cota."),
  "405": erro("Método diferente de GET, HEAD ou OPTIONS."),
  "414": erro("Consulta longa demais."),
  "431": { description: "Cabeçalhos grandes demais (recusados pelo servidor HTTP antes da aplicação)." },
  "429": {
    description:
      "Cota diária esgotada (`limite_excedido`), ou, num servidor próprio com vários processos (`--workers` ou várias instâncias com Redis), as consultas que restam à chave estão reservadas em lotes por outros processos (`cota_em_uso`, com `limite` e `tente_de_novo_em`): as não usadas voltam em até 1 s.",
    headers: { ...RATE_HEADERS, "Retry-After": { description: "Segundos até a cota zerar (00:00 UTC); 1 com `cota_em_uso`.", schema: { type: "integer" } } },
    content: { "application/json": { schema: { $ref: "#/components/schemas/Erro" } } },
  },
  "503": {
    description: "Contador da cota indisponível: servidor próprio com `COTACAO_REDIS_FALHA=fechar` e o Redis fora do ar. Não consome a cota; os arquivos estáticos continuam servidos.",
    headers: { ...RATE_HEADERS, "Retry-After": { description: "Segundos até tentar de novo (30).", schema: { type: "integer" } } },
    content: { "application/json": { schema: { $ref: "#/components/schemas/Erro" } } },
  },
};

/** Every property of a published schema by $ref, minus some, plus rate_limit: the query answers. */
function queryShape(ref: (file: string, pointer?: string) => Obj, schemaFile: string, schemaText: string | undefined, omit: string[], description: string): Obj {
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

/**
 * The description, from the schemas of the same render (files: the site's files, of which only
 * schemas/ is read) and the fixed sample of examples (never the run's data).
 */
export function buildOpenApi(files: ReadonlyMap<string, string>, amostra: Amostra = lerAmostra()): Obj {
  const { schemas: bundled, ref } = bundleSchemas(files);
  const cotacao = amostra["api/v1/cotacao.json"];
  const cotacaoSP = amostra["api/v1/cotacao/uf/SP.json"];
  // the catalogue's example series: one national, one state with several praças
  const nac = EXEMPLOS.nacional;
  const est = EXEMPLOS.estadual;
  const [estProduto, estUf] = est.split("/") as [string, string];
  const boi = amostra[`api/v1/cotacao/${nac}.json`];
  const boiMT = amostra[`api/v1/cotacao/${est}.json`];
  const schemaNames = [...files.keys()].filter((k) => /^schemas\/[^/]+\.schema\.json$/.test(k)).map((k) => k.slice("schemas/".length)).sort();
  const historicoSlice = isObj(boi) && Array.isArray(boi.historico) ? boi.historico : undefined;
  const texto = (k: string): string | undefined => (typeof amostra[k] === "string" ? (amostra[k] as string) : undefined);
  // a series document, whole (cotacao/) or its last year (recente/): one schema, one sample
  const serieGet = (dir: "cotacao" | "recente", id: string, valor: Json | undefined, op: { id: string; summary: string; description: string; params: Json[] }) =>
    staticGet({
      ...op,
      tag: "Séries",
      url: `/api/v1/${dir}/${id}.json`,
      content: { "application/json": { schema: ref("serie.schema.json"), ...example(`Amostra de ${dir}/${id}.json (histórico cortado em 3 dias)`, valor) } },
    });

  const paths: Obj = {
    "/api/v1/cotacao.json": staticGet({
      id: "getCotacao",
      summary: "Cotação agregada (referências nacionais)",
      description: "Os últimos valores das referências nacionais de cada produto, com o dia de cada um (`datas`): produtos diferentes podem ser de dias diferentes.",
      tag: "Cotações",
      url: "/api/v1/cotacao.json",
      content: { "application/json": { schema: ref("cotacao.schema.json"), ...example("Amostra de cotacao.json", cotacao) } },
    }),
    "/api/v1/cotacao/uf/{uf}.json": staticGet({
      id: "getCotacaoUf",
      summary: "Cotação agregada com o boi e a vaca gorda de uma UF",
      description: "O agregado nacional mais `boi_gordo_uf` e `vaca_gorda_uf` (praça de referência da UF, Scot Consultoria).",
      tag: "Cotações",
      params: [P.ufScot],
      url: "/api/v1/cotacao/uf/SP.json",
      content: { "application/json": { schema: ref("cotacao.schema.json"), ...example("Amostra de cotacao/uf/SP.json", cotacaoSP) } },
    }),
    "/api/v1/cotacao/{produto}.json": serieGet("cotacao", nac, boi, {
      id: "getSerie",
      summary: "Série nacional de um produto, com todo o histórico",
      description: "A cotação de referência nacional do produto e o `historico` inteiro (um dia por linha, do mais antigo ao mais novo).",
      params: [P.produto],
    }),
    "/api/v1/cotacao/{produto}/{uf}.json": serieGet("cotacao", est, boiMT, {
      id: "getSerieUf",
      summary: "Série estadual de um produto, com as praças e todo o histórico",
      description: "A cotação da praça de referência da UF (`praca`), todas as praças da UF no último dia (`pracas`) e o `historico` inteiro.",
      params: [P.produtoUf, P.uf],
    }),
    "/api/v1/recente/{produto}.json": serieGet("recente", nac, boi, {
      id: "getSerieRecente",
      summary: "Série nacional de um produto, só o último ano",
      description:
        "O mesmo documento de `cotacao/{produto}.json` (mesmo schema, mesma cotação do dia, `variacao` e `bordao`), com o `historico` cortado aos dias a partir de 366 dias antes do último dia (e ao menos os dois últimos). Para um gráfico de 30 dias ou de um ano sem baixar décadas de histórico; o histórico inteiro continua em `cotacao/{produto}.json`.",
      params: [P.produto],
    }),
    "/api/v1/recente/{produto}/{uf}.json": serieGet("recente", est, boiMT, {
      id: "getSerieUfRecente",
      summary: "Série estadual de um produto, com as praças e só o último ano",
      description:
        "O mesmo documento de `cotacao/{produto}/{uf}.json` (praça de referência, todas as praças do último dia), com o `historico` cortado aos dias a partir de 366 dias antes do último dia (e ao menos os dois últimos).",
      params: [P.produtoUf, P.uf],
    }),
    "/api/v1/historico/{produto}.csv": staticGet({
      id: "getHistoricoCsv",
      summary: "Histórico nacional em CSV",
      description: "O mesmo histórico de `cotacao/{produto}.json`, em CSV (UTF-8, separador vírgula, ponto decimal, uma linha por dia).",
      tag: "Séries",
      params: [P.produto],
      url: `/api/v1/historico/${nac}.csv`,
      content: { "text/csv": { schema: { type: "string" }, ...example(`Amostra do início de historico/${nac}.csv`, texto(`api/v1/historico/${nac}.csv`)) } },
    }),
    "/api/v1/historico/{produto}/{uf}.csv": staticGet({
      id: "getHistoricoUfCsv",
      summary: "Histórico estadual em CSV",
      description: "O mesmo histórico de `cotacao/{produto}/{uf}.json`, em CSV.",
      tag: "Séries",
      params: [P.produtoUf, P.uf],
      url: `/api/v1/historico/${est}.csv`,
      content: { "text/csv": { schema: { type: "string" }, ...example(`Amostra do início de historico/${est}.csv`, texto(`api/v1/historico/${est}.csv`)) } },
    }),
    "/api/v1/index.json": staticGet({
      id: "getIndice",
      summary: "Catálogo de séries, fontes e licenças",
      description: "Cada série com caminho (o JSON completo em `path`, o último ano em `recente`, os CSVs), produto, UF, praça, fonte, unidade, primeira e última data, número de pontos e licença.",
      tag: "Catálogo",
      url: "/api/v1/index.json",
      content: { "application/json": { schema: ref("index.schema.json"), ...example("Amostra de index.json (3 séries)", amostra["api/v1/index.json"]) } },
    }),
    "/api/v1/status.json": staticGet({
      id: "getStatus",
      summary: "Situação das fontes e das séries",
      description: "Por fonte e página: última tentativa e último sucesso, estado (ok, stale, blocked, failed, disabled) e motivo; por série: a última data.",
      tag: "Catálogo",
      url: "/api/v1/status.json",
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
      url: "/api/v1/capturas/2026.json",
      // no example: the log grows with every run that brings data, and openapi.json must not change with it
      content: { "application/json": { schema: ref("capturas.schema.json") } },
    }),
    [`/${EVENTOS_PATH}`]: staticGet({
      id: "getEventos",
      summary: "Eventos recentes (mudanças de preço, revisões, atualizações)",
      description:
        "Os eventos mais recentes, do mais novo para o mais antigo, com ids estáveis. Os mesmos objetos são enviados por POST aos webhooks de `webhooks.json`, assinados segundo o Standard Webhooks (cabeçalhos `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>`; `X-Cotacao-Signature: sha256=<hex>` ainda vai, obsoleto, até a versão 2.0).",
      tag: "Eventos",
      url: `/${EVENTOS_PATH}`,
      content: { "application/json": { schema: ref("eventos.schema.json"), ...example("Amostra de eventos.json (3 eventos)", amostra[EVENTOS_PATH]) } },
    }),
    [`/${FEED_PATH}`]: staticGet({
      id: "getFeed",
      summary: "Feed Atom dos eventos",
      description: "Os mesmos eventos de `eventos.json` como feed Atom (RFC 4287), em português, para leitores de feed.",
      tag: "Eventos",
      url: `/${FEED_PATH}`,
      content: { "application/atom+xml": { schema: { type: "string" }, ...example("Amostra do início do feed (primeira entrada)", texto(FEED_PATH)) } },
    }),
    [`/${OPENAPI_PATH}`]: staticGet({
      id: "getOpenApi",
      summary: "Esta descrição (OpenAPI 3.1)",
      description: "A descrição OpenAPI 3.1 da API; a página /docs/ a apresenta.",
      tag: "Catálogo",
      url: `/${OPENAPI_PATH}`,
      content: { "application/json": { schema: { type: "object" } } },
    }),
    "/api/v1/client.js": staticGet({
      id: "getClient",
      summary: "Cliente JavaScript (módulo ES)",
      description:
        "`import { createClient } from \"<site>/api/v1/client.js\"`: tenta os espelhos em ordem (GitHub Pages, jsDelivr) com tempo limite e confere a forma do JSON. Tipos em `client.d.ts`.",
      tag: "Catálogo",
      url: "/api/v1/client.js",
      content: { "text/javascript": { schema: { type: "string" } } },
    }),
    "/api/v1/client.d.ts": staticGet({
      id: "getClientTypes",
      summary: "Tipos TypeScript do cliente",
      description: "Declarações de tipos de `client.js`.",
      tag: "Catálogo",
      url: "/api/v1/client.d.ts",
      content: { "application/typescript": { schema: { type: "string" } } },
    }),
    "/schemas/{schema}": staticGet({
      id: "getSchema",
      summary: "JSON Schema (2020-12) dos arquivos",
      description: "Os schemas que validam cada arquivo publicado, antes de cada publicação.",
      tag: "Catálogo",
      params: [{ name: "schema", in: "path", required: true, description: "Nome do arquivo do schema.", schema: { type: "string", enum: schemaNames } }],
      url: "/schemas/serie.schema.json",
      content: { "application/schema+json": { schema: { type: "object" } } },
    }),
  };

  // the CSV variants and the long file (render/csv.ts, render/datapackage.ts)
  const variante = " Ao lado, a variante para o Excel em português (`.excel.csv`: `;`, vírgula decimal, UTF-8 com BOM, CRLF).";
  for (const k of ["/api/v1/historico/{produto}.csv", "/api/v1/historico/{produto}/{uf}.csv"]) {
    const op = (paths[k] as Obj).get as Obj;
    op.description = `${op.description as string}${variante}`;
  }
  paths["/api/v1/historico/{produto}/{uf}.pracas.csv"] = staticGet({
    id: "getPracasCsv",
    summary: "Todas as praças de uma UF em CSV",
    description: `Uma linha por praça por dia da série estadual (data, praça, valor, unidade...).${variante}`,
    tag: "Séries",
    params: [P.produtoUf, P.uf],
    url: `/api/v1/historico/${est}.pracas.csv`,
    content: { "text/csv": { schema: { type: "string" } } },
  });
  // the Excel-BR copy beside each CSV: a path of its own, so a tool that lists the API finds it
  const excel: Array<[string, string, string, Json[], string]> = [
    ["/api/v1/historico/{produto}.csv", "getHistoricoCsvExcel", "Histórico nacional em CSV, para o Excel", [P.produto], nac],
    ["/api/v1/historico/{produto}/{uf}.csv", "getHistoricoUfCsvExcel", "Histórico estadual em CSV, para o Excel", [P.produtoUf, P.uf], est],
    ["/api/v1/historico/{produto}/{uf}.pracas.csv", "getPracasCsvExcel", "Todas as praças de uma UF em CSV, para o Excel", [P.produtoUf, P.uf], `${est}.pracas`],
  ];
  for (const [k, id, summary, params, exemplo] of excel) {
    paths[k.replace(/\.csv$/, ".excel.csv")] = staticGet({
      id,
      summary,
      description: `O mesmo \`${k.slice("/api/v1/".length)}\` para o Excel em português: \`;\`, vírgula decimal, UTF-8 com BOM, CRLF.`,
      tag: "Séries",
      params,
      url: `/api/v1/historico/${exemplo}.excel.csv`,
      content: { "text/csv": { schema: { type: "string" } } },
    });
  }
  paths["/api/v1/historico.csv"] = staticGet({
    id: "getHistoricoLongo",
    summary: "Todas as séries num só CSV (formato longo)",
    description: "Uma linha por série por dia (série, produto, UF, praça, fonte, unidade, data, valor...): carrega tudo de uma vez no pandas, no R ou no DuckDB. Sem variante para o Excel: com décadas de histórico passa do limite de linhas de uma planilha (use os CSV de cada série).",
    tag: "Séries",
    url: "/api/v1/historico.csv",
    content: { "text/csv": { schema: { type: "string" } } },
  });
  paths["/api/v1/datapackage.json"] = staticGet({
    id: "getDatapackage",
    summary: "Descritor Frictionless Data Package dos CSVs",
    description: "Cada CSV como recurso, com o Table Schema de cada um e as licenças de cada fonte (Frictionless Data Package).",
    tag: "Catálogo",
    url: "/api/v1/datapackage.json",
    content: { "application/json": { schema: { type: "object" } } },
  });

  const localOnly = [{ url: LOCAL_URL.replace(/\/$/, ""), description: "Servidor local (`npm start`) ou implantação própria: a interface de consulta só existe nele" }];
  const query = (exemplo: string, op: Obj): Obj => ({
    servers: localOnly,
    get: { tags: ["Consulta (servidor)"], security: [{}, { apiKey: [] }], ...op, "x-codeSamples": codeSamples(new URL(exemplo.replace(/^\//, ""), LOCAL_URL).href, "json", true) },
  });

  paths["/api/v1/cotacao"] = query(`/api/v1/cotacao?produto=${estProduto}&uf=${estUf}`, {
    operationId: "consultarCotacao",
    summary: "Cotação agregada ou de um produto",
    description:
      `Sem parâmetros: o agregado. \`?uf=MS\`: o agregado com ${agregadosUf().map((a) => `\`${a.chave}\``).join(" e ")}; ` +
      `uma UF válida sem série estadual (ex.: \`?uf=PI\`) responde 200 com o agregado e ${agregadosUf().map((a) => `\`${a.chave}: null\``).join(" e ")}, e o cabeçalho \`X-Cotacao-Aviso\` diz por quê. ` +
      `\`?produto=soja\`: a cotação nacional do produto. \`?produto=${estProduto}&uf=${estUf}\`: a cotação estadual; uma série nacional também responde pela UF do seu indicador (\`?produto=bezerro&uf=MS\`). ` +
      "Parâmetros desconhecidos (como o cache buster `_`) são ignorados e listados em `X-Cotacao-Parametros-Ignorados`. Sem `historico`; com `rate_limit`.",
    parameters: [{ $ref: "#/components/parameters/ufQuery" }, { $ref: "#/components/parameters/produtoQuery" }],
    responses: {
      "200": {
        description: "Agregado (sem produto) ou cotação única (com produto).",
        headers: {
          ...RATE_HEADERS,
          "X-Cotacao-Aviso": {
            description: "Presente quando a resposta é válida mas incompleta: `sem-serie-estadual; uf=PI` quando a UF pedida não tem série estadual (os campos da UF vêm `null`); `cota-local; redis-indisponivel` quando um servidor próprio conta a cota localmente porque o Redis está fora do ar. Mais de um aviso vêm separados por \", \".",
            schema: { type: "string" },
          },
        },
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
  paths["/api/v1/historico"] = query(`/api/v1/historico?produto=${nac}&de=2026-01-01&ate=2026-06-30`, {
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
              ? { examples: { amostra: { summary: `GET /api/v1/historico?produto=${nac} (amostra de 3 dias)`, value: { produto: nac, uf: isObj(boi) ? (boi.uf ?? null) : null, historico: historicoSlice, rate_limit: { diario: 100, restante: 99 } } } } }
              : {}),
          },
        },
      },
      ...QUERY_ERRORS,
    },
  });
  const num = (description: string): Obj => ({ type: "string", pattern: "^\\d{1,3}(\\.\\d{3})*(,\\d+)?$|^\\d+([.,]\\d+)?$", description });
  paths["/api/v1/simulador"] = query(`/api/v1/simulador?produto=${nac}&uf=${estUf}&cabecas=100&peso_vivo_kg=540&rendimento_pct=52`, {
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

  paths[ROMANEIO_PATH] = romaneioPath(ref);

  const pathParam = (name: string, description: string, values: readonly string[]): Obj => ({
    name,
    in: "path",
    required: true,
    description,
    schema: { type: "string", enum: [...values] },
  });

  const doc: Obj = {
    openapi: "3.1.0",
    info: {
      title: `${PROJECT_NAME} API`,
      version: "1.0.0",
      summary: `Preços de referência de ${nomesDosProdutos()} como JSON estático e aberto.`,
      description:
        "Arquivos JSON e CSV estáticos, reconstruídos a cada coleta e publicados no GitHub Pages (espelho no jsDelivr). " +
        "Cada arquivo é validado pelos JSON Schemas de /schemas/ antes de ser publicado; esta descrição os referencia. " +
        "A interface de consulta (`/api/v1/cotacao`, `/api/v1/historico`, `/api/v1/simulador`) existe no servidor local (`npm start`) e em implantações próprias; só ela tem cota diária: " +
        "os arquivos estáticos não contam na cota (e ignoram `X-API-Key`), e respostas de erro não a consomem.\n\n" +
        "Os exemplos são uma amostra fixa de arquivos reais (não os dados do dia), para que esta descrição só mude quando a API mudar. " +
        "Os schemas de /schemas/ estão incluídos em `components/schemas`, sem referências externas.\n\n" +
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
      { name: "Romaneio (servidor, beta)", description: "Leitura de um romaneio (foto ou PDF) por OCR, comparada com a referência do dia; acesso sob pedido, em implantações próprias." },
    ],
    paths,
    components: {
      parameters: {
        // the products with a national (or single-place) series file
        produtoPath: pathParam("produto", "Produto com série nacional ou de local único.", PRODUTOS.filter((p) => allSeries().some((d) => d.produto === p && d.uf === null))),
        produtoUfPath: pathParam("produto", "Produto com séries estaduais.", produtosComUf()),
        ufPath: pathParam("uf", `UF com série estadual (${ufsPorProduto()}).`, [...ufsComSerie()].sort()),
        ufScotPath: pathParam("uf", `UF coberta pela ${fontesDoAgregadoUf()}.`, ufsDoAgregado()),
        ufQuery: {
          name: "uf",
          in: "query",
          required: false,
          description: "Sigla da UF (ex.: MS). Uma UF válida sem série estadual dá o agregado com os campos da UF `null` (sem `produto`) ou 404 (com `produto`, salvo a UF de uma série nacional).", schema: ref("common.schema.json", "/$defs/uf") },
        produtoQuery: { name: "produto", in: "query", required: false, description: "Produto.", schema: ref("common.schema.json", "/$defs/produto") },
      },
      securitySchemes: {
        apiKey: { type: "apiKey", in: "header", name: "X-API-Key", description: "Chave configurada no servidor (COTACAO_API_KEYS): 10.000 requisições por dia em vez de 100." },
        apiKeyRomaneio: {
          type: "apiKey",
          in: "header",
          name: "X-API-Key",
          description: "Chave com permissão de leitura de romaneio (listada em COTACAO_ROMANEIO_KEYS; acesso sob pedido). Vale também nas rotas de consulta.",
        },
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
        CotacaoConsulta: queryShape(ref, "cotacao.schema.json", files.get("schemas/cotacao.schema.json"), [], "O agregado de cotacao.json (ou cotacao/uf/{UF}.json com ?uf), mais rate_limit."),
        SerieConsulta: queryShape(ref, "serie.schema.json", files.get("schemas/serie.schema.json"), ["historico"], "A cotação única de cotacao/{produto}[/{UF}].json sem o historico, mais rate_limit."),
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
  // the bundled schemas the description reaches (directly or through each other), after its own components
  const own = (doc.components as Obj).schemas as Obj;
  const usados = alcancados(doc, new Map<string, Json>([...bundled, ...Object.entries(own)]));
  for (const [nome, schema] of bundled) {
    if (nome in own) throw new Error(`[openapi] o schema publicado ${nome} tem o nome de um componente da descrição`);
    if (usados.has(nome)) own[nome] = schema;
  }
  return doc;
}

export function renderOpenApi(files: ReadonlyMap<string, string>): string {
  return stringifyDoc(buildOpenApi(files));
}
