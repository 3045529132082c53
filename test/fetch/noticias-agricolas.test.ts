import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseBRDecimal } from "../../pipeline/domain/money.ts";
import { ParseError } from "../../pipeline/domain/errors.ts";
import { MIRRORS } from "../../pipeline/sources/index.ts";
import { naBoiGordo, naVacaGorda } from "../../pipeline/sources/noticias-agricolas.ts";
import { scot } from "../../pipeline/sources/scot.ts";

const dir = new URL("../fixtures/", import.meta.url);
const na = readFileSync(new URL("noticias-agricolas/boi-gordo-scot-consultoria.html", dir), "utf8");
// another Notícias Agrícolas page (Datagro's reposição, recorded once as that source's page): no Scot table
const reposicao = readFileSync(new URL("datagro/reposicao-nelore-macho.html", dir), "utf8");
const scotBoi = readFileSync(new URL("scot/boi-gordo.html", dir), "utf8");

/** the table's rows read with a plain regex, independently of the parser */
function rawRows(html: string): string[][] {
  const table = html.slice(html.indexOf('<table class="cot-fisicas">'));
  const body = table.slice(table.indexOf("<tbody>"), table.indexOf("</tbody>"));
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) =>
    [...m[1]!.matchAll(/<td>([^<]*)<\/td>/g)].map((c) => c[1]!.trim()),
  );
}

describe("Notícias Agrícolas mirror of Scot's Mercado Físico", () => {
  it("is registered for both Scot pages", () => {
    expect(MIRRORS["scot/boi-gordo"]).toEqual([naBoiGordo]);
    expect(MIRRORS["scot/vaca-gorda"]).toEqual([naVacaGorda]);
    for (const m of [naBoiGordo, naVacaGorda]) {
      expect(m.id).toBe("noticias-agricolas");
      expect(m.baseUrlEnv).toBe("COTACAO_NA_URL");
      expect(m.site).toBe("https://www.noticiasagricolas.com.br");
      expect(m.path).toBe("/cotacoes/boi-gordo/boi-gordo-scot-consultoria");
    }
  });

  it("reads Boi Gordo à vista and 30 dias to the centavo, fonte scot", () => {
    const { rows, avisos } = naBoiGordo.parse(na);
    expect(avisos).toEqual([]);
    expect(rows).toHaveLength(33);
    expect(rows[0]).toEqual({
      fonte: "scot",
      produto: "boi_gordo",
      uf: "SP",
      praca: "Barretos",
      data: "2026-02-05",
      valor: 326,
      unidade: "@",
      extras: { valor_30d: 330 },
    });
    const rs = rows.filter((r) => r.uf === "RS");
    expect(rs.map((r) => [r.praca, r.valor, r.unidade, r.extras.valor_30d])).toEqual([
      ["Oeste", 10.95, "kg", 11.1],
      ["Pelotas", 10.85, "kg", 11],
    ]);
  });

  it("reads Vaca Gorda à vista with no extras", () => {
    const { rows } = naVacaGorda.parse(na);
    expect(rows).toHaveLength(33);
    expect(rows[0]).toEqual({
      fonte: "scot",
      produto: "vaca_gorda",
      uf: "SP",
      praca: "Barretos",
      data: "2026-02-05",
      valor: 308.5,
      unidade: "@",
      extras: {},
    });
    expect(rows.every((r) => Object.keys(r.extras).length === 0)).toBe(true);
  });

  it("matches every cell of the page, in centavos", () => {
    const raw = rawRows(na);
    expect(raw).toHaveLength(33);
    const boi = naBoiGordo.parse(na).rows;
    const vaca = naVacaGorda.parse(na).rows;
    raw.forEach(([, avista, d30, vacaAvista], i) => {
      expect(Math.round(boi[i]!.valor * 100)).toBe(parseBRDecimal(avista!));
      expect(Math.round((boi[i]!.extras.valor_30d as number) * 100)).toBe(parseBRDecimal(d30!));
      expect(Math.round(vaca[i]!.valor * 100)).toBe(parseBRDecimal(vacaAvista!));
      expect(boi[i]!.data).toBe("2026-02-05");
    });
  });

  it("names the praças exactly as Scot's own page does (same series)", () => {
    // the Mercado Físico rows (the boi page also gives its Boi China table, not republished)
    const own = scot.pages.find((p) => p.id === "boi-gordo")!.parse(scotBoi).rows.filter((r) => r.produto === "boi_gordo");
    const key = (r: { uf: string | null; praca: string | null; unidade: string }) => `${r.uf}|${r.praca}|${r.unidade}`;
    expect(naBoiGordo.parse(na).rows.map(key)).toEqual(own.map(key));
  });

  it("tells a page without the Scot table from a parse error", () => {
    // Reposição Nelore has table.cot-fisicas too, but with other columns
    expect(naBoiGordo.hasTable(na)).toBe(true);
    expect(naBoiGordo.hasTable(reposicao)).toBe(false);
    expect(naBoiGordo.hasTable("<html><title>Just a moment...</title></html>")).toBe(false);
    try {
      naVacaGorda.parse(reposicao);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ParseError);
      expect((err as ParseError).kind).toBe("soft_block");
    }
  });

  it("fails with a clear error when the closing date is unreadable", () => {
    const bad = na.replace("Fechamento: 05/02/2026", "Fechamento: 31/02/2026");
    expect(() => naBoiGordo.parse(bad)).toThrow(/Fechamento: dd\/mm\/aaaa.*31\/02\/2026/);
  });
});
