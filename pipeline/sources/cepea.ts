import { parseDateBR } from "../domain/dates.ts";
import { ParseError } from "../domain/errors.ts";
import { fromHundredths } from "../domain/money.ts";
import type { PriceRow } from "../domain/row.ts";
import type { SerieDecl } from "../domain/series.ts";
import type { UF } from "../domain/ufs.ts";
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

/**
 * One indicator table of a CEPEA page and a series it feeds (its catalogue entry). A table that
 * lists several states (the suíno vivo indicator) is declared once per state, each with the same
 * title and the state's label in its "Estado" column.
 */
interface Indicador extends SerieDecl {
  /** the table's title as CEPEA writes it (compared without accents or case) */
  titulo: string;
  /** the table's columns, every one of them, in any order; the five of the classic layout when omitted */
  colunas?: readonly Coluna[];
  /** the label of this series' rows in the table's "Estado" column ("MG - posto") */
  estado?: string;
  /**
   * the indicator's number on CEPEA, as the table's "Série de preços" link carries it
   * ("/br/indicador/series/frango.aspx?id=181"), when it is not `serieHistorica.id` (the same
   * number); the tables without such a link (citros) have none
   */
  serieCepea?: number;
  /**
   * the slug of the table's "Metodologia" link ("metodologia-laranja-pera-in-natura"), for the
   * tables that have no "Série de preços" link (citros) and so nothing else that names them
   */
  metodologia?: string;
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
  return secaoPorTitulo($, titulo)?.table ?? null;
}

/**
 * The table right after the title `titulo`, and what the links that follow it up to the next
 * title (the div.imagenet-links-after-table under each indicator) say it is: the indicator ids of
 * its "Série de preços" links (NaN for one without an id) and the slugs of its "Metodologia" links.
 */
function secaoPorTitulo($: Cheerio$, titulo: string): { table: Table; series: number[]; metodologias: string[] } | null {
  const wanted = normKey(titulo);
  const iguais = $("div.imagenet-table-titulo")
    .toArray()
    .filter((el) => normKey(cellText($, el)) === wanted);
  // a title is how a table is found: twice on a page (a moving average given the indicator's
  // title and placed first), the first is not known to be the indicator
  if (iguais.length > 1) {
    throw new ParseError(`a página tem ${iguais.length} tabelas com o título "${titulo}"; não se sabe qual é o indicador (uma média ou outra tabela com o mesmo título?)`);
  }
  for (const el of iguais) {
    const wrapper = $(el).nextAll().first();
    const table = wrapper.is("table") ? wrapper : wrapper.find("table").first();
    if (table.length === 0) continue;
    const hrefs = $(el)
      .nextUntil("div.imagenet-table-titulo")
      .find("a[href]")
      .toArray()
      .map((a) => ($(a).attr("href") ?? "").toLowerCase());
    const series = hrefs.flatMap((h) => {
      if (!h.includes("/indicador/series/")) return [];
      const id = /[?&]id=(\d+)/.exec(h)?.[1];
      return [id === undefined ? Number.NaN : Number(id)];
    });
    const metodologias = hrefs.flatMap((h) => /\/metodologia\/([a-z0-9-]+)\.aspx/.exec(h)?.[1] ?? []);
    return { table, series, metodologias };
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

/**
 * What a column holds: the day, the price (in R$, or centavos for cotton), the price in US$, a
 * variation in percent, a number the page prints but this project does not publish (a moving
 * average, a payment term in days: checked whole, "-" allowed, not read), or the state a row is
 * from.
 */
type Papel = "data" | "valor" | "valor_usd" | "variacao" | "numero" | "estado";

interface Coluna {
  papel: Papel;
  /** the label as CEPEA writes it, for messages */
  nome: string;
  /** matches the label's key (normKey: no accents, upper case; footnote "*" as written) */
  test: (key: string) => boolean;
}

/*
 * Columns are identified by their labels (compared without accents or case, footnote "*"
 * allowed): the date has no label (an &nbsp;). "Valor R$" and "Valor US$" may carry a unit
 * ("Valor R$/t"). Each table declares every column it has; a column not in its list, or one of
 * them missing, means the layout changed: the page is refused, never read by position.
 */
const DATA: Coluna = { papel: "data", nome: "(data, sem rótulo)", test: (k) => k === "" || k === "DATA" };
const VALOR_RS: Coluna = { papel: "valor", nome: "Valor R$", test: (k) => /^VALOR R\$(\/[^*]+)?\*?$/.test(k) };
const VAR_DIA: Coluna = { papel: "variacao", nome: "Var./Dia", test: (k) => /^VAR\. ?\/ ?DIA$/.test(k) };
const VAR_MES: Coluna = { papel: "variacao", nome: "Var./Mês", test: (k) => /^VAR\. ?\/ ?MES$/.test(k) };
const VALOR_USD: Coluna = { papel: "valor_usd", nome: "Valor US$", test: (k) => /^VALOR US\$(\/[^*]+)?\*?$/.test(k) };
/** the price of the citrus tables and of the boi page's "Média a Prazo" */
const A_PRAZO: Coluna = { papel: "valor", nome: "A Prazo", test: (k) => k === "A PRAZO" };
/** the price of the carcaça suína especial */
const MEDIA: Coluna = { papel: "valor", nome: "Média", test: (k) => k === "MEDIA" };
/** cotton is quoted in centavos of real per pound ("lp", libra-peso) */
const CENTAVOS_LP: Coluna = { papel: "valor", nome: "Centavos R$/lp", test: (k) => /^CENTAVOS R\$ ?\/ ?LP\*?$/.test(k) };
/** the citrus tables' five-day moving average ("Nota: média móvel de cinco dias") */
const MEDIA_5_DIAS: Coluna = { papel: "numero", nome: "5 dias", test: (k) => k === "5 DIAS" };
/** cotton's average payment term in days (19,22): not a price, and not US$ */
const PRAZO_PGTO: Coluna = { papel: "numero", nome: "Prazo pgto. (dias)", test: (k) => /^PRAZO PGTO\. ?\(DIAS\)$/.test(k) };
/** the boi "Média a Prazo" table's average payment term (PMP), in days, "-" on most days */
const PMP: Coluna = { papel: "numero", nome: "PMP", test: (k) => k === "PMP" };
/** the suíno vivo table lists one row per state and day: "MG - posto", "PR - a retirar" */
const ESTADO: Coluna = { papel: "estado", nome: "Estado", test: (k) => k === "ESTADO" };

/** The classic layout: date, R$, the two variations, US$ (boi, bezerro, milho, soja, café, ...). */
const CLASSICA: readonly Coluna[] = [DATA, VALOR_RS, VAR_DIA, VAR_MES, VALOR_USD];
/** Without US$ (frango). */
const SEM_USD: readonly Coluna[] = [DATA, VALOR_RS, VAR_DIA, VAR_MES];

function colunasPorRotulo(labels: string[], esperadas: readonly Coluna[], onde: string): Map<Coluna, number> {
  const achadas = new Map<Coluna, number>();
  const problemas: string[] = [];
  labels.forEach((label, i) => {
    const col = esperadas.find((c) => c.test(normKey(label)));
    if (!col) problemas.push(`coluna desconhecida "${label}"`);
    else if (achadas.has(col)) problemas.push(`coluna "${col.nome}" aparece duas vezes`);
    else achadas.set(col, i);
  });
  const faltam = esperadas.filter((c) => !achadas.has(c)).map((c) => `coluna "${c.nome}" não encontrada`);
  problemas.unshift(...faltam);
  if (problemas.length > 0) {
    throw new ParseError(
      `${onde}: ${problemas.join("; ")} no cabeçalho ` +
        `(esperadas ${esperadas.map((c) => `"${c.nome}"`).join(", ")}; encontradas ${labels.map((l) => `"${l}"`).join(", ")})`,
    );
  }
  return achadas;
}

/** One data row of a table, read whole. */
interface Lida {
  data: string;
  /** the date as the page writes it, for messages */
  dataTexto: string;
  valor: number;
  /** "Var./Dia" in hundredths of a percentage point (0,96% -> 96); null without the column or for "-" */
  varDia: number | null;
  varDiaTexto: string;
  usd: number | null;
  estado: string | null;
  /** every cell's text: two rows of one day are the same row only when this is equal */
  celulas: string;
  onde: string;
}

/** Reads every row of the table titled `titulo`, checking each cell; the page is refused on the first bad one. */
function lerTabela($: Cheerio$, titulo: string, esperadas: readonly Coluna[], identidade: { serieCepea?: number; metodologia?: string } = {}): Lida[] {
  const onde = `tabela "${titulo}"`;
  const secao = secaoPorTitulo($, titulo);
  const table = secao?.table ?? null;
  if (!secao || !table) {
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
  const col = colunasPorRotulo(labels, esperadas, onde);
  const cData = col.get(DATA)!;
  const cValor = esperadas.filter((c) => c.papel === "valor").map((c) => col.get(c)!)[0]!;
  const cUsd = col.get(VALOR_USD);
  const cEstado = col.get(ESTADO);
  const cVarDia = col.get(VAR_DIA);

  const trs = linhas($, table);
  if (trs.length === 0) throw new ParseError(`${onde} está vazia (nenhuma linha de dados)`, "soft_block");

  let anterior: { data: string; texto: string } | null = null;
  const lidas = trs.map((tr, n): Lida => {
    const linha = `${onde}, linha ${n + 1}`;
    const cells = checkRow($, tr, largura, linha);
    const texto = (i: number) => cellText($, cells[i]!);
    const data = parseDateBR(texto(cData));
    if (!data) throw new ParseError(`${linha}: data inválida "${texto(cData)}" (esperado dd/mm/aaaa)`);
    // CEPEA lists the days newest first (the suíno vivo table: one row per state, day by day); a
    // day out of that order is a date mistyped (a month, a year) or a row from elsewhere
    if (anterior && data > anterior.data) {
      throw new ParseError(
        `${onde}, linhas ${n} e ${n + 1}: datas fora de ordem (${anterior.texto} antes de ${texto(cData)}); a tabela lista os dias do mais recente ao mais antigo, ` +
          `então uma das duas está errada (mês ou ano trocado, ou linha de outro lugar)`,
      );
    }
    anterior = { data, texto: texto(cData) };
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
    const usd = cUsd === undefined ? null : numero(cUsd);
    // the variations and the other numbers are not published, but a cut or garbled one means
    // the row is not whole
    for (const c of esperadas) {
      const i = col.get(c)!;
      if (c.papel === "variacao" && !isPercentual(texto(i)) && texto(i) !== "-") {
        throw new ParseError(`${linha} (${texto(cData)}): variação inválida na coluna "${labels[i]}": "${texto(i)}" (esperado como 0,96% ou -0,28%)`);
      }
      if (c.papel === "numero" && numeroCompleto(texto(i)) === null && texto(i) !== "-") {
        throw new ParseError(`${linha} (${texto(cData)}): número inválido na coluna "${labels[i]}": "${texto(i)}" (esperado um número com duas casas ou "-")`);
      }
    }
    const estado = cEstado === undefined ? null : texto(cEstado);
    if (estado === "") throw new ParseError(`${linha} (${texto(cData)}): estado em branco na coluna "${labels[cEstado!]}"`);
    const varDiaTexto = cVarDia === undefined ? "" : texto(cVarDia);
    return {
      data,
      dataTexto: texto(cData),
      valor,
      varDia: cVarDia === undefined || varDiaTexto === "-" ? null : numeroCompleto(varDiaTexto.slice(0, -1)),
      varDiaTexto,
      usd,
      estado,
      celulas: cells.map((_, i) => texto(i)).join("\u0000"),
      onde: `${linha} (${texto(cData)})`,
    };
  });
  // Titles are typed by hand on CEPEA's pages; the "Série de preços" link under each table is
  // made from the indicator's own number. Two titles swapped (frango congelado/resfriado, arroz
  // 58%/59-62%: values within a revision's reach of each other) show as a link to the other
  // indicator. Every declared table has exactly one on the recorded pages: a table without it
  // (or with two) cannot be told from another, and is refused. The citros tables have none; their
  // "Metodologia" link names each of them instead. Checked after the rows: a page cut inside the
  // table is named by its cut cell, not by the links the cut took with it.
  const { serieCepea, metodologia } = identidade;
  if (serieCepea !== undefined && (secao.series.length !== 1 || secao.series[0] !== serieCepea)) {
    const achados = secao.series.map((id) => (Number.isNaN(id) ? "o indicador sem id" : `o indicador id=${id}`)).join(" e ");
    throw new ParseError(
      secao.series.length === 0
        ? `${onde}: sem o link "Série de preços" logo abaixo dela, que diz de que indicador ela é (esperado id=${serieCepea})`
        : `${onde}: o link "Série de preços" logo abaixo dela aponta para ${achados}, esperado id=${serieCepea} (títulos trocados entre tabelas?)`,
    );
  }
  if (metodologia !== undefined && (secao.metodologias.length !== 1 || secao.metodologias[0] !== metodologia)) {
    throw new ParseError(
      secao.metodologias.length === 0
        ? `${onde}: sem o link "Metodologia" logo abaixo dela, que diz de que indicador ela é (esperado ${metodologia})`
        : `${onde}: o link "Metodologia" logo abaixo dela aponta para ${secao.metodologias.join(" e ")}, esperado ${metodologia} (títulos trocados entre tabelas?)`,
    );
  }
  return lidas;
}

/**
 * The rows of one table for the series declared on it: one series, or one per state when the
 * table has an "Estado" column (a state it does not declare, or a declared one it does not list,
 * refuses the page). A day listed twice in a series is taken once when both rows are identical
 * (the citrus tables repeat 26/08/2026, cell for cell) and said in `avisos`; two different
 * values for one day refuse the page.
 */
function lerIndicadores($: Cheerio$, inds: readonly Indicador[], avisos: string[]): PriceRow[] {
  const { titulo } = inds[0]!;
  const onde = `tabela "${titulo}"`;
  const lidas = lerTabela($, titulo, inds[0]!.colunas ?? CLASSICA, { serieCepea: inds[0]!.serieCepea ?? inds[0]!.serieHistorica?.id, metodologia: inds[0]!.metodologia });
  const porEstado = inds[0]!.estado !== undefined;
  const serieDe = (l: Lida): Indicador => {
    if (!porEstado) return inds[0]!;
    const ind = inds.find((i) => normKey(i.estado!) === normKey(l.estado!));
    if (!ind) {
      throw new ParseError(
        `${l.onde}: estado desconhecido "${l.estado}" (esperados ${inds.map((i) => `"${i.estado}"`).join(", ")}): a tabela mudou?`,
      );
    }
    return ind;
  };
  const rows: PriceRow[] = [];
  const vistas = new Map<string, Lida>();
  /** each series' rows in the table's order, newest first */
  const daSerie = new Map<Indicador, Lida[]>();
  for (const l of lidas) {
    const ind = serieDe(l);
    const chave = `${ind.uf ?? ""}|${l.data}`;
    const antes = vistas.get(chave);
    if (antes) {
      if (antes.celulas !== l.celulas) {
        throw new ParseError(`${l.onde}: o dia ${l.dataTexto} aparece duas vezes com valores diferentes${ind.estado ? ` (${ind.estado})` : ""}`);
      }
      avisos.push(`${onde}: a linha de ${l.dataTexto}${ind.estado ? ` (${ind.estado})` : ""} aparece duas vezes, idêntica; lida uma vez`);
      continue;
    }
    vistas.set(chave, l);
    daSerie.set(ind, [...(daSerie.get(ind) ?? []), l]);
    rows.push(
      checkedRow(
        {
          fonte: "cepea",
          produto: ind.produto,
          uf: ind.uf,
          praca: null,
          data: l.data,
          valor: fromHundredths(l.valor),
          unidade: ind.unidade,
          extras: l.usd === null ? {} : { valor_usd: fromHundredths(l.usd) },
        },
        l.onde,
      ),
    );
  }
  if (!(inds[0]!.colunas ?? CLASSICA).includes(VALOR_USD)) for (const [ind, serie] of daSerie) checkVarDia(serie, ind.estado);
  if (porEstado) {
    const faltam = inds.filter((i) => !lidas.some((l) => normKey(l.estado!) === normKey(i.estado!)));
    if (faltam.length > 0) {
      throw new ParseError(`${onde}: ${faltam.map((i) => `estado "${i.estado}"`).join(", ")} não encontrado na tabela`);
    }
  }
  return rows;
}

/**
 * CEPEA computes "Var./Dia" from the two values the table prints, each rounded to the cent:
 * every row of every recorded table agrees to 0,005 percentage point (the variation's own
 * rounding). In the tables without US$ (citros, frango, suíno, algodão, boi a prazo) nothing
 * else ties the value read to the indicator (in the others the implied exchange rate does,
 * check/coherence.ts): a price column that is not the one the variation describes (citros'
 * "A Prazo" and "5 dias", its moving average, labelled the other way round), or a row given
 * another state's label (suíno vivo), breaks that agreement, while its values stay within a
 * revision's reach of the right ones and pass every later gate. The oldest row has no previous
 * day here, and "-" says nothing.
 */
const VAR_DIA_TOLERANCIA = 1; // hundredths of a percentage point

function checkVarDia(serie: readonly Lida[], estado: string | undefined): void {
  for (let i = 0; i + 1 < serie.length; i++) {
    const l = serie[i]!;
    const antes = serie[i + 1]!;
    if (l.varDia === null) continue;
    const calculada = ((l.valor - antes.valor) / antes.valor) * 10000;
    if (Math.abs(calculada - l.varDia) > VAR_DIA_TOLERANCIA + 1e-9) {
      const fmt = (h: number) => (h / 100).toFixed(2).replace(".", ",");
      throw new ParseError(
        `${l.onde}: "Var./Dia" ${l.varDiaTexto} não confere com os valores${estado ? ` de ${estado}` : ""} ` +
          `(${fmt(antes.valor)} em ${antes.dataTexto} e ${fmt(l.valor)} em ${l.dataTexto} dão ${(calculada / 100).toFixed(2).replace(".", ",")}%): ` +
          `coluna de preço trocada, ou linha de outro estado?`,
      );
    }
  }
}

function mesmasColunas(a: readonly Coluna[], b: readonly Coluna[]): boolean {
  return a.length === b.length && a.every((c, i) => c === b[i]);
}

/** The indicators grouped by table (one group per title), in the order they are declared. */
function porTabela(id: string, indicadores: readonly Indicador[]): Indicador[][] {
  const grupos = new Map<string, Indicador[]>();
  for (const ind of indicadores) {
    const k = normKey(ind.titulo);
    grupos.set(k, [...(grupos.get(k) ?? []), ind]);
  }
  // the declarations themselves must be coherent: one layout per table, a state per row label
  for (const grupo of grupos.values()) {
    const colunas = grupo[0]!.colunas ?? CLASSICA;
    const comEstado = colunas.includes(ESTADO);
    let problema: string | null = null;
    if (grupo.some((i) => !mesmasColunas(i.colunas ?? CLASSICA, colunas))) problema = "colunas diferentes para a mesma tabela";
    else if (grupo.some((i) => (i.estado !== undefined) !== comEstado)) problema = "declara-se `estado` quando, e só quando, a tabela tem a coluna Estado";
    else if (!comEstado && grupo.length > 1) problema = "duas séries na mesma tabela sem coluna Estado";
    else if (!colunas.includes(DATA) || colunas.filter((c) => c.papel === "valor").length !== 1) problema = "a tabela precisa da data e de uma coluna de preço";
    if (problema) throw new Error(`cepea/${id}, tabela "${grupo[0]!.titulo}": ${problema}`);
  }
  return [...grupos.values()];
}

function pagina(id: string, path: string, titulo: string, indicadores: readonly Indicador[]): PageDef {
  if (indicadores.length === 0) throw new Error(`cepea/${id}: nenhuma série declarada`);
  const tabelas = porTabela(id, indicadores);
  return {
    id,
    path,
    titulo,
    diasUteis: true,
    hasTable(html: string): boolean {
      const $ = load(html);
      try {
        const table = tabelaPorTitulo($, indicadores[0]!.titulo);
        return table !== null && linhas($, table).length > 0;
      } catch (err) {
        // the table is there (twice): parse says what is wrong with it
        if (err instanceof ParseError) return true;
        throw err;
      }
    },
    parse(html: string): ParsedPage {
      checkDocumentEnd(html);
      const $ = load(html);
      checkFragmentTables($, html);
      checkTitulos($);
      const avisos: string[] = [];
      const rows = tabelas.flatMap((inds) => lerIndicadores($, inds, avisos));
      return { rows: sortBySeries(rows, `página ${id}`), avisos };
    },
    series: indicadores.map(({ titulo: _, colunas: _c, estado: _e, serieCepea: _s, metodologia: _m, ...decl }) => decl),
  };
}

/** The suíno vivo indicator's states, as its "Estado" column labels them. */
const SUINO_VIVO: ReadonlyArray<[rotulo: string, uf: UF, nome: string]> = [
  ["MG - posto", "MG", "Minas Gerais"],
  ["PR - a retirar", "PR", "Paraná"],
  ["RS - a retirar", "RS", "Rio Grande do Sul"],
  ["SC - a retirar", "SC", "Santa Catarina"],
  ["SP - posto", "SP", "São Paulo"],
];

export const cepea: SourceDef = {
  id: "cepea",
  nome: "CEPEA/ESALQ-USP",
  nomeCurto: "CEPEA/ESALQ",
  site: "https://www.cepea.org.br",
  baseUrlEnv: "COTACAO_CEPEA_URL",
  maxIdadeDias: 3,
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
      { titulo: "INDICADOR DO BOI GORDO CEPEA/ESALQ", produto: "boi_gordo", uf: null, lugar: "SP", unidade: "@", regiao: "Estado de São Paulo (Indicador do Boi Gordo CEPEA/ESALQ, à vista)",
        // the page's "Nota 1"; the a prazo average on the same page says nothing of Funrural
        semFunrural: "Valor à vista por arroba de 15 kg, sem Funrural (preço \u201clivre\u201d).",
        // the series page has the a prazo average and the moving average under its title too
        serieHistorica: { id: 2, titulo: ["BOI GORDO"], tituloSem: ["PRAZO", "MOVEL"], termo: "À vista" } },
    ]),
    pagina("bezerro", "/br/indicador/bezerro.aspx", "Indicador do Bezerro CEPEA/ESALQ (MS, por cabeça)", [
      // the price is per head ("3.426,02"); "Peso Médio do Bezerro - MS" (kg) is not read
      { titulo: "INDICADOR DO BEZERRO CEPEA/ESALQ - MATO GROSSO DO SUL", produto: "bezerro", uf: null, lugar: "MS", unidade: "cabeca", regiao: "Mato Grosso do Sul (Indicador do Bezerro CEPEA/ESALQ)", serieHistorica: { id: 8, titulo: ["BEZERRO"], tituloSem: ["PESO"], termo: "À vista" } },
    ]),
    pagina("milho", "/br/indicador/milho.aspx", "Indicador do Milho ESALQ/BM&FBovespa (Campinas-SP)", [
      { titulo: "INDICADOR DO MILHO ESALQ/BM&FBOVESPA", produto: "milho", uf: null, lugar: "SP", unidade: "sc60kg", regiao: "Campinas, SP (Indicador do Milho ESALQ/BM&FBovespa)", serieHistorica: { id: 77, titulo: ["MILHO"], termo: "À vista" } },
    ]),
    pagina("soja", "/br/indicador/soja.aspx", "Indicadores da Soja CEPEA/ESALQ (Paranaguá e Paraná)", [
      // two tables whose titles differ only in "PARANAGUÁ" / "PARANÁ": titles are compared whole
      { titulo: "INDICADOR DA SOJA CEPEA/ESALQ - PARANAGUÁ", produto: "soja", uf: null, lugar: "PR", unidade: "sc60kg", regiao: "Paranaguá, PR (Indicador da Soja CEPEA/ESALQ)", serieHistorica: { id: 92, titulo: ["SOJA", "PARANAGUA"], termo: "À vista" } },
      {
        titulo: "INDICADOR DA SOJA CEPEA/ESALQ - PARANÁ",
        produto: "soja",
        uf: "PR",
        unidade: "sc60kg",
        regiao: "Paraná (Indicador da Soja CEPEA/ESALQ - Paraná)",
        praca: "Paraná (média estadual)",
        serieHistorica: { id: 12, titulo: ["SOJA", "PARANA"], tituloSem: ["PARANAGUA"], termo: "À vista" },
      },
    ]),
    // The boi page's "Média a Prazo" table is read as a page of its own (same URL, its own
    // request and replay file): a page is atomic, and a change in this secondary table must not
    // hold back the cash indicator, the aggregate's boi gordo.
    pagina("boi-gordo-prazo", "/br/indicador/boi-gordo.aspx", "Boi Gordo - Média a Prazo CEPEA/ESALQ (SP)", [
      // "PMP" is the average payment term in days ("-" on most days): checked, not published
      {
        titulo: "Boi Gordo - Média a Prazo Estado de São Paulo",
        serieCepea: 1,
        colunas: [DATA, A_PRAZO, VAR_DIA, VAR_MES, PMP],
        produto: "boi_gordo_prazo",
        uf: null,
        lugar: "SP",
        unidade: "@",
        regiao: "Estado de São Paulo (Boi Gordo CEPEA/ESALQ - Média a Prazo, descontada pelo CDI de 30 dias)",
      },
    ]),
    pagina("trigo", "/br/indicador/trigo.aspx", "Preço Médio do Trigo CEPEA/ESALQ (PR e RS, por tonelada)", [
      // state averages, R$ and US$ per tonne ("Valor R$/t*"); PR is bread wheat, RS soft wheat
      {
        titulo: "PREÇO MÉDIO DO TRIGO CEPEA/ESALQ - PARANÁ",
        produto: "trigo",
        uf: "PR",
        unidade: "t",
        regiao: "Paraná (Preço Médio do Trigo CEPEA/ESALQ; trigo pão ou melhorador, à vista)",
        praca: "Paraná (média estadual)",
        serieHistorica: { id: 178, titulo: ["TRIGO", "PARANA"], termo: "À vista" },
      },
      {
        titulo: "PREÇO MÉDIO DO TRIGO CEPEA/ESALQ - RIO GRANDE DO SUL",
        produto: "trigo",
        uf: "RS",
        unidade: "t",
        regiao: "Rio Grande do Sul (Preço Médio do Trigo CEPEA/ESALQ; trigo brando, à vista)",
        praca: "Rio Grande do Sul (média estadual)",
        serieHistorica: { id: 179, titulo: ["TRIGO", "RIO GRANDE DO SUL"], termo: "À vista" },
      },
    ]),
    pagina("arroz", "/br/indicador/arroz.aspx", "Indicadores do Arroz em Casca CEPEA/IRGA-RS (saca de 50 kg)", [
      // per 50 kg sack by the page's note ("Reais por saca de 50 kg"), the header says only
      // "Valor R$"; the two weekly means ("MÉDIA SEMANAL ...", rows "31/08 a 04/09") are not read
      {
        titulo: "INDICADOR DO ARROZ EM CASCA CEPEA/IRGA-RS (58% DE GRÃOS INTEIROS)",
        produto: "arroz",
        uf: null,
        lugar: "RS",
        unidade: "sc50kg",
        regiao: "Rio Grande do Sul, posto indústria (Indicador do Arroz em Casca CEPEA/IRGA-RS, 58% de grãos inteiros, à vista)",
        serieHistorica: { id: 91, titulo: ["ARROZ"], tituloSem: ["62"], termo: "À vista" },
      },
      {
        titulo: "MÉDIA DO ARROZ EM CASCA 59% A 62% DE GRÃOS INTEIROS CEPEA/IRGA-RS",
        serieCepea: 126,
        produto: "arroz_alto_rendimento",
        uf: null,
        lugar: "RS",
        unidade: "sc50kg",
        regiao: "Rio Grande do Sul, posto indústria (Média do Arroz em Casca 59% a 62% de Grãos Inteiros CEPEA/IRGA-RS, à vista)",
      },
    ]),
    pagina("cafe", "/br/indicador/cafe.aspx", "Indicadores do Café Arábica e Robusta CEPEA/ESALQ (saca de 60 kg)", [
      // per 60 kg sack by the page's notes ("Reais por saca de 60 kg líquido")
      {
        titulo: "INDICADOR DO CAFÉ ARÁBICA CEPEA/ESALQ",
        produto: "cafe_arabica",
        uf: null,
        lugar: "SP",
        unidade: "sc60kg",
        regiao: "Cidade de São Paulo, posto (Indicador do Café Arábica CEPEA/ESALQ; tipo 6, bebida dura para melhor)",
        serieHistorica: { id: 23, titulo: ["CAFE", "ARABICA"], termo: "À vista" },
      },
      {
        titulo: "INDICADOR DO CAFÉ ROBUSTA CEPEA/ESALQ",
        produto: "cafe_robusta",
        uf: null,
        lugar: "ES",
        unidade: "sc60kg",
        regiao: "Espírito Santo, a retirar na origem (Indicador do Café Robusta CEPEA/ESALQ; tipo 6, peneira 13 acima)",
        serieHistorica: { id: 24, titulo: ["CAFE", "ROBUSTA"], termo: "À vista" },
      },
    ]),
    pagina("algodao", "/br/indicador/algodao.aspx", "Indicador do Algodão em Pluma CEPEA/ESALQ (prazo de 8 dias, centavos de R$ por libra-peso)", [
      // in centavos of real per pound ("Centavos R$/lp"): 439,98 is R$ 4,3998/lb. The fifth
      // column is the average payment term in days (19,22), not US$: the page has no US$.
      // "Média Móvel dos Últimos Três Indicadores (8 dias)" is not read.
      {
        titulo: "Indicador do Algodão em Pluma CEPEA/ESALQ - Prazo de 8 dias",
        colunas: [DATA, CENTAVOS_LP, VAR_DIA, VAR_MES, PRAZO_PGTO],
        produto: "algodao",
        uf: null,
        lugar: "SP",
        unidade: "ct_lb",
        regiao: "Mesorregião da cidade de São Paulo, posto (Indicador do Algodão em Pluma CEPEA/ESALQ, tipo 41-4, pagamento em 8 dias)",
        // the download is quoted for payment in 8 days, not cash (agrobr: "Prazo de 8 dias R$")
        serieHistorica: { id: 54, titulo: ["ALGODAO"], termo: "Prazo de 8 dias" },
      },
    ]),
    pagina("acucar", "/br/indicador/acucar.aspx", "Indicadores do Açúcar Cristal CEPEA/ESALQ (São Paulo e Santos FOB, saca de 50 kg)", [
      // per 50 kg sack by the page's note ("Reais por saca de 50 kg, com ICMS (7%)")
      {
        titulo: "INDICADOR DO AÇÚCAR CRISTAL BRANCO CEPEA/ESALQ - SÃO PAULO",
        produto: "acucar_cristal_sp",
        uf: null,
        lugar: "SP",
        unidade: "sc50kg",
        regiao: "Estado de São Paulo (Indicador do Açúcar Cristal Branco CEPEA/ESALQ, com ICMS de 7%)",
        // CEPEA also has a refined sugar (açúcar refinado amorfo) indicator for São Paulo
        serieHistorica: { id: 53, titulo: ["ACUCAR", "CRISTAL"], tituloSem: ["SANTOS"], termo: "À vista" },
      },
      {
        titulo: "Indicador Açúcar Cristal - Santos (FOB)",
        serieCepea: 308,
        produto: "acucar_santos",
        uf: null,
        lugar: "SP",
        unidade: "sc50kg",
        regiao: "Santos, SP, FOB (Indicador do Açúcar Cristal CEPEA/ESALQ - Santos)",
      },
    ]),
    pagina("citros", "/br/indicador/citros.aspx", "Laranja CEPEA/ESALQ (indústria, pera in natura e indústria precoce; caixa de 40,8 kg)", [
      // R$ per box of 40,8 kg, a prazo ("A Prazo"); "5 dias" is its five-day moving average,
      // checked, not published (the precoce table has no such column). These tables repeat a
      // day cell for cell (26/08/2026 twice on the recorded page): taken once.
      {
        titulo: "Laranja Indústria",
        metodologia: "metodologia-laranja-industria",
        colunas: [DATA, A_PRAZO, VAR_DIA, VAR_MES, MEDIA_5_DIAS],
        produto: "laranja_industria",
        uf: null,
        unidade: "cx40_8kg",
        regiao: "Fruta posta na indústria, colheita e frete inclusos (Laranja Indústria CEPEA/ESALQ, a prazo; pera e tardias)",
      },
      {
        titulo: "LARANJA PERA IN NATURA",
        metodologia: "metodologia-laranja-pera-in-natura",
        colunas: [DATA, A_PRAZO, VAR_DIA, VAR_MES, MEDIA_5_DIAS],
        produto: "laranja_pera",
        uf: null,
        lugar: "SP",
        unidade: "cx40_8kg",
        regiao: "Principais regiões produtoras do estado de São Paulo, na árvore (Laranja Pera in natura CEPEA/ESALQ, a prazo)",
      },
      {
        titulo: "Laranja Indústria - Precoce",
        metodologia: "metodologia-laranja-industria-precoce",
        colunas: [DATA, A_PRAZO, VAR_DIA, VAR_MES],
        produto: "laranja_industria_precoce",
        uf: null,
        unidade: "cx40_8kg",
        regiao: "Fruta posta na indústria, colheita e frete inclusos (Laranja Indústria - Precoce CEPEA/ESALQ, a prazo; hamlin, westin e outras)",
      },
    ]),
    pagina("frango", "/br/indicador/frango.aspx", "Preços do Frango Congelado e Resfriado CEPEA/ESALQ (SP, por kg)", [
      // wholesale, R$ per kg by the page's note; no US$ column
      {
        titulo: "PREÇOS DO FRANGO CONGELADO CEPEA/ESALQ - ESTADO SP",
        colunas: SEM_USD,
        produto: "frango_congelado",
        uf: null,
        lugar: "SP",
        unidade: "kg",
        regiao: "Estado de São Paulo, atacado (Frango Congelado CEPEA/ESALQ; Grande São Paulo, São José do Rio Preto e Descalvado)",
        serieHistorica: { id: 181, titulo: ["FRANGO", "CONGELADO"], termo: "À vista" },
      },
      {
        titulo: "PREÇOS DO FRANGO RESFRIADO CEPEA/ESALQ - ESTADO SP",
        colunas: SEM_USD,
        produto: "frango_resfriado",
        uf: null,
        lugar: "SP",
        unidade: "kg",
        regiao: "Estado de São Paulo, atacado (Frango Resfriado CEPEA/ESALQ; Grande São Paulo, São José do Rio Preto e Descalvado)",
        serieHistorica: { id: 130, titulo: ["FRANGO", "RESFRIADO"], termo: "À vista" },
      },
    ]),
    pagina("suino", "/br/indicador/suino.aspx", "Suíno CEPEA/ESALQ (suíno vivo por estado e carcaça especial, por kg)", [
      // the live-hog indicator lists each day once per state ("MG - posto", "PR - a retirar":
      // delivered or picked up at the farm), R$ per kg live weight, no US$: one state series per
      // state. The monthly table ("... - MENSAL (R$/KG)", one column per state) is not read.
      ...SUINO_VIVO.map(
        ([rotulo, uf, nome]): Indicador => ({
          titulo: "INDICADOR DO SUÍNO VIVO CEPEA/ESALQ (R$/kg)",
          serieCepea: 129,
          colunas: [DATA, ESTADO, VALOR_RS, VAR_DIA, VAR_MES],
          estado: rotulo,
          produto: "suino_vivo",
          uf,
          unidade: "kg",
          regiao: `${nome}, ${rotulo.split(" - ")[1]} (Indicador do Suíno Vivo CEPEA/ESALQ, à vista)`,
          praca: rotulo,
        }),
      ),
      {
        titulo: "PREÇOS DA CARCAÇA SUÍNA ESPECIAL (R$/kg)",
        serieCepea: 124,
        colunas: [DATA, MEDIA, VAR_DIA, VAR_MES],
        produto: "suino_carcaca",
        uf: null,
        lugar: "SP",
        unidade: "kg",
        regiao: "Grande São Paulo, atacado, com ICMS (Preços da Carcaça Suína Especial CEPEA/ESALQ)",
      },
    ]),
  ],
};
