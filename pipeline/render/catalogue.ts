/**
 * index.json: the catalogue of sources, products, UFs and every published series. Its paths are
 * relative to its own directory (api/v1/), so `new URL(s.path, indexUrl)` finds the file on any
 * mirror of the site (GitHub Pages, jsDelivr, a local server) without knowing where the root is.
 */
import type { Config } from "../config.ts";
import { licenseFull, serieLicense } from "../domain/license.ts";
import { PRODUTOS, PRODUTO_INFO } from "../domain/products.ts";
import type { IndexFile } from "../domain/publicados.ts";
import { seriesCsvPath, seriesJsonPath, seriesRecentePath, ufPublicada, type SeriesDef } from "../domain/series.ts";
import { UFS } from "../domain/ufs.ts";
import { SOURCES, allSeries, ufsDoAgregado } from "../sources/index.ts";
import { maxTime } from "./aggregate.ts";
import { excelPath, pracasCsvPath } from "./csv.ts";
import { fatosDe, type SerieOuResumo } from "./resumo.ts";
import { relativoApi } from "./datapackage.ts";

export function renderIndex(series: ReadonlyMap<string, SerieOuResumo>, config: Config): IndexFile {
  const defs = allSeries();
  return {
    api_version: "v1",
    atualizado: maxTime([...series.values()].map((f) => f.atualizado)),
    license: licenseFull(SOURCES),
    fontes: SOURCES.map((s) => ({
      id: s.id,
      nome: s.nome,
      site: s.site,
      ativa: config.fontesAtivas[s.id],
      licenca: s.termos.licenca,
      citacao: s.termos.citacao,
      termos: s.termos.texto,
      termos_url: s.termos.url,
    })),
    // a product with only state series has no national file
    produtos: PRODUTOS.map((p) => ({
      produto: p,
      nome: PRODUTO_INFO[p].nome,
      unidade: PRODUTO_INFO[p].unidade,
      // only a national file that is published: a product whose national series has no day yet has none
      path: series.has(p) ? `cotacao/${p}.json` : null,
    })),
    ufs: ufsDoAgregado().map((uf) => ({ uf, nome: UFS[uf], path: `cotacao/uf/${uf}.json` })),
    series: defs
      .filter((d) => series.has(d.id))
      .map((d: SeriesDef) => {
        const f = series.get(d.id)!;
        const h = fatosDe(f);
        const source = SOURCES.find((s) => s.id === d.fonte)!;
        return {
          id: d.id,
          path: relativoApi(seriesJsonPath(d)),
          recente: relativoApi(seriesRecentePath(d)),
          csv: relativoApi(seriesCsvPath(d)),
          csv_excel: relativoApi(excelPath(seriesCsvPath(d))),
          // state series only: the national ones have no praça table behind them
          pracas_csv: h.pracas ? relativoApi(pracasCsvPath(d)) : null,
          produto: d.produto,
          // a national series publishes the place of its indicator; `nacional` tells the two apart
          uf: ufPublicada(d),
          nacional: d.uf === null,
          praca: d.uf ? (f.praca ?? null) : null,
          regiao: d.regiao,
          fonte: d.fonte,
          unidade: d.unidade,
          primeira_data: h.primeira_data,
          ultima_data: h.ultima_data,
          pontos: h.pontos,
          valor: h.pontos ? f.valor : null,
          variacao: f.variacao,
          license: serieLicense(source),
        };
      }),
  };
}
