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
import { FIXTURES, trocarUma } from "../helpers/pipeline.ts";
import { paginaEditadaRecusada } from "../helpers/publicado.ts";
import { parseError } from "../helpers/parse-error.ts";

const html = (id: string) => readFileSync(join(FIXTURES, "cepea", `${id}.html`), "utf8");
const page = (id: string) => cepea.pages.find((p) => p.id === id)!;
/** The first 04/09/2026 of the frango page (the congelado table's newest row) written 04/08/2026. */
const mesErrado = trocarUma("<td>04/09/2026</td>", "<td>04/08/2026</td>");

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
    const { series } = await paginaEditadaRecusada("cepea/frango.html", mesErrado, ["frango_congelado"], { pagina: "cepea/frango", kind: "parse_error" });
    expect(series.frango_congelado!.historico.some((e) => e.data === "2026-08-04")).toBe(false);
  }, 60_000);
});
