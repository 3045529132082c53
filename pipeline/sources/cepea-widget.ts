import { parseDateBR } from "../domain/dates.ts";
import { ParseError } from "../domain/errors.ts";
import { fromHundredths } from "../domain/money.ts";
import type { Produto, Unidade } from "../domain/products.ts";
import type { PriceRow } from "../domain/row.ts";
import { cellText, checkedRow, checkLabel, checkRow, checkTableClosed, checkTableLabels, load, normKey, numeroCompleto, type Cheerio$ } from "./html.ts";
import type { MirrorDef, ParsedPage } from "./types.ts";

/*
 * CEPEA's widget (`/br/widgetproduto.js.php?id_indicador[]=N`), the script other sites embed to
 * show an indicator's latest price: the last resort when neither CEPEA's page (HTTP or the
 * browser) nor Notícias Agrícolas gives the indicator. The response is JavaScript, one
 * `document.write(`...`)` of a template literal holding a `<style>` (dropped when recorded) and
 * a `table.imagenet-widget-tabela`: a logo row in a first `thead`, the labels "Data | Produto |
 * Valor" in a second one, a `tfoot` ("Fonte: Cepea") and one body row per indicator asked for:
 * "05/08/2026 | Boi Gordo @ | R$ 348,55" (the product in `span.maior`, its unit in
 * `span.unidade`, the price after "R$ "). One day only, R$ only (no US$): a partial mirror of
 * the indicator's page (see MirrorDef). Whole or nothing: the script must be exactly one
 * document.write of one template literal ending in `)`; a response cut anywhere fails there.
 */

export const WIDGET_ID = "cepea-widget";

/** The widget's script for indicator N; the brackets of `id_indicador[]` percent-encoded (a valid URI for via_url). */
export const widgetPath = (n: number): string => `/br/widgetproduto.js.php?id_indicador%5B%5D=${n}`;

interface IndicadorWidget {
  /** CEPEA's indicator id (the `id_indicador[]` of the widget's address) */
  n: number;
  paraPagina: string;
  produto: Produto;
  unidade: Unidade;
  /** the product and unit as the widget writes them ("Boi Gordo", "@") */
  rotulo: string;
  unidadeRotulo: string;
}

/** The template literal's content, or why the script is not whole. */
function conteudo(js: string): string {
  if (js.includes("\u0000")) throw new ParseError("widget do CEPEA inválido: contém o caractere nulo U+0000");
  const m = js.match(/^\s*document\.write\(`([\s\S]*)`\)\s*;?\s*$/);
  if (!m) {
    const fim = js.slice(-40).replace(/\s+/g, " ");
    throw new ParseError(`widget do CEPEA incompleto ou diferente: esperado um único document.write(\`...\`), o texto termina em "${fim}"`);
  }
  const html = m[1]!;
  // a second literal or an interpolation would mean the script is not one plain write
  if (html.includes("`") || html.includes("${")) throw new ParseError("widget do CEPEA diferente: mais de um texto no document.write");
  return html;
}

function tabela($: Cheerio$) {
  return $("table.imagenet-widget-tabela");
}

function hasTable(js: string): boolean {
  let html: string;
  try {
    html = conteudo(js);
  } catch {
    return false;
  }
  const $ = load(html);
  return tabela($).children("tbody").children("tr").length > 0;
}

function parseWidget(js: string, ind: IndicadorWidget): ParsedPage {
  const onde = `widget do CEPEA, tabela "imagenet-widget-tabela" (indicador ${ind.n})`;
  const html = conteudo(js);
  const $ = load(html);
  const t = tabela($);
  if (t.length !== 1) throw new ParseError(`${onde} ${t.length === 0 ? "não encontrada" : "aparece mais de uma vez"} no script`, t.length === 0 ? "soft_block" : "parse_error");
  checkTableClosed(t[0]!, onde);
  checkTableLabels($, t[0]!, onde);
  // the labels are the header row of th cells (the other thead holds the logo)
  const cab = t.find("thead tr").toArray().filter((tr) => $(tr).children("th").length > 0);
  if (cab.length !== 1) throw new ParseError(`${onde}: ${cab.length} linhas de rótulos no cabeçalho, esperada uma`);
  const rotulos = $(cab[0]!).children("th, td").toArray().map((el) => normKey(cellText($, el)));
  const esperados = ["DATA", "PRODUTO", "VALOR"];
  if (rotulos.join("|") !== esperados.join("|")) {
    throw new ParseError(`${onde}: cabeçalho "${rotulos.join(" | ")}", esperado "Data | Produto | Valor"`);
  }
  const trs = t.children("tbody").children("tr").toArray();
  if (trs.length === 0) throw new ParseError(`${onde} está vazia (nenhum indicador)`, "soft_block");
  // one indicator was asked for: one row, of that indicator
  if (trs.length !== 1) throw new ParseError(`${onde}: ${trs.length} linhas, esperada uma (só o indicador ${ind.n} foi pedido)`);
  const linha = `${onde}, linha 1`;
  const cells = checkRow($, trs[0]!, 3, linha);
  const dataTexto = cellText($, cells[0]!);
  const data = parseDateBR(dataTexto);
  if (!data) throw new ParseError(`${linha}: data inválida "${dataTexto}" (esperado dd/mm/aaaa)`);
  const produto = cellText($, $(cells[1]!).find("span.maior").first()[0] ?? cells[1]!);
  const unidade = cellText($, $(cells[1]!).find("span.unidade").first()[0] ?? cells[1]!);
  if (normKey(produto) !== normKey(ind.rotulo) || unidade !== ind.unidadeRotulo || normKey(cellText($, cells[1]!)) !== normKey(`${ind.rotulo} ${ind.unidadeRotulo}`)) {
    throw new ParseError(`${linha}: produto "${cellText($, cells[1]!)}", esperado "${ind.rotulo} ${ind.unidadeRotulo}" (indicador ${ind.n})`);
  }
  const valorTexto = cellText($, cells[2]!);
  const vm = valorTexto.match(/^R\$ (\S+)$/);
  const h = vm ? numeroCompleto(vm[1]!) : null;
  if (h === null) throw new ParseError(`${linha}: valor inválido "${valorTexto}" (esperado "R$ " e um número com duas casas, como R$ 348,55)`);
  const row: PriceRow = { fonte: "cepea", produto: ind.produto, uf: null, praca: null, data, valor: fromHundredths(h), unidade: ind.unidade, extras: {} };
  return { rows: [checkedRow(row, linha)], avisos: [] };
}

function espelhoWidget(ind: IndicadorWidget): MirrorDef {
  return {
    paraPagina: ind.paraPagina,
    id: WIDGET_ID,
    nome: "widget do CEPEA",
    site: "https://www.cepea.org.br",
    // CEPEA's own host, with the indicator pages' variable
    baseUrlEnv: "COTACAO_CEPEA_URL",
    path: widgetPath(ind.n),
    arquivo: `cepea/widget/${ind.n}.js`,
    series: [ind.produto],
    // a script, not a page: Chromium already failed on this host's page, and would render the script as text
    navegador: false,
    hasTable,
    parse: (js) => parseWidget(js, ind),
  };
}

/**
 * Boi gordo (indicator 2), the only widget response recorded (test/fixtures/cepea/widget/2.js).
 * Other indicators' ids and labels are not declared until a response of theirs is recorded.
 */
export const widgetBoiGordo: MirrorDef = espelhoWidget({ n: 2, paraPagina: "cepea/boi-gordo", produto: "boi_gordo", unidade: "@", rotulo: "Boi Gordo", unidadeRotulo: "@" });

export const ESPELHOS_WIDGET: readonly MirrorDef[] = [widgetBoiGordo];
