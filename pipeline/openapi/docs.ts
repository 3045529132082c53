/**
 * public/docs/: the API reference, rendered in the browser by Redoc from api/v1/openapi.json.
 * The renderer is the Redoc standalone bundle that @redocly/cli ships (the one its
 * `build-docs --inlineBundle` embeds), copied next to the page: no CDN at run time. That file is
 * internal to @redocly/cli (lib/chunks/), so package.json pins the exact version.
 * The page runs no inline script: the server (and any strict host) sends
 * `script-src 'self'`, so Redoc is started from docs/init.js.
 */
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { REPO_ROOT } from "../config.ts";
import { PipelineError } from "../domain/errors.ts";
import { PROJECT_NAME } from "../domain/license.ts";
import { nomesDosProdutos } from "../sources/index.ts";
import { OPENAPI_PATH } from "./build.ts";

export const REDOC_BUNDLE = join(REPO_ROOT, "node_modules", "@redocly", "cli", "lib", "chunks", "redoc.standalone.js");
export const DOCS_DIR = "docs";

function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** docs/init.js: starts Redoc on the page's #redoc element. */
export function docsInitJs(): string {
  return `// Gerado por pipeline/openapi/docs.ts; não edite.
import { init } from "./redoc.standalone.js";

init("../${OPENAPI_PATH}", { disableTelemetry: true, expandResponses: "200", jsonSamplesExpandLevel: 2 }, document.getElementById("redoc"));
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
  <script type="module" src="init.js"></script>
</head>
<body>
  <div id="aviso"><a href="../">← ${PROJECT_NAME}</a> · descrição em <a href="../${OPENAPI_PATH}">${OPENAPI_PATH}</a> (OpenAPI 3.1)${schemas ? ` · JSON Schemas: ${schemas}` : ""}</div>
  <noscript>Esta página precisa de JavaScript. A descrição da API está em <a href="../${OPENAPI_PATH}">${OPENAPI_PATH}</a>.</noscript>
  <div id="redoc"></div>
</body>
</html>
`;
}

/** Reads the Redoc bundle; a missing file (not installed, or moved by a new @redocly/cli) is a clear error. */
export function readRedocBundle(path: string = REDOC_BUNDLE): string {
  try {
    return readFileSync(path, "utf8");
  } catch (err) {
    const shown = path.startsWith(REPO_ROOT) ? relative(REPO_ROOT, path) : path;
    throw new PipelineError({
      stage: "render",
      reason:
        `página docs/: o renderizador Redoc não foi encontrado em ${shown} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}). ` +
        `Esse arquivo é interno ao @redocly/cli, fixado em versão exata no package.json: rode npm ci (ou npm install); ` +
        `se a versão do @redocly/cli mudou, confira onde o pacote passou a guardar redoc.standalone.js e atualize REDOC_BUNDLE em pipeline/openapi/docs.ts`,
      cause: err,
    });
  }
}

/** docs/index.html, docs/init.js and the renderer bundle; fails clearly when the bundle is missing. */
export function docsFiles(schemaPaths: readonly string[] = [], bundlePath: string = REDOC_BUNDLE): Map<string, string> {
  const bundle = readRedocBundle(bundlePath);
  return new Map([
    [`${DOCS_DIR}/index.html`, docsIndexHtml(schemaPaths)],
    [`${DOCS_DIR}/init.js`, docsInitJs()],
    [`${DOCS_DIR}/redoc.standalone.js`, bundle],
  ]);
}
