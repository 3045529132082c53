import * as cheerio from "cheerio";
import type { AnyNode, Element } from "domhandler";
import { ParseError } from "../domain/errors.ts";
import { parseBRDecimal } from "../domain/money.ts";
import { PriceRowSchema, type PriceRow } from "../domain/row.ts";

export type Cheerio$ = cheerio.CheerioAPI;

/**
 * Drops every <script> and <style> element with its content and keeps every other byte as it
 * was, line endings included. Recorded pages are stored this way: the markup and the numbers
 * stay exactly as the source served them, without tracking code or inline assets.
 */
export function stripScriptsAndStyles(html: string): string {
  return html.replace(/<(script|style)(?=[\s>/])[^>]*>[\s\S]*?<\/\1\s*>/gi, "");
}

/**
 * Parses a page keeping where each element starts and ends in the raw text. parse5 closes
 * whatever a page leaves open (a body cut short inside a cell still yields a neat table), so
 * the end-tag locations are the only way to tell a closed table from one the parser closed.
 */
export function load(html: string): Cheerio$ {
  // a run asks for the same page twice (hasTable on fetching, then parse): the parsed document of
  // the last page is kept, as no parser changes the tree it reads (labelText clones first)
  if (ultima?.html !== html) ultima = { html, $: cheerio.load(html, { sourceCodeLocationInfo: true }) };
  return ultima.$;
}

let ultima: { html: string; $: Cheerio$ } | null = null;

/** Whitespace (including &nbsp;) collapsed to single spaces, trimmed. */
export function collapse(text: string): string {
  return text.replace(/[\s\u00a0]+/g, " ").trim();
}

/** Text of an element with whitespace collapsed. */
export function cellText($: Cheerio$, el: AnyNode): string {
  return collapse($(el).text());
}

/** Text of a header cell without its footnote markers (<sup>), whitespace collapsed. */
export function labelText($: Cheerio$, el: AnyNode): string {
  const copy = $(el).clone();
  copy.find("sup").remove();
  return collapse(copy.text());
}

/**
 * Key for comparing labels written by hand on a page: no accents, upper case, whitespace
 * collapsed, so "Média Móvel" and "MEDIA MOVEL" compare equal.
 */
export function normKey(text: string): string {
  return collapse(
    text
      .normalize("NFD")
      .replace(/\p{M}+/gu, "")
      .replace(/[\u2010-\u2015]/g, "-"),
  ).toUpperCase();
}

/**
 * Lays a group of header rows out on a grid honouring rowspan and colspan, and returns for
 * every column the labels of the header cells above it, top to bottom (empty labels kept as "").
 * Column 0 of the result is the first column of the table.
 */
export function headerColumns($: Cheerio$, rows: Element[]): string[][] {
  return headerLayout($, rows).columns;
}

/**
 * The header laid out as in headerColumns, plus `largura`: how many columns the bottom header
 * row covers, i.e. how many cells a data row under it must have (a group cell may span more
 * columns than the leaves under it, like Scot's "Descontados" with colspan 7 over 6 columns).
 */
export function headerLayout($: Cheerio$, rows: Element[]): { columns: string[][]; largura: number } {
  // each grid slot holds the index of the header cell covering it
  const grid: (number | undefined)[][] = rows.map(() => []);
  const labels: string[] = [];
  rows.forEach((tr, r) => {
    let c = 0;
    for (const cell of $(tr).children("td, th").toArray()) {
      while (grid[r]![c] !== undefined) c++;
      const rowspan = Math.max(1, Number($(cell).attr("rowspan") ?? 1) || 1);
      const colspan = Math.max(1, Number($(cell).attr("colspan") ?? 1) || 1);
      const id = labels.push(labelText($, cell)) - 1;
      for (let dr = 0; dr < rowspan && r + dr < rows.length; dr++) {
        for (let dc = 0; dc < colspan; dc++) grid[r + dr]![c + dc] = id;
      }
      c += colspan;
    }
  });
  const width = Math.max(0, ...grid.map((row) => row.length));
  const cols: string[][] = [];
  for (let c = 0; c < width; c++) {
    const ids: number[] = [];
    for (const row of grid) {
      const id = row[c];
      if (id !== undefined && ids[ids.length - 1] !== id) ids.push(id);
    }
    cols.push(ids.map((id) => labels[id]!));
  }
  const bottom = grid[grid.length - 1] ?? [];
  return { columns: cols, largura: bottom.filter((id) => id !== undefined).length };
}

/**
 * Checks a row against PriceRowSchema; a row that fails is the page's fault, so the failure is a
 * ParseError naming where the row came from.
 */
export function checkedRow(row: PriceRow, where: string): PriceRow {
  const r = PriceRowSchema.safeParse(row);
  if (!r.success) {
    const issues = r.error.issues.map((i) => `${i.path.join(".") || "linha"}: ${i.message}`).join("; ");
    throw new ParseError(`${where}: linha inválida (${issues})`);
  }
  return row;
}

/**
 * Sorts rows oldest first within each series (produto, uf, praça), keeping the series in the
 * order the page shows them, and rejects a day that appears twice in one series. A praça is one
 * whatever its accents and case, as the reference praça is found (history/assemble.ts): "MT
 * Cuiaba" on another row beside "MT Cuiabá" is a label typed wrong, and the series would take
 * one row's price while its praças kept the other's.
 */
export function sortBySeries(rows: PriceRow[], where: string): PriceRow[] {
  const groups = new Map<string, PriceRow[]>();
  for (const row of rows) {
    const praca = row.praca?.normalize("NFD").replace(/\p{Diacritic}/gu, "").trim().toLowerCase() ?? "";
    const key = `${row.produto}|${row.uf ?? ""}|${praca}`;
    const list = groups.get(key) ?? [];
    list.push(row);
    groups.set(key, list);
  }
  const out: PriceRow[] = [];
  for (const list of groups.values()) {
    list.sort((a, b) => (a.data < b.data ? -1 : a.data > b.data ? 1 : 0));
    for (let i = 1; i < list.length; i++) {
      if (list[i]!.data === list[i - 1]!.data) {
        const r = list[i]!;
        throw new ParseError(
          `${where}: a data ${r.data} aparece duas vezes (${r.produto}${r.uf ? ` ${r.uf}` : ""}${r.praca ? ` ${r.praca}` : ""})`,
        );
      }
    }
    out.push(...list);
  }
  return out;
}

/*
 * Completeness. A page is believed only whole: a body cut short by the network, a proxy or a
 * disk still parses (parse5 closes every open element), so the raw text is checked too.
 */

/** True when the text is a whole HTML document rather than an extract of one. */
export function isFullDocument(html: string): boolean {
  return /<html[\s>]/i.test(html);
}

/** The last characters of a text, visible (control characters escaped), for error messages. */
function tail(text: string, n = 40): string {
  const t = text.trimEnd();
  return visible(t.length > n ? `…${t.slice(-n)}` : t);
}

/** Control characters and U+FFFD written as \uXXXX, whitespace collapsed. */
export function visible(text: string): string {
  return collapse(text.replace(INVALID_CHARS_G, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`));
}

/** The end of `text` after its last `</tag>`, or null when there is none. */
function afterLastEndTag(text: string, tag: string): string | null {
  const re = new RegExp(`</${tag}\\s*>`, "gi");
  let end = -1;
  for (let m = re.exec(text); m; m = re.exec(text)) end = m.index + m[0].length;
  return end < 0 ? null : text.slice(end);
}

/**
 * What may follow a document's last end tag: whitespace, comments, and whole <script>/<style>
 * elements (Cloudflare injects its beacon script after `</html>` on live CEPEA pages).
 */
function onlyTrailer(rest: string): boolean {
  return stripScriptsAndStyles(rest).replace(/<!--[\s\S]*?-->/g, "").trim() === "";
}

/**
 * The page must be whole. A full document (one with `<html`) must end with `</html>` (followed
 * at most by whitespace, comments or whole scripts). An extract (no `<html`, like the recorded
 * Scot tables) must end with `</table>`; checkFragmentTables then verifies, after parsing, that
 * every table in it was closed by the page itself.
 */
export function checkDocumentEnd(html: string): void {
  if (html.includes("\u0000")) {
    throw new ParseError("página inválida: contém o caractere nulo U+0000 (não é HTML em texto, ou foi decodificada com o charset errado)");
  }
  if (isFullDocument(html)) {
    const rest = afterLastEndTag(html, "html");
    if (rest === null || !onlyTrailer(rest)) {
      throw new ParseError(`página incompleta: o documento não termina em </html> (termina em "${tail(html)}")`);
    }
  } else if (/<table[\s>]/i.test(html)) {
    const rest = afterLastEndTag(html, "table");
    if (rest === null || !onlyTrailer(rest)) {
      throw new ParseError(`trecho de página incompleto: não termina em </table> (termina em "${tail(html)}")`);
    }
  }
}

/** The element's end tag as written in the raw text, if any (needs load()'s location info). */
function hasEndTag(el: AnyNode): boolean {
  const loc = (el as Element).sourceCodeLocation;
  if (loc === undefined || loc === null) {
    throw new Error("elemento sem posição no texto: a página deve ser lida com load() de html.ts");
  }
  return loc.endTag !== undefined;
}

/** The table must be closed in the raw text, not by the parser. */
export function checkTableClosed(table: AnyNode, where: string): void {
  if (!hasEndTag(table)) {
    throw new ParseError(`${where}: tabela sem </table> no texto da página (página cortada?)`);
  }
}

/** In an extract every table must be closed: it is the only sign that nothing was cut. */
export function checkFragmentTables($: Cheerio$, html: string): void {
  if (isFullDocument(html)) return;
  $("table").each((i, el) => {
    if (!hasEndTag(el)) {
      throw new ParseError(`página incompleta: a tabela ${i + 1} do trecho não tem </table> (termina em "${tail(html)}")`);
    }
  });
}

/**
 * A data row is complete when it was closed in the raw text (`</tr>`, and `</td>` for each
 * cell) and has exactly the cells its header announces, none spanning columns.
 */
export function checkRow($: Cheerio$, tr: AnyNode, esperadas: number, where: string): Element[] {
  const cells = $(tr).children("td, th").toArray() as Element[];
  const found = cellText($, tr);
  if (cells.length !== esperadas) {
    throw new ParseError(`${where}: ${cells.length} células, esperadas ${esperadas} pelo cabeçalho (encontrado "${visible(found)}")`);
  }
  cells.forEach((cell, i) => {
    const span = Number($(cell).attr("colspan") ?? 1) !== 1 || Number($(cell).attr("rowspan") ?? 1) !== 1;
    if (span) throw new ParseError(`${where}, coluna ${i + 1}: célula com colspan/rowspan numa linha de dados (esperada uma célula simples)`);
    if (!hasEndTag(cell)) throw new ParseError(`${where}, coluna ${i + 1}: célula sem </${cell.name}> no texto da página (página cortada?)`);
  });
  if (!hasEndTag(tr)) throw new ParseError(`${where}: linha sem </tr> no texto da página (página cortada?)`);
  return cells;
}

/*
 * Labels. A page decoded in the wrong charset shows U+FFFD where "ç" or "ã" was; a damaged one
 * carries control characters. Either would become a new praça name forever, so both are refused.
 * Tab, LF and CR are HTML whitespace (collapsed); every other C0, DEL and C1 character is not.
 */
// control characters, U+FFFD, and the invisible format characters (soft hyphen, zero-width
// spaces and joiners, direction marks and overrides, word joiner, BOM): "Barretos" with a zero-width
// space inside is another praça that looks the same, and a direction override reorders digits on screen
const INVALID_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\uFFFD]/;
const INVALID_CHARS_G = new RegExp(INVALID_CHARS.source, "g");
const CONTROLE = /[\u0000-\u001F\u007F-\u009F]/;

/** Throws when a label holds U+FFFD, a control character or an invisible one, naming the label and the character. */
export function checkLabel(raw: string, what: string): void {
  const m = raw.match(INVALID_CHARS);
  if (!m) return;
  const code = `U+${m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
  const why =
    m[0] === "\uFFFD"
      ? `${code} (caractere de substituição: página decodificada com o charset errado?)`
      : CONTROLE.test(m[0])
        ? `o caractere de controle ${code}`
        : `o caractere invisível ${code} (o rótulo pareceria outro igual a ele)`;
  throw new ParseError(`${what}: o rótulo "${visible(raw)}" contém ${why}`);
}

/** Every cell of a table (header, body, footer) is checked as a label. */
export function checkTableLabels($: Cheerio$, table: AnyNode, where: string): void {
  $(table)
    .find("tr")
    .toArray()
    .forEach((tr, r) => {
      $(tr)
        .children("td, th")
        .toArray()
        .forEach((cell, c) => checkLabel($(cell).text(), `${where}, linha ${r + 1} da tabela, coluna ${c + 1}`));
    });
}

/** A price as the sources write it: always two decimals, thousands grouped by "." or not at all. */
const NUMERO_COMPLETO = /^-?(?:\d{1,3}(?:\.\d{3})+|\d+),\d{2}$/;
/** A variation: "0,96%", "-0,28%". */
const PERCENTUAL = /^-?(?:\d{1,3}(?:\.\d{3})+|\d+),\d{2}%$/;

/**
 * A complete Brazilian number in integer hundredths ("3.426,02" -> 342602), or null. "6", "66,3"
 * or "3.42" are not complete: a cell cut short must never read as a smaller price.
 */
export function numeroCompleto(text: string): number | null {
  return NUMERO_COMPLETO.test(text) ? parseBRDecimal(text) : null;
}

export function isPercentual(text: string): boolean {
  return PERCENTUAL.test(text);
}

/**
 * A page found by its address must still be the one it stands for: its only <h1> is `titulo`
 * (compared without accents or case). Sites that keep many tables in one layout (Notícias
 * Agrícolas) may serve another of them at an address (a slug redirected, a page replaced).
 */
export function checkTituloDaPagina($: Cheerio$, titulo: string, onde: string): void {
  const h1s = $("h1").toArray();
  const textos = h1s.map((el) => cellText($, el));
  if (h1s.length !== 1 || normKey(textos[0]!) !== normKey(titulo)) {
    throw new ParseError(
      `${onde}: título da página ${textos.length ? textos.map((t) => `"${visible(t)}"`).join(", ") : "ausente"}, esperado "${titulo}" (outra tabela no endereço?)`,
    );
  }
  checkLabel($(h1s[0]!).text(), `${onde}, título da página`);
}
