/**
 * Browser helpers shared by the dashboard and the simulator page. Every text from the data goes
 * through textContent or an attribute, never innerHTML.
 */
import { formatDateBR } from "../../domain/dates.ts";
import { formatBRL, formatDecimalBR, formatNumeroDoPreco, formatPreco } from "../../domain/money.ts";
import { UNIDADE_INFO, type Unidade } from "../../domain/products.ts";

type Child = Node | string | null | undefined | false;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number | boolean | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    node.append(typeof c === "string" ? document.createTextNode(c) : c);
  }
  return node;
}

export function clear(node: Element): void {
  while (node.firstChild) node.removeChild(node.firstChild);
}

/** "R$ 347,70/@" */
export function preco(valor: number, unidade: Unidade): string {
  return formatPreco(valor, unidade);
}

/** The number of preco() without its unit: "R$ 347,70" in reais, "439,98" in a unit quoted in centavos (CEPEA's cotton). */
export function numeroDoPreco(valor: number, unidade: Unidade): string {
  return formatNumeroDoPreco(valor, unidade);
}

/** The unit of a column of prices: "R$/@", and "centavos de R$/lb" (never "R$ centavos de R$/lb"). */
export function unidadeDoPreco(unidade: Unidade): string {
  const u = UNIDADE_INFO[unidade];
  return u.emCentavos ? u.sufixo.trim() : `R$${u.sufixo}`;
}

/**
 * The same text as preco() in elements that never break inside "R$ 3.426,02" (nor inside the
 * unit), with a break opportunity before the unit for a narrow card: "R$ 3.426,02" / "/cabeça".
 */
export function precoEl(valor: number, unidade: Unidade): HTMLSpanElement {
  return el(
    "span",
    { class: "preco" },
    el("span", { class: "sem-quebra" }, numeroDoPreco(valor, unidade)),
    el("wbr"),
    el("span", { class: "sem-quebra" }, UNIDADE_INFO[unidade].sufixo),
  );
}

/** "2026-09-04" (or the day of a timestamp) -> "04/09/2026"; "—" when there is none */
export function dataBR(iso: string | null | undefined): string {
  return iso ? formatDateBR(iso.slice(0, 10)) : "—";
}

/** "2026-09-06T22:39:05-03:00" -> "06/09/2026 22:39" (the time as written, Brasília) */
export function dataHoraBR(iso: string | null | undefined): string {
  if (!iso) return "—";
  return `${dataBR(iso)} ${iso.slice(11, 16)}`;
}

export function percentualBR(p: number): string {
  return `${p > 0 ? "+" : ""}${formatDecimalBR(p)}%`;
}

export function reaisComSinal(v: number): string {
  return `${v > 0 ? "+" : v < 0 ? "−" : ""}${formatBRL(Math.abs(v))}`;
}

export class HttpError extends Error {}

export async function getJSON<T>(url: string): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, { headers: { Accept: "application/json" } });
  } catch {
    throw new HttpError(`${url}: falha de rede (sem conexão ou servidor fora do ar)`);
  }
  if (!res.ok) throw new HttpError(`${url}: HTTP ${res.status}`);
  try {
    return (await res.json()) as T;
  } catch {
    throw new HttpError(`${url}: a resposta não é JSON`);
  }
}

/** Today's calendar day in Brasília by the visitor's clock: "2026-11-22". */
export function hojeBrasilia(agora: Date = new Date()): string {
  // en-CA formats as YYYY-MM-DD
  return new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo", year: "numeric", month: "2-digit", day: "2-digit" }).format(agora);
}

/** Whole calendar days from a to b (YYYY-MM-DD). */
export function diasCorridos(a: string, b: string): number {
  return Math.round((Date.parse(`${b.slice(0, 10)}T00:00:00Z`) - Date.parse(`${a.slice(0, 10)}T00:00:00Z`)) / 86_400_000);
}

/** Monday-to-Friday days after a up to and including b (holidays are not known here). */
export function diasUteis(a: string, b: string): number {
  const total = diasCorridos(a, b);
  if (total <= 0) return 0;
  const inicio = new Date(`${a.slice(0, 10)}T00:00:00Z`).getUTCDay();
  let n = 0;
  for (let i = 1; i <= total; i++) {
    const d = (inicio + i) % 7;
    if (d !== 0 && d !== 6) n++;
  }
  return n;
}

/** "hoje", "há 1 dia", "há 58 dias" */
export function idadeBR(dias: number): string {
  if (dias <= 0) return "hoje";
  return dias === 1 ? "há 1 dia" : `há ${dias} dias`;
}

/** How old a price reads: em_dia up to 3 business days, atrasado past the source's limit, envelhecendo between. */
export type Frescor = "em_dia" | "envelhecendo" | "atrasado";

export const FRESCOR_ROTULO: Record<Frescor, string> = { em_dia: "recente", envelhecendo: "antigo", atrasado: "desatualizado" };

/**
 * A price's freshness on the visitor's day. `atrasadaNoStatus` is status.json's verdict at the
 * last run; `maxIdadeDias` the source's limit when published: a page opened days after the
 * last run still turns stale by the visitor's clock.
 */
export function frescor(data: string, hoje: string, opts: { atrasadaNoStatus?: boolean; maxIdadeDias?: number | null } = {}): Frescor {
  if (opts.atrasadaNoStatus) return "atrasado";
  if (typeof opts.maxIdadeDias === "number" && diasCorridos(data, hoje) > opts.maxIdadeDias) return "atrasado";
  return diasUteis(data, hoje) <= 3 ? "em_dia" : "envelhecendo";
}

// shared with the page written at build (pipeline/site/painel.ts) and the Atom feed
export { ancoraSerie, hrefDoIndice, resumoAviso } from "../../domain/painel.ts";
