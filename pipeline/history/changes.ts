/**
 * What merging a page changed in a series: the record that travels down the line from the merge
 * to the checks (revision bounds), the run report, the capture log and the events.
 */
import type { Revision } from "./merge.ts";

/** One published field a page changes on a day already published. */
export interface RevisaoCampo {
  serie: string;
  data: string;
  /** "valor", "valor_usd", ..., "pracas.Barretos" (the praça's cash price that day), "pracas.Barretos.valor_30d" */
  campo: string;
  antes: number | string | null;
  depois: number | string | null;
}

export interface SeriesChange {
  id: string;
  added: string[];
  revised: Revision[];
  /**
   * every published field the page itself changes (not those a new reference praça in the
   * configuration re-bases), for the revision bound and the capture log
   */
  campos: RevisaoCampo[];
  /** the fields changed by re-basing on a reference praça changed in the configuration */
  rebase: RevisaoCampo[];
  pracasChanged: boolean;
  antes: { data: string; valor: number } | null;
  depois: { data: string; valor: number };
}
