import { parseDateBR } from "../domain/dates.ts";
import { ParseError } from "../domain/errors.ts";
import { fromHundredths } from "../domain/money.ts";
import type { Produto } from "../domain/products.ts";
import type { PriceRow } from "../domain/row.ts";
import {
  cellText,
  checkDocumentEnd,
  checkFragmentTables,
  checkLabel,
  checkRow,
  checkTableClosed,
  checkTableLabels,
  load,
  normKey,
  numeroCompleto,
  sortBySeries,
  type Cheerio$,
} from "./html.ts";
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

type Coluna = "municipio" | "boi_avista" | "boi_30d" | "vaca_avista";

export const NA_ID = "noticias-agricolas";
export const NA_PATH = "/cotacoes/boi-gordo/boi-gordo-scot-consultoria";

/** The four columns of the table, in the words of its header; any other column is refused. */
const NOME_COLUNA: Record<Coluna, string> = {
  municipio: "Município",
  boi_avista: "Boi Gordo - (R$/@ - à vista)",
  boi_30d: "Boi Gordo - (R$/@ - prazo 30 dias)",
  vaca_avista: "Vaca Gorda (R$/@ - à vista)",
};
const COLUNAS = Object.keys(NOME_COLUNA) as Coluna[];

function colunaDoCabecalho(label: string): Coluna | null {
  const k = normKey(label);
  const vista = /\bA VISTA\b/.test(k);
  const d30 = /\b30 DIAS\b/.test(k);
  if (k === "MUNICIPIO" || k === "PRACA") return "municipio";
  if (vista && d30) return null;
  if (k.startsWith("BOI GORDO")) return vista ? "boi_avista" : d30 ? "boi_30d" : null;
  if (k.startsWith("VACA GORDA")) return vista ? "vaca_avista" : null;
  return null;
}

interface Quadro {
  el: ReturnType<Cheerio$>;
  data: string | null;
  fechamento: string;
  /** the closing date's text as written (control characters not collapsed) */
  fechamentoBruto: string;
  /** the header's labels, left to right */
  rotulos: string[];
  linhas: ReturnType<Cheerio$>;
}

/** The first table.cot-fisicas whose header names the Boi Gordo à vista column, with its closing date. */
function quadroScot($: Cheerio$): Quadro | null {
  for (const el of $("table.cot-fisicas").toArray()) {
    const table = $(el);
    const ths = table.find("thead tr").first().children("th, td").toArray();
    const rotulos = ths.map((th) => cellText($, th));
    if (!rotulos.some((r) => colunaDoCabecalho(r) === "boi_avista")) continue;
    const fechamentoEl = table.closest(".cotacao").find(".fechamento").first()[0] ?? el;
    const fechamento = cellText($, fechamentoEl);
    const m = fechamento.match(/Fechamento:\s*(\d{2}\/\d{2}\/\d{4})/i);
    return {
      el: table,
      data: m ? parseDateBR(m[1]!) : null,
      fechamento,
      fechamentoBruto: $(fechamentoEl).text(),
      rotulos,
      linhas: table.children("tbody").children("tr"),
    };
  }
  return null;
}

function hasTable(html: string): boolean {
  const q = quadroScot(load(html));
  return q !== null && q.linhas.length > 0;
}

/** Columns by their header labels: each of the four exactly once, nothing else. */
function colunasDoQuadro(q: Quadro, onde: string): Map<Coluna, number> {
  const colunas = new Map<Coluna, number>();
  const problemas: string[] = [];
  q.rotulos.forEach((rotulo, i) => {
    const c = colunaDoCabecalho(rotulo);
    if (c === null) problemas.push(`coluna desconhecida "${rotulo}"`);
    else if (colunas.has(c)) problemas.push(`coluna "${NOME_COLUNA[c]}" aparece duas vezes`);
    else colunas.set(c, i);
  });
  problemas.unshift(...COLUNAS.filter((c) => !colunas.has(c)).map((c) => `coluna "${NOME_COLUNA[c]}" não encontrada`));
  if (colunas.get("municipio") !== undefined && colunas.get("municipio") !== 0) {
    problemas.push(`a coluna "${NOME_COLUNA.municipio}" deveria ser a primeira`);
  }
  if (problemas.length > 0) {
    throw new ParseError(
      `${onde}: ${problemas.join("; ")} no cabeçalho ` +
        `(esperadas ${COLUNAS.map((c) => `"${NOME_COLUNA[c]}"`).join(", ")}; encontradas ${q.rotulos.map((r) => `"${r}"`).join(", ")})`,
    );
  }
  return colunas;
}

function parseNA(html: string, produto: Produto): ParsedPage {
  checkDocumentEnd(html);
  const $ = load(html);
  checkFragmentTables($, html);
  const q = quadroScot($);
  const onde = 'Notícias Agrícolas, tabela "Mercado Físico - Scot Consultoria"';
  if (!q) throw new ParseError(`${onde} (table.cot-fisicas com "Boi Gordo à vista") não encontrada na página`, "soft_block");
  checkTableClosed(q.el[0]!, onde);
  checkTableLabels($, q.el[0]!, onde);
  checkLabel(q.fechamentoBruto, `${onde}, data de fechamento`);
  const data = q.data;
  if (!data) throw new ParseError(`${onde}: data ilegível (esperado "Fechamento: dd/mm/aaaa", encontrado "${q.fechamento.slice(0, 60)}")`);
  if (q.el.find("thead tr").length !== 1) {
    throw new ParseError(`${onde}: cabeçalho com ${q.el.find("thead tr").length} linhas, esperada uma`);
  }
  const colunas = colunasDoQuadro(q, onde);
  const cValor = colunas.get(produto === "boi_gordo" ? "boi_avista" : "vaca_avista")!;
  const c30 = produto === "boi_gordo" ? colunas.get("boi_30d") : undefined;
  if (q.linhas.length === 0) throw new ParseError(`${onde} está vazia (nenhuma praça)`, "soft_block");

  const avisos: string[] = [];
  const rows: PriceRow[] = [];
  q.linhas.toArray().forEach((tr, n) => {
    const cells = checkRow($, tr, q.rotulos.length, `${onde}, praça ${n + 1} ("${cellText($, $(tr).children("td, th").first()[0] ?? tr)}")`);
    // every price cell must be whole, also the ones this product does not read
    const numeros = new Map<number, number | undefined>();
    for (const c of ["boi_avista", "boi_30d", "vaca_avista"] as const) {
      const i = colunas.get(c)!;
      const texto = cellText($, cells[i]!);
      if (texto === "" || texto === "-") {
        numeros.set(i, undefined);
        continue;
      }
      const h = numeroCompleto(texto);
      if (h === null) {
        throw new ParseError(
          `${onde}, praça "${cellText($, cells[0]!)}": número inválido na coluna "${q.rotulos[i]}": "${texto}" (esperado um número com duas casas, como 326,00)`,
        );
      }
      numeros.set(i, fromHundredths(h));
    }
    const lida = lerPracaDaLinha($, cells[0]!, onde, avisos);
    if (!lida) return;
    const { p, linha } = lida;
    const valor = numeros.get(cValor);
    if (valor === undefined) {
      avisos.push(`${linha}: sem preço à vista; linha ignorada`);
      return;
    }
    const extras: Record<string, number> = {};
    const v30 = c30 === undefined ? undefined : numeros.get(c30);
    if (v30 !== undefined) extras.valor_30d = v30;
    rows.push(linhaDaPraca({ p, linha }, produto, data, valor, extras));
  });
  if (rows.length === 0) throw new ParseError(`${onde}: nenhuma praça pôde ser lida (${avisos.join("; ")})`);
  return { rows: sortBySeries(rows, `espelho ${NA_ID} (${produto})`), avisos };
}

function espelho(produto: Produto, paraPagina: string): MirrorDef {
  return {
    paraPagina,
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
export const naBoiGordo: MirrorDef = espelho("boi_gordo", "scot/boi-gordo");
/** Stands in for scot/vaca-gorda: Vaca Gorda à vista (the page has no 30-day vaca price). */
export const naVacaGorda: MirrorDef = espelho("vaca_gorda", "scot/vaca-gorda");

/** The pages Notícias Agrícolas republishes, each standing in for the source's own page. */
export const ESPELHOS_NA: readonly MirrorDef[] = [naBoiGordo, naVacaGorda];
