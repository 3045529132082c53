/**
 * What the files that show every series (aggregates, index.json, status.json,
 * datapackage.json, the dashboard's page) need of one series: its file without the history, and
 * a few facts of the history. A run that re-renders one series keeps these for the others
 * (../site/fatos.ts), so a new day of milho never reads boi gordo's 30 years again.
 */
import type { HistoricoEntry, SerieFile } from "../domain/publicados.ts";
import { colunasHistorico, temPracas } from "./csv.ts";

/** The facts of a history that the summary files show. */
export interface FatosDoHistorico {
  pontos: number;
  primeira_data: string | null;
  ultima_data: string | null;
  /** value of the last day (the headline repeats it) */
  ultimo_valor: number | null;
  /** the columns of the series' CSV (colunasHistorico) */
  colunas: string[];
  /** whether some day has praças (then there is a praças CSV) */
  pracas: boolean;
}

/** A series file without its history, and the facts of that history. */
export type ResumoSerie = Omit<SerieFile, "historico"> & { resumo: FatosDoHistorico };

/** Either the whole file or its summary: the summary files read only what both have. */
export type SerieOuResumo = SerieFile | ResumoSerie;

export function fatosDoHistorico(historico: readonly HistoricoEntry[]): FatosDoHistorico {
  const first = historico[0];
  const last = historico[historico.length - 1];
  return {
    pontos: historico.length,
    primeira_data: first?.data ?? null,
    ultima_data: last?.data ?? null,
    ultimo_valor: last?.valor ?? null,
    colunas: colunasHistorico(historico),
    pracas: temPracas(historico),
  };
}

export function resumir(f: SerieFile): ResumoSerie {
  const { historico, ...cabeca } = f;
  return { ...cabeca, resumo: fatosDoHistorico(historico) };
}

/** The history's facts of a whole file or of a summary. */
export function fatosDe(f: SerieOuResumo): FatosDoHistorico {
  return "historico" in f ? fatosDoHistorico(f.historico) : f.resumo;
}

/** sha256 (hex) and length in bytes of a published file or part of one. */
export interface Impressao {
  sha256: string;
  bytes: number;
}

/**
 * What a run keeps of one published series so the next run can leave its files alone: its
 * summary, the fingerprint of its JSON (a file changed behind the pipeline's back is read again),
 * its CSVs' header lines (datapackage.json lists them) and its block of the long file.
 */
export interface FatosSerie {
  resumo: ResumoSerie;
  json: Impressao;
  /** path -> header line of each CSV of the series */
  cabecalhos: Record<string, string>;
  longo: Impressao & {
    /** the columns every line repeats (serie..moeda), as the long file's check compares them */
    fixos: string;
    /** sha256 of the series' "data,valor\n" lines (validate/dados.ts) */
    valores: string;
    pontos: number;
  };
}

/** An unchanged series in a run's set: its files stay as published, its facts stand for it. */
export interface SerieReusada {
  reusada: string;
  fatos: FatosSerie;
}
