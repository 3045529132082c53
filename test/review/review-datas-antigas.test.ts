/**
 * A mistyped date that keeps the page's order: the oldest row of a CEPEA table with the year typed
 * wrong (17/08/2025 for 17/08/2026), Scot's table dated a year back, CEPEA's suíno rows read
 * month-first. The order checks pass (the row is still the oldest, Scot's page has one day), the
 * day is not in the history, and it was added as a gap fill: a real price under a wrong date, with
 * the day after it showing a "variation" across a year. A new day more than DIAS_ATRAS_MAX days
 * before the series' newest day (stored or on the page) now refuses the page; days the history
 * has are still only revisions (a lagging mirror), and backfills are not judged by it.
 */
import { readFileSync } from "node:fs";
import { cp, rm } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkDiasAntigos, DIAS_ATRAS_MAX, DIAS_SALTO_MAX } from "../../pipeline/check/gates.ts";
import type { SeriesUpdate } from "../../pipeline/history/assemble.ts";
import { allSeries } from "../../pipeline/sources/index.ts";
import { cepea } from "../../pipeline/sources/cepea.ts";
import { cleanup, editPage, FIXTURES, readJson, replay, replayDir, tempSite, trocarUma } from "../helpers/pipeline.ts";
import { paginaEditadaRecusada, segundaExecucao } from "../helpers/publicado.ts";

const milho = allSeries().find((d) => d.id === "milho")!;
const NOW = new Date("2026-09-10T12:00:00-03:00");
const dia = (data: string, valor = 70) => ({ data, valor });
const upd = (...datas: string[]): SeriesUpdate => ({ def: milho, entries: datas.map((d) => dia(d)), pracas: null });

/** The frango congelado table's oldest row (the first 17/08/2026 of the page) with the year typed wrong. */
const anoErrado = trocarUma("<td>17/08/2026</td>", "<td>17/08/2025</td>");

describe("a new day long before the series' newest day refuses the page", () => {
  const talvez = "é uma data digitada errada (dia e mês trocados, ano errado) ou uma cópia antiga da página?";
  /** the business days from `de` to `ate`, as a CEPEA table lists them (oldest first here) */
  const uteis = (de: string, ate: string) => {
    const out: string[] = [];
    for (let t = Date.parse(de); t <= Date.parse(ate); t += 864e5) if (![0, 6].includes(new Date(t).getUTCDay())) out.push(new Date(t).toISOString().slice(0, 10));
    return out;
  };
  const guardado = [dia("2026-08-03"), dia("2026-09-04")];

  it("judges new days against the newest stored day, or the page's own newest day on a first run", () => {
    // a mirror's one day (a mirror may lag), not stored, 50 days before the newest stored day
    expect(checkDiasAntigos([upd("2026-07-16")], () => [...guardado, dia("2026-09-04")], NOW, false)).toEqual([
      `milho: o dia 16/07/2026 não está no histórico e fica 50 dias antes do último dia publicado (04/09/2026); ` +
        `nenhuma página mostra dias tão antigos (o máximo é ${DIAS_ATRAS_MAX}): ${talvez}`,
    ]);
    expect(checkDiasAntigos([upd("2025-09-04")], () => guardado, NOW, false)[0]).toContain("fica 365 dias antes do último dia publicado (04/09/2026)");
    // exactly DIAS_ATRAS_MAX back is still a page's day; a stored day any age is a revision, not a gap fill
    expect(checkDiasAntigos([upd("2026-07-21")], () => guardado, NOW, false)).toEqual([]);
    expect(checkDiasAntigos([upd("2026-08-03")], () => guardado, NOW)).toEqual([]);
    // a first run has only the page to go by: its oldest row a year back
    const pagina = uteis("2026-08-17", "2026-09-04");
    expect(checkDiasAntigos([upd("2025-08-17", ...pagina.slice(1))], () => [], NOW)[0]).toContain("o dia 17/08/2025 não está no histórico e fica 383 dias antes do dia mais novo da página (04/09/2026)");
    expect(checkDiasAntigos([upd(...pagina)], () => [], NOW)).toEqual([]);
    // a day in the future (refused by checkUpdates) is not the reference: the page's other days are not flagged
    expect(checkDiasAntigos([upd(...pagina, "2027-09-04")], () => guardado, NOW)).toEqual([]);
    // and a page of future days only has nothing to judge here (no "NaN dias")
    expect(checkDiasAntigos([upd("2027-09-04")], () => [], NOW)).toEqual([]);
  });

  it("a day more than DIAS_SALTO_MAX days before the series' next day, that no other series of the page has: a month typed wrong within the page's span", () => {
    const pagina = uteis("2026-08-17", "2026-09-04");
    // the oldest row, 17/08, typed 24/07: 42 days before the newest (within DIAS_ATRAS_MAX), 25 before the next row
    const r = checkDiasAntigos([upd("2026-07-24", ...pagina.slice(1))], () => [], NOW);
    expect(r).toEqual([
      `milho: na página, o dia seguinte a 24/07/2026 é 18/08/2026, 25 dias depois, e nenhuma outra série da página tem 24/07/2026; ` +
        `nenhuma página salta mais de ${DIAS_SALTO_MAX} dias entre dois dias seguidos: ${talvez}`,
    ]);
    // on a page of two tables, the other table's days do not vouch for a day they do not have
    const outra = { def: allSeries().find((d) => d.id === "soja")!, entries: pagina.map((d) => dia(d)), pracas: null };
    expect(checkDiasAntigos([upd("2026-07-24", ...pagina.slice(1)), outra], () => [], NOW)).toHaveLength(1);
    // a series absent for more than two weeks (a state of suíno vivo) steps over days the others have
    expect(checkDiasAntigos([upd(pagina[0]!, pagina.at(-1)!), outra], () => [], NOW)).toEqual([]);
    // Carnaval and the year's end step less than that
    expect(checkDiasAntigos([upd("2025-12-23", "2026-01-02", "2026-01-05")], () => [], new Date("2026-01-06T12:00:00-03:00"))).toEqual([]);
  });

  it("a source's own page of one day: a new day older than the last published one (day and month swapped)", () => {
    // Scot's table of 06/07 dated 07/06, with the history up to 03/07
    const h = [dia("2026-07-02"), dia("2026-07-03")];
    expect(checkDiasAntigos([upd("2026-06-07")], () => h, NOW)).toEqual([
      `milho: a página traz um só dia, 07/06/2026, que o histórico não tem e que é anterior ao último dia publicado (03/07/2026); a própria fonte não publica um dia atrasado: ${talvez}`,
    ]);
    // a mirror may lag and fill a day missed; the same day already stored is a revision; a newer day is news
    expect(checkDiasAntigos([upd("2026-06-07")], () => h, NOW, false)).toEqual([]);
    expect(checkDiasAntigos([upd("2026-07-02")], () => h, NOW)).toEqual([]);
    expect(checkDiasAntigos([upd("2026-07-06")], () => h, NOW)).toEqual([]);
    // a page of several days where one series shows only one of them is not a one-day page
    expect(checkDiasAntigos([upd("2026-06-30"), upd("2026-06-30", "2026-07-01", "2026-07-06")], () => h, NOW)).toEqual([]);
  });

  it("every recorded CEPEA page spans less than DIAS_ATRAS_MAX days, so none is refused by it", () => {
    for (const p of cepea.pages) {
      const rows = p.parse(readFileSync(join(FIXTURES, "cepea", `${p.id}.html`), "utf8")).rows;
      const datas = rows.map((r) => r.data).sort();
      const span = (Date.parse(datas.at(-1)!) - Date.parse(datas[0]!)) / 86_400_000;
      expect(span, p.id).toBeLessThan(DIAS_ATRAS_MAX);
    }
  });

  it("through the update: a CEPEA table's oldest row a year back is refused on a first run and on a later one", async () => {
    const site = await tempSite();
    const dir = await replayDir();
    try {
      await editPage(dir, "cepea/frango.html", anoErrado);
      const primeira = await replay(dir, site, "2026-09-27T12:00:00-03:00");
      const frango = primeira.outcomes.find((o) => o.source === "cepea" && o.page === "frango");
      expect(frango).toMatchObject({ ok: false, kind: "rejected" });
      expect(frango!.ok === false && frango!.reason).toContain("frango_congelado: o dia 17/08/2025 não está no histórico e fica 383 dias antes do dia mais novo da página (04/09/2026)");
      await editPage(dir, "cepea/frango.html", (h) => h.replace("<td>17/08/2025</td>", "<td>17/08/2026</td>"));
      expect((await replay(dir, site, "2026-09-28T12:00:00-03:00")).exitCode).toBe(0);
      const antes = await readJson(site, "api/v1/cotacao/frango_congelado.json");
      expect(antes.historico.at(0).data).toBe("2026-08-17");
      await editPage(dir, "cepea/frango.html", anoErrado);
      const r = await replay(dir, site, "2026-09-29T12:00:00-03:00");
      expect(r.outcomes.find((o) => o.source === "cepea" && o.page === "frango")).toMatchObject({ ok: false, kind: "rejected" });
      expect((await readJson(site, "api/v1/cotacao/frango_congelado.json")).historico).toEqual(antes.historico);
    } finally {
      await cleanup(site, dir);
    }
  }, 90_000);

  it("through the update: Notícias Agrícolas' copy of Scot six months behind (its recording, 05/02/2026) is refused, naming the lag", async () => {
    const { pagina, antes, series } = await segundaExecucao(async (dir) => {
      await rm(join(dir, "scot/boi-gordo.html"));
      await cp(join(FIXTURES, "noticias-agricolas"), join(dir, "noticias-agricolas"), { recursive: true });
    }, ["boi_gordo/SP"]);
    const scot = pagina("scot/boi-gordo");
    expect(scot).toMatchObject({ ok: false, kind: "rejected", url: expect.stringContaining("noticiasagricolas.com.br") });
    expect(scot.ok === false && scot.reason).toContain("boi_gordo/SP: o dia 05/02/2026 não está no histórico e fica 181 dias antes do último dia publicado (05/08/2026)");
    expect(scot.ok === false && scot.reason).toContain("ou uma cópia antiga da página?");
    expect(series["boi_gordo/SP"]!.historico).toEqual(antes["boi_gordo/SP"]!.historico);
  }, 90_000);

  it("through the update: Scot's table dated a year back is never added to the history", async () => {
    const { series } = await paginaEditadaRecusada("scot/boi-gordo.html", (h) => h.split("05/08/2026").join("05/08/2025"), ["boi_gordo/SP"], {
      pagina: "scot/boi-gordo",
      kind: "rejected",
      motivo: "o dia 05/08/2025 não está no histórico e fica 365 dias antes do último dia publicado (05/08/2026)",
    });
    expect(series["boi_gordo/SP"]!.historico.some((e) => e.data === "2025-08-05")).toBe(false);
  }, 90_000);
});
