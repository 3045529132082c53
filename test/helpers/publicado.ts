/**
 * The state most tests of a second run start from: the recorded pages of every source published
 * into a temp site, and a copy of those pages edited for the next run (a describe's pair, removed
 * after it); and Scot blocked, its pages read from the Notícias Agrícolas republication instead.
 */
import { cp, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import type { SerieFile } from "../../pipeline/domain/publicados.ts";
import type { UpdateReport } from "../../pipeline/run/update.ts";
import { cleanup, editPage, FIXTURES, readJson, replay, replayDir, tempSite } from "./pipeline.ts";

/** When the recorded pages are first published (the second run comes after). */
export const PRIMEIRA_PUBLICACAO = "2026-09-27T12:00:00-03:00";

/** A temp site holding what the recorded pages of every source publish. */
export async function sitePublicado(): Promise<string> {
  const site = await tempSite();
  await replay(FIXTURES, site, PRIMEIRA_PUBLICACAO);
  return site;
}

/**
 * For a describe: a site published from the recorded pages, and a copy of the pages that
 * `preparar` edits for the next run; both removed after the describe.
 */
export function publicadoEPaginasDoDescribe(preparar: (pages: string) => Promise<void>): () => { site: string; pages: string } {
  let par: { site: string; pages: string } | undefined;
  beforeAll(async () => {
    const site = await sitePublicado();
    const pages = await replayDir();
    par = { site, pages };
    await preparar(pages);
  });
  afterAll(async () => {
    if (par) await cleanup(par.site, par.pages);
  });
  return () => {
    if (!par) throw new Error("publicadoEPaginasDoDescribe: fora de um teste do describe");
    return par;
  };
}

/** Scot blocked: `paginas` of Scot gone from the recording, the Notícias Agrícolas republication in their place. */
export async function scotPeloEspelho(pages: string, paginas: readonly string[] = ["boi-gordo", "vaca-gorda"]): Promise<void> {
  for (const p of paginas) await rm(join(pages, `scot/${p}.html`));
  await cp(join(FIXTURES, "noticias-agricolas"), join(pages, "noticias-agricolas"), { recursive: true });
  await editPage(pages, COPIA_DA_SCOT, copiaRedatada);
}

/** Notícias Agrícolas' copy of Scot's Mercado Físico, as the replay layout names it. */
export const COPIA_DA_SCOT = "noticias-agricolas/boi-gordo-scot-consultoria.html";

/**
 * The copy is recorded on 05/02/2026 and Scot's own table on 05/08/2026: six months behind, its
 * day would be refused as a mistyped date (checkDiasAntigos). Tests of a run through the copy date
 * it 30 days before Scot's table: still a lagging mirror filling a day behind the latest, and 30
 * days apart the jump limit (20,7 % for boi and vaca) holds February's prices against August's
 * (the largest move between the two recordings is RS Pelotas', 16,8 %).
 */
export const DIA_DA_COPIA = "2026-07-06";
export function copiaRedatada(html: string): string {
  const out = html.replace("Fechamento: 05/02/2026", "Fechamento: 06/07/2026");
  if (out === html) throw new Error("cópia da Scot sem 'Fechamento: 05/02/2026'");
  return out;
}

/**
 * A second run, on a site published from the recorded pages, with the copy of the pages edited by
 * `preparar`: the run's report, the outcome of each page by "fonte/pagina", and the series `ids`
 * before and after it. Both temp dirs are removed before it returns.
 */
export async function segundaExecucao(
  preparar: (pages: string) => Promise<void>,
  ids: readonly string[],
): Promise<{ r: UpdateReport; pagina: (id: string) => UpdateReport["outcomes"][number]; antes: Record<string, SerieFile>; series: Record<string, SerieFile> }> {
  const site = await sitePublicado();
  const pages = await replayDir();
  const ler = async () => {
    const out: Record<string, SerieFile> = {};
    for (const id of ids) out[id] = await readJson<SerieFile>(site, `api/v1/cotacao/${id}.json`);
    return out;
  };
  try {
    const antes = await ler();
    await preparar(pages);
    const r = await replay(pages, site, "2026-09-27T13:00:00-03:00");
    const pagina = (id: string) => {
      const o = r.outcomes.find((x) => `${x.source}/${x.page}` === id);
      if (!o) throw new Error(`a execução não tem a página ${id}`);
      return o;
    };
    return { r, pagina, antes, series: await ler() };
  } finally {
    await cleanup(site, pages);
  }
}

/** The recorded page `arquivo` ("cepea/frango.html") edited by `editar` for a second run (segundaExecucao). */
export function comPaginaEditada(arquivo: string, editar: (html: string) => string, ids: readonly string[]): ReturnType<typeof segundaExecucao> {
  return segundaExecucao((pages) => editPage(pages, arquivo, editar), ids);
}

/**
 * The recorded page `arquivo` edited by `editar`, read in a second run: the page `pagina`
 * ("scot/boi-gordo") must be refused as `kind`, saying `motivo` if given, and none of the series `ids` may
 * change. Returns the reason and the series before and after, for what a test checks besides.
 */
export async function paginaEditadaRecusada(
  arquivo: string,
  editar: (html: string) => string,
  ids: readonly string[],
  esperado: { pagina: string; kind: "rejected" | "parse_error"; motivo?: string | RegExp },
): Promise<{ reason: string; antes: Record<string, SerieFile>; series: Record<string, SerieFile> }> {
  const { pagina, antes, series } = await comPaginaEditada(arquivo, editar, ids);
  const o = pagina(esperado.pagina);
  expect(o).toMatchObject({ ok: false, kind: esperado.kind });
  const reason = o.ok ? "" : o.reason;
  if (typeof esperado.motivo === "string") expect(reason).toContain(esperado.motivo);
  else if (esperado.motivo) expect(reason).toMatch(esperado.motivo);
  for (const id of ids) expect(series[id], id).toEqual(antes[id]);
  return { reason, antes, series };
}

/**
 * A second run with Scot blocked (`paginas`) and its Notícias Agrícolas copy edited by `editar`
 * (segundaExecucao).
 */
export async function pelaCopiaEditada(
  editar: (html: string) => string,
  ids: readonly string[],
  paginas?: readonly string[],
): Promise<{ r: UpdateReport; series: Record<string, SerieFile> }> {
  return segundaExecucao(async (pages) => {
    await scotPeloEspelho(pages, paginas);
    await editPage(pages, COPIA_DA_SCOT, editar);
  }, ids);
}
