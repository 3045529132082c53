/**
 * Audit: two columns of Datagro's reposição table swapped under their labels (the Notícias
 * Agrícolas republication, one table per day, each with its own header). Per kg of live weight a
 * lighter animal is never cheaper than a heavier one: desmama ≥ bezerro ≥ garrote ≥ boi magro on
 * every row of the recorded pages (adjacent categories 0,83–0,99 apart), as sources/datagro.ts
 * already argued for RS. Nothing checked it, and a swap moves each value by 1–17 %, inside the
 * 15 % jump bound: the new day published boi magro's price as garrote's and garrote's as boi
 * magro's in every state (garrote/SP 13,78 instead of 14,15). Replays into temp dirs only.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseReposicao } from "../../pipeline/sources/datagro.ts";
import { FIXTURES, trocarEntreSi } from "../helpers/pipeline.ts";
import { paginaEditadaRecusada } from "../helpers/publicado.ts";
import { parseError } from "../helpers/parse-error.ts";

const PAGINA = "datagro/reposicao-nelore-macho.html";

/** The newest day's table (the first block) dated 09/02/2026, with Garrote and Boi Magro swapped in its header. */
function diaNovoTrocado(h: string): string {
  return trocarEntreSi("<th>Garrote</th>", "<th>Boi Magro</th>")(h.replace("Fechamento: 06/02/2026", "Fechamento: 09/02/2026"));
}

describe("audit: Datagro's Garrote and Boi Magro swapped on the newest day", () => {
  it("the parser refuses the page, naming the day, the state and both columns", async () => {
    const html = diaNovoTrocado(await readFile(join(FIXTURES, PAGINA), "utf8"));
    const err = parseError(() => parseReposicao(html));
    expect((err as Error).message).toBe(
      'Notícias Agrícolas, tabela "Reposição Nelore - Macho" de 09/02/2026, estado "São Paulo": Boi Magro (R$ 14,15/kg) acima de Garrote (R$ 13,78/kg); ' +
        "por kg, um animal mais pesado nunca vale mais que um mais leve; colunas trocadas?",
    );
  });

  it("merges nothing of the page", async () => {
    const ids = ["garrote/SP", "boi_magro/SP", "garrote/MS"];
    const { series } = await paginaEditadaRecusada(PAGINA, diaNovoTrocado, ids, { pagina: "datagro/reposicao-nelore-macho", kind: "parse_error" });
    for (const id of ids) expect(series[id]!.data_cotacao, id).toBe("2026-02-06");
  }, 60_000);
});
