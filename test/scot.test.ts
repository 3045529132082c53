/** Scot Consultoria's quirks; the golden comparison of every page is in sources.test.ts. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { SCOT_UFS } from "../pipeline/sources/scot.ts";
import { lerPraca, scot } from "../pipeline/sources/scot.ts";
import { parseError } from "./helpers/parse-error.ts";

const html = (page: string) =>
  readFileSync(fileURLToPath(new URL(`./fixtures/scot/${page}.html`, import.meta.url)), "utf8");
const page = (id: string) => {
  const p = scot.pages.find((x) => x.id === id);
  if (!p) throw new Error(`página ${id} não declarada`);
  return p;
};
const parse = (id: string, source = html(id)) => page(id).parse(source);
/** The Mercado Físico rows of a page (the boi page also gives the Boi China table's rows). */
const mercado = (parsed: ReturnType<typeof parse>) => ({ ...parsed, rows: parsed.rows.filter((r) => r.produto !== "boi_china") });
const praca = (rows: ReturnType<typeof parse>["rows"], uf: string, nome: string) => {
  const r = rows.find((x) => x.uf === uf && x.praca === nome);
  if (!r) throw new Error(`praça ${uf} ${nome} ausente`);
  return r;
};

/** The Mercado Físico part of the boi page (after the "Boi China a Prazo" table). */
const boi = html("boi-gordo");
const mercadoAt = boi.indexOf("Mercado F&iacute;sico");
const inMercado = (from: string, to: string) => boi.slice(0, mercadoAt) + boi.slice(mercadoAt).replace(from, to);

describe("Scot: the Mercado Físico table of the recorded pages", () => {
  it.each([
    ["boi-gordo", "boi_gordo"],
    ["vaca-gorda", "vaca_gorda"],
    ["novilha-gorda", "novilha_gorda"],
  ])("%s: 33 praças of exactly the 18 UFs, dated from the title", (id, produto) => {
    const { rows, avisos } = mercado(parse(id));
    expect(avisos).toEqual([]);
    expect(rows).toHaveLength(33);
    expect([...new Set(rows.map((r) => r.uf))].sort()).toEqual([...SCOT_UFS].sort());
    expect(new Set(rows.map((r) => r.data))).toEqual(new Set(["2026-08-05"]));
    expect(new Set(rows.map((r) => r.produto))).toEqual(new Set([produto]));
  });

  it("boi: SP Barretos with every column, in the source's order", () => {
    const r = praca(parse("boi-gordo").rows, "SP", "Barretos");
    expect(r).toEqual({
      fonte: "scot",
      produto: "boi_gordo",
      uf: "SP",
      praca: "Barretos",
      data: "2026-08-05",
      valor: 345.5,
      unidade: "@",
      extras: {
        valor_30d: 350,
        base_sp: 0,
        funrural_avista: 340,
        funrural_30d: 344.5,
        senar_avista: 345,
        senar_30d: 349.5,
        tendencia: "alta",
      },
    });
    expect(Object.keys(r.extras)).toEqual([
      "valor_30d", "base_sp", "funrural_avista", "funrural_30d", "senar_avista", "senar_30d", "tendencia",
    ]);
  });

  it("boi: negative base against SP and the stable arrow", () => {
    const r = praca(parse("boi-gordo").rows, "MG", "Triângulo");
    expect(r.extras.base_sp).toBe(-4.35);
    expect(r.extras.tendencia).toBe("estavel");
  });

  it("vaca: SP Barretos 318,00 / 322,00 and no '# base' column", () => {
    const { rows } = parse("vaca-gorda");
    const r = praca(rows, "SP", "Barretos");
    expect(r.valor).toBe(318);
    expect(r.extras.valor_30d).toBe(322);
    for (const row of rows) expect(row.extras).not.toHaveProperty("base_sp");
  });

  it.each(["boi-gordo", "vaca-gorda", "novilha-gorda"])("%s: RS is quoted per kg, every other UF per arroba", (id) => {
    const { rows } = mercado(parse(id));
    for (const r of rows) expect(r.unidade, `${r.uf} ${r.praca}`).toBe(r.uf === "RS" ? "kg" : "@");
    expect(rows.filter((r) => r.uf === "RS").map((r) => r.praca)).toEqual(["Oeste", "Pelotas"]);
  });

  it("boi: RS Oeste (kg) is 12,35 R$/kg", () => {
    const r = praca(parse("boi-gordo").rows, "RS", "Oeste");
    expect(r.valor).toBe(12.35);
    expect(r.unidade).toBe("kg");
    expect(JSON.stringify(r.valor)).toBe("12.35");
  });

  it("cleans praça names: no UF code, footnote marker or unit; a bare UF is the state's name", () => {
    const { rows } = mercado(parse("boi-gordo"));
    for (const r of rows) expect(r.praca).not.toMatch(/^[A-Z]{2}( |$)|\*|\(kg\)/);
    const names = Object.fromEntries(
      rows.filter((r) => ["SC", "ES", "RJ", "AL", "AC", "RR"].includes(r.uf!)).map((r) => [r.uf, r.praca]),
    );
    expect(names).toEqual({
      SC: "Santa Catarina",
      ES: "Espírito Santo",
      RJ: "Rio de Janeiro",
      AL: "Alagoas",
      AC: "Acre",
      RR: "Roraima",
    });
  });

  it("the '*' footnote of the tfoot becomes the nota of MT Cuiabá, and only of it", () => {
    const { rows } = parse("boi-gordo");
    expect(praca(rows, "MT", "Cuiabá").nota).toBe("Região de Cuiabá, inclui Rondonópolis");
    expect(rows.filter((r) => r.nota !== undefined)).toHaveLength(1);
  });

  it("reads the trend arrows by the legend: s.gif alta, n.gif estavel, d.gif baixa", () => {
    const { rows } = parse("boi-gordo");
    const count = (t: string) => rows.filter((r) => r.extras.tendencia === t).length;
    expect([count("alta"), count("estavel"), count("baixa")]).toEqual([17, 16, 0]);
    const down = parse("boi-gordo", inMercado("img/s.gif", "img/d.gif")).rows;
    expect(praca(down, "SP", "Barretos").extras.tendencia).toBe("baixa");
  });

  it("reads the 'Boi China a Prazo' table apart, also when it comes after Mercado Físico", () => {
    const china = boi.slice(0, boi.indexOf("<table", 10));
    const swapped = boi.slice(boi.indexOf("<table", 10)) + china;
    expect(parse("boi-gordo", swapped)).toEqual(parse("boi-gordo"));
    // Boi China SP 352,00 is a boi_china row, never a boi_gordo praça
    expect(mercado(parse("boi-gordo")).rows.some((r) => r.valor === 352)).toBe(false);
    expect(parse("boi-gordo").rows.filter((r) => r.valor === 352).map((r) => `${r.produto}/${r.uf}`)).toEqual(["boi_china/SP"]);
  });
});

describe("Scot: praça labels", () => {
  it.each([
    ["SP Barretos", { uf: "SP", praca: "Barretos", unidade: null, marca: null }],
    ["MT Cuiabá*", { uf: "MT", praca: "Cuiabá", unidade: null, marca: "*" }],
    ["RS Oeste (kg)", { uf: "RS", praca: "Oeste", unidade: "kg", marca: null }],
    ["  GO   Reg. Sul ", { uf: "GO", praca: "Reg. Sul", unidade: null, marca: null }],
    ["SC", { uf: "SC", praca: "Santa Catarina", unidade: null, marca: null }],
    ["Alagoas", { uf: "AL", praca: "Alagoas", unidade: null, marca: null }],
    ["Mato Grosso do Sul - Dourados", { uf: "MS", praca: "Dourados", unidade: null, marca: null }],
    ["MS - Dourados", { uf: "MS", praca: "Dourados", unidade: null, marca: null }],
    ["Pará", { uf: "PA", praca: "Pará", unidade: null, marca: null }],
  ])("%s", (label, expected) => {
    expect(lerPraca(label)).toEqual(expected);
  });

  it.each(["Xanadu", "XX Norte", "Sul", ""])("%j is not a praça", (label) => {
    expect(lerPraca(label)).toBeNull();
  });
});

describe("Scot: pages that are not what they should be", () => {
  it("an unknown praça is skipped with an aviso, not fatal", () => {
    const { rows, avisos } = mercado(parse("boi-gordo", inMercado(">SP Araçatuba<", ">Xanadu Norte<")));
    expect(rows).toHaveLength(32);
    expect(avisos).toHaveLength(1);
    expect(avisos[0]).toContain('praça "Xanadu Norte" não reconhecida');
  });

  it("a category that does not match the page is refused", () => {
    const vaca = html("vaca-gorda").replace(">VACA GORDA<", ">NOVILHA GORDA<");
    const err = parseError(() => parse("vaca-gorda", vaca));
    expect(err.message).toContain('a categoria da tabela é "NOVILHA GORDA", esperado "VACA GORDA"');
    expect(parseError(() => parse("vaca-gorda", boi)).message).toContain('esperado "VACA GORDA"');
  });

  it("an unreadable number names the praça and the cell", () => {
    const err = parseError(() => parse("boi-gordo", inMercado("<td>345,50</td>", "<td>345,5x</td>")));
    expect(err.message).toContain('praça "SP Barretos"');
    expect(err.message).toContain('"345,5x"');
  });

  it("an empty cell is left out, not read as zero", () => {
    const r = praca(parse("boi-gordo", inMercado("<td style='text-align: center'>340,00</td>", "<td style='text-align: center'></td>")).rows, "SP", "Barretos");
    expect(r.extras).not.toHaveProperty("funrural_avista");
    expect(r.extras.funrural_30d).toBe(344.5);
  });

  it("an unreadable date in the title is refused", () => {
    const err = parseError(() => parse("boi-gordo", boi.replace("Mercado F&iacute;sico - 05/08/2026", "Mercado F&iacute;sico - 5 de agosto")));
    expect(err.message).toContain("data da cotação ilegível");
  });

  it("a page without the table is a soft block; hasTable says so", () => {
    const only = boi.slice(0, boi.indexOf("<table", 10));
    expect(page("boi-gordo").hasTable(only)).toBe(false);
    const err = parseError(() => parse("boi-gordo", only));
    expect(err.kind).toBe("soft_block");
    expect(err.message).toContain('"Mercado Físico - dd/mm/aaaa" não encontrada');
  });

  it("the sem-dados page (header without praças) is refused", () => {
    const err = parseError(() => parse("boi-gordo", html("sem-dados")));
    expect(err.message).toContain("vazia");
  });
});

describe("Scot: the 'Boi China a Prazo' table of the boi page", () => {
  const china = () => parse("boi-gordo").rows.filter((r) => r.produto === "boi_china");
  /** Boi China start .. Mercado Físico start: edits that touch only the Boi China table. */
  const mercadoStart = boi.indexOf("<table", 10);
  const inChina = (from: string, to: string) => {
    const head = boi.slice(0, mercadoStart);
    if (!head.includes(from)) throw new Error(`"${from}" não está na tabela Boi China`);
    return head.replace(from, to) + boi.slice(mercadoStart);
  };

  it("reads the 11 rows of the recorded table, bruto as valor and líquido (net of Funrural) as funrural_30d", () => {
    // every row, by hand from the page: UF, region, bruto 30 dias, líquido 30 dias
    const esperado: Array<[string, string, number, number]> = [
      ["SP", "São Paulo", 352, 346.5],
      ["MG", "Minas Gerais (Exceto região Sul)", 342, 336.5],
      ["MT", "Mato Grosso", 334, 328.5],
      ["MS", "Mato Grosso do Sul", 345, 339.5],
      ["GO", "Goiás", 335, 329.5],
      ["PA", "Paragominas", 345, 339.5],
      ["PA", "Redenção e Marabá", 340, 334.5],
      ["RO", "Rondônia", 330, 324.5],
      ["ES", "Espírito Santo", 328, 322.5],
      ["TO", "Tocantins", 334, 328.5],
      ["PR", "Paraná", 355, 349],
    ];
    expect(china().map((r) => [r.uf, r.praca, r.valor, r.extras.funrural_30d])).toEqual(esperado);
    for (const r of china()) {
      expect(r).toMatchObject({ fonte: "scot", produto: "boi_china", data: "2026-08-05", unidade: "@" });
      expect(Object.keys(r.extras)).toEqual(["funrural_30d"]);
    }
  });

  it("declares one state series per UF of the table; Pará's value is Redenção e Marabá, with both regions kept", () => {
    const decl = page("boi-gordo").series.filter((d) => d.produto === "boi_china");
    expect(decl.map((d) => d.uf)).toEqual(["SP", "MG", "MT", "MS", "GO", "PA", "RO", "ES", "TO", "PR"]);
    expect(decl.find((d) => d.uf === "PA")).toMatchObject({ ufReferencia: "PA", pracaReferencia: "Redenção e Marabá", referenciaFixa: true, semEspelho: true });
    for (const d of decl) expect(china().some((r) => r.uf === d.uf && r.praca === d.pracaReferencia), d.uf!).toBe(true);
  });

  it("maps the columns by label: swapped labels are caught by the líquido/bruto relation", () => {
    const trocado = inChina("Pre&ccedil;o bruto 30 dias", "Pre&ccedil;o TMP 30 dias")
      .replace("Pre&ccedil;o líquido 30 dias<sup>3</sup>", "Pre&ccedil;o bruto 30 dias")
      .replace("Pre&ccedil;o TMP 30 dias", "Pre&ccedil;o líquido 30 dias<sup>3</sup>");
    const err = parseError(() => parse("boi-gordo", trocado));
    expect(err.message).toContain('UF "São Paulo": líquido / bruto = 352,00 / 346,50');
    expect(err.message).toContain("colunas trocadas?");
  });

  it("refuses the líquido column when its footnote no longer says Funrural", () => {
    const err = parseError(() => parse("boi-gordo", inChina("Pre&ccedil;os com o desconto do Funrural", "Pre&ccedil;os com o desconto do Senar")));
    expect(err.message).toContain('não diz "Preços com o desconto do Funrural"');
  });

  it("refuses an unknown column and a table without its footnote row (cut)", () => {
    expect(parseError(() => parse("boi-gordo", inChina(">UF<", ">Estado<"))).message).toContain('coluna desconhecida "Estado"');
    const semRodape = boi.slice(0, mercadoStart).replace(/<tr class="final">[\s\S]*?<\/tr>/, "") + boi.slice(mercadoStart);
    expect(parseError(() => parse("boi-gordo", semRodape)).message).toContain("sem a linha de notas");
  });

  it("the page is atomic: without its Boi China table the boi page fails, Mercado Físico and all", () => {
    const soMercado = boi.slice(mercadoStart);
    expect(page("boi-gordo").hasTable(soMercado)).toBe(true);
    const err = parseError(() => parse("boi-gordo", soMercado));
    expect(err.message).toContain('tabela "Boi China a Prazo (R$/@) - dd/mm/aaaa" não encontrada');
    expect(err.kind).toBe("parse_error");
  });

  it("an unreadable number or a title in another unit is refused", () => {
    expect(parseError(() => parse("boi-gordo", inChina("<td style=\"text-align: center; width: 25%; padding: 5px\">346,50</td>", "<td style=\"text-align: center; width: 25%; padding: 5px\">346,5</td>"))).message).toContain(
      'número inválido na coluna "Preço líquido 30 dias": "346,5"',
    );
    expect(parseError(() => parse("boi-gordo", inChina("(R$/@)", "(R$/kg)"))).message).toContain("título ilegível");
  });
});

describe("Scot: novilha gorda", () => {
  it("SP Barretos 333,00 / 337,00; RS per kg; no '# base' column", () => {
    const { rows } = parse("novilha-gorda");
    expect(praca(rows, "SP", "Barretos")).toMatchObject({ produto: "novilha_gorda", valor: 333, extras: { valor_30d: 337 } });
    expect(praca(rows, "RS", "Oeste")).toMatchObject({ valor: 12.1, unidade: "kg" });
    for (const row of rows) expect(row.extras).not.toHaveProperty("base_sp");
  });

  it("feeds the national series (SP Barretos) and one per Scot UF, as vaca gorda", () => {
    const decl = page("novilha-gorda").series;
    expect(decl.map((d) => d.uf)).toEqual([null, ...SCOT_UFS]);
    expect(decl[0]).toMatchObject({ produto: "novilha_gorda", ufReferencia: "SP", pracaReferencia: "Barretos", unidade: "@" });
    expect(decl.find((d) => d.uf === "RS")?.unidade).toBe("kg");
  });

  it("refuses the vaca page and the vaca page refuses it (category)", () => {
    expect(parseError(() => parse("novilha-gorda", html("vaca-gorda"))).message).toContain('esperado "NOVILHA GORDA"');
    expect(parseError(() => parse("vaca-gorda", html("novilha-gorda"))).message).toContain('esperado "VACA GORDA"');
  });
});
