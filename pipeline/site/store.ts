/**
 * The published set as a run reads it: each series' file when the run needs it (lerSerie), and
 * the facts of the last publish for the series it leaves alone (fatos.ts), trusted only when
 * they describe the tree (conferir). A tree that does not match (a file restored or edited by
 * hand, facts from other code) is rendered whole again, as by `npm run build`.
 */
import { open, stat } from "node:fs/promises";
import { PipelineError } from "../domain/errors.ts";
import { STAGING_DIR } from "../publish/journal.ts";
import { join } from "node:path";
import { readPublishedComTexto } from "../contract/schemas.ts";
import type { SerieFile } from "../domain/publicados.ts";
import { seriesJsonPath, type SeriesDef } from "../domain/series.ts";
import { HISTORICO_LONGO_PATH } from "../render/csv.ts";
import { CABECALHO_LONGO } from "../render/longo.ts";
import { renderSerie } from "../render/serie.ts";
import { allSeries, getSource } from "../sources/index.ts";
import { lembrarTextoLido, versaoDoCodigo, type EntradaDoSite } from "./assemble.ts";
import { lerFatos, type Fatos } from "./fatos.ts";

/**
 * A stored series, re-rendered from its history, praças, provenance and update time, so a
 * change in how a derived field is written reaches every file; undefined when it is not
 * published (no file, or no day yet).
 */
export async function lerSerie(root: string, def: SeriesDef, opts: { paraRenderizar?: boolean } = {}): Promise<SerieFile | undefined> {
  // validated against schemas/serie.schema.json, including that it is the series of its path:
  // rendering it again re-derives produto, uf and the headline from the catalogue, so a file
  // copied over another series' must be refused here, as stored
  const lida = await readPublishedComTexto(root, seriesJsonPath(def), "serie.schema.json");
  if (!lida || lida.doc.historico.length === 0) return undefined;
  const f = lida.doc;
  const serie = renderSerie({
    def,
    source: getSource(def.fonte),
    historico: f.historico,
    praca: f.praca ?? null,
    pracas: f.pracas ?? null,
    proveniencia: f.proveniencia,
    atualizado: f.atualizado,
  });
  // a series rendered now keeps its stored text until then, to skip validating it again when it
  // renders to the same bytes; one an update holds for the whole run does not (30 years of text)
  return opts.paraRenderizar ? lembrarTextoLido(serie, lida.lido) : serie;
}

export interface StoreAberto {
  /** the facts of the published set, checked against it; null: render every series */
  fatos: Fatos | null;
  /** why the facts are not used, when they are not */
  motivo: string;
  /** the run's input: the series it merged (and read) in memory, the ones it changed rendered */
  entrada(lidas: ReadonlyMap<string, SerieFile>, alteradas: ReadonlySet<string>): EntradaDoSite;
}

async function tamanho(path: string): Promise<number | null> {
  try {
    return (await stat(path)).size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

/**
 * Why the facts do not describe the tree, or null when they do. Each series JSON by its size: a
 * run must not read 30 years of every series to add one day of one; a file changed behind the
 * pipeline's back keeping its size is caught by `npm run validate`, which checks every
 * fingerprint (the workflow runs it before anything is committed or deployed). The long file by
 * its size and header here; its blocks are copied into the new one, and each is checked against
 * its sha256 as it is copied (publish/write.ts): a copied block is never a damaged one, and a
 * run that finds one renders every series instead (run/update.ts).
 */
async function conferir(root: string, fatos: Fatos): Promise<string | null> {
  const ids = new Set(allSeries().map((d) => d.id));
  // a series the catalogue no longer has still has its block in the published long file
  const fora = Object.keys(fatos.series).find((id) => !ids.has(id));
  if (fora) return `os fatos registram a série ${fora}, que o catálogo não tem mais`;
  for (const def of allSeries()) {
    const fa = fatos.series[def.id];
    const n = await tamanho(join(root, seriesJsonPath(def)));
    if (!fa) {
      if (n !== null) return `${seriesJsonPath(def)} não consta dos fatos`;
      continue;
    }
    if (n === null) return `${seriesJsonPath(def)} consta dos fatos, mas não existe`;
    if (n !== fa.json.bytes) return `${seriesJsonPath(def)} mudou desde a última publicação (${n} bytes, os fatos dizem ${fa.json.bytes})`;
  }
  const cabecalho = Buffer.byteLength(CABECALHO_LONGO);
  const esperado = cabecalho + Object.values(fatos.series).reduce((a, f) => a + f.longo.bytes, 0);
  const n = await tamanho(join(root, HISTORICO_LONGO_PATH));
  if (n !== esperado) return `${HISTORICO_LONGO_PATH} tem ${n ?? 0} bytes, os fatos dizem ${esperado}`;
  const fh = await open(join(root, HISTORICO_LONGO_PATH), "r");
  try {
    const b = Buffer.alloc(cabecalho);
    await fh.read(b, 0, cabecalho, 0);
    if (b.toString("utf8") !== CABECALHO_LONGO) return `${HISTORICO_LONGO_PATH} não começa pelo cabeçalho`;
  } finally {
    await fh.close();
  }
  return null;
}

/**
 * The store of a run. `semFatos`: why the facts must not be used (a copied block found changed
 * by the publish that tried to copy it): every series is rendered, as by `npm run build`.
 */
/** Where a run puts aside the new blocks of the long file: inside the publish's staging directory, discarded with it. */
export function rascunhoDoLongo(root: string): string {
  return join(root, STAGING_DIR, ".rascunho", "historico.blocos");
}

export async function abrirStore(root: string, semFatos?: string): Promise<StoreAberto> {
  const lidos = semFatos === undefined ? await lerFatos(root, versaoDoCodigo) : null;
  const motivo = semFatos ?? (lidos ? await conferir(root, lidos) : "sem fatos desta versão do código");
  const fatos = motivo === null ? lidos : null;
  return {
    fatos,
    motivo: motivo ?? "",
    entrada: (lidas, alteradas) => ({
      fatos,
      renderizar: (def) => fatos === null || alteradas.has(def.id),
      carregar: async (def) => lidas.get(def.id) ?? (await lerSerie(root, def, { paraRenderizar: true })),
      rascunho: rascunhoDoLongo(root),
      raiz: root,
      longoPublicado: () => {
        if (!fatos) throw new PipelineError({ stage: "merge", reason: `${HISTORICO_LONGO_PATH}: sem fatos conferidos, não há bloco a copiar; rode npm run build` });
        return join(root, HISTORICO_LONGO_PATH);
      },
    }),
  };
}
