// Moved to ../domain/publicados.ts (types of published files belong to every stage, not to the
// renderers). This re-export goes once the last importers point there.
export type * from "../domain/publicados.ts";
