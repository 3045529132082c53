/**
 * Audit: Datagro's reposição is read from a Notícias Agrícolas page found by its address only.
 * That site keeps several reposição tables from Datagro in the same layout (the same "Estado |
 * Desmama | Bezerro | Garrote | Boi Magro" table under "Fonte: Datagro"), so another of them served
 * at this address (a slug redirected, a page replaced) was published as the Nelore macho quotes:
 * the parser checked the source line but not the page's title. The Notícias Agrícolas pages of
 * CEPEA's indicators already check theirs. Replays into temp dirs only.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseReposicao } from "../../pipeline/sources/datagro.ts";
import { FIXTURES, editPage, readJson, replay } from "../helpers/pipeline.ts";
import { publicadoEPaginasDoDescribe } from "../helpers/publicado.ts";
import { parseError } from "../helpers/parse-error.ts";

const PAGINA = "datagro/reposicao-nelore-macho.html";

/** Another reposição table at the address, with a newer day than the series holds. */
const outraTabela = (h: string) => h.replace("<h1>Reposição Nelore - Macho</h1>", "<h1>Reposição Cruzado - Macho</h1>").replace("Fechamento: 06/02/2026", "Fechamento: 09/02/2026");

describe("audit: another Datagro table at the reposição Nelore macho address", () => {
  it("the parser refuses it, naming the title found", async () => {
    const html = outraTabela(await readFile(join(FIXTURES, PAGINA), "utf8"));
    const err = parseError(() => parseReposicao(html));
    expect((err as Error).message).toBe(
      'Notícias Agrícolas, tabela "Reposição Nelore - Macho": título da página "Reposição Cruzado - Macho", esperado "Reposição Nelore - Macho" (outra tabela no endereço?)',
    );
  });

  const par = publicadoEPaginasDoDescribe((pages) => editPage(pages, PAGINA, outraTabela));

  it("merges nothing of it", async () => {
    const { site, pages } = par();
    const r = await replay(pages, site, "2026-09-27T13:00:00-03:00");
    expect(r.outcomes.find((x) => x.source === "datagro")).toMatchObject({ ok: false, kind: "parse_error" });
    for (const id of ["bezerro_desmama/SP", "garrote/MS", "boi_magro/PA"]) {
      expect((await readJson(site, `api/v1/cotacao/${id}.json`)).data_cotacao, id).toBe("2026-02-06");
    }
  });
});
