/**
 * Audit 3: a praça of Notícias Agrícolas' copy of Scot's Mercado Físico under the wrong UF. The
 * UF prefix of the label is the only thing tying a praça's prices to its state: with "MS
 * Dourados" written "MT Dourados", the update filed Dourados' 311,50 among MT's praças on
 * 05/02/2026 (boi_gordo/MT `pracas`), a right value under the wrong UF. Scot lists its praças
 * grouped by UF on every recorded table; a UF that comes back after another UF's praças refuses
 * the page. Replays of recorded pages into temp dirs only.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { naBoiGordo, naVacaGorda } from "../../pipeline/sources/noticias-agricolas.ts";
import { FIXTURES } from "../helpers/pipeline.ts";
import { pelaCopiaEditada } from "../helpers/publicado.ts";
import { parseError } from "../helpers/parse-error.ts";

const NA = "noticias-agricolas/boi-gordo-scot-consultoria.html";
const ufTrocada = (h: string) => h.replace("<td>MS Dourados</td>", "<td>MT Dourados</td>");

describe("audit 3: a praça of the Notícias Agrícolas copy of Scot under another UF", () => {
  it("the recorded page still reads its 33 praças", async () => {
    const html = await readFile(join(FIXTURES, NA), "utf8");
    expect(naBoiGordo.parse(html).rows).toHaveLength(33);
    expect(naVacaGorda.parse(html).rows).toHaveLength(33);
  });

  it("the parser refuses it for both products, naming where the UF's praças are broken up", async () => {
    const html = ufTrocada(await readFile(join(FIXTURES, NA), "utf8"));
    for (const m of [naBoiGordo, naVacaGorda]) {
      expect(parseError(() => m.parse(html)).message).toBe(
        'Notícias Agrícolas, tabela "Mercado Físico - Scot Consultoria", praça "MT Norte": MT volta a aparecer depois de praças de BA ' +
          "(a tabela da Scot traz as praças de cada UF juntas); UF errada no rótulo ou tabela reordenada?",
      );
    }
  });

  it("praças sorted by another key (here, by name) are refused too", async () => {
    const html = await readFile(join(FIXTURES, NA), "utf8");
    const ordenada = html.replace(/(<tbody>)([\s\S]*?)(<\/tbody>)/, (_, a: string, corpo: string, b: string) => {
      const linhas = corpo.match(/<tr>[\s\S]*?<\/tr>/g)!;
      const nome = (tr: string) => tr.match(/<td>([^<]*)<\/td>/)![1]!.replace(/^[A-Z]{2} /, "");
      return a + [...linhas].sort((x, y) => nome(x).localeCompare(nome(y))).join("\n") + b;
    });
    expect(parseError(() => naBoiGordo.parse(ordenada)).message).toContain("volta a aparecer depois de praças de");
  });

  it("through the update (Scot blocked): nothing of the page is merged, MT gets no MS praça", async () => {
    const { r, series } = await pelaCopiaEditada(ufTrocada, ["boi_gordo/MT", "boi_gordo/MS", "vaca_gorda/MT"]);
    for (const page of ["boi-gordo", "vaca-gorda"]) {
      const o = r.outcomes.find((x) => x.source === "scot" && x.page === page)!;
      expect(o, page).toMatchObject({ ok: false, kind: "parse_error" });
      expect(!o.ok && o.reason, page).toContain("MT volta a aparecer depois de praças de BA");
    }
    for (const [id, f] of Object.entries(series)) {
      expect(f.historico.map((e) => e.data), id).toEqual(["2026-08-05"]);
      if (id.endsWith("/MT")) for (const e of f.historico) expect(Object.keys(e.pracas ?? {}), id).not.toContain("Dourados");
    }
  }, 60_000);
});
