import { parseDateBR } from "../domain/dates.ts";
import { ParseError } from "../domain/errors.ts";
import { formatDecimalBR, fromHundredths } from "../domain/money.ts";
import type { Produto } from "../domain/products.ts";
import type { PriceRow } from "../domain/row.ts";
import type { SerieDecl } from "../domain/series.ts";
import { UFS, type UF } from "../domain/ufs.ts";
import {
  cellText,
  checkDocumentEnd,
  checkedRow,
  checkTituloDaPagina,
  checkLabel,
  checkRow,
  checkTableClosed,
  checkTableLabels,
  collapse,
  load,
  normKey,
  numeroCompleto,
  sortBySeries,
  type Cheerio$,
} from "./html.ts";
import type { PageDef, ParsedPage, SourceDef } from "./types.ts";

/*
 * Datagro's "Reposição Nelore - Macho", as Notícias Agrícolas republishes it
 * (/cotacoes/boi-gordo/reposicao-nelore-macho, "Fonte: Datagro" under the page's title). Datagro
 * does not publish these prices openly itself, so the page is Notícias Agrícolas' URL
 * (COTACAO_NA_URL), but the numbers are Datagro's: rows and series say `fonte: "datagro"`.
 *
 * The page holds one `div.cotacao` per day (ten days, newest first), each with
 * "Fechamento: dd/mm/yyyy" in `div.fechamento` and one `table.cot-fisicas` with a one-row header
 * "Estado | Desmama | Bezerro | Garrote | Boi Magro" and one row per state, by its full name.
 * There is no unit anywhere on the page: the prices are R$ per kg of live weight (Datagro's
 * reposição quote; 11,76–25,13 on the recorded page). A switch to R$ per arroba (~300) or per
 * head (~3 000) falls outside the products' kg range and is refused, never published as kg.
 *
 * The mirror parser of noticias-agricolas.ts reads the same `div.cotacao`/`table.cot-fisicas`
 * blocks, but only the first table with Scot's columns; the few lines that find a block's closing
 * date are repeated here (fechamentoDe) rather than shared, since that module is being extended.
 */

export const DATAGRO_PATH = "/cotacoes/boi-gordo/reposicao-nelore-macho";

/** The states of the table, in the order the page lists them. */
const UFS_REPOSICAO = ["SP", "MG", "MS", "MT", "GO", "TO", "PA", "PR", "RS", "RO"] as const satisfies readonly UF[];

/**
 * RS is read (every cell must be whole) but not published. On the recorded page its quotes fail
 * the integrity gates in a way no bound can fairly absorb: on 26/01/2026 its bezerro is 13,63
 * while its desmama is 24,10, garrote 22,27 and boi magro 19,92 (per kg, a lighter animal is
 * never cheaper than a heavier one: every other row of the page keeps desmama ≥ bezerro ≥
 * garrote ≥ boi magro), the next day it is 24,05 (+76 %), and on 28/01/2026 all four RS
 * categories fall 23–25 % at once and stay there (a change of level, not a market move). A page
 * is believed only whole, so publishing RS would hold back the other nine states on every run
 * that still shows those days; RS waits until Datagro's RS quotes are explained.
 */
const UFS_FORA: ReadonlySet<UF> = new Set<UF>(["RS"]);

/** The published states, in the page's order. */
const UFS_PUBLICADAS = UFS_REPOSICAO.filter((uf) => !UFS_FORA.has(uf));

/**
 * The bounds of every reposição series (each series repeats its product's). The per-kg cattle range; the state quotes move up to
 * 12,84 % from one day to the next on the recorded page (MS desmama, 26→27/01/2026; the other
 * states' largest moves are 10–12 %), so the jump bound is 15 %; revisions as the bezerro's.
 */
export const LIMITES_REPOSICAO = { faixa: { kg: [4, 60] }, saltoMaximoPct: 15, revisaoMaximaPct: 1.5 } as const;

/** The header's columns: the state, then one product per column. */
type Coluna = "estado" | "bezerro_desmama" | "bezerro_reposicao" | "garrote" | "boi_magro";

const NOME_COLUNA: Record<Coluna, string> = {
  estado: "Estado",
  bezerro_desmama: "Desmama",
  // the page's "Bezerro", per kg: bezerro_reposicao, never CEPEA's bezerro (per head, MS)
  bezerro_reposicao: "Bezerro",
  garrote: "Garrote",
  boi_magro: "Boi Magro",
};
const COLUNAS = Object.keys(NOME_COLUNA) as Coluna[];
const PRODUTOS_REPOSICAO = COLUNAS.filter((c): c is Exclude<Coluna, "estado"> => c !== "estado") satisfies Produto[];

const TITULO = "Reposição Nelore - Macho";
const ONDE = `Notícias Agrícolas, tabela "${TITULO}"`;

function colunaDoCabecalho(label: string): Coluna | null {
  const k = normKey(label);
  return COLUNAS.find((c) => normKey(NOME_COLUNA[c]) === k) ?? null;
}

/** "São Paulo" -> SP: a state's full name, exactly (the page writes no codes and no regions). */
const UF_DO_NOME = new Map((Object.entries(UFS) as [UF, string][]).map(([uf, nome]) => [normKey(nome), uf]));

function seriesDaReposicao(): SerieDecl[] {
  return PRODUTOS_REPOSICAO.flatMap((produto) =>
    UFS_PUBLICADAS.map(
      (uf): SerieDecl => ({
        produto,
        uf,
        unidade: "kg",
        regiao: `${UFS[uf]} (Reposição Nelore macho, Datagro)`,
        praca: UFS[uf],
        limites: LIMITES_REPOSICAO,
      }),
    ),
  );
}

/** The reposição tables: every table.cot-fisicas whose header names the Desmama column. */
function quadros($: Cheerio$) {
  return $("table.cot-fisicas")
    .toArray()
    .filter((el) =>
      $(el)
        .find("thead tr")
        .first()
        .children("th, td")
        .toArray()
        .some((th) => colunaDoCabecalho(cellText($, th)) === "bezerro_desmama"),
    );
}

/** The closing date of a `div.cotacao` block (same reading as noticias-agricolas.ts). */
function fechamentoDe($: Cheerio$, table: Parameters<Cheerio$>[0]): { texto: string; bruto: string; data: string | null } {
  const el = $(table).closest(".cotacao").find(".fechamento").first()[0];
  if (!el) return { texto: "", bruto: "", data: null };
  const texto = cellText($, el);
  const m = texto.match(/^Fechamento:\s*(\d{2}\/\d{2}\/\d{4})$/i);
  return { texto, bruto: $(el).text(), data: m ? parseDateBR(m[1]!) : null };
}

function hasTable(html: string): boolean {
  const $ = load(html);
  return quadros($).some((el) => $(el).children("tbody").children("tr").length > 0);
}

/**
 * Per kg of live weight a lighter animal is never cheaper than a heavier one: desmama ≥ bezerro ≥
 * garrote ≥ boi magro on every row of the recorded pages (neighbours 0,83–0,99 apart; RS, which
 * breaks it, is not published). Two columns swapped under their labels move each value by 1–17 %,
 * inside the jump bound, so this order is the only thing that tells them apart.
 */
function checkOrdem(valores: ReadonlyArray<readonly [Exclude<Coluna, "estado">, number | undefined]>, linha: string): void {
  const presentes = valores.filter((v): v is readonly [Exclude<Coluna, "estado">, number] => v[1] !== undefined);
  for (let i = 1; i < presentes.length; i++) {
    const [leve, vLeve] = presentes[i - 1]!;
    const [pesado, vPesado] = presentes[i]!;
    if (vPesado > vLeve) {
      throw new ParseError(
        `${linha}: ${NOME_COLUNA[pesado]} (R$ ${formatDecimalBR(vPesado)}/kg) acima de ${NOME_COLUNA[leve]} (R$ ${formatDecimalBR(vLeve)}/kg); ` +
          "por kg, um animal mais pesado nunca vale mais que um mais leve; colunas trocadas?",
      );
    }
  }
}

/**
 * Every day's table lists its states in the same order (UFS_REPOSICAO) on the recorded page. A
 * row's label is the only thing tying its four prices to a state, and the states' prices sit
 * within a few percent of each other (SP 15,24 and MG 15,59 desmama on 06/02/2026): two labels
 * swapped over rows that kept their numbers pass the range, the jump bound and the per-kg order,
 * and would publish one state's prices as the other's. They break the order, so a table whose
 * states come in another order, or one twice, refuses the page. A state missing from a day's
 * table is only an aviso (its series misses that day): refusing it would stop every series for
 * the two weeks the table stays on the page. Rows of other states (no series declared) may sit
 * anywhere.
 */
function checkEstados(estados: readonly UF[], onde: string, avisos: string[]): void {
  const nomes = (ufs: readonly UF[]) => ufs.map((uf) => UFS[uf]).join(", ");
  const repetidos = [...new Set(estados.filter((uf, i) => estados.indexOf(uf) !== i))];
  const ordem = (uf: UF) => (UFS_REPOSICAO as readonly UF[]).indexOf(uf);
  const fora = estados.some((uf, i) => i > 0 && ordem(uf) < ordem(estados[i - 1]!));
  if (repetidos.length > 0 || fora) {
    throw new ParseError(
      `${onde}: ${repetidos.length > 0 ? `estado(s) repetido(s): ${nomes(repetidos)}` : "estados fora da ordem de sempre (rótulos trocados entre linhas?)"}; ` +
        `esperados ${nomes(UFS_REPOSICAO)}, nesta ordem; encontrados ${nomes(estados) || "nenhum"}`,
    );
  }
  const faltam = UFS_REPOSICAO.filter((uf) => !estados.includes(uf));
  if (faltam.length > 0) avisos.push(`${onde}: sem linha de ${nomes(faltam)} neste dia`);
}

export function parseReposicao(html: string): ParsedPage {
  checkDocumentEnd(html);
  const $ = load(html);
  const tabelas = quadros($);
  if (tabelas.length === 0) {
    throw new ParseError(`${ONDE} (table.cot-fisicas com ${COLUNAS.map((c) => `"${NOME_COLUNA[c]}"`).join(", ")}) não encontrada na página`, "soft_block");
  }
  // the numbers are attributed to Datagro because the page says so
  const fonte = collapse($(".modelo-header .fonte").first().text());
  if (normKey(fonte) !== "FONTE: DATAGRO") {
    throw new ParseError(`${ONDE}: a página não atribui a tabela à Datagro (esperado "Fonte: Datagro" sob o título, encontrado "${fonte}")`);
  }
  // the page is found by its address, and the site keeps other Datagro reposição tables in this
  // very layout: it must still be the one this source stands for
  checkTituloDaPagina($, TITULO, ONDE);
  // every cot-fisicas table of the page must be a reposição table: a day in another layout is not skipped
  const outras = $("table.cot-fisicas").length - tabelas.length;
  if (outras > 0) throw new ParseError(`${ONDE}: ${outras} tabela(s) table.cot-fisicas com outro cabeçalho na página (esperado ${COLUNAS.map((c) => `"${NOME_COLUNA[c]}"`).join(", ")})`);

  const avisos: string[] = [];
  const rows: PriceRow[] = [];
  const foraLidos = new Set<UF>();
  // the closing date of the table before, in the page's order
  let anterior: { data: string; texto: string; n: number } | null = null;
  tabelas.forEach((el, t) => {
    const f = fechamentoDe($, el);
    const onde = `${ONDE} ${f.data ? `de ${f.texto.replace(/^Fechamento:\s*/i, "")}` : `nº ${t + 1}`}`;
    checkTableClosed(el, onde);
    checkTableLabels($, el, onde);
    checkLabel(f.bruto, `${onde}, data de fechamento`);
    if (!f.data) throw new ParseError(`${onde}: data ilegível (esperado "Fechamento: dd/mm/aaaa", encontrado "${f.texto.slice(0, 60)}")`);
    // The page lists the days newest first, and each table's only date is its own "Fechamento"
    // line. Two tables' dates swapped, or an older table dated after the newest, would publish a
    // whole day's prices under another day's date (the values stay within every bound), so a
    // date out of that order refuses the page; the same date twice is named as such.
    const dataTexto = f.texto.replace(/^Fechamento:\s*/i, "");
    if (anterior && f.data >= anterior.data) {
      throw new ParseError(
        f.data === anterior.data
          ? `${onde} (tabela nº ${t + 1}): a data ${dataTexto} aparece duas vezes (também na tabela nº ${anterior.n})`
          : `${onde} (tabela nº ${t + 1}): data fora de ordem, depois da tabela de ${anterior.texto} (nº ${anterior.n}); a página lista os dias do mais novo ao mais antigo (datas trocadas entre tabelas?)`,
      );
    }
    anterior = { data: f.data, texto: dataTexto, n: t + 1 };
    const cabecalho = $(el).find("thead tr");
    if (cabecalho.length !== 1) throw new ParseError(`${onde}: cabeçalho com ${cabecalho.length} linhas, esperada uma`);
    const rotulos = cabecalho.first().children("th, td").toArray().map((th) => cellText($, th));
    const colunas = new Map<Coluna, number>();
    const problemas: string[] = [];
    rotulos.forEach((rotulo, i) => {
      const c = colunaDoCabecalho(rotulo);
      if (c === null) problemas.push(`coluna desconhecida "${rotulo}"`);
      else if (colunas.has(c)) problemas.push(`coluna "${NOME_COLUNA[c]}" aparece duas vezes`);
      else colunas.set(c, i);
    });
    problemas.unshift(...COLUNAS.filter((c) => !colunas.has(c)).map((c) => `coluna "${NOME_COLUNA[c]}" não encontrada`));
    if (colunas.has("estado") && colunas.get("estado") !== 0) problemas.push(`a coluna "${NOME_COLUNA.estado}" deveria ser a primeira`);
    if (problemas.length > 0) {
      throw new ParseError(
        `${onde}: ${problemas.join("; ")} no cabeçalho (esperadas ${COLUNAS.map((c) => `"${NOME_COLUNA[c]}"`).join(", ")}; encontradas ${rotulos.map((r) => `"${r}"`).join(", ")})`,
      );
    }
    const linhas = $(el).children("tbody").children("tr").toArray();
    if (linhas.length === 0) throw new ParseError(`${onde} está vazia (nenhum estado)`, "soft_block");
    // the states of UFS_REPOSICAO this table lists, in its order
    const estados: UF[] = [];
    linhas.forEach((tr, n) => {
      const cells = checkRow($, tr, rotulos.length, `${onde}, linha ${n + 1} ("${cellText($, $(tr).children("td, th").first()[0] ?? tr)}")`);
      const estado = cellText($, cells[0]!);
      const linha = `${onde}, estado "${estado}"`;
      // every price cell must be whole before the row is used (or skipped)
      const valores = PRODUTOS_REPOSICAO.map((produto) => {
        const texto = cellText($, cells[colunas.get(produto)!]!);
        if (texto === "" || texto === "-") return [produto, undefined] as const;
        const h = numeroCompleto(texto);
        if (h === null) {
          throw new ParseError(`${linha}: número inválido na coluna "${NOME_COLUNA[produto]}": "${texto}" (esperado um número com duas casas, como 15,24)`);
        }
        return [produto, fromHundredths(h)] as const;
      });
      const uf = UF_DO_NOME.get(normKey(estado));
      if (!uf) {
        avisos.push(`${linha}: estado não reconhecido; linha ignorada`);
        return;
      }
      if (!(UFS_REPOSICAO as readonly string[]).includes(uf)) avisos.push(`${linha}: ${uf} não tem série declarada; linha ignorada`);
      else {
        estados.push(uf);
        if (UFS_FORA.has(uf)) foraLidos.add(uf);
        else checkOrdem(valores, linha);
      }
      for (const [produto, valor] of valores) {
        if (valor === undefined) {
          avisos.push(`${linha}: sem preço de ${NOME_COLUNA[produto]}; célula ignorada`);
          continue;
        }
        rows.push(checkedRow({ fonte: "datagro", produto, uf, praca: null, data: f.data!, valor, unidade: "kg", extras: {} }, linha));
      }
    });
    checkEstados(estados, onde, avisos);
  });
  if (rows.length === 0) throw new ParseError(`${ONDE}: nenhum preço pôde ser lido (${avisos.join("; ")})`);
  if (foraLidos.size > 0) avisos.push(`${[...foraLidos].join(", ")}: lido(s) e conferido(s), mas não publicado(s) (cotações incoerentes na página gravada; ver pipeline/sources/datagro.ts)`);
  // rows grouped by series (product, then state in the page's order), oldest day first
  const ordem = (r: PriceRow) => PRODUTOS_REPOSICAO.indexOf(r.produto as (typeof PRODUTOS_REPOSICAO)[number]) * 100 + (UFS_REPOSICAO as readonly string[]).indexOf(r.uf ?? "");
  const ordenadas = rows.map((r, i) => [r, i] as const).sort(([a, i], [b, j]) => ordem(a) - ordem(b) || i - j).map(([r]) => r);
  return { rows: sortBySeries(ordenadas, "página reposicao-nelore-macho"), avisos };
}

const reposicao: PageDef = {
  id: "reposicao-nelore-macho",
  path: DATAGRO_PATH,
  titulo: "Reposição Nelore macho por estado (Datagro, via Notícias Agrícolas)",
  series: seriesDaReposicao(),
  diasUteis: true,
  hasTable,
  parse: parseReposicao,
};

export const datagro: SourceDef = {
  id: "datagro",
  nome: "Datagro",
  nomeCurto: "Datagro",
  // the page is Notícias Agrícolas' republication: its base URL is theirs
  site: "https://www.noticiasagricolas.com.br",
  baseUrlEnv: "COTACAO_NA_URL",
  maxIdadeDias: 3,
  termos: {
    // the page states no license: it only credits the numbers to Datagro
    licenca: "Sem licença declarada",
    citacao: "Datagro (via Notícias Agrícolas)",
    texto:
      "Preços de reposição da Datagro republicados pelo Notícias Agrícolas, cuja página diz apenas \"Fonte: Datagro\" e não declara licença nem termos de reprodução; cite a Datagro e o Notícias Agrícolas, e confirme com a Datagro antes de republicar.",
    url: `https://www.noticiasagricolas.com.br${DATAGRO_PATH}`,
  },
  pages: [reposicao],
};
