/**
 * Series and sources by name, for people: the data commit and the Atom feed say "Boi gordo (MS,
 * Scot Consultoria)", never a series id and a source id ("{produto}/MS (scot)"). A series id is `{produto}` (national) or
 * `{produto}/{UF}` (a state), as its file path; names come from the catalogue, with the id as the
 * last resort (a retired series or source still in an old file).
 */
import { formatDateBR } from "../domain/dates.ts";
import { PRODUTO_INFO } from "../domain/products.ts";
import { SOURCES } from "../sources/index.ts";

/** "Scot Consultoria" for "scot"; the id itself for a source no longer in the catalogue. */
export function nomeFonte(id: string): string {
  return SOURCES.find((s) => s.id === id)?.nome ?? id;
}

/** The state of a series id ("{produto}/MS" -> "MS"), null for a national series. */
export function ufDaSerie(serie: string): string | null {
  const i = serie.indexOf("/");
  return i < 0 ? null : serie.slice(i + 1);
}

/** The product's name ("Boi gordo"), from the catalogue or, failing that, the file. */
export function nomeProduto(serie: string, nomeDoArquivo?: string): string {
  const produto = serie.split("/")[0]!;
  return (PRODUTO_INFO as Record<string, { nome: string } | undefined>)[produto]?.nome ?? nomeDoArquivo ?? produto;
}

/**
 * "Boi gordo (MS, Scot Consultoria)" for a state series; "Boi gordo (CEPEA/ESALQ-USP)" for a
 * national one. The national series keeps no UF in its name although it has a place: the national
 * vaca gorda is Scot's SP praça, and "Vaca gorda (SP, Scot Consultoria)" is already vaca_gorda/SP.
 */
export function nomeSerie(serie: string, fonte: string, nomeDoArquivo?: string): string {
  const uf = ufDaSerie(serie);
  const f = nomeFonte(fonte);
  const onde = uf ? `${uf}, ${f}` : f;
  const nome = nomeProduto(serie, nomeDoArquivo);
  // a name that already ends in parentheses ("Boi China (a prazo)") takes the place inside them
  return nome.endsWith(")") ? `${nome.slice(0, -1)}; ${onde})` : `${nome} (${onde})`;
}

/** The dashboard's anchor of a series (the page and the feed share one definition). */
export { ancoraSerie } from "../domain/painel.ts";

/** "2026-09-08" -> "08/09/2026"; anything else as is. */
export function dataBR(iso: string | null | undefined): string {
  if (!iso) return "?";
  return /^\d{4}-\d{2}-\d{2}$/.test(iso) ? formatDateBR(iso) : iso;
}

/** "2026-09-08T21:07:12-03:00" -> "08/09/2026 21:07" (the files already carry Brasília time). */
export function dataHoraBR(iso: string | null | undefined): string {
  if (!iso) return "?";
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso);
  return m ? `${formatDateBR(m[1]!)} ${m[2]}` : iso;
}
