import { EXTRAS_PRACA } from "../domain/row.ts";
import type { HistoricoEntry } from "../domain/publicados.ts";

function quote(s: string): string {
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * A history as CSV, the same days and columns as the JSON: `data,valor` first, then the series'
 * other columns (valor_usd for CEPEA; for Scot the reference praça's 30 days, base, Funrural,
 * Senar and trend), then one column per praça (à vista, "praca:Barretos") for state series.
 * Dot decimals, ISO dates, LF, UTF-8.
 */
export function historicoCsv(historico: readonly HistoricoEntry[]): string {
  const extras: string[] = [];
  for (const k of ["valor_usd", ...EXTRAS_PRACA] as const) {
    if (historico.some((e) => e[k] !== undefined)) extras.push(k);
  }
  const pracas: string[] = [];
  const seen = new Set<string>();
  for (const e of historico) {
    for (const p of Object.keys(e.pracas ?? {})) {
      if (!seen.has(p)) {
        seen.add(p);
        pracas.push(p);
      }
    }
  }
  const header = ["data", "valor", ...extras, ...pracas.map((p) => `praca:${p}`)].map(quote).join(",");
  // values are numbers and ISO dates: nothing to quote, so rows are joined directly (this runs
  // once per day of every history)
  const lines = new Array<string>(historico.length + 1);
  lines[0] = header;
  for (let i = 0; i < historico.length; i++) {
    const e = historico[i]!;
    const rec = e as unknown as Record<string, number | string | undefined>;
    let line = `${e.data},${e.valor}`;
    for (const k of extras) line += `,${rec[k] ?? ""}`;
    for (const p of pracas) line += `,${e.pracas?.[p] ?? ""}`;
    lines[i + 1] = line;
  }
  return lines.join("\n") + "\n";
}
