import { formatDateBR, parseDateBR } from "../domain/dates.ts";
import { ParseError } from "../domain/errors.ts";
import { formatDecimalBR, fromHundredths, parseBRDecimal, variationPct } from "../domain/money.ts";
import type { Produto, Unidade } from "../domain/products.ts";
import type { PriceRow } from "../domain/row.ts";
import type { UF } from "../domain/ufs.ts";
import {
  cellText,
  checkDocumentEnd,
  checkFragmentTables,
  checkLabel,
  checkedRow,
  checkRow,
  checkTableClosed,
  checkTableLabels,
  checkTituloDaPagina,
  collapse,
  load,
  normKey,
  numeroCompleto,
  sortBySeries,
  type Cheerio$,
} from "./html.ts";
import { lerPracaDaLinha, linhaDaPraca, UfsAgrupadas } from "./scot.ts";
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
/** The republication's page title (its only h1). */
const TITULO_SCOT = "Mercado Físico - Scot Consultoria";
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

/** A label's words: normKey without the punctuation between them ("BOI GORDO R$/@ A VISTA"). */
const palavras = (label: string) => collapse(normKey(label).replace(/[-(),;:]/g, " "));

/** Columns by their header labels: each of the four exactly once, nothing else. */
function colunasDoQuadro(q: Quadro, onde: string): Map<Coluna, number> {
  const colunas = new Map<Coluna, number>();
  const problemas: string[] = [];
  q.rotulos.forEach((rotulo, i) => {
    const c = colunaDoCabecalho(rotulo);
    if (c === null) problemas.push(`coluna desconhecida "${rotulo}"`);
    // colunaDoCabecalho only looks for the animal and the term, to find the table; a price
    // column must also say nothing more than its label does: "Boi Gordo - Funrural (R$/@ - à
    // vista)" or "... à vista, líquido" is another price (Scot's net columns sit 1–2 % below the
    // gross one, inside every bound), never the gross cash price this column stands for
    else if (c !== "municipio" && palavras(rotulo) !== palavras(NOME_COLUNA[c])) problemas.push(`coluna desconhecida "${rotulo}" (esperado "${NOME_COLUNA[c]}")`);
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
  const onde = `Notícias Agrícolas, tabela "${TITULO_SCOT}"`;
  if (!q) throw new ParseError(`${onde} (table.cot-fisicas com "Boi Gordo à vista") não encontrada na página`, "soft_block");
  // the site keeps other firms' cattle tables in this layout: the page must still be Scot's
  checkTituloDaPagina($, TITULO_SCOT, onde);
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
  const ufs = new UfsAgrupadas();
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
    // boi and vaca sit side by side only here, and a cow is always quoted below the steer of the
    // same praça (0,90–0,96 on every recorded praça): swapped, each would pass every other gate
    // (about 5 % apart, inside the jump bound) and be published as the other
    const boi = numeros.get(colunas.get("boi_avista")!);
    const vaca = numeros.get(colunas.get("vaca_avista")!);
    if (boi !== undefined && vaca !== undefined && vaca > boi) {
      throw new ParseError(
        `${onde}, praça "${cellText($, cells[0]!)}": vaca gorda à vista (R$ ${formatDecimalBR(vaca)}) acima do boi gordo à vista (R$ ${formatDecimalBR(boi)}) na mesma praça; colunas trocadas?`,
      );
    }
    const lida = lerPracaDaLinha($, cells[0]!, onde, avisos);
    if (!lida) return;
    const { p, linha } = lida;
    // grouped by UF as on Scot's own page (a copy of its table)
    ufs.conferir(p.uf, linha);
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

// ---- CEPEA indicators republished by Notícias Agrícolas --------------------------------------

/*
 * Notícias Agrícolas republishes several CEPEA indicators, each on its own page
 * ("/cotacoes/milho/indicador-cepea-esalq-milho", ...): an `h1` with the indicator's name, then
 * one `div.cotacao` per day (ten days, newest first), each with "Fechamento: dd/mm/yyyy" in
 * `div.fechamento` and one `table.cot-fisicas`: a one-row header "Data | Valor ... | Variação (%)"
 * (the price column's label says the unit on some pages: "Valor (R$/sc 60 kg)", "Valor (8 dias)
 * Cent/R$/lb", "R$/t"; café writes "Variação(%)" without a space) and one row for that day. The
 * trigo page has a "Região" column and two rows per day (Paraná, Rio Grande do Sul). Only R$:
 * none of these pages prints CEPEA's US$ column, so a day read here has no `valor_usd` (merged
 * with a day CEPEA's own page gave, it keeps the US$ it had). Values are printed to the centavo,
 * as on CEPEA's pages (checked on the days both show). The variation is written "0,07%", and on
 * older rows "-0,37" or "+0,17" without the percent sign: checked, never published. The sidebar
 * holds unrelated tables, none of them `cot-fisicas`.
 */

/** A series of a CEPEA page as the NA page shows it. */
interface SerieNA {
  produto: Produto;
  uf: UF | null;
  unidade: Unidade;
  /** the "Região" cell of its rows, on a page with that column */
  regiao?: string;
}

interface PaginaNA {
  /** the CEPEA page it stands in for */
  paraPagina: string;
  path: string;
  /** the page's h1 as NA writes it (compared without accents or case) */
  titulo: string;
  /** the price column: its label as written, and its key */
  valor: { nome: string; key: string };
  /** the variation column's key when it is not "Variação (%)" / "Variação(%)" (algodão: "Variação Diária (%)") */
  variacao?: { nome: string; key: string };
  series: readonly SerieNA[];
}

const VALOR_RS = { nome: "Valor R$", key: "VALOR R$" };

/** a variation as NA prints it: "0,07%", "-0,37", "+0,17" */
const VARIACAO_NA = /^[+-]?(?:\d{1,3}(?:\.\d{3})+|\d+),\d{2}%?$/;

type ColunaNA = "data" | "regiao" | "valor" | "variacao";

function colunasNA(rotulos: string[], pag: PaginaNA, onde: string): Map<ColunaNA, number> {
  const porRegiao = pag.series.some((s) => s.regiao !== undefined);
  const nomes: Record<ColunaNA, string> = { data: "Data", regiao: "Região", valor: pag.valor.nome, variacao: pag.variacao?.nome ?? "Variação (%)" };
  const ehVariacao = (k: string) => (pag.variacao ? k === pag.variacao.key : /^VARIACAO ?\(%\)$/.test(k));
  const esperadas: ColunaNA[] = porRegiao ? ["data", "regiao", "valor", "variacao"] : ["data", "valor", "variacao"];
  const qual = (k: string): ColunaNA | null =>
    k === "DATA" ? "data" : k === "REGIAO" && porRegiao ? "regiao" : k === pag.valor.key ? "valor" : ehVariacao(k) ? "variacao" : null;
  const achadas = new Map<ColunaNA, number>();
  const problemas: string[] = [];
  rotulos.forEach((r, i) => {
    const c = qual(normKey(r));
    if (c === null) problemas.push(`coluna desconhecida "${r}"`);
    else if (achadas.has(c)) problemas.push(`coluna "${nomes[c]}" aparece duas vezes`);
    else achadas.set(c, i);
  });
  problemas.unshift(...esperadas.filter((c) => !achadas.has(c)).map((c) => `coluna "${nomes[c]}" não encontrada`));
  if (problemas.length > 0) {
    throw new ParseError(
      `${onde}: ${problemas.join("; ")} no cabeçalho ` +
        `(esperadas ${esperadas.map((c) => `"${nomes[c]}"`).join(", ")}; encontradas ${rotulos.map((r) => `"${r}"`).join(", ")})`,
    );
  }
  return achadas;
}

/** Every `table.cot-fisicas` of the page with its day's block; a non-empty body makes it count for hasTable. */
function quadrosNA($: Cheerio$) {
  return $("table.cot-fisicas")
    .toArray()
    .map((el) => {
      const table = $(el);
      const bloco = table.closest("div.cotacao");
      const fechamentoEl = bloco.find(".fechamento").first()[0];
      return { el, table, bloco, fechamentoEl, linhas: table.children("tbody").children("tr") };
    });
}

function parseNACepea(html: string, pag: PaginaNA): ParsedPage {
  const onde = `Notícias Agrícolas, tabela "${pag.titulo}"`;
  checkDocumentEnd(html);
  const $ = load(html);
  checkFragmentTables($, html);
  const h1s = $("h1").toArray().map((el) => cellText($, el));
  const quadros = quadrosNA($);
  if (quadros.length === 0) throw new ParseError(`${onde} (table.cot-fisicas) não encontrada na página`, "soft_block");
  if (quadros.every((q) => q.linhas.length === 0)) throw new ParseError(`${onde} está vazia (nenhum dia)`, "soft_block");
  // the page is found by its address, and must still be the indicator it stands in for
  if (h1s.length !== 1 || normKey(h1s[0]!) !== normKey(pag.titulo)) {
    throw new ParseError(`${onde}: título da página ${h1s.length ? h1s.map((t) => `"${t}"`).join(", ") : "ausente"}, esperado "${pag.titulo}" (outro indicador?)`);
  }
  checkLabel($(`h1`).first().text(), `${onde}, título`);

  const porRegiao = pag.series.some((s) => s.regiao !== undefined);
  const rows: PriceRow[] = [];
  // each day's value with its printed variation, by series, to be checked against the day before
  const lidos = new Map<SerieNA, Array<{ data: string; valor: number; variacao: string; linha: string }>>();
  quadros.forEach((q, n) => {
    const quadro = `${onde}, quadro ${n + 1}`;
    if (q.bloco.length === 0 || !q.fechamentoEl) throw new ParseError(`${quadro}: tabela fora de um bloco div.cotacao com "Fechamento"`);
    checkLabel($(q.fechamentoEl).text(), `${quadro}, data de fechamento`);
    const fechamento = cellText($, q.fechamentoEl);
    const m = fechamento.match(/^Fechamento:\s*(\d{2}\/\d{2}\/\d{4})$/i);
    const dia = m ? parseDateBR(m[1]!) : null;
    if (!dia) throw new ParseError(`${quadro}: data ilegível (esperado "Fechamento: dd/mm/aaaa", encontrado "${fechamento.slice(0, 60)}")`);
    checkTableClosed(q.el, quadro);
    checkTableLabels($, q.el, quadro);
    const cab = q.table.find("thead tr").toArray();
    if (cab.length !== 1) throw new ParseError(`${quadro}: cabeçalho com ${cab.length} linhas, esperada uma`);
    const rotulos = $(cab[0]!).children("th, td").toArray().map((th) => cellText($, th));
    const col = colunasNA(rotulos, pag, quadro);
    // one row per series each day: a day with a series missing, or one more, is not whole
    if (q.linhas.length !== pag.series.length) {
      throw new ParseError(`${quadro} (${m![1]}): ${q.linhas.length} linha(s), esperada(s) ${pag.series.length} (${pag.series.map((s) => s.regiao ?? s.produto).join(", ")})`);
    }
    const vistas = new Set<SerieNA>();
    q.linhas.toArray().forEach((tr, i) => {
      const linha = `${quadro} (${m![1]}), linha ${i + 1}`;
      const cells = checkRow($, tr, rotulos.length, linha);
      const texto = (c: ColunaNA) => cellText($, cells[col.get(c)!]!);
      const data = parseDateBR(texto("data"));
      if (data !== dia) throw new ParseError(`${linha}: data "${texto("data")}" difere do fechamento ${m![1]}`);
      const h = numeroCompleto(texto("valor"));
      if (h === null) {
        throw new ParseError(`${linha}: número inválido na coluna "${rotulos[col.get("valor")!]}": "${texto("valor")}" (esperado um número com duas casas, como 69,25 ou 1.509,74)`);
      }
      if (!VARIACAO_NA.test(texto("variacao"))) {
        throw new ParseError(`${linha}: variação inválida na coluna "${rotulos[col.get("variacao")!]}": "${texto("variacao")}" (esperado como 0,07%, -0,37 ou +0,17)`);
      }
      let serie: SerieNA;
      if (porRegiao) {
        const r = texto("regiao");
        const s = pag.series.find((x) => normKey(x.regiao!) === normKey(r));
        if (!s) throw new ParseError(`${linha}: região desconhecida "${r}" (esperadas ${pag.series.map((x) => `"${x.regiao}"`).join(", ")})`);
        if (vistas.has(s)) throw new ParseError(`${linha}: a região "${r}" aparece duas vezes no dia`);
        serie = s;
      } else {
        serie = pag.series[0]!;
      }
      vistas.add(serie);
      lidos.set(serie, [...(lidos.get(serie) ?? []), { data: dia, valor: fromHundredths(h), variacao: texto("variacao"), linha }]);
      rows.push(
        checkedRow({ fonte: "cepea", produto: serie.produto, uf: serie.uf, praca: null, data: dia, valor: fromHundredths(h), unidade: serie.unidade, extras: {} }, linha),
      );
    });
  });
  const sorted = sortBySeries(rows, `espelho ${NA_ID} (${pag.paraPagina})`);
  checkVariacoesNA(pag, lidos);
  return { rows: sorted, avisos: [] };
}

/** How far a printed variation may be from the one the page's own values give (its last digit). */
const VARIACAO_TOLERANCIA_PP = 0.01;

/**
 * Every day's value against its printed variation on the page's day before, series by series.
 * On every recorded page they agree to the hundredth of a percent; a value that does not (two
 * rows' regions swapped, the day before's value repeated under a new date, a value moved to
 * another day) is not the day's value, and the page is refused whole.
 */
function checkVariacoesNA(pag: PaginaNA, lidos: ReadonlyMap<SerieNA, Array<{ data: string; valor: number; variacao: string; linha: string }>>): void {
  for (const serie of pag.series) {
    const ordem = [...(lidos.get(serie) ?? [])].sort((a, b) => (a.data < b.data ? -1 : 1));
    for (let i = 1; i < ordem.length; i++) {
      const ant = ordem[i - 1]!;
      const dia = ordem[i]!;
      const impressa = parseBRDecimal(dia.variacao.replace(/%$/, "").replace(/^\+/, ""))! / 100;
      const calculada = variationPct(ant.valor, dia.valor) || 0;
      if (Math.abs(impressa - calculada) > VARIACAO_TOLERANCIA_PP + 1e-9) {
        throw new ParseError(
          `${dia.linha}: variação impressa "${dia.variacao}" não confere com o valor: ${formatDecimalBR(dia.valor)} em ${formatDateBR(dia.data)} ` +
            `contra ${formatDecimalBR(ant.valor)} em ${formatDateBR(ant.data)}${serie.regiao ? ` (${serie.regiao})` : ""} dá ${formatDecimalBR(calculada)}% ` +
            "(valor de outro dia ou de outra linha?)",
        );
      }
    }
  }
}

function espelhoCepea(pag: PaginaNA): MirrorDef {
  return {
    paraPagina: pag.paraPagina,
    id: NA_ID,
    nome: "Notícias Agrícolas",
    site: "https://www.noticiasagricolas.com.br",
    baseUrlEnv: "COTACAO_NA_URL",
    path: pag.path,
    series: pag.series.map((s) => (s.uf ? `${s.produto}/${s.uf}` : s.produto)),
    hasTable: (html) => quadrosNA(load(html)).some((q) => q.linhas.length > 0),
    parse: (html) => parseNACepea(html, pag),
  };
}

/** CEPEA's milho indicator (Campinas), R$ per 60 kg sack: the whole cepea/milho page. */
export const naMilho = espelhoCepea({
  paraPagina: "cepea/milho",
  path: "/cotacoes/milho/indicador-cepea-esalq-milho",
  titulo: "Indicador do Milho Esalq/B3",
  valor: { nome: "Valor (R$/sc 60 kg)", key: "VALOR (R$/SC 60 KG)" },
  series: [{ produto: "milho", uf: null, unidade: "sc60kg" }],
});
/** Only the Paranaguá indicator of cepea/soja: soja/PR (the Paraná average) is not republished there. */
export const naSoja = espelhoCepea({
  paraPagina: "cepea/soja",
  path: "/cotacoes/soja/soja-indicador-cepea-esalq-porto-paranagua",
  titulo: "Indicador da Soja ESALQ/B3 - Paranaguá",
  valor: VALOR_RS,
  series: [{ produto: "soja", uf: null, unidade: "sc60kg" }],
});
/** CEPEA's bezerro indicator (MS), R$ per head ("3.406,24"): the whole cepea/bezerro page. */
export const naBezerro = espelhoCepea({
  paraPagina: "cepea/bezerro",
  path: "/cotacoes/boi-gordo/indicador-bezerro-esalq-bmf-bovespa-ms",
  titulo: "Bezerro Esalq/BM&F Bovespa - MS",
  valor: VALOR_RS,
  series: [{ produto: "bezerro", uf: null, unidade: "cabeca" }],
});
/** The arábica half of cepea/cafe (R$ per 60 kg sack). */
export const naCafeArabica = espelhoCepea({
  paraPagina: "cepea/cafe",
  path: "/cotacoes/cafe/indicador-cepea-esalq-cafe-arabica",
  titulo: "Indicador Café Arábica - Cepea/Esalq",
  valor: VALOR_RS,
  series: [{ produto: "cafe_arabica", uf: null, unidade: "sc60kg" }],
});
/** The robusta half of cepea/cafe; NA's address calls it "conillon". */
export const naCafeRobusta = espelhoCepea({
  paraPagina: "cepea/cafe",
  path: "/cotacoes/cafe/indicador-cepea-esalq-cafe-conillon",
  titulo: "Indicador Café Robusta - Cepea/Esalq",
  valor: VALOR_RS,
  series: [{ produto: "cafe_robusta", uf: null, unidade: "sc60kg" }],
});
/** CEPEA's algodão (8-day term), in centavos of R$ per pound as CEPEA prints it ("432,57"). */
export const naAlgodao = espelhoCepea({
  paraPagina: "cepea/algodao",
  path: "/cotacoes/algodao/algodao-indicador-cepea-esalq-a-prazo",
  titulo: "Algodão - Indicador Cepea/Esalq",
  valor: { nome: "Valor (8 dias) Cent/R$/lb", key: "VALOR (8 DIAS) CENT/R$/LB" },
  variacao: { nome: "Variação Diária (%)", key: "VARIACAO DIARIA (%)" },
  series: [{ produto: "algodao", uf: null, unidade: "ct_lb" }],
});
/** Both state averages of cepea/trigo, R$ per tonne, two rows a day told apart by "Região". */
export const naTrigo = espelhoCepea({
  paraPagina: "cepea/trigo",
  path: "/cotacoes/trigo/preco-medio-do-trigo-cepea-esalq",
  titulo: "Preço Médio do Trigo Cepea/Esalq",
  valor: { nome: "R$/t", key: "R$/T" },
  series: [
    { produto: "trigo", uf: "PR", unidade: "t", regiao: "Paraná" },
    { produto: "trigo", uf: "RS", unidade: "t", regiao: "Rio Grande do Sul" },
  ],
});

/**
 * The CEPEA pages Notícias Agrícolas republishes, in the order they are tried for one page
 * (café: arábica, then robusta; only one of them serves the page in a run).
 */
export const ESPELHOS_NA_CEPEA: readonly MirrorDef[] = [naMilho, naSoja, naBezerro, naCafeArabica, naCafeRobusta, naAlgodao, naTrigo];
