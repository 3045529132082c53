import { parseDateBR } from "../domain/dates.ts";
import { ParseError } from "../domain/errors.ts";
import { formatDecimalBR, fromHundredths } from "../domain/money.ts";
import { PRODUTO_INFO, type Produto, type Unidade } from "../domain/products.ts";
import type { PriceRow } from "../domain/row.ts";
import { EXTRAS_PRACA } from "../domain/row.ts";
import type { SerieDecl } from "../domain/series.ts";
import { UFS, isUF, type UF } from "../domain/ufs.ts";
import {
  cellText,
  checkDocumentEnd,
  checkedRow,
  checkFragmentTables,
  checkLabel,
  checkRow,
  checkTableClosed,
  checkTableLabels,
  collapse,
  headerLayout,
  labelText,
  load,
  normKey,
  numeroCompleto,
  sortBySeries,
  type Cheerio$,
} from "./html.ts";
import type { PageDef, ParsedPage, SourceDef } from "./types.ts";

/** The 18 UFs of Scot Consultoria's "Mercado Físico" table, in the order the API lists them. */
export const SCOT_UFS = [
  "SP", "MG", "GO", "MS", "RS", "BA", "MT", "PR", "SC",
  "MA", "AL", "PA", "RO", "TO", "AC", "ES", "RJ", "RR",
] as const satisfies readonly UF[];

/**
 * Reference praça of each UF by default (cotacao.config.json `pracasReferencia` chooses another):
 * its price is the state's value. A UF with one unnamed praça is quoted under the state's name.
 */
const PRACAS_REFERENCIA: Record<(typeof SCOT_UFS)[number], string> = {
  SP: "Barretos",
  MG: "Triângulo",
  GO: "Goiânia",
  MS: "C. Grande",
  RS: "Oeste",
  BA: "Sul",
  MT: "Cuiabá",
  PR: "Noroeste",
  SC: UFS.SC,
  MA: "Oeste",
  AL: UFS.AL,
  PA: "Marabá",
  RO: "Sudeste",
  TO: "Sul",
  AC: UFS.AC,
  ES: UFS.ES,
  RJ: UFS.RJ,
  RR: UFS.RR,
};

/** Scot quotes RS per kg of live weight (50% carcass yield), every other UF per arroba. */
const UNIDADE_UF: Partial<Record<UF, Unidade>> = { RS: "kg" };

/**
 * The series a "Mercado Físico" table feeds: the product in each of the 18 UFs (its reference
 * praça's price, with every praça kept), and, where Scot is the national reference (vaca gorda),
 * the SP reference praça as the national series.
 */
function seriesDaTabela(produto: Produto, nacional: boolean): SerieDecl[] {
  const porUf = (uf: (typeof SCOT_UFS)[number]): SerieDecl => ({
    produto,
    uf,
    unidade: UNIDADE_UF[uf] ?? PRODUTO_INFO[produto].unidade,
    regiao: `${UFS[uf]} (Mercado Físico, Scot Consultoria)`,
    ufReferencia: uf,
    pracaReferencia: PRACAS_REFERENCIA[uf],
    tabela: "Mercado Físico da Scot Consultoria",
  });
  const nacionalSP: SerieDecl = {
    produto,
    uf: null,
    unidade: PRODUTO_INFO[produto].unidade,
    regiao: "São Paulo (praça de referência da Scot Consultoria)",
    ufReferencia: "SP",
    pracaReferencia: PRACAS_REFERENCIA.SP,
  };
  return [...(nacional ? [nacionalSP] : []), ...SCOT_UFS.map(porUf)];
}

/*
 * Scot Consultoria's quotation pages ("/cotacoes/boi-gordo/", "/cotacoes/vaca-gorda/",
 * "/cotacoes/novilha/") hold a "Mercado Físico - dd/mm/yyyy" table (the day is only in that title)
 * and, on the boi page, a "Boi China a Prazo" table (read by parseBoiChina below). The Mercado
 * Físico header is three rows of rowspan/colspan cells under the category cell ("BOI GORDO",
 * "VACA GORDA", "NOVILHA GORDA"):
 *   Preços Brutos: à vista | 30 D | (trend arrow) | # base (boi only)
 *   Descontados > Funrural: à vista | 30 D
 *   Descontados > Senar: à vista | (blank) | 30 D | (blank)
 * so columns are mapped from the laid-out header, never by position. Praça labels are "SP
 * Barretos", a bare UF code ("SC", "ES", "RJ") or a state's full name ("Alagoas", "Acre",
 * "Roraima"); "*" marks a footnote in the tfoot ("MT Cuiabá*"); RS praças are quoted per kg of
 * live weight (50% carcass yield) and say so with a "(kg)" suffix.
 */

type Table = ReturnType<Cheerio$>;

type Campo =
  | "valor"
  | "valor_30d"
  | "base_sp"
  | "tendencia"
  | "funrural_avista"
  | "funrural_30d"
  | "senar_avista"
  | "senar_30d";

/** The order extras are written in, whatever the column order of the page. */
const EXTRAS: readonly Exclude<Campo, "valor">[] = EXTRAS_PRACA;

/** Trend arrows, as the table's footer legend explains them. */
const SETAS: Record<string, "alta" | "estavel" | "baixa"> = {
  "s.gif": "alta", // "Subiu"
  "n.gif": "estavel", // "Estável"
  "d.gif": "baixa", // "Desceu"
};

const TITULO = /^MERCADO FISICO\s*-\s*(\d{2}\/\d{2}\/\d{4})$/;

function tabelaMercadoFisico($: Cheerio$): { table: Table; titulo: string } | null {
  for (const el of $("table").toArray()) {
    const first = $(el).find("th, td").first();
    if (first.length === 0) continue;
    const titulo = cellText($, first[0]!);
    if (normKey(titulo).startsWith("MERCADO FISICO")) return { table: $(el), titulo };
  }
  return null;
}

/**
 * Header rows are the ones the category cell spans (rowspan); every other row of the tbody is
 * a praça (a row with fewer cells is not skipped: it is refused as incomplete).
 */
function estrutura($: Cheerio$, table: Table) {
  const body = table.children("tbody").first();
  const rows = body.children("tr").toArray();
  const categoriaCell = rows[0] ? $(rows[0]).children("td, th").first() : null;
  const nHeader = categoriaCell?.length ? Math.max(1, Number(categoriaCell.attr("rowspan") ?? 1) || 1) : 0;
  const header = rows.slice(0, nHeader);
  const dados = rows.slice(nHeader);
  return { categoria: categoriaCell?.length ? cellText($, categoriaCell[0]!) : "", header, dados };
}

function campoDaColuna(path: string[]): Campo | "ignorar" | null {
  const keys = path.map(normKey);
  const last = keys[keys.length - 1] ?? "";
  const vista = last === "A VISTA";
  const d30 = /^30 ?D(IAS)?$/.test(last);
  if (keys.includes("PRECOS BRUTOS")) {
    if (vista) return "valor";
    if (d30) return "valor_30d";
    if (last.startsWith("# BASE") || last === "BASE") return "base_sp";
    if (last === "" || last === "PRECOS BRUTOS") return "tendencia";
    return null;
  }
  const grupo = keys.includes("FUNRURAL") ? "funrural" : keys.includes("SENAR") ? "senar" : null;
  if (grupo) {
    if (vista) return `${grupo}_avista`;
    if (d30) return `${grupo}_30d`;
    // Senar's blank spacer columns
    if (last === "" || last === "FUNRURAL" || last === "SENAR") return "ignorar";
  }
  // "Descontados" has colspan 7 over 6 columns: the grid gets one column no data row fills
  if (keys.length === 1 && last === "DESCONTADOS") return "ignorar";
  return null;
}

interface Praca {
  uf: UF;
  praca: string;
  unidade: Unidade | null;
  marca: string | null;
}

const NOMES_UF = (Object.entries(UFS) as [UF, string][])
  .map(([uf, nome]) => ({ uf, key: normKey(nome) }))
  .sort((a, b) => b.key.length - a.key.length);

/** "SP Barretos", "MT Cuiabá*", "RS Oeste (kg)", "SC", "Alagoas" -> UF, praça, unit, footnote. */
export function lerPraca(rotulo: string): Praca | null {
  let s = collapse(rotulo);
  let unidade: Unidade | null = null;
  let marca: string | null = null;
  for (;;) {
    const u = s.match(/\s*\((kg|@)\)$/i);
    if (u) {
      unidade = u[1]!.toLowerCase() === "kg" ? "kg" : "@";
      s = s.slice(0, u.index).trim();
      continue;
    }
    const m = s.match(/\s*(\*+)$/);
    if (m) {
      marca = m[1]!;
      s = s.slice(0, m.index).trim();
      continue;
    }
    break;
  }
  const code = s.match(/^([A-Z]{2})(?:\s+(.+))?$/);
  if (code && isUF(code[1]!)) {
    const uf = code[1] as UF;
    // "MS - Dourados" as "MS Dourados", as a state's name followed by a dash is read below
    return { uf, praca: code[2]?.replace(/^[\s\-–—]+/, "").trim() || UFS[uf], unidade, marca };
  }
  const key = normKey(s);
  for (const { uf, key: nome } of NOMES_UF) {
    if (key === nome) return { uf, praca: UFS[uf], unidade, marca };
    if (key.startsWith(`${nome} `)) {
      const resto = s.split(" ").slice(nome.split(" ").length).join(" ").replace(/^[\s-]+/, "");
      return { uf, praca: resto || UFS[uf], unidade, marca };
    }
  }
  return null;
}

/** Footnotes of the table's tfoot, by marker: "*" -> "Região de Cuiabá, inclui Rondonópolis". */
function notas($: Cheerio$, table: Table): Map<string, string> {
  const out = new Map<string, string>();
  for (const td of table.find("tfoot td").toArray()) {
    const sup = $(td).children("sup").first();
    const texto = cellText($, td);
    if (sup.length && texto.startsWith(cellText($, sup[0]!))) {
      out.set(cellText($, sup[0]!), labelText($, td));
      continue;
    }
    const m = texto.match(/^(\*+)\s*(.+)$/);
    if (m) out.set(m[1]!, m[2]!);
  }
  return out;
}

/** How the header names each field, for messages. */
const NOME_CAMPO: Record<Campo, string> = {
  valor: "Preços Brutos > à vista",
  valor_30d: "Preços Brutos > 30 D",
  tendencia: "Preços Brutos > (seta de tendência, sem rótulo)",
  base_sp: "Preços Brutos > # base",
  funrural_avista: "Descontados > Funrural > à vista",
  funrural_30d: "Descontados > Funrural > 30 D",
  senar_avista: "Descontados > Senar > à vista",
  senar_30d: "Descontados > Senar > 30 D",
};

function parseMercadoFisico(html: string, pageId: string, categoria: string, produto: Produto, campos: readonly Campo[]): ParsedPage {
  checkDocumentEnd(html);
  const $ = load(html);
  checkFragmentTables($, html);
  const found = tabelaMercadoFisico($);
  if (!found) throw new ParseError('tabela "Mercado Físico - dd/mm/aaaa" não encontrada na página', "soft_block");
  const { table, titulo } = found;
  const onde = `tabela "${titulo}"`;
  checkTableClosed(table[0]!, onde);
  checkTableLabels($, table[0]!, onde);

  const m = normKey(titulo).match(TITULO);
  const data = m ? parseDateBR(m[1]!) : null;
  if (!data) throw new ParseError(`${onde}: data da cotação ilegível no título (esperado "Mercado Físico - dd/mm/aaaa")`);

  const { categoria: cat, header, dados } = estrutura($, table);
  if (normKey(cat) !== normKey(categoria)) {
    throw new ParseError(`${onde}: a categoria da tabela é "${cat}", esperado "${categoria}"`);
  }

  const avisos: string[] = [];
  const colunas = new Map<Campo, number>();
  const { columns, largura } = headerLayout($, header);
  const encontrado = columns
    .slice(1, largura)
    .map((path) => `"${path.join(" > ")}"`)
    .join(", ");
  const esperado = campos.map((c) => `"${NOME_CAMPO[c]}"`).join(", ");
  columns.slice(0, largura).forEach((path, i) => {
    if (i === 0) return; // the category / praça column
    const campo = campoDaColuna(path);
    if (campo === "ignorar") return;
    if (campo === null || !campos.includes(campo)) {
      throw new ParseError(`${onde}: coluna desconhecida "${path.join(" > ")}" no cabeçalho (esperadas ${esperado}; encontradas ${encontrado})`);
    }
    if (colunas.has(campo)) {
      throw new ParseError(`${onde}: coluna "${path.join(" > ")}" aparece duas vezes no cabeçalho`);
    }
    colunas.set(campo, i);
  });
  const faltam = campos.filter((c) => !colunas.has(c));
  if (faltam.length > 0) {
    throw new ParseError(
      `${onde}: ${faltam.map((c) => `coluna "${NOME_CAMPO[c]}"`).join(", ")} não encontrada no cabeçalho (esperadas ${esperado}; encontradas ${encontrado})`,
    );
  }

  if (dados.length === 0) throw new ParseError(`${onde} está vazia (nenhuma praça)`, "soft_block");

  const footnotes = notas($, table);
  const rows: PriceRow[] = [];
  const ufs = new UfsAgrupadas();
  dados.forEach((tr, n) => {
    const cells = checkRow($, tr, largura, `${onde}, praça ${n + 1} ("${cellText($, $(tr).children("td, th").first()[0] ?? tr)}")`);
    // a footnote may also be marked with <sup>n</sup> instead of "*"
    const sup = $(cells[0]!).find("sup").first();
    const lida = lerPracaDaLinha($, cells[0]!, onde, avisos);
    if (!lida) return;
    const { p, linha } = lida;
    ufs.conferir(p.uf, linha);
    const numero = (campo: Campo): number | undefined => {
      const i = colunas.get(campo);
      const cell = i === undefined ? undefined : cells[i];
      const texto = cell ? cellText($, cell) : "";
      if (texto === "" || texto === "-") return undefined;
      const h = numeroCompleto(texto);
      if (h === null) {
        throw new ParseError(`${linha}: número inválido na coluna "${NOME_CAMPO[campo]}": "${texto}" (esperado um número com duas casas, como 345,50)`);
      }
      return fromHundredths(h);
    };
    const valor = numero("valor");
    if (valor === undefined) {
      avisos.push(`${linha}: sem preço à vista; linha ignorada`);
      return;
    }
    const extras: Record<string, number | string> = {};
    for (const campo of EXTRAS) {
      if (campo === "tendencia") {
        const i = colunas.get("tendencia");
        const src = i === undefined ? undefined : $(cells[i]).find("img").attr("src");
        if (!src) continue;
        const seta = SETAS[src.split(/[?#]/)[0]!.split("/").pop()!.toLowerCase()];
        if (seta) extras.tendencia = seta;
        else avisos.push(`${linha}: ícone de tendência desconhecido "${src}"`);
        continue;
      }
      const v = numero(campo);
      if (v !== undefined) extras[campo] = v;
    }
    let nota: string | undefined;
    const marca = p.marca ?? (sup.length ? cellText($, sup[0]!) : null);
    if (marca) {
      nota = footnotes.get(marca);
      // the footnote is part of the row: a table whose tfoot lost it is not whole
      if (!nota) throw new ParseError(`${linha}: a nota "${marca}" não tem texto no rodapé da tabela (esperada uma linha "${marca} ..." no tfoot)`);
    }
    rows.push(linhaDaPraca({ p, linha }, produto, data, valor, extras, nota));
  });
  if (rows.length === 0) {
    throw new ParseError(`${onde}: nenhuma praça pôde ser lida (${avisos.join("; ")})`);
  }
  return { rows: sortBySeries(rows, `página ${pageId}`), avisos };
}

function pagina(id: string, path: string, titulo: string, categoria: string, produto: Produto, campos: readonly Campo[], series: SerieDecl[]): PageDef {
  return {
    id,
    path,
    titulo,
    series,
    diasUteis: true,
    hasTable(html: string): boolean {
      const $ = load(html);
      const found = tabelaMercadoFisico($);
      return found !== null && estrutura($, found.table).dados.length > 0;
    },
    parse: (html: string) => parseMercadoFisico(html, id, categoria, produto, campos),
  };
}

/*
 * "Boi China a Prazo (R$/@) - dd/mm/yyyy", the first table of the boi page: steers for China
 * (at most four permanent teeth, under 30 months, says its footer), quoted only at 30 days, one
 * row per state or region: a plain header row inside the tbody ("UF" | "Preço bruto 30 dias" |
 * "Preço líquido 30 dias³"), the data rows, and a last row of one cell spanning the table with
 * the footnotes ("³ Preços com o desconto do Funrural"). So the líquido column is the 30-day price
 * net of Funrural: the same quantity as the Mercado Físico's "Descontados > Funrural > 30 D", and
 * published under the same name, `funrural_30d` (no new column); `valor` is the bruto 30 dias.
 * Rows name a state by its full name; two kinds of rows are more than a name:
 *   - "Minas Gerais (Exceto região Sul)": the only MG row, so it is MG's series; its praça keeps
 *     the whole label as Scot writes it.
 *   - "Pará - Paragominas" and "Pará - Redenção e Marabá": Pará in two regions. One state series
 *     (boi_china/PA) shows both in `pracas`; its value is "Redenção e Marabá", the region of
 *     Marabá, Pará's reference praça in the Mercado Físico table.
 * The reference of every boi_china series is fixed (`referenciaFixa`): cotacao.config.json's
 * pracasReferencia names praças of the Mercado Físico tables, not these regions. Notícias
 * Agrícolas does not republish this table: read through that mirror, the boi page feeds only the
 * Mercado Físico series (`semEspelho`).
 */
const BOI_CHINA_TITULO = /^BOI CHINA A PRAZO \(R\$\/@\) - (\d{2}\/\d{2}\/\d{4})$/;

/** Each state of the table and the region that gives its value, in the table's order. */
const BOI_CHINA_REFERENCIA = {
  SP: UFS.SP,
  MG: `${UFS.MG} (Exceto região Sul)`,
  MT: UFS.MT,
  MS: UFS.MS,
  GO: UFS.GO,
  PA: "Redenção e Marabá",
  RO: UFS.RO,
  ES: UFS.ES,
  TO: UFS.TO,
  PR: UFS.PR,
} as const satisfies Partial<Record<(typeof SCOT_UFS)[number], string>>;

function seriesBoiChina(): SerieDecl[] {
  return (Object.entries(BOI_CHINA_REFERENCIA) as [(typeof SCOT_UFS)[number], string][]).map(([uf, praca]) => ({
    produto: "boi_china",
    uf,
    unidade: "@",
    // the row's own label when it names the state ("Minas Gerais (Exceto região Sul)"), else "Estado: região"
    regiao: `${praca.startsWith(UFS[uf]) ? praca : `${UFS[uf]}: ${praca}`} (Boi China a prazo, 30 dias, Scot Consultoria)`,
    ufReferencia: uf,
    pracaReferencia: praca,
    tabela: "Boi China a Prazo (30 dias) da Scot Consultoria",
    referenciaFixa: true,
    semEspelho: true,
  }));
}

type CampoChina = "uf" | "bruto" | "liquido";

const NOME_CAMPO_CHINA: Record<CampoChina, string> = {
  uf: "UF",
  bruto: "Preço bruto 30 dias",
  liquido: "Preço líquido 30 dias",
};

function campoChina(label: string): CampoChina | null {
  const k = normKey(label);
  if (k === "UF") return "uf";
  if (k === "PRECO BRUTO 30 DIAS") return "bruto";
  if (k === "PRECO LIQUIDO 30 DIAS") return "liquido";
  return null;
}

function tabelaBoiChina($: Cheerio$): { table: Table; titulo: string } | null {
  for (const el of $("table").toArray()) {
    const first = $(el).find("th, td").first();
    if (first.length === 0) continue;
    const titulo = cellText($, first[0]!);
    if (normKey(titulo).startsWith("BOI CHINA")) return { table: $(el), titulo };
  }
  return null;
}

/** Líquido (net of Funrural) over bruto, as on every row of the recorded table (0,983–0,984) with room to spare. */
const CHINA_LIQUIDO_BRUTO = [0.95, 0.999] as const;

/** "São Paulo", "Minas Gerais (Exceto região Sul)", "Pará - Paragominas" -> UF and praça. */
function lerRegiaoChina(rotulo: string): { uf: UF; praca: string } | null {
  const p = lerPraca(rotulo);
  if (!p || p.unidade !== null || p.marca !== null) return null;
  // lerPraca leaves what follows the state's name: "(Exceto região Sul)" qualifies the state
  return { uf: p.uf, praca: p.praca.startsWith("(") ? `${UFS[p.uf]} ${p.praca}` : p.praca };
}

/** The text after `<sup>marca</sup>` in a footer cell, up to the next <sup> (or null when the marker is not there). */
function notaDoRodape($: Cheerio$, cell: Parameters<typeof cellText>[1], marca: string): string | null {
  let texto: string | null = null;
  for (const node of $(cell).contents().toArray()) {
    const sup = node.type === "tag" && (node as { name?: string }).name === "sup";
    if (sup) {
      if (texto !== null) break;
      if (cellText($, node) === marca) texto = "";
      continue;
    }
    if (texto !== null) texto += $(node).text();
  }
  return texto === null ? null : collapse(texto);
}

export function parseBoiChina(html: string): ParsedPage {
  checkDocumentEnd(html);
  const $ = load(html);
  checkFragmentTables($, html);
  const found = tabelaBoiChina($);
  if (!found) throw new ParseError('tabela "Boi China a Prazo (R$/@) - dd/mm/aaaa" não encontrada na página');
  const { table, titulo } = found;
  const onde = `tabela "${titulo}"`;
  checkTableClosed(table[0]!, onde);
  checkTableLabels($, table[0]!, onde);
  const m = normKey(titulo).match(BOI_CHINA_TITULO);
  const data = m ? parseDateBR(m[1]!) : null;
  if (!data) throw new ParseError(`${onde}: título ilegível (esperado "Boi China a Prazo (R$/@) - dd/mm/aaaa", em reais por arroba)`);

  const rows = table.children("tbody").first().children("tr").toArray();
  const [cabecalho, ...resto] = rows;
  if (!cabecalho) throw new ParseError(`${onde} está vazia (sem cabeçalho nem linhas)`);
  const rotulos = $(cabecalho).children("td, th").toArray();
  const colunas = new Map<CampoChina, number>();
  const encontradas = rotulos.map((c) => `"${labelText($, c)}"`).join(", ");
  const esperadas = Object.values(NOME_CAMPO_CHINA).map((n) => `"${n}"`).join(", ");
  rotulos.forEach((cell, i) => {
    const campo = campoChina(labelText($, cell));
    if (campo === null) throw new ParseError(`${onde}: coluna desconhecida "${labelText($, cell)}" no cabeçalho (esperadas ${esperadas}; encontradas ${encontradas})`);
    if (colunas.has(campo)) throw new ParseError(`${onde}: coluna "${NOME_CAMPO_CHINA[campo]}" aparece duas vezes no cabeçalho`);
    colunas.set(campo, i);
  });
  const faltam = (Object.keys(NOME_CAMPO_CHINA) as CampoChina[]).filter((c) => !colunas.has(c));
  if (faltam.length > 0) {
    throw new ParseError(`${onde}: ${faltam.map((c) => `coluna "${NOME_CAMPO_CHINA[c]}"`).join(", ")} não encontrada no cabeçalho (esperadas ${esperadas}; encontradas ${encontradas})`);
  }
  if (colunas.get("uf") !== 0) throw new ParseError(`${onde}: a coluna "UF" deveria ser a primeira (encontradas ${encontradas})`);
  const largura = rotulos.length;

  // the footnote row closes the table; the líquido column's footnote must still say Funrural,
  // or the column is not what funrural_30d means
  const ultima = resto[resto.length - 1];
  const ultimaCells = ultima ? $(ultima).children("td, th") : null;
  if (!ultima || ultimaCells!.length !== 1 || Number(ultimaCells!.attr("colspan") ?? 1) !== largura) {
    throw new ParseError(`${onde}: sem a linha de notas no fim da tabela (uma célula com colspan ${largura}): página cortada?`);
  }
  const dados = resto.slice(0, -1);
  const supLiquido = $(rotulos[colunas.get("liquido")!]!).find("sup").first();
  const marca = supLiquido.length ? cellText($, supLiquido[0]!) : null;
  const nota = marca === null ? null : notaDoRodape($, ultimaCells![0]!, marca);
  if (nota === null || !normKey(nota).includes("DESCONTO DO FUNRURAL")) {
    throw new ParseError(
      `${onde}: a nota da coluna "${NOME_CAMPO_CHINA.liquido}" não diz "Preços com o desconto do Funrural" (rodapé: "${cellText($, ultima).slice(0, 200)}")`,
    );
  }
  if (dados.length === 0) throw new ParseError(`${onde} está vazia (nenhuma UF)`);

  const avisos: string[] = [];
  const out: PriceRow[] = [];
  dados.forEach((tr, n) => {
    const cells = checkRow($, tr, largura, `${onde}, linha ${n + 1} ("${cellText($, $(tr).children("td, th").first()[0] ?? tr)}")`);
    const rotulo = cellText($, cells[0]!);
    checkLabel($(cells[0]!).text(), `${onde}, UF`);
    const linha = `${onde}, UF "${rotulo}"`;
    const numero = (campo: "bruto" | "liquido"): number | undefined => {
      const texto = cellText($, cells[colunas.get(campo)!]!);
      if (texto === "" || texto === "-") return undefined;
      const h = numeroCompleto(texto);
      if (h === null) throw new ParseError(`${linha}: número inválido na coluna "${NOME_CAMPO_CHINA[campo]}": "${texto}" (esperado um número com duas casas, como 352,00)`);
      return fromHundredths(h);
    };
    const bruto = numero("bruto");
    const liquido = numero("liquido");
    const r = lerRegiaoChina(labelText($, cells[0]!));
    if (!r) {
      avisos.push(`${linha}: UF ou região não reconhecida; linha ignorada`);
      return;
    }
    if (!(r.uf in BOI_CHINA_REFERENCIA)) avisos.push(`${linha}: ${r.uf} não tem série boi_china declarada; linha ignorada`);
    if (bruto === undefined) {
      avisos.push(`${linha}: sem preço bruto; linha ignorada`);
      return;
    }
    if (liquido !== undefined) {
      const razao = liquido / bruto;
      if (razao < CHINA_LIQUIDO_BRUTO[0] || razao > CHINA_LIQUIDO_BRUTO[1]) {
        throw new ParseError(
          `${linha}: líquido / bruto = ${formatDecimalBR(liquido)} / ${formatDecimalBR(bruto)} = ${razao.toFixed(3).replace(".", ",")}, ` +
            `fora da relação do desconto do Funrural (${String(CHINA_LIQUIDO_BRUTO[0]).replace(".", ",")}–${String(CHINA_LIQUIDO_BRUTO[1]).replace(".", ",")}); colunas trocadas?`,
        );
      }
    }
    out.push(
      checkedRow(
        { fonte: "scot", produto: "boi_china", uf: r.uf, praca: r.praca, data, valor: bruto, unidade: "@", extras: liquido === undefined ? {} : { funrural_30d: liquido } },
        linha,
      ),
    );
  });
  if (out.length === 0) throw new ParseError(`${onde}: nenhuma UF pôde ser lida (${avisos.join("; ")})`);
  return { rows: sortBySeries(out, "tabela Boi China"), avisos };
}

/**
 * The boi page with its "Boi China a Prazo" table: the Mercado Físico's rows, then the Boi
 * China's; either table failing fails the page (nothing of it merges). Whether the page holds
 * its table (soft-block detection) is still the Mercado Físico's question.
 */
function comBoiChina(page: PageDef): PageDef {
  return {
    ...page,
    series: [...page.series, ...seriesBoiChina()],
    parse(html: string): ParsedPage {
      const mf = page.parse(html);
      const china = parseBoiChina(html);
      return { rows: [...mf.rows, ...china.rows], avisos: [...mf.avisos, ...china.avisos] };
    },
  };
}

export const scot: SourceDef = {
  id: "scot",
  nome: "Scot Consultoria",
  nomeCurto: "Scot Consultoria",
  site: "https://www.scotconsultoria.com.br",
  baseUrlEnv: "COTACAO_SCOT_URL",
  maxIdadeDias: 3,
  termos: {
    licenca: "Reprodução sob autorização",
    citacao: "Scot Consultoria",
    texto:
      "Não reproduza o conteúdo da Scot Consultoria em qualquer meio de comunicação, eletrônico ou impresso, sem autorização da Scot Consultoria (scotconsultoria@scotconsultoria.com.br).",
    url: "https://www.scotconsultoria.com.br/",
  },
  pages: [
    // the boi page holds two tables, read together: the page is whole only if both are
    comBoiChina(
      pagina("boi-gordo", "/cotacoes/boi-gordo/", "Mercado Físico do boi gordo (Scot Consultoria)", "BOI GORDO", "boi_gordo", ["valor", ...EXTRAS], seriesDaTabela("boi_gordo", false)),
    ),
    // the vaca table has no "# base" column; its SP reference praça is the national vaca gorda
    pagina(
      "vaca-gorda",
      "/cotacoes/vaca-gorda/",
      "Mercado Físico da vaca gorda (Scot Consultoria)",
      "VACA GORDA",
      "vaca_gorda",
      ["valor", ...EXTRAS.filter((c) => c !== "base_sp")],
      seriesDaTabela("vaca_gorda", true),
    ),
    // novilha gorda: the vaca table's praças and columns (no "# base"); like vaca, its SP
    // reference praça is the national series
    pagina(
      "novilha-gorda",
      "/cotacoes/novilha/",
      "Mercado Físico da novilha gorda (Scot Consultoria)",
      "NOVILHA GORDA",
      "novilha_gorda",
      ["valor", ...EXTRAS.filter((c) => c !== "base_sp")],
      seriesDaTabela("novilha_gorda", true),
    ),
  ],
};

/**
 * The praça of a table row (Scot's own table or a republication of it) from its first cell.
 * An unknown label is skipped with an aviso; a UF outside the 18 is kept with one.
 */
export function lerPracaDaLinha(
  $: Cheerio$,
  cell: Parameters<typeof cellText>[1],
  onde: string,
  avisos: string[],
): { p: NonNullable<ReturnType<typeof lerPraca>>; linha: string } | null {
  const rotulo = cellText($, cell);
  checkLabel($(cell).text(), `${onde}, praça`);
  const p = lerPraca(labelText($, cell));
  if (!p) {
    avisos.push(`${onde}: praça "${rotulo}" não reconhecida (UF desconhecida); linha ignorada`);
    return null;
  }
  if (!(SCOT_UFS as readonly string[]).includes(p.uf)) {
    avisos.push(`${onde}: praça "${rotulo}" é de ${p.uf}, fora das UFs cobertas pela Scot até aqui`);
  }
  return { p, linha: `${onde}, praça "${rotulo}"` };
}

/**
 * Scot lists its praças grouped by UF (SP, MG, GO, MS, RS, ... on every recorded table, its own
 * and Notícias Agrícolas' copy), and the UF prefix of a row's label ("MS Dourados") is the only
 * thing tying its prices to a state. A UF that comes back after another UF's praças is a
 * mislabelled praça ("MT Dourados" among MS's rows would file MS prices under MT) or a table
 * sorted some other way; the two cannot be told apart, so the page is refused. One per table.
 */
export class UfsAgrupadas {
  private readonly vistas = new Set<UF>();
  private anterior: UF | null = null;

  conferir(uf: UF, linha: string): void {
    if (uf !== this.anterior && this.vistas.has(uf)) {
      throw new ParseError(
        `${linha}: ${uf} volta a aparecer depois de praças de ${this.anterior} (a tabela da Scot traz as praças de cada UF juntas); UF errada no rótulo ou tabela reordenada?`,
      );
    }
    this.vistas.add(uf);
    this.anterior = uf;
  }
}

/** The row of one praça, Scot's own or read through a republication: the same shape either way. */
export function linhaDaPraca(
  { p, linha }: NonNullable<ReturnType<typeof lerPracaDaLinha>>,
  produto: Produto,
  data: string,
  valor: number,
  extras: Record<string, number | string>,
  nota?: string,
): PriceRow {
  return checkedRow(
    {
      fonte: "scot",
      produto,
      uf: p.uf,
      praca: p.praca,
      data,
      valor,
      unidade: p.unidade ?? UNIDADE_UF[p.uf] ?? "@",
      extras,
      ...(nota ? { nota } : {}),
    },
    linha,
  );
}
