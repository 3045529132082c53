/**
 * What the dashboard, the page written at build and the Atom feed must say alike: a series'
 * anchor, an index path as a link from the site root, the stale banner's one line.
 */

/** "serie-{produto}" (national) or "serie-{produto}-{UF}": the dashboard's anchor of a series (the Atom feed links to it). */
export function ancoraSerie(id: string): string {
  return `serie-${id.replace(/\//g, "-")}`;
}

/** An index.json path (relative to api/v1/, or the older site-root form) as a link from the site root. */
export function hrefDoIndice(path: string): string {
  return path.startsWith("api/") ? path : `api/v1/${path}`;
}

/** The stale banner's one line (the page at build time and its script say the same). */
export function resumoAviso(nomes: string[]): string {
  return `Atenção: ${nomes.length === 1 ? `${nomes[0]} está` : `${nomes.length} fontes estão`} sem dado recente. Detalhes`;
}
