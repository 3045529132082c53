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

/** "a", "a e b", "a, b e c" (and, in English, "a and b", "a, b and c") */
function lista(itens: readonly string[], e: string): string {
  return itens.length <= 1 ? (itens[0] ?? "") : `${itens.slice(0, -1).join(", ")} ${e} ${itens.at(-1)}`;
}

/**
 * A product limit as the README words it: the most common value "na maioria dos produtos" (for
 * most products), then each other value, smallest first, with the products that have it by the
 * names in `nomes` (one name may cover several products: "no café" is arábica and robusta). A
 * product with a limit of its own that `nomes` does not name fails the test: the README must name it.
 */
function limitesPorProduto(
  valor: (p: string) => number,
  nomes: Record<string, string>,
  idioma: { maioria: string; prep: string; e: string; numero: (v: number) => string },
): string {
  const porValor = new Map<number, string[]>();
  for (const [p, v] of Object.entries(PRODUTOS_VALORES(valor))) porValor.set(v, [...(porValor.get(v) ?? []), p]);
  const [padrao] = [...porValor].sort(([, a], [, b]) => b.length - a.length)[0]!;
  const grupos = [`${idioma.numero(padrao)} % ${idioma.maioria}`];
  for (const [v, produtos] of [...porValor].filter(([v]) => v !== padrao).sort(([a], [b]) => a - b)) {
    const semNome = produtos.filter((p) => !(p in nomes));
    expect(semNome, `produtos de ${v} % sem nome no README`).toEqual([]);
    grupos.push(`${idioma.numero(v)} % ${idioma.prep}${lista([...new Set(produtos.map((p) => nomes[p]!))], idioma.e)}`);
  }
  return grupos.join("; ");
}

/** the README with each run of whitespace (line breaks too) as one space */
const corrido = readme.replace(/\s+/g, " ");

let PRODUTOS_VALORES: (valor: (p: string) => number) => Record<string, number>;

const PT = { maioria: "na maioria dos produtos", prep: "", e: "e", numero: (v: number) => String(v).replace(".", ",") };
const EN = { maioria: "for most products", prep: "for ", e: "and", numero: (v: number) => String(v) };

describe("README: each product's jump and revision limits, in both languages, are the catalogue's", async () => {
  const { PRODUTOS, PRODUTO_INFO } = await import("../pipeline/domain/products.ts");
  const { JUMP_MAX_FACTOR } = await import("../pipeline/check/gates.ts");
  PRODUTOS_VALORES = (valor) => Object.fromEntries(PRODUTOS.map((p) => [p, valor(p)]));
  const reposicao = { bezerro_desmama: "na reposição da Datagro", bezerro_reposicao: "na reposição da Datagro", garrote: "na reposição da Datagro", boi_magro: "na reposição da Datagro" };

  it("the daily jump limit (Portuguese) names every product whose limit is not the common one", () => {
    const nomes = { soja: "na soja", milho: "no milho", bezerro: "no bezerro", acucar_santos: "no açúcar de Santos", cafe_arabica: "no café", cafe_robusta: "no café", laranja_industria: "na laranja", laranja_pera: "na laranja", laranja_industria_precoce: "na laranja", ...reposicao };
    const texto = limitesPorProduto((p) => PRODUTO_INFO[p as keyof typeof PRODUTO_INFO].saltoMaximoPct, nomes, PT);
    expect(/O limite do produto \((.*?)\) vale até 7 dias de intervalo/.exec(corrido)?.[1]).toBe(texto);
  });

  it("the jump ceiling's breakdown (English) names every product whose ceiling is not the common one", () => {
    const nomes = { soja: "soja", milho: "milho", bezerro: "CEPEA's bezerro", acucar_santos: "Santos sugar", cafe_arabica: "coffee", cafe_robusta: "coffee", laranja_industria: "orange", laranja_pera: "orange", laranja_industria_precoce: "orange", bezerro_desmama: "Datagro's reposição", bezerro_reposicao: "Datagro's reposição", garrote: "Datagro's reposição", boi_magro: "Datagro's reposição" };
    const texto = limitesPorProduto((p) => PRODUTO_INFO[p as keyof typeof PRODUTO_INFO].saltoMaximoPct * JUMP_MAX_FACTOR, nomes, EN);
    expect(/at most 3×, so never more than \d+ %: (.*?)\); CEPEA's implied/.exec(corrido)?.[1]).toBe(texto);
  });

  it("the revision bound (Portuguese) names every product whose bound is not the common one", () => {
    const nomes = { soja: "na soja", milho: "no milho", laranja_industria: "na laranja", laranja_pera: "na laranja", laranja_industria_precoce: "na laranja" };
    const texto = limitesPorProduto((p) => PRODUTO_INFO[p as keyof typeof PRODUTO_INFO].revisaoMaximaPct, nomes, PT);
    expect(/Senar, cada praça\): (.*?) \(e `base_sp` em/.exec(corrido)?.[1]).toBe(texto);
  });
});

describe("README: the dashboard's colours are the ones its rule can show with the catalogue's limits", async () => {
  const { frescor } = await import("../pipeline/serve/web/dom.ts");
  const { diasUteisEntre } = await import("../pipeline/domain/idade.ts");
  const { SOURCES } = await import("../pipeline/sources/index.ts");

  /** every day of 2026 and 2027, and each of them seen on each of the 30 days that follow it */
  function* pares(): Generator<[string, string]> {
    for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2028, 0, 1); t += 86_400_000) {
      for (let d = 0; d <= 30; d++) yield [new Date(t).toISOString().slice(0, 10), new Date(t + d * 86_400_000).toISOString().slice(0, 10)];
    }
  }

  it("green up to its bound in business days, and yellow only where a source's limit leaves room for it", () => {
    // the green bound: the oldest a price is still em_dia, with no source limit in the way
    let verde = 0;
    for (const [data, hoje] of pares()) if (frescor(data, hoje) === "em_dia") verde = Math.max(verde, diasUteisEntre(data, hoje));
    const verdeNoReadme = `Verde (recente) até ${verde} dias úteis`;
    expect(corrido.includes(verdeNoReadme), verdeNoReadme).toBe(true);
    const limites = [...new Set(SOURCES.map((s) => s.maxIdadeDias))];
    let amarelo = false;
    for (const [data, hoje] of pares()) for (const maxIdadeDias of limites) amarelo ||= frescor(data, hoje, { maxIdadeDias, contagem: "dias_uteis" }) === "envelhecendo";
    const direto = `com o limite das fontes atuais (${limites.join(" ou ")} dias úteis), um preço passa de verde direto a vermelho`;
    expect(corrido.includes(direto), `${amarelo ? "não deveria dizer" : "deveria dizer"}: ${direto}`).toBe(!amarelo);
  });
});
