/**
 * The romaneio page (public/romaneio/index.html), bundled to public/assets/romaneio-pagina.js.
 * The file the person picks is read in this browser (pipeline/romaneio/ocr-navegador.ts: the
 * server's OCR engine, data and parameters, from the site's romaneio/vendor/) and never sent
 * anywhere; the fields come from the same reader as POST /api/v1/romaneio (romaneio/ler.ts) and
 * the comparison from the same module (romaneio/comparar.ts), with the published series fetched
 * from this site. Every field is editable: an edit re-runs the cross-checks and the comparison.
 */
import { formatBRL, formatDecimalBR, parseBRDecimal } from "../../domain/money.ts";
import { PRODUTO_INFO, PRODUTOS } from "../../domain/products.ts";
import type { ComparacaoRomaneio, Desconto, LeituraRomaneio, LinhaAbate, Romaneio, TotaisAbate, TotaisCarga } from "../../domain/publicados.gerados.ts";
import type { SerieFile } from "../../domain/publicados.ts";
import { ALL_UFS, UFS } from "../../domain/ufs.ts";
import { compararRomaneio, seriesDoRomaneio } from "../../romaneio/comparar.ts";
import { CONFIANCA_MINIMA, lerRomaneio, reconferir } from "../../romaneio/ler.ts";
import { criarLeitorNavegador, ErroLeituraNavegador, type Progresso, type ResultadoNavegador } from "../../romaneio/ocr-navegador.ts";
import { clear, dataBR, el, hojeBrasilia, preco, reaisComSinal } from "./dom.ts";

/** The site's root, wherever it is served from (GitHub Pages serves it under /{repo}/). */
const RAIZ = new URL("../", location.href);
const VENDOR = new URL("vendor/", location.href);
/** A romaneio is a page or two: a bigger file is not one (and would stall a phone). */
const TAMANHO_MAXIMO = 20 * 1024 * 1024;
const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

type Tipo = "texto" | "data" | "produto" | "uf" | "tipo" | "inteiro" | "quantidade" | "dinheiro" | "sexo";
type Campo = readonly [campo: string, rotulo: string, tipo: Tipo];

const GERAIS: Campo[] = [
  ["tipo", "Tipo de romaneio", "tipo"],
  ["data", "Data da venda (dd/mm/aaaa)", "data"],
  ["produto", "Produto", "produto"],
  ["uf", "UF do local da venda", "uf"],
  ["municipio", "Município", "texto"],
];
const TOTAIS_ABATE: Campo[] = [
  ["cabecas", "Cabeças", "inteiro"],
  ["peso_carcaca_kg", "Peso de carcaça (kg)", "quantidade"],
  ["arrobas", "Arrobas", "quantidade"],
  ["preco_arroba", "Preço por arroba (R$)", "dinheiro"],
  ["valor_bruto", "Valor bruto (R$)", "dinheiro"],
  ["valor_liquido", "Valor líquido (R$)", "dinheiro"],
];
const TOTAIS_CARGA: Campo[] = [
  ["peso_bruto_kg", "Peso bruto (kg)", "quantidade"],
  ["tara_kg", "Tara (kg)", "quantidade"],
  ["umidade_pct", "Umidade (%)", "quantidade"],
  ["desconto_umidade_kg", "Desconto de umidade (kg)", "quantidade"],
  ["impureza_pct", "Impureza (%)", "quantidade"],
  ["desconto_impureza_kg", "Desconto de impureza (kg)", "quantidade"],
  ["peso_liquido_kg", "Peso líquido (kg)", "quantidade"],
  ["sacas", "Sacas de 60 kg", "quantidade"],
  ["preco_saca", "Preço por saca (R$)", "dinheiro"],
  ["valor_bruto", "Valor bruto (R$)", "dinheiro"],
  ["valor_liquido", "Valor líquido (R$)", "dinheiro"],
];

const TOTAIS_VAZIOS = {
  abate: (): TotaisAbate => ({ cabecas: null, peso_carcaca_kg: null, arrobas: null, preco_arroba: null, valor_bruto: null, descontos: [], valor_liquido: null }),
  carga: (): TotaisCarga => ({
    peso_bruto_kg: null,
    tara_kg: null,
    umidade_pct: null,
    desconto_umidade_kg: null,
    impureza_pct: null,
    desconto_impureza_kg: null,
    peso_liquido_kg: null,
    sacas: null,
    preco_saca: null,
    valor_bruto: null,
    descontos: [],
    valor_liquido: null,
  }),
};

let leitura: LeituraRomaneio | null = null;
let arquivoLido: ResultadoNavegador | null = null;
const series = new Map<string, Promise<SerieFile | null>>();
let comparacoes = 0;
let comparacao: ComparacaoRomaneio | null = null;

const leitor = criarLeitorNavegador(VENDOR, mostrarProgresso);

// ---------- values <-> text ----------

/** "+1,25%", "−5,33%": the same minus sign as the R$ difference beside it */
function percentualComSinal(p: number): string {
  return `${p > 0 ? "+" : p < 0 ? "−" : ""}${formatDecimalBR(Math.abs(p))}%`;
}

/** "1.234,56" / "1234,5" / "540" -> 1234.56 (computed in hundredths); null when it is not a number */
function numeroBR(texto: string): number | null {
  const h = parseBRDecimal(texto.replace(/\s/g, "").replace(/^R\$/, ""));
  return h === null || h < 0 ? null : h / 100;
}

/** "05/08/2026" -> "2026-08-05", null when not a calendar day */
function dataISO(texto: string): string | null {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(texto.trim());
  if (!m) return null;
  const [d, mes, a] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(a, mes - 1, d));
  if (t.getUTCFullYear() !== a || t.getUTCMonth() !== mes - 1 || t.getUTCDate() !== d) return null;
  return `${m[3]}-${m[2]}-${m[1]}`;
}

function textoDoValor(v: unknown, tipo: Tipo): string {
  if (v === null || v === undefined) return "";
  if (tipo === "quantidade" || tipo === "dinheiro") return formatDecimalBR(v as number);
  if (tipo === "data") return dataBR(v as string);
  return String(v);
}

/** The text of an input -> the field's value; `undefined` when the text is not valid for it. */
function valorDoTexto(texto: string, tipo: Tipo): unknown {
  const t = texto.trim();
  if (t === "") return null;
  switch (tipo) {
    case "quantidade":
    case "dinheiro":
      return numeroBR(t) ?? undefined;
    case "inteiro":
      return /^\d{1,3}(\.\d{3})*$|^\d+$/.test(t) ? Number(t.replace(/\./g, "")) : undefined;
    case "data":
      return dataISO(t) ?? undefined;
    default:
      return t;
  }
}

const ERRO_DO_TIPO: Partial<Record<Tipo, string>> = {
  quantidade: "Número inválido: use o formato 1.234,56",
  dinheiro: "Valor inválido: use o formato 1.234,56",
  inteiro: "Número inválido: só algarismos",
  data: "Data inválida: use dd/mm/aaaa",
};

// ---------- paths ----------

/** "totais.descontos[0].valor" -> ["totais", "descontos", 0, "valor"] */
function passos(caminho: string): Array<string | number> {
  return caminho.split(/\.|\[(\d+)\]/).filter((p) => p !== undefined && p !== "").map((p) => (/^\d+$/.test(p) ? Number(p) : p));
}

function ler(caminho: string): unknown {
  let o: unknown = leitura;
  for (const p of passos(caminho)) o = o === null || o === undefined ? undefined : (o as Record<string | number, unknown>)[p];
  return o;
}

function escrever(caminho: string, valor: unknown): void {
  const ps = passos(caminho);
  let o = leitura as unknown as Record<string | number, unknown>;
  for (const p of ps.slice(0, -1)) o = o[p] as Record<string | number, unknown>;
  o[ps[ps.length - 1]!] = valor;
}

/** A field is doubtful when read with low confidence or named by a failed check. */
function duvidoso(caminho: string): boolean {
  if (!leitura) return false;
  const c = leitura.confianca[caminho];
  if (c !== undefined && c < CONFIANCA_MINIMA) return true;
  return leitura.avisos.some((a) => a.campos.some((n) => n === caminho || caminho.startsWith(`${n}.`) || caminho.startsWith(`${n}[`)));
}

// ---------- the form ----------

let idSeq = 0;

function controle(caminho: string, tipo: Tipo, rotulo: string, emTabela = false): HTMLElement {
  const id = `c${++idSeq}`;
  const valor = ler(caminho);
  let input: HTMLInputElement | HTMLSelectElement;
  const opcoes = (lista: Array<[string, string]>, atual: unknown) => {
    const s = el("select", { id, "data-caminho": caminho, "data-tipo": tipo });
    s.append(el("option", { value: "" }, "—"));
    for (const [v, t] of lista) s.append(el("option", { value: v, selected: v === atual }, t));
    return s;
  };
  if (tipo === "tipo") input = opcoes([["abate", "Abate (gado)"], ["carga", "Carga (grãos)"]], valor);
  else if (tipo === "produto") input = opcoes(PRODUTOS.map((p) => [p, PRODUTO_INFO[p].nome]), valor);
  else if (tipo === "uf") input = opcoes(ALL_UFS.map((u) => [u, `${UFS[u]} (${u})`]), valor);
  else if (tipo === "sexo") input = opcoes([["M", "M (macho)"], ["F", "F (fêmea)"]], valor);
  else {
    input = el("input", {
      id,
      "data-caminho": caminho,
      "data-tipo": tipo,
      value: textoDoValor(valor, tipo),
      autocomplete: "off",
      inputmode: tipo === "inteiro" ? "numeric" : tipo === "quantidade" || tipo === "dinheiro" ? "decimal" : undefined,
    });
  }
  const marca = el("span", { class: "marca-duvida", id: `${id}-duvida`, hidden: true }, "confira");
  const erro = el("span", { class: "erro-campo", id: `${id}-erro`, hidden: true });
  input.setAttribute("aria-describedby", `${id}-duvida ${id}-erro`);
  if (emTabela) {
    input.setAttribute("aria-label", rotulo);
    return el("td", {}, input, " ", marca, erro);
  }
  return el("div", { class: "campo" }, el("label", { for: id }, rotulo, " ", marca), input, erro);
}

function montarForm(): void {
  const form = $("form");
  clear(form);
  if (!leitura) return;
  const l = leitura;
  form.append(el("fieldset", {}, el("legend", {}, "Venda"), el("div", { class: "grade" }, ...GERAIS.map(([c, r, t]) => controle(c, t, r)))));
  if (l.totais) {
    const abate = l.tipo !== "carga";
    const campos = abate ? TOTAIS_ABATE : TOTAIS_CARGA;
    form.append(el("fieldset", {}, el("legend", {}, "Totais"), el("div", { class: "grade" }, ...campos.map(([c, r, t]) => controle(`totais.${c}`, t, r)))));
    const descontos = l.totais.descontos;
    form.append(
      el(
        "fieldset",
        {},
        el("legend", {}, "Deduções"),
        descontos.length === 0
          ? el("p", { class: "ajuda" }, "Nenhuma dedução lida.")
          : el(
              "div",
              { class: "rolagem" },
              el(
                "table",
                {},
                el("caption", {}, "Deduções do valor bruto"),
                el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Dedução"), el("th", { scope: "col" }, "Alíquota (%)"), el("th", { scope: "col" }, "Valor (R$)"))),
                el(
                  "tbody",
                  {},
                  ...descontos.map((d: Desconto, i) =>
                    el(
                      "tr",
                      {},
                      el("th", { scope: "row" }, d.nome),
                      controle(`totais.descontos[${i}].aliquota_pct`, "quantidade", `Alíquota de ${d.nome} (%)`, true),
                      controle(`totais.descontos[${i}].valor`, "dinheiro", `Valor de ${d.nome} (R$)`, true),
                    ),
                  ),
                ),
              ),
            ),
      ),
    );
  }
  if (l.linhas.length > 0) {
    const bandas = l.linhas.some((x) => x.bandas_kg !== null);
    const cab = ["Nº", "Sexo", "Peso de carcaça (kg)", ...(bandas ? ["Banda A (kg)", "Banda B (kg)"] : []), "Arrobas"];
    form.append(
      el(
        "fieldset",
        {},
        el("legend", {}, `Animais (${l.linhas.length})`),
        el(
          "div",
          { class: "rolagem" },
          el(
            "table",
            {},
            el("caption", {}, "Uma linha por animal"),
            el("thead", {}, el("tr", {}, ...cab.map((c) => el("th", { scope: "col" }, c)))),
            el(
              "tbody",
              {},
              ...l.linhas.map((x: LinhaAbate, i) =>
                el(
                  "tr",
                  { "data-linha": i },
                  controle(`linhas[${i}].identificacao`, "texto", `Nº do animal ${i + 1}`, true),
                  controle(`linhas[${i}].sexo`, "sexo", `Sexo do animal ${i + 1}`, true),
                  controle(`linhas[${i}].peso_carcaca_kg`, "quantidade", `Peso de carcaça do animal ${i + 1} (kg)`, true),
                  ...(bandas
                    ? [
                        controle(`linhas[${i}].bandas_kg[0]`, "quantidade", `Banda A do animal ${i + 1} (kg)`, true),
                        controle(`linhas[${i}].bandas_kg[1]`, "quantidade", `Banda B do animal ${i + 1} (kg)`, true),
                      ]
                    : []),
                  controle(`linhas[${i}].arrobas`, "quantidade", `Arrobas do animal ${i + 1}`, true),
                ),
              ),
            ),
          ),
        ),
      ),
    );
  }
  marcarDuvidas();
}

/** The "confira" marks, after every check run (the form itself is not rebuilt: focus stays). */
function marcarDuvidas(): void {
  for (const input of document.querySelectorAll<HTMLElement>("#form [data-caminho]")) {
    const caminho = input.dataset.caminho!;
    // a band is checked as the pair ("linhas[0].bandas_kg")
    const d = duvidoso(caminho) || (/\.bandas_kg\[\d\]$/.test(caminho) && duvidoso(caminho.replace(/\[\d\]$/, "")));
    if (d) input.dataset.duvidoso = "sim";
    else delete input.dataset.duvidoso;
    $(`${input.id}-duvida`).hidden = !d;
  }
}

function mostrarConferencias(): void {
  const box = $("conferencias");
  clear(box);
  if (!leitura) return;
  const avisos = leitura.avisos;
  if (avisos.length === 0) {
    box.append(el("p", { class: "ok", "data-conferencias": "0" }, "Todas as contas conferem."));
    return;
  }
  box.append(
    el(
      "div",
      { class: "aviso", "data-conferencias": avisos.length },
      el("h3", {}, avisos.length === 1 ? "1 conferência não fecha" : `${avisos.length} conferências não fecham`),
      el("ul", {}, ...avisos.map((a) => el("li", { "data-codigo": a.codigo }, a.mensagem))),
    ),
  );
}

/** An edit: the value into the reading (confirmed by the person), the checks and the comparison again. */
function editar(input: HTMLInputElement | HTMLSelectElement, mostrarErro: boolean): void {
  // a select fires input then change: after a change of tipo rebuilt the form, the old one is gone
  if (!leitura || !input.isConnected || !input.dataset.caminho) return;
  const caminho = input.dataset.caminho!;
  const tipo = input.dataset.tipo as Tipo;
  const v = valorDoTexto(input.value, tipo);
  const erro = $(`${input.id}-erro`);
  if (v === undefined) {
    if (mostrarErro) {
      input.setAttribute("aria-invalid", "true");
      erro.textContent = ERRO_DO_TIPO[tipo] ?? "Valor inválido";
      erro.hidden = false;
    }
    return;
  }
  input.removeAttribute("aria-invalid");
  erro.hidden = true;
  erro.textContent = "";
  if (caminho === "tipo") {
    leitura.tipo = v as LeituraRomaneio["tipo"];
    leitura.totais = v === "abate" ? TOTAIS_VAZIOS.abate() : v === "carga" ? TOTAIS_VAZIOS.carga() : null;
    if (v !== "abate") leitura.linhas = [];
  } else if (/\.bandas_kg\[\d\]$/.test(caminho)) {
    const base = caminho.replace(/\[\d\]$/, "");
    const par = (ler(base) as number[] | null) ?? [0, 0];
    const novo = [...par];
    novo[Number(caminho.slice(-2, -1))] = (v as number | null) ?? 0;
    escrever(base, novo);
  } else {
    escrever(caminho, v);
  }
  // the person's own value is certain
  leitura.confianca[caminho] = 1;
  leitura.avisos = reconferir(leitura, caminho);
  if (caminho === "tipo") montarForm();
  else marcarDuvidas();
  mostrarConferencias();
  void comparar();
}

// ---------- the comparison ----------

function serie(id: string): Promise<SerieFile | null> {
  let p = series.get(id);
  if (!p) {
    p = (async () => {
      const url = new URL(`api/v1/cotacao/${id}.json`, RAIZ).href;
      let res: Response;
      try {
        res = await fetch(url, { headers: { Accept: "application/json" } });
      } catch {
        throw new Error(`${url}: falha de rede (sem conexão ou servidor fora do ar)`);
      }
      // no series of that product or UF: the comparison says so
      if (res.status === 404) return null;
      if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
      return (await res.json()) as SerieFile;
    })();
    p.catch(() => series.delete(id));
    series.set(id, p);
  }
  return p;
}

async function comparar(): Promise<void> {
  if (!leitura) return;
  const l = leitura;
  const ids = seriesDoRomaneio(l);
  let c: ComparacaoRomaneio;
  try {
    const [estadual, nacional] = await Promise.all([ids.estadual ? serie(ids.estadual) : null, ids.nacional ? serie(ids.nacional) : null]);
    if (l !== leitura) return;
    c = compararRomaneio(l, { estadual, nacional }, { hoje: hojeBrasilia() });
  } catch (err) {
    mostrarErro(`Não foi possível comparar com os preços publicados: ${(err as Error).message}`);
    return;
  }
  mostrarComparacao(c);
}

function precoDoRomaneio(l: LeituraRomaneio): number | null {
  if (!l.totais) return null;
  return "preco_arroba" in l.totais ? l.totais.preco_arroba : l.totais.preco_saca;
}

function mostrarComparacao(c: ComparacaoRomaneio): void {
  const box = $("comparacao-corpo");
  clear(box);
  const l = leitura!;
  const p = precoDoRomaneio(l);
  if (c.referencias.length > 0) {
    const u = c.referencias[0]!.unidade;
    box.append(
      el("p", { "data-campo": "preco-romaneio" }, `Preço do romaneio: ${p === null ? "não lido" : preco(p, u)}${l.data ? `, em ${dataBR(l.data)}` : ""}.`),
      el(
        "div",
        { class: "rolagem" },
        el(
          "table",
          { id: "referencias" },
          el("caption", {}, "Referência publicada do dia e diferença do romaneio"),
          el(
            "thead",
            {},
            el(
              "tr",
              {},
              el("th", { scope: "col" }, "Referência"),
              el("th", { scope: "col", class: "num" }, "Preço"),
              el("th", { scope: "col", class: "num" }, "Diferença"),
              el("th", { scope: "col", class: "num" }, "No total"),
            ),
          ),
          el(
            "tbody",
            {},
            ...c.referencias.map((r) => {
              const sinal = r.diferenca === null ? undefined : r.diferenca > 0 ? "acima" : r.diferenca < 0 ? "abaixo" : "igual";
              const dia = r.defasagem_dias === 0 ? dataBR(r.data) : `${dataBR(r.data)} (${r.defasagem_dias} ${r.defasagem_dias === 1 ? "dia" : "dias"} antes)`;
              return el(
                "tr",
                { "data-escopo": r.escopo, "data-serie": r.serie },
                el("th", { scope: "row" }, `${r.escopo === "estadual" ? "Estadual" : "Nacional"}: ${r.nome}`, el("br"), el("span", { class: "mini" }, dia)),
                el("td", { class: "num", "data-campo": "valor" }, preco(r.valor, r.unidade)),
                el(
                  "td",
                  { class: "num", "data-campo": "diferenca", "data-sinal": sinal },
                  r.diferenca === null ? "—" : `${reaisComSinal(r.diferenca)} (${r.diferenca_pct === null ? "—" : percentualComSinal(r.diferenca_pct)})`,
                ),
                el("td", { class: "num", "data-campo": "diferenca_total", "data-sinal": sinal }, r.diferenca_total === null ? "—" : reaisComSinal(r.diferenca_total)),
              );
            }),
          ),
        ),
      ),
    );
  }
  if (c.deducoes.length > 0) {
    const real = (v: number | null) => (v === null ? "—" : `− ${formatBRL(v)}`);
    box.append(
      el(
        "div",
        { class: "rolagem" },
        el(
          "table",
          { id: "deducoes" },
          el("caption", {}, "Deduções: o romaneio e o simulador, lado a lado"),
          el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Dedução"), el("th", { scope: "col", class: "num" }, "No romaneio"), el("th", { scope: "col", class: "num" }, "No simulador"))),
          el(
            "tbody",
            {},
            ...c.deducoes.map((d) =>
              el("tr", { "data-deducao": d.nome }, el("th", { scope: "row" }, d.nome), el("td", { class: "num" }, real(d.romaneio)), el("td", { class: "num" }, real(d.simulador))),
            ),
          ),
        ),
      ),
    );
  }
  const simulado = (c.simulacao as { liquido?: unknown } | null)?.liquido;
  if (typeof simulado === "number" && l.totais) {
    const real = l.totais.valor_liquido;
    box.append(
      el(
        "p",
        { "data-campo": "liquido" },
        `Valor líquido: ${real === null ? "não lido" : formatBRL(real)} no romaneio; ${formatBRL(simulado)} no simulador, com o mesmo preço e as mesmas quantidades.`,
      ),
    );
  }
  if (c.avisos.length > 0) box.append(el("ul", { class: "mini", id: "comparacao-avisos" }, ...c.avisos.map((a) => el("li", {}, a))));
  box.append(
    el(
      "p",
      {},
      el("button", { type: "button", id: "baixar", class: "secundario" }, "Baixar o resultado (JSON)"),
      " ",
      el("span", { class: "mini" }, "No formato de POST /api/v1/romaneio; gerado aqui, sem enviar nada."),
    ),
  );
  $("baixar").addEventListener("click", baixar);
  comparacao = c;
  $("comparacao").hidden = false;
  document.body.dataset.comparacoes = String(++comparacoes);
}

/** The page's result, in the contract of POST /api/v1/romaneio (schemas/romaneio.schema.json). */
function resultado(): Romaneio | null {
  if (!leitura || !comparacao || !arquivoLido) return null;
  const a = arquivoLido;
  return { leitura, comparacao, arquivo: { tipo: a.tipo, paginas: a.paginas, origem: a.origem, segundos: a.segundos } };
}

/** A download made in the page (a blob: URL), never a request to a server. */
function baixar(): void {
  const r = resultado();
  if (!r) return;
  const url = URL.createObjectURL(new Blob([`${JSON.stringify(r, null, 2)}\n`], { type: "application/json" }));
  const a = el("a", { href: url, download: `romaneio${r.leitura.data ? `-${r.leitura.data}` : ""}.json` });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

// ---------- reading a file ----------

const ETAPA: Record<Progresso["etapa"], string> = {
  motor: "Carregando o motor de leitura (só na primeira vez)",
  lingua: "Carregando os dados do português (só na primeira vez)",
  reconhecendo: "Reconhecendo o texto",
  pdf: "Abrindo o PDF",
  desenhando: "Preparando a página para leitura",
};

function mostrarProgresso(p: Progresso): void {
  const barra = $<HTMLProgressElement>("progresso");
  if (p.fracao === null) barra.removeAttribute("value");
  else barra.value = p.fracao;
  const pagina = p.pagina && p.paginas && p.paginas > 1 ? ` (página ${p.pagina} de ${p.paginas})` : "";
  const pct = p.fracao === null || p.etapa !== "reconhecendo" ? "" : `: ${Math.round(p.fracao * 100)}%`;
  $("progresso-texto").textContent = `${ETAPA[p.etapa]}${pagina}${pct}…`;
}

function mostrarErro(msg: string): void {
  const e = $("erro");
  e.textContent = msg;
  e.hidden = false;
}

const NOME_TIPO: Record<ResultadoNavegador["tipo"], string> = {
  "image/png": "imagem PNG",
  "image/jpeg": "imagem JPEG",
  "image/webp": "imagem WebP",
  "application/pdf": "PDF",
  "text/plain": "texto",
};
const NOME_ORIGEM = { ocr: "lido por OCR", pdf_texto: "texto do próprio PDF", texto: "texto" } as const;

async function lerArquivo(arquivo: File): Promise<void> {
  $("erro").hidden = true;
  if (arquivo.size > TAMANHO_MAXIMO) {
    mostrarErro(`O arquivo tem ${formatDecimalBR(Math.round(arquivo.size / 10_485.76) / 100)} MB; o limite é 20 MB. Envie uma foto menor ou o PDF de poucas páginas.`);
    return;
  }
  const andamento = $("andamento");
  andamento.hidden = false;
  $("progresso").removeAttribute("value");
  $("progresso-texto").textContent = "Preparando…";
  $<HTMLInputElement>("arquivo").disabled = true;
  document.body.dataset.lido = "lendo";
  try {
    arquivoLido = await leitor.ler(arquivo);
  } catch (err) {
    document.body.dataset.lido = "erro";
    mostrarErro(err instanceof ErroLeituraNavegador ? err.message : `Não foi possível ler o arquivo: ${(err as Error).message}`);
    return;
  } finally {
    andamento.hidden = true;
    $<HTMLInputElement>("arquivo").disabled = false;
  }
  comparacao = null;
  leitura = lerRomaneio(arquivoLido);
  const a = arquivoLido;
  $("arquivo-lido").textContent =
    `${arquivo.name}: ${NOME_TIPO[a.tipo]}, ${a.paginas} ${a.paginas === 1 ? "página" : "páginas"}, ${NOME_ORIGEM[a.origem]}, em ${formatDecimalBR(a.segundos)} s.`;
  $("texto-lido").textContent = a.texto;
  montarForm();
  mostrarConferencias();
  $("leitura").hidden = false;
  $("leitura-titulo").focus();
  document.body.dataset.lido = "ok";
  await comparar();
}

function main(): void {
  const input = $<HTMLInputElement>("arquivo");
  input.addEventListener("change", () => {
    const f = input.files?.[0];
    if (f) void lerArquivo(f);
  });
  const zona = $("soltar");
  // a file dropped anywhere is read here, never opened by the browser in place of the page
  for (const ev of ["dragover", "drop"]) document.addEventListener(ev, (e) => e.preventDefault());
  zona.addEventListener("dragover", () => zona.classList.add("sobre"));
  zona.addEventListener("dragleave", () => zona.classList.remove("sobre"));
  document.addEventListener("drop", (e) => {
    zona.classList.remove("sobre");
    const f = (e as DragEvent).dataTransfer?.files[0];
    if (f && !input.disabled) void lerArquivo(f);
  });
  const form = $("form");
  form.addEventListener("input", (e) => editar(e.target as HTMLInputElement, false));
  form.addEventListener("change", (e) => editar(e.target as HTMLInputElement, true));
  form.addEventListener("submit", (e) => e.preventDefault());
  addEventListener("pagehide", () => void leitor.fechar());
  document.body.dataset.pronto = "ok";
}

main();
