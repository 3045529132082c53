/**
 * Audit 3 (after the Notícias Agrícolas copy's finding): on Scot's own Mercado Físico table too,
 * the UF prefix of a praça's label ("MS Dourados") is the only thing tying its prices to a state.
 * Written "MT Dourados", the row was read as a praça of MT: Dourados' price filed among MT's
 * praças of that day. Scot lists its praças grouped by UF on the three recorded pages, as on the
 * copy; a UF that comes back after another UF's praças now refuses the page (one rule for both,
 * UfsAgrupadas in pipeline/sources/scot.ts).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scot } from "../../pipeline/sources/scot.ts";
import { FIXTURES, trocarUma } from "../helpers/pipeline.ts";
import { parseError } from "../helpers/parse-error.ts";

const html = (id: string) => readFileSync(join(FIXTURES, "scot", `${id}.html`), "utf8");
const page = (id: string) => scot.pages.find((p) => p.id === id)!;
const ufTrocada = trocarUma(">MS Dourados<", ">MT Dourados<");

describe("audit 3: a praça of Scot's own table under another UF", () => {
  for (const id of ["boi-gordo", "vaca-gorda", "novilha-gorda"]) {
    it(`${id}: the recorded page reads MS Dourados as a praça of MS, and the page with it written "MT Dourados" is refused`, () => {
      const rows = page(id).parse(html(id)).rows.filter((r) => r.produto !== "boi_china");
      expect(rows.filter((r) => r.praca === "Dourados").map((r) => r.uf)).toEqual(["MS"]);
      const err = parseError(() => page(id).parse(ufTrocada(html(id))));
      expect(err.kind).toBe("parse_error");
      expect(err.message).toMatch(/praça "MT [^"]+": MT volta a aparecer depois de praças de [A-Z]{2} \(a tabela da Scot traz as praças de cada UF juntas\)/);
    });
  }
});
