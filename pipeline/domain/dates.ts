import { TZDate } from "@date-fns/tz";
// per-function entry points: the date-fns index pulls in every function (~20 MB of memory)
import { format } from "date-fns/format";
import { isValid } from "date-fns/isValid";
import { parse } from "date-fns/parse";

export const TZ = "America/Sao_Paulo";

/** "04/09/2026" -> "2026-09-04"; null when it is not a real calendar day. */
export function parseDateBR(text: string): string | null {
  const s = text.trim();
  if (!/^\d{2}\/\d{2}\/\d{4}$/.test(s)) return null;
  const d = parse(s, "dd/MM/yyyy", new Date(2000, 0, 1));
  if (!isValid(d)) return null;
  return format(d, "yyyy-MM-dd");
}

/** ISO 8601 with the Brasília offset, to the second: "2026-09-06T22:39:05-03:00". */
export function isoBrasilia(date: Date): string {
  return format(new TZDate(date.getTime(), TZ), "yyyy-MM-dd'T'HH:mm:ssxxx");
}

/** The calendar day in Brasília at that instant: "2026-09-06". */
export function dayBrasilia(date: Date): string {
  return format(new TZDate(date.getTime(), TZ), "yyyy-MM-dd");
}

/** "2026-09-04" -> "04/09/2026" */
export function formatDateBR(iso: string): string {
  const [y, m, d] = iso.split("-");
  return `${d}/${m}/${y}`;
}

/** Whole days from a to b (both YYYY-MM-DD). */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

/**
 * The run's clock. COTACAO_NOW (ISO 8601) pins it, so tests and replays of old pages are
 * reproducible to the byte.
 */
export function runClock(env: NodeJS.ProcessEnv = process.env): Date {
  const pinned = env.COTACAO_NOW;
  if (pinned) {
    const d = new Date(pinned);
    if (Number.isNaN(d.getTime())) throw new Error(`COTACAO_NOW inválido: "${pinned}" (use ISO 8601)`);
    return d;
  }
  return new Date();
}
