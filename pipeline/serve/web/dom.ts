/**
 * Browser helpers shared by the dashboard and the simulator page. Every text from the data goes
 * through textContent or an attribute, never innerHTML.
 */
import { formatDateBR } from "../../domain/dates.ts";
import { formatBRL, formatDecimalBR, formatNumeroDoPreco, formatPreco } from "../../domain/money.ts";
import { UNIDADE_INFO, type Unidade } from "../../domain/products.ts";
import { diasUteisEntre, motivoDesatualizada, passouDoLimite, type ContagemIdade } from "../../domain/idade.ts";
import type { StatusFile } from "../../domain/publicados.ts";

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

// the age rule status.json applies (pipeline/domain/idade.ts): one list of holidays for both
export { diasCorridos } from "../../domain/idade.ts";

/** Business days after a up to and including b: Monday to Friday, less Brazil's national holidays. */
export const diasUteis = diasUteisEntre;

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
 * last run; `maxIdadeDias` and `contagem` the source's limit and how its age is counted, as
 * status.json publishes them (calendar days in a file written before `contagem_idade`): the
 * verdict is status.json's own rule on the visitor's day, so a page left open turns stale when
 * status.json would, and not over a weekend or a holiday the source does not publish on.
 */
export function frescor(data: string, hoje: string, opts: { atrasadaNoStatus?: boolean; maxIdadeDias?: number | null; contagem?: ContagemIdade } = {}): Frescor {
  if (opts.atrasadaNoStatus) return "atrasado";
  if (typeof opts.maxIdadeDias === "number" && passouDoLimite(data, hoje, opts.maxIdadeDias, opts.contagem ?? "dias_corridos")) return "atrasado";
  return diasUteis(data, hoje) <= 3 ? "em_dia" : "envelhecendo";
}

/** A status.json source's limit and count, as far as the file says them (a file older than either says less). */
export function limiteDaFonte(f: { max_idade_dias?: unknown; contagem_idade?: unknown }): { maxIdadeDias: number | null; contagem: ContagemIdade } {
  return {
    maxIdadeDias: typeof f.max_idade_dias === "number" ? f.max_idade_dias : null,
    contagem: f.contagem_idade === "dias_uteis" ? "dias_uteis" : "dias_corridos",
  };
}

/**
 * status.json as its next run would write it on `hoje` with no new data: a source or series
 * that was ok and whose last day has since passed the source's limit is stale, with the reason
 * status.json gives. The stale banner of a page left open says it on the day it becomes true.
 * `fonteDaSerie` names a series' source (index.json); a series it does not know keeps its verdict.
 */
export function statusNoDia(status: StatusFile, hoje: string, fonteDaSerie: (id: string) => string | undefined, padrao: number | null = null): StatusFile {
  const limites = new Map<string, ReturnType<typeof limiteDaFonte>>(status.fontes.map((f) => [f.id, limiteDaFonte(f)]));
  const passou = (data: string | null, fonte: string | undefined): { motivo: string } | null => {
    const l = fonte === undefined ? undefined : limites.get(fonte);
    const max = l?.maxIdadeDias ?? padrao;
    if (data === null || !l || max === null || !passouDoLimite(data, hoje, max, l.contagem)) return null;
    return { motivo: motivoDesatualizada(data, max, l.contagem) };
  };
  return {
    ...status,
    fontes: status.fontes.map((f) => {
      const p = f.estado === "ok" ? passou(f.ultima_data, f.id) : null;
      return p ? { ...f, estado: "stale" as const, motivo: p.motivo } : f;
    }),
    series: status.series.map((s) => (s.estado === "ok" && passou(s.ultima_data, fonteDaSerie(s.id)) ? { ...s, estado: "stale" as const } : s)),
  };
}

// shared with the page written at build (pipeline/site/painel.ts) and the Atom feed
export { ancoraSerie, hrefDoIndice, resumoAviso } from "../../domain/painel.ts";
