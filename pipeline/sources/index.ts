/**
 * The catalogue: every source with its pages and the series each page feeds (declared in the
 * source's own module), put together with the products' traits (domain/products.ts). Every list
 * of series, pages, UFs and aggregates the pipeline, the site, the server, the API description
 * and the commands use comes from here, so a new series of an existing kind is one entry in its
 * source's declaration.
 */
import { agregados, agregadosUf, PRODUTO_INFO, PRODUTOS, type AggregateKey, type Produto } from "../domain/products.ts";
import type { Fonte } from "../domain/row.ts";
import { seriesId, type SeriesDef } from "../domain/series.ts";
import type { UF } from "../domain/ufs.ts";
import { cepea } from "./cepea.ts";
import { datagro } from "./datagro.ts";
import { ESPELHOS_WIDGET } from "./cepea-widget.ts";
import { ESPELHOS_NA, ESPELHOS_NA_CEPEA } from "./noticias-agricolas.ts";
import { scot } from "./scot.ts";
import type { MirrorDef, SourceDef } from "./types.ts";

/** Every source, in the order runs visit them (live: registrarFonte appends). */
export const SOURCES: readonly SourceDef[] = [cepea, scot, datagro];

/**
 * The mirrors of each page, keyed "{source}/{page}", in the order they are tried when the page
 * stays blocked (live) or its recording is missing, blocked or challenged (--replay): Notícias
 * Agrícolas' republication first, then CEPEA's widget (one day, the last resort).
 */
export const MIRRORS: Readonly<Record<string, readonly MirrorDef[]>> = espelhosPorPagina([...ESPELHOS_NA, ...ESPELHOS_NA_CEPEA, ...ESPELHOS_WIDGET]);

function espelhosPorPagina(todos: readonly MirrorDef[]): Record<string, readonly MirrorDef[]> {
  const out: Record<string, MirrorDef[]> = {};
  for (const m of todos) (out[m.paraPagina] ??= []).push(m);
  return out;
}

/**
 * The series a page read through `mirror` feeds: those it declares (`series`), else every series
 * of its page but those declared `semEspelho`. Throws on a mirror that names a series its page
 * does not feed (a declaration error, caught by the sources test).
 */
export function seriesDoEspelho(mirror: MirrorDef): SeriesDef[] {
  const [fonte, pagina] = mirror.paraPagina.split("/") as [string, string];
  const daPagina = allSeries().filter((d) => d.fonte === fonte && d.pagina === pagina);
  if (!mirror.series) return daPagina.filter((d) => !d.semEspelho);
  return mirror.series.map((id) => {
    const d = daPagina.find((x) => x.id === id);
    if (!d) throw new Error(`espelho ${mirror.id} de ${mirror.paraPagina}: a página não tem a série "${id}"`);
    return d;
  });
}

export function getSource(id: Fonte): SourceDef {
  const s = SOURCES.find((x) => x.id === id);
  if (!s) throw new Error(`fonte desconhecida: ${id}`);
  return s;
}

/**
 * Adds a source at run time, for a test that proves the catalogue drives everything (a new
 * source module is otherwise one line in SOURCES above).
 */
export function registrarFonte(source: SourceDef): void {
  if (SOURCES.some((s) => s.id === source.id)) throw new Error(`fonte "${source.id}" já existe`);
  (SOURCES as SourceDef[]).push(source);
  catalogo = null;
  mudancas++;
}

export function removerFonte(id: string): void {
  const i = SOURCES.findIndex((s) => s.id === id);
  if (i >= 0 && SOURCES[i] !== cepea && SOURCES[i] !== scot) (SOURCES as SourceDef[]).splice(i, 1);
  catalogo = null;
  mudancas++;
}

let mudancas = 0;

/** Changes each time a source is added or removed at run time: what was derived from the catalogue is derived again. */
export function edicaoDoCatalogo(): number {
  return mudancas;
}

/**
 * Every series the API publishes, in catalogue order: the national series in product order,
 * then the state series grouped by product (in product order), each group in the order its
 * source declares them. That order is the order of index.json, status.json and events.
 */
let catalogo: { lista: readonly SeriesDef[]; porId: ReadonlyMap<string, SeriesDef> } | null = null;

export function allSeries(): SeriesDef[] {
  // the declarations are fixed once the modules are loaded; a run asks for them per file
  catalogo ??= (() => {
    const lista = declararSeries();
    return { lista, porId: new Map(lista.map((d) => [d.id, d])) };
  })();
  return catalogo.lista.slice();
}

function declararSeries(): SeriesDef[] {
  const declared: SeriesDef[] = SOURCES.flatMap((source) =>
    source.pages.flatMap((page) => page.series.map((d): SeriesDef => ({ id: seriesId(d), fonte: source.id, pagina: page.id, ...d }))),
  );
  const rank = new Map<string, number>(PRODUTOS.map((p, i) => [p, i]));
  const order = (d: SeriesDef) => (d.uf === null ? 0 : 1) * 1e6 + (rank.get(d.produto) ?? 1e5) * 1e3;
  const seen = new Set<string>();
  for (const d of declared) {
    if (seen.has(d.id)) throw new Error(`série ${d.id} declarada duas vezes (catálogo)`);
    seen.add(d.id);
    if (!rank.has(d.produto)) throw new Error(`série ${d.id}: produto "${d.produto}" não declarado em domain/products.ts`);
  }
  // a stable sort keeps each group in declaration order
  return declared.map((d, i) => [d, i] as const).sort(([a, i], [b, j]) => order(a) - order(b) || i - j).map(([d]) => d);
}

/** The series of one id, or undefined. */
export function serieDef(id: string): SeriesDef | undefined {
  if (!catalogo) allSeries();
  return catalogo!.porId.get(id);
}

/** The products with a series in some state (their files take a UF). */
export function produtosComUf(): Produto[] {
  const comUf = new Set(allSeries().filter((d) => d.uf !== null).map((d) => d.produto));
  return PRODUTOS.filter((p) => comUf.has(p));
}

/** Every UF with a state series, in catalogue order. */
export function ufsComSerie(): UF[] {
  return [...new Set(allSeries().flatMap((d) => (d.uf ? [d.uf] : [])))];
}

/** The UFs with a state aggregate (cotacao/uf/{UF}.json): those where a product the state aggregates show has a series. */
export function ufsDoAgregado(): UF[] {
  const produtos = new Set(agregadosUf().map((a) => a.produto));
  return [...new Set(allSeries().flatMap((d) => (d.uf && produtos.has(d.produto) ? [d.uf] : [])))];
}

/** The aggregate's keys, each with the national series it shows. */
export function agregadoSeries(): Array<{ chave: AggregateKey; produto: Produto; serie: SeriesDef | undefined; rotulo: string; praca?: { chave: string; texto: string } }> {
  return agregados().map((a) => ({ chave: a.chave, produto: a.produto, serie: serieDef(a.produto), rotulo: a.rotulo, ...(a.praca ? { praca: a.praca } : {}) }));
}

/**
 * The aggregate's `fonte`: each source with what it gives, in order ("CEPEA/ESALQ (boi gordo SP,
 * soja Paranaguá, ...); Scot Consultoria (vaca gorda SP)"), and for a state aggregate the state
 * quotes too ("Scot Consultoria (boi e vaca gorda MS)").
 */
export function fonteDoAgregado(uf: UF | null): string {
  const grupos = new Map<string, string[]>();
  const add = (fonte: Fonte | undefined, rotulo: string) => {
    if (!fonte) return;
    const nome = getSource(fonte).nomeCurto;
    grupos.set(nome, [...(grupos.get(nome) ?? []), rotulo]);
  };
  for (const a of agregadoSeries()) add(a.serie?.fonte, a.rotulo);
  const partes = [...grupos].map(([nome, rotulos]) => `${nome} (${rotulos.join(", ")})`);
  if (uf) {
    const porUf = new Map<string, string[]>();
    for (const a of agregadosUf()) {
      const d = serieDef(`${a.produto}/${uf}`);
      if (!d) continue;
      const nome = getSource(d.fonte).nomeCurto;
      porUf.set(nome, [...(porUf.get(nome) ?? []), a.rotulo]);
    }
    for (const [nome, rotulos] of porUf) partes.push(`${nome} (${rotulos.join(" e ")} ${uf})`);
  }
  return partes.join("; ");
}

/** The replay layout, for usage texts: "DIR/cepea/{boi-gordo,bezerro,milho,soja}.html". */
export function layoutDoReplay(dir = "DIR"): string[] {
  return SOURCES.map((s) => `${dir}/${s.id}/${s.pages.length === 1 ? s.pages[0]!.id : `{${s.pages.map((p) => p.id).join(",")}}`}.html`);
}

/**
 * The series the API description, the docs and the commands' help quote as examples: a
 * national series and a state series with several praças (the published files of both are
 * embedded, trimmed, in openapi.json).
 */
export const EXEMPLOS = { nacional: "boi_gordo", estadual: "boi_gordo/MT" } as const;

/** "boi gordo, vaca gorda, soja, milho e bezerro": every product by name, for prose. */
export function nomesDosProdutos(): string {
  const nomes = PRODUTOS.map((p) => PRODUTO_INFO[p].nome.toLowerCase());
  return nomes.length <= 1 ? (nomes[0] ?? "") : `${nomes.slice(0, -1).join(", ")} e ${nomes[nomes.length - 1]}`;
}
