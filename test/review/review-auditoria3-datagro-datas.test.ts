/**
 * Audit 3: a day's table of Datagro's reposição (Notícias Agrícolas' republication, ten tables,
 * newest first) under another day's date. Each table's only date is its "Fechamento" line, and
 * nothing tied it to the table's place on the page: two tables' dates swapped published each
 * day's 40 prices under the other's date, and an older table dated after the newest (03/02/2026's
 * table under "Fechamento: 09/02/2026") published 03/02's prices as the new day 09/02 (desmama/SP
 * 16,28 instead of nothing; 6,8 % above 06/02, inside the 15 % jump bound). The page lists the
 * days newest first; a date out of that order refuses the page. Replays into temp dirs only.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseReposicao } from "../../pipeline/sources/datagro.ts";
import { FIXTURES, trocarEntreSi } from "../helpers/pipeline.ts";
import { paginaEditadaRecusada } from "../helpers/publicado.ts";
import { parseError } from "../helpers/parse-error.ts";

const PAGINA = "datagro/reposicao-nelore-macho.html";

/** Two strings of the page swapped (each occurs once). */
/** The dates of the two newest tables swapped: 06/02's prices under 05/02 and the other way round. */
const datasTrocadas = trocarEntreSi("Fechamento: 06/02/2026", "Fechamento: 05/02/2026");
/** The fourth table (03/02/2026) dated 09/02/2026, a day the page does not hold. */
const antigaComDataNova = (h: string) => h.replace("Fechamento: 03/02/2026", "Fechamento: 09/02/2026");

describe("audit 3: a Datagro day's table under another day's date", () => {
  it("the recorded page still reads its ten days", async () => {
    const html = await readFile(join(FIXTURES, PAGINA), "utf8");
    expect(parseReposicao(html).rows).toHaveLength(400);
  });

  it("the two newest tables' dates swapped refuse the page, naming both tables", async () => {
    const html = datasTrocadas(await readFile(join(FIXTURES, PAGINA), "utf8"));
    expect(parseError(() => parseReposicao(html)).message).toBe(
      'Notícias Agrícolas, tabela "Reposição Nelore - Macho" de 06/02/2026 (tabela nº 2): data fora de ordem, depois da tabela de 05/02/2026 (nº 1); ' +
        "a página lista os dias do mais novo ao mais antigo (datas trocadas entre tabelas?)",
    );
  });

  it("an older table dated after the newest refuses the page", async () => {
    const html = antigaComDataNova(await readFile(join(FIXTURES, PAGINA), "utf8"));
    expect(parseError(() => parseReposicao(html)).message).toMatch(
      /^Notícias Agrícolas, tabela "Reposição Nelore - Macho" de 09\/02\/2026 \(tabela nº 4\): data fora de ordem, depois da tabela de 04\/02\/2026 \(nº 3\)/,
    );
  });

  it("through the update: 03/02's prices are never published as 09/02", async () => {
    const ids = ["bezerro_desmama/SP", "garrote/MS", "boi_magro/RO"];
    const { series } = await paginaEditadaRecusada(PAGINA, antigaComDataNova, ids, { pagina: "datagro/reposicao-nelore-macho", kind: "parse_error", motivo: "data fora de ordem" });
    for (const id of ids) {
      expect(series[id]!.data_cotacao, id).toBe("2026-02-06");
      expect(series[id]!.historico.some((e) => e.data === "2026-02-09"), id).toBe(false);
    }
  }, 60_000);
});
