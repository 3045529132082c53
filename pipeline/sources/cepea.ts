import { parseDateBR } from "../domain/dates.ts";
import { ParseError } from "../domain/errors.ts";
import { fromHundredths } from "../domain/money.ts";
import type { PriceRow } from "../domain/row.ts";
import type { SerieDecl } from "../domain/series.ts";
import {
  cellText,
  checkDocumentEnd,
  checkedRow,
  checkLabel,
  checkFragmentTables,
  checkRow,
  checkTableClosed,
  checkTableLabels,
  headerLayout,
  isPercentual,
  load,
  numeroCompleto,
  normKey,
  sortBySeries,
  type Cheerio$,
} from "./html.ts";
import type { PageDef, ParsedPage, SourceDef } from "./types.ts";

/** One indicator table of a CEPEA page and the series it feeds (its catalogue entry). */
interface Indicador extends SerieDecl {
  /** the table's title as CEPEA writes it (compared without accents or case) */
  titulo: string;
}

/*
 * CEPEA indicator pages ("/br/indicador/{produto}.aspx") show several tables, each under a
 * `div.imagenet-table-titulo` followed by the div that wraps the table. Positions and ids
 * (`#imagenet-indicador1`, `#imagenet-indicador2`) are not stable: the second table is the
 * "Média a Prazo" on the boi page, "Peso Médio" on the bezerro page and the Paraná indicator on
 * the soja page. Tables are therefore found by their title only. The daily table lists 15 days,
 * newest first; only the first 5 are visible, the rest carry `imagenet-tbl-esconder` ("Mais
 * valores") and are read as well.
 */

type Table = ReturnType<Cheerio$>;

/** Titles of every table on the page, for error messages. */
function titulos($: Cheerio$): string[] {
  return $("div.imagenet-table-titulo")
    .toArray()
    .map((el) => cellText($, el));
}

/**
 * Titles are how tables are found, so a title the page garbled (U+FFFD of a wrong charset,
 * control characters) is refused instead of being silently "not found".
 */
function checkTitulos($: Cheerio$): void {
  for (const el of $("div.imagenet-table-titulo").toArray()) checkLabel($(el).text(), "título de tabela");
}

/** The table right after the title `titulo`, or null when the page has no such title/table. */
function tabelaPorTitulo($: Cheerio$, titulo: string): Table | null {
  const wanted = normKey(titulo);
  for (const el of $("div.imagenet-table-titulo").toArray()) {
    if (normKey(cellText($, el)) !== wanted) continue;
    const wrapper = $(el).nextAll().first();
    const table = wrapper.is("table") ? wrapper : wrapper.find("table").first();
    if (table.length > 0) return table;
  }
  return null;
}

/**
 * Data rows: every row of the table's body but a header row (one of th cells only, when the
 * header is not in a thead). An empty row is a data row, and refused as incomplete.
 */
function linhas($: Cheerio$, table: Table) {
  return table
    .children("tbody")
    .children("tr")
    .toArray()
    .filter((tr) => $(tr).children("th").length === 0 || $(tr).children("td").length > 0);
}

type CampoCepea = "data" | "valor" | "valor_usd" | "var_dia" | "var_mes";

/*
 * The five columns of every indicator table this project reads, identified by their labels
 * (compared without accents or case, footnote "*" allowed): the date has no label (an &nbsp;).
 * "Valor R$" and "Valor US$" may carry a unit ("Valor R$/t"). A column not in this list, or one
 * of them missing, means the layout changed: the page is refused, never read by position.
 */
const COLUNAS: readonly { campo: CampoCepea; nome: string; test: (key: string) => boolean }[] = [
  { campo: "data", nome: "(data, sem rótulo)", test: (k) => k === "" || k === "DATA" },
  { campo: "valor", nome: "Valor R$", test: (k) => /^VALOR R\$(\/[^*]+)?\*?$/.test(k) },
  { campo: "var_dia", nome: "Var./Dia", test: (k) => /^VAR\. ?\/ ?DIA$/.test(k) },
  { campo: "var_mes", nome: "Var./Mês", test: (k) => /^VAR\. ?\/ ?MES$/.test(k) },
  { campo: "valor_usd", nome: "Valor US$", test: (k) => /^VALOR US\$(\/[^*]+)?\*?$/.test(k) },
];

function colunasPorRotulo(labels: string[], onde: string): Map<CampoCepea, number> {
  const achadas = new Map<CampoCepea, number>();
  const problemas: string[] = [];
  labels.forEach((label, i) => {
    const col = COLUNAS.find((c) => c.test(normKey(label)));
    if (!col) problemas.push(`coluna desconhecida "${label}"`);
    else if (achadas.has(col.campo)) problemas.push(`coluna "${col.nome}" aparece duas vezes`);
    else achadas.set(col.campo, i);
  });
  const faltam = COLUNAS.filter((c) => !achadas.has(c.campo)).map((c) => `coluna "${c.nome}" não encontrada`);
  problemas.unshift(...faltam);
  if (problemas.length > 0) {
    throw new ParseError(
      `${onde}: ${problemas.join("; ")} no cabeçalho ` +
        `(esperadas ${COLUNAS.map((c) => `"${c.nome}"`).join(", ")}; encontradas ${labels.map((l) => `"${l}"`).join(", ")})`,
    );
  }
  return achadas;
}

function lerIndicador($: Cheerio$, ind: Indicador): PriceRow[] {
  const onde = `tabela "${ind.titulo}"`;
  const table = tabelaPorTitulo($, ind.titulo);
  if (!table) {
    const vistos = titulos($);
    throw new ParseError(
      `${onde} não encontrada na página` +
        (vistos.length ? ` (tabelas presentes: ${vistos.map((t) => `"${t}"`).join(", ")})` : " (nenhuma tabela de indicador)"),
      "soft_block",
    );
  }
  checkTableClosed(table[0]!, onde);
  checkTableLabels($, table[0]!, onde);

  const headerRows = table.find("thead tr").toArray();
  if (headerRows.length > 1) {
    throw new ParseError(`${onde}: cabeçalho com ${headerRows.length} linhas, esperada uma`);
  }
  const { columns, largura } = headerLayout($, headerRows.length ? headerRows : table.find("tr").first().toArray());
  const labels = columns.map((c) => c[c.length - 1] ?? "");
  const col = colunasPorRotulo(labels, onde);
  const cData = col.get("data")!;
  const cValor = col.get("valor")!;
  const cUsd = col.get("valor_usd")!;

  const trs = linhas($, table);
  if (trs.length === 0) throw new ParseError(`${onde} está vazia (nenhuma linha de dados)`, "soft_block");

  return trs.map((tr, n) => {
    const linha = `${onde}, linha ${n + 1}`;
    const cells = checkRow($, tr, largura, linha);
    const texto = (i: number) => cellText($, cells[i]!);
    const data = parseDateBR(texto(cData));
    if (!data) throw new ParseError(`${linha}: data inválida "${texto(cData)}" (esperado dd/mm/aaaa)`);
    const numero = (i: number): number => {
      const h = numeroCompleto(texto(i));
      if (h === null) {
        throw new ParseError(
          `${linha} (${texto(cData)}): número inválido na coluna "${labels[i]}": "${texto(i)}" (esperado um número com duas casas, como 66,38 ou 3.426,02)`,
        );
      }
      return h;
    };
    const valor = numero(cValor);
    const usd = numero(cUsd);
    // the variations are not published, but a cut or garbled one means the row is not whole
    for (const campo of ["var_dia", "var_mes"] as const) {
      const i = col.get(campo)!;
      if (!isPercentual(texto(i)) && texto(i) !== "-") {
        throw new ParseError(`${linha} (${texto(cData)}): variação inválida na coluna "${labels[i]}": "${texto(i)}" (esperado como 0,96% ou -0,28%)`);
      }
    }
    return checkedRow(
      {
        fonte: "cepea",
        produto: ind.produto,
        uf: ind.uf,
        praca: null,
        data,
        valor: fromHundredths(valor),
        unidade: ind.unidade,
        extras: { valor_usd: fromHundredths(usd) },
      },
      `${linha} (${texto(cData)})`,
    );
  });
}

function pagina(id: string, path: string, titulo: string, indicadores: [Indicador, ...Indicador[]]): PageDef {
  return {
    id,
    path,
    titulo,
    hasTable(html: string): boolean {
      const $ = load(html);
      const table = tabelaPorTitulo($, indicadores[0].titulo);
      return table !== null && linhas($, table).length > 0;
    },
    parse(html: string): ParsedPage {
      checkDocumentEnd(html);
      const $ = load(html);
      checkFragmentTables($, html);
      checkTitulos($);
      const rows = indicadores.flatMap((ind) => lerIndicador($, ind));
      return { rows: sortBySeries(rows, `página ${id}`), avisos: [] };
    },
    series: indicadores.map(({ titulo: _, ...decl }) => decl),
  };
}

export const cepea: SourceDef = {
  id: "cepea",
  nome: "CEPEA/ESALQ-USP",
  nomeCurto: "CEPEA/ESALQ",
  site: "https://www.cepea.org.br",
  baseUrlEnv: "COTACAO_CEPEA_URL",
  maxIdadeDias: 5,
  termos: {
    licenca: "CC BY-NC 4.0",
    citacao: "Cepea/Esalq-USP",
    texto:
      'Os dados do Cepea são disponibilizados sob a licença Creative Commons Atribuição-NãoComercial 4.0 (CC BY-NC 4.0) e devem ser citados como "Cepea/Esalq-USP".',
    url: "https://www.cepea.org.br/br/licenca-de-uso-de-dados.aspx",
  },
  pages: [
    pagina("boi-gordo", "/br/indicador/boi-gordo.aspx", "Indicador do Boi Gordo CEPEA/ESALQ (SP, à vista)", [
      // the page also has "Media Móvel (5 últimos indic.)" and "Boi Gordo - Média a Prazo"; not read
      { titulo: "INDICADOR DO BOI GORDO CEPEA/ESALQ", produto: "boi_gordo", uf: null, unidade: "@", regiao: "Estado de São Paulo (Indicador do Boi Gordo CEPEA/ESALQ, à vista)" },
    ]),
    pagina("bezerro", "/br/indicador/bezerro.aspx", "Indicador do Bezerro CEPEA/ESALQ (MS, por cabeça)", [
      // the price is per head ("3.426,02"); "Peso Médio do Bezerro - MS" (kg) is not read
      { titulo: "INDICADOR DO BEZERRO CEPEA/ESALQ - MATO GROSSO DO SUL", produto: "bezerro", uf: null, unidade: "cabeca", regiao: "Mato Grosso do Sul (Indicador do Bezerro CEPEA/ESALQ)" },
    ]),
    pagina("milho", "/br/indicador/milho.aspx", "Indicador do Milho ESALQ/BM&FBovespa (Campinas-SP)", [
      { titulo: "INDICADOR DO MILHO ESALQ/BM&FBOVESPA", produto: "milho", uf: null, unidade: "sc60kg", regiao: "Campinas, SP (Indicador do Milho ESALQ/BM&FBovespa)" },
    ]),
    pagina("soja", "/br/indicador/soja.aspx", "Indicadores da Soja CEPEA/ESALQ (Paranaguá e Paraná)", [
      // two tables whose titles differ only in "PARANAGUÁ" / "PARANÁ": titles are compared whole
      { titulo: "INDICADOR DA SOJA CEPEA/ESALQ - PARANAGUÁ", produto: "soja", uf: null, unidade: "sc60kg", regiao: "Paranaguá, PR (Indicador da Soja CEPEA/ESALQ)" },
      {
        titulo: "INDICADOR DA SOJA CEPEA/ESALQ - PARANÁ",
        produto: "soja",
        uf: "PR",
        unidade: "sc60kg",
        regiao: "Paraná (Indicador da Soja CEPEA/ESALQ - Paraná)",
        praca: "Paraná (média estadual)",
      },
    ]),
  ],
};
