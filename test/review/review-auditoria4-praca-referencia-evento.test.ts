/**
 * Audit 4 (output side), a UF's reference praça changed in cotacao.config.json: the series is
 * re-based on the new praça (every stored day takes its price), but the price_changed event and
 * the commit message compared the old praça's last price with the new praça's. MS published
 * 05/08/2026 on C. Grande (338); with Três Lagoas chosen, the next table (06/08, every price as
 * the day before, Três Lagoas 331 both days) gave a webhook/feed "price_changed" of 338 → 331,
 * -R$ 7,00 (-2,07 %), and a commit titled "Boi gordo (MS, Scot Consultoria) -2,1%": no market
 * move, the difference between two praças (the series' own `variacao` said 0,00 %). Now the
 * event's "before" is the last day on the new praça (the re-base of that day stays in its
 * historico_revisado event), and the commit message lists the series under other changes,
 * saying the reference praça changed, with no variation between the two praças.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Evento } from "../../pipeline/events/model.ts";
import { buildChangelog } from "../../pipeline/publish/changelog.ts";
import { cleanup, editPage, readJson, replay, replayDir, replayComConfig, tempSite } from "../helpers/pipeline.ts";

const MS = "api/v1/cotacao/boi_gordo/MS.json";
/** Três Lagoas' à vista price in the recorded table (05/08/2026): 331,00 */
const TRES_LAGOAS_A_VISTA = /(MS Três Lagoas<\/td>\s*<td>)331,00(<\/td>)/;

async function trocaDePraca(edicaoDoDia2: (h: string) => string) {
  const site = await tempSite();
  const p1 = await replayDir();
  const p2 = await replayDir();
  try {
    expect((await replay(p1, site, "2026-09-27T12:00:00-03:00")).exitCode).toBe(0);
    const antes = await readFile(join(site, MS), "utf8");
    expect(JSON.parse(antes)).toMatchObject({ praca: "C. Grande", valor: 338, data_cotacao: "2026-08-05" });
    await editPage(p2, "scot/boi-gordo.html", (h) => edicaoDoDia2(h.replaceAll("05/08/2026", "06/08/2026")));
    const r = await replayComConfig(p2, site, "2026-09-27T13:00:00-03:00", { pracasReferencia: { MS: "Três Lagoas" } });
    expect(r.outcomes.find((x) => x.source === "scot" && x.page === "boi-gordo")).toMatchObject({ ok: true });
    const depois = await readFile(join(site, MS), "utf8");
    const eventos = ((await readJson(site, "api/v1/eventos.json")).eventos as Evento[]).filter((e) => e.tipo !== "cotacao_atualizada" && e.dados.serie === "boi_gordo/MS");
    const mensagem = buildChangelog({ before: new Map([[MS, antes]]), after: new Map([[MS, depois]]) })!;
    return { serie: JSON.parse(depois), eventos, mensagem };
  } finally {
    await cleanup(site, p1, p2);
  }
}

describe("audit 4: a new reference praça is no price change", () => {
  it("the same prices on the next day: no price_changed, no variation in the commit message", async () => {
    const { serie, eventos, mensagem } = await trocaDePraca((h) => h);
    expect(serie).toMatchObject({ praca: "Três Lagoas", valor: 331, data_cotacao: "2026-08-06", variacao: { anterior: 331, percentual: 0 } });
    expect(eventos.map((e) => e.tipo)).toEqual(["historico_revisado"]);
    expect(eventos[0]!.dados).toMatchObject({ revisoes: [{ data: "2026-08-05", anterior: 338, atual: 331 }] });
    // the re-based day is a revision, and says so; no variation from one praça to the other
    expect(mensagem.split("\n")[0]).toBe("Revisão em Boi gordo (MS, Scot Consultoria)");
    expect(mensagem).not.toContain("Variações");
    expect(mensagem).not.toMatch(/em 06\/08\/2026 \(antes: 05\/08\/2026\)/);
    expect(mensagem).toContain(
      "- Boi gordo (MS, Scot Consultoria): R$ 338,00/@ em 05/08/2026 → R$ 331,00/@ em 06/08/2026, praça de referência mudou de C. Grande para Três Lagoas",
    );
  }, 120_000);

  it("the new praça moves: price_changed is that praça's own move", async () => {
    const { serie, eventos } = await trocaDePraca((h) => {
      const out = h.replace(TRES_LAGOAS_A_VISTA, "$1333,00$2");
      if (out === h) throw new Error("edição não mudou Três Lagoas");
      return out;
    });
    expect(serie).toMatchObject({ praca: "Três Lagoas", valor: 333, variacao: { anterior: 331, absoluta: 2, percentual: 0.6 } });
    const pc = eventos.find((e) => e.tipo === "price_changed");
    expect(pc?.dados).toMatchObject({ anterior: { data: "2026-08-05", valor: 331 }, atual: { data: "2026-08-06", valor: 333 }, variacao: { absoluta: 2, percentual: 0.6 } });
  }, 120_000);
});
