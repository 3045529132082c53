/**
 * The sale simulator: one pure module (no I/O, no Node APIs) shared by the page
 * public/simulador/ (bundled to public/assets/simulador.js by pipeline/serve/assets.ts) and the
 * endpoint GET /api/v1/simulador. Inputs arrive as text (query string or form), are read into
 * scaled integers straight from their digits, and every amount is computed in BigInt centavos
 * with one rounding (half up) per published figure: no float ever touches money.
 */
import { formatBRL, fromHundredths, parseBRDecimal, toHundredths } from "../domain/money.ts";
import { nomesDoTipo, PRODUTO_INFO, PRODUTOS, UNIDADE_INFO, type Produto, type TipoProduto, type Unidade } from "../domain/products.ts";
import { normalizeUF, type UF } from "../domain/ufs.ts";

/**
 * Funrural of the rural producer who is a pessoa física, on the gross revenue of the sale.
 * Lei 8.212/1991, art. 25, I (1,2% since Lei 13.606/2018 lowered it from 2%) and II (0,1%, RAT);
 * SENAR: Lei 9.528/1997, art. 6º (0,2%). Total 1,5%. Pessoa jurídica pays 1,7% + 0,1% + 0,25%
 * SENAR = 2,05% (Lei 8.870/1994, art. 25, as amended by Lei 13.606/2018); a producer who opted,
 * as Lei 13.606/2018 allows, to contribute on the payroll pays only SENAR; animals sold for
 * breeding or rearing are outside the base (Lei 8.212/1991, art. 25, § 12): the rate is editable
 * for those cases.
 */
export const FUNRURAL_PADRAO = {
  /** in hundredths of a percent: 150 = 1,50% */
  aliquotaCentesimos: 150,
  aliquota_pct: 1.5,
  componentes: [
    { nome: "Contribuição previdenciária (INSS)", aliquota_pct: 1.2, base_legal: "Lei 8.212/1991, art. 25, I, com a redação da Lei 13.606/2018" },
    { nome: "RAT/GILRAT", aliquota_pct: 0.1, base_legal: "Lei 8.212/1991, art. 25, II" },
    { nome: "SENAR", aliquota_pct: 0.2, base_legal: "Lei 9.528/1997, art. 6º" },
  ],
  base_legal:
    "Produtor rural pessoa física: 1,2% (INSS, Lei 8.212/1991, art. 25, I, redação da Lei 13.606/2018) + " +
    "0,1% (RAT, art. 25, II) + 0,2% (SENAR, Lei 9.528/1997, art. 6º) = 1,5% da receita bruta da venda. " +
    "Pessoa jurídica: 2,05% (Lei 8.870/1994, art. 25). Quem optou por contribuir sobre a folha de salários " +
    "(opção criada pela Lei 13.606/2018) paga só o SENAR (0,2%).",
} as const;

/** One arroba is 15 kg of carcass. */
const KG_POR_ARROBA = 15n;

export interface CampoErro {
  campo: string;
  mensagem: string;
}

/** What a simulation needs, validated and in scaled integers. */
export interface Entrada {
  produto: Produto;
  uf: UF | null;
  /** products sold by the arroba or by the head */
  cabecas: number | null;
  /** by the arroba: average live weight per head, hundredths of a kg */
  pesoVivoCentesimosKg: bigint | null;
  /** by the arroba: carcass yield, hundredths of a percent (52% = 5200) */
  rendimentoCentesimosPct: bigint | null;
  /** by the sack: 60 kg sacks, hundredths of a sack */
  sacasCentesimos: bigint | null;
  /** optional price per unit, in centavos, replacing the published one */
  precoCentavos: bigint | null;
  funruralCentesimosPct: bigint;
  comissaoCentesimosPct: bigint;
  freteCentavos: bigint;
}

/** The price a simulation uses: the latest of a published series, or one the user typed. */
export interface PrecoReferencia {
  valor: number;
  unidade: Unidade;
  data_cotacao: string | null;
  fonte: string | null;
  /** series id ("{produto}/{UF}") or null when informed by the user */
  serie: string | null;
  praca: string | null;
}

export interface Resultado {
  entrada: Record<string, string | number | null>;
  preco: PrecoReferencia & { origem: "serie" | "informado"; descricao: string };
  quantidade: {
    cabecas?: number;
    peso_vivo_total_kg?: number;
    arrobas?: number;
    sacas?: number;
    /** what the price multiplies: "arrobas", "kg de peso vivo", "cabeças", "sacas de 60 kg" */
    base: string;
  };
  bruto: number;
  deducoes: {
    funrural: { aliquota_pct: number; valor: number; base_legal: string; padrao: boolean };
    comissao: { percentual: number; valor: number };
    frete: number;
    total: number;
  };
  liquido: number;
  liquido_por_unidade: number | null;
  observacoes: string[];
}

/**
 * What a real sale can be: a large feedlot ships tens of thousands of head, a big grain
 * contract millions of sacks, and no unit price reaches R$ 100.000. Within these every amount
 * stays far below 2^53 centavos, so each figure is an exact JSON number (checked anyway).
 */
export type Faixa = readonly [number, number];
export interface Limites {
  cabecas: Faixa;
  pesoVivoKg: Faixa;
  rendimentoPct: Faixa;
  sacas: Faixa;
  preco: Faixa;
  funruralPct: Faixa;
  comissaoPct: Faixa;
  frete: Faixa;
}
export const LIMITES: Limites = {
  cabecas: [1, 100_000],
  pesoVivoKg: [30, 2_000],
  rendimentoPct: [30, 75],
  sacas: [0.01, 10_000_000],
  preco: [0.01, 100_000],
  funruralPct: [0, 10],
  comissaoPct: [0, 100],
  frete: [0, 100_000_000],
};

const CAMPOS = [
  "produto", "uf", "cabecas", "peso_vivo_kg", "rendimento_pct", "sacas", "preco", "funrural_pct", "comissao_pct", "frete",
] as const;
export type Campo = (typeof CAMPOS)[number];
export const CAMPOS_SIMULADOR: readonly string[] = CAMPOS;

/** The labels of public/simulador/'s form: messages name the field as the person sees it. */
export const ROTULOS: Record<Campo, string> = {
  produto: "Produto",
  uf: "Preço de qual estado",
  cabecas: "Número de cabeças",
  peso_vivo_kg: "Peso vivo médio por cabeça (kg)",
  rendimento_pct: "Rendimento de carcaça (%)",
  sacas: "Sacas de 60 kg",
  preco: "Preço por unidade (R$, opcional)",
  funrural_pct: "Funrural (%)",
  comissao_pct: "Comissão (% do bruto)",
  frete: "Frete (R$, total)",
};
/** "Preço por unidade (R$, opcional)" -> "Preço por unidade (R$)" in a message */
function rotulo(c: Campo): string {
  return ROTULOS[c].replace(/, opcional\)$/, ")");
}

/**
 * The largest scaled integer the simulator publishes. Below 2^53 a count of centavos is an exact
 * integer, but n / 100 written as JSON is the decimal n/100 only up to 15 significant digits
 * (9007199254740991 / 100 prints as 90071992547409.9): so at most 15 digits.
 */
const MAX_CENTAVOS = 999_999_999_999_999n;

/** A simulation whose figures would not be exact to the centavo: an input error, with its fields. */
export class SimulacaoForaDoLimite extends Error {
  constructor(readonly erros: CampoErro[]) {
    super(erros.map((e) => e.mensagem).join("; "));
    this.name = "SimulacaoForaDoLimite";
  }
}

/**
 * "540,5", "1.540,50", "1.000", "R$ 1.500,00", "-5" (Brazilian, read by money.ts parseBRDecimal:
 * dots group thousands) or "540.5" (a dot as the decimal point, as query strings write it),
 * into an integer scaled by 10^casas (0 or 2). Negative numbers are read (the caller says they
 * must be positive); null when it is not such a number or has more decimals than allowed.
 */
export function lerDecimal(texto: string, casas: 0 | 2): bigint | null {
  const s = texto.replace(/\s/g, "");
  if (s === "" || s.length > 32) return null;
  let centesimos: number | null = parseBRDecimal(s);
  if (centesimos === null && /^-?\d+\.\d{1,2}$/.test(s)) centesimos = parseBRDecimal(s.replace(".", ","));
  if (centesimos === null) return null;
  if (casas === 2) return BigInt(centesimos);
  return centesimos % 100 === 0 ? BigInt(centesimos / 100) : null;
}

/** a / b rounded half up (a, b >= 0) */
function divRound(a: bigint, b: bigint): bigint {
  return (2n * a + b) / (2n * b);
}

function toNumber(scaled: bigint, casas: number): number {
  // exact: an integer below 2^53 divided by a power of ten prints as its shortest decimal
  return Number(scaled) / 10 ** casas;
}

function fmt(scaled: bigint, casas: number): string {
  const neg = scaled < 0n;
  const abs = neg ? -scaled : scaled;
  const base = 10n ** BigInt(casas);
  const int = (abs / base).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  const frac = casas > 0 ? "," + (abs % base).toString().padStart(casas, "0") : "";
  return `${neg ? "-" : ""}${int}${frac}`;
}

/** "R$ 1.234,56" from centavos (within the simulator's limits, an exact number) */
export function formatarReais(centavos: bigint): string {
  return formatBRL(fromHundredths(Number(centavos)));
}

function faixa(campo: Campo, valor: bigint, casas: number, [min, max]: Faixa, unidade: string): CampoErro | null {
  const lo = BigInt(Math.round(min * 10 ** casas));
  const hi = BigInt(Math.round(max * 10 ** casas));
  if (valor < 0n || (valor === 0n && lo > 0n)) {
    return { campo, mensagem: `${rotulo(campo)}: ${lo > 0n ? "deve ser maior que zero" : "não pode ser negativo"}` };
  }
  if (valor < lo || valor > hi) {
    return { campo, mensagem: `${rotulo(campo)}: deve estar entre ${fmt(lo, casas)} e ${fmt(hi, casas)}${unidade}` };
  }
  return null;
}

type Params = Partial<Record<string, string | undefined>>;

/**
 * Validates the raw inputs (query string or form fields, all text). Every problem is reported
 * at once, each with its parameter (campo) and a Portuguese message naming the form's label.
 * Inputs whose simulation with the typed price could not be exact to the centavo are refused
 * here too (the same check runs in simular on a published price).
 */
export function validarEntrada(params: Params, limites: Limites = LIMITES): { ok: true; entrada: Entrada } | { ok: false; erros: CampoErro[] } {
  const erros: CampoErro[] = [];
  const get = (k: Campo) => {
    const v = params[k];
    return v === undefined || v.trim() === "" ? undefined : v;
  };
  for (const k of Object.keys(params)) {
    if (!(CAMPOS as readonly string[]).includes(k)) {
      erros.push({ campo: k, mensagem: `parâmetro desconhecido "${k}"; válidos: ${CAMPOS.join(", ")}` });
    }
  }
  const produtoTxt = get("produto");
  let produto: Produto | null = null;
  // only products sold in a way the simulator knows (domain/products.ts: tipo)
  const simulaveis = PRODUTOS.filter((p) => PRODUTO_INFO[p].tipo !== "sem_simulacao");
  const lido = produtoTxt?.trim().toLowerCase();
  if (produtoTxt === undefined) erros.push({ campo: "produto", mensagem: `${rotulo("produto")}: obrigatório; válidos: ${simulaveis.join(", ")}` });
  else if (!(PRODUTOS as readonly string[]).includes(lido!)) {
    erros.push({ campo: "produto", mensagem: `${rotulo("produto")}: "${produtoTxt}" não existe; válidos: ${simulaveis.join(", ")}` });
  } else if (!(simulaveis as readonly string[]).includes(lido!)) {
    erros.push({ campo: "produto", mensagem: `${rotulo("produto")}: ${PRODUTO_INFO[lido as Produto].nome.toLowerCase()} não tem simulação de venda; válidos: ${simulaveis.join(", ")}` });
  } else produto = lido as Produto;

  let uf: UF | null = null;
  const ufTxt = get("uf");
  if (ufTxt !== undefined) {
    uf = normalizeUF(ufTxt);
    if (!uf) erros.push({ campo: "uf", mensagem: `${rotulo("uf")}: "${ufTxt}" não é uma sigla de estado (ex.: MS, SP, MT)` });
  }

  const nomeProduto = produto ? PRODUTO_INFO[produto].nome.toLowerCase() : "";
  const decimal = (k: Campo, casas: 0 | 2, lim: Faixa, unidade: string, obrigatorio: boolean, padrao: bigint | null): bigint | null => {
    const t = get(k);
    if (t === undefined) {
      if (obrigatorio) erros.push({ campo: k, mensagem: `${rotulo(k)}: obrigatório para ${nomeProduto}` });
      return padrao;
    }
    const v = lerDecimal(t, casas);
    if (v === null) {
      const forma = casas === 0 ? "um número inteiro, ex.: 120 ou 1.000" : `um número com até ${casas} casas decimais, ex.: 540,5 ou 1.540,50`;
      erros.push({ campo: k, mensagem: `${rotulo(k)}: "${t.slice(0, 40)}" não é um número válido (use ${forma})` });
      return null;
    }
    const e = faixa(k, v, casas, lim, unidade);
    if (e) {
      erros.push(e);
      return null;
    }
    return v;
  };

  // what is asked depends on how the product is sold (domain/products.ts: tipo), never on its id
  const tipo: TipoProduto | null = produto ? PRODUTO_INFO[produto].tipo : null;
  const gado = tipo === "gado_arroba";
  const grao = tipo === "grao_saca";
  let cabecas: number | null = null;
  if (produto && !grao) {
    const c = decimal("cabecas", 0, limites.cabecas, " cabeças", true, null);
    cabecas = c === null ? null : Number(c);
  } else if (get("cabecas") !== undefined && produto) {
    erros.push({ campo: "cabecas", mensagem: `${rotulo("cabecas")}: não se aplica a ${nomeProduto} (use ${rotulo("sacas")})` });
  }
  const peso = gado ? decimal("peso_vivo_kg", 2, limites.pesoVivoKg, " kg", true, null) : null;
  const rend = gado ? decimal("rendimento_pct", 2, limites.rendimentoPct, "%", true, null) : null;
  if (produto && !gado) {
    for (const k of ["peso_vivo_kg", "rendimento_pct"] as const) {
      if (get(k) !== undefined) erros.push({ campo: k, mensagem: `${rotulo(k)}: só se aplica a ${nomesDoTipo("gado_arroba")}` });
    }
  }
  const sacas = grao ? decimal("sacas", 2, limites.sacas, " sacas", true, null) : null;
  if (produto && !grao && get("sacas") !== undefined) erros.push({ campo: "sacas", mensagem: `${rotulo("sacas")}: só se aplica a ${nomesDoTipo("grao_saca")}` });
  const preco = decimal("preco", 2, limites.preco, "", false, null);
  const funrural = decimal("funrural_pct", 2, limites.funruralPct, "%", false, BigInt(FUNRURAL_PADRAO.aliquotaCentesimos));
  const comissao = decimal("comissao_pct", 2, limites.comissaoPct, "%", false, 0n);
  const frete = decimal("frete", 2, limites.frete, "", false, 0n);

  if (erros.length > 0 || !produto) return { ok: false, erros };
  const entrada: Entrada = {
    produto,
    uf,
    cabecas,
    pesoVivoCentesimosKg: peso,
    rendimentoCentesimosPct: rend,
    sacasCentesimos: sacas,
    precoCentavos: preco,
    funruralCentesimosPct: funrural ?? 0n,
    comissaoCentesimosPct: comissao ?? 0n,
    freteCentavos: frete ?? 0n,
  };
  // a typed price: check the result now, in each unit it may be read in (a state's cattle series
  // may be quoted per kg of live weight, the national ones are per arroba); a published price is
  // checked by simular
  if (preco !== null) {
    const unidades: Unidade[] = gado ? (uf ? ["@", "kg"] : ["@"]) : grao ? ["sc60kg"] : ["cabeca"];
    for (const u of unidades) {
      const fora = foraDoLimite(entrada, contas(entrada, preco, u));
      if (fora) return { ok: false, erros: [fora] };
    }
  }
  return { ok: true, entrada };
}

interface Contas {
  quantidade: Resultado["quantidade"];
  bruto: bigint;
  funrural: bigint;
  comissao: bigint;
  totalDed: bigint;
  liquido: bigint;
  /** hundredths of the priced unit, for the net per unit */
  unidadesVendidas: bigint;
  /** every scaled integer published as a number */
  publicados: bigint[];
}

/** Every amount of a simulation, in scaled integers. */
function contas(entrada: Entrada, precoCent: bigint, unidade: Unidade): Contas {
  const quantidade: Resultado["quantidade"] = { base: "" };
  const publicados: bigint[] = [precoCent];
  let bruto: bigint;
  let unidadesVendidas: bigint;
  const tipo = PRODUTO_INFO[entrada.produto].tipo;
  if (tipo === "gado_arroba") {
    const cab = BigInt(entrada.cabecas!);
    const pesoTotal = cab * entrada.pesoVivoCentesimosKg!; // hundredths of kg
    const carcacaX = pesoTotal * entrada.rendimentoCentesimosPct!; // kg × 10^6
    const arrobasCent = divRound(carcacaX, KG_POR_ARROBA * 10_000n); // hundredths of @
    quantidade.cabecas = entrada.cabecas!;
    quantidade.peso_vivo_total_kg = toNumber(pesoTotal, 2);
    quantidade.arrobas = toNumber(arrobasCent, 2);
    publicados.push(cab, pesoTotal, arrobasCent);
    if (unidade === "kg") {
      quantidade.base = "kg de peso vivo";
      bruto = divRound(pesoTotal * precoCent, 100n);
      unidadesVendidas = pesoTotal;
    } else {
      quantidade.base = "arrobas";
      bruto = divRound(arrobasCent * precoCent, 100n);
      unidadesVendidas = arrobasCent;
    }
  } else if (tipo === "cabeca") {
    quantidade.cabecas = entrada.cabecas!;
    quantidade.base = "cabeças";
    bruto = BigInt(entrada.cabecas!) * precoCent;
    unidadesVendidas = BigInt(entrada.cabecas!) * 100n;
    publicados.push(BigInt(entrada.cabecas!));
  } else {
    quantidade.sacas = toNumber(entrada.sacasCentesimos!, 2);
    quantidade.base = "sacas de 60 kg";
    bruto = divRound(entrada.sacasCentesimos! * precoCent, 100n);
    unidadesVendidas = entrada.sacasCentesimos!;
    publicados.push(entrada.sacasCentesimos!);
  }
  const funrural = divRound(bruto * entrada.funruralCentesimosPct, 10_000n);
  const comissao = divRound(bruto * entrada.comissaoCentesimosPct, 10_000n);
  const totalDed = funrural + comissao + entrada.freteCentavos;
  const liquido = bruto - totalDed;
  publicados.push(bruto, funrural, comissao, entrada.freteCentavos, totalDed, liquido);
  return { quantidade, bruto, funrural, comissao, totalDed, liquido, unidadesVendidas, publicados };
}

/** The error when some figure of c is not a safe integer (an exact number once divided by 100). */
function foraDoLimite(entrada: Entrada, c: Contas): CampoErro | null {
  if (c.publicados.every((x) => x <= MAX_CENTAVOS && x >= -MAX_CENTAVOS)) return null;
  const campo: Campo = PRODUTO_INFO[entrada.produto].tipo === "grao_saca" ? "sacas" : "cabecas";
  return {
    campo,
    mensagem:
      `${rotulo(campo)}: com essa quantidade e esse preço algum valor passa de ${formatarReais(MAX_CENTAVOS)} ` +
      `e não seria exato ao centavo; reduza a quantidade ou o preço`,
  };
}

/** The series a simulation reads its price from: the state's when a UF is given. */
export function serieDaEntrada(e: Pick<Entrada, "produto" | "uf">): string {
  return e.uf ? `${e.produto}/${e.uf}` : e.produto;
}

const UNIDADE_TEXTO = (u: Unidade): string => UNIDADE_INFO[u].sufixo;

/**
 * The simulation itself. `preco` is the published price of serieDaEntrada(entrada) (ignored
 * when the user informed one). Cattle: heads × live weight × yield ÷ 15 kg = arrobas (rounded
 * to the hundredth, as a romaneio shows them) × R$/@; a series quoted per kg of live weight
 * (Scot's RS) multiplies the live weight instead. Bezerro: per head. Grain: per 60 kg sack.
 */
export function simular(entrada: Entrada, preco: PrecoReferencia | null): Resultado {
  const obs: string[] = [];
  const informado = entrada.precoCentavos !== null;
  if (!informado && !preco) throw new Error("simular: sem preço publicado e sem preço informado");
  const tipo = PRODUTO_INFO[entrada.produto].tipo;
  // a price the user informs is in the product's own unit (a cattle series may be per kg: RS)
  const unidade: Unidade = informado ? (tipo === "gado_arroba" ? (preco?.unidade ?? PRODUTO_INFO[entrada.produto].unidade) : PRODUTO_INFO[entrada.produto].unidade) : preco!.unidade;
  const precoCent = informado ? entrada.precoCentavos! : BigInt(toHundredths(preco!.valor));
  // an animal sold by the head is never priced from a series quoted otherwise (the bezerro of a
  // state is Datagro's reposição price per kg of live weight): heads × R$/kg would be no price
  if (tipo === "cabeca" && unidade !== "cabeca") {
    throw new SimulacaoForaDoLimite([
      {
        campo: "uf",
        mensagem: `${PRODUTO_INFO[entrada.produto].nome} em ${entrada.uf ?? "?"} é cotado ${UNIDADE_INFO[unidade].por}, e o simulador vende ${PRODUTO_INFO[entrada.produto].nome.toLowerCase()} ${UNIDADE_INFO.cabeca.por}: simule sem UF (indicador nacional por cabeça) ou informe o preço por cabeça`,
      },
    ]);
  }

  const c = contas(entrada, precoCent, unidade);
  // a published price far above any real one could still overflow: refuse, never round
  const fora = foraDoLimite(entrada, c);
  if (fora) throw new SimulacaoForaDoLimite([fora]);
  const { quantidade, bruto, funrural, comissao, totalDed, liquido, unidadesVendidas } = c;
  if (tipo === "gado_arroba") {
    obs.push(
      unidade === "kg"
        ? "Preço cotado por kg de peso vivo (como a Scot publica o RS): bruto = peso vivo total × R$/kg; as arrobas são só informativas."
        : "Arrobas = cabeças × peso vivo × rendimento de carcaça ÷ 15 kg, arredondadas ao centésimo antes de multiplicar pelo preço.",
    );
  } else if (tipo === "cabeca") {
    obs.push("Animal vendido para reprodução ou criação não integra a base do Funrural (Lei 8.212/1991, art. 25, § 12): se for o caso, use alíquota 0.");
  }
  if (liquido < 0n) obs.push("As deduções superam o valor bruto: o resultado líquido é negativo.");
  const padrao = entrada.funruralCentesimosPct === BigInt(FUNRURAL_PADRAO.aliquotaCentesimos);
  if (!padrao) obs.push(`Alíquota do Funrural alterada para ${fmt(entrada.funruralCentesimosPct, 2)}% (padrão: 1,5% para pessoa física).`);

  const ref: PrecoReferencia = informado
    ? { valor: toNumber(precoCent, 2), unidade, data_cotacao: null, fonte: null, serie: null, praca: null }
    : preco!;
  const descricao = informado
    ? `${formatarReais(precoCent)}${UNIDADE_TEXTO(unidade)} informado pelo usuário`
    : `${formatarReais(precoCent)}${UNIDADE_TEXTO(unidade)} de ${ref.data_cotacao ?? "data desconhecida"}` +
      ` (${ref.serie ?? ""}${ref.praca ? `, praça ${ref.praca}` : ""}, fonte ${ref.fonte ?? "?"})`;

  return {
    entrada: {
      produto: entrada.produto,
      uf: entrada.uf,
      cabecas: entrada.cabecas,
      peso_vivo_kg: entrada.pesoVivoCentesimosKg === null ? null : toNumber(entrada.pesoVivoCentesimosKg, 2),
      rendimento_pct: entrada.rendimentoCentesimosPct === null ? null : toNumber(entrada.rendimentoCentesimosPct, 2),
      sacas: entrada.sacasCentesimos === null ? null : toNumber(entrada.sacasCentesimos, 2),
      preco: entrada.precoCentavos === null ? null : toNumber(entrada.precoCentavos, 2),
      funrural_pct: toNumber(entrada.funruralCentesimosPct, 2),
      comissao_pct: toNumber(entrada.comissaoCentesimosPct, 2),
      frete: toNumber(entrada.freteCentavos, 2),
    },
    preco: { ...ref, origem: informado ? "informado" : "serie", descricao },
    quantidade,
    bruto: toNumber(bruto, 2),
    deducoes: {
      funrural: {
        aliquota_pct: toNumber(entrada.funruralCentesimosPct, 2),
        valor: toNumber(funrural, 2),
        base_legal: FUNRURAL_PADRAO.base_legal,
        padrao,
      },
      comissao: { percentual: toNumber(entrada.comissaoCentesimosPct, 2), valor: toNumber(comissao, 2) },
      frete: toNumber(entrada.freteCentavos, 2),
      total: toNumber(totalDed, 2),
    },
    liquido: toNumber(liquido, 2),
    liquido_por_unidade: unidadesVendidas > 0n ? toNumber(divRoundSigned(liquido * 100n, unidadesVendidas), 2) : null,
    observacoes: obs,
  };
}

function divRoundSigned(a: bigint, b: bigint): bigint {
  return a < 0n ? -divRound(-a, b) : divRound(a, b);
}
