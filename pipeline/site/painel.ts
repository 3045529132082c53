/**
 * The dashboard's index.html: its template (pipeline/site/painel.html) with the published prices
 * and their days (visible without JavaScript, then refreshed by the page's script), link previews
 * and the schema.org Dataset. It is data: site assembly writes it with the files of the run that
 * changed them (update and build alike, under the same all-or-nothing publish), so it changes only
 * when what it shows does.
 */
import { readFileSync } from "node:fs";
import { access, readFile } from "node:fs/promises";
import { join } from "node:path";
import { REPO_ROOT } from "../config.ts";
import { PipelineError } from "../domain/errors.ts";
import { formatDateBR } from "../domain/dates.ts";
import { formatNumeroDoPreco, formatPreco } from "../domain/money.ts";
import { hrefDoIndice, resumoAviso } from "../domain/painel.ts";
import { agregados, agregadosUf, PRODUTO_INFO, UNIDADE_INFO, type Produto, type Unidade } from "../domain/products.ts";
import type { AggregateFile, IndexFile, IndexSeries, StatusFile } from "../domain/publicados.ts";
import { PROJECT_URL, SITE_URL } from "../domain/site.ts";

export const PAINEL_TEMPLATE = join(REPO_ROOT, "pipeline", "site", "painel.html");

/** The template, read once per process. */
let template: string | null = null;
export function painelTemplate(): string {
  return (template ??= readFileSync(PAINEL_TEMPLATE, "utf8"));
}

/** What the dashboard's page shows before its script runs; null members when not built yet. */
export interface DadosPainel {
  agg: AggregateFile | null;
  index: IndexFile | null;
  status: StatusFile | null;
  /** files under api/v1/ that the JSON-LD may point to and that exist */
  distribuicao: string[];
}

/** The files a Dataset's distribution lists when they exist, with their media types. */
const DISTRIBUICAO: ReadonlyArray<{ arquivo: string; tipo: string; nome: string }> = [
  { arquivo: "historico.csv", tipo: "text/csv", nome: "Todas as séries em formato longo (CSV)" },
  { arquivo: "datapackage.json", tipo: "application/json", nome: "Descritor Frictionless Data Package" },
  { arquivo: "cotacao.json", tipo: "application/json", nome: "Preços de referência do dia (JSON)" },
  { arquivo: "index.json", tipo: "application/json", nome: "Catálogo de séries (JSON)" },
];

/** The page of a site whose files are in memory (site assembly): every DISTRIBUICAO file is written. */
export function paginaDoSite(d: Omit<DadosPainel, "distribuicao">): string {
  return paginaPainel(painelTemplate(), { ...d, distribuicao: DISTRIBUICAO.map((x) => x.arquivo) });
}

async function lerJson<T>(path: string): Promise<T | null> {
  const text = await readFile(path, "utf8").catch(() => null);
  if (text === null) return null;
  try {
    return JSON.parse(text) as T;
  } catch (err) {
    throw new PipelineError({ stage: "render", reason: `${path}: JSON inválido ao gerar index.html (${(err as Error).message})`, cause: err });
  }
}

export async function dadosPublicados(publicDir: string): Promise<DadosPainel> {
  const api = join(publicDir, "api", "v1");
  const [agg, index, status] = await Promise.all([
    lerJson<AggregateFile>(join(api, "cotacao.json")),
    lerJson<IndexFile>(join(api, "index.json")),
    lerJson<StatusFile>(join(api, "status.json")),
  ]);
  const distribuicao: string[] = [];
  for (const d of DISTRIBUICAO) {
    if (await access(join(api, d.arquivo)).then(() => true, () => false)) distribuicao.push(d.arquivo);
  }
  return { agg, index, status, distribuicao };
}

const ESC: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESC[c]!);
}

function precoHtml(valor: number, unidade: Unidade): string {
  const numero = formatNumeroDoPreco(valor, unidade);
  return `<span class="preco"><span class="sem-quebra">${esc(numero)}</span><wbr><span class="sem-quebra">${esc(UNIDADE_INFO[unidade].sufixo)}</span></span>`;
}

function nomeProduto(index: IndexFile | null, produto: string): string {
  return index?.produtos.find((p) => p.produto === produto)?.nome ?? PRODUTO_INFO[produto as Produto]?.nome ?? produto;
}

/** "Boi gordo R$ 347,70/@ (04/09/2026) · Vaca gorda R$ 318,00/@ (05/08/2026) · ..." */
export function resumoPrecos(d: DadosPainel): string | null {
  if (!d.agg) return null;
  const partes = agregados().flatMap((a) => {
    const v = d.agg![a.chave];
    const dia = d.agg!.datas[a.chave];
    return v === null ? [] : [`${nomeProduto(d.index, a.produto)} ${formatPreco(v, d.agg!.unidades[a.chave])}${dia ? ` (${formatDateBR(dia)})` : ""}`];
  });
  return partes.length > 0 ? partes.join(" · ") : null;
}

function cardsHtml(d: DadosPainel, recuo: string): string {
  if (!d.agg) return "<p>Carregando preços…</p>";
  const atrasadas = new Set((d.status?.series ?? []).filter((s) => s.estado === "stale").map((s) => s.id));
  return agregados()
    .map((a) => {
      const valor = d.agg![a.chave];
      const unidade = d.agg!.unidades[a.chave];
      const dia = d.agg!.datas[a.chave];
      const s: IndexSeries | undefined = d.index?.series.find((x) => x.id === a.produto);
      const atrasada = atrasadas.has(a.produto);
      const linhas = [
        `<article class="card" data-produto="${esc(a.produto)}"${atrasada ? ' data-frescor="atrasado"' : ""}>`,
        `  <h3>${esc(nomeProduto(d.index, a.produto))}</h3>`,
        `  <p class="valor" data-campo="valor">${valor === null ? "sem dado" : precoHtml(valor, unidade)}</p>`,
        `  <p class="data" data-campo="data">${dia ? `<time datetime="${esc(dia)}">${formatDateBR(dia)}</time>${atrasada ? ' · <span class="selo">desatualizado</span>' : ""}` : "sem data"}</p>`,
        s ? `  <p class="regiao">${esc(s.regiao)}</p>` : "",
        `  <p class="unidade">Unidade: ${esc(UNIDADE_INFO[unidade].nome)}</p>`,
        s ? `  <p class="links"><a href="${esc(hrefDoIndice(s.path))}">JSON</a> · <a href="${esc(hrefDoIndice(s.csv))}">CSV</a></p>` : "",
        `</article>`,
      ];
      return linhas.filter(Boolean).map((l) => recuo + l).join("\n");
    })
    .join("\n");
}

/** The one-line banner (a <details>): which sources are stale, details when opened. */
function avisosHtml(d: DadosPainel, recuo: string): string {
  const fontes = (d.status?.fontes ?? []).filter((f) => f.estado !== "ok");
  if (fontes.length === 0) return `<details id="avisos" class="aviso" hidden></details>`;
  const itens = fontes.map((f) => `${recuo}  <li data-fonte="${esc(f.id)}" data-estado="${esc(f.estado)}">${esc(f.nome)}: ${esc(f.motivo ?? f.estado)}.</li>`);
  return [
    `<details id="avisos" class="aviso">`,
    `${recuo}  <summary>${esc(resumoAviso(fontes.map((f) => f.nome)))}</summary>`,
    `${recuo}  <ul>`,
    ...itens.map((l) => `  ${l}`),
    `${recuo}  </ul>`,
    `${recuo}</details>`,
  ].join("\n");
}

/** schema.org Dataset of the published data; JSON with "<" escaped so it cannot close its <script>. */
export function jsonLd(d: DadosPainel): string | null {
  if (!d.index) return null;
  const datas = d.index.series.flatMap((s) => [s.primeira_data, s.ultima_data]).filter((x): x is string => typeof x === "string").sort();
  const api = new URL("api/v1/", SITE_URL).href;
  const dataset = {
    "@context": "https://schema.org",
    "@type": "Dataset",
    name: "Cotação Aberta: preços de referência agropecuários do Brasil",
    description: `Preços de referência diários de ${agregados().map((a) => nomeProduto(d.index, a.produto).toLowerCase()).join(", ")} e mais: ${d.index.series.length} séries por produto e estado (${d.index.fontes.map((f) => f.nome).join(", ")}), com a fonte, a praça e o dia de cada valor, como arquivos JSON e CSV abertos.`,
    url: SITE_URL,
    sameAs: PROJECT_URL,
    inLanguage: "pt-BR",
    isAccessibleForFree: true,
    license: "https://creativecommons.org/licenses/by/4.0/",
    creditText: "Cotação Aberta",
    creator: { "@type": "Organization", name: "Cotação Aberta", url: PROJECT_URL },
    isBasedOn: d.index.fontes.map((f) => ({ "@type": "Organization", name: f.nome, url: f.site })),
    keywords: [...agregados().map((a) => nomeProduto(d.index, a.produto).toLowerCase()), "preços agropecuários", ...d.index.fontes.map((f) => f.nome)],
    ...(datas.length > 0 ? { temporalCoverage: `${datas[0]}/${datas[datas.length - 1]}` } : {}),
    spatialCoverage: { "@type": "Place", name: "Brasil" },
    ...(d.agg ? { dateModified: d.agg.atualizado } : {}),
    distribution: DISTRIBUICAO.filter((x) => d.distribuicao.includes(x.arquivo)).map((x) => ({
      "@type": "DataDownload",
      name: x.nome,
      encodingFormat: x.tipo,
      contentUrl: new URL(x.arquivo, api).href,
    })),
  };
  return JSON.stringify(dataset, null, 2).replace(/</g, "\\u003c");
}

/** A series as the page's first paint reads it: index.json's entry without what only the catalogue table shows. */
export type SerieInicial = Omit<IndexSeries, "license" | "csv_excel" | "pracas_csv" | "nacional">;

/**
 * A series of the per-state table as it reads it: price, praça, day, source and files (its place's
 * description only when it names no praça). Drawn in the chart, a series has its whole entry.
 */
export type SerieDoEstado = Pick<IndexSeries, "id" | "path" | "recente" | "csv" | "produto" | "uf" | "praca" | "fonte" | "unidade" | "ultima_data" | "valor"> & { regiao?: string };

/**
 * What the dashboard's script draws on its first paint, written into the page so that it does
 * not download index.json (every series of the catalogue, 130 KB with 128 series) before the
 * visitor asks for the catalogue table, another series or the stale banner's details: the
 * sources and their terms, product and state names, and the series of the cards, of the
 * per-state table and of the chart opened first, as index.json gives them.
 */
export interface DadosIniciais {
  license: IndexFile["license"];
  fontes: IndexFile["fontes"];
  produtos: Array<Pick<IndexFile["produtos"][number], "produto" | "nome">>;
  ufs: Array<Pick<IndexFile["ufs"][number], "uf" | "nome">>;
  /** how many series index.json lists */
  total: number;
  /** the cards' series and the one the chart opens on */
  series: SerieInicial[];
  /** the per-state table's series */
  estados: SerieDoEstado[];
  /**
   * every series of index.json, in its order, as the chart's list names them: a phone's picker
   * opens at the first tap, before index.json can arrive, and must already list them all
   */
  opcoes: OpcaoDoGrafico[];
}

/** A series in the chart's list: its id (produto or produto/UF), and the place of a national one (its name there). */
export interface OpcaoDoGrafico {
  id: string;
  regiao?: string;
}

export function dadosIniciais(index: IndexFile): DadosIniciais {
  const ids = new Set<string>(agregados().map((a) => a.produto));
  if (index.series[0]) ids.add(index.series[0].id);
  const estados = new Set(index.ufs.flatMap((u) => agregadosUf().map((a) => `${a.produto}/${u.uf}`)));
  return {
    license: index.license,
    fontes: index.fontes,
    produtos: index.produtos.map((p) => ({ produto: p.produto, nome: p.nome })),
    ufs: index.ufs.map((u) => ({ uf: u.uf, nome: u.nome })),
    total: index.series.length,
    series: index.series.filter((s) => ids.has(s.id)).map(({ license: _l, csv_excel: _c, pracas_csv: _p, nacional: _n, ...resto }) => resto),
    estados: index.series
      .filter((s) => estados.has(s.id))
      .map((s) => ({
        id: s.id,
        path: s.path,
        recente: s.recente,
        csv: s.csv,
        produto: s.produto,
        uf: s.uf,
        praca: s.praca,
        ...(s.praca === null ? { regiao: s.regiao } : {}),
        fonte: s.fonte,
        unidade: s.unidade,
        ultima_data: s.ultima_data,
        valor: s.valor,
      })),
    opcoes: index.series.map((s) => (s.nacional ? { id: s.id, regiao: s.regiao } : { id: s.id })),
  };
}

/** The dashboard's page: its template with the published prices, link previews and JSON-LD. */
export function paginaPainel(template: string, d: DadosPainel): string {
  const marca = (nome: string) => new RegExp(`^([ \\t]*)(.*)<!--${nome}-->`, "m");
  for (const nome of ["meta", "json-ld", "dados", "avisos", "precos", "atualizado"]) {
    if (!marca(nome).test(template)) throw new PipelineError({ stage: "render", reason: `pipeline/site/painel.html: falta o marcador <!--${nome}--> do modelo da página` });
  }
  const resumo = resumoPrecos(d);
  const descricao = resumo
    ? `${resumo}. Preços de referência com a fonte e o dia de cada um, como API JSON e CSV abertos.`
    : `Preços de referência de ${agregados().map((a) => nomeProduto(null, a.produto).toLowerCase()).join(", ")}, com a fonte e o dia de cada um, como API JSON aberta.`;
  const produtos = agregados().map((a) => nomeProduto(d.index, a.produto).toLowerCase());
  const titulo = `Cotação Aberta — ${produtos.slice(0, -1).join(", ")} e ${produtos[produtos.length - 1]}: preços de referência`;
  const meta = (recuo: string) =>
    [
      `<meta name="description" content="${esc(descricao)}">`,
      `<meta property="og:type" content="website">`,
      `<meta property="og:site_name" content="Cotação Aberta">`,
      `<meta property="og:locale" content="pt_BR">`,
      `<meta property="og:title" content="${esc(titulo)}">`,
      `<meta property="og:description" content="${esc(descricao)}">`,
      `<meta property="og:url" content="${esc(SITE_URL)}">`,
      `<meta property="og:image" content="${esc(new URL("favicon-512.png", SITE_URL).href)}">`,
      `<meta property="og:image:width" content="512">`,
      `<meta property="og:image:height" content="512">`,
      `<meta property="og:image:alt" content="Cotação Aberta: um gráfico em alta sobre fundo verde">`,
      `<meta name="twitter:card" content="summary">`,
      `<meta name="twitter:title" content="${esc(titulo)}">`,
      `<meta name="twitter:description" content="${esc(descricao)}">`,
    ].join(`\n${recuo}`);
  const ld = jsonLd(d);
  if (!/<title>[^<]*<\/title>/.test(template)) throw new PipelineError({ stage: "render", reason: "pipeline/site/painel.html: falta o <title> do modelo da página" });
  return template
    .replace(/<title>[^<]*<\/title>/, `<title>${esc(titulo)}</title>`)
    .replace(marca("meta"), (_m, r: string, antes: string) => `${r}${antes}${meta(r)}`)
    .replace(marca("json-ld"), (_m, r: string, antes: string) => (ld ? `${r}${antes}<script type="application/ld+json">\n${ld}\n${r}</script>` : `${r}${antes}`.trimEnd()))
    // data for the script, so "<" is escaped as in the JSON-LD; at the end of the body, after the
    // prices the page shows without JavaScript
    .replace(marca("dados"), (_m, r: string, antes: string) =>
      d.index ? `${r}${antes}<script type="application/json" id="dados-painel">${JSON.stringify(dadosIniciais(d.index)).replace(/</g, "\\u003c")}</script>` : `${r}${antes}`.trimEnd(),
    )
    .replace(marca("avisos"), (_m, r: string, antes: string) => `${r}${antes}${avisosHtml(d, r)}`)
    .replace(marca("precos"), (_m, r: string, antes: string) => `${r}${antes}\n${cardsHtml(d, `${r}  `)}\n${r}`)
    .replace(marca("atualizado"), (_m, r: string, antes: string) => `${r}${antes}${d.agg ? esc(`${formatDateBR(d.agg.atualizado.slice(0, 10))} ${d.agg.atualizado.slice(11, 16)}`) : "…"}`);
}
