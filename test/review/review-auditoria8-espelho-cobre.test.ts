/**
 * Audit 8, adding a series to a page that has a mirror: a mirror without its own `series` list
 * stands in for every series of its page (but those declared `semEspelho`), and a mirror read
 * that does not feed all of them is refused whole at run time. A series added to such a page
 * and not republished by the mirror would leave the page with no working mirror, and no test
 * said so. Each mirror's recorded page must feed every series the catalogue says it covers.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { mirrorFile } from "../../pipeline/fetch/record.ts";
import { MIRRORS, seriesDoEspelho } from "../../pipeline/sources/index.ts";

const espelhos = Object.values(MIRRORS).flat();

describe("every mirror's recorded page feeds every series it stands in for", () => {
  it.each(espelhos.map((m) => [`${m.id} → ${m.paraPagina}`, m] as const))("%s", (_nome, m) => {
    const html = readFileSync(new URL(`../fixtures/${mirrorFile("", m).split(/[\\/]/).join("/")}`, import.meta.url), "utf8");
    const { rows } = m.parse(html);
    const faltam = seriesDoEspelho(m)
      .filter((d) => !rows.some((r) => r.produto === d.produto && r.uf === (d.uf ?? d.ufReferencia ?? r.uf)))
      .map((d) => d.id);
    expect(
      faltam,
      `o espelho ${m.id} de ${m.paraPagina} não republica ${faltam.join(", ")}: declare \`semEspelho: true\` na série ou a lista \`series\` do espelho`,
    ).toEqual([]);
  });
});
