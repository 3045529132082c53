/**
 * Audit 7, status.json when a mirror serves a page whose source is failing: `npm run update` on
 * the live path against local sources (Scot's page a challenge that never clears, its Notícias
 * Agrícolas republication answering).
 *
 * A mirror's success reset the page's failure count and reason: status.json said the page was
 * fine, and nothing published said Scot's own site had been refusing us for days. The page is
 * still ok (the day was served; the source is not failed) and its entry keeps the source page's
 * failure: `estado_da_fonte`, `motivo`, `falhas_consecutivas`, `falhando_desde`, until Scot
 * itself answers.
 */
import { describe, expect, it } from "vitest";
import { copiaRedatada } from "../helpers/publicado.ts";
import { endlessChallenge, fixture, ok, SOURCE_PAGES } from "../fetch/server.ts";
import { HEALTHY, fontesESiteNoTeste, liveUpdate, type Sites } from "../fetch/atualizar-ao-vivo.ts";

async function update(s: Sites, site: string, at: string) {
  const { report, status } = await liveUpdate(s, site, new Date(at), HEALTHY);
  const scot = status.fontes.find((f) => f.id === "scot")!;
  return { report, scot, boi: scot.paginas.find((p) => p.id === "boi-gordo")! };
}

describe("status.json: Scot's page blocked, its mirror serving the day", () => {
  const t = fontesESiteNoTeste();
  const boiPath = Object.entries(SOURCE_PAGES.scot).find(([, f]) => f === "scot/boi-gordo.html")![0];

  it("keeps the source page's failure in sight, counted run after run, without failing the source", async () => {
    const primeiro = await update(t.s, t.site, "2026-09-27T12:00:00-03:00");
    expect(primeiro.boi).toMatchObject({ estado: "ok", via: null, caminho: "http", falhas_consecutivas: 0 });

    t.s.scot.route(boiPath, endlessChallenge());
    t.s.na.route("/cotacoes/boi-gordo/boi-gordo-scot-consultoria", ok(copiaRedatada(fixture("noticias-agricolas/boi-gordo-scot-consultoria.html"))));
    const bloqueada = "2026-09-28T18:17:00-03:00";
    const r1 = await update(t.s, t.site, bloqueada);
    expect(r1.report.exitCode).toBe(0);
    expect(r1.boi).toMatchObject({
      estado: "ok",
      via: "noticias-agricolas",
      caminho: "espelho",
      estado_da_fonte: "blocked",
      falhas_consecutivas: 1,
      falhando_desde: bloqueada,
    });
    expect(r1.boi.motivo).toMatch(/desafio/);
    // the source is not failed: its days are Scot's own (stale here, the recorded table is from August)
    expect(r1.scot.estado).not.toMatch(/^(failed|blocked)$/);
    expect(r1.scot).toMatchObject({ falhas_consecutivas: 1, falhando_desde: bloqueada });

    const r2 = await update(t.s, t.site, "2026-09-28T19:43:00-03:00");
    expect(r2.boi).toMatchObject({ estado: "ok", via: "noticias-agricolas", estado_da_fonte: "blocked", falhas_consecutivas: 2, falhando_desde: bloqueada, ultima_tentativa: "2026-09-28T19:43:00-03:00" });

    // Scot answers again
    t.s.scot.route(boiPath, ok(fixture("scot/boi-gordo.html")));
    const r3 = await update(t.s, t.site, "2026-09-29T18:17:00-03:00");
    expect(r3.boi).toMatchObject({ estado: "ok", via: null, caminho: "http", motivo: null, falhas_consecutivas: 0, falhando_desde: null });
    expect(r3.boi.estado_da_fonte).toBeUndefined();
    expect(r3.scot.falhas_consecutivas).toBe(0);
  }, 60_000);
});
