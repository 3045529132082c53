/**
 * The dashboard (public/index.html), bundled to public/assets/painel.js. It reads only the static
 * files with URLs relative to the page, so it works from a GitHub Pages sub-path with no server.
 * First load: cotacao.json, index.json (every series' latest value, change, date and praça) and
 * status.json, plus the one series file the chart draws; a state's praças are fetched when opened.
 */
import uPlot from "uplot";
import { formatBRL, formatDecimalBR } from "../../domain/money.ts";
import { agregados, agregadosUf, PRODUTO_INFO, UNIDADE_INFO, type Produto } from "../../domain/products.ts";
import type { AggregateFile, AggregateKey, IndexFile, IndexSeries, SerieFile, StatusFile } from "../../domain/publicados.ts";
import { clear, dataBR, dataHoraBR, el, getJSON, percentualBR, preco, precoEl, reaisComSinal } from "./dom.ts";

const API = "api/v1/";

/** The aggregate's products, one card each; their national series is the product's id. */
const CARDS: ReadonlyArray<{ key: AggregateKey; produto: Produto; serie: string }> = agregados().map((a) => ({ key: a.chave, produto: a.produto, serie: a.produto }));

/** A product's name as index.json gives it (a series of a product this bundle does not know still has one). */
function nomeProduto(index: IndexFile, produto: string): string {
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

function nomeSerie(index: IndexFile, s: Pick<IndexSeries, "produto" | "uf" | "regiao">): string {
  return `${nomeProduto(index, s.produto)} — ${s.uf ? s.uf : s.regiao}`;
}

function avisos(status: StatusFile, index: IndexFile): void {
  const box = $("avisos");
  clear(box);
  const itens: HTMLElement[] = [];
  for (const f of status.fontes) {
    if (f.estado === "ok") continue;
    const partes = [
      `${f.nome}: ${ESTADO_FONTE[f.estado] ?? f.estado}.`,
      f.motivo ? ` Motivo: ${f.motivo}.` : "",
      ` Último sucesso: ${dataHoraBR(f.ultimo_sucesso)}; dado mais recente: ${dataBR(f.ultima_data)}.`,
    ];
    itens.push(el("li", { "data-fonte": f.id, "data-estado": f.estado }, partes.join("")));
  }
  const atrasadas = status.series.filter((s) => s.estado === "stale");
  // one line per product and last date: "Boi gordo, último dado 05/08/2026: nacional, SP, MG, ..."
  const grupos = new Map<string, string[]>();
  for (const s of atrasadas) {
    const def = index.series.find((x) => x.id === s.id);
    const chave = `${def ? nomeProduto(index, def.produto) : s.id}, último dado ${dataBR(s.ultima_data)}`;
    grupos.set(chave, [...(grupos.get(chave) ?? []), def?.uf ?? "referência nacional"]);
  }
  for (const [chave, locais] of grupos) {
    itens.push(el("li", { "data-series": "stale" }, `Série sem dado recente — ${chave}: ${locais.join(", ")}.`));
  }
  if (itens.length === 0) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  box.append(
    el("h2", {}, "Atenção: dados possivelmente desatualizados"),
    el("ul", {}, ...itens),
    el("p", {}, "Os valores abaixo são os últimos publicados por cada fonte. Verifique a data de cada um."),
  );
}

function cards(agg: AggregateFile, index: IndexFile): void {
  const box = $("precos");
  clear(box);
  for (const c of CARDS) {
    const valor = agg[c.key];
    const unidade = agg.unidades[c.key];
    const s = index.series.find((x) => x.id === c.serie);
    box.append(
      el(
        "article",
        { class: "card", "data-produto": c.produto },
        el("h3", {}, PRODUTO_INFO[c.produto].nome),
        el("p", { class: "valor", "data-campo": "valor" }, valor === null ? "sem dado" : precoEl(valor, unidade)),
        el("p", { class: "data", "data-campo": "data" }, `em ${dataBR(agg.datas[c.key])}`),
        variacao(s),
        el("p", { class: "regiao" }, s ? s.regiao : ""),
        el("p", { class: "unidade" }, `Unidade: ${UNIDADE_INFO[unidade].nome}`),
        s ? el("p", { class: "links" }, el("a", { href: s.path }, "JSON"), " · ", el("a", { href: s.csv }, "CSV")) : null,
      ),
    );
  }
  $("atualizado").textContent = dataHoraBR(agg.atualizado);
  performance.mark("precos-visiveis");
  document.body.dataset.precos = "ok";
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

/** Each state's reference praça, from index.json (no per-state file on first load). */
function tabelaUF(index: IndexFile): void {
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
      const s = index.series.find((x) => x.id === `${produto}/${u.uf}`);
      if (!s || s.valor === null) return el("td", {}, "—");
      return el(
        "td",
        { "data-produto": produto },
        el("span", { class: "valor" }, precoEl(s.valor, s.unidade)),
        el("br"),
        el("span", { class: "praca" }, `${s.praca ?? s.regiao}, ${dataBR(s.ultima_data)}`),
        el("br"),
        el("a", { href: s.path, class: "mini" }, "JSON"),
        " · ",
        el("a", { href: s.csv, class: "mini" }, "CSV"),
      );
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

async function pracas(box: HTMLDetailsElement, uf: string, index: IndexFile): Promise<void> {
  const alvo = box.querySelector(".pracas")!;
  const listas: HTMLElement[] = [];
  for (const produto of agregadosUf().map((a) => a.produto)) {
    const s = index.series.find((x) => x.id === `${produto}/${uf}`);
    if (!s) continue;
    try {
      const f = await getJSON<SerieFile>(s.path);
      listas.push(
        el("p", { class: "mini" }, `${nomeProduto(index, produto)} em ${dataBR(f.data_cotacao)}:`),
        el("ul", {}, ...(f.pracas ?? []).map((p) => el("li", {}, `${p.praca}: `, precoEl(p.valor, p.unidade), p.praca === f.praca ? " (referência)" : ""))),
      );
    } catch {
      listas.push(el("p", {}, `Não foi possível carregar ${s.path}.`));
    }
  }
  clear(alvo);
  alvo.append(...listas);
}

let grafico: uPlot | null = null;

async function desenhar(index: IndexFile, id: string): Promise<void> {
  const s = index.series.find((x) => x.id === id);
  if (!s) return;
  const alvo = $("grafico");
  const f = await getJSON<SerieFile>(s.path);
  const xs = f.historico.map((h) => Date.parse(`${h.data}T00:00:00Z`) / 1000);
  const ys = f.historico.map((h) => h.valor);
  const sufixo = UNIDADE_INFO[f.unidade].sufixo;
  grafico?.destroy();
  clear(alvo);
  const largura = Math.max(280, Math.min(900, alvo.clientWidth || 600));
  grafico = new uPlot(
    {
      width: largura,
      height: 280,
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), "UTC"),
      fmtDate: (tpl) => uPlot.fmtDate(tpl, {
        MMMM: ["janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro", "novembro", "dezembro"],
        MMM: ["jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez"],
        WWWW: ["domingo", "segunda", "terça", "quarta", "quinta", "sexta", "sábado"],
        WWW: ["dom", "seg", "ter", "qua", "qui", "sex", "sáb"],
      }),
      scales: { x: { time: true } },
      series: [
        { label: "Data", value: (_u, v) => (v == null ? "—" : dataBR(new Date(v * 1000).toISOString())) },
        { label: `R$${sufixo}`, stroke: "#1f6f43", width: 2, points: { show: f.historico.length < 60 }, value: (_u, v) => (v == null ? "—" : formatBRL(v)) },
      ],
      axes: [{ values: (_u, vals) => vals.map((v) => dataBR(new Date(v * 1000).toISOString()).slice(0, 5)) }, { values: (_u, vals) => vals.map((v) => formatDecimalBR(v)), size: 70 }],
    },
    [xs, ys],
    alvo,
  );
  const ultimo = f.historico[f.historico.length - 1];
  alvo.setAttribute(
    "aria-label",
    `Gráfico de ${nomeSerie(index, s)}: ${f.historico.length} dias, de ${dataBR(f.historico[0]?.data)} a ${dataBR(ultimo?.data)}; último valor ${ultimo ? preco(ultimo.valor, f.unidade) : "—"}.`,
  );
  alvo.dataset.pontos = String(f.historico.length);
  alvo.dataset.serie = id;
  const links = $("grafico-links");
  clear(links);
  links.append(el("a", { href: s.path }, `JSON de ${nomeSerie(index, s)}`), " · ", el("a", { href: s.csv }, `CSV de ${nomeSerie(index, s)}`));
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

function fontes(index: IndexFile): void {
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

function seletor(index: IndexFile): void {
  const sel = $("serie") as HTMLSelectElement;
  clear(sel);
  for (const s of index.series) sel.append(el("option", { value: s.id }, nomeSerie(index, s)));
  sel.value = index.series[0]?.id ?? "";
  sel.addEventListener("change", () => void desenhar(index, sel.value).catch(erro));
}

/**
 * Every series of index.json in one table, filtered by product and by place (a UF, or the
 * national/single-place series), so the catalogue can be browsed without reading JSON.
 */
function catalogo(index: IndexFile): void {
  const selProduto = $("filtro-produto") as HTMLSelectElement;
  const selUf = $("filtro-uf") as HTMLSelectElement;
  const produtos = [...new Set(index.series.map((s) => s.produto))];
  for (const p of produtos) selProduto.append(el("option", { value: p }, nomeProduto(index, p)));
  const ufs = [...new Set(index.series.flatMap((s) => (s.uf ? [s.uf] : [])))].sort();
  selUf.append(el("option", { value: "-" }, "Referência nacional ou local único"));
  for (const uf of ufs) selUf.append(el("option", { value: uf }, uf));
  const fonteNome = new Map(index.fontes.map((f) => [f.id, f.nome]));
  const desenharTabela = () => {
    const corpo = $("catalogo-corpo");
    clear(corpo);
    const linhas = index.series.filter(
      (s) => (!selProduto.value || s.produto === selProduto.value) && (!selUf.value || (selUf.value === "-" ? s.uf === null : s.uf === selUf.value)),
    );
    for (const s of linhas) {
      corpo.append(
        el(
          "tr",
          { "data-serie": s.id },
          el("th", { scope: "row" }, nomeProduto(index, s.produto)),
          el("td", {}, s.uf ? `${s.uf}${s.praca ? ` — ${s.praca}` : ""}` : s.regiao),
          el("td", {}, fonteNome.get(s.fonte) ?? s.fonte),
          el("td", {}, UNIDADE_INFO[s.unidade as keyof typeof UNIDADE_INFO]?.nome ?? s.unidade),
          el("td", { class: "num" }, s.valor === null ? "—" : precoEl(s.valor, s.unidade)),
          el("td", {}, dataBR(s.primeira_data)),
          el("td", {}, dataBR(s.ultima_data)),
          el("td", { class: "num" }, String(s.pontos)),
          el("td", {}, el("a", { href: s.path, class: "mini" }, "JSON"), " · ", el("a", { href: s.csv, class: "mini" }, "CSV")),
        ),
      );
    }
    $("catalogo-contagem").textContent = `${linhas.length} de ${index.series.length} séries`;
  };
  selProduto.addEventListener("change", desenharTabela);
  selUf.addEventListener("change", desenharTabela);
  desenharTabela();
}

function erro(err: unknown): void {
  const box = $("erro");
  box.hidden = false;
  box.textContent = `Não foi possível carregar os dados: ${(err as Error).message}`;
}

async function main(): Promise<void> {
  const [agg, index, status] = await Promise.all([
    getJSON<AggregateFile>(`${API}cotacao.json`),
    getJSON<IndexFile>(`${API}index.json`),
    getJSON<StatusFile>(`${API}status.json`),
  ]);
  avisos(status, index);
  cards(agg, index);
  fontes(index);
  seletor(index);
  tabelaUF(index);
  catalogo(index);
  if (index.series[0]) await desenhar(index, index.series[0].id);
  document.body.dataset.pronto = "ok";
}

main().catch(erro);
