/** Datagro's reposição (Notícias Agrícolas' republication): the parser's quirks and refusals. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { datagro, parseReposicao } from "../../pipeline/sources/datagro.ts";
import { parseError } from "../helpers/parse-error.ts";

const html = readFileSync(fileURLToPath(new URL("../fixtures/datagro/reposicao-nelore-macho.html", import.meta.url)), "utf8");
const page = datagro.pages[0]!;


/** Independent reading of the page: plain regexes over each day's block, in centavos. */
function porRegex(text: string): Map<string, number> {
  const nomes: Record<string, string> = {
    "São Paulo": "SP", "Minas Gerais": "MG", "Mato Grosso do Sul": "MS", "Mato Grosso": "MT", "Goiás": "GO",
    Tocantins: "TO", "Pará": "PA", "Paraná": "PR", "Rio Grande do Sul": "RS", "Rondônia": "RO",
  };
  const produtos = ["bezerro_desmama", "bezerro_reposicao", "garrote", "boi_magro"];
  const out = new Map<string, number>();
  for (const [, d, m, y, bloco] of text.matchAll(/Fechamento: (\d\d)\/(\d\d)\/(\d{4})<\/div>([\s\S]*?)<\/table>/g)) {
    for (const [, linha] of bloco!.split("<tbody>")[1]!.matchAll(/<tr>([\s\S]*?)<\/tr>/g)) {
      const cells = [...linha!.matchAll(/<td>([^<]*)<\/td>/g)].map((c) => c[1]!.trim());
      produtos.forEach((p, i) => out.set(`${p}|${nomes[cells[0]!]}|${y}-${m}-${d}`, Number(cells[i + 1]!.replace(",", ""))));
    }
  }
  return out;
}

describe("Datagro: Reposição Nelore macho (via Notícias Agrícolas)", () => {
  const { rows, avisos } = parseReposicao(html);

  it("reads every cell of the 10 days × 10 states × 4 categories, to the centavo", () => {
    const esperado = porRegex(html);
    expect(esperado.size).toBe(400);
    expect(new Map(rows.map((r) => [`${r.produto}|${r.uf}|${r.data}`, Math.round(r.valor * 100)]))).toEqual(esperado);
    for (const r of rows) expect(r).toMatchObject({ fonte: "datagro", praca: null, unidade: "kg", extras: {} });
    expect([...new Set(rows.map((r) => r.data))].sort()).toEqual([
      "2026-01-26", "2026-01-27", "2026-01-28", "2026-01-29", "2026-01-30", "2026-02-02", "2026-02-03", "2026-02-04", "2026-02-05", "2026-02-06",
    ]);
  });

  it("the newest day of São Paulo is 15,24 / 14,63 / 14,15 / 13,78 R$/kg", () => {
    const sp = rows.filter((r) => r.uf === "SP" && r.data === "2026-02-06").map((r) => [r.produto, r.valor]);
    expect(sp).toEqual([["bezerro_desmama", 15.24], ["bezerro_reposicao", 14.63], ["garrote", 14.15], ["boi_magro", 13.78]]);
  });

  it("declares 9 states × 4 products in kg; RS is read but left out, and says so", () => {
    expect(page.series).toHaveLength(36);
    expect(new Set(page.series.map((d) => d.unidade))).toEqual(new Set(["kg"]));
    expect(page.series.some((d) => d.uf === "RS")).toBe(false);
    expect(page.series.filter((d) => d.produto === "bezerro_reposicao").map((d) => d.uf)).toEqual(["SP", "MG", "MS", "MT", "GO", "TO", "PA", "PR", "RO"]);
    for (const d of page.series) expect(d.uf).not.toBeNull();
    expect(rows.filter((r) => r.uf === "RS")).toHaveLength(40);
    expect(avisos).toEqual([expect.stringContaining("RS: lido(s) e conferido(s), mas não publicado(s)")]);
  });

  it("the page's URL is Notícias Agrícolas', the numbers Datagro's", () => {
    expect(datagro.site).toBe("https://www.noticiasagricolas.com.br");
    expect(datagro.baseUrlEnv).toBe("COTACAO_NA_URL");
    expect(page.path).toBe("/cotacoes/boi-gordo/reposicao-nelore-macho");
    expect(page.id).toBe("reposicao-nelore-macho");
  });

  it("refuses a page that no longer credits Datagro", () => {
    const err = parseError(() => parseReposicao(html.replace("Fonte: Datagro", "Fonte: Outra")));
    expect(err.message).toContain('esperado "Fonte: Datagro"');
  });

  it("refuses a renamed column, a cut page and a cell cut short", () => {
    expect(parseError(() => parseReposicao(html.replace("<th>Garrote</th>", "<th>Novilho</th>"))).message).toContain('coluna desconhecida "Novilho"');
    expect(parseError(() => parseReposicao(html.slice(0, html.indexOf("Fechamento: 30/01/2026")))).message).toContain("não termina em </html>");
    expect(parseError(() => parseReposicao(html.replace("<td>15,24</td>", "<td>15,2</td>"))).message).toMatch(/de 06\/02\/2026, estado "São Paulo": número inválido na coluna "Desmama": "15,2"/);
  });

  it("refuses an unreadable closing date and a day listed twice", () => {
    expect(parseError(() => parseReposicao(html.replace("Fechamento: 06/02/2026", "Fechamento: 6 de fevereiro"))).message).toContain("data ilegível");
    expect(parseError(() => parseReposicao(html.replace("Fechamento: 05/02/2026", "Fechamento: 06/02/2026"))).message).toContain("aparece duas vezes");
  });

  it("a page without the reposição tables is a soft block; the Scot mirror page is not this page", () => {
    const scotNA = readFileSync(fileURLToPath(new URL("../fixtures/noticias-agricolas/boi-gordo-scot-consultoria.html", import.meta.url)), "utf8");
    expect(page.hasTable(scotNA)).toBe(false);
    expect(parseError(() => parseReposicao(scotNA)).kind).toBe("soft_block");
  });
});
