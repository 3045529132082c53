import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const root = new URL("../", import.meta.url);
const readme = readFileSync(new URL("README.md", root), "utf8");

/** The ```json block right after a README line that names the file. */
function blockAfter(marker: string): string {
  const at = readme.indexOf(marker);
  if (at < 0) throw new Error(`README sem "${marker}"`);
  const start = readme.indexOf("```json\n", at) + "```json\n".length;
  return readme.slice(start, readme.indexOf("```", start));
}

describe("README examples are the committed files", () => {
  it("GET api/v1/cotacao.json shows exactly the published aggregate", () => {
    const published = JSON.parse(readFileSync(new URL("public/api/v1/cotacao.json", root), "utf8"));
    expect(JSON.parse(blockAfter("`GET api/v1/cotacao.json`"))).toEqual(published);
  });

  it("the boi_gordo/MS excerpt matches the published file field by field", () => {
    const published = JSON.parse(readFileSync(new URL("public/api/v1/cotacao/boi_gordo/MS.json", root), "utf8"));
    // the excerpt shortens the license text with "..."; everything else is as published
    const excerpt = JSON.parse(blockAfter("`GET api/v1/cotacao/boi_gordo/MS.json`"));
    for (const [k, v] of Object.entries(excerpt)) {
      if (k === "license") expect(published.license.startsWith(String(v).replace(" ...", ""))).toBe(true);
      else expect(v, k).toEqual(published[k]);
    }
  });
});

describe("README's safety figures are the catalogue's", () => {
  it("the largest jump any product accepts, in Portuguese and English, is 3 × the largest product limit", async () => {
    const { PRODUTOS, PRODUTO_INFO } = await import("../pipeline/domain/products.ts");
    const { JUMP_MAX_FACTOR } = await import("../pipeline/check/gates.ts");
    const teto = Math.max(...PRODUTOS.map((p) => PRODUTO_INFO[p].saltoMaximoPct)) * JUMP_MAX_FACTOR;
    expect(/Nenhum\s+produto aceita mais de (\d+) %/.exec(readme)?.[1]).toBe(String(teto));
    expect(/at most 3×, so never more than (\d+) %/.exec(readme)?.[1]).toBe(String(teto));
  });

  it("the revision bounds named in English are the catalogue's", async () => {
    const { PRODUTOS, PRODUTO_INFO } = await import("../pipeline/domain/products.ts");
    const limites = PRODUTOS.map((p) => PRODUTO_INFO[p].revisaoMaximaPct);
    const m = /revision bound \((\d+(?:\.\d+)?)–(\d+(?:\.\d+)?) %/.exec(readme);
    expect([Number(m?.[1]), Number(m?.[2])]).toEqual([Math.min(...limites), Math.max(...limites)]);
  });
});
