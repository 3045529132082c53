/**
 * Review of e128d96 (a series re-rendered to the very text it was read from skips its second
 * validation, contract/schemas.ts jaValidado). The token is keyed on the catalogue as the
 * schemas' enums see it (the lists of product and source ids), but the checks in code
 * (contract/checks.ts checarSerie) also read the catalogue's series declarations: the place a
 * national series must publish (`ufPublicada` of `serieDef(produto)`). A source removed and
 * registered again with the same id (edicaoDoCatalogo moves twice) keeps the enums, so the token
 * still vouches for a text the checks now refuse. Temp dirs only.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { validateDocument } from "../../pipeline/contract/schemas.ts";
import { registrarProduto, removerProduto, type Produto } from "../../pipeline/domain/products.ts";
import type { HistoricoEntry } from "../../pipeline/domain/publicados.ts";
import { seriesJsonPath, type SerieDecl } from "../../pipeline/domain/series.ts";
import { stringifyDoc } from "../../pipeline/render/json.ts";
import { renderSerie } from "../../pipeline/render/serie.ts";
import { renderSerieFiles } from "../../pipeline/site/assemble.ts";
import { lerSerie } from "../../pipeline/site/store.ts";
import { allSeries, edicaoDoCatalogo, getSource, registrarFonte, removerFonte } from "../../pipeline/sources/index.ts";
import type { SourceDef } from "../../pipeline/sources/types.ts";
import { fonteDeTeste } from "../helpers/fonte.ts";
import { FileValidator } from "../../pipeline/validate/ajv.ts";

const PRODUTO = "novilha_review" as Produto;
const FONTE = "teste_review_lido";

/** a source declaring the national series of PRODUTO, quoted at `lugar` */
const fonte = (lugar: SerieDecl["lugar"]): SourceDef =>
  fonteDeTeste(FONTE, [
    {
      id: "novilha",
      path: "/novilha",
      titulo: "Novilha de revisão",
      diasUteis: true,
      hasTable: () => true,
      parse: () => ({ rows: [], avisos: [] }),
      series: [{ produto: PRODUTO, uf: null, unidade: "@", regiao: "Praça de referência (revisão)", lugar }],
    },
  ]);

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cotacao-review-lido-"));
  registrarProduto(PRODUTO, { nome: "Novilha de revisão", tipo: "gado_arroba", unidade: "@", faixa: { "@": [100, 1000] }, saltoMaximoPct: 10, revisaoMaximaPct: 1.5 });
});
afterEach(async () => {
  removerFonte(FONTE);
  removerProduto(PRODUTO);
  await rm(dir, { recursive: true, force: true });
});

describe("review: the token of a text read outlives a change of the series declarations", () => {
  it("a series read valid, whose source is declared again with another place, is refused by the checks but not by the skip", async () => {
    registrarFonte(fonte("SP"));
    const def = allSeries().find((d) => d.id === PRODUTO)!;
    const source = getSource(def.fonte);
    const historico: HistoricoEntry[] = [
      { data: "2026-09-03", valor: 300.5 },
      { data: "2026-09-04", valor: 301 },
    ];
    const momento = "2026-09-04T18:00:00-03:00";
    const f = renderSerie({
      def,
      source,
      historico,
      praca: null,
      pracas: null,
      proveniencia: { fonte: source.id, nome: source.nome, url: source.site, coletado_em: momento, via: null, via_url: null, licenca: source.termos.licenca, citacao: source.termos.citacao, termos: source.termos.texto },
      atualizado: momento,
    });
    const path = seriesJsonPath(def);
    await mkdir(join(dir, "api/v1/cotacao"), { recursive: true });
    await writeFile(join(dir, path), stringifyDoc(f));
    // read as an update or a build reads it: valid, and remembered with its text
    const lida = (await lerSerie(dir, def, { paraRenderizar: true }))!;
    expect(validateDocument(path, lida)).toEqual([]);

    // the same source, declared again with another place (the same ids: the schemas' enums do not move)
    const edicao = edicaoDoCatalogo();
    removerFonte(FONTE);
    registrarFonte(fonte("MG"));
    expect(edicaoDoCatalogo()).toBe(edicao + 2);
    // the checks in code now refuse this text at this path: its uf is not the series' place
    const erros = validateDocument(path, lida);
    expect(erros.join("\n")).toMatch(/uf/);

    // rendered again to the same bytes, the set's validator must say the same
    const json = renderSerieFiles(def, lida).arquivos.find((a) => a.path === path)!;
    expect(json.lido).toBeDefined();
    const v = new FileValidator();
    v.add(json.path, json.text, json.doc, json);
    // (with e128d96 jaValidado keyed the token on the enums only, and skipped validateDocument)
    expect(v.report().erros.join("\n")).toMatch(/uf/);
  });
});
