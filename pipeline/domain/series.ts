import type { Fonte } from "./row.ts";
import { PRODUTO_INFO, type Produto, type Unidade } from "./products.ts";
import { SCOT_UFS, UFS, type UF } from "./ufs.ts";

/** A series is one product at one place: the national reference (uf null) or a state. */
export interface SeriesKey {
  produto: Produto;
  uf: UF | null;
}

export interface SeriesDef extends SeriesKey {
  id: string;
  fonte: Fonte;
  /** page of the source (PageDef.id) the series is read from */
  pagina: string;
  /** unit of the series as published */
  unidade: Unidade;
  /** where the price is from, in words */
  regiao: string;
  /**
   * For series built from a praça table: the UF whose reference praça gives the value (the
   * national vaca_gorda is Scot's SP reference praça).
   */
  ufReferencia?: UF;
  /** name shown as the praça of a state indicator (no praça table behind it) */
  praca?: string;
}

export function seriesId(key: SeriesKey): string {
  return key.uf ? `${key.produto}/${key.uf}` : key.produto;
}

export function seriesJsonPath(key: SeriesKey): string {
  return `api/v1/cotacao/${seriesId(key)}.json`;
}

export function seriesCsvPath(key: SeriesKey): string {
  return `api/v1/historico/${seriesId(key)}.csv`;
}

/** Reference praça of each Scot UF (configurable in cotacao.config.json). */
export const DEFAULT_PRACAS_REFERENCIA: Record<(typeof SCOT_UFS)[number], string> = {
  SP: "Barretos",
  MG: "Triângulo",
  GO: "Goiânia",
  MS: "C. Grande",
  RS: "Oeste",
  BA: "Sul",
  MT: "Cuiabá",
  PR: "Noroeste",
  SC: UFS.SC,
  MA: "Oeste",
  AL: UFS.AL,
  PA: "Marabá",
  RO: "Sudeste",
  TO: "Sul",
  AC: UFS.AC,
  ES: UFS.ES,
  RJ: UFS.RJ,
  RR: UFS.RR,
};

/** Scot quotes RS per kg of live weight (50% carcass yield), every other UF per arroba. */
export const SCOT_UNIDADE_UF: Partial<Record<UF, Unidade>> = { RS: "kg" };

/** Every series the API publishes, in catalogue order. */
export function allSeries(): SeriesDef[] {
  const out: SeriesDef[] = [
    { id: "boi_gordo", produto: "boi_gordo", uf: null, fonte: "cepea", pagina: "boi-gordo", unidade: "@", regiao: "Estado de São Paulo (Indicador do Boi Gordo CEPEA/ESALQ, à vista)" },
    { id: "vaca_gorda", produto: "vaca_gorda", uf: null, fonte: "scot", pagina: "vaca-gorda", unidade: "@", regiao: "São Paulo (praça de referência da Scot Consultoria)", ufReferencia: "SP" },
    { id: "soja", produto: "soja", uf: null, fonte: "cepea", pagina: "soja", unidade: "sc60kg", regiao: "Paranaguá, PR (Indicador da Soja CEPEA/ESALQ)" },
    { id: "milho", produto: "milho", uf: null, fonte: "cepea", pagina: "milho", unidade: "sc60kg", regiao: "Campinas, SP (Indicador do Milho ESALQ/BM&FBovespa)" },
    { id: "bezerro", produto: "bezerro", uf: null, fonte: "cepea", pagina: "bezerro", unidade: "cabeca", regiao: "Mato Grosso do Sul (Indicador do Bezerro CEPEA/ESALQ)" },
  ];
  for (const produto of ["boi_gordo", "vaca_gorda"] as const) {
    for (const uf of SCOT_UFS) {
      out.push({
        id: `${produto}/${uf}`,
        produto,
        uf,
        fonte: "scot",
        pagina: produto === "boi_gordo" ? "boi-gordo" : "vaca-gorda",
        unidade: SCOT_UNIDADE_UF[uf] ?? PRODUTO_INFO[produto].unidade,
        regiao: `${UFS[uf]} (Mercado Físico, Scot Consultoria)`,
        ufReferencia: uf,
      });
    }
  }
  out.push({ id: "soja/PR", produto: "soja", uf: "PR", fonte: "cepea", pagina: "soja", unidade: "sc60kg", regiao: "Paraná (Indicador da Soja CEPEA/ESALQ - Paraná)", praca: "Paraná (média estadual)" });
  return out;
}
