/**
 * The simulator page (public/simulador/index.html), bundled to public/assets/simulador-pagina.js.
 * The simulation itself is imported from ./simulador.js, the same module the server's
 * /api/v1/simulador runs (pipeline/simulator/simulator.ts); this file only reads the form, fetches
 * the published price and shows the result. The form's inputs live in the URL's query string
 * (the same parameters as /api/v1/simulador), so a simulation can be shared as a link.
 */
import { PRODUTO_INFO, PRODUTOS, type Produto, type TipoProduto } from "../../domain/products.ts";
import type { IndexFile, IndexSeries, SerieFile } from "../../domain/publicados.ts";
import type { UF } from "../../domain/ufs.ts";
import {
  CAMPOS_SIMULADOR,
  COLUNA_INFO,
  nomeDaColuna,
  diasEntre,
  diasUteisEntre,
  DIAS_UTEIS_ATUAL,
  FUNRURAL_PADRAO,
  hojeEmBrasilia,
  referenciaDaSerie,
  serieDaEntrada,
  simular,
  SimulacaoForaDoLimite,
  unidadeSimulavel,
  validarEntrada,
  type CampoErro,
  type ColunaPreco,
  type PrecoReferencia,
  type Resultado,
  ROTULOS,
} from "../../simulator/simulator.ts";
import { clear, dataBR, el, getJSON, preco, unidadeDoPreco } from "./dom.ts";
import { formatBRL, formatDecimalBR } from "../../domain/money.ts";

/** The site's root, wherever it is served from (GitHub Pages serves it under /{repo}/). */
const RAIZ = new URL("../", location.href);
const INDEX_URL = new URL("api/v1/index.json", RAIZ);
const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

/**
 * A path of index.json as a URL. Paths are relative to index.json itself ("cotacao/soja.json");
 * older catalogues wrote them from the site's root ("api/v1/cotacao/soja.json"): both resolve.
 */
export function urlDoIndice(path: string): URL {
  return path.startsWith("api/v1/") ? new URL(path, RAIZ) : new URL(path, INDEX_URL);
}

/** What the form asks for each way a product is sold (domain/products.ts: tipo). */
const CAMPOS_POR_TIPO: Record<TipoProduto, string[]> = {
  gado_arroba: ["cabecas", "peso_vivo_kg", "rendimento_pct"],
  cabeca: ["cabecas"],
  grao_saca: ["sacas"],
  sem_simulacao: [],
};
const camposDo = (produto: Produto) => CAMPOS_POR_TIPO[PRODUTO_INFO[produto].tipo];
const TODOS = ["cabecas", "peso_vivo_kg", "rendimento_pct", "sacas"];

let index: IndexFile | null = null;
const arquivos = new Map<string, Promise<SerieFile>>();

function produtoAtual(): Produto {
  return ($<HTMLSelectElement>("produto").value || PRODUTOS[0]) as Produto;
}

/**
 * The catalogue's series of a produto and uf, as the server's /api/v1/simulador finds it: the
 * state series when there is one, else the national series when it is quoted at that UF (CEPEA's
 * bezerro is MS's, its milho SP's); a national series has no "/" in its id.
 */
function serieDoCatalogo(produto: Produto, uf: UF | null): IndexSeries | undefined {
  const id = serieDaEntrada({ produto, uf });
  return index?.series.find((s) => s.id === id) ?? (uf ? index?.series.find((s) => s.id === produto && s.uf === uf) : undefined);
}

/** The catalogue's series of the form's produto and uf. */
function serieEscolhida(): IndexSeries | undefined {
  return serieDoCatalogo(produtoAtual(), ($<HTMLSelectElement>("uf").value || null) as UF | null);
}

function nomeDaFonte(id: string): string {
  return index?.fontes.find((f) => f.id === id)?.nome ?? id;
}

function nomeDaUF(uf: string): string {
  return index?.ufs.find((u) => u.uf === uf)?.nome ?? uf;
}

function arquivo(s: IndexSeries): Promise<SerieFile> {
  let p = arquivos.get(s.id);
  if (!p) {
    p = getJSON<SerieFile>(urlDoIndice(s.path).href);
    // a failed fetch is tried again on the next submit
    p.catch(() => arquivos.delete(s.id));
    arquivos.set(s.id, p);
  }
  return p;
}

/** "há 109 dias" from a day to today in Brasília */
function ha(dia: string): string {
  const n = Math.max(0, diasEntre(dia, hojeEmBrasilia()));
  return n === 0 ? "hoje" : n === 1 ? "há 1 dia" : `há ${n} dias`;
}

function ajustarCampos(): void {
  const produto = produtoAtual();
  for (const c of TODOS) {
    const grupo = document.querySelector<HTMLElement>(`[data-grupo="${c}"]`);
    if (grupo) grupo.hidden = !camposDo(produto).includes(c);
  }
  const uf = $<HTMLSelectElement>("uf");
  const anterior = uf.value;
  clear(uf);
  // the national option says what it is: for vaca gorda, Scot's SP praça, not a national index
  const nacional = index?.series.find((s) => s.id === produto);
  uf.append(
    el(
      "option",
      { value: "" },
      nacional ? `Referência: ${nacional.regiao}` : "Sem referência nacional (escolha um estado ou informe o preço)",
    ),
  );
  for (const s of index?.series ?? []) {
    // a state series in a unit the sale cannot use (bezerro per kg) is not offered
    if (s.produto === produto && s.uf && s.id === `${produto}/${s.uf}` && unidadeSimulavel(produto, s.unidade)) {
      uf.append(el("option", { value: s.uf }, `${nomeDaUF(s.uf)} (${s.uf})${s.praca ? ` — praça ${s.praca}` : ""}, ${nomeDaFonte(s.fonte)}`));
    }
  }
  uf.value = [...uf.options].some((o) => o.value === anterior) ? anterior : "";
  void ajustarSerie();
}

/**
 * Describes the chosen series (source, praça, day and age of its latest price) and offers the
 * columns its source published that day (Scot: the prices net of Funrural), read from its file.
 */
async function ajustarSerie(): Promise<void> {
  const s = serieEscolhida();
  // a price typed in is read in the chosen series' unit: RS's boi is quoted per kg, and 320 typed
  // as per arroba would be a sale about 16 times too big
  $("ajuda-preco").textContent =
    (s ? `Em ${unidadeDoPreco(s.unidade)}, a unidade do preço ${s.id.includes("/") ? "deste estado" : "desta série"}. ` : "") +
    "Deixe em branco para usar o último preço publicado (a data dele aparece no resultado).";
  const desc = $("serie-desc");
  const grupo = document.querySelector<HTMLElement>('[data-grupo="coluna"]')!;
  const sel = $<HTMLSelectElement>("coluna");
  if (!s) {
    desc.textContent = "Não há preço publicado para esta escolha: informe o preço.";
    desc.classList.remove("desatualizado");
    grupo.hidden = true;
    return;
  }
  const velho = s.ultima_data !== null && diasUteisEntre(s.ultima_data, hojeEmBrasilia()) > DIAS_UTEIS_ATUAL;
  desc.classList.toggle("desatualizado", velho);
  desc.textContent =
    `${nomeDaFonte(s.fonte)}: ${s.regiao}${s.praca ? `, praça ${s.praca}` : ""}. ` +
    (s.ultima_data && s.valor !== null && s.valor !== undefined ? `Último preço: ${preco(s.valor, s.unidade)} de ${dataBR(s.ultima_data)} (${ha(s.ultima_data)}).` : "");
  let f: SerieFile;
  try {
    f = await arquivo(s);
  } catch {
    return;
  }
  if (serieEscolhida()?.id !== s.id) return; // the person chose another series meanwhile
  const colunas = referenciaDaSerie(f, s.id).colunas ?? {};
  const anterior = sel.value;
  clear(sel);
  sel.append(el("option", { value: "" }, `${nomeDaColuna("valor", f.produto)} (${preco(f.valor, f.unidade)}, padrão)`));
  for (const [c, v] of Object.entries(colunas) as Array<[ColunaPreco, number]>) {
    sel.append(el("option", { value: c }, `${COLUNA_INFO[c].nome} (${preco(v, f.unidade)})`));
  }
  sel.value = [...sel.options].some((o) => o.value === anterior) ? anterior : "";
  grupo.hidden = sel.options.length < 2;
}

function campos(): Record<string, string> {
  const produto = produtoAtual();
  const out: Record<string, string> = { produto };
  const colunaVisivel = !document.querySelector<HTMLElement>('[data-grupo="coluna"]')!.hidden;
  const ids = ["uf", ...camposDo(produto), "preco", ...(colunaVisivel ? ["coluna"] : []), "funrural_pct", "comissao_pct", "frete"];
  for (const id of ids) {
    const v = ($<HTMLInputElement>(id).value ?? "").trim();
    if (v !== "") out[id] = v;
  }
  return out;
}

function limparErros(): void {
  for (const n of document.querySelectorAll("[aria-invalid]")) n.removeAttribute("aria-invalid");
  for (const n of document.querySelectorAll<HTMLElement>(".erro-campo")) {
    n.textContent = "";
    n.hidden = true;
  }
}

function linha(rotulo: string, valor: string, campo: string): HTMLTableRowElement {
  // figures stay on one line ("− R$ 949,10"); the price row is a sentence and may wrap
  return el("tr", { "data-campo": campo }, el("th", { scope: "row" }, rotulo), el("td", campo === "preco" ? {} : { class: "num" }, valor));
}

function textoDoPreco(r: Resultado): string {
  const p = r.preco;
  if (p.origem === "informado") return `${preco(p.valor, p.unidade)} (informado por você)`;
  const coluna = p.coluna && p.coluna !== "valor" ? `, coluna ${COLUNA_INFO[p.coluna].nome}` : "";
  const idade = p.idade_dias === undefined ? "" : p.idade_dias === 0 ? " (hoje)" : ` (há ${p.idade_dias} ${p.idade_dias === 1 ? "dia" : "dias"})`;
  const nome = p.nome ?? p.serie ?? "";
  const fonte = p.fonte_nome ?? (p.fonte ? nomeDaFonte(p.fonte) : "");
  // Scot's series already name their source ("Mato Grosso do Sul (Mercado Físico, Scot Consultoria)")
  return `${preco(p.valor, p.unidade)} em ${dataBR(p.data_cotacao)}${idade}${p.praca ? `, praça ${p.praca}` : ""} — ${nome}${fonte && !nome.includes(fonte) ? `, ${fonte}` : ""}${coluna}`;
}

function mostrar(r: Resultado): void {
  const box = $("resultado");
  clear(box);
  const q = r.quantidade;
  const linhas: HTMLTableRowElement[] = [];
  if (q.cabecas !== undefined) linhas.push(linha("Cabeças", String(q.cabecas), "cabecas"));
  if (q.peso_vivo_total_kg !== undefined) linhas.push(linha("Peso vivo total", `${formatDecimalBR(q.peso_vivo_total_kg)} kg`, "peso_vivo_total_kg"));
  if (q.arrobas !== undefined) linhas.push(linha("Arrobas (15 kg de carcaça)", `${formatDecimalBR(q.arrobas)} @`, "arrobas"));
  if (q.sacas !== undefined) linhas.push(linha("Sacas de 60 kg", formatDecimalBR(q.sacas), "sacas"));
  const f = r.deducoes.funrural;
  linhas.push(
    linha("Preço usado", textoDoPreco(r), "preco"),
    linha(`Valor bruto (${q.base})`, formatBRL(r.bruto), "bruto"),
    linha(f.preco_sem_funrural ? "Funrural (preço já sem Funrural)" : `Funrural (${formatDecimalBR(f.aliquota_pct)}%)`, `− ${formatBRL(f.valor)}`, "funrural"),
    linha(`Comissão (${formatDecimalBR(r.deducoes.comissao.percentual)}%)`, `− ${formatBRL(r.deducoes.comissao.valor)}`, "comissao"),
    linha("Frete", `− ${formatBRL(r.deducoes.frete)}`, "frete"),
    linha("Total de deduções", `− ${formatBRL(r.deducoes.total)}`, "deducoes"),
    linha("Valor líquido", formatBRL(r.liquido), "liquido"),
  );
  if (r.liquido_por_unidade !== null) {
    linhas.push(linha(`Líquido por unidade de preço`, preco(r.liquido_por_unidade, r.preco.unidade), "liquido_por_unidade"));
  }
  box.append(
    el("h2", { tabindex: "-1", id: "resultado-titulo" }, "Resultado"),
    // an old price is said before any figure computed from it
    ...r.avisos.map((a) => el("p", { class: "aviso", "data-campo": "aviso" }, a)),
    el("table", {}, el("caption", {}, `Simulação de venda de ${PRODUTO_INFO[r.entrada.produto as Produto].nome.toLowerCase()}`), el("tbody", {}, ...linhas)),
    ...r.observacoes.map((o) => el("p", { class: "mini" }, o)),
    el(
      "p",
      { class: "compartilhar" },
      el("button", { type: "button", id: "copiar", class: "secundario" }, "Copiar link desta simulação"),
      " ",
      el("span", { id: "copiar-status", role: "status" }),
    ),
  );
  $("copiar").addEventListener("click", () => void copiarLink());
  box.hidden = false;
  document.body.dataset.resultado = "ok";
}

/** The link of this simulation to the clipboard, or shown selected when the browser refuses. */
async function copiarLink(): Promise<void> {
  const status = $("copiar-status");
  const link = location.href;
  try {
    await navigator.clipboard.writeText(link);
    status.textContent = "Link copiado.";
  } catch {
    clear(status);
    const campo = el("input", { type: "text", readonly: true, value: link, "aria-label": "Link desta simulação", class: "link" });
    status.append("Copie o link: ", campo);
    campo.select();
  }
}

/** The form's inputs as the page's query string (the same parameters as /api/v1/simulador). */
function guardarNaURL(params: Record<string, string>): void {
  const q = new URLSearchParams(params).toString();
  history.replaceState(null, "", `${location.pathname}?${q}${location.hash}`);
}

async function simularForm(ev?: Event): Promise<void> {
  ev?.preventDefault();
  limparErros();
  const geral = $("erro");
  geral.hidden = true;
  const params = campos();
  guardarNaURL(params);
  const v = validarEntrada(params);
  if (!v.ok) {
    mostrarErros(v.erros);
    return;
  }
  let ref: PrecoReferencia | null = null;
  const s = serieDoCatalogo(v.entrada.produto, v.entrada.uf);
  if (s) {
    ref = referenciaDaSerie(await arquivo(s), s.id);
    ref.fonte_nome ??= nomeDaFonte(s.fonte);
  } else if (v.entrada.precoCentavos === null) {
    geral.textContent = `Não há preço publicado de ${PRODUTO_INFO[v.entrada.produto].nome.toLowerCase()}${v.entrada.uf ? ` em ${nomeDaUF(v.entrada.uf)}` : ""}; informe o preço.`;
    geral.hidden = false;
    $("resultado").hidden = true;
    return;
  }
  let r: Resultado;
  try {
    r = simular(v.entrada, ref);
  } catch (err) {
    if (!(err instanceof SimulacaoForaDoLimite)) throw err;
    mostrarErros(err.erros);
    return;
  }
  mostrar(r);
  $("resultado-titulo").focus();
}

function mostrarErros(erros: CampoErro[]): void {
  for (const e of erros) {
    $(e.campo)?.setAttribute("aria-invalid", "true");
    const msg = $(`erro-${e.campo}`);
    if (msg) {
      msg.textContent = e.mensagem;
      msg.hidden = false;
    }
  }
  const geral = $("erro");
  geral.textContent = `Corrija ${erros.length === 1 ? "o campo indicado" : `os ${erros.length} campos indicados`}: ${erros.map((e) => e.mensagem).join("; ")}`;
  geral.hidden = false;
  $("resultado").hidden = true;
}

/**
 * A link's query string as the server reads the same query (pipeline/serve/query.ts parseQuery):
 * a known parameter's name in any case (`UF=MT` is `uf=MT`; ignored, the sale was priced at the
 * national boi gordo, São Paulo's, under a link asking for MT), a known parameter given twice is
 * an error (which of `uf=MS&UF=SP`?), unknown ones (`_=`, `utm_source`) are ignored.
 */
function lerLink(search: string): { valores: Map<string, string>; erros: CampoErro[] } {
  const valores = new Map<string, string>();
  const erros: CampoErro[] = [];
  for (const [nome, valor] of new URLSearchParams(search)) {
    const campo = nome.toLowerCase();
    if (!CAMPOS_SIMULADOR.includes(campo)) continue;
    if (valores.has(campo)) {
      if (!erros.some((e) => e.campo === campo)) {
        erros.push({ campo, mensagem: `${ROTULOS[campo as keyof typeof ROTULOS].replace(/, opcional\)$/, ")")}: o parâmetro "${campo}" aparece mais de uma vez no link; informe-o uma só vez` });
      }
      continue;
    }
    valores.set(campo, valor);
  }
  return { valores, erros };
}

/** The inputs of a shared link, into the form; true when the link asks for a simulation. */
async function restaurarDaURL(): Promise<boolean> {
  const { valores: q, erros } = lerLink(location.search);
  const produtoTxt = q.get("produto");
  const produto = produtoTxt?.trim().toLowerCase();
  if (!produto) return false;
  const sel = $<HTMLSelectElement>("produto");
  if (![...sel.options].some((o) => o.value === produto)) {
    // the form would keep its first product and simulate that one: the link's product is refused
    const v = validarEntrada({ produto: produtoTxt });
    mostrarErros(v.ok ? [] : v.erros.filter((e) => e.campo === "produto"));
    return false;
  }
  sel.value = produto;
  ajustarCampos();
  const uf = q.get("uf")?.trim().toUpperCase() ?? "";
  const ufSel = $<HTMLSelectElement>("uf");
  // a UF without a series stays in the form as the person sent it: the simulation says so
  if (uf && ![...ufSel.options].some((o) => o.value === uf)) ufSel.append(el("option", { value: uf }, uf));
  ufSel.value = uf;
  await ajustarSerie();
  for (const campo of CAMPOS_SIMULADOR) {
    if (campo === "produto" || campo === "uf") continue;
    const v = q.get(campo);
    const input = $<HTMLInputElement | HTMLSelectElement>(campo);
    if (!input) continue;
    if (v === undefined) {
      // a quantity the link does not give is asked for, as the server asks: the form's example
      // (10 cabeças, 540 kg, 52 %, 1.000 sacas) would be a sale nobody described
      if (camposDo(produto as Produto).includes(campo)) input.value = "";
      continue;
    }
    if (input instanceof HTMLSelectElement && ![...input.options].some((o) => o.value === v)) input.append(el("option", { value: v }, v));
    input.value = v;
    // a column the series does not publish is shown, so the simulation refuses it (hidden, it
    // was left out and the headline price used instead)
    if (campo === "coluna" && v.trim() !== "") document.querySelector<HTMLElement>('[data-grupo="coluna"]')!.hidden = false;
  }
  if (erros.length > 0) {
    mostrarErros(erros);
    return false;
  }
  return true;
}

async function main(): Promise<void> {
  $("funrural_pct").setAttribute("value", formatDecimalBR(FUNRURAL_PADRAO.aliquota_pct).replace(/0$/, ""));
  $("funrural-base").textContent = FUNRURAL_PADRAO.base_legal;
  index = await getJSON<IndexFile>(INDEX_URL.href);
  $("produto").addEventListener("change", ajustarCampos);
  $("uf").addEventListener("change", () => void ajustarSerie());
  ajustarCampos();
  const form = $("form");
  const falha = (err: Error) => {
    const geral = $("erro");
    geral.textContent = `Não foi possível simular: ${err.message}`;
    geral.hidden = false;
  };
  form.addEventListener("submit", (ev) => void simularForm(ev).catch(falha));
  document.body.dataset.pronto = "ok";
  if (await restaurarDaURL()) await simularForm().catch(falha);
}

main().catch((err: Error) => {
  const geral = $("erro");
  geral.textContent = `Não foi possível carregar os dados: ${err.message}`;
  geral.hidden = false;
});
