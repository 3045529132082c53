/**
 * Where eventos.json and the feed are published, and how the published eventos.json is read:
 * shared by the events code (events/model.ts), which writes it, and the deploy
 * (publish/deploy.ts), which compares it with the one on gh-pages before publishing.
 */
import type { Eventos as EventosFile } from "../domain/publicados.gerados.ts";
import { readPublished } from "./schemas.ts";

export const EVENTOS_PATH = "api/v1/eventos.json";
export const FEED_PATH = "api/v1/feed.xml";

/**
 * A file published before events had `seq` (none of its events has one), numbered once: the
 * oldest listed is 1, the newest the count. What left the list before has no number, and needs
 * none: a consumer counts from what it read, and it read this list. Deterministic, so notify
 * reading the old file and update rewriting it agree on every number. Anything else is returned
 * as it is, for the schema to judge (a file where only some events have seq is damaged).
 */
export function numerarLegado(doc: unknown): unknown {
  if (doc === null || typeof doc !== "object" || !("eventos" in doc) || !Array.isArray(doc.eventos)) return doc;
  const lista: unknown[] = doc.eventos;
  if (lista.some((e) => e === null || typeof e !== "object" || "seq" in e)) return doc;
  const numerados = lista.map((e, i) => {
    const { id, ...resto } = e as { id?: unknown };
    return { id, seq: lista.length - i, ...resto };
  });
  return { ...doc, eventos: numerados };
}

/**
 * Reads the published eventos.json (null when there is none yet), validated against its schema
 * and its checks in code (contract/checks.ts checarEventos: seq falls by one down the list, no id
 * repeats). A damaged file stops the run like a damaged series file does: dropping it would lose
 * the events and re-send them.
 */
export async function loadEventos(publicDir: string): Promise<EventosFile | null> {
  return readPublished(publicDir, EVENTOS_PATH, "eventos.schema.json", { migrar: numerarLegado });
}
