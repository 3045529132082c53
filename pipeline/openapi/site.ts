import { renderOpenApi, OPENAPI_PATH } from "./build.ts";
import { clientFiles } from "./client.ts";
import { docsFiles } from "./docs.ts";

/**
 * api/v1/openapi.json and the docs/ page, from the other files of the same render (their
 * examples are those files), so it must run last; and api/v1/client.js (mirrors from package.json).
 */
export function apiDescriptionFiles(files: ReadonlyMap<string, string>): Map<string, string> {
  const out = new Map<string, string>([[OPENAPI_PATH, renderOpenApi(files)]]);
  const schemas = [...files.keys()].filter((p) => p.startsWith("schemas/") && p.endsWith(".schema.json"));
  for (const [p, t] of docsFiles(schemas)) out.set(p, t);
  for (const [p, t] of clientFiles()) out.set(p, t);
  return out;
}
