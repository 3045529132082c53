import { capturasPath, type CapturasFile } from "../history/capturas.ts";
import { stringifyDoc } from "./json.ts";
import type { RenderedFile } from "./site.ts";

/** The year's capture log as a published file (one capture per line). */
export function renderCapturas(doc: CapturasFile): RenderedFile {
  const out: CapturasFile = { api_version: "v1", ano: doc.ano, capturas: doc.capturas };
  return { path: capturasPath(doc.ano), text: stringifyDoc(out), doc: out };
}

/** The site's files followed by the capture log of the year, as one set to publish. */
export function* withCapturas(files: Iterable<RenderedFile>, doc: CapturasFile): Generator<RenderedFile> {
  yield* files;
  yield renderCapturas(doc);
}
