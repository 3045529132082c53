/**
 * Site assembly: every file of one published set, in one place, from the series, the status,
 * the events and the capture log. Series JSON and CSV (with the praças CSV and the Excel-BR
 * variants), the long CSV of every series, aggregates, catalogue, the Frictionless
 * datapackage.json, LICENSE and CITATION.cff, status, schemas, events and feed, then the API description (openapi.json, docs/, client.js: last, its examples
 * are the other files), then the year's capture log. The pure renderers live in ../render/ and
 * the event and API files in their own stages; run/ calls this and hands the set to publish/.
 */
import { readdirSync, readFileSync } from "node:fs";
import { mkdir, open, rm, type FileHandle } from "node:fs/promises";
import { dirname, join, sep } from "node:path";
import { REPO_ROOT, type Config } from "../config.ts";
import type { HistoricoEntry, SerieFile, StatusFile } from "../domain/publicados.ts";
import { SOURCES, allSeries, ufsDoAgregado } from "../sources/index.ts";
import type { CapturasFile } from "../history/capturas.ts";
import { renderAggregate } from "../render/aggregate.ts";
import { renderCapturas } from "../render/capturas.ts";
import { renderIndex } from "../render/catalogue.ts";
import { HISTORICO_LONGO_PATH, cabecalhosCsv, historicoCsvs, pracasCsvs, type DuasGrafias } from "../render/csv.ts";
import { agregadoUfPath, caminhosDaSerie, comoTirarDoSite, derivadosDaSerie, historicosForaDoCatalogo, sobrasNoDisco } from "./caminhos.ts";
import { PipelineError } from "../domain/errors.ts";
import { CABECALHO_LONGO, blocoLongo, defsDoLongo } from "../render/longo.ts";
import { resumir, type FatosSerie, type ResumoSerie, type SerieOuResumo, type SerieReusada } from "../render/resumo.ts";
import { longoDaSerie, type LongoEsperado, type LongoMontado } from "../validate/dados.ts";
import type { SeriesDef } from "../domain/series.ts";
import { createHash } from "node:crypto";
import { janelaRecente, renderSerie } from "../render/serie.ts";
import { edicaoDoCatalogo, getSource } from "../sources/index.ts";
import { impressao, type Fatos, textoDosFatos, FATOS_PATH } from "./fatos.ts";
import type { TextoValidado } from "../contract/schemas.ts";
import { DATAPACKAGE_PATH, renderDataPackage } from "../render/datapackage.ts";
import { CITATION_PATH, LICENSE_PATH, citacaoCff, licencaTexto } from "../render/licenca.ts";
import { stringifyDoc, type RenderedFile } from "../render/json.ts";
import type { EventosFile } from "../events/model.ts";
import { eventosFiles } from "../events/render.ts";
import { apiDescriptionFiles } from "../openapi/site.ts";
import { paginaDoSite } from "./painel.ts";
import type { ArquivoEmPartes, ItemDoConjunto, TrechoCopiado } from "../publish/write.ts";

export type { RenderedFile };

/** What a set holds besides the series and the status. */
export interface SiteExtras {
  /** api/v1/eventos.json and feed.xml */
  eventos?: EventosFile;
  /** the year's capture log, api/v1/capturas/{ano}.json (update writes it; build leaves it as it is) */
  capturas?: CapturasFile;
}

export const SCHEMAS_DIR = join(REPO_ROOT, "schemas");

/** The JSON Schemas, published as they are under public/schemas/. */
export function schemaFiles(): Map<string, string> {
  const out = new Map<string, string>();
  let names: string[] = [];
  try {
    names = readdirSync(SCHEMAS_DIR).filter((n) => n.endsWith(".schema.json")).sort();
  } catch {
    return out;
  }
  for (const n of names) out.set(`schemas/${n}`, readFileSync(join(SCHEMAS_DIR, n), "utf8"));
  return out;
}

/** The files of one series (JSON, CSV and its Excel-BR variant, praças CSV and its variant), its block of the long file and its facts. */
export interface SerieRenderizada {
  arquivos: RenderedFile[];
  bloco: string;
  /** `bloco` in UTF-8, whose sha256 and size are its facts' (`fatos.longo`) */
  blocoBytes: Buffer;
  fatos: FatosSerie;
}

/** the stored text each series was read from (site/store.ts lerSerie), while the series is at hand */
const textosLidos = new WeakMap<SerieFile, TextoValidado>();

/** Remembers the text `f` was read from, so its file rendered to the same bytes is not validated twice (RenderedFile.lido). */
export function lembrarTextoLido(f: SerieFile, lido: TextoValidado): SerieFile {
  textosLidos.set(f, lido);
  return f;
}

export function renderSerieFiles(def: SeriesDef, f: SerieFile): SerieRenderizada {
  const arquivos: RenderedFile[] = [];
  const json = stringifyDoc(f);
  const lido = textosLidos.get(f);
  // every path from caminhosDaSerie: the same names tell a run which files on disk are leftovers (caminhos.ts)
  const c = caminhosDaSerie(def);
  arquivos.push({ path: c.json, text: json, doc: f, comCsvs: true, ...(lido ? { lido } : {}) });
  // the dashboard's 30-day and 1-year chart reads this one, not decades of history
  const recente = janelaRecente(f);
  arquivos.push({ path: c.recente, text: recente === f ? json : stringifyDoc(recente), doc: recente });
  const csv = (path: string, excel: string, t: DuasGrafias, tabela: "historico" | "pracas") => {
    arquivos.push({ path, text: t.csv, daSerie: { json: c.json, tabela, excel: false } }, { path: excel, text: t.excel, daSerie: { json: c.json, tabela, excel: true } });
  };
  csv(c.csv, c.csvExcel, historicoCsvs(f.historico, f.unidade), "historico");
  const pracas = pracasCsvs(f.historico, f.unidade);
  if (pracas) csv(c.pracas, c.pracasExcel, pracas, "pracas");
  const bloco = blocoLongo(def, f);
  const blocoBytes = Buffer.from(bloco, "utf8");
  return { arquivos, bloco, blocoBytes, fatos: fatosDaSerie(def, f, json, blocoBytes) };
}

/**
 * A series' facts (.fatos.json) from its canonical JSON text and its block of the long file,
 * without rendering its CSVs: renderSerieFiles records them, `npm run validate` recomputes them
 * (site/conferir.ts).
 */
export function fatosDaSerie(def: SeriesDef, f: SerieFile, json: string, blocoBytes: Buffer): FatosSerie {
  const cab = cabecalhosCsv(f.historico);
  const c = caminhosDaSerie(def);
  const cabecalhos: Record<string, string> = { [c.csv]: cab.historico };
  if (cab.pracas !== null) cabecalhos[c.pracas] = cab.pracas;
  const l = longoDaSerie(def.id, f);
  return { resumo: resumir(f), json: impressao(json), cabecalhos, longo: { ...impressao(blocoBytes), fixos: l.fixos, valores: l.hash, pontos: l.pontos } };
}

/**
 * Every file of the site from the series and the status: the series files themselves
 * (re-rendered, so formatting is always the canonical one), CSVs, aggregates, catalogue,
 * status, schemas, events, the API description (its examples are a fixed sample,
 * pipeline/openapi/exemplos.json), the dashboard's page, the capture log and the facts the next
 * run starts from (fatos.ts). Every series held in memory: tests, small sites and the backfill;
 * build and update go through `montarSite`, one series at a time.
 */
export function* renderSiteFiles(
  series: ReadonlyMap<string, SerieFile>,
  status: StatusFile,
  config: Config,
  extras: SiteExtras = {},
): Generator<RenderedFile> {
  const fatos: Record<string, FatosSerie> = {};
  const blocos = new Map<string, string>();
  for (const def of allSeries()) {
    const f = series.get(def.id);
    if (!f) continue;
    const r = renderSerieFiles(def, f);
    yield* r.arquivos;
    fatos[def.id] = r.fatos;
    blocos.set(def.id, r.bloco);
  }
  const ordem = defsDoLongo().filter((d) => blocos.has(d.id));
  const montado: LongoMontado = { blocos: ordem.map((d) => ({ id: d.id, bytes: Buffer.byteLength(blocos.get(d.id)!) })) };
  yield { path: HISTORICO_LONGO_PATH, text: CABECALHO_LONGO + ordem.map((d) => blocos.get(d.id)!).join(""), doc: montado };
  yield* globalFiles(series, status, config, extras);
  yield { path: FATOS_PATH, text: textoDosFatos({ versao: 1, codigo: versaoDoCodigo(), fonte: fonteDoCodigo(), series: fatos }) };
}

let versao: { edicao: number; hash: string } | null = null;

/**
 * How this code writes a series' files, as one hash: every catalogue series rendered from the
 * same made-up history (more than a year of days, every column a history can have, praças whose
 * names need quoting), so the recent window, the Scot columns and the praças files take part. A
 * change to a renderer or to a series' declaration changes it, and the next run renders every
 * series again instead of trusting facts written the old way; a change that writes nothing
 * differently (a comment, a parser) does not.
 */
export function versaoDoCodigo(conhecida?: Pick<Fatos, "codigo" | "fonte">): string {
  if (versao?.edicao === edicaoDoCatalogo()) return versao.hash;
  // facts written by this very source carry this very version: no need to render it again
  const fonte = fonteDoCodigo();
  if (fonte !== undefined && conhecida?.fonte === fonte) {
    versao = { edicao: edicaoDoCatalogo(), hash: conhecida.codigo };
    return versao.hash;
  }
  const h = createHash("sha256");
  const momento = "2000-01-04T12:00:00-03:00";
  const historico: HistoricoEntry[] = [];
  for (let i = 0; i < 400; i++) {
    const data = new Date(Date.UTC(1999, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
    const valor = 100 + (i % 37) / 4;
    historico.push(
      i % 3 === 0
        ? { data, valor, valor_usd: valor / 2 }
        : { data, valor, valor_30d: valor + 1, base_sp: -1.5, funrural_avista: valor - 1.5, funrural_30d: valor - 0.5, senar_avista: valor - 0.25, senar_30d: valor + 0.75, tendencia: i % 2 ? "alta" : "estavel", pracas: { "Três Lagoas": valor, 'B; "C", D': valor - 1 } },
    );
  }
  // the long history once per kind of series (source, national or state), two days for every
  // other: every declaration counts, and the renderers see every shape of history
  const vistos = new Set<string>();
  for (const def of allSeries()) {
    const source = getSource(def.fonte);
    const tipo = `${def.fonte}|${def.uf === null}`;
    const longo = !vistos.has(tipo);
    vistos.add(tipo);
    const f = renderSerie({
      def,
      source,
      historico: longo ? historico : historico.slice(-2),
      praca: def.uf ? "Três Lagoas" : null,
      pracas: def.uf ? [{ praca: "Três Lagoas", valor: 101, unidade: def.unidade }] : null,
      proveniencia: { fonte: source.id, nome: source.nome, url: source.site, coletado_em: momento, via: null, via_url: null, licenca: source.termos.licenca, citacao: source.termos.citacao, termos: source.termos.texto },
      atualizado: momento,
    });
    const r = renderSerieFiles(def, f);
    for (const a of r.arquivos) h.update(`${a.path}\n${a.text}\n`);
    h.update(`${r.bloco}\n${JSON.stringify(r.fatos)}\n`);
  }
  versao = { edicao: edicaoDoCatalogo(), hash: h.digest("hex").slice(0, 16) };
  return versao.hash;
}

/**
 * The source the renderers run from, as one hash: every .ts file under pipeline/, the lockfile
 * (the libraries) and the Node and ICU versions. Two runs of the same source render the same way,
 * so facts that carry it need not have versaoDoCodigo computed again (tens of milliseconds of a
 * one-day update); any other source computes it. Hashed once, when this module loads: the code
 * this process runs is the files of that instant, and a hash taken later could vouch for files
 * changed since (a pull during a long build).
 */
function hashDaFonte(): string {
  const h = createHash("sha256");
  h.update(`node ${process.versions.node} icu ${process.versions.icu ?? "-"}\n`);
  const dir = join(REPO_ROOT, "pipeline");
  const arquivos = (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith(".ts")).map((f) => f.split(sep).join("/")).sort();
  for (const f of [...arquivos.map((a) => `pipeline/${a}`), "package-lock.json"]) {
    let texto: Buffer;
    try {
      texto = readFileSync(join(REPO_ROOT, f));
    } catch {
      continue;
    }
    h.update(`${f} ${texto.length}\n`).update(texto);
  }
  return h.digest("hex").slice(0, 16);
}

const fonteAoCarregar = hashDaFonte();

/** Off under vitest: a test may mock a renderer, and then the files on disk are not the code that runs. */
let fonteNosFatos = !process.env.VITEST;

/** Test-only: whether runs vouch for their renderer's hash by their source's (null: the default, off under vitest). */
export function setFonteNosFatos(sim: boolean | null): void {
  fonteNosFatos = sim ?? !process.env.VITEST;
}

/**
 * This process's source hash for the facts, or undefined when it cannot vouch for its renderer:
 * a source registered at run time (the catalogue is more than the files), or under tests.
 */
export function fonteDoCodigo(): string | undefined {
  return fonteNosFatos && edicaoDoCatalogo() === 0 ? fonteAoCarregar : undefined;
}

/** Where a run gets its series: the ones to render now, and the facts of the ones it leaves alone. */
export interface EntradaDoSite {
  /** a series to render now (read from the store, or merged by this run); undefined: not published */
  carregar(def: SeriesDef): Promise<SerieFile | undefined>;
  /** the series to render now; the others keep their files and stand by their facts */
  renderizar(def: SeriesDef): boolean;
  /** the facts of the published set (required when some series is not rendered) */
  fatos: Fatos | null;
  /** a scratch file for new blocks of the long file (absolute path, removed after the long file is written); absent: every block held in memory */
  rascunho?: string;
  /** the published long file (absolute path), whose blocks of the series not rendered are copied (and checked) as the set is published */
  longoPublicado(): string;
  /**
   * the site root, whose derived files no series of this set produces (caminhos.ts sobrasNoDisco)
   * are removed with the set, and which must hold no history of a series out of the catalogue;
   * absent: nothing is removed
   */
  raiz?: string;
}

/**
 * The site of a run, one series at a time: the series it renders go out as files (and are let
 * go), the others as their facts (SerieReusada), then the long file (the new blocks, and the
 * others' bytes copied from the published file), the files
 * that show every series (from summaries), and the new facts.
 */
export async function* montarSite(
  entrada: EntradaDoSite,
  status: (series: ReadonlyMap<string, ResumoSerie>) => StatusFile,
  config: Config,
  extras: SiteExtras = {},
): AsyncGenerator<ItemDoConjunto> {
  const resumos = new Map<string, ResumoSerie>();
  const fatos: Record<string, FatosSerie> = {};
  // the new blocks, until the long file is written after every series: in memory while they are
  // few (an update's), then put aside in a scratch file (a full build's are most of 75 MB)
  const blocos = new Map<string, Buffer | TrechoCopiado>();
  const rascunho = new Rascunho(entrada.rascunho);
  // a history of a series the catalogue no longer has: never removed by the pipeline, never
  // published around either (its URL would serve a price no run updates, and no status tells)
  const fora = entrada.raiz === undefined ? [] : await historicosForaDoCatalogo(entrada.raiz);
  if (fora.length > 0) {
    throw new PipelineError({
      stage: "render",
      reason: `${fora.join(", ")}: ${fora.length === 1 ? "histórico de uma série" : "históricos de séries"} que o catálogo (pipeline/sources/) não tem mais; nada foi publicado. ${comoTirarDoSite(entrada.raiz!, fora)}`,
    });
  }
  // every derived file of the set, the series left as they are included: what is not is a leftover
  const doConjunto = new Set<string>(ufsDoAgregado().map(agregadoUfPath));
  try {
    for (const def of allSeries()) {
      if (entrada.renderizar(def)) {
        const f = await entrada.carregar(def);
        if (!f) continue;
        const r = renderSerieFiles(def, f);
        for (const a of r.arquivos) doConjunto.add(a.path);
        yield* r.arquivos;
        fatos[def.id] = r.fatos;
        resumos.set(def.id, r.fatos.resumo);
        const bytes = r.blocoBytes;
        if (!rascunho.cabe(bytes.length)) {
          // checked now, while its text is at hand; the long file must then hold these bytes
          yield { blocoNovo: def.id, texto: r.bloco };
          blocos.set(def.id, await rascunho.guardar(`o bloco novo de ${def.id}, posto de lado`, bytes, r.fatos.longo.sha256));
        } else {
          blocos.set(def.id, bytes);
        }
      } else {
        const fa = entrada.fatos?.series[def.id];
        if (!fa) continue;
        for (const p of derivadosDaSerie(def, caminhosDaSerie(def).pracas in fa.cabecalhos)) doConjunto.add(p);
        yield { reusada: def.id, fatos: fa };
        fatos[def.id] = fa;
        resumos.set(def.id, fa.resumo);
      }
    }
    yield longoMontado(entrada, blocos, fatos);
  } finally {
    await rascunho.fechar();
  }
  if (entrada.raiz !== undefined) for (const p of await sobrasNoDisco(entrada.raiz, doConjunto)) yield { apagar: p };
  yield* globalFiles(resumos, status(resumos), config, extras);
  yield { path: FATOS_PATH, text: textoDosFatos({ versao: 1, codigo: versaoDoCodigo(), fonte: fonteDoCodigo(), series: fatos }) };
}

/** New blocks of the long file held in memory, at most (beyond, they go to the scratch file). */
let limiteEmMemoria = 4 << 20;

/** Test-only: how many bytes of new blocks montarSite holds in memory before putting them aside (0: every one aside). */
export function setLimiteDoLongoEmMemoria(bytes: number | null): void {
  limiteEmMemoria = bytes ?? 4 << 20;
}

/**
 * The scratch file of new blocks (EntradaDoSite.rascunho, inside the publish's staging directory,
 * so it is discarded with it, a killed run's too): written once, and copied into the long file by
 * the publish, which checks each block's sha256 as it copies.
 */
class Rascunho {
  private emMemoria = 0;
  private fh: FileHandle | null = null;
  private pos = 0;
  constructor(private readonly arquivo: string | undefined) {}

  cabe(bytes: number): boolean {
    if (this.arquivo === undefined || this.emMemoria + bytes <= limiteEmMemoria) {
      this.emMemoria += bytes;
      return true;
    }
    return false;
  }

  async guardar(rotulo: string, bytes: Buffer, sha256: string): Promise<TrechoCopiado> {
    if (!this.fh) {
      await mkdir(dirname(this.arquivo!), { recursive: true });
      this.fh = await open(this.arquivo!, "w+");
    }
    await this.fh.write(bytes, 0, bytes.length, this.pos);
    const t: TrechoCopiado = { de: this.arquivo!, inicio: this.pos, bytes: bytes.length, sha256, rotulo };
    this.pos += bytes.length;
    return t;
  }

  /** Closes it; the file stays until the publish has copied it (in its thread, after the set) and goes with the staging directory. */
  async fechar(): Promise<void> {
    if (!this.fh) return;
    await this.fh.close();
    this.fh = null;
  }
}

/**
 * The long file in parts: new blocks where a series was rendered, byte ranges of the published
 * file for the others, each with the sha256 its facts record (publish/write.ts checks it as it
 * copies, and refuses the set when a range is not what the last publish wrote).
 */
function longoMontado(entrada: EntradaDoSite, blocos: ReadonlyMap<string, Buffer | TrechoCopiado>, fatos: Readonly<Record<string, FatosSerie>>): ArquivoEmPartes {
  const reusar = defsDoLongo().filter((d) => !blocos.has(d.id) && fatos[d.id]);
  const partes: Array<Buffer | TrechoCopiado> = [Buffer.from(CABECALHO_LONGO)];
  const lista: Array<LongoMontado["blocos"][number]> = [];
  let publicado: string | null = null;
  // where each series' block starts in the published file: its series in order, as its facts say
  const inicio = new Map<string, number>();
  if (reusar.length > 0) {
    publicado = entrada.longoPublicado();
    let at = Buffer.byteLength(CABECALHO_LONGO);
    for (const d of defsDoLongo()) {
      const fa = entrada.fatos?.series[d.id];
      if (!fa) continue;
      inicio.set(d.id, at);
      at += fa.longo.bytes;
    }
  }
  for (const d of defsDoLongo()) {
    const novo = blocos.get(d.id);
    if (novo !== undefined) {
      partes.push(novo);
      lista.push({ id: d.id, bytes: Buffer.isBuffer(novo) ? novo.length : novo.bytes });
      continue;
    }
    const fa = fatos[d.id];
    if (!fa || !publicado) continue;
    partes.push({ de: publicado, inicio: inicio.get(d.id)!, bytes: fa.longo.bytes, sha256: fa.longo.sha256, rotulo: `o bloco de ${d.id} em ${HISTORICO_LONGO_PATH}` });
    lista.push({ id: d.id, bytes: fa.longo.bytes, reusado: { fixos: fa.longo.fixos, hash: fa.longo.valores, pontos: fa.longo.pontos } });
  }
  return { path: HISTORICO_LONGO_PATH, partes, doc: { blocos: lista } satisfies LongoMontado };
}

/** The files that show every series, from each series' summary (or whole file), and the rest of the site. */
function* globalFiles(series: ReadonlyMap<string, SerieOuResumo>, status: StatusFile, config: Config, extras: SiteExtras): Generator<RenderedFile> {
  const agg = renderAggregate(series, null);
  yield { path: "api/v1/cotacao.json", text: stringifyDoc(agg), doc: agg };
  for (const uf of ufsDoAgregado()) {
    const doc = renderAggregate(series, uf);
    yield { path: agregadoUfPath(uf), text: stringifyDoc(doc), doc };
  }
  const index = renderIndex(series, config);
  yield { path: "api/v1/index.json", text: stringifyDoc(index), doc: index };
  const pacote = renderDataPackage(series);
  yield { path: DATAPACKAGE_PATH, text: stringifyDoc(pacote), doc: pacote };
  yield { path: LICENSE_PATH, text: licencaTexto(SOURCES) };
  yield { path: CITATION_PATH, text: citacaoCff(SOURCES) };
  yield { path: "api/v1/status.json", text: stringifyDoc(status), doc: status };
  // the dashboard's page shows this run's prices (and link previews) without JavaScript
  yield { path: "index.html", text: paginaDoSite({ agg, index, status }) };
  const schemas = schemaFiles();
  for (const [path, text] of schemas) yield { path, text };
  if (extras.eventos) for (const [path, text] of eventosFiles(extras.eventos)) yield { path, text };
  // the API description reads the schemas of the same render (its examples are a fixed sample)
  for (const [path, text] of apiDescriptionFiles(schemas)) yield { path, text };
  if (extras.capturas) yield renderCapturas(extras.capturas);
}

/** The whole site as a map of path -> text (tests, small sites). */
export function renderSite(
  series: ReadonlyMap<string, SerieFile>,
  status: StatusFile,
  config: Config,
  extras: SiteExtras = {},
): Map<string, string> {
  const files = new Map<string, string>();
  for (const f of renderSiteFiles(series, status, config, extras)) files.set(f.path, f.text);
  return files;
}
