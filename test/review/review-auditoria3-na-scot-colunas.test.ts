/**
 * Audit 3: a price column of Notícias Agrícolas' copy of Scot's Mercado Físico relabelled with
 * more words than it used to have. The header was matched loosely (the animal and the term): a
 * "Boi Gordo - Funrural (R$/@ - à vista)" column in place of the gross one (Scot's net-of-Funrural
 * price, 1–2 % below the gross, inside the jump bound and the 30-day/cash ratio) was read as the
 * gross cash price and published as boi_gordo (Barretos 320,50 instead of 326,00). A price column
 * must say exactly what its label says, apart from spacing and punctuation. Replays of recorded
 * pages into temp dirs only.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { naBoiGordo, naVacaGorda } from "../../pipeline/sources/noticias-agricolas.ts";
import { FIXTURES } from "../helpers/pipeline.ts";
import { pelaCopiaEditada } from "../helpers/publicado.ts";
import { parseError } from "../helpers/parse-error.ts";

const NA = "noticias-agricolas/boi-gordo-scot-consultoria.html";

/** The gross cash column replaced by Scot's net-of-Funrural price (Barretos 320,50 per Scot's own page's spread). */
const funrural = (h: string) =>
  h
    .replace("<th>Boi Gordo - (R$/@ - à vista)</th>", "<th>Boi Gordo - Funrural (R$/@ - à vista)</th>")
    .replace(/(<td>SP Barretos<\/td>\s*)<td>326,00<\/td>/, "$1<td>320,50</td>");

describe("audit 3: a relabelled price column in the Notícias Agrícolas copy of Scot", () => {
  it("the recorded header still reads", async () => {
    const html = await readFile(join(FIXTURES, NA), "utf8");
    expect(naBoiGordo.parse(html).rows[0]).toMatchObject({ praca: "Barretos", valor: 326, extras: { valor_30d: 330 } });
    // spacing and punctuation are not words: the same label written without the dashes still reads
    const semTracos = html.replace("<th>Boi Gordo - (R$/@ - à vista)</th>", "<th>Boi Gordo (R$/@ à vista)</th>");
    expect(naBoiGordo.parse(semTracos).rows[0]).toMatchObject({ praca: "Barretos", valor: 326 });
  });

  it("the parser refuses a net, a per-kg or a qualified cash column, for both products", async () => {
    const html = await readFile(join(FIXTURES, NA), "utf8");
    for (const m of [naBoiGordo, naVacaGorda]) {
      expect(parseError(() => m.parse(funrural(html))).message).toContain(
        'coluna "Boi Gordo - (R$/@ - à vista)" não encontrada; coluna desconhecida "Boi Gordo - Funrural (R$/@ - à vista)" (esperado "Boi Gordo - (R$/@ - à vista)")',
      );
    }
    const liquido = html.replace("<th>Vaca Gorda (R$/@ - à vista)</th>", "<th>Vaca Gorda (R$/@ - à vista, líquido)</th>");
    expect(parseError(() => naVacaGorda.parse(liquido)).message).toContain('coluna desconhecida "Vaca Gorda (R$/@ - à vista, líquido)"');
    const kg = html.replace("<th>Boi Gordo - (R$/@ - prazo 30 dias)</th>", "<th>Boi Gordo - (R$/kg - prazo 30 dias)</th>");
    expect(parseError(() => naBoiGordo.parse(kg)).message).toContain('coluna desconhecida "Boi Gordo - (R$/kg - prazo 30 dias)"');
  });

  it("through the update (Scot blocked): the net price is never published as boi_gordo", async () => {
    const { r, series } = await pelaCopiaEditada(funrural, ["boi_gordo/SP", "boi_gordo/MS"], ["boi-gordo"]);
    expect(r.outcomes.find((x) => x.source === "scot" && x.page === "boi-gordo")).toMatchObject({ ok: false, kind: "parse_error" });
    for (const [id, f] of Object.entries(series)) expect(f.historico.map((e) => e.data), id).toEqual(["2026-08-05"]);
  }, 60_000);
});
