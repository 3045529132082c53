/**
 * A date mistyped onto a weekend that keeps the page's order: CEPEA's Monday row typed a day early
 * (31/08 as 30/08, a Sunday) still sits between Friday and Tuesday, not in the future, not a
 * duplicate, within every span rule; Scot's table dated the Saturday after its day is a newer
 * day. Each was merged: a real price under a day with no market, and when the source put the
 * date right, the true day was filled in beside it and the wrong one stayed. The sources of the
 * catalogue date business days only (PageDef.diasUteis), so a new weekend day refuses the page.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkFimDeSemana } from "../../pipeline/check/gates.ts";
import type { SeriesUpdate } from "../../pipeline/history/assemble.ts";
import { allSeries, MIRRORS, SOURCES } from "../../pipeline/sources/index.ts";
import { FIXTURES, trocarUma } from "../helpers/pipeline.ts";
import { paginaEditadaRecusada, pelaCopiaEditada } from "../helpers/publicado.ts";

const def = (id: string) => allSeries().find((d) => d.id === id)!;
const upd = (id: string, ...datas: string[]): SeriesUpdate => ({ def: def(id), entries: datas.map((data) => ({ data, valor: 70 })), pracas: null });
const PERGUNTA = "é uma data digitada errada (a segunda-feira datada um ou dois dias antes, a sexta-feira depois)?";

describe("a new day on a weekend refuses a page of business days", () => {
  it("names the day, the weekday and the series, once per day", () => {
    // Monday 31/08/2026 typed 30/08 (a Sunday) between Friday 28/08 and Tuesday 01/09
    expect(checkFimDeSemana([upd("milho", "2026-08-28", "2026-08-30", "2026-09-01")], () => [], true)).toEqual([
      `milho: o dia 30/08/2026 é um domingo, que o histórico não tem, e esta página só traz dias úteis: ${PERGUNTA}`,
    ]);
    // a table dated a Saturday: one reason for every series of it, five named and the rest counted
    const ids = ["boi_gordo/SP", "boi_gordo/MS", "boi_gordo/GO", "boi_gordo/MG", "boi_gordo/MT", "boi_gordo/PR", "boi_gordo/RS"];
    expect(checkFimDeSemana(ids.map((id) => upd(id, "2026-08-08")), () => [], true)).toEqual([
      `boi_gordo/SP, boi_gordo/MS, boi_gordo/GO, boi_gordo/MG, boi_gordo/MT e mais 2: o dia 08/08/2026 é um sábado, que o histórico não tem, e esta página só traz dias úteis: ${PERGUNTA}`,
    ]);
  });

  it("leaves business days, a weekend day the history has (a backfill's), and pages that date calendar days", () => {
    expect(checkFimDeSemana([upd("milho", "2026-08-28", "2026-08-31", "2026-09-01")], () => [], true)).toEqual([]);
    expect(checkFimDeSemana([upd("milho", "2026-08-29", "2026-08-31")], () => [{ data: "2026-08-29", valor: 70 }], true)).toEqual([]);
    expect(checkFimDeSemana([upd("milho", "2026-08-29")], () => [], false)).toEqual([]);
  });

  it("every recorded page of every source and mirror dates business days only, as the catalogue declares", () => {
    const fimDeSemana = (datas: string[]) => datas.filter((d) => [0, 6].includes(new Date(`${d}T12:00:00Z`).getUTCDay()));
    let lidas = 0;
    for (const s of SOURCES) {
      for (const p of s.pages) {
        expect(p.diasUteis, `${s.id}/${p.id}`).toBe(true);
        const rows = p.parse(readFileSync(join(FIXTURES, s.id, `${p.id}.html`), "utf8")).rows;
        expect(fimDeSemana(rows.map((r) => r.data)), `${s.id}/${p.id}`).toEqual([]);
        lidas += rows.length;
      }
    }
    for (const m of Object.values(MIRRORS).flat()) {
      const arquivo = m.arquivo ?? `${m.id}/${m.path.split("?")[0]!.split("/").filter(Boolean).at(-1)}.html`;
      const rows = m.parse(readFileSync(join(FIXTURES, arquivo), "utf8")).rows;
      expect(fimDeSemana(rows.map((r) => r.data)), arquivo).toEqual([]);
      lidas += rows.length;
    }
    expect(lidas).toBeGreaterThan(900);
  });

  it("through the update: CEPEA's Monday row dated the Sunday before is refused, and nothing of the page merged", async () => {
    const { series } = await paginaEditadaRecusada("cepea/milho.html", trocarUma("<td>31/08/2026</td>", "<td>30/08/2026</td>"), ["milho"], {
      pagina: "cepea/milho",
      kind: "rejected",
      motivo: `milho: o dia 30/08/2026 é um domingo, que o histórico não tem, e esta página só traz dias úteis: ${PERGUNTA}`,
    });
    expect(series["milho"]!.historico.some((e) => e.data === "2026-08-30")).toBe(false);
  }, 90_000);

  it("through the update: Scot's table dated the Saturday after its day is refused", async () => {
    await paginaEditadaRecusada("scot/boi-gordo.html", (h) => h.split("05/08/2026").join("08/08/2026"), ["boi_gordo/SP", "boi_gordo/MS"], {
      pagina: "scot/boi-gordo",
      kind: "rejected",
      motivo: /boi_gordo\/[A-Z]{2}(, [a-z_]+\/[A-Z]{2}){4} e mais \d+: o dia 08\/08\/2026 é um sábado, que o histórico não tem/,
    });
  }, 90_000);

  it("through the update: Notícias Agrícolas' copy of Scot dated a Saturday is refused as Scot's own page would be", async () => {
    const { r, series } = await pelaCopiaEditada(trocarUma("Fechamento: 06/07/2026", "Fechamento: 04/07/2026"), ["boi_gordo/SP"]);
    const scot = r.outcomes.find((o) => o.source === "scot" && o.page === "boi-gordo");
    expect(scot).toMatchObject({ ok: false, kind: "rejected", url: expect.stringContaining("noticiasagricolas.com.br") });
    expect(scot!.ok === false && scot!.reason).toContain("o dia 04/07/2026 é um sábado");
    expect(series["boi_gordo/SP"]!.historico.some((e) => e.data === "2026-07-04")).toBe(false);
  }, 90_000);
});
