import { parseDateBR } from "../domain/dates.ts";
import { ParseError } from "../domain/errors.ts";
import { fromHundredths, parseBRDecimal } from "../domain/money.ts";
import type { Produto } from "../domain/products.ts";
import type { PriceRow } from "../domain/row.ts";
import { cellText, load, normKey, sortBySeries, type Cheerio$ } from "./html.ts";
import { lerPracaDaLinha, linhaDaPraca } from "./scot.ts";
import type { MirrorDef, ParsedPage } from "./types.ts";

/*
 * Notícias Agrícolas republishes Scot Consultoria's "Mercado Físico" on one page
 * (/cotacoes/boi-gordo/boi-gordo-scot-consultoria): a `div.cotacao` with "Fechamento: dd/mm/yyyy"
 * in `div.fechamento` and a `table.cot-fisicas` whose header is one plain row ("Município",
 * "Boi Gordo - (R$/@ - à vista)", "Boi Gordo - (R$/@ - prazo 30 dias)", "Vaca Gorda (R$/@ - à
 * vista)"). It carries only those three columns of Scot's table: no "# base", Funrural, Senar or
 * trend, and not the tfoot footnotes (the "*" of "MT Cuiabá*" has no text here, so no `nota`).
 * Praça labels are Scot's own ("SP Barretos", "SC", "Alagoas", "RS Oeste (kg)"), read by Scot's
 * parser's function. The sidebar holds unrelated futures tables (CME, B3, NYBOT), not cot-fisicas.
 */

type Coluna = "boi_avista" | "boi_30d" | "vaca_avista";

export const NA_ID = "noticias-agricolas";
export const NA_PATH = "/cotacoes/boi-gordo/boi-gordo-scot-consultoria";

function colunaDoCabecalho(label: string): Coluna | null {
  const k = normKey(label);
  const vista = /\bA VISTA\b/.test(k);
  const d30 = /\b30 DIAS\b/.test(k);
  if (k.startsWith("BOI GORDO")) return vista ? "boi_avista" : d30 ? "boi_30d" : null;
  if (k.startsWith("VACA GORDA")) return vista ? "vaca_avista" : null;
  return null;
}

interface Quadro {
  data: string | null;
  fechamento: string;
  colunas: Map<Coluna, number>;
  linhas: ReturnType<Cheerio$>;
}

/** The first table.cot-fisicas whose header names the Boi Gordo à vista column, with its closing date. */
function quadroScot($: Cheerio$): Quadro | null {
  for (const el of $("table.cot-fisicas").toArray()) {
    const table = $(el);
    const ths = table.find("thead tr").first().children("th, td").toArray();
    const colunas = new Map<Coluna, number>();
    ths.forEach((th, i) => {
      const c = colunaDoCabecalho(cellText($, th));
      if (c && !colunas.has(c)) colunas.set(c, i);
    });
    if (!colunas.has("boi_avista")) continue;
    const fechamento = cellText($, table.closest(".cotacao").find(".fechamento").first()[0] ?? el).trim();
    const m = fechamento.match(/Fechamento:\s*(\d{2}\/\d{2}\/\d{4})/i);
    return {
      data: m ? parseDateBR(m[1]!) : null,
      fechamento,
      colunas,
      linhas: table.find("tbody tr").filter((_, tr) => $(tr).children("td").length > 1),
    };
  }
  return null;
}

function hasTable(html: string): boolean {
  const q = quadroScot(load(html));
  return q !== null && q.linhas.length > 0;
}

function parseNA(html: string, produto: Produto): ParsedPage {
  const $ = load(html);
  const q = quadroScot($);
  const onde = 'Notícias Agrícolas, tabela "Mercado Físico - Scot Consultoria"';
  if (!q) throw new ParseError(`${onde} (table.cot-fisicas com "Boi Gordo à vista") não encontrada na página`, "soft_block");
  if (!q.data) throw new ParseError(`${onde}: data ilegível (esperado "Fechamento: dd/mm/aaaa", encontrado "${q.fechamento.slice(0, 60)}")`);
  const colValor: Coluna = produto === "boi_gordo" ? "boi_avista" : "vaca_avista";
  const cValor = q.colunas.get(colValor);
  if (cValor === undefined) {
    throw new ParseError(`${onde}: coluna "${produto === "boi_gordo" ? "Boi Gordo (à vista)" : "Vaca Gorda (à vista)"}" não encontrada no cabeçalho`);
  }
  const c30 = produto === "boi_gordo" ? q.colunas.get("boi_30d") : undefined;
  if (q.linhas.length === 0) throw new ParseError(`${onde} está vazia (nenhuma praça)`, "soft_block");

  const avisos: string[] = [];
  const rows: PriceRow[] = [];
  for (const tr of q.linhas.toArray()) {
    const cells = $(tr).children("td").toArray();
    const lida = lerPracaDaLinha($, cells[0]!, onde, avisos);
    if (!lida) continue;
    const { p, linha } = lida;
    const numero = (i: number | undefined, coluna: string): number | undefined => {
      const cell = i === undefined ? undefined : cells[i];
      const texto = cell ? cellText($, cell) : "";
      if (texto === "" || texto === "-") return undefined;
      const h = parseBRDecimal(texto);
      if (h === null) throw new ParseError(`${linha}: número inválido na coluna ${coluna}: "${texto}"`);
      return fromHundredths(h);
    };
    const valor = numero(cValor, "à vista");
    if (valor === undefined) {
      avisos.push(`${linha}: sem preço à vista; linha ignorada`);
      continue;
    }
    const extras: Record<string, number> = {};
    const v30 = numero(c30, "30 dias");
    if (v30 !== undefined) extras.valor_30d = v30;
    rows.push(linhaDaPraca({ p, linha }, produto, q.data, valor, extras));
  }
  if (rows.length === 0) throw new ParseError(`${onde}: nenhuma praça pôde ser lida (${avisos.join("; ")})`);
  return { rows: sortBySeries(rows, `espelho ${NA_ID} (${produto})`), avisos };
}

function espelho(produto: Produto): MirrorDef {
  return {
    id: NA_ID,
    nome: "Notícias Agrícolas",
    site: "https://www.noticiasagricolas.com.br",
    baseUrlEnv: "COTACAO_NA_URL",
    path: NA_PATH,
    hasTable,
    parse: (html: string) => parseNA(html, produto),
  };
}

/** Stands in for scot/boi-gordo: Boi Gordo à vista, with the 30-day price as `valor_30d`. */
export const naBoiGordo: MirrorDef = espelho("boi_gordo");
/** Stands in for scot/vaca-gorda: Vaca Gorda à vista (the page has no 30-day vaca price). */
export const naVacaGorda: MirrorDef = espelho("vaca_gorda");
