/**
 * CEPEA series files built for the tests, with the same library the backfill reads them with
 * (no real download of these files can be recorded here). The layout is the one agrobr reads:
 * first sheet, the series title in A1, rows 2 and 3 empty, the header on row 4 ("Data | À vista
 * R$ | À vista US$"), dates as dd/mm/yyyy text, values as numeric cells or Brazilian text, an
 * empty or non-positive cell for no value, and a dimension that declares one row more than the
 * sheet holds.
 */
import * as XLSX from "@e965/xlsx";
import { aleatorio } from "../helpers/aleatorio.ts";

export type Valor = number | string | null;

export interface LinhaSerie {
  /** ISO date; written as dd/mm/yyyy text */
  data: string;
  brl: Valor;
  usd: Valor;
}

export interface Layout {
  titulo?: string;
  cabecalho?: Array<string | null>;
  /** rows between the title and the header (CEPEA: 2) */
  vazias?: number;
  /** rows the dimension declares beyond those the sheet holds (CEPEA: 1) */
  declararAMais?: number;
}

export const TITULO_BOI = "Indicador do Boi Gordo CEPEA/ESALQ";
export const CABECALHO = ["Data", "À vista R$", "À vista US$"];

/** "2019-01-02" -> "02/01/2019" */
export function br(data: string): string {
  const [y, m, d] = data.split("-");
  return `${d}/${m}/${y}`;
}

/** The sheet as rows of cells. */
export function celulas(linhas: readonly LinhaSerie[], layout: Layout = {}): Valor[][] {
  const aoa: Valor[][] = [[layout.titulo ?? TITULO_BOI]];
  for (let i = 0; i < (layout.vazias ?? 2); i++) aoa.push([]);
  aoa.push(layout.cabecalho ?? CABECALHO);
  for (const l of linhas) aoa.push([br(l.data), l.brl, l.usd]);
  return aoa;
}

/** A .xls (BIFF8) or .xlsx of the series in CEPEA's layout. */
export function planilha(linhas: readonly LinhaSerie[], bookType: "biff8" | "xlsx", layout: Layout = {}): Buffer {
  const aoa = celulas(linhas, layout);
  const ws = XLSX.utils.aoa_to_sheet(aoa);
  const range = XLSX.utils.decode_range(ws["!ref"]!);
  range.e.r += layout.declararAMais ?? 1;
  ws["!ref"] = XLSX.utils.encode_range(range);
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, ws, "Plan1");
  return XLSX.write(wb, { type: "buffer", bookType }) as Buffer;
}

/** The same rows as a CSV with `;`, decimal comma and dd/mm/yyyy (numbers written the Brazilian way). */
export function csv(linhas: readonly LinhaSerie[], layout: Layout = {}): string {
  const txt = (v: Valor) => (v === null ? "" : typeof v === "number" ? v.toFixed(2).replace(".", ",") : v);
  return celulas(linhas, layout).map((row) => row.map(txt).join(";")).join("\r\n") + "\r\n";
}

/** Monday to Friday from `desde` to `ate`, inclusive (ISO dates). */
export function diasUteis(desde: string, ate: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${desde}T12:00:00Z`); t <= Date.parse(`${ate}T12:00:00Z`); t += 86_400_000) {
    const d = new Date(t);
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) out.push(d.toISOString().slice(0, 10));
  }
  return out;
}

/**
 * A plausible daily history ending at `fim` (R$ and US$ values of the last day, exact): walked
 * backwards day by day with moves under 1 % and a drift that takes it down to about `inicio`
 * R$ on the first day, the US$ value following through an exchange rate that moves slowly,
 * within 8 % of the last day's.
 */
export function historia(dias: readonly string[], fim: { brl: number; usd: number }, inicio: number, seed = 7): Array<{ data: string; brl: number; usd: number }> {
  const rnd = aleatorio(seed);
  const n = dias.length;
  const drift = Math.log(fim.brl / inicio) / n;
  const out = new Array<{ data: string; brl: number; usd: number }>(n);
  let brl = fim.brl;
  const rate0 = fim.brl / fim.usd;
  let rate = rate0;
  out[n - 1] = { data: dias[n - 1]!, brl: fim.brl, usd: fim.usd };
  for (let i = n - 2; i >= 0; i--) {
    brl = brl * Math.exp(-drift + (rnd() - 0.5) * 0.012);
    rate = Math.min(rate0 * 1.08, Math.max(rate0 * 0.92, rate * (1 + (rnd() - 0.5) * 0.006)));
    const b = Math.round(brl * 100) / 100;
    out[i] = { data: dias[i]!, brl: b, usd: Math.round((b / rate) * 100) / 100 };
  }
  return out;
}
