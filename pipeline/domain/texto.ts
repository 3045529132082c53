/**
 * The first line of a text (without its "\n"; empty when it has none), as a string of its own. V8 makes a slice of a long
 * string a view into it, which keeps the whole string alive: a run keeps every CSV's header to
 * its end, and each header would hold its CSV's megabytes (at 30 years, most of a build's heap).
 */
export function primeiraLinha(text: string): string {
  const fim = text.indexOf("\n");
  return fim <= 0 ? "" : copia(text.slice(0, fim));
}

/** A string that shares no memory with the one it came from. */
export function copia(s: string): string {
  return JSON.parse(JSON.stringify(s)) as string;
}
