/**
 * The simulator page (public/simulador/index.html), bundled to public/assets/simulador-pagina.js.
 * The simulation itself is imported from ./simulador.js, the same module the server's
 * /api/v1/simulador runs (pipeline/simulator/simulator.ts); this file only reads the form, fetches
 * the published price and shows the result.
 */
import { PRODUTO_INFO, PRODUTOS, type Produto, type TipoProduto } from "../../domain/products.ts";
import type { IndexFile, SerieFile } from "../../domain/publicados.ts";
import { FUNRURAL_PADRAO, serieDaEntrada, simular, SimulacaoForaDoLimite, validarEntrada, type CampoErro, type PrecoReferencia, type Resultado } from "../../simulator/simulator.ts";
import { clear, dataBR, el, getJSON, preco } from "./dom.ts";
import { formatBRL, formatDecimalBR } from "../../domain/money.ts";

const RAIZ = "../";
const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

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

function produtoAtual(): Produto {
  return ($<HTMLSelectElement>("produto").value || PRODUTOS[0]) as Produto;
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
  uf.append(el("option", { value: "" }, "Referência nacional"));
  for (const s of index?.series ?? []) {
    if (s.produto === produto && s.uf) uf.append(el("option", { value: s.uf }, `${s.uf}${s.praca ? ` — ${s.praca}` : ""}`));
  }
  uf.value = [...uf.options].some((o) => o.value === anterior) ? anterior : "";
}

function campos(): Record<string, string> {
  const produto = produtoAtual();
  const out: Record<string, string> = { produto };
  const ids = ["uf", ...camposDo(produto), "preco", "funrural_pct", "comissao_pct", "frete"];
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

function mostrar(r: Resultado): void {
  const box = $("resultado");
  clear(box);
  const q = r.quantidade;
  const linhas: HTMLTableRowElement[] = [];
  if (q.cabecas !== undefined) linhas.push(linha("Cabeças", String(q.cabecas), "cabecas"));
  if (q.peso_vivo_total_kg !== undefined) linhas.push(linha("Peso vivo total", `${formatDecimalBR(q.peso_vivo_total_kg)} kg`, "peso_vivo_total_kg"));
  if (q.arrobas !== undefined) linhas.push(linha("Arrobas (15 kg de carcaça)", `${formatDecimalBR(q.arrobas)} @`, "arrobas"));
  if (q.sacas !== undefined) linhas.push(linha("Sacas de 60 kg", formatDecimalBR(q.sacas), "sacas"));
  linhas.push(
    linha("Preço usado", r.preco.origem === "informado" ? `${preco(r.preco.valor, r.preco.unidade)} (informado por você)` : `${preco(r.preco.valor, r.preco.unidade)} em ${dataBR(r.preco.data_cotacao)}${r.preco.praca ? `, praça ${r.preco.praca}` : ""} (${r.preco.serie}, fonte ${r.preco.fonte})`, "preco"),
    linha(`Valor bruto (${q.base})`, formatBRL(r.bruto), "bruto"),
    linha(`Funrural (${formatDecimalBR(r.deducoes.funrural.aliquota_pct)}%)`, `− ${formatBRL(r.deducoes.funrural.valor)}`, "funrural"),
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
    el("table", {}, el("caption", {}, `Simulação de venda de ${PRODUTO_INFO[r.entrada.produto as Produto].nome.toLowerCase()}`), el("tbody", {}, ...linhas)),
    ...r.observacoes.map((o) => el("p", { class: "mini" }, o)),
  );
  box.hidden = false;
  document.body.dataset.resultado = "ok";
}

async function simularForm(ev: Event): Promise<void> {
  ev.preventDefault();
  limparErros();
  const geral = $("erro");
  geral.hidden = true;
  const v = validarEntrada(campos());
  if (!v.ok) {
    mostrarErros(v.erros);
    return;
  }
  let ref: PrecoReferencia | null = null;
  const id = serieDaEntrada(v.entrada);
  const s = index?.series.find((x) => x.id === id);
  if (s) {
    const f = await getJSON<SerieFile>(RAIZ + s.path);
    ref = { valor: f.valor, unidade: f.unidade, data_cotacao: f.data_cotacao, fonte: f.fonte, serie: id, praca: f.praca ?? null };
  } else if (v.entrada.precoCentavos === null) {
    geral.textContent = `Não há preço publicado para ${id}; informe o preço.`;
    geral.hidden = false;
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

async function main(): Promise<void> {
  $("funrural_pct").setAttribute("value", formatDecimalBR(FUNRURAL_PADRAO.aliquota_pct).replace(/0$/, ""));
  $("funrural-base").textContent = FUNRURAL_PADRAO.base_legal;
  index = await getJSON<IndexFile>(`${RAIZ}api/v1/index.json`);
  $("produto").addEventListener("change", ajustarCampos);
  ajustarCampos();
  $("form").addEventListener("submit", (ev) => void simularForm(ev).catch((err: Error) => {
    const geral = $("erro");
    geral.textContent = `Não foi possível simular: ${err.message}`;
    geral.hidden = false;
  }));
  document.body.dataset.pronto = "ok";
}

main().catch((err: Error) => {
  const geral = $("erro");
  geral.textContent = `Não foi possível carregar os dados: ${err.message}`;
  geral.hidden = false;
});
