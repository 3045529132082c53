/**
 * The dashboard (public/index.html), bundled to public/assets/painel.js. It reads only the static
 * files with URLs relative to the page, so it works from a GitHub Pages sub-path with no server.
 * First load: cotacao.json and status.json, with the entries of index.json that the first paint
 * shows (the cards', the per-state table's and the first chart's series, the sources and their
 * terms) written into the page at build (pipeline/site/painel.ts), plus the last year of the
 * series the chart draws (index.json's `recente`, a few KB where the whole history is hundreds).
 * index.json itself (every series of the catalogue) is read when the visitor asks for it: the
 * catalogue table, another series in the chart, a #serie-... link, the stale banner's details.
 * The whole series file only when the chart is asked for 5 years or all of it; a state's praças
 * (from its recent file) when opened.
 */
import type uPlot from "uplot";
import { formatDecimalBR } from "../../domain/money.ts";
import { agregados, agregadosUf, PRODUTO_INFO, UNIDADE_INFO, type Produto } from "../../domain/products.ts";
import type { AggregateFile, AggregateKey, IndexFile, SerieFile, StatusFile } from "../../domain/publicados.ts";
import type { DadosIniciais, OpcaoDoGrafico, SerieDoEstado, SerieInicial } from "../../site/painel.ts";
import {
  ancoraSerie,
  clear,
  dataBR,
  dataHoraBR,
  diasCorridos,
  el,
  FRESCOR_ROTULO,
  frescor,
  getJSON,
  hojeBrasilia,
  idadeBR,
  limiteDaFonte,
  numeroDoPreco,
  percentualBR,
  preco,
  precoEl,
  reaisComSinal,
  resumoAviso,
  statusNoDia,
  unidadeDoPreco,
  type Frescor,
} from "./dom.ts";

/**
 * uPlot (52 KB, most of this script) comes in its own file (assets/painel-uplot.js, see
 * pipeline/serve/assets.ts), fetched from the start alongside the data: the prices do not wait
 * for the chart's library to be downloaded and parsed.
 */
const bibliotecaDoGrafico: Promise<typeof uPlot> = import("uplot").then((m) => m.default);
// its failure is reported by the chart that waits for it
bibliotecaDoGrafico.catch(() => undefined);
/** set before the first chart is made (desenhar) */
let UPlot!: typeof uPlot;

const API = "api/v1/";
const INDEX_URL = new URL(`${API}index.json`, document.baseURI);

/** A series as the page knows it: index.json's entry, or the part of it written into the page. */
type IndexSeries = SerieInicial;

/** The catalogue as far as the page has it: the page's own part of index.json, then all of it. */
interface Indice {
  license: string;
  fontes: IndexFile["fontes"];
  produtos: DadosIniciais["produtos"];
  ufs: DadosIniciais["ufs"];
  series: IndexSeries[];
  /** the per-state table's series, in the page's part (index.json has them in `series`) */
  estados?: SerieDoEstado[];
}

/** A series of the per-state table. */
function serieDoEstado(index: Indice, id: string): SerieDoEstado | undefined {
  return (index.estados ?? index.series).find((x) => x.id === id);
}

/** index.json's paths resolve from its own URL; older files wrote them from the site root. */
function url(path: string): string {
  return (path.startsWith("api/") ? new URL(path, document.baseURI) : new URL(path, INDEX_URL)).href;
}

/** The catalogue the page has: its own part of index.json (see main), then all of it. */
let indice: Indice = { license: "", fontes: [], produtos: [], ufs: [], series: [] };
/** index.json has been read: `indice` lists every series */
let inteiro = false;
let pedidoDoIndice: Promise<Indice> | null = null;
/** What is drawn again with every series once index.json is read (the chart's list, the catalogue, the banner). */
const aoLerIndice: Array<(index: Indice) => void> = [];

/** index.json, read once, when the visitor asks for what only it has. */
function lerIndice(): Promise<Indice> {
  if (!pedidoDoIndice) {
    const p = getJSON<IndexFile>(INDEX_URL.href).then((index) => {
      indice = index;
      inteiro = true;
      for (const f of aoLerIndice) f(index);
      return index;
    });
    // a failed request is tried again next time
    p.catch(() => {
      pedidoDoIndice = null;
    });
    pedidoDoIndice = p;
  }
  return pedidoDoIndice;
}

/** The page's own part of index.json (written at build); null in a page written before it. */
function dadosDaPagina(): DadosIniciais | null {
  const texto = document.getElementById("dados-painel")?.textContent;
  if (!texto) return null;
  try {
    return JSON.parse(texto) as DadosIniciais;
  } catch {
    return null;
  }
}

/** A series published without a UF in its id is the product's national reference. */
function nacional(s: Pick<IndexSeries, "id">): boolean {
  return !s.id.includes("/");
}

/** A source's age limit in a status.json written before it published `max_idade_dias`. */
const MAX_IDADE_PADRAO = 5;

/** What the page needs to say how old each price is: status.json's verdicts and the visitor's day. */
interface Idade {
  hoje: string;
  /** status.json as read, its verdicts of the last run */
  status: StatusFile | null;
  atrasadas: Set<string>;
  /** a source's limit and how its age is counted (status.json's `max_idade_dias`, `contagem_idade`) */
  limites: Map<string, ReturnType<typeof limiteDaFonte>>;
}
let idade: Idade = { hoje: hojeBrasilia(), status: null, atrasadas: new Set(), limites: new Map() };

function contextoIdade(status: StatusFile): Idade {
  const limites = new Map<string, ReturnType<typeof limiteDaFonte>>(status.fontes.map((f) => [f.id, limiteDaFonte(f)]));
  return { hoje: hojeBrasilia(), status, atrasadas: new Set(status.series.filter((s) => s.estado === "stale").map((s) => s.id)), limites };
}

/** status.json's verdicts on the visitor's day (statusNoDia): what the banner says. */
function statusDeHoje(): StatusFile {
  return statusNoDia(idade.status!, idade.hoje, (id) => indice.series.find((x) => x.id === id)?.fonte, MAX_IDADE_PADRAO);
}

/** "25/09/2026 · há 58 dias · desatualizado", with the freshness on `alvo` for its colour. */
function diaEIdade(alvo: HTMLElement, data: string | null | undefined, serie: string, fonte: string | undefined): Node[] {
  if (!data) return [document.createTextNode("sem data")];
  const f = frescorDe(data, serie, fonte);
  alvo.dataset.frescor = f;
  return [
    el("time", { datetime: data.slice(0, 10) }, dataBR(data)),
    document.createTextNode(" · "),
    // what idadesDoDia needs to say it again on another day
    el("span", { "data-campo": "idade", "data-dia": data.slice(0, 10), "data-serie": serie, "data-fonte": fonte }, idadeBR(diasCorridos(data, idade.hoje))),
    document.createTextNode(" · "),
    el("span", { class: "selo" }, FRESCOR_ROTULO[f]),
  ];
}

function frescorDe(data: string, serie: string, fonte: string | undefined): Frescor {
  const l = fonte ? idade.limites.get(fonte) : undefined;
  return frescor(data, idade.hoje, { atrasadaNoStatus: idade.atrasadas.has(serie), maxIdadeDias: l?.maxIdadeDias ?? MAX_IDADE_PADRAO, contagem: l?.contagem });
}

/**
 * A page left open past midnight in Brasília (an office screen, a tab kept for days): every age
 * written on the day it loaded ("hoje", "recente") is written again for the visitor's new day,
 * and so is every verdict, the banner's too, by status.json's own rule (a weekend or a holiday
 * the sources do not publish on makes nothing stale; days past the source's limit do).
 */
function idadesDoDia(): void {
  const hoje = hojeBrasilia();
  if (hoje === idade.hoje) return;
  idade = { ...idade, hoje };
  for (const span of document.querySelectorAll<HTMLElement>('[data-campo="idade"][data-dia]')) {
    const dia = span.dataset.dia!;
    const f = frescorDe(dia, span.dataset.serie ?? "", span.dataset.fonte);
    span.textContent = idadeBR(diasCorridos(dia, hoje));
    const alvo = span.closest<HTMLElement>("[data-frescor]");
    if (alvo) alvo.dataset.frescor = f;
    const selo = span.parentElement?.querySelector(".selo");
    if (selo) selo.textContent = FRESCOR_ROTULO[f];
  }
  if (idade.status) avisos(statusDeHoje());
}

/** The aggregate's products, one card each; their national series is the product's id. */
const CARDS: ReadonlyArray<{ key: AggregateKey; produto: Produto; serie: string }> = agregados().map((a) => ({ key: a.chave, produto: a.produto, serie: a.produto }));

/** A product's name as index.json gives it (a series of a product this bundle does not know still has one). */
function nomeProduto(index: Indice, produto: string): string {
  return index.produtos.find((p) => p.produto === produto)?.nome ?? PRODUTO_INFO[produto as Produto]?.nome ?? produto;
}

const ESTADO_FONTE: Record<string, string> = {
  ok: "em dia",
  stale: "desatualizada",
  blocked: "bloqueada pelo site da fonte",
  failed: "com falha na última coleta",
  disabled: "desativada",
};

const $ = (id: string) => document.getElementById(id)!;

function nomeFonte(index: Indice, id: string): string {
  return index.fontes.find((f) => f.id === id)?.nome ?? id;
}

/**
 * Where a series is quoted, by name: "MS — C. Grande", or for a national reference the place of
 * its indicator from the catalogue ("Referência: São Paulo (praça de referência da Scot
 * Consultoria)"), naming the source when the place does not.
 */
function localSerie(index: Indice, s: Pick<IndexSeries, "id" | "uf" | "praca" | "regiao" | "fonte">): string {
  if (!nacional(s)) return `${s.uf ?? s.id.split("/")[1]}${s.praca ? ` — ${s.praca}` : ""}`;
  const fonte = nomeFonte(index, s.fonte);
  // "CEPEA/ESALQ-USP" is already named by "Indicador do Boi Gordo CEPEA/ESALQ"
  const citada = s.regiao.includes(fonte.split(/[-\s]/)[0]!);
  // "Referência", not "Referência nacional": vaca gorda's is one Scot praça, boi gordo's a São Paulo index
  return `Referência: ${s.regiao}${citada ? "" : ` (${fonte})`}`;
}

/** The chart's and the banner's short name: "Soja — Paranaguá, PR (...)", "Boi gordo — MS". */
function nomeSerie(index: Indice, s: Pick<IndexSeries, "id" | "produto" | "uf" | "regiao">): string {
  return `${nomeProduto(index, s.produto)} — ${nacional(s) ? s.regiao : (s.uf ?? s.id.split("/")[1])}`;
}

/**
 * The stale banner: ONE line (a <details> summary) so that on a phone the prices come first;
 * which sources and series, and why, when opened.
 */
function avisos(status: StatusFile): void {
  const index = indice;
  const box = $("avisos") as HTMLDetailsElement;
  const aberto = box.open;
  clear(box);
  const fontes = status.fontes.filter((f) => f.estado !== "ok");
  const itens: HTMLElement[] = fontes.map((f) =>
    el(
      "li",
      { "data-fonte": f.id, "data-estado": f.estado },
      `${f.nome}: ${ESTADO_FONTE[f.estado] ?? f.estado}.${f.motivo ? ` Motivo: ${f.motivo}.` : ""} Último sucesso: ${dataHoraBR(f.ultimo_sucesso)}; dado mais recente: ${dataBR(f.ultima_data)}.`,
    ),
  );
  // one line per product and last date: "Boi gordo, último dado 05/08/2026: referência: (...); MS; MG"
  const grupos = new Map<string, string[]>();
  for (const s of status.series.filter((x) => x.estado === "stale")) {
    const def = index.series.find((x) => x.id === s.id);
    const chave = `${nomeProduto(index, def?.produto ?? s.id.split("/")[0]!)}, último dado ${dataBR(s.ultima_data)}`;
    const local = !def ? s.id : nacional(def) ? localSerie(index, def).replace(/^Referência/, "referência") : (def.uf ?? def.id.split("/")[1]!);
    grupos.set(chave, [...(grupos.get(chave) ?? []), local]);
  }
  // the places of the series need index.json: read when the banner is opened
  if (inteiro) for (const [chave, locais] of grupos) itens.push(el("li", { "data-series": "stale" }, `Série sem dado recente — ${chave}: ${locais.join("; ")}.`));
  else if (grupos.size > 0) itens.push(el("li", { "data-series": "carregando" }, "Carregando as séries sem dado recente…"));
  if (itens.length === 0) {
    box.hidden = true;
    return;
  }
  const nomes = fontes.length > 0 ? fontes.map((f) => f.nome) : [`${grupos.size} grupo(s) de séries`];
  box.hidden = false;
  box.append(
    el("summary", {}, resumoAviso(nomes)),
    el("ul", {}, ...itens),
    el("p", {}, "Os valores são os últimos publicados por cada fonte: o dia e a idade de cada um aparecem ao lado do preço. ", el("a", { href: `${API}status.json` }, "Situação das fontes (JSON)"), "."),
  );
  box.open = aberto;
}

function cards(agg: AggregateFile, index: Indice): void {
  const box = $("precos");
  clear(box);
  for (const c of CARDS) {
    const valor = agg[c.key];
    const unidade = agg.unidades[c.key];
    const s = index.series.find((x) => x.id === c.serie);
    const card = el("article", { class: "card", "data-produto": c.produto });
    const dataEl = el("p", { class: "data", "data-campo": "data" });
    dataEl.append(...diaEIdade(card, agg.datas[c.key], c.serie, s?.fonte));
    box.append(card);
    card.append(
      ...[
        el("h3", {}, nomeProduto(index, c.produto)),
        el("p", { class: "valor", "data-campo": "valor" }, valor === null ? "sem dado" : precoEl(valor, unidade)),
        dataEl,
        // the change comes from the catalogue (the page's own part of it may be older than
        // cotacao.json): only the change of the very day and price shown (a source may revise a
        // day it already published: same day, another price, another change)
        s && !doCartao(s, agg, c.key) ? el("p", { class: "variacao", "data-campo": "variacao" }) : variacao(s),
        el("p", { class: "regiao" }, s ? localSerie(index, s).replace(/^Referência: /, "") : ""),
        el("p", { class: "unidade" }, `Unidade: ${UNIDADE_INFO[unidade].nome}`),
        s ? el("p", { class: "links" }, el("a", { href: url(s.path) }, "JSON"), " · ", el("a", { href: url(s.csv) }, "CSV"), " · ", el("a", { href: `#${ancoraSerie(s.id)}` }, "série")) : null,
      ].filter((x): x is HTMLElement => x !== null),
    );
  }
  $("atualizado").textContent = dataHoraBR(agg.atualizado);
  performance.mark("precos-visiveis");
  document.body.dataset.precos = "ok";
}

/** The catalogue's entry is of the very price a card shows: same day, same value. */
function doCartao(s: Pick<IndexSeries, "ultima_data" | "valor">, agg: AggregateFile, key: AggregateKey): boolean {
  return s.ultima_data === agg.datas[key] && s.valor === agg[key];
}

/** The day change of a series, from index.json. */
function variacao(s: IndexSeries | undefined): HTMLElement {
  const p = el("p", { class: "variacao", "data-campo": "variacao" });
  const v = s?.variacao;
  if (!v) {
    p.textContent = "Sem dia anterior para comparar";
    return p;
  }
  const seta = v.absoluta > 0 ? "▲" : v.absoluta < 0 ? "▼" : "■";
  p.append(`${seta} `, el("span", { class: "sem-quebra" }, reaisComSinal(v.absoluta)), ` (${percentualBR(v.percentual)}) sobre ${dataBR(v.data_anterior)}`);
  p.setAttribute("data-sentido", v.absoluta > 0 ? "alta" : v.absoluta < 0 ? "baixa" : "estavel");
  return p;
}

/** Each state's reference praça, from its index.json entry (written into the page; no per-state file on first load). */
function tabelaUF(index: Indice): void {
  const corpo = $("ufs-corpo");
  // one column per product the state aggregates show (the page's static header says the same)
  const cabeca = corpo.parentElement?.querySelector("thead tr");
  if (cabeca) {
    clear(cabeca);
    cabeca.append(
      el("th", { scope: "col" }, "Estado"),
      ...agregadosUf().map((a) => el("th", { scope: "col" }, nomeProduto(index, a.produto))),
      el("th", { scope: "col" }, "Praças"),
    );
  }
  clear(corpo);
  index.ufs.forEach((u) => {
    const celula = (produto: Produto) => {
      const s = serieDoEstado(index, `${produto}/${u.uf}`);
      if (!s || s.valor === null) return el("td", {}, "—");
      const td = el("td", { "data-produto": produto });
      td.append(
        el("span", { class: "valor" }, precoEl(s.valor, s.unidade)),
        el("br"),
        el("span", { class: "praca" }, `${s.praca ?? s.regiao ?? ""}, `, ...diaEIdade(td, s.ultima_data, s.id, s.fonte)),
        el("br"),
        el("a", { href: url(s.path), class: "mini" }, "JSON"),
        " · ",
        el("a", { href: url(s.csv), class: "mini" }, "CSV"),
      );
      return td;
    };
    const detalhes = el("details", { "data-uf": u.uf }, el("summary", {}, "Todas as praças"), el("div", { class: "pracas" }, "…"));
    detalhes.addEventListener("toggle", () => void pracas(detalhes, u.uf, index), { once: true });
    corpo.append(
      el(
        "tr",
        { "data-uf": u.uf },
        el("th", { scope: "row" }, `${u.nome} (${u.uf})`),
        ...agregadosUf().map((a) => celula(a.produto)),
        el("td", {}, detalhes),
      ),
    );
  });
}

async function pracas(box: HTMLDetailsElement, uf: string, index: Indice): Promise<void> {
  const alvo = box.querySelector(".pracas")!;
  const listas: HTMLElement[] = [];
  for (const produto of agregadosUf().map((a) => a.produto)) {
    const s = serieDoEstado(index, `${produto}/${uf}`);
    if (!s) continue;
    try {
      const f = await lerSerie(urlRecente(s));
      listas.push(
        el("p", { class: "mini" }, `${nomeProduto(index, produto)} em ${dataBR(f.data_cotacao)}:`),
        el("ul", {}, ...(f.pracas ?? []).map((p) => el("li", {}, `${p.praca}: `, precoEl(p.valor, p.unidade), p.praca === f.praca ? " (referência)" : ""))),
      );
    } catch {
      listas.push(el("p", {}, `Não foi possível carregar ${urlRecente(s)}.`));
    }
  }
  clear(alvo);
  alvo.append(...listas);
}

const DIA = 86_400;
const MESES = ["jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez"];
/** a short series is drawn on at least this many days, so one point is not alone on a wide axis */
const JANELA_MINIMA_DIAS = 30;

/** The range selector: the last N days of the series, or all of it. */
const PERIODOS: ReadonlyArray<{ id: string; rotulo: string; nome: string; dias: number | null }> = [
  { id: "30d", rotulo: "30 d", nome: "últimos 30 dias", dias: 30 },
  { id: "1a", rotulo: "1 a", nome: "último ano", dias: 365 },
  { id: "5a", rotulo: "5 a", nome: "últimos 5 anos", dias: 5 * 365 },
  { id: "tudo", rotulo: "tudo", nome: "a série inteira", dias: null },
];

interface Grafico {
  u: uPlot;
  xs: number[];
  periodo: string;
  observador: ResizeObserver;
  index: Indice;
  serie: IndexSeries;
  /** the chart holds the whole history (else only the recent file's last year) */
  completo: boolean;
  /** first and last day of the whole series (index.json), in seconds: which periods make sense */
  extensao: [number, number];
}
let grafico: Grafico | null = null;
/** bumped by every chart request, so a slow answer does not draw over a later choice */
let pedidoDoGrafico = 0;

/** Series files read by this page, by URL: each is fetched once (the whole history only when asked for). */
const arquivosLidos = new Map<string, Promise<SerieFile>>();

function lerSerie(href: string): Promise<SerieFile> {
  let p = arquivosLidos.get(href);
  if (!p) {
    p = getJSON<SerieFile>(href);
    // a failed request is tried again next time
    p.catch(() => arquivosLidos.delete(href));
    arquivosLidos.set(href, p);
  }
  return p;
}

/** The series' last year; an index.json written before `recente` existed has only the whole file. */
function urlRecente(s: Pick<IndexSeries, "path" | "recente">): string {
  return url((s as { recente?: string }).recente || s.path);
}

const segundos = (data: string) => Date.parse(`${data.slice(0, 10)}T00:00:00Z`) / 1000;

function dataDeSegundos(v: number): string {
  return new Date(v * 1000).toISOString().slice(0, 10);
}

/** The x range of a period: the last `dias` of the series, padded around short spans. */
function janela(xs: number[], dias: number | null): [number, number] {
  const ultimo = xs[xs.length - 1] ?? Date.now() / 1000;
  let min = dias === null ? (xs[0] ?? ultimo) : ultimo - dias * DIA;
  let max = ultimo;
  if (max - min < JANELA_MINIMA_DIAS * DIA) {
    const meio = (min + max) / 2;
    min = meio - (JANELA_MINIMA_DIAS / 2) * DIA;
    max = meio + (JANELA_MINIMA_DIAS / 2) * DIA;
  }
  // a margin so the first and last points (and their labels) are not cut at the edges
  const margem = (max - min) * 0.04;
  return [min - margem, max + margem];
}

function periodoHabilitado(extensao: [number, number], dias: number | null): boolean {
  if (dias === null) return true;
  // a period as long as the whole series (or longer) would show the same as "tudo"
  return extensao[1] - extensao[0] > dias * DIA;
}

/** The recent file covers a period of up to a year; a longer one needs the whole history. */
const precisaDoCompleto = (dias: number | null) => dias === null || dias > 366;

async function escolherPeriodo(id: string): Promise<void> {
  if (!grafico) return;
  const p = PERIODOS.find((x) => x.id === id);
  if (!p || !periodoHabilitado(grafico.extensao, p.dias)) return;
  if (!grafico.completo && precisaDoCompleto(p.dias)) {
    const g = grafico;
    const pedido = ++pedidoDoGrafico;
    $("grafico").setAttribute("aria-busy", "true");
    try {
      const f = await lerSerie(url(g.serie.path));
      if (pedido !== pedidoDoGrafico || grafico !== g) return;
      montarGrafico(g.index, g.serie, f, { completo: true, extensao: g.extensao, periodo: id });
    } finally {
      if (pedido === pedidoDoGrafico) $("grafico").removeAttribute("aria-busy");
    }
    return;
  }
  grafico.periodo = id;
  const [min, max] = janela(grafico.xs, p.dias);
  grafico.u.setScale("x", { min, max });
  for (const b of $("periodos").querySelectorAll<HTMLButtonElement>("button")) b.setAttribute("aria-pressed", String(b.dataset.periodo === id));
  $("grafico").dataset.periodo = id;
}

function botoesPeriodo(extensao: [number, number], atual: string): void {
  const box = $("periodos");
  clear(box);
  for (const p of PERIODOS) {
    const habilitado = periodoHabilitado(extensao, p.dias);
    const b = el(
      "button",
      {
        type: "button",
        class: "periodo",
        "data-periodo": p.id,
        "aria-pressed": String(p.id === atual),
        disabled: !habilitado,
        title: habilitado ? `Mostrar ${p.nome}` : "A série é mais curta que este período",
      },
      p.rotulo,
    );
    b.addEventListener("click", () => void escolherPeriodo(p.id).catch(erro));
    box.append(b);
  }
}

/** Axis labels always carry the year: "04/09/2026" for days and weeks, "set/2026" past a month. */
function rotulosX(alvo: HTMLElement): uPlot.Axis.Values {
  return (_u, splits, _eixo, _espaco, incremento) => {
    const rotulos = splits.map((v) => {
      const d = dataDeSegundos(v);
      return incremento >= 28 * DIA ? `${MESES[Number(d.slice(5, 7)) - 1]}/${d.slice(0, 4)}` : dataBR(d);
    });
    alvo.dataset.rotulosX = rotulos.join("|");
    return rotulos;
  };
}

/** With few points in view, each one carries its value, written on the canvas above it. */
function valoresNosPontos(u: uPlot): void {
  const xs = u.data[0] as number[];
  const ys = u.data[1] as Array<number | null>;
  const min = u.scales.x?.min ?? -Infinity;
  const max = u.scales.x?.max ?? Infinity;
  const visiveis = xs.map((x, i) => [x, ys[i]] as const).filter(([x, y]) => x >= min && x <= max && y != null);
  if (visiveis.length === 0 || visiveis.length > 12) return;
  const ctx = u.ctx;
  ctx.save();
  ctx.fillStyle = "#1b1b1b";
  ctx.font = `${Math.round(12 * UPlot.pxRatio)}px system-ui, sans-serif`;
  ctx.textAlign = "center";
  ctx.textBaseline = "bottom";
  for (const [x, y] of visiveis) ctx.fillText(formatDecimalBR(y!), u.valToPos(x, "x", true), u.valToPos(y!, "y", true) - 8 * UPlot.pxRatio);
  ctx.restore();
}

/**
 * The value axis's steps, whole centavos at least: a series that moved a centavo in view got
 * ticks a fifth of a centavo apart, written to two decimals ("347,70" on three gridlines).
 */
const INCREMENTOS_Y = [-2, -1, 0, 1, 2, 3, 4, 5, 6].flatMap((e) => [1, 2, 5].map((m) => Number((m * 10 ** e).toFixed(2))));

function larguraGrafico(alvo: HTMLElement): number {
  return Math.max(260, alvo.clientWidth || 600);
}

/**
 * A series in the chart: its recent file first (the last year, which 30 d and 1 a show), opened
 * on the last year when the series is longer than that; 5 a and tudo fetch the whole file.
 */
async function desenhar(id: string): Promise<void> {
  const pedido = ++pedidoDoGrafico;
  // a series the page's own part of the catalogue does not have is in index.json
  const s = indice.series.find((x) => x.id === id) ?? (inteiro ? undefined : (await lerIndice()).series.find((x) => x.id === id));
  if (!s || pedido !== pedidoDoGrafico) return;
  const index = indice;
  const [f, biblioteca] = await Promise.all([lerSerie(urlRecente(s)), bibliotecaDoGrafico]);
  UPlot = biblioteca;
  if (pedido !== pedidoDoGrafico) return;
  // the recent file is the whole history when the series is no longer than its window
  const completo = f.historico.length >= s.pontos;
  const primeiro = s.primeira_data ?? f.historico[0]?.data;
  const ultimo = s.ultima_data ?? f.historico[f.historico.length - 1]?.data;
  const extensao: [number, number] = primeiro && ultimo ? [segundos(primeiro), segundos(ultimo)] : [0, 0];
  montarGrafico(index, s, f, { completo, extensao, periodo: periodoHabilitado(extensao, 365) ? "1a" : "tudo" });
}

function montarGrafico(index: Indice, s: IndexSeries, f: SerieFile, o: Pick<Grafico, "completo" | "extensao" | "periodo">): void {
  const { completo, extensao, periodo } = o;
  const alvo = $("grafico");
  const xs = f.historico.map((h) => segundos(h.data));
  const ys = f.historico.map((h) => h.valor);
  grafico?.observador.disconnect();
  grafico?.u.destroy();
  clear(alvo);
  const [min, max] = janela(xs, PERIODOS.find((p) => p.id === periodo)?.dias ?? null);
  const u = new UPlot(
    {
      width: larguraGrafico(alvo),
      height: 280,
      tzDate: (ts) => UPlot.tzDate(new Date(ts * 1000), "UTC"),
      scales: {
        x: { time: true, min, max, auto: false },
        // one value (or a flat series) gets a band around it, not an axis from zero
        y: { range: (_u, a, b) => (a === b ? [a * 0.95, b * 1.05] : UPlot.rangeNum(a, b, 0.1, true)) },
      },
      series: [
        { label: "Data", value: (_u, v) => (v == null ? "—" : dataBR(dataDeSegundos(v))) },
        // in the series' unit: CEPEA's cotton is in centavos, and "R$ 439,98" would be 100 times its price
        { label: unidadeDoPreco(f.unidade), stroke: "#1f6f43", width: 2, points: { show: f.historico.length <= 60, size: 8, fill: "#1f6f43" }, value: (_u, v) => (v == null ? "—" : numeroDoPreco(v, f.unidade)) },
      ],
      axes: [
        { space: 110, values: rotulosX(alvo) },
        { values: (_u, vals) => vals.map((v) => formatDecimalBR(v)), size: 70, incrs: INCREMENTOS_Y },
      ],
      hooks: {
        draw: [valoresNosPontos],
        setScale: [
          (uu, chave) => {
            const x = uu.scales.x;
            if (chave === "x" && x?.min != null && x.max != null) alvo.dataset.janela = `${dataDeSegundos(x.min)}/${dataDeSegundos(x.max)}`;
          },
        ],
      },
    },
    [xs, ys],
    alvo,
  );
  // the chart follows its box (phone rotation, a resized window), not only the first layout
  let largura = larguraGrafico(alvo);
  const observador = new ResizeObserver(() => {
    const nova = larguraGrafico(alvo);
    if (nova === largura) return;
    largura = nova;
    u.setSize({ width: nova, height: 280 });
  });
  observador.observe(alvo);
  grafico = { u, xs, periodo, observador, index, serie: s, completo, extensao };
  botoesPeriodo(extensao, periodo);
  for (const b of $("periodos").querySelectorAll<HTMLButtonElement>("button")) b.setAttribute("aria-pressed", String(b.dataset.periodo === periodo));
  alvo.dataset.periodo = periodo;
  const ultimo = f.historico[f.historico.length - 1];
  // the whole series as index.json counts it, whichever of its files the chart holds
  const pontos = completo ? f.historico.length : s.pontos;
  alvo.setAttribute(
    "aria-label",
    `Gráfico de ${nomeSerie(index, s)}: ${pontos} ${pontos === 1 ? "dia" : "dias"}, de ${dataBR(completo ? f.historico[0]?.data : s.primeira_data)} a ${dataBR(ultimo?.data)}; último valor ${ultimo ? preco(ultimo.valor, f.unidade) : "—"}.`,
  );
  alvo.dataset.pontos = String(f.historico.length);
  alvo.dataset.historico = completo ? "completo" : "ultimo-ano";
  alvo.dataset.serie = s.id;
  const links = $("grafico-links");
  clear(links);
  links.append(
    el("a", { href: `#${ancoraSerie(s.id)}` }, nomeSerie(index, s)),
    nacional(s) ? ": " : ` (${nomeFonte(index, s.fonte)}): `,
    el("a", { href: url(s.path) }, "JSON"),
    " · ",
    el("a", { href: url(s.csv) }, "CSV"),
  );
  const p = f.proveniencia;
  const prov = $("grafico-proveniencia");
  clear(prov);
  prov.append(
    "Fonte: ",
    el("a", { href: p.url, rel: "noopener" }, p.nome),
    p.via ? ` (via ${p.via}${p.via_url ? `, ${p.via_url}` : ""})` : "",
    `; coletado em ${dataHoraBR(p.coletado_em)}; licença: ${p.licenca}; cite “${p.citacao}”. ${p.termos}`,
  );
}

function fontes(index: Indice): void {
  const box = $("fontes-lista");
  clear(box);
  for (const f of index.fontes) {
    box.append(
      el(
        "li",
        { "data-fonte": f.id },
        el("a", { href: f.site, rel: "noopener" }, f.nome),
        ` — licença: ${f.licenca}; cite “${f.citacao}”. ${f.termos} `,
        el("a", { href: f.termos_url, rel: "noopener" }, `Termos de uso de ${f.nome}`),
        f.ativa ? "" : " (fonte desativada)",
      ),
    );
  }
  $("licenca").textContent = index.license;
}

/**
 * The chart's list of series: every series, from the page's list of them (a phone's picker opens
 * at the first tap, before index.json arrives) or from index.json; the page's own entries only
 * when it was written without that list.
 */
function seletor(index: Indice, opcoes?: OpcaoDoGrafico[]): void {
  const lista: Pick<IndexSeries, "id" | "produto" | "uf" | "regiao">[] =
    opcoes?.map((o) => ({ id: o.id, produto: o.id.split("/")[0] as IndexSeries["produto"], uf: (o.id.split("/")[1] ?? null) as IndexSeries["uf"], regiao: o.regiao ?? "" })) ?? index.series;
  const sel = $("serie") as HTMLSelectElement;
  const atual = sel.value;
  clear(sel);
  for (const s of lista) sel.append(el("option", { value: s.id }, nomeSerie(index, s)));
  sel.value = lista.some((s) => s.id === atual) ? atual : (lista[0]?.id ?? "");
}

/** The catalogue table waits for the visitor: one button, with index.json's count of series. */
function catalogoAdiado(total: number): void {
  const corpo = $("catalogo-corpo");
  const botao = el("button", { type: "button", id: "catalogo-mostrar" }, `Mostrar as ${total} séries`);
  botao.addEventListener("click", () => {
    botao.disabled = true;
    botao.textContent = "Carregando…";
    lerIndice().catch((err: unknown) => {
      botao.disabled = false;
      botao.textContent = `Mostrar as ${total} séries`;
      erro(err);
    });
  });
  clear(corpo);
  corpo.append(el("tr", {}, el("td", { colspan: 9 }, botao)));
}

/** Filters of the catalogue table; a link to a series clears them so its row is shown. */
let mostrarTudo: () => void = () => undefined;

/**
 * Every series of index.json in one table, filtered by product and by place (a UF, or the
 * national/single-place series), so the catalogue can be browsed without reading JSON. Each row
 * has its anchor (#serie-{produto}, #serie-{produto}-{UF}) for links from the feed and elsewhere.
 */
function catalogo(index: Indice): void {
  const selProduto = $("filtro-produto") as HTMLSelectElement;
  const selUf = $("filtro-uf") as HTMLSelectElement;
  const produtos = [...new Set(index.series.map((s) => s.produto))];
  for (const p of produtos) selProduto.append(el("option", { value: p }, nomeProduto(index, p)));
  // a national series published with its place's UF (the calf's MS) is listed under that UF too
  const ufDe = (s: IndexSeries) => s.uf ?? (nacional(s) ? null : s.id.split("/")[1]!);
  const ufs = [...new Set(index.series.flatMap((s) => (ufDe(s) ? [ufDe(s)!] : [])))].sort();
  selUf.append(el("option", { value: "-" }, "Referências nacionais"));
  for (const uf of ufs) selUf.append(el("option", { value: uf }, uf));
  const desenharTabela = () => {
    const corpo = $("catalogo-corpo");
    clear(corpo);
    const linhas = index.series.filter(
      (s) => (!selProduto.value || s.produto === selProduto.value) && (!selUf.value || (selUf.value === "-" ? nacional(s) : ufDe(s) === selUf.value)),
    );
    for (const s of linhas) {
      const ultimo = el("td", { "data-campo": "ultimo-dia" });
      ultimo.append(...diaEIdade(ultimo, s.ultima_data, s.id, s.fonte));
      corpo.append(
        el(
          "tr",
          { "data-serie": s.id, id: ancoraSerie(s.id), tabindex: -1 },
          el("th", { scope: "row" }, nomeProduto(index, s.produto)),
          el("td", {}, localSerie(index, s)),
          el("td", {}, nomeFonte(index, s.fonte)),
          el("td", {}, UNIDADE_INFO[s.unidade as keyof typeof UNIDADE_INFO]?.nome ?? s.unidade),
          el("td", { class: "num" }, s.valor === null ? "—" : precoEl(s.valor, s.unidade)),
          el("td", {}, dataBR(s.primeira_data)),
          ultimo,
          el("td", { class: "num" }, String(s.pontos)),
          el(
            "td",
            {},
            el("a", { href: url(s.path), class: "mini" }, "JSON"),
            " · ",
            el("a", { href: url(s.csv), class: "mini" }, "CSV"),
            " · ",
            el("a", { href: `#${ancoraSerie(s.id)}`, class: "mini", "data-grafico": s.id }, "gráfico"),
          ),
        ),
      );
    }
    $("catalogo-contagem").textContent = `${linhas.length} de ${index.series.length} séries`;
  };
  mostrarTudo = () => {
    if (!selProduto.value && !selUf.value) return;
    selProduto.value = "";
    selUf.value = "";
    desenharTabela();
  };
  selProduto.addEventListener("change", desenharTabela);
  selUf.addEventListener("change", desenharTabela);
  desenharTabela();
  $("catalogo-filtros").hidden = false;
}

/** Opens the series a "#serie-..." hash names (index.json has them all); false when it names none. */
async function seguirHash(): Promise<boolean> {
  const hash = decodeURIComponent(location.hash.slice(1));
  if (!hash.startsWith("serie-")) return false;
  const index = await lerIndice();
  const s = index.series.find((x) => ancoraSerie(x.id) === hash);
  if (s) await irParaSerie(s);
  return s !== undefined;
}

/**
 * Opened at #serie-{produto}-{UF}: that row, shown (filters cleared), scrolled to and marked, and
 * that series in the chart. The rows are written by the script, so the browser's own jump to
 * the anchor happened before they existed.
 */
async function irParaSerie(s: IndexSeries): Promise<void> {
  mostrarTudo();
  for (const tr of document.querySelectorAll("#catalogo-corpo tr[aria-current]")) tr.removeAttribute("aria-current");
  const linha = document.getElementById(ancoraSerie(s.id));
  if (linha) {
    linha.setAttribute("aria-current", "true");
    linha.scrollIntoView({ block: "center" });
    linha.focus({ preventScroll: true });
  }
  const sel = $("serie") as HTMLSelectElement;
  if (sel.value !== s.id || $("grafico").dataset.serie !== s.id) {
    sel.value = s.id;
    await desenhar(s.id);
  }
}

function erro(err: unknown): void {
  const box = $("erro");
  box.hidden = false;
  box.textContent = `Não foi possível carregar os dados: ${(err as Error).message}`;
}

async function main(): Promise<void> {
  const inicial = dadosDaPagina();
  const [agg, status] = await Promise.all([
    getJSON<AggregateFile>(`${API}cotacao.json`),
    getJSON<StatusFile>(`${API}status.json`),
    // a page written before it had its own part of the catalogue reads all of it first
    inicial ? null : lerIndice(),
  ]);
  if (inicial && !inteiro) indice = inicial;
  // a page older than cotacao.json (kept by a cache, or revalidated while cotacao.json was not)
  // carries the change of another day, or of a price since revised, than the cards show:
  // index.json has the shown price's
  const outroPreco = (c: (typeof CARDS)[number]) => {
    const s = indice.series.find((x) => x.id === c.serie);
    return s !== undefined && !doCartao(s, agg, c.key);
  };
  if (!inteiro && CARDS.some(outroPreco)) await lerIndice().catch(() => undefined);
  idade = contextoIdade(status);
  avisos(statusDeHoje());
  cards(agg, indice);
  fontes(indice);
  seletor(indice, inteiro ? undefined : inicial?.opcoes);
  tabelaUF(indice);
  if (inteiro) catalogo(indice);
  else catalogoAdiado(inicial!.total);
  aoLerIndice.push((i) => seletor(i), catalogo, () => avisos(statusDeHoje()));
  // a background tab's timers are slowed down: its ages are checked again when it is shown
  setInterval(idadesDoDia, 60_000);
  document.addEventListener("visibilitychange", idadesDoDia);
  const sel = $("serie") as HTMLSelectElement;
  sel.addEventListener("change", () => void desenhar(sel.value).catch(erro));
  // choosing another series: the whole list is in index.json
  for (const evento of ["focus", "pointerdown"]) sel.addEventListener(evento, () => void lerIndice().catch(erro));
  const banner = $("avisos") as HTMLDetailsElement;
  banner.addEventListener("toggle", () => {
    if (banner.open && !inteiro) void lerIndice().catch(erro);
  });
  if (!(await seguirHash()) && indice.series[0]) await desenhar(indice.series[0].id);
  window.addEventListener("hashchange", () => void seguirHash().catch(erro));
  document.body.dataset.pronto = "ok";
}

main().catch(erro);
