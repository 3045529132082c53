/**
 * public/docs/: the API reference, rendered in the browser by Redoc from api/v1/openapi.json.
 * The renderer is the standalone bundle of the `redoc` package (node_modules/redoc/bundles/),
 * copied next to the page with its license: no CDN at run time. It is loaded as a classic
 * script (it defines window.Redoc) and started from docs/init.js: the server (and any strict
 * host) sends `script-src 'self'`, so the page runs no inline script.
 *
 * Portuguese interface: Redoc has no locale, so (1) every label Redoc lets us set goes through
 * its `labels` option (ROTULOS_REDOC), and (2) the few strings it hard-codes ("Authorizations:",
 * "query Parameters", "Copy", the search box's placeholder...) are translated after rendering by
 * a small MutationObserver in init.js (TRADUCOES_DOM), which changes only text nodes' data and
 * placeholder attributes, so React's own nodes stay in place. A Redoc upgrade that renames one
 * of those strings leaves it in English; test/openapi/docs.browser.test.ts lists what is left.
 *
 * Weight: the bundle is about 1.1 MB, 0.33 MB gzipped; GitHub Pages gzips JavaScript, JSON and
 * HTML on the fly, so the page costs about 0.36 MB on the wire (test/openapi measures it).
 */
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { REPO_ROOT } from "../config.ts";
import { PipelineError } from "../domain/errors.ts";
import { PROJECT_NAME } from "../domain/license.ts";
import { nomesDosProdutos } from "../sources/index.ts";
import { OPENAPI_PATH } from "./build.ts";

export const REDOC_BUNDLE = join(REPO_ROOT, "node_modules", "redoc", "bundles", "redoc.standalone.js");
export const DOCS_DIR = "docs";
export const REDOC_LOGO_URL = "https://cdn.redoc.ly/redoc/logo-mini.svg";

/** Redoc's own `labels` option (Redoc 2.x: services/Labels.ts), in Portuguese. */
export const ROTULOS_REDOC: Readonly<Record<string, string>> = {
  enum: "Valores",
  enumSingleValue: "Valor",
  enumArray: "Itens",
  default: "Padrão",
  deprecated: "Obsoleto",
  example: "Exemplo",
  examples: "Exemplos",
  recursive: "Recursivo",
  arrayOf: "Lista de ",
  webhook: "Evento",
  const: "Valor",
  noResultsFound: "Nada encontrado",
  download: "Baixar",
  downloadSpecification: "Baixar a descrição OpenAPI",
  responses: "Respostas",
  callbackResponses: "Respostas de callback",
  requestSamples: "Exemplos de requisição",
  responseSamples: "Exemplos de resposta",
};

/** Strings Redoc writes without a label option: the whole (trimmed) text of an element -> Portuguese. */
export const TRADUCOES_DOM: Readonly<Record<string, string>> = {
  "Authorizations:": "Autorizações:",
  "Response Schema:": "Schema da resposta:",
  "Request Body schema:": "Schema do corpo da requisição:",
  "query Parameters": "Parâmetros de consulta",
  "path Parameters": "Parâmetros de caminho",
  "header Parameters": "Parâmetros de cabeçalho",
  "cookie Parameters": "Parâmetros de cookie",
  "Response Headers": "Cabeçalhos da resposta",
  "Content type": "Tipo de conteúdo",
  "Expand all": "Expandir tudo",
  "Collapse all": "Recolher tudo",
  Copy: "Copiar",
  Copied: "Copiado",
  "No sample": "Sem exemplo",
  required: "obrigatório",
  "One of": "Um de",
  "Any of": "Qualquer de",
  "API docs by Redocly": "Documentação gerada pelo Redoc",
};

/** Placeholder attributes Redoc hard-codes. */
export const PLACEHOLDERS: Readonly<Record<string, string>> = { "Search...": "Buscar…" };

function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** docs/init.js: starts Redoc on the page's #redoc element, then keeps its fixed strings in Portuguese. */
export function docsInitJs(): string {
  const opcoes = {
    expandResponses: "200",
    jsonSampleExpandLevel: 2,
    hideDownloadButton: false,
    labels: ROTULOS_REDOC,
  };
  return `// Gerado por pipeline/openapi/docs.ts; não edite.
// Redoc não tem opção de idioma: os rótulos configuráveis vão em "labels"; os outros textos fixos
// são traduzidos depois de desenhados (só o texto dos nós, para o React continuar dono deles).
"use strict";
(function () {
  var TRADUCOES = ${JSON.stringify(TRADUCOES_DOM)};
  var PLACEHOLDERS = ${JSON.stringify(PLACEHOLDERS)};
  var raiz = document.getElementById("redoc");

  function traduzirElemento(el) {
    var nos = el.childNodes;
    if (nos.length === 0) return;
    var texto = "";
    var soTexto = true;
    for (var i = 0; i < nos.length; i++) {
      if (nos[i].nodeType !== 3) {
        soTexto = false;
        continue;
      }
      texto += nos[i].data;
      // "Response Schema: " beside the content-type dropdown: one text node among elements
      var u = TRADUCOES[nos[i].data.trim()];
      if (u !== undefined) nos[i].data = nos[i].data.replace(nos[i].data.trim(), u);
    }
    if (!soTexto) return;
    var t = TRADUCOES[texto.trim()];
    if (t === undefined) return;
    // "query" + " Parameters" are two text nodes: the first takes the whole translation
    nos[0].data = texto.replace(texto.trim(), t);
    for (var j = 1; j < nos.length; j++) nos[j].data = "";
  }

  function traduzir(no) {
    if (no.nodeType === 3) no = no.parentElement;
    if (!no || no.nodeType !== 1) return;
    traduzirElemento(no);
    var todos = no.getElementsByTagName("*");
    for (var i = 0; i < todos.length; i++) traduzirElemento(todos[i]);
    var campos = no.querySelectorAll("[placeholder]");
    for (var k = 0; k < campos.length; k++) {
      var p = PLACEHOLDERS[campos[k].getAttribute("placeholder")];
      if (p !== undefined) campos[k].setAttribute("placeholder", p);
    }
  }

  new MutationObserver(function (mudancas) {
    for (var i = 0; i < mudancas.length; i++) {
      var m = mudancas[i];
      if (m.type === "characterData") traduzir(m.target);
      else for (var j = 0; j < m.addedNodes.length; j++) traduzir(m.addedNodes[j]);
    }
  }).observe(raiz, { childList: true, subtree: true, characterData: true });

  Redoc.init("../${OPENAPI_PATH}", ${JSON.stringify(opcoes)}, raiz);
})();
`;
}

/** docs/index.html; schemaPaths are the published schemas ("schemas/serie.schema.json"), linked one by one. */
export function docsIndexHtml(schemaPaths: readonly string[] = []): string {
  const schemas = [...schemaPaths]
    .sort()
    .map((p) => `<a href="../${escapeHtml(p)}">${escapeHtml(p.replace(/^schemas\//, ""))}</a>`)
    .join(", ");
  return `<!doctype html>
<html lang="pt-BR">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <!-- everything from this site: no CDN, no telemetry (Redoc's badge image and trace endpoint are blocked), no inline script -->
  <meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:">
  <title>${PROJECT_NAME}: referência da API</title>
  <meta name="description" content="Referência da API aberta de cotações de ${nomesDosProdutos()} (OpenAPI 3.1).">
  <style>body { margin: 0; } #aviso { font: 14px/1.4 system-ui, sans-serif; padding: 8px 16px; background: #f4f6f8; border-bottom: 1px solid #dde; }</style>
  <script src="redoc.standalone.js" defer></script>
  <script src="init.js" defer></script>
</head>
<body>
  <div id="aviso"><a href="../">← ${PROJECT_NAME}</a> · Referência da API: cada operação com exemplos em curl, JavaScript e Python · descrição em <a href="../${OPENAPI_PATH}">${OPENAPI_PATH}</a> (OpenAPI 3.1)${schemas ? ` · JSON Schemas: ${schemas}` : ""}</div>
  <noscript>Esta página precisa de JavaScript. A descrição da API está em <a href="../${OPENAPI_PATH}">${OPENAPI_PATH}</a>.</noscript>
  <div id="redoc"></div>
</body>
</html>
`;
}

/**
 * Reads the Redoc bundle; a missing file (not installed, or moved by a new redoc) is a clear
 * error. Its last line points at a source map that is not published: dropped, so browsers'
 * developer tools do not ask for it. Its footer badge loads Redocly's logo from their CDN, the
 * page's only request elsewhere: the copy points it at an empty data: URL, and the badge's image
 * then hides itself (its onError), leaving the "by Redocly" text.
 */
export function readRedocBundle(path: string = REDOC_BUNDLE): string {
  try {
    return readFileSync(path, "utf8")
      .replace(/\n?\/\/# sourceMappingURL=\S+\s*$/, "\n")
      .replaceAll(REDOC_LOGO_URL, "data:,");
  } catch (err) {
    const shown = path.startsWith(REPO_ROOT) ? relative(REPO_ROOT, path) : path;
    throw new PipelineError({
      stage: "render",
      reason:
        `página docs/: o renderizador Redoc não foi encontrado em ${shown} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}). ` +
        `Ele vem do pacote redoc (dependência no package.json): rode npm ci (ou npm install); ` +
        `se a versão do redoc mudou, confira onde o pacote passou a guardar redoc.standalone.js e atualize REDOC_BUNDLE em pipeline/openapi/docs.ts`,
      cause: err,
    });
  }
}

/** docs/index.html, docs/init.js, the renderer bundle and its license; fails clearly when the bundle is missing. */
export function docsFiles(schemaPaths: readonly string[] = [], bundlePath: string = REDOC_BUNDLE): Map<string, string> {
  const bundle = readRedocBundle(bundlePath);
  const licenca = readFileSync(`${bundlePath}.LICENSE.txt`, "utf8");
  return new Map([
    [`${DOCS_DIR}/index.html`, docsIndexHtml(schemaPaths)],
    [`${DOCS_DIR}/init.js`, docsInitJs()],
    [`${DOCS_DIR}/redoc.standalone.js`, bundle],
    // the bundle's first line points at this file (MIT and the licenses of what it bundles)
    [`${DOCS_DIR}/redoc.standalone.js.LICENSE.txt`, licenca],
  ]);
}
