/** CEPEA's quirks; the golden comparison of every page is in sources.test.ts. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as cheerio from "cheerio";
import { describe, expect, it } from "vitest";
import type { PriceRow } from "../pipeline/domain/row.ts";
import { cepea } from "../pipeline/sources/cepea.ts";
import { parseError } from "./helpers/parse-error.ts";

const html = (page: string) =>
  readFileSync(fileURLToPath(new URL(`./fixtures/cepea/${page}.html`, import.meta.url)), "utf8");
const page = (id: string) => {
  const p = cepea.pages.find((x) => x.id === id);
  if (!p) throw new Error(`página ${id} não declarada`);
  return p;
};
const parse = (id: string, source = html(id)) => page(id).parse(source).rows;
const last = (rows: PriceRow[]) => rows[rows.length - 1]!;

describe("CEPEA: the values of the recorded pages (fixtures MANIFEST)", () => {
  it("boi gordo: 15 days from 17/08/2026, latest 04/09/2026 R$ 347,70 / US$ 67,78", () => {
    const rows = parse("boi-gordo");
    expect(rows).toHaveLength(15);
    expect(rows[0]!.data).toBe("2026-08-17");
    expect(last(rows)).toEqual({
      fonte: "cepea",
      produto: "boi_gordo",
      uf: null,
      praca: null,
      data: "2026-09-04",
      valor: 347.7,
      unidade: "@",
      extras: { valor_usd: 67.78 },
    });
  });

  it("reads the rows hidden behind 'Mais valores' (imagenet-tbl-esconder) too", () => {
    const hidden = (html("boi-gordo").match(/imagenet-tbl-esconder/g) ?? []).length;
    expect(hidden).toBeGreaterThanOrEqual(10);
    // 17/08/2026 (345,05) is only in a hidden row
    expect(parse("boi-gordo").find((r) => r.data === "2026-08-17")?.valor).toBe(345.05);
  });

  it("bezerro: per head with thousands separator, 25/09/2026 R$ 3.426,02 / US$ 660,12", () => {
    const rows = parse("bezerro");
    expect(rows).toHaveLength(15);
    expect(last(rows)).toMatchObject({ produto: "bezerro", uf: null, unidade: "cabeca", data: "2026-09-25", valor: 3426.02 });
    expect(last(rows).extras).toEqual({ valor_usd: 660.12 });
    // "Peso Médio do Bezerro - MS" (206,13 kg) is not a price
    expect(rows.some((r) => r.valor === 206.13)).toBe(false);
  });

  it("milho: 04/09/2026 R$ 70,93 / US$ 13,83 per 60 kg sack", () => {
    const rows = parse("milho");
    expect(rows).toHaveLength(15);
    expect(last(rows)).toMatchObject({ produto: "milho", uf: null, unidade: "sc60kg", data: "2026-09-04", valor: 70.93 });
    expect(last(rows).extras).toEqual({ valor_usd: 13.83 });
  });

  it("soja: Paranaguá is the national series, Paraná is PR (titles differ only in PARANAGUÁ/PARANÁ)", () => {
    const rows = parse("soja");
    const paranagua = rows.filter((r) => r.uf === null);
    const parana = rows.filter((r) => r.uf === "PR");
    expect(paranagua).toHaveLength(15);
    expect(parana).toHaveLength(15);
    expect(last(paranagua)).toMatchObject({ produto: "soja", data: "2026-09-25", valor: 161, unidade: "sc60kg", extras: { valor_usd: 31.02 } });
    expect(last(parana)).toMatchObject({ produto: "soja", data: "2026-09-25", valor: 154.38, unidade: "sc60kg", extras: { valor_usd: 29.75 } });
  });

  it("the boi page ignores the 'Media Móvel' and 'Média a Prazo' tables", () => {
    const values = new Set(parse("boi-gordo").map((r) => r.valor));
    expect(values.has(346.62)).toBe(false); // Media Móvel 04/09
    expect(values.has(351.65)).toBe(false); // Média a Prazo 04/09
  });
});

describe("CEPEA: tables are found by title, never by position or id", () => {
  it("soja still parses right when the two indicator tables are swapped, ids included", () => {
    const $ = cheerio.load(html("soja"));
    const [t1, t2] = $("div.imagenet-table-titulo").toArray();
    $(t2!).parent().insertBefore($(t1!).parent());
    $("#imagenet-indicador1").attr("id", "tmp");
    $("#imagenet-indicador2").attr("id", "imagenet-indicador1");
    $("#tmp").attr("id", "imagenet-indicador2");
    // the Paraná table now comes first and carries the id the Paranaguá one had
    expect(cheerio.load($.html())("div.imagenet-table-titulo").first().text()).toContain("PARANÁ");
    expect(parse("soja", $.html())).toEqual(parse("soja"));
  });

  it("boi still parses right when the other tables come first and take its id", () => {
    const $ = cheerio.load(html("boi-gordo"));
    const titles = $("div.imagenet-table-titulo").toArray();
    const indicator = $(titles[0]!).parent();
    for (const t of titles.slice(1)) $(t).parent().insertBefore(indicator);
    $("#imagenet-indicador1").removeAttr("id");
    $("table").first().attr("id", "imagenet-indicador1");
    expect(parse("boi-gordo", $.html())).toEqual(parse("boi-gordo"));
  });

  it("matches titles without regard to accents and case", () => {
    const source = html("soja")
      .replace("INDICADOR DA SOJA CEPEA/ESALQ - PARANAGUÁ", "Indicador da Soja Cepea/Esalq - Paranagua")
      .replace("INDICADOR DA SOJA CEPEA/ESALQ - PARANÁ", "indicador da soja cepea/esalq - parana");
    expect(parse("soja", source)).toEqual(parse("soja"));
  });

  it("does not take the Paranaguá table for Paraná when the Paraná one is missing", () => {
    const source = html("soja").replace("INDICADOR DA SOJA CEPEA/ESALQ - PARANÁ", "Outra tabela");
    const err = parseError(() => parse("soja", source));
    expect(err.message).toContain('tabela "INDICADOR DA SOJA CEPEA/ESALQ - PARANÁ" não encontrada');
    expect(err.message).toContain("Outra tabela");
  });

  it("locates columns by header text: reordered columns give the same rows", () => {
    const $ = cheerio.load(html("boi-gordo"));
    const table = $("#imagenet-indicador1");
    // move "Valor R$*" to the end of every row, header included
    table.find("tr").each((_, tr) => {
      const cells = $(tr).children("th, td");
      cells.eq(1).appendTo(tr);
    });
    expect(table.find("thead th").last().text()).toBe("Valor R$*");
    expect(parse("boi-gordo", $.html())).toEqual(parse("boi-gordo"));
  });
});

describe("CEPEA: money without float drift", () => {
  it("347,70 becomes 347.7 and is written as 347.7", () => {
    const v = last(parse("boi-gordo")).valor;
    expect(v).toBe(347.7);
    expect(JSON.stringify(v)).toBe("347.7");
    expect(JSON.stringify(last(parse("bezerro")).valor)).toBe("3426.02");
  });

  it("every value of every page is written with at most two decimals", () => {
    for (const p of cepea.pages) {
      for (const r of parse(p.id)) {
        // pages without a US$ column (frango, citros, suíno, algodão) give no valor_usd at all
        const usd = "valor_usd" in r.extras ? [r.extras.valor_usd] : [];
        for (const v of [r.valor, ...usd]) {
          expect(JSON.stringify(v), `${p.id} ${r.data}`).toMatch(/^\d+(\.\d{1,2})?$/);
        }
      }
    }
  });
});

describe("CEPEA: pages that are not what they should be", () => {
  it("an unparseable date names the table and the cell", () => {
    const err = parseError(() => parse("boi-gordo", html("boi-gordo").replace("<td>04/09/2026</td>", "<td>04/09/26</td>")));
    expect(err.kind).toBe("parse_error");
    expect(err.message).toContain('tabela "INDICADOR DO BOI GORDO CEPEA/ESALQ"');
    expect(err.message).toContain('data inválida "04/09/26"');
  });

  it("an unparseable number names the column and the cell", () => {
    const err = parseError(() => parse("milho", html("milho").replace("<td>70,93</td>", "<td>n/d</td>")));
    expect(err.message).toContain('coluna "Valor R$*"');
    expect(err.message).toContain('"n/d"');
    expect(err.message).toContain("04/09/2026");
  });

  it("a missing column is named", () => {
    const source = html("milho").replace(/<th>Valor US\$\*<\/th>/, "<th>Dólar</th>");
    expect(parseError(() => parse("milho", source)).message).toContain('coluna "Valor US$" não encontrada');
  });

  it("a page without the table is a soft block, and hasTable says so", () => {
    const blocked = "<html><body><h1>Just a moment...</h1></body></html>";
    expect(page("boi-gordo").hasTable(blocked)).toBe(false);
    const err = parseError(() => parse("boi-gordo", blocked));
    expect(err.kind).toBe("soft_block");
    expect(err.message).toContain('tabela "INDICADOR DO BOI GORDO CEPEA/ESALQ" não encontrada');
  });

  it("the sem-dados page (empty tbody) is refused although other tables have rows", () => {
    const err = parseError(() => parse("boi-gordo", html("sem-dados")));
    expect(err.message).toContain("vazia");
    expect(page("boi-gordo").hasTable(html("sem-dados"))).toBe(false);
  });
});
