import type { Fonte } from "../domain/row.ts";
import { cepea } from "./cepea.ts";
import { naBoiGordo, naVacaGorda } from "./noticias-agricolas.ts";
import { scot } from "./scot.ts";
import type { MirrorDef, SourceDef } from "./types.ts";

/** Every source, in the order runs visit them. Adding a source = one module + one line here. */
export const SOURCES: readonly SourceDef[] = [cepea, scot];

/** Mirrors that republish a page, keyed "{source}/{page}", tried when the page stays blocked. */
export const MIRRORS: Readonly<Record<string, MirrorDef>> = {
  "scot/boi-gordo": naBoiGordo,
  "scot/vaca-gorda": naVacaGorda,
};

export function getSource(id: Fonte): SourceDef {
  const s = SOURCES.find((x) => x.id === id);
  if (!s) throw new Error(`fonte desconhecida: ${id}`);
  return s;
}
