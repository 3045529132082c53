import { formatDecimalBR } from "../domain/money.ts";
import type { SeriesChange } from "../history/changes.ts";
import type { PageOutcome } from "./status.ts";

/** What one update did: every page's outcome, the series it changed, and its exit code. */
export interface UpdateReport {
  outcomes: PageOutcome[];
  changes: SeriesChange[];
  avisos: string[];
  written: string[];
  /** 0 when every enabled page was read and merged, 1 otherwise */
  exitCode: number;
}

export function outcomeLine(o: PageOutcome): string {
  if (o.ok) return `${o.source}/${o.page}: ok${o.via ? ` (via ${o.via})` : ""}, ${mudou(o)}`;
  return `${o.source}/${o.page}: FALHA ${o.kind} — ${o.reason} (${o.url})`;
}

/** "1 dia novo", "2 dia(s) revisado(s)", "nada novo": what a merged page changed. */
function mudou(o: Extract<PageOutcome, { ok: true }>): string {
  if (!o.changed) return "nada novo";
  const partes: string[] = [];
  if (o.diasNovos) partes.push(o.diasNovos === 1 ? "1 dia novo" : `${o.diasNovos} dias novos`);
  if (o.diasRevisados) partes.push(o.diasRevisados === 1 ? "1 dia revisado" : `${o.diasRevisados} dias revisados`);
  return partes.length > 0 ? partes.join(", ") : "praças atualizadas";
}

function pad(s: string, n: number): string {
  return s.length >= n ? s : s + " ".repeat(n - s.length);
}

/** Per-source summary lines, the series that changed, warnings and a final table. */
export function formatReport(r: UpdateReport, requestsPerHost: Record<string, number>): string[] {
  const lines: string[] = [];
  const sources = [...new Set(r.outcomes.map((o) => o.source))];
  for (const s of sources) {
    const mine = r.outcomes.filter((o) => o.source === s);
    const failed = mine.filter((o) => !o.ok);
    lines.push(
      `${s}: ${mine.length - failed.length}/${mine.length} páginas ok` +
        (failed.length ? `; falharam: ${failed.map((o) => `${o.page} (${o.ok ? "" : o.kind})`).join(", ")}` : ""),
    );
  }
  for (const c of r.changes) {
    const rev = c.revised.length ? `, ${c.revised.length} revisão(ões): ${c.revised.map((v) => `${v.data} ${formatDecimalBR(v.antes.valor)} -> ${formatDecimalBR(v.depois.valor)}`).join(", ")}` : "";
    lines.push(`  ${c.id}: ${c.added.length} dia(s) novo(s)${rev}; último ${c.depois.data} = ${formatDecimalBR(c.depois.valor)}`);
  }
  for (const a of r.avisos) lines.push(`  aviso: ${a}`);
  lines.push("");
  const rows = r.outcomes.map((o) => [`${o.source}/${o.page}`, o.ok ? (o.via ? `ok via ${o.via}` : "ok") : o.kind, o.ok ? mudou(o) : o.reason]);
  const w0 = Math.max(6, ...rows.map((x) => x[0]!.length));
  const w1 = Math.max(6, ...rows.map((x) => x[1]!.length));
  lines.push(`${pad("página", w0)}  ${pad("estado", w1)}  detalhe`);
  for (const [a, b, c] of rows) lines.push(`${pad(a!, w0)}  ${pad(b!, w1)}  ${c}`);
  const hosts = Object.entries(requestsPerHost);
  if (hosts.length) lines.push(`requisições por host: ${hosts.map(([h, n]) => `${h}=${n}`).join(", ")}`);
  lines.push(
    `${r.written.length} arquivo(s) escrito(s); ${r.changes.length} série(s) alterada(s); ` +
      (r.exitCode === 0 ? "todas as páginas ok" : `${r.outcomes.filter((o) => !o.ok).length} página(s) com falha`),
  );
  return lines;
}
