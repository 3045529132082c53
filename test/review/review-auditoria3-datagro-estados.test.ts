/**
 * Audit 3: two states' labels swapped in one of Datagro's reposição tables (Notícias Agrícolas'
 * republication). A row's label is the only thing tying its four prices to a state, and the
 * states' prices are a few percent apart: with "São Paulo" and "Minas Gerais" swapped on the new
 * day, SP's row carried MG's prices (desmama 15,59, 2,3 % above SP's 15,24 of the day before) and
 * passed the range, the per-kg order and the jump bound: bezerro_desmama/SP was published at MG's
 * price and MG at SP's. Every table lists the same ten states in the same order; a table that
 * does not (another order, a state missing or twice) refuses the page. Replays into temp dirs only.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseReposicao } from "../../pipeline/sources/datagro.ts";
import { FIXTURES, editPage, readJson, replay, trocarEntreSi } from "../helpers/pipeline.ts";
import { publicadoEPaginasDoDescribe } from "../helpers/publicado.ts";
import { parseError } from "../helpers/parse-error.ts";

const PAGINA = "datagro/reposicao-nelore-macho.html";

/** The newest table dated 09/02/2026, its "São Paulo" and "Minas Gerais" labels swapped (their numbers stay). */
function estadosTrocados(h: string): string {
  return trocarEntreSi("<td>São Paulo</td>", "<td>Minas Gerais</td>")(h.replace("Fechamento: 06/02/2026", "Fechamento: 09/02/2026"));
}

const ESPERADOS = "São Paulo, Minas Gerais, Mato Grosso do Sul, Mato Grosso, Goiás, Tocantins, Pará, Paraná, Rio Grande do Sul, Rondônia";

describe("audit 3: two states' labels swapped in a Datagro table", () => {
  it("the parser refuses the page, naming the day and the order found", async () => {
    const html = estadosTrocados(await readFile(join(FIXTURES, PAGINA), "utf8"));
    expect(parseError(() => parseReposicao(html)).message).toBe(
      'Notícias Agrícolas, tabela "Reposição Nelore - Macho" de 09/02/2026: estados fora da ordem de sempre (rótulos trocados entre linhas?); ' +
        `esperados ${ESPERADOS}, nesta ordem; encontrados Minas Gerais, São Paulo, Mato Grosso do Sul, Mato Grosso, Goiás, Tocantins, Pará, Paraná, Rio Grande do Sul, Rondônia`,
    );
  });

  it("a table without one of the states is read without it, with an aviso (refusing it would stop every series while that table is on the page); a state twice is refused", async () => {
    const html = await readFile(join(FIXTURES, PAGINA), "utf8");
    const semSP = parseReposicao(html.replace(/<tr>\s*<td>São Paulo<\/td>[\s\S]*?<\/tr>/, ""));
    expect(semSP.rows.filter((r) => r.uf === "SP").map((r) => r.data)).not.toContain("2026-02-06");
    expect(semSP.rows.filter((r) => r.uf === "MG" && r.data === "2026-02-06")).toHaveLength(4);
    expect(semSP.avisos.join("\n")).toMatch(/de 06\/02\/2026: sem linha de São Paulo neste dia/);
    const duasVezes = html.replace(/(<tr>\s*<td>Minas Gerais<\/td>[\s\S]*?<\/tr>)/, "$1$1");
    expect(parseError(() => parseReposicao(duasVezes)).message).toMatch(/de 06\/02\/2026: estado\(s\) repetido\(s\): Minas Gerais; esperados/);
  });

  const par = publicadoEPaginasDoDescribe((pages) => editPage(pages, PAGINA, estadosTrocados));

  it("through the update: neither state gets the other's prices", async () => {
    const { site, pages } = par();
    const r = await replay(pages, site, "2026-09-27T13:00:00-03:00");
    const o = r.outcomes.find((x) => x.source === "datagro")!;
    expect(o).toMatchObject({ ok: false, kind: "parse_error" });
    for (const id of ["bezerro_desmama/SP", "bezerro_desmama/MG", "boi_magro/SP", "garrote/MG"]) {
      const f = await readJson(site, `api/v1/cotacao/${id}.json`);
      expect(f.data_cotacao, id).toBe("2026-02-06");
    }
    expect((await readJson(site, "api/v1/cotacao/bezerro_desmama/SP.json")).valor).toBe(15.24);
  });
});
