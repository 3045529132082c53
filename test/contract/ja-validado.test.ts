/**
 * A series file rendered again to exactly the text it was read from is not validated a second
 * time (contract/schemas.ts `jaValidado`): the proof is the text readPublishedComTexto read and
 * found valid, at that same path, with the validators of the same catalogue. Anything else (one
 * byte changed, another path, an object of the same shape made elsewhere, the catalogue changed
 * since) is validated as before.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../pipeline/config.ts";
import { jaValidado, readPublishedComTexto } from "../../pipeline/contract/schemas.ts";
import { stringifyDoc } from "../../pipeline/render/json.ts";
import { registrarProduto, removerProduto } from "../../pipeline/domain/products.ts";
import { registrarFonte, removerFonte } from "../../pipeline/sources/index.ts";
import { fonteDeTeste } from "../helpers/fonte.ts";
import { FileValidator } from "../../pipeline/validate/ajv.ts";

const PUBLIC = join(REPO_ROOT, "public");
const MILHO = "api/v1/cotacao/milho.json";
const SOJA = "api/v1/cotacao/soja.json";

const lerMilho = async () => {
  const r = await readPublishedComTexto(PUBLIC, MILHO, "serie.schema.json");
  if (!r) throw new Error("public/api/v1/cotacao/milho.json não existe");
  return r;
};

describe("jaValidado", () => {
  afterEach(() => {
    removerFonte("teste_lido");
    removerProduto("produto_lido");
  });

  it("holds only for the text read, at its path", async () => {
    const { lido } = await lerMilho();
    expect(lido.texto).toBe(await readFile(join(PUBLIC, MILHO), "utf8"));
    expect(jaValidado(lido, MILHO, lido.texto)).toBe(true);
    // the same path written other ways
    expect(jaValidado(lido, `/${MILHO}`, lido.texto)).toBe(true);
    expect(jaValidado(lido, `public/${MILHO}`, lido.texto)).toBe(true);
    // one byte changed, another path, no text, no token
    expect(jaValidado(lido, MILHO, lido.texto.replace(/"valor": \d/, (m) => m.slice(0, -1) + "9"))).toBe(false);
    expect(jaValidado(lido, MILHO, `${lido.texto} `)).toBe(false);
    expect(jaValidado(lido, SOJA, lido.texto)).toBe(false);
    expect(jaValidado(lido, MILHO, Buffer.from(lido.texto))).toBe(false);
    expect(jaValidado(undefined, MILHO, lido.texto)).toBe(false);
  });

  it("an object of the same shape made elsewhere proves nothing", async () => {
    const { lido } = await lerMilho();
    expect(jaValidado({ caminho: lido.caminho, texto: lido.texto }, MILHO, lido.texto)).toBe(false);
    expect(jaValidado({ ...lido }, MILHO, lido.texto)).toBe(false);
  });

  it("does not outlive a change of the catalogue it was checked with", async () => {
    const { lido } = await lerMilho();
    const fonte = fonteDeTeste("teste_lido", []);
    registrarFonte(fonte);
    expect(jaValidado(lido, MILHO, lido.texto)).toBe(false);
    // the same sources again: a text read before any change is still not vouched for (a source
    // declared again may move a series' place, test/review/review-ja-validado.test.ts)
    removerFonte("teste_lido");
    expect(jaValidado(lido, MILHO, lido.texto)).toBe(false);
    // read again now: vouched for; until a product is registered or removed
    const { lido: outra } = await lerMilho();
    expect(jaValidado(outra, MILHO, outra.texto)).toBe(true);
    registrarProduto("produto_lido", { nome: "Produto de teste", tipo: "gado_arroba", unidade: "@", faixa: { "@": [100, 1000] }, saltoMaximoPct: 10, revisaoMaximaPct: 1.5 });
    expect(jaValidado(outra, MILHO, outra.texto)).toBe(false);
    const { lido: depois } = await lerMilho();
    removerProduto("produto_lido");
    expect(jaValidado(depois, MILHO, depois.texto)).toBe(false);
  });
});

describe("FileValidator with the text a series was read from", () => {
  it("skips the schema only for that very text", async () => {
    const { doc, lido } = await lerMilho();
    // a document the schema refuses, standing for the text: only the text is published, and it was found valid when read
    const estragado = { ...doc, valor: -1 };
    const v1 = new FileValidator();
    v1.add(MILHO, lido.texto, estragado, { lido });
    expect(v1.report().erros).toEqual([]);

    // without the token, or with a text that is not the one read, the document is validated
    const v2 = new FileValidator();
    v2.add(MILHO, lido.texto, estragado);
    expect(v2.report().erros.join("\n")).toMatch(/milho\.json/);
    const v3 = new FileValidator();
    v3.add(MILHO, stringifyDoc(estragado), estragado, { lido });
    expect(v3.report().erros.join("\n")).toMatch(/milho\.json/);
  });
});
