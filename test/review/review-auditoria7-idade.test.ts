/**
 * Audit 7, how old a published day is (status.json's `stale`, the dashboard's "desatualizado").
 *
 * 1. Age was counted in calendar days: a source that simply did not publish over Carnival, Good
 *    Friday, Christmas–New Year (or a weekend) was reported stale. The catalogue's pages publish
 *    on business days, so their age is now counted in dias úteis: Monday to Friday, less the
 *    national holidays and Carnival, Good Friday and Corpus Christi (from Easter).
 * 2. A mirror that served the day reset the page's failure count and reason: status.json no
 *    longer showed that the source's own page was failing. The page stays ok (the source is not
 *    failed) and keeps counting its origin's failures, with their kind (`estado_da_fonte`).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { validateDocument } from "../../pipeline/contract/schemas.ts";
import { diasUteisEntre, diaUtil, feriadosNacionais, motivoDesatualizada, pascoa, passouDoLimite } from "../../pipeline/domain/idade.ts";
import type { StatusFile } from "../../pipeline/domain/publicados.ts";
import { frescor, statusNoDia } from "../../pipeline/serve/web/dom.ts";
import { nextStatus, type PageOutcome } from "../../pipeline/run/status.ts";
import { allSeries, SOURCES } from "../../pipeline/sources/index.ts";
import { testConfig } from "../helpers/pipeline.ts";

/** Easter by Gauss's algorithm with its two Gregorian exceptions: another method than the code's. */
function pascoaDeGauss(ano: number): string {
  const a = ano % 19;
  const b = ano % 4;
  const c = ano % 7;
  const k = Math.floor(ano / 100);
  const p = Math.floor((13 + 8 * k) / 25);
  const q = Math.floor(k / 4);
  const M = (15 - p + k - q) % 30;
  const N = (4 + k - q) % 7;
  const d = (19 * a + M) % 30;
  const e = (2 * b + 4 * c + 6 * d + N) % 7;
  let dia = 22 + d + e; // in March
  if (d === 29 && e === 6) dia = 50; // 19 April
  else if (d === 28 && e === 6 && (11 * M + 11) % 30 < 19) dia = 49; // 18 April
  const mes = dia > 31 ? 4 : 3;
  return `${ano}-0${mes}-${String(dia > 31 ? dia - 31 : dia).padStart(2, "0")}`;
}

describe("Easter and Brazil's national holidays", () => {
  it("dates Easter as the calendars print it", () => {
    const conhecidas: Record<number, string> = {
      1943: "1943-04-25", // the latest possible
      1981: "1981-04-19", // Gauss's first exception
      2000: "2000-04-23",
      2008: "2008-03-23",
      2011: "2011-04-24",
      2019: "2019-04-21",
      2020: "2020-04-12",
      2021: "2021-04-04",
      2022: "2022-04-17",
      2023: "2023-04-09",
      2024: "2024-03-31",
      2025: "2025-04-20",
      2026: "2026-04-05",
      2027: "2027-03-28",
      2028: "2028-04-16",
      2038: "2038-04-25",
      2049: "2049-04-18", // Gauss's second exception
      2285: "2285-03-22", // the earliest possible
    };
    for (const [ano, dia] of Object.entries(conhecidas)) expect(pascoa(+ano), ano).toBe(dia);
    for (let ano = 1900; ano <= 2200; ano++) expect(pascoa(ano), String(ano)).toBe(pascoaDeGauss(ano));
  });

  it("derives Carnival, Good Friday and Corpus Christi from Easter; 20/11 only from 2024", () => {
    const f2026 = feriadosNacionais(2026);
    expect([...f2026]).toEqual([
      ["2026-01-01", "Confraternização Universal"],
      ["2026-02-16", "Carnaval (segunda-feira)"],
      ["2026-02-17", "Carnaval (terça-feira)"],
      ["2026-04-03", "Sexta-feira Santa"],
      ["2026-04-21", "Tiradentes"],
      ["2026-05-01", "Dia do Trabalho"],
      ["2026-06-04", "Corpus Christi"],
      ["2026-09-07", "Independência do Brasil"],
      ["2026-10-12", "Nossa Senhora Aparecida"],
      ["2026-11-02", "Finados"],
      ["2026-11-15", "Proclamação da República"],
      ["2026-11-20", "Dia Nacional de Zumbi e da Consciência Negra"],
      ["2026-12-25", "Natal"],
    ]);
    expect([...feriadosNacionais(2025).keys()]).toEqual(expect.arrayContaining(["2025-03-03", "2025-03-04", "2025-04-18", "2025-06-19", "2025-11-20"]));
    expect(feriadosNacionais(2023).has("2023-11-20")).toBe(false);
    expect(feriadosNacionais(2024).has("2024-11-20")).toBe(true);
    // 2000: Good Friday on Tiradentes, one day off
    expect(feriadosNacionais(2000).get("2000-04-21")).toBe("Tiradentes");
    // Ash Wednesday, 24/12 and 31/12 are business days; so is São Paulo's 09/07
    expect(["2026-02-18", "2026-12-24", "2026-12-31", "2026-07-09"].map(diaUtil)).toEqual([true, true, true, true]);
    expect(["2026-02-16", "2026-02-17", "2026-04-03", "2026-06-04", "2026-11-20", "2026-09-19"].map(diaUtil)).toEqual([false, false, false, false, false, false]);
  });

  it("counts the business days after a day up to today, holidays and weekends left out", () => {
    // Friday before Carnival -> Ash Wednesday, Thursday
    expect(diasUteisEntre("2026-02-13", "2026-02-18")).toBe(1);
    expect(diasUteisEntre("2026-02-13", "2026-02-19")).toBe(2);
    // Wednesday 23/12 -> Monday 04/01: 24, 28, 29, 30, 31 and 04 (25/12 and 01/01 are Fridays)
    expect(diasUteisEntre("2026-12-23", "2027-01-04")).toBe(6);
    // a plain week
    expect(diasUteisEntre("2026-09-18", "2026-09-25")).toBe(5);
    expect(diasUteisEntre("2026-09-25", "2026-09-25")).toBe(0);
    expect(diasUteisEntre("2026-09-25", "2026-09-20")).toBe(0);
    // the fast count is the day-by-day one, over years and holidays
    const dia = fc.integer({ min: Date.UTC(2019, 0, 1), max: Date.UTC(2031, 0, 1) }).map((t) => new Date(Math.floor(t / 86_400_000) * 86_400_000).toISOString().slice(0, 10));
    fc.assert(
      fc.property(dia, fc.integer({ min: 0, max: 800 }), (a, n) => {
        let esperado = 0;
        const t0 = Date.parse(`${a}T00:00:00Z`);
        for (let i = 1; i <= n; i++) if (diaUtil(new Date(t0 + i * 86_400_000).toISOString().slice(0, 10))) esperado++;
        const b = new Date(t0 + n * 86_400_000).toISOString().slice(0, 10);
        expect(diasUteisEntre(a, b)).toBe(esperado);
      }),
      { numRuns: 300 },
    );
  });
});

describe("status.json: stale across a holiday week, not across a source that stopped", () => {
  const config = testConfig("/nao-usado");
  /** status.json when every series' last day is `dia`, judged at noon of `hoje` in Brasília. */
  const status = (dia: string, hoje: string) => {
    const series = new Map(allSeries().map((d) => [d.id, { data_cotacao: dia }]));
    return nextStatus(null, [], series, config, new Date(`${hoje}T12:00:00-03:00`), {});
  };
  const cepea = (s: StatusFile) => s.fontes.find((f) => f.id === "cepea")!;

  it("the catalogue's sources publish on business days and say so", () => {
    const s = status("2026-09-25", "2026-09-28");
    for (const f of s.fontes) expect(f, f.id).toMatchObject({ max_idade_dias: 3, contagem_idade: "dias_uteis", estado: "ok" });
    expect(validateDocument("api/v1/status.json", s)).toEqual([]);
  });

  it("Carnival: the Friday before is not stale on the Thursday after Ash Wednesday", () => {
    // calendar: 6 days (the old rule: more than 5); business days: Ash Wednesday and Thursday
    expect(cepea(status("2026-02-13", "2026-02-19")).estado).toBe("ok");
    expect(status("2026-02-13", "2026-02-19").series.every((x) => x.estado === "ok")).toBe(true);
  });

  it("Christmas and New Year: 24/12 is not stale on 30/12, 30/12 not on 05/01; each is the next day", () => {
    // 28, 29, 30 (the old rule: six calendar days, stale)
    expect(cepea(status("2026-12-24", "2026-12-30")).estado).toBe("ok");
    const depois = status("2026-12-24", "2026-12-31");
    expect(cepea(depois)).toMatchObject({ estado: "stale", motivo: "último dado de 24/12/2026, mais de 3 dias úteis atrás" });
    expect(depois.series.every((x) => x.estado === "stale")).toBe(true);
    // 31, 04/01, 05/01 across New Year's Day and a weekend
    expect(cepea(status("2026-12-30", "2027-01-05")).estado).toBe("ok");
    expect(cepea(status("2026-12-30", "2027-01-06")).estado).toBe("stale");
  });

  it("Holy Week and Tiradentes: Wednesday 01/04 is still current on Tuesday 07/04", () => {
    // Good Friday 03/04; 02, 06, 07 are the business days (the old rule: six calendar days)
    expect(cepea(status("2026-04-01", "2026-04-07")).estado).toBe("ok");
    expect(cepea(status("2026-04-01", "2026-04-08")).estado).toBe("stale");
    // Friday 17/04 -> Thursday 23/04 across Tiradentes (Tuesday 21/04): 20, 22, 23
    expect(cepea(status("2026-04-17", "2026-04-23")).estado).toBe("ok");
    expect(cepea(status("2026-04-17", "2026-04-24")).estado).toBe("stale");
  });

  it("a source that stopped in an ordinary week is stale after three business days, as the old calendar rule said", () => {
    // Friday 18/09 -> Wednesday 23/09: 21, 22, 23 = 3, the limit
    expect(cepea(status("2026-09-18", "2026-09-23")).estado).toBe("ok");
    // Thursday 24/09: four business days without a new day (the old rule: six calendar days)
    expect(cepea(status("2026-09-18", "2026-09-24"))).toMatchObject({ estado: "stale", motivo: "último dado de 18/09/2026, mais de 3 dias úteis atrás" });
    expect(status("2026-09-18", "2026-09-24").series.every((x) => x.estado === "stale")).toBe(true);
  });

  it("the dashboard's rule is status.json's: the same verdict on every day of two years", () => {
    const fonteDaSerie = new Map(allSeries().map((d) => [d.id, d.fonte as string]));
    const ultimo = "2026-12-18";
    const inicial = status(ultimo, ultimo);
    for (let t = Date.parse(`${ultimo}T00:00:00Z`); t <= Date.parse("2028-01-10T00:00:00Z"); t += 86_400_000 * 3) {
      const hoje = new Date(t).toISOString().slice(0, 10);
      const doRun = status(ultimo, hoje);
      const noPainel = statusNoDia(inicial, hoje, (id) => fonteDaSerie.get(id));
      expect(noPainel.fontes.map((f) => [f.id, f.estado, f.motivo]), hoje).toEqual(doRun.fontes.map((f) => [f.id, f.estado, f.motivo]));
      expect(noPainel.series, hoje).toEqual(doRun.series);
      const limite = SOURCES.find((s) => s.id === "cepea")!.maxIdadeDias;
      const f = frescor(ultimo, hoje, { maxIdadeDias: limite, contagem: "dias_uteis" });
      expect(f === "atrasado", hoje).toBe(cepea(doRun).estado === "stale");
    }
    expect(passouDoLimite("2026-12-23", "2027-01-04", 5, "dias_uteis")).toBe(true);
    expect(motivoDesatualizada("2026-12-23", 5, "dias_corridos")).toBe("último dado de 23/12/2026, mais de 5 dias atrás");
  });

  it("a status.json written before contagem_idade is read as it was written: calendar days", () => {
    const s = status("2026-02-13", "2026-02-13");
    const antigo = { ...s, fontes: s.fontes.map(({ contagem_idade: _, ...f }) => f) };
    expect(statusNoDia(antigo, "2026-02-19", () => "cepea").fontes.find((f) => f.id === "cepea")!.estado).toBe("stale");
    expect(statusNoDia(s, "2026-02-19", () => "cepea").fontes.find((f) => f.id === "cepea")!.estado).toBe("ok");
  });
});

describe("status.json: a mirror serving the day keeps the source's own failure in sight", () => {
  const config = testConfig("/nao-usado");
  const series = new Map(allSeries().map((d) => [d.id, { data_cotacao: "2026-09-25" }]));
  const url = "https://www.scotconsultoria.com.br/cotacoes/mercado-fisico-do-boi";
  const bloqueio = "desafio Cloudflare (HTTP 403); navegador desativado";
  const espelho = (changed: boolean): PageOutcome => ({
    source: "scot",
    page: "boi-gordo",
    ok: true,
    url,
    via: "noticias-agricolas",
    caminho: "espelho",
    viaUrl: "https://www.noticiasagricolas.com.br/cotacoes/boi-gordo/boi-gordo-scot-consultoria",
    origem: { kind: "blocked", reason: bloqueio },
    changed,
  });
  const run = (prev: StatusFile | null, o: PageOutcome[], quando: string) => nextStatus(prev, o, series, config, new Date(quando), {});
  const pagina = (s: StatusFile) => s.fontes.find((f) => f.id === "scot")!.paginas.find((p) => p.id === "boi-gordo")!;

  it("counts the origin's failures while the mirror serves, without failing the source, and resets when the source answers", () => {
    const primeiro = "2026-09-28T18:17:00-03:00";
    const s1 = run(null, [espelho(true)], primeiro);
    expect(pagina(s1)).toMatchObject({
      estado: "ok",
      via: "noticias-agricolas",
      caminho: "espelho",
      estado_da_fonte: "blocked",
      motivo: bloqueio,
      falhas_consecutivas: 1,
      falhando_desde: primeiro,
      ultimo_sucesso: primeiro,
    });
    expect(s1.fontes.find((f) => f.id === "scot")).toMatchObject({ estado: "ok", motivo: null, falhas_consecutivas: 1, falhando_desde: primeiro });
    expect(validateDocument("api/v1/status.json", s1)).toEqual([]);

    // the next run: the mirror again, nothing new; the source's page still blocked
    const s2 = run(s1, [espelho(false)], "2026-09-28T19:43:00-03:00");
    expect(pagina(s2)).toMatchObject({ estado: "ok", estado_da_fonte: "blocked", falhas_consecutivas: 2, falhando_desde: primeiro, ultimo_sucesso: primeiro, ultima_tentativa: "2026-09-28T19:43:00-03:00" });
    expect(s2.fontes.find((f) => f.id === "scot")!.estado).toBe("ok");

    // the source's own page answers again
    const s3 = run(s2, [{ source: "scot", page: "boi-gordo", ok: true, url, via: null, caminho: "http", viaUrl: null, changed: false }], "2026-09-29T18:17:00-03:00");
    expect(pagina(s3)).toMatchObject({ estado: "ok", via: null, caminho: "http", motivo: null, falhas_consecutivas: 0, falhando_desde: null });
    expect(pagina(s3).estado_da_fonte).toBeUndefined();
  });

  it("a failure with no mirror, then the mirror: the count goes on from the first failure", () => {
    const s1 = run(null, [{ source: "scot", page: "boi-gordo", ok: false, url, kind: "blocked", reason: bloqueio }], "2026-09-28T18:17:00-03:00");
    expect(s1.fontes.find((f) => f.id === "scot")!.estado).toBe("blocked");
    const s2 = run(s1, [espelho(true)], "2026-09-28T19:43:00-03:00");
    expect(pagina(s2)).toMatchObject({ estado: "ok", estado_da_fonte: "blocked", falhas_consecutivas: 2, falhando_desde: "2026-09-28T18:17:00-03:00", ultimo_sucesso: "2026-09-28T19:43:00-03:00" });
    expect(s2.fontes.find((f) => f.id === "scot")!.estado).toBe("ok");
  });
});
