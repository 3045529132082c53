/**
 * The TypeScript name of a schema or of one of its `$defs`, shared by the generated types
 * (pipeline/gerar/tipos.ts) and the OpenAPI's `components/schemas` (pipeline/openapi/build.ts), so a
 * tool reading openapi.json and a reader of client.d.ts see the same names.
 *
 * "historicoEntrada" -> "HistoricoEntrada"; "serie.schema.json" -> "Serie"
 */
export function nomeDoTipo(s: string): string {
  return s
    .replace(/\.schema\.json$/, "")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join("");
}
