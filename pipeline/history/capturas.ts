import { createHash } from "node:crypto";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { PipelineError } from "../domain/errors.ts";
import type { Captura as CapturaGerada, Capturas } from "../domain/publicados.gerados.ts";
import type { IsoDate } from "../domain/publicados.ts";
import { readPublished } from "../contract/schemas.ts";

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
export type Captura = CapturaGerada;
export type CapturaRevisao = Captura["revisoes"][number];
export type CapturasFile = Capturas;

export function capturasPath(ano: number): string {
  return `api/v1/capturas/${ano}.json`;
}

export function sha256Hex(bytes: Buffer | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/**
 * "cepea/boi-gordo/c9bfd898421a0646/20260927T120000": the page, its bytes and when it was
 * registered (the same bytes may be registered twice, e.g. when a new series is declared on a
 * page already read: each registration is its own record).
 */
export function capturaId(fonte: string, pagina: string, sha256: string, registradoEm: string): string {
  const quando = registradoEm.slice(0, 19).replace(/[-:]/g, "");
  return `${fonte}/${pagina}/${sha256.slice(0, 16)}/${quando}`;
}

/**
 * The year's log as stored (validated against its schema), or an empty one; a damaged file stops
 * the run before anything is written.
 */
export async function loadCapturas(publicDir: string, ano: number): Promise<CapturasFile> {
  const rel = capturasPath(ano);
  const doc = await readPublished(publicDir, rel, "capturas.schema.json");
  if (!doc) return { api_version: "v1", ano, capturas: [] };
  if (doc.ano !== ano) {
    throw new PipelineError({ stage: "merge", reason: `${rel} tem as capturas de ${doc.ano}, não de ${ano}; nada foi escrito — restaure o arquivo com git` });
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

/** Every year's log under publicDir (api/v1/capturas/{AAAA}.json), oldest first. */
export async function loadTodasCapturas(publicDir: string): Promise<CapturasFile[]> {
  let names: string[];
  try {
    names = await readdir(join(publicDir, "api/v1/capturas"));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
  const anos = names.flatMap((n) => (/^\d{4}\.json$/.test(n) ? [Number(n.slice(0, 4))] : [])).sort((a, b) => a - b);
  const out: CapturasFile[] = [];
  for (const ano of anos) out.push(await loadCapturas(publicDir, ano));
  return out;
}

/**
 * The value each revised field was last published at by right: the value first published, or
 * the new value of the last revision an operator accepted. A revision is bounded against it as
 * well as against the stored value, so small revisions cannot ratchet a number far from what
 * was published ("serie|data|campo" → value).
 */
export function baselines(logs: readonly CapturasFile[]): Map<string, number | string | null> {
  const out = new Map<string, number | string | null>();
  for (const c of [...logs].sort((a, b) => a.ano - b.ano).flatMap((l) => l.capturas)) {
    for (const r of c.revisoes) {
      const key = `${r.serie}|${r.data}|${r.campo}`;
      if (r.aceita) out.set(key, r.depois);
      else if (!out.has(key)) out.set(key, r.antes);
    }
  }
  return out;
}
