/**
 * api/v1/client.js: the hand-written client in client.template.js with its default mirrors (and
 * the import example) filled in from package.json's `repository`, so a fork's client points at
 * the fork, and its list of products from the catalogue. Its types, api/v1/client.d.ts, are
 * written by `npm run gerar` (pipeline/gerar/) from the schemas and client.d.template.ts. The
 * npm package in cliente/ is the same template rendered by `npm run gerar` (index.js, index.d.ts).
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { PipelineError } from "../domain/errors.ts";
import { PRODUTOS } from "../domain/products.ts";
import { JSDELIVR_URL, SITE_URL, type SiteUrls } from "../domain/site.ts";

export const CLIENT_PATH = "api/v1/client.js";
export const CLIENT_TEMPLATE = fileURLToPath(new URL("./client.template.js", import.meta.url));

const BANNER =
  "// Gerado por `npm run build` a partir de pipeline/openapi/client.template.js, com as URLs do campo\n" +
  "// \"repository\" do package.json; não edite este arquivo, edite o modelo.\n";

/** The template with every placeholder replaced; a placeholder missing or left over is an error. */
export function renderClient(
  template: string,
  urls: Pick<SiteUrls, "SITE_URL" | "JSDELIVR_URL"> = { SITE_URL, JSDELIVR_URL },
  banner: string = BANNER,
): string {
  let out = template;
  for (const [token, value] of [
    ["__SITE_URL__", urls.SITE_URL],
    ["__JSDELIVR_URL__", urls.JSDELIVR_URL],
    // the products' ids, from the catalogue (domain/products.ts)
    ["__PRODUTOS__", `[${PRODUTOS.map((p) => JSON.stringify(p)).join(", ")}]`],
  ] as const) {
    if (!out.includes(token)) throw new PipelineError({ stage: "render", reason: `${CLIENT_TEMPLATE}: o modelo não contém ${token}` });
    out = out.replaceAll(token, value);
  }
  const left = /__[A-Z][A-Z_]*__/.exec(out);
  if (left) throw new PipelineError({ stage: "render", reason: `${CLIENT_TEMPLATE}: marcador desconhecido ${left[0]}` });
  return banner + out;
}

export function clientFiles(): Map<string, string> {
  return new Map([[CLIENT_PATH, renderClient(readFileSync(CLIENT_TEMPLATE, "utf8"))]]);
}
