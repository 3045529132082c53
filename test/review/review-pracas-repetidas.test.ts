/**
 * A praça a page lists twice, and a praça name that is a formula.
 * - Scot's MT Sudeste row labelled "MT Cuiaba" beside "MT Cuiabá*": the parsers' check of a day
 *   listed twice compared names exactly, so both rows passed; the reference praça is found
 *   accents aside, so the series could take one row's price while its praças kept the other's.
 *   The check now compares praças as the reference is found (sources/html.ts sortBySeries).
 * - A praça's name is text from the source's page: one starting with "=", "+", "-" or "@" went
 *   into the Excel files as a formula. It is no praça's name: the row is invalid and the page
 *   refused (domain/row.ts); "MS - Dourados" is read as "Dourados", as "Mato Grosso do Sul -
 *   Dourados" already was.
 */
import { describe, expect, it } from "vitest";
import type { PriceRow } from "../../pipeline/domain/row.ts";
import { PriceRowSchema } from "../../pipeline/domain/row.ts";
import { sortBySeries } from "../../pipeline/sources/html.ts";
import { trocarUma } from "../helpers/pipeline.ts";
import { paginaEditadaRecusada } from "../helpers/publicado.ts";

const linha = (r: Partial<PriceRow>): PriceRow => ({ fonte: "scot", produto: "boi_gordo", uf: "SP", praca: "Barretos", data: "2026-08-05", valor: 345.5, unidade: "@", extras: {}, ...r });

describe("a praça listed twice on one day, accents and case aside, refuses the page", () => {
  it("sortBySeries: Cuiabá and Cuiaba on one day are one praça twice; on two days, or in two products, they are not", () => {
    expect(() => sortBySeries([linha({ uf: "MT", praca: "Cuiabá" }), linha({ uf: "MT", praca: "Cuiaba", valor: 330 })], "página boi-gordo")).toThrow(
      "página boi-gordo: a data 2026-08-05 aparece duas vezes (boi_gordo MT Cuiaba)",
    );
    expect(() => sortBySeries([linha({ praca: "Barretos" }), linha({ praca: "BARRETOS " })], "p")).toThrow("aparece duas vezes");
    expect(sortBySeries([linha({ uf: "MT", praca: "Cuiabá" }), linha({ uf: "MT", praca: "Cuiaba", data: "2026-08-06" })], "p")).toHaveLength(2);
    expect(sortBySeries([linha({ produto: "vaca_gorda" }), linha({})], "p")).toHaveLength(2);
  });

  it("through the update: Scot's MT Sudeste row labelled 'MT Cuiaba' beside 'MT Cuiabá*' is refused, and MT keeps its prices", async () => {
    await paginaEditadaRecusada("scot/boi-gordo.html", trocarUma(">MT Sudeste<", ">MT Cuiaba<"), ["boi_gordo/MT"], {
      pagina: "scot/boi-gordo",
      kind: "parse_error",
      motivo: "a data 2026-08-05 aparece duas vezes (boi_gordo MT Cuiaba)",
    });
  }, 90_000);
});

describe("a praça named like a formula refuses the page", () => {
  it("a name starting with =, +, - or @ is not a valid row; letters and digits are", () => {
    for (const praca of ["=HYPERLINK(\"http://x\")", "+55 Norte", "- Dourados", "@SUM(A1)"]) {
      const r = PriceRowSchema.safeParse(linha({ praca }));
      expect(r.success, praca).toBe(false);
      expect(r.error?.issues[0]?.message).toContain("tem de começar por uma letra ou um algarismo");
    }
    for (const praca of ["Três Lagoas", "B.Horizonte", "Reg. Sul", "2ª região"]) expect(PriceRowSchema.safeParse(linha({ praca })).success, praca).toBe(true);
  });

  it("through the update: Scot's table with a praça '=HYPERLINK(...)' is refused whole", async () => {
    await paginaEditadaRecusada("scot/boi-gordo.html", trocarUma(">SP Araçatuba<", '>SP =HYPERLINK("http://exemplo.invalid","Araçatuba")<'), ["boi_gordo/SP"], {
      pagina: "scot/boi-gordo",
      kind: "parse_error",
      motivo: "praca: o nome da praça tem de começar por uma letra ou um algarismo",
    });
  }, 90_000);
});
