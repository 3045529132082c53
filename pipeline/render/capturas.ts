import { capturasPath, type CapturasFile } from "../history/capturas.ts";
import { stringifyDoc, type RenderedFile } from "./json.ts";

/** The year's capture log as a published file (one capture per line). */
export function renderCapturas(doc: CapturasFile): RenderedFile {
  const out: CapturasFile = { api_version: "v1", ano: doc.ano, capturas: doc.capturas };
  return { path: capturasPath(doc.ano), text: stringifyDoc(out), doc: out };
}
