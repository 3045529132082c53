/**
 * Audit 3, CEPEA tables without US$: nothing tied the value read to the indicator. Citros' "A
 * Prazo" and "5 dias" (its five-day moving average) are both R$ per box, within 2 % of each other
 * on every recorded day: with the two labels the other way round, the page was read whole and the
 * moving average published as laranja indústria and laranja pera (04/09/2026: 31,14 instead of
 * 30,73), the 14 days already published revised within the 2 % bound. On the suíno vivo table, PR
 * and SC labels swapped on 04/09/2026 published PR at 4,48 and SC at 4,42 (the other's price).
 * CEPEA's "Var./Dia" is computed from the two values the table prints (every recorded row within
 * 0,005 point): where the value read is not the one it describes, the page is now refused whole.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cepea } from "../../pipeline/sources/cepea.ts";
import { cleanup, editPage, FIXTURES, readJson, replay, replayDir, tempSite, trocarEntreSi } from "../helpers/pipeline.ts";
import { parseError } from "../helpers/parse-error.ts";

const html = (id: string) => readFileSync(join(FIXTURES, "cepea", `${id}.html`), "utf8");
const page = (id: string) => cepea.pages.find((p) => p.id === id)!;

/** Citros with "A Prazo" and "5 dias" labelled the other way round in the two tables that have both. */
const citrosRotulosTrocados = (h: string) => {
  const out = h.replace(/<th>A Prazo<\/th>([\s\S]*?)<th>5 dias<\/th>/g, "<th>5 dias</th>$1<th>A Prazo</th>");
  if (out === h) throw new Error("edição não mudou citros");
  return out;
};
/** Suíno vivo with the PR and SC labels swapped on the newest day (their first rows). */
const suinoPrScTrocados = trocarEntreSi(">PR - a retirar<", ">SC - a retirar<");

describe("audit 3: CEPEA's Var./Dia ties the price read to the indicator where there is no US$", () => {
  it("the recorded pages are read as before", () => {
    expect(page("citros").parse(html("citros")).rows.find((r) => r.produto === "laranja_industria" && r.data === "2026-09-04")?.valor).toBe(30.73);
    expect(page("suino").parse(html("suino")).rows.find((r) => r.produto === "suino_vivo" && r.uf === "PR" && r.data === "2026-09-04")?.valor).toBe(4.42);
  });

  it("citros: 'A Prazo' and '5 dias' labelled the other way round refuse the page (the moving average is not the price)", () => {
    const err = parseError(() => page("citros").parse(citrosRotulosTrocados(html("citros"))));
    expect(err.kind).toBe("parse_error");
    expect(err.message).toContain('tabela "Laranja Indústria"');
    expect(err.message).toContain('"Var./Dia" -1,82% não confere com os valores');
    expect(err.message).toContain("31,14 em 04/09/2026");
  });

  it("suíno vivo: PR and SC labels swapped on the newest day refuse the page", () => {
    const err = parseError(() => page("suino").parse(suinoPrScTrocados(html("suino"))));
    expect(err.message).toContain('tabela "INDICADOR DO SUÍNO VIVO CEPEA/ESALQ (R$/kg)"');
    expect(err.message).toContain("não confere com os valores de SC - a retirar");
  });

  it("through the update: neither page changes a published number", async () => {
    const site = await tempSite();
    const dir = await replayDir();
    try {
      expect((await replay(dir, site, "2026-09-27T12:00:00-03:00")).exitCode).toBe(0);
      const antes = {
        industria: await readJson(site, "api/v1/cotacao/laranja_industria.json"),
        pera: await readJson(site, "api/v1/cotacao/laranja_pera.json"),
        pr: await readJson(site, "api/v1/cotacao/suino_vivo/PR.json"),
        sc: await readJson(site, "api/v1/cotacao/suino_vivo/SC.json"),
      };
      await editPage(dir, "cepea/citros.html", citrosRotulosTrocados);
      await editPage(dir, "cepea/suino.html", suinoPrScTrocados);
      const r = await replay(dir, site, "2026-09-28T12:00:00-03:00");
      for (const id of ["citros", "suino"]) {
        expect(r.outcomes.find((o) => o.source === "cepea" && o.page === id)).toMatchObject({ ok: false, kind: "parse_error" });
      }
      expect((await readJson(site, "api/v1/cotacao/laranja_industria.json")).historico).toEqual(antes.industria.historico);
      expect((await readJson(site, "api/v1/cotacao/laranja_pera.json")).historico).toEqual(antes.pera.historico);
      expect((await readJson(site, "api/v1/cotacao/suino_vivo/PR.json")).historico).toEqual(antes.pr.historico);
      expect((await readJson(site, "api/v1/cotacao/suino_vivo/SC.json")).historico).toEqual(antes.sc.historico);
      expect(antes.industria.historico.at(-1)).toEqual({ data: "2026-09-04", valor: 30.73 });
      expect(antes.pr.historico.at(-1)).toEqual({ data: "2026-09-04", valor: 4.42 });
    } finally {
      await cleanup(site, dir);
    }
  }, 60_000);
});
