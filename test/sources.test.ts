/**
 * The one test every source passes: each page of each registered source is parsed from its
 * recorded page in test/fixtures/{source}/{page}.html and compared to the golden
 * {page}.expected.json next to it; each source's sem-dados.html must be refused clearly. Mirrors
 * (MIRRORS) pass the same comparison with their recorded page.
 */
import { readFileSync } from "node:fs";
import { sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ParseError } from "../pipeline/domain/errors.ts";
import { PriceRowSchema } from "../pipeline/domain/row.ts";
import { mirrorFile } from "../pipeline/fetch/record.ts";
import { stripScriptsAndStyles } from "../pipeline/sources/html.ts";
import { MIRRORS, SOURCES } from "../pipeline/sources/index.ts";
import { parseError } from "./helpers/parse-error.ts";

const fixture = (source: string, file: string) =>
  readFileSync(fileURLToPath(new URL(`./fixtures/${source}/${file}`, import.meta.url)), "utf8");

describe.each(SOURCES.map((s) => [s.id, s] as const))("fonte %s", (_id, source) => {
  it("declares its terms, base URL variable and distinct pages", () => {
    expect(source.site).toMatch(/^https:\/\//);
    expect(source.baseUrlEnv).toMatch(/^COTACAO_[A-Z]+_URL$/);
    expect(source.termos.licenca).not.toBe("");
    expect(source.termos.citacao).not.toBe("");
    expect(source.termos.texto.length).toBeGreaterThan(20);
    expect(source.termos.url).toMatch(/^https:\/\//);
    expect(source.maxIdadeDias).toBeGreaterThan(0);
    const ids = source.pages.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const p of source.pages) expect(p.path).toMatch(/^\//);
  });

  describe.each(source.pages.map((p) => [p.id, p] as const))("página %s", (_pageId, page) => {
    const html = fixture(source.id, `${page.id}.html`);
    const result = page.parse(html);

    it("finds its table", () => {
      expect(page.hasTable(html)).toBe(true);
    });

    it("returns valid rows of this source", () => {
      expect(result.rows.length).toBeGreaterThan(0);
      for (const row of result.rows) {
        expect(PriceRowSchema.safeParse(row).error).toBeUndefined();
        expect(row.fonte).toBe(source.id);
      }
    });

    it("has each day once per series, oldest first", () => {
      const series = new Map<string, string[]>();
      for (const row of result.rows) {
        const key = `${row.produto}|${row.uf}|${row.praca}`;
        series.set(key, [...(series.get(key) ?? []), row.data]);
      }
      for (const [key, dates] of series) {
        const sorted = [...new Set(dates)].sort();
        expect(dates, key).toEqual(sorted);
      }
    });

    it("matches the golden file byte for byte", () => {
      const golden = fixture(source.id, `${page.id}.expected.json`);
      expect(JSON.parse(golden)).toEqual(result);
      // same bytes: key order (extras in the source's order) and number formatting too
      expect(`${JSON.stringify(result, null, 2)}\n`).toBe(golden);
    });
  });

  describe("página sem dados", () => {
    // sem-dados-{page}.html when a page has its own (Scot's vaca-gorda: the right category,
    // no rows), else the source's sem-dados.html
    const semDados = (pageId: string) => {
      try {
        return fixture(source.id, `sem-dados-${pageId}.html`);
      } catch {
        return fixture(source.id, "sem-dados.html");
      }
    };

    it.each(source.pages.map((p) => [p.id, p] as const))("%s: hasTable is false", (pageId, page) => {
      expect(page.hasTable(semDados(pageId))).toBe(false);
    });

    it.each(source.pages.map((p) => [p.id, p] as const))("%s: parse throws a ParseError that says why", (pageId, page) => {
      const err = parseError(() => page.parse(semDados(pageId)));
      const message = (err as ParseError).message;
      // names the table it looked for and what was wrong, in Portuguese
      expect(message).toMatch(/tabela "[^"]+"/);
      expect(message).toMatch(/não encontrada|vazia|categoria/);
    });
  });
});

/*
 * Mirrors pass the same test: the recorded page of a mirror is where --record saves it
 * (mirrorFile: test/fixtures/{mirror}/{last segment of its path}.html, CEPEA's widget
 * test/fixtures/cepea/widget/{N}.js), and one golden file next to it ({file}.expected.json)
 * holds what each page it stands in for reads from it, keyed "{source}/{page}" as in MIRRORS.
 */
const allMirrors = Object.entries(MIRRORS).flatMap(([key, ms]) => ms.map((m) => [key, m] as const));
const mirrorPages = [...new Set(allMirrors.map(([, m]) => mirrorFile("", m)))].map((rel) => {
  const [dirName, ...rest] = rel.split(sep);
  const file = rest.join("/");
  return [rel, dirName!, file, allMirrors.filter(([, m]) => mirrorFile("", m) === rel)] as const;
});

describe.each(mirrorPages)("espelho %s", (_name, id, file, mirrors) => {
  const html = fixture(id, file);

  it.each(mirrors)("%s: finds its table and returns valid rows of the original source", (key, mirror) => {
    expect(mirror.hasTable(html)).toBe(true);
    const { rows } = mirror.parse(html);
    expect(rows.length).toBeGreaterThan(0);
    const [fonte] = key.split("/");
    for (const row of rows) {
      expect(PriceRowSchema.safeParse(row).error).toBeUndefined();
      expect(row.fonte).toBe(fonte);
    }
  });

  it("matches the golden file byte for byte", () => {
    const golden = fixture(id, file.replace(/\.[a-z]+$/, ".expected.json"));
    const result = Object.fromEntries(mirrors.map(([key, m]) => [key, m.parse(html)]));
    expect(JSON.parse(golden)).toEqual(result);
    expect(`${JSON.stringify(result, null, 2)}\n`).toBe(golden);
  });

  it.each(mirrors)("%s: the page with its table emptied is refused as a soft block", (_key, mirror) => {
    // derived here rather than recorded: the recorded page with every body row of its tables removed
    const empty = html.replace(/(<tbody[^>]*>)[\s\S]*?<\/tbody>/g, "$1</tbody>");
    expect(mirror.hasTable(empty)).toBe(false);
    const err = parseError(() => mirror.parse(empty));
    expect((err as ParseError).kind).toBe("soft_block");
    expect((err as ParseError).message).toMatch(/tabela "[^"]+".*vazia/);
  });
});

describe("stripScriptsAndStyles (how pages are recorded)", () => {
  it("drops script and style elements with their content and keeps every other byte", () => {
    const page =
      '<html>\r\n<head><script async src="a.js"></script>\r\n<SCRIPT type="x">if (a < b) { s = "<td>1</td>"; }</SCRIPT >' +
      "<style>td { color: red }</style></head>\r\n<body><noscript>sem js</noscript>\n<td>347,70</td>\r\n</body></html>";
    expect(stripScriptsAndStyles(page)).toBe(
      "<html>\r\n<head>\r\n</head>\r\n<body><noscript>sem js</noscript>\n<td>347,70</td>\r\n</body></html>",
    );
  });

  it("leaves the recorded pages unchanged (they were stored stripped)", () => {
    for (const s of SOURCES) {
      for (const p of s.pages) {
        const html = fixture(s.id, `${p.id}.html`);
        expect(stripScriptsAndStyles(html), `${s.id}/${p.id}`).toBe(html);
      }
    }
    for (const [name, id, file] of mirrorPages) {
      const html = fixture(id, file);
      expect(stripScriptsAndStyles(html), name).toBe(html);
    }
  });
});
