/**
 * A row whose date was retyped within the page's span: CEPEA's oldest row 17/08 typed 10/08 (a
 * Monday typed as the Monday before) keeps the page's order, is a business day, 7 days from the
 * next row and within 45 of the newest: on a later run it was merged as a gap fill, 10/08 with
 * 17/08's price, for good. The page no longer lists 17/08, which the history has from it; a
 * stored day missing inside the page's span while the page fills a day behind the newest one is
 * that retyped row, and refuses the page. A stored day missing with nothing filled in is a day the
 * source withdrew: said, not refused (nothing new is wrong).
 */
import { describe, expect, it } from "vitest";
import { checkDiasSumidos } from "../../pipeline/check/gates.ts";
import type { SeriesUpdate } from "../../pipeline/history/assemble.ts";
import { allSeries } from "../../pipeline/sources/index.ts";
import { trocarUma } from "../helpers/pipeline.ts";
import { comPaginaEditada, paginaEditadaRecusada } from "../helpers/publicado.ts";

const milho = allSeries().find((d) => d.id === "milho")!;
const dia = (data: string) => ({ data, valor: 70 });
const upd = (...datas: string[]): SeriesUpdate => ({ def: milho, entries: datas.map(dia), pracas: null });
const guardado = ["2026-08-17", "2026-08-18", "2026-08-19", "2026-08-20"].map(dia);

describe("a day the history has, missing inside the page's span", () => {
  it("with a day filled in behind the newest: a retyped date, the page refused", () => {
    expect(checkDiasSumidos([upd("2026-08-10", "2026-08-18", "2026-08-19", "2026-08-20")], () => guardado, true)).toEqual({
      problemas: [
        "milho: a página vai de 10/08/2026 a 20/08/2026 e não traz 17/08/2026, que o histórico tem, mas traz 10/08/2026, que o histórico não tem: " +
          "a data de uma linha foi trocada (ou o dia publicado veio de um espelho ou de um backfill e a fonte não o tem)? " +
          "A página volta a ser aceita quando trouxer o dia de novo ou quando ele sair da janela dela",
      ],
      avisos: [],
    });
  });

  it("with nothing filled in: a day withdrawn, said and not refused; a mirror's page, or days outside the span, are not judged", () => {
    expect(checkDiasSumidos([upd("2026-08-17", "2026-08-19", "2026-08-20", "2026-08-21")], () => guardado, true)).toEqual({
      problemas: [],
      avisos: ["milho: a página vai de 17/08/2026 a 21/08/2026 e não traz 18/08/2026, que o histórico tem (a fonte retirou o dia? o valor publicado fica como está)"],
    });
    // a mirror may skip a day the source has
    expect(checkDiasSumidos([upd("2026-08-10", "2026-08-18", "2026-08-20")], () => guardado, false)).toEqual({ problemas: [], avisos: [] });
    // the window moved on: days before the page's oldest are not missing from it
    expect(checkDiasSumidos([upd("2026-08-19", "2026-08-20", "2026-08-21")], () => guardado, true)).toEqual({ problemas: [], avisos: [] });
    // a one-day page shows no span
    expect(checkDiasSumidos([upd("2026-08-21")], () => guardado, true)).toEqual({ problemas: [], avisos: [] });
  });

  it("through the update: CEPEA's oldest row 17/08 typed 10/08 on a later run is refused, and 10/08 never enters the history", async () => {
    await paginaEditadaRecusada("cepea/milho.html", trocarUma("<td>17/08/2026</td>", "<td>10/08/2026</td>"), ["milho"], {
      pagina: "cepea/milho",
      kind: "rejected",
      motivo: "milho: a página vai de 10/08/2026 a 04/09/2026 e não traz 17/08/2026, que o histórico tem, mas traz 10/08/2026",
    });
  }, 90_000);

  it("through the update: a row gone from the middle of CEPEA's table is said, and the rest of the page merged as before", async () => {
    const semLinha = (h: string) => {
      const out = h.replace(/<tr[^>]*>\s*<td>26\/08\/2026<\/td>[\s\S]*?<\/tr>/, "");
      if (out === h) throw new Error("a linha de 26/08/2026 não está na página");
      return out;
    };
    const { r, pagina, antes, series } = await comPaginaEditada("cepea/milho.html", semLinha, ["milho"]);
    expect(pagina("cepea/milho")).toMatchObject({ ok: true });
    expect(r.avisos).toContain("cepea/milho: milho: a página vai de 17/08/2026 a 04/09/2026 e não traz 26/08/2026, que o histórico tem (a fonte retirou o dia? o valor publicado fica como está)");
    expect(series["milho"]!.historico).toEqual(antes["milho"]!.historico);
  }, 90_000);
});
