/**
 * Audit 3, a CEPEA date out of order: the tables list the days newest first, and nothing checked
 * it. The frango congelado table's newest row dated 04/08/2026 instead of 04/09/2026 (a month
 * mistyped) published 7,61 under 04/08/2026, a day the series did not have, beside the other 14
 * days. A date newer than the row above it now refuses the page.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cepea } from "../../pipeline/sources/cepea.ts";
import { cleanup, editPage, FIXTURES, readJson, replay, replayDir, tempSite } from "../helpers/pipeline.ts";
import { parseError } from "../helpers/parse-error.ts";

const html = (id: string) => readFileSync(join(FIXTURES, "cepea", `${id}.html`), "utf8");
const page = (id: string) => cepea.pages.find((p) => p.id === id)!;
/** The first 04/09/2026 of the frango page (the congelado table's newest row) written 04/08/2026. */
const mesErrado = (h: string) => {
  const out = h.replace("<td>04/09/2026</td>", "<td>04/08/2026</td>");
  if (out === h) throw new Error("edição não mudou frango");
  return out;
};

describe("audit 3: CEPEA lists the days newest first", () => {
  it("frango: the newest row dated a month back refuses the page", () => {
    const err = parseError(() => page("frango").parse(mesErrado(html("frango"))));
    expect(err.message).toContain('tabela "PREÇOS DO FRANGO CONGELADO CEPEA/ESALQ - ESTADO SP", linhas 1 e 2: datas fora de ordem (04/08/2026 antes de 03/09/2026)');
  });

  it("suíno vivo: a day's rows after an older day's refuse the page (several rows per day, newest first)", () => {
    const h = html("suino");
    const i = h.indexOf("<td>03/09/2026</td>");
    const source = h.slice(0, i) + h.slice(i).replace("<td>03/09/2026</td>", "<td>02/09/2026</td>").replace("<td>03/09/2026</td>", "<td>02/09/2026</td>").replace("<td>03/09/2026</td>", "<td>04/09/2026</td>");
    // the rows of MG and PR of 03/09 now say 02/09, RS's says 04/09
    expect(parseError(() => page("suino").parse(source)).message).toMatch(/linhas \d+ e \d+: datas fora de ordem \(02\/09\/2026 antes de 04\/09\/2026\)/);
  });

  it("through the update: 04/08/2026 is never published", async () => {
    const site = await tempSite();
    const dir = await replayDir();
    try {
      expect((await replay(dir, site, "2026-09-27T12:00:00-03:00")).exitCode).toBe(0);
      const antes = await readJson(site, "api/v1/cotacao/frango_congelado.json");
      await editPage(dir, "cepea/frango.html", mesErrado);
      const r = await replay(dir, site, "2026-09-28T12:00:00-03:00");
      expect(r.outcomes.find((o) => o.source === "cepea" && o.page === "frango")).toMatchObject({ ok: false, kind: "parse_error" });
      const depois = await readJson(site, "api/v1/cotacao/frango_congelado.json");
      expect(depois.historico).toEqual(antes.historico);
      expect(depois.historico.some((e: { data: string }) => e.data === "2026-08-04")).toBe(false);
    } finally {
      await cleanup(site, dir);
    }
  }, 60_000);
});
