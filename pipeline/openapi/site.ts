import { renderOpenApi, OPENAPI_PATH } from "./build.ts";
import { docsFiles } from "./docs.ts";

/**
 * api/v1/openapi.json and the docs/ page, from the other files of the same render (their
 * examples are those files), so it must run last.
 */
export function apiDescriptionFiles(files: ReadonlyMap<string, string>): Map<string, string> {
  const out = new Map<string, string>([[OPENAPI_PATH, renderOpenApi(files)]]);
  for (const [p, t] of docsFiles()) out.set(p, t);
  return out;
}
