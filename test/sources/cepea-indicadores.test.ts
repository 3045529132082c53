/**
 * CEPEA's other indicator pages (issue 12): trigo, arroz, café, algodão, açúcar, citros, frango,
 * suíno and the boi page's "Média a Prazo". The golden comparison of every page is in
 * test/sources.test.ts; here are each page's quirks, the sanity bounds against the recorded
 * values, and the whole path from the recorded pages to validated published files.
 */
import { readFile } from "node:fs/promises";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runValidate } from "../../pipeline/cli/validate.ts";
import { PRODUTO_INFO } from "../../pipeline/domain/products.ts";
import type { PriceRow } from "../../pipeline/domain/row.ts";
import { limitesDaSerie, seriesId, ufPublicada } from "../../pipeline/domain/series.ts";
import { cepea } from "../../pipeline/sources/cepea.ts";
import { numeroCompleto } from "../../pipeline/sources/html.ts";
import { allSeries, serieDef } from "../../pipeline/sources/index.ts";
import { cleanup, FIXTURES, readJson, replay, tempSite } from "../helpers/pipeline.ts";
import { parseError } from "../helpers/parse-error.ts";

const NOVAS = ["boi-gordo-prazo", "trigo", "arroz", "cafe", "algodao", "acucar", "citros", "frango", "suino"] as const;

const html = (id: string) => readFileSync(join(FIXTURES, "cepea", `${id}.html`), "utf8");
const page = (id: string) => {
  const p = cepea.pages.find((x) => x.id === id);
  if (!p) throw new Error(`página ${id} não declarada`);
  return p;
};
const parse = (id: string, source = html(id)) => page(id).parse(source);
const serie = (rows: PriceRow[], id: string) => rows.filter((r) => seriesId(r) === id);
/** The recorded page with one literal edit, which must be there. */
const edited = (id: string, from: string | RegExp, to: string) => {
  const before = html(id);
  const after = before.replace(from, to);
  if (after === before) throw new Error(`edição não mudou ${id}`);
  return after;
};

/**
 * Each series' newest day as the page shows it (MANIFEST "more CEPEA indicator pages"), and the
 * place its file publishes as `uf`: a national series' declared place (`lugar`), null where the
 * declaration names no single state (the two laranja indústria tables).
 */
const ULTIMOS: ReadonlyArray<[pagina: string, serie: string, unidade: string, valor: number, usd: number | null, uf: string | null]> = [
  ["boi-gordo-prazo", "boi_gordo_prazo", "@", 351.65, null, "SP"],
  ["trigo", "trigo/PR", "t", 1457.55, 284.12, "PR"],
  ["trigo", "trigo/RS", "t", 1355.06, 264.14, "RS"],
  ["arroz", "arroz", "sc50kg", 79.07, 15.41, "RS"],
  ["arroz", "arroz_alto_rendimento", "sc50kg", 80.16, 15.63, "RS"],
  ["cafe", "cafe_arabica", "sc60kg", 1659.93, 323.57, "SP"],
  ["cafe", "cafe_robusta", "sc60kg", 976.71, 190.39, "ES"],
  ["algodao", "algodao", "ct_lb", 439.98, null, "SP"],
  ["acucar", "acucar_cristal_sp", "sc50kg", 116.79, 22.77, "SP"],
  ["acucar", "acucar_santos", "sc50kg", 126.56, 24.69, "SP"],
  ["citros", "laranja_industria", "cx40_8kg", 30.73, null, null],
  ["citros", "laranja_pera", "cx40_8kg", 30.97, null, "SP"],
  ["citros", "laranja_industria_precoce", "cx40_8kg", 26, null, null],
  ["frango", "frango_congelado", "kg", 7.61, null, "SP"],
  ["frango", "frango_resfriado", "kg", 7.61, null, "SP"],
  ["suino", "suino_vivo/MG", "kg", 5.01, null, "MG"],
  ["suino", "suino_vivo/PR", "kg", 4.42, null, "PR"],
  ["suino", "suino_vivo/RS", "kg", 4.53, null, "RS"],
  ["suino", "suino_vivo/SC", "kg", 4.48, null, "SC"],
  ["suino", "suino_vivo/SP", "kg", 4.83, null, "SP"],
  ["suino", "suino_carcaca", "kg", 7.2, null, "SP"],
];

describe("CEPEA's other indicators: the recorded pages", () => {
  it.each(ULTIMOS)("%s: %s on 04/09/2026 is %s %s (US$ %s)", (pagina, id, unidade, valor, usd) => {
    const rows = serie(parse(pagina).rows, id);
    expect(rows.length).toBeGreaterThan(0);
    const last = rows[rows.length - 1]!;
    expect(last).toMatchObject({ fonte: "cepea", data: "2026-09-04", valor, unidade, praca: null });
    expect(last.extras).toEqual(usd === null ? {} : { valor_usd: usd });
    // the page's series is the catalogue's
    expect(serieDef(id)).toMatchObject({ fonte: "cepea", pagina, unidade });
  });

  it("every series the new pages declare has rows, and nothing else is read", () => {
    for (const id of NOVAS) {
      const declared = page(id).series.map(seriesId).sort();
      const read = [...new Set(parse(id).rows.map(seriesId))].sort();
      expect(read, id).toEqual(declared);
    }
  });

  it("every recorded value is inside its series' range, and no day-to-day move trips the jump gate", () => {
    for (const id of NOVAS) {
      const rows = parse(id).rows;
      for (const sid of new Set(rows.map(seriesId))) {
        const def = serieDef(sid)!;
        const { faixa, saltoMaximoPct } = limitesDaSerie(def);
        const [lo, hi] = faixa[def.unidade]!;
        const mine = serie(rows, sid);
        for (const r of mine) expect(r.valor, `${sid} ${r.data}`).toBeGreaterThanOrEqual(lo);
        for (const r of mine) expect(r.valor, `${sid} ${r.data}`).toBeLessThanOrEqual(hi);
        for (let i = 1; i < mine.length; i++) {
          const pct = Math.abs(mine[i]!.valor / mine[i - 1]!.valor - 1) * 100;
          expect(pct, `${sid} ${mine[i]!.data}`).toBeLessThan(saltoMaximoPct);
        }
      }
    }
  });

  it("the new products are declared as the brief says: café sold by the 60 kg sack, the rest not simulated, none in the aggregate", () => {
    const novos = [...new Set(NOVAS.flatMap((id) => page(id).series.map((s) => s.produto)))];
    expect(novos.sort()).toEqual(
      [
        "boi_gordo_prazo", "trigo", "arroz", "arroz_alto_rendimento", "cafe_arabica", "cafe_robusta", "algodao", "acucar_cristal_sp",
        "acucar_santos", "laranja_industria", "laranja_pera", "laranja_industria_precoce", "frango_congelado",
        "frango_resfriado", "suino_vivo", "suino_carcaca",
      ].sort(),
    );
    for (const p of novos) {
      const info = PRODUTO_INFO[p];
      expect(info.tipo, p).toBe(p.startsWith("cafe_") ? "grao_saca" : "sem_simulacao");
      expect(info.agregado, p).toBeUndefined();
      expect(info.agregadoUf, p).toBeUndefined();
      expect(Object.keys(info.faixa), p).toEqual([info.unidade]);
    }
  });

  it("each page with its tables emptied is a soft block, and hasTable says so", () => {
    for (const id of NOVAS) {
      const empty = html(id).replace(/<tbody>[\s\S]*?<\/tbody>/g, "<tbody></tbody>");
      expect(page(id).hasTable(empty), id).toBe(false);
      const err = parseError(() => parse(id, empty));
      expect(err.kind, id).toBe("soft_block");
      expect(err.message, id).toMatch(/tabela "[^"]+" está vazia/);
    }
  });
});

describe("CEPEA: the boi page's 'Média a Prazo' is a page of its own", () => {
  it("same URL as the cash indicator, separate page: the boi page's rows are unchanged and hold no prazo value", () => {
    expect(page("boi-gordo-prazo").path).toBe(page("boi-gordo").path);
    expect(parse("boi-gordo").rows.every((r) => r.produto === "boi_gordo")).toBe(true);
    expect(parse("boi-gordo").rows.some((r) => r.valor === 351.65)).toBe(false);
    const prazo = parse("boi-gordo-prazo").rows;
    expect(prazo.every((r) => r.produto === "boi_gordo_prazo")).toBe(true);
    expect(prazo.some((r) => r.valor === 347.7)).toBe(false);
    expect(prazo).toHaveLength(15);
    expect(prazo[0]).toMatchObject({ data: "2026-08-17", valor: 348.82 });
  });

  it("a broken prazo table fails only its own page", () => {
    const source = edited("boi-gordo-prazo", "<td>351,65</td>", "<td>351,6</td>");
    expect(parseError(() => parse("boi-gordo-prazo", source)).message).toContain('número inválido na coluna "A Prazo": "351,6"');
    expect(parse("boi-gordo", source)).toEqual(parse("boi-gordo"));
  });

  it("PMP (payment term, days) is '-' or a number with two decimals; anything else refuses the page", () => {
    // 02/09/2026 has PMP 7,00; 04/09/2026 has "-": both read
    expect(parse("boi-gordo-prazo").rows.find((r) => r.data === "2026-09-02")?.valor).toBe(351.37);
    const source = edited("boi-gordo-prazo", /(<td>02\/09\/2026<\/td>\s*<td>351,37<\/td>[\s\S]*?)<td>7,00<\/td>/, "$1<td>7</td>");
    const err = parseError(() => parse("boi-gordo-prazo", source));
    expect(err.message).toContain('número inválido na coluna "PMP": "7"');
    expect(err.message).toContain("02/09/2026");
  });
});

describe("CEPEA: algodão is in centavos per pound and has no US$", () => {
  it("reads centavos de R$ per pound, and the fifth column (payment term) is not read as US$", () => {
    const rows = parse("algodao").rows;
    expect(rows.every((r) => r.unidade === "ct_lb" && Object.keys(r.extras).length === 0)).toBe(true);
    // 04/09/2026: 439,98 centavos, payment term 19,22 days
    expect(rows.some((r) => r.valor === 19.22)).toBe(false);
    // "Média Móvel dos Últimos Três Indicadores (8 dias)" (439,63 on 04/09) is not read
    expect(rows.some((r) => r.valor === 439.63)).toBe(false);
  });

  it("a payment-term column relabelled 'Valor US$' is refused, not taken for dollars", () => {
    const source = edited("algodao", "<th>Prazo pgto. (dias)</th>", "<th>Valor US$</th>");
    const err = parseError(() => parse("algodao", source));
    expect(err.message).toContain('coluna "Prazo pgto. (dias)" não encontrada');
    expect(err.message).toContain('coluna desconhecida "Valor US$"');
  });
});

describe("CEPEA: citros", () => {
  it("26/08/2026 is listed twice, cell for cell, in each table: read once, and said", () => {
    const { rows, avisos } = parse("citros");
    for (const id of ["laranja_industria", "laranja_pera", "laranja_industria_precoce"]) {
      const mine = serie(rows, id);
      expect(mine, id).toHaveLength(14);
      expect(mine.filter((r) => r.data === "2026-08-26"), id).toHaveLength(1);
    }
    expect(avisos).toEqual([
      'tabela "Laranja Indústria": a linha de 26/08/2026 aparece duas vezes, idêntica; lida uma vez',
      'tabela "LARANJA PERA IN NATURA": a linha de 26/08/2026 aparece duas vezes, idêntica; lida uma vez',
      'tabela "Laranja Indústria - Precoce": a linha de 26/08/2026 aparece duas vezes, idêntica; lida uma vez',
    ]);
  });

  it("a day listed twice with different values refuses the page", () => {
    // the second 26/08/2026 row of the first table: 31,18 -> 31,19
    const source = edited("citros", /(<td>26\/08\/2026<\/td>[\s\S]*?<td>26\/08\/2026<\/td>\s*)<td>31,18<\/td>/, "$1<td>31,19</td>");
    const err = parseError(() => parse("citros", source));
    expect(err.message).toContain("o dia 26/08/2026 aparece duas vezes com valores diferentes");
    expect(err.message).toContain('tabela "Laranja Indústria"');
  });

  it("the '5 dias' moving average is checked whole but not published", () => {
    // 04/09/2026: price 30,73, five-day average 31,14 (a value laranja pera had on 01/09)
    expect(serie(parse("citros").rows, "laranja_industria").some((r) => r.valor === 31.14)).toBe(false);
    const source = edited("citros", /(<td>04\/09\/2026<\/td>\s*<td>30,73<\/td>[\s\S]*?)<td>31,14<\/td>/, "$1<td>31,1</td>");
    expect(parseError(() => parse("citros", source)).message).toContain('número inválido na coluna "5 dias": "31,1"');
  });
});

describe("CEPEA: suíno", () => {
  it("the live-hog table gives one state series per state, by its 'Estado' label", () => {
    const rows = parse("suino").rows.filter((r) => r.produto === "suino_vivo");
    expect([...new Set(rows.map((r) => r.uf))]).toEqual(["MG", "PR", "RS", "SC", "SP"]);
    for (const uf of ["MG", "PR", "RS", "SC", "SP"]) {
      expect(rows.filter((r) => r.uf === uf).map((r) => r.data), uf).toEqual(["2026-09-02", "2026-09-03", "2026-09-04"]);
    }
    expect(rows.find((r) => r.uf === "PR" && r.data === "2026-09-02")?.valor).toBe(4.45);
    const decl = allSeries().filter((d) => d.produto === "suino_vivo");
    expect(decl.map((d) => [d.id, d.praca])).toEqual([
      ["suino_vivo/MG", "MG - posto"],
      ["suino_vivo/PR", "PR - a retirar"],
      ["suino_vivo/RS", "RS - a retirar"],
      ["suino_vivo/SC", "SC - a retirar"],
      ["suino_vivo/SP", "SP - posto"],
    ]);
  });

  it("the monthly table is not read (SP, set 2025: 9,26)", () => {
    expect(parse("suino").rows.some((r) => r.valor === 9.26)).toBe(false);
  });

  it("a state label the page did not have refuses the page", () => {
    // the state cells carry a style: <td style="text-align:left;">SP - posto</td>
    const source = edited("suino", ">SP - posto</td>", ">GO - posto</td>");
    const err = parseError(() => parse("suino", source));
    expect(err.message).toContain('estado desconhecido "GO - posto"');
    expect(err.message).toContain('"SP - posto"');
  });

  it("a state the table stops listing refuses the page", () => {
    const source = html("suino").replace(/<tr[^>]*>\s*<td>\d\d\/\d\d\/\d{4}<\/td>\s*<td[^>]*>SC - a retirar<\/td>[\s\S]*?<\/tr>/g, "");
    expect(source).not.toContain("SC - a retirar</td>");
    expect(parseError(() => parse("suino", source)).message).toContain('estado "SC - a retirar" não encontrado na tabela');
  });

  it("the carcaça especial is read from its 'Média' column", () => {
    const rows = serie(parse("suino").rows, "suino_carcaca");
    expect(rows).toHaveLength(15);
    expect(rows[0]).toMatchObject({ data: "2026-08-17", valor: 7.33 });
  });
});

describe("CEPEA: declared layouts are exact", () => {
  it("frango has no US$ column: one appearing means the layout changed", () => {
    const source = edited("frango", /<th>Var\.\/Mês<\/th>/, "<th>Var./Mês</th><th>Valor US$</th>");
    expect(parseError(() => parse("frango", source)).message).toContain('coluna desconhecida "Valor US$"');
  });

  it("trigo's columns carry their unit ('Valor R$/t*', 'Valor US$/t*') and are still found by label", () => {
    expect(html("trigo")).toContain("Valor R$/t*");
    const source = edited("trigo", "Valor US$/t*", "Valor (US$)");
    expect(parseError(() => parse("trigo", source)).message).toContain('coluna "Valor US$" não encontrada');
  });

  it("etanol and leite are not read: their prices have four decimals, which this API cannot publish as they are", () => {
    const ids = cepea.pages.map((p) => p.id);
    expect(ids).not.toContain("etanol");
    expect(ids).not.toContain("leite");
    // a four-decimal price is not a complete two-decimal number: it is never silently rounded
    expect(numeroCompleto("2,3991")).toBeNull();
  });
});

describe("CEPEA's other indicators end to end: replay, published files, index, validate", () => {
  let site: string;
  let run: Awaited<ReturnType<typeof replay>>;

  beforeAll(async () => {
    // the recorded pages of every source, as a real run reads them (capturas.json included)
    site = await tempSite();
    run = await replay(FIXTURES, site, "2026-09-27T12:00:00-03:00");
  });
  afterAll(() => cleanup(site));

  it("every CEPEA page is read", () => {
    const cepeaPages = run.outcomes.filter((o) => o.source === "cepea");
    expect(cepeaPages.map((o) => `${o.page}:${o.ok}`)).toEqual(cepea.pages.map((p) => `${p.id}:true`));
  });

  it("publishes each new series with its unit, place, US$ where the page has it, and history", async () => {
    for (const [pagina, id, unidade, valor, usd, uf] of ULTIMOS) {
      const f = await readJson(site, `api/v1/cotacao/${id}.json`);
      const def = serieDef(id)!;
      expect(ufPublicada(def), id).toBe(uf);
      expect(f, id).toMatchObject({ produto: def.produto, uf, valor, unidade, fonte: "cepea", data_cotacao: "2026-09-04", regiao: def.regiao });
      expect(f.proveniencia.url, id).toBe(`https://www.cepea.org.br${page(pagina).path}`);
      const newest = f.historico[f.historico.length - 1];
      expect(newest, id).toEqual(usd === null ? { data: "2026-09-04", valor } : { data: "2026-09-04", valor, valor_usd: usd });
      expect(existsSync(join(site, `api/v1/historico/${id}.csv`)), id).toBe(true);
    }
    // state-only products have no national file
    expect(existsSync(join(site, "api/v1/cotacao/trigo.json"))).toBe(false);
    expect(existsSync(join(site, "api/v1/cotacao/suino_vivo.json"))).toBe(false);
    const mg = await readJson(site, "api/v1/cotacao/suino_vivo/MG.json");
    expect(mg).toMatchObject({ uf: "MG", praca: "MG - posto" });
    expect(mg.historico).toEqual([
      { data: "2026-09-02", valor: 5.02 },
      { data: "2026-09-03", valor: 5.01 },
      { data: "2026-09-04", valor: 5.01 },
    ]);
    expect(await readFile(join(site, "api/v1/historico/trigo/RS.csv"), "utf8")).toMatch(/^data,valor,unidade,valor_usd\n2026-08-17,1318.09,t,253.58\n[\s\S]*\n2026-09-04,1355.06,t,264.14\n$/);
    // the duplicated citrus day is one day of history
    expect((await readJson(site, "api/v1/cotacao/laranja_pera.json")).historico).toHaveLength(14);
  });

  it("index.json lists every new series with its points; the aggregate keeps its five keys", async () => {
    const index = await readJson(site, "api/v1/index.json");
    const byId = new Map<string, { pontos: number }>(index.series.map((s: { id: string; pontos: number }) => [s.id, s]));
    for (const [, id] of ULTIMOS) expect(byId.get(id), id).toBeDefined();
    expect(byId.get("trigo/PR")!.pontos).toBe(15);
    expect(byId.get("laranja_industria")!.pontos).toBe(14);
    expect(byId.get("suino_vivo/SP")!.pontos).toBe(3);
    const agg = await readJson(site, "api/v1/cotacao.json");
    for (const p of ["trigo", "cafe_arabica", "algodao", "suino_vivo", "boi_gordo_prazo"]) expect(Object.keys(agg)).not.toContain(p);
  });

  it("validate passes over the published site", () => {
    expect(runValidate(site)).toBe(0);
  });
});
