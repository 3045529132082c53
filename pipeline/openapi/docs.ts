/**
 * public/docs/: the API reference, rendered in the browser by Redoc from api/v1/openapi.json.
 * The renderer is the Redoc standalone bundle that @redocly/cli ships (the one its
 * `build-docs --inlineBundle` embeds), copied next to the page: no CDN at run time.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../config.ts";
import { PROJECT_NAME } from "../domain/license.ts";
import { OPENAPI_PATH } from "./build.ts";

export const REDOC_BUNDLE = join(REPO_ROOT, "node_modules", "@redocly", "cli", "lib", "chunks", "redoc.standalone.js");
export const DOCS_DIR = "docs";

export function docsIndexHtml(): string {
  return `<!doctype html>
<html lang="pt-BR">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <!-- everything from this site: no CDN, no telemetry (Redoc's badge image and trace endpoint are blocked) -->
  <meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:">
  <title>${PROJECT_NAME}: referência da API</title>
  <meta name="description" content="Referência da API aberta de cotações de boi gordo, vaca gorda, soja, milho e bezerro (OpenAPI 3.1).">
  <style>body { margin: 0; } #aviso { font: 14px/1.4 system-ui, sans-serif; padding: 8px 16px; background: #f4f6f8; border-bottom: 1px solid #dde; }</style>
</head>
<body>
  <div id="aviso"><a href="../">← ${PROJECT_NAME}</a> · descrição em <a href="../${OPENAPI_PATH}">${OPENAPI_PATH}</a> (OpenAPI 3.1) · schemas em <a href="../schemas/">schemas/</a></div>
  <noscript>Esta página precisa de JavaScript. A descrição da API está em <a href="../${OPENAPI_PATH}">${OPENAPI_PATH}</a>.</noscript>
  <div id="redoc"></div>
  <script type="module">
    import { init } from "./redoc.standalone.js";
    init("../${OPENAPI_PATH}", { disableTelemetry: true, expandResponses: "200", jsonSamplesExpandLevel: 2 }, document.getElementById("redoc"));
  </script>
</body>
</html>
`;
}

/** docs/index.html and the renderer bundle; fails clearly when @redocly/cli is not installed. */
export function docsFiles(): Map<string, string> {
  let bundle: string;
  try {
    bundle = readFileSync(REDOC_BUNDLE, "utf8");
  } catch (err) {
    throw new Error(
      `[render] página docs/: o renderizador Redoc não foi encontrado em ${REDOC_BUNDLE} (${(err as NodeJS.ErrnoException).code}); rode npm install (@redocly/cli é dependência de desenvolvimento)`,
    );
  }
  return new Map([
    [`${DOCS_DIR}/index.html`, docsIndexHtml()],
    [`${DOCS_DIR}/redoc.standalone.js`, bundle],
  ]);
}
