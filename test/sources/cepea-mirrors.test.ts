/**
 * The quirks of CEPEA's mirrors (the shared test/sources.test.ts compares every mirror page with
 * its golden file): Notícias Agrícolas' one-table-per-day pages and CEPEA's widget script, each
 * accepted only whole.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ParseError } from "../../pipeline/domain/errors.ts";
import { mirrorFile } from "../../pipeline/fetch/record.ts";
import { widgetBoiGordo } from "../../pipeline/sources/cepea-widget.ts";
import { allSeries, MIRRORS, seriesDoEspelho } from "../../pipeline/sources/index.ts";
import type { MirrorDef } from "../../pipeline/sources/types.ts";
import { naAlgodao, naBezerro, naCafeArabica, naCafeRobusta, naMilho, naSoja, naTrigo } from "../../pipeline/sources/noticias-agricolas.ts";
import { FIXTURES } from "../helpers/pipeline.ts";

const page = (m: MirrorDef) => readFileSync(mirrorFile(FIXTURES, m), "utf8");

function refused(m: MirrorDef, html: string): ParseError {
  try {
    m.parse(html);
  } catch (err) {
    if (err instanceof ParseError) return err;
    throw err;
  }
  throw new Error("a página foi aceita");
}

describe("CEPEA's mirrors in the catalogue", () => {
  it("are tried in order: Notícias Agrícolas, then the widget", () => {
    expect(MIRRORS["cepea/milho"]).toEqual([naMilho]);
    expect(MIRRORS["cepea/soja"]).toEqual([naSoja]);
    expect(MIRRORS["cepea/bezerro"]).toEqual([naBezerro]);
    expect(MIRRORS["cepea/cafe"]).toEqual([naCafeArabica, naCafeRobusta]);
    expect(MIRRORS["cepea/algodao"]).toEqual([naAlgodao]);
    expect(MIRRORS["cepea/trigo"]).toEqual([naTrigo]);
    expect(MIRRORS["cepea/boi-gordo"]).toEqual([widgetBoiGordo]);
  });

  it("each covers series of its own page, by id", () => {
    const cover = (m: MirrorDef) => seriesDoEspelho(m).map((d) => d.id);
    expect(cover(naSoja)).toEqual(["soja"]);
    expect(cover(naCafeArabica)).toEqual(["cafe_arabica"]);
    expect(cover(naCafeRobusta)).toEqual(["cafe_robusta"]);
    expect(cover(naTrigo)).toEqual(["trigo/PR", "trigo/RS"]);
    expect(cover(widgetBoiGordo)).toEqual(["boi_gordo"]);
    for (const m of Object.values(MIRRORS).flat()) {
      const [fonte, pagina] = m.paraPagina.split("/");
      for (const d of seriesDoEspelho(m)) expect([d.fonte, d.pagina], `${m.id} ${d.id}`).toEqual([fonte, pagina]);
    }
    // a mirror naming a series its page does not feed is a declaration error, said by name
    expect(() => seriesDoEspelho({ ...naSoja, series: ["milho"] })).toThrow(/a página não tem a série "milho"/);
    expect(allSeries().some((d) => d.id === "soja/PR")).toBe(true);
  });

  it("NA's addresses end in the recorded file's name; the widget's brackets are percent-encoded", () => {
    for (const m of Object.values(MIRRORS).flat().filter((x) => x.id === "noticias-agricolas")) {
      expect(mirrorFile("DIR", m)).toBe(`DIR/noticias-agricolas/${m.path.split("/").pop()}.html`);
    }
    expect(widgetBoiGordo.path).toBe("/br/widgetproduto.js.php?id_indicador%5B%5D=2");
    expect(new URL(`https://www.cepea.org.br${widgetBoiGordo.path}`).searchParams.get("id_indicador[]")).toBe("2");
    expect(mirrorFile("DIR", widgetBoiGordo)).toBe("DIR/cepea/widget/2.js");
  });
});

describe("Notícias Agrícolas' republication of CEPEA's indicators", () => {
  it("reads every day to the centavo, R$ only, fonte cepea; variations with or without %", () => {
    const html = page(naMilho);
    // the recorded page writes "0,07%", "-0,37" and "+0,17": all accepted, none published
    expect(html).toMatch(/<td>-0,37<\/td>/);
    expect(html).toMatch(/<td>\+0,17<\/td>/);
    const { rows } = naMilho.parse(html);
    expect(rows.map((r) => [r.data, r.valor])).toEqual([
      ["2026-09-03", 71.06], ["2026-09-04", 70.93], ["2026-09-08", 70.9], ["2026-09-09", 70.52], ["2026-09-10", 70.19],
      ["2026-09-11", 69.77], ["2026-09-14", 69.51], ["2026-09-15", 69.39], ["2026-09-16", 69.2], ["2026-09-17", 69.25],
    ]);
    for (const r of rows) expect(r).toMatchObject({ fonte: "cepea", produto: "milho", uf: null, praca: null, unidade: "sc60kg", extras: {} });
  });

  it("trigo: two rows a day, told apart by Região", () => {
    const { rows } = naTrigo.parse(page(naTrigo));
    expect(rows.filter((r) => r.data === "2026-09-17").map((r) => [r.uf, r.valor, r.unidade])).toEqual([
      ["PR", 1509.74, "t"],
      ["RS", 1385.09, "t"],
    ]);
    // a day with one region missing is not whole
    const sem = page(naTrigo).replace(/<tr>\s*<td>17\/09\/2026<\/td>\s*<td>Rio Grande do Sul<\/td>[\s\S]*?<\/tr>/, "");
    expect(refused(naTrigo, sem).message).toMatch(/quadro 1 \(17\/09\/2026\): 1 linha\(s\), esperada\(s\) 2/);
    const outra = page(naTrigo).replace("<td>Rio Grande do Sul</td>", "<td>Santa Catarina</td>");
    expect(refused(naTrigo, outra).message).toMatch(/região desconhecida "Santa Catarina"/);
  });

  it("refuses another indicator's page at this address", () => {
    expect(refused(naMilho, page(naSoja)).message).toMatch(/título da página "Indicador da Soja ESALQ\/B3 - Paranaguá", esperado "Indicador do Milho Esalq\/B3"/);
    expect(refused(naCafeArabica, page(naCafeRobusta)).message).toMatch(/outro indicador/);
  });

  it("refuses a page cut short, a price with more than two decimals, a day out of its block, a renamed column", () => {
    const html = page(naBezerro);
    expect(refused(naBezerro, html.slice(0, html.indexOf("3.393,91") + 5)).message).toMatch(/página incompleta/);
    expect(refused(naBezerro, html.replace("<td>3.406,24</td>", "<td>3.406,245</td>")).message).toMatch(/número inválido .*"3\.406,245"/);
    expect(refused(naBezerro, html.replace("<td>16/09/2026</td>", "<td>15/09/2026</td>")).message).toMatch(/difere do fechamento 16\/09\/2026/);
    expect(refused(naAlgodao, page(naAlgodao).replace("<th>Valor (8 dias) Cent/R$/lb</th>", "<th>Valor R$/kg</th>")).message).toMatch(
      /coluna "Valor \(8 dias\) Cent\/R\$\/lb" não encontrada; coluna desconhecida "Valor R\$\/kg"/,
    );
  });
});

describe("CEPEA's widget script", () => {
  const js = page(widgetBoiGordo);

  it("reads its one row, R$ only, as the recorded response with its <style> reads it", () => {
    const want = [{ fonte: "cepea", produto: "boi_gordo", uf: null, praca: null, data: "2026-08-05", valor: 348.55, unidade: "@", extras: {} }];
    expect(widgetBoiGordo.parse(js).rows).toEqual(want);
    // the response as served starts with a <style> (dropped when recorded)
    const original = js.replace("document.write(`", 'document.write(`<style type="text/css">.imagenet-widget-tabela td {font-size:1em;}</style>');
    expect(original).not.toBe(js);
    expect(widgetBoiGordo.parse(original).rows).toEqual(want);
  });

  it("is whole or nothing: a cut script, another product, two rows, a price not to the centavo", () => {
    expect(widgetBoiGordo.hasTable(js.slice(0, -3))).toBe(false);
    expect(refused(widgetBoiGordo, js.slice(0, js.indexOf("348,55"))).message).toMatch(/widget do CEPEA incompleto/);
    expect(refused(widgetBoiGordo, js.replace('<span class="maior">Boi Gordo</span>', '<span class="maior">Bezerro</span>')).message).toMatch(/produto "Bezerro @", esperado "Boi Gordo @"/);
    const row = js.slice(js.indexOf("<tr>", js.indexOf("<tbody>")), js.indexOf("</tbody>"));
    expect(refused(widgetBoiGordo, js.replace(row, row + row)).message).toMatch(/2 linhas, esperada uma/);
    expect(refused(widgetBoiGordo, js.replace("348,55", "348,5")).message).toMatch(/valor inválido "R\$ 348,5"/);
    expect(refused(widgetBoiGordo, js.replace(/`\)\s*$/, "` + `x`)")).message).toMatch(/widget do CEPEA diferente/);
  });
});
