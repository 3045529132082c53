import type { HistoricoEntry } from "./shapes.ts";

function cell(v: string | number | undefined): string {
  if (v === undefined) return "";
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * A history as CSV: `data,valor` first, then the series' extra columns (valor_usd or valor_30d),
 * then one column per praça (à vista) for state series. Dot decimals, ISO dates, LF, UTF-8.
 */
export function historicoCsv(historico: readonly HistoricoEntry[]): string {
  const extras: string[] = [];
  for (const k of ["valor_usd", "valor_30d"] as const) {
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
  const header = ["data", "valor", ...extras, ...pracas.map((p) => `praca:${p}`)].map(cell).join(",");
  const lines = [header];
  for (const e of historico) {
    const rec = e as unknown as Record<string, number | undefined>;
    lines.push(
      [e.data, e.valor, ...extras.map((k) => rec[k]), ...pracas.map((p) => e.pracas?.[p])].map(cell).join(","),
    );
  }
  return lines.join("\n") + "\n";
}
