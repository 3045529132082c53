import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { PipelineError } from "../domain/errors.ts";
import type { IsoDate, IsoDateTime } from "../render/shapes.ts";

/**
 * The capture log: every page that changed published data leaves one record (where it came
 * from, when, the SHA-256 of its bytes, the days it gave, the days it added to each series and
 * every published value it revised), so any stored day can be traced to the capture that
 * brought it and any revision to the capture that made it. One file per year of registration,
 * append-only, one record per line (schemas/capturas.schema.json).
 *
 * A page that only confirms what is already stored leaves no record: a run that brings nothing
 * new must change no byte of the repository, and such a page is no evidence of anything that
 * is published (the workflow log still lists it).
 */
export interface CapturaRevisao {
  serie: string;
  data: IsoDate;
  campo: string;
  antes: number | string | null;
  depois: number | string | null;
  aceita: boolean;
}

export interface Captura {
  id: string;
  fonte: string;
  pagina: string;
  url: string;
  via: string | null;
  via_url: string | null;
  coletado_em: IsoDateTime;
  registrado_em: IsoDateTime;
  sha256: string;
  bytes: number;
  dias: IsoDate[];
  novos: Record<string, IsoDate[]>;
  revisoes: CapturaRevisao[];
}

export interface CapturasFile {
  api_version: "v1";
  ano: number;
  capturas: Captura[];
}

export function capturasPath(ano: number): string {
  return `api/v1/capturas/${ano}.json`;
}

export function sha256Hex(bytes: Buffer | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

export function capturaId(fonte: string, pagina: string, sha256: string): string {
  return `${fonte}/${pagina}/${sha256.slice(0, 16)}`;
}

/** The year's log as stored, or an empty one; a damaged file stops the run before anything is written. */
export async function loadCapturas(publicDir: string, ano: number): Promise<CapturasFile> {
  const rel = capturasPath(ano);
  let text: string;
  try {
    text = await readFile(join(publicDir, rel), "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { api_version: "v1", ano, capturas: [] };
    throw new PipelineError({ stage: "merge", reason: `não foi possível ler ${rel}: ${(err as Error).message}`, cause: err });
  }
  let doc: CapturasFile;
  try {
    doc = JSON.parse(text) as CapturasFile;
  } catch (err) {
    throw new PipelineError({ stage: "merge", reason: `${rel} não é JSON válido (${(err as Error).message}); nada foi escrito — restaure o arquivo com git`, cause: err });
  }
  if (!Array.isArray(doc.capturas) || doc.ano !== ano) {
    throw new PipelineError({ stage: "merge", reason: `${rel} não tem a forma de um registro de capturas de ${ano}; nada foi escrito` });
  }
  return doc;
}

/**
 * Where a stored day came from: the capture that added it, and the captures that revised it
 * since, oldest first. `logs` are the years' files in any order.
 */
export function traceDay(logs: readonly CapturasFile[], serie: string, data: IsoDate): { origem: Captura | null; revisoes: Array<{ captura: Captura; revisao: CapturaRevisao }> } {
  const all = [...logs].sort((a, b) => a.ano - b.ano).flatMap((l) => l.capturas);
  const origem = all.find((c) => c.novos[serie]?.includes(data)) ?? null;
  const revisoes = all.flatMap((c) => c.revisoes.filter((r) => r.serie === serie && r.data === data).map((revisao) => ({ captura: c, revisao })));
  return { origem, revisoes };
}
