/** index.json: the catalogue of sources, products, UFs and every published series. */
import type { Config } from "../config.ts";
import { licenseFull, serieLicense } from "../domain/license.ts";
import { PRODUTOS, PRODUTO_INFO } from "../domain/products.ts";
import type { IndexFile, SerieFile } from "../domain/publicados.ts";
import { seriesCsvPath, seriesJsonPath, type SeriesDef } from "../domain/series.ts";
import { UFS } from "../domain/ufs.ts";
import { SOURCES, allSeries, ufsDoAgregado } from "../sources/index.ts";
import { maxTime } from "./aggregate.ts";

export function renderIndex(series: ReadonlyMap<string, SerieFile>, config: Config): IndexFile {
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
      path: series.has(p) ? `api/v1/cotacao/${p}.json` : null,
    })),
    ufs: ufsDoAgregado().map((uf) => ({ uf, nome: UFS[uf], path: `api/v1/cotacao/uf/${uf}.json` })),
    series: defs
      .filter((d) => series.has(d.id))
      .map((d: SeriesDef) => {
        const f = series.get(d.id)!;
        const source = SOURCES.find((s) => s.id === d.fonte)!;
        return {
          id: d.id,
          path: seriesJsonPath(d),
          csv: seriesCsvPath(d),
          produto: d.produto,
          uf: d.uf,
          praca: d.uf ? (f.praca ?? null) : null,
          regiao: d.regiao,
          fonte: d.fonte,
          unidade: d.unidade,
          primeira_data: f.historico[0]?.data ?? null,
          ultima_data: f.historico[f.historico.length - 1]?.data ?? null,
          pontos: f.historico.length,
          valor: f.historico.length ? f.valor : null,
          variacao: f.variacao,
          license: serieLicense(source),
        };
      }),
  };
}
