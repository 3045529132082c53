import * as cheerio from "cheerio";
import type { AnyNode, Element } from "domhandler";
import { ParseError } from "../domain/errors.ts";
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

export function load(html: string): Cheerio$ {
  return cheerio.load(html);
}

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
  return cols;
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
 * order the page shows them, and rejects a day that appears twice in one series.
 */
export function sortBySeries(rows: PriceRow[], where: string): PriceRow[] {
  const groups = new Map<string, PriceRow[]>();
  for (const row of rows) {
    const key = `${row.produto}|${row.uf ?? ""}|${row.praca ?? ""}`;
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
