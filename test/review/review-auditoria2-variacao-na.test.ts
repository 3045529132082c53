/**
 * Audit: Notícias Agrícolas' republication of CEPEA's indicators prints, for every day, the
 * value and its variation on the previous day. Nothing tied the two: the trigo page with the
 * "Região" cells of its newest day swapped published Paraná at Rio Grande do Sul's price
 * (1.385,09 instead of 1.509,74, -8,4 %, inside trigo's 10 % jump bound) and RS at Paraná's,
 * and a page repeating yesterday's value under today's date published it as today's. On every
 * recorded page the printed variation is exactly the one the values give (to the hundredth of a
 * percent), so a day whose value disagrees with its own variation is refused, page and all.
 * Replays of recorded pages into temp dirs only.
 */
import { copyFile, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mirrorFile } from "../../pipeline/fetch/record.ts";
import { naMilho, naTrigo } from "../../pipeline/sources/noticias-agricolas.ts";
import { FIXTURES, cleanup, readJson, replay, replayDir, tempSite } from "../helpers/pipeline.ts";
import { parseError } from "../helpers/parse-error.ts";

const TRIGO = "noticias-agricolas/preco-medio-do-trigo-cepea-esalq.html";
const MILHO = "noticias-agricolas/indicador-cepea-esalq-milho.html";

/** The newest day's two rows with their "Região" cells swapped (values and variations stay). */
function regioesTrocadas(h: string): string {
  const pr = /(<td>17\/09\/2026<\/td>\s*<td>)Paraná(<\/td>)/;
  const rs = /(<td>17\/09\/2026<\/td>\s*<td>)Rio Grande do Sul(<\/td>)/;
  if (!pr.test(h) || !rs.test(h)) throw new Error("linhas de 17/09/2026 não encontradas");
  return h.replace(pr, "$1@@PR@@$2").replace(rs, "$1Paraná$2").replace("@@PR@@", "Rio Grande do Sul");
}

/** The newest day repeating the day before's value (and its variation) under its own date. */
function valorDeOntem(h: string): string {
  const hoje = /(<td>17\/09\/2026<\/td>\s*<td>)69,25(<\/td>\s*<td>)0,07%(<\/td>)/;
  if (!hoje.test(h)) throw new Error("linha de 17/09/2026 não encontrada");
  return h.replace(hoje, "$169,20$2-0,27%$3");
}

describe("audit: a Notícias Agrícolas CEPEA page whose value disagrees with its own variation", () => {
  it("the parser refuses trigo with the newest day's regions swapped, naming the day, the region and both variations", async () => {
    const html = regioesTrocadas(await readFile(join(FIXTURES, TRIGO), "utf8"));
    const err = parseError(() => naTrigo.parse(html));
    expect(err.message).toMatch(
      /^Notícias Agrícolas, tabela "Preço Médio do Trigo Cepea\/Esalq", quadro 1 \(17\/09\/2026\), linha 2: variação impressa "0,37%" não confere com o valor: 1\.385,09 em 17\/09\/2026 contra 1\.512,00 em 16\/09\/2026 \(Paraná\) dá -8,39%/,
    );
  });

  it("the parser refuses milho repeating yesterday's value under today's date", async () => {
    const html = valorDeOntem(await readFile(join(FIXTURES, MILHO), "utf8"));
    const err = parseError(() => naMilho.parse(html));
    expect(err.message).toMatch(/quadro 1 \(17\/09\/2026\), linha 1: variação impressa "-0,27%" não confere com o valor: 69,20 em 17\/09\/2026 contra 69,20 em 16\/09\/2026 dá 0,00%/);
  });

  it("every recorded page still reads: each printed variation is the one its values give", async () => {
    const { rows } = naTrigo.parse(await readFile(join(FIXTURES, TRIGO), "utf8"));
    expect(rows).toHaveLength(20);
    expect(naMilho.parse(await readFile(join(FIXTURES, MILHO), "utf8")).rows).toHaveLength(10);
  });

  it("through the update, with CEPEA's trigo page blocked: nothing of the swapped page is merged, the error names the page and URL", async () => {
    const site = await tempSite();
    const dir = await replayDir();
    try {
      expect((await replay(dir, site, "2026-09-26T12:00:00-03:00")).exitCode).toBe(0);
      const antes = { pr: await readFile(join(site, "api/v1/cotacao/trigo/PR.json"), "utf8"), rs: await readFile(join(site, "api/v1/cotacao/trigo/RS.json"), "utf8") };
      await writeFile(join(dir, "cepea/trigo.html"), "<html><body><p>Acesso limitado</p></body></html>"); // soft block
      await mkdir(join(mirrorFile(dir, naTrigo), ".."), { recursive: true });
      await copyFile(mirrorFile(FIXTURES, naTrigo), mirrorFile(dir, naTrigo));
      await writeFile(mirrorFile(dir, naTrigo), regioesTrocadas(await readFile(mirrorFile(dir, naTrigo), "utf8")));
      const r = await replay(dir, site, "2026-09-27T12:00:00-03:00");
      const o = r.outcomes.find((x) => x.source === "cepea" && x.page === "trigo")!;
      expect(o).toMatchObject({ ok: false, kind: "parse_error", url: `https://www.noticiasagricolas.com.br${naTrigo.path}` });
      expect(!o.ok && o.reason).toMatch(/variação impressa "0,37%" não confere com o valor/);
      expect(await readFile(join(site, "api/v1/cotacao/trigo/PR.json"), "utf8")).toBe(antes.pr);
      expect(await readFile(join(site, "api/v1/cotacao/trigo/RS.json"), "utf8")).toBe(antes.rs);
      const pr = await readJson(site, "api/v1/cotacao/trigo/PR.json");
      expect(pr.historico.some((e: { data: string }) => e.data === "2026-09-17")).toBe(false);
    } finally {
      await cleanup(site);
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
