/**
 * The sale simulator: one pure module (no I/O, no Node APIs) shared by the page
 * public/simulador/ (bundled to public/assets/simulador.js by pipeline/serve/assets.ts) and the
 * endpoint GET /api/v1/simulador. Inputs arrive as text (query string or form), are read into
 * scaled integers straight from their digits, and every amount is computed in BigInt centavos
 * with one rounding (half up) per published figure: no float ever touches money.
 */
import { diasUteisEntre } from "../domain/idade.ts";
import { formatBRL, fromHundredths, parseBRDecimal, toHundredths } from "../domain/money.ts";
import { nomesDoTipo, prazoDoValor, PRODUTO_INFO, PRODUTOS, UNIDADE_INFO, type Produto, type TipoProduto, type Unidade } from "../domain/products.ts";
import type { SerieFile } from "../domain/publicados.ts";
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

/**
 * The columns of a day a series may publish besides its headline `valor`, under their names in
 * the single file's `historico` (Scot's Mercado Físico: bruto 30 dias, and the prices it already
 * discounted of Funrural or only of SENAR). `desconta` says what the source has already taken out.
 */
export const COLUNAS_PRECO = ["valor", "valor_30d", "funrural_avista", "funrural_30d", "senar_avista", "senar_30d"] as const;
export type ColunaPreco = (typeof COLUNAS_PRECO)[number];
export const COLUNA_INFO: Record<ColunaPreco, { nome: string; desconta: "nada" | "funrural" | "senar" }> = {
  valor: { nome: "bruto, à vista", desconta: "nada" },
  valor_30d: { nome: "bruto, 30 dias", desconta: "nada" },
  funrural_avista: { nome: "à vista, com o Funrural já descontado pela fonte", desconta: "funrural" },
  funrural_30d: { nome: "30 dias, com o Funrural já descontado pela fonte", desconta: "funrural" },
  senar_avista: { nome: "à vista, sem Funrural e com só o SENAR (0,2%) descontado pela fonte", desconta: "senar" },
  senar_30d: { nome: "30 dias, sem Funrural e com só o SENAR (0,2%) descontado pela fonte", desconta: "senar" },
};

/** A column's name for a product: the headline `valor` is cash unless the product says otherwise (Boi China: 30 days). */
export function nomeDaColuna(c: ColunaPreco, produto: string): string {
  return c === "valor" ? `bruto, ${prazoDoValor(produto)}` : COLUNA_INFO[c].nome;
}

/**
 * A price older than this many business days (after its day, up to today, counted as status.json
 * counts them: no weekends, no national holidays; pipeline/domain/idade.ts) is flagged: the
 * simulator always uses the latest published price, and Scot's table, for one, may stand still
 * for months while CEPEA's indicators move daily.
 */
export const DIAS_UTEIS_ATUAL = 3;

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
  /** the column of the series' day to price with; null: the headline `valor` */
  coluna: ColunaPreco | null;
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
  /** the series as people read it: "Boi gordo, Mato Grosso do Sul (Mercado Físico, Scot Consultoria)" */
  nome?: string | null;
  /** the source's name: "Scot Consultoria" */
  fonte_nome?: string | null;
  /** the other columns the source published for that day (COLUNAS_PRECO), as in the single file */
  colunas?: Partial<Record<ColunaPreco, number>>;
  /** the source's words saying `valor` is already net of Funrural (the file's `sem_funrural`); absent: gross */
  sem_funrural?: string | null;
}

export interface Resultado {
  entrada: Record<string, string | number | null>;
  preco: PrecoReferencia & {
    origem: "serie" | "informado";
    descricao: string;
    /** the column of the day that was used (a published price) */
    coluna?: ColunaPreco;
    /** calendar days from data_cotacao to today (a published price) */
    idade_dias?: number;
    /** older than DIAS_UTEIS_ATUAL business days: see avisos */
    desatualizado?: boolean;
  };
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
    funrural: {
      /** the rate deducted: 0 when the price is already net of Funrural */
      aliquota_pct: number;
      valor: number;
      base_legal: string;
      padrao: boolean;
      /** the price used is already net of Funrural (or of all but SENAR): nothing deducted */
      preco_sem_funrural: boolean;
      /** why nothing was deducted, in the source's words; null when the rate applies */
      motivo: string | null;
    };
    comissao: { percentual: number; valor: number };
    frete: number;
    total: number;
  };
  liquido: number;
  liquido_por_unidade: number | null;
  /** what the person must see before trusting the figures (a months-old price) */
  avisos: string[];
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
  "produto", "uf", "cabecas", "peso_vivo_kg", "rendimento_pct", "sacas", "preco", "coluna", "funrural_pct", "comissao_pct", "frete",
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
  coluna: "Coluna de preço da fonte",
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
  let s = texto.trim().replace(/^R\$\s*/, "");
  // a space inside a number groups thousands ("1 000", as the SI and many forms write it) only in
  // threes: "10 5" is a typo, and read as 105 it would be a sale of another size
  if (/\s/.test(s)) {
    if (!/^-?\d{1,3}(\s\d{3})+([.,]\d{1,2})?$/.test(s)) return null;
    s = s.replace(/\s/g, "");
  }
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
 * Other parameters are ignored, as the query interface ignores them (a cache buster `_=`, a
 * shared link's `utm_source`).
 * Inputs whose simulation with the typed price could not be exact to the centavo are refused
 * here too (the same check runs in simular on a published price).
 */
export function validarEntrada(params: Params, limites: Limites = LIMITES): { ok: true; entrada: Entrada } | { ok: false; erros: CampoErro[] } {
  const erros: CampoErro[] = [];
  const get = (k: Campo) => {
    const v = params[k];
    return v === undefined || v.trim() === "" ? undefined : v;
  };
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
  let coluna: ColunaPreco | null = null;
  const colunaTxt = get("coluna");
  if (colunaTxt !== undefined) {
    const c = colunaTxt.trim().toLowerCase();
    if (!(COLUNAS_PRECO as readonly string[]).includes(c)) {
      erros.push({ campo: "coluna", mensagem: `${rotulo("coluna")}: "${colunaTxt.slice(0, 40)}" não existe; válidas: ${COLUNAS_PRECO.join(", ")}` });
    } else if (preco !== null && c !== "valor") {
      erros.push({ campo: "coluna", mensagem: `${rotulo("coluna")}: não se aplica a um preço informado (deixe o preço em branco para usar a coluna publicada)` });
    } else coluna = c === "valor" ? null : (c as ColunaPreco);
  }
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
    coluna,
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
function contas(entrada: Entrada, precoCent: bigint, unidade: Unidade, funruralCent: bigint = entrada.funruralCentesimosPct): Contas {
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
  const funrural = divRound(bruto * funruralCent, 10_000n);
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

/**
 * Whether a series quoted per `unidade` can price a sale of `produto`: cattle by the arroba also
 * per kg of live weight (Scot's RS), an animal sold by the head and grain only in their own unit
 * (a state's bezerro is Datagro's reposição per kg: no price per head).
 */
export function unidadeSimulavel(produto: Produto, unidade: Unidade): boolean {
  const info = PRODUTO_INFO[produto];
  if (info.tipo === "sem_simulacao") return false;
  return unidade === info.unidade || (info.tipo === "gado_arroba" && unidade === "kg");
}

/** The series a simulation reads its price from: the state's when a UF is given. */
export function serieDaEntrada(e: Pick<Entrada, "produto" | "uf">): string {
  return e.uf ? `${e.produto}/${e.uf}` : e.produto;
}

const UNIDADE_TEXTO = (u: Unidade): string => UNIDADE_INFO[u].sufixo;

/**
 * The reference a published single file gives (cotacao/{produto}.json or .../{UF}.json): its
 * latest price, day, praça and names, and the other columns its source published that day (the
 * latest `historico` entry, the reference praça's for a Scot state). The page and the server's
 * /api/v1/simulador both build it here, so both offer the same columns.
 */
export function referenciaDaSerie(
  f: Pick<SerieFile, "valor" | "unidade" | "data_cotacao" | "fonte" | "nome" | "regiao" | "historico" | "sem_funrural"> & {
    praca?: string | null;
    pracas?: ReadonlyArray<{ praca: string; valor: number }>;
    proveniencia?: { nome?: string | null; url?: string | null } | null;
  },
  serie: string,
): PrecoReferencia {
  const ultimo = f.historico.length > 0 ? f.historico[f.historico.length - 1] : undefined;
  const colunas: Partial<Record<ColunaPreco, number>> = {};
  // the day's columns: the latest historico entry, else the reference praça's row of `pracas`
  // (the latest day too; older files kept the columns only there)
  const linhas: unknown[] = [];
  if (ultimo && ultimo.data === f.data_cotacao) linhas.push(ultimo);
  const daPraca = f.pracas?.find((p) => p.praca === f.praca && p.valor === f.valor);
  if (daPraca) linhas.push(daPraca);
  for (const linha of linhas) {
    for (const c of COLUNAS_PRECO) {
      const v = (linha as Record<string, unknown>)[c];
      if (c !== "valor" && colunas[c] === undefined && typeof v === "number") colunas[c] = v;
    }
  }
  return {
    valor: f.valor,
    unidade: f.unidade,
    data_cotacao: f.data_cotacao,
    fonte: f.fonte,
    serie,
    praca: f.praca ?? null,
    nome: `${f.nome}, ${f.regiao}`,
    fonte_nome: f.proveniencia?.nome ?? null,
    colunas,
    sem_funrural: f.sem_funrural
      ? `O preço de ${f.proveniencia?.nome ?? f.fonte} já é sem Funrural ("${f.sem_funrural}"): nada a deduzir.`
      : null,
  };
}

/** Today's calendar day in Brasília, "2026-11-22" (the prices' days are Brasília days). */
export function hojeEmBrasilia(agora: Date = new Date()): string {
  // en-CA writes YYYY-MM-DD; Intl is in every browser and in Node, unlike a date library
  return new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo", year: "numeric", month: "2-digit", day: "2-digit" }).format(agora);
}

const DIA_MS = 86_400_000;
const diaUTC = (iso: string): number => Date.parse(`${iso.slice(0, 10)}T00:00:00Z`);

/** Calendar days from a to b (YYYY-MM-DD). */
export function diasEntre(a: string, b: string): number {
  return Math.round((diaUTC(b) - diaUTC(a)) / DIA_MS);
}

/** Business days after a, up to and including b: status.json's own count (no weekends, no national holidays). */
export { diasUteisEntre };

/** "2026-08-05" -> "05/08/2026" */
function dataBR(iso: string): string {
  const [y, m, d] = iso.slice(0, 10).split("-");
  return `${d}/${m}/${y}`;
}

/** Why a published price needs no Funrural deduction (null: the rate applies to it). */
function precoSemFunrural(ref: PrecoReferencia, coluna: ColunaPreco | null): string | null {
  const fonte = ref.fonte_nome ?? ref.fonte ?? "a fonte";
  if (coluna && COLUNA_INFO[coluna].desconta === "funrural") {
    return `Preço da coluna "${COLUNA_INFO[coluna].nome}" (${fonte}): o Funrural já foi descontado pela fonte; nada a deduzir.`;
  }
  if (coluna && COLUNA_INFO[coluna].desconta === "senar") {
    return `Preço da coluna "${COLUNA_INFO[coluna].nome}" (${fonte}), para quem contribui sobre a folha de salários (Lei 13.606/2018): nada mais a deduzir.`;
  }
  // the headline price of a page that publishes it net (a column other than valor is Scot's own)
  return coluna === null || coluna === "valor" ? (ref.sem_funrural ?? null) : null;
}

export interface OpcoesSimulacao {
  /** today in Brasília (YYYY-MM-DD), to date the price; default hojeEmBrasilia() */
  hoje?: string;
}

/**
 * The simulation itself. `preco` is the published price of serieDaEntrada(entrada) (ignored
 * when the user informed one; referenciaDaSerie builds it from the series file). Cattle: heads ×
 * live weight × yield ÷ 15 kg = arrobas (rounded to the hundredth, as a romaneio shows them) ×
 * R$/@; a series quoted per kg of live weight (Scot's RS) multiplies the live weight instead.
 * Bezerro: per head. Grain: per 60 kg sack. Funrural is deducted only from a gross price: a price
 * its source publishes already without it (`sem_funrural`, or a net column) is used as is.
 */
export function simular(entrada: Entrada, preco: PrecoReferencia | null, opcoes: OpcoesSimulacao = {}): Resultado {
  const obs: string[] = [];
  const avisos: string[] = [];
  const informado = entrada.precoCentavos !== null;
  if (!informado && !preco) throw new Error("simular: sem preço publicado e sem preço informado");
  const tipo = PRODUTO_INFO[entrada.produto].tipo;
  // a price the user informs is in the product's own unit (a cattle series may be per kg: RS)
  const unidade: Unidade = informado ? (tipo === "gado_arroba" ? (preco?.unidade ?? PRODUTO_INFO[entrada.produto].unidade) : PRODUTO_INFO[entrada.produto].unidade) : preco!.unidade;
  let valorPublicado = preco?.valor ?? 0;
  if (!informado && entrada.coluna) {
    const v = preco!.colunas?.[entrada.coluna];
    if (v === undefined) {
      const tem = Object.keys(preco!.colunas ?? {});
      throw new SimulacaoForaDoLimite([
        {
          campo: "coluna",
          mensagem:
            `${rotulo("coluna")}: ${preco!.nome ?? preco!.serie ?? "a série"} não publica a coluna ${entrada.coluna} em ${preco!.data_cotacao ? dataBR(preco!.data_cotacao) : "seu último dia"}; ` +
            (tem.length ? `colunas publicadas: valor, ${tem.join(", ")}` : "só há o valor de referência (coluna valor)"),
        },
      ]);
    }
    valorPublicado = v;
  }
  const precoCent = informado ? entrada.precoCentavos! : BigInt(toHundredths(valorPublicado));
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
  // likewise grain from a series per tonne or per 50 kg sack, cattle from one per head: the
  // quantity would be counted in one unit and priced in another
  if (!unidadeSimulavel(entrada.produto, unidade)) {
    const info = PRODUTO_INFO[entrada.produto];
    throw new SimulacaoForaDoLimite([
      {
        campo: "uf",
        mensagem: `${info.nome}${entrada.uf ? ` em ${entrada.uf}` : ""} é cotado ${UNIDADE_INFO[unidade].por}, e o simulador vende ${info.nome.toLowerCase()} ${UNIDADE_INFO[info.unidade].por}: informe o preço ${UNIDADE_INFO[info.unidade].por}`,
      },
    ]);
  }

  const semFunrural = informado ? null : precoSemFunrural(preco!, entrada.coluna);
  const funruralCent = semFunrural ? 0n : entrada.funruralCentesimosPct;
  const c = contas(entrada, precoCent, unidade, funruralCent);
  // a published price far above any real one could still overflow: refuse, never round
  const fora = foraDoLimite(entrada, c);
  if (fora) throw new SimulacaoForaDoLimite([fora]);
  const { quantidade, bruto, funrural, comissao, totalDed, liquido, unidadesVendidas } = c;

  let idade: number | undefined;
  let desatualizado: boolean | undefined;
  if (!informado && preco!.data_cotacao) {
    const hoje = opcoes.hoje ?? hojeEmBrasilia();
    idade = Math.max(0, diasEntre(preco!.data_cotacao, hoje));
    desatualizado = diasUteisEntre(preco!.data_cotacao, hoje) > DIAS_UTEIS_ATUAL;
    if (desatualizado) {
      avisos.push(
        `Preço de ${dataBR(preco!.data_cotacao)}, há ${idade} ${idade === 1 ? "dia" : "dias"}: é o último desta série (${preco!.fonte_nome ?? preco!.fonte ?? "fonte desconhecida"}) ` +
          `e pode estar longe do mercado de hoje. Confira o preço atual ou informe-o no campo "${rotulo("preco")}".`,
      );
    }
  }

  // a typed price is read in the chosen series' unit (RS's boi per kg of live weight): one far
  // outside what that unit ever costs is most likely in another unit (R$/@ typed for RS would
  // make a sale 16 times too big), so the figures come with a warning
  if (informado) {
    const faixaDaUnidade = PRODUTO_INFO[entrada.produto].faixa[unidade];
    if (faixaDaUnidade) {
      const [lo, hi] = faixaDaUnidade.map((v) => BigInt(Math.round(v * 100)));
      if (precoCent < lo! || precoCent > hi!) {
        avisos.push(
          `Preço informado de ${formatarReais(precoCent)}${UNIDADE_TEXTO(unidade)}: fora da faixa usual de ${PRODUTO_INFO[entrada.produto].nome.toLowerCase()} ${UNIDADE_INFO[unidade].por} ` +
            `(${formatarReais(lo!)} a ${formatarReais(hi!)}). O preço informado é lido ${UNIDADE_INFO[unidade].por}` +
            `${preco?.serie && preco.unidade === unidade ? `, a unidade da série escolhida (${preco.nome ?? preco.serie})` : ""}; confira a unidade e o valor.`,
        );
      }
    }
  }

  if (semFunrural) obs.push(semFunrural);
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
  if (!padrao && !semFunrural) obs.push(`Alíquota do Funrural alterada para ${fmt(entrada.funruralCentesimosPct, 2)}% (padrão: 1,5% para pessoa física).`);
  if (semFunrural && !padrao && entrada.funruralCentesimosPct > 0n) {
    obs.push(`A alíquota de ${fmt(entrada.funruralCentesimosPct, 2)}% não foi aplicada porque o preço já é sem Funrural; para deduzi-la de um preço bruto, informe esse preço no campo "${rotulo("preco")}".`);
  }

  const ref: PrecoReferencia = informado
    ? { valor: toNumber(precoCent, 2), unidade, data_cotacao: null, fonte: null, serie: null, praca: null }
    : { ...preco!, valor: toNumber(precoCent, 2) };
  const colunaUsada: ColunaPreco | undefined = informado ? undefined : (entrada.coluna ?? "valor");
  const nomeDaSerie = ref.nome ?? ref.serie ?? "";
  const descricao = informado
    ? `${formatarReais(precoCent)}${UNIDADE_TEXTO(unidade)} informado pelo usuário`
    : `${formatarReais(precoCent)}${UNIDADE_TEXTO(unidade)} de ${ref.data_cotacao ? dataBR(ref.data_cotacao) : "data desconhecida"}` +
      ` (${nomeDaSerie}${ref.praca ? `, praça ${ref.praca}` : ""}, fonte ${ref.fonte_nome ?? ref.fonte ?? "?"}` +
      `${colunaUsada && colunaUsada !== "valor" ? `, coluna ${COLUNA_INFO[colunaUsada].nome}` : ""})`;

  return {
    entrada: {
      produto: entrada.produto,
      uf: entrada.uf,
      cabecas: entrada.cabecas,
      peso_vivo_kg: entrada.pesoVivoCentesimosKg === null ? null : toNumber(entrada.pesoVivoCentesimosKg, 2),
      rendimento_pct: entrada.rendimentoCentesimosPct === null ? null : toNumber(entrada.rendimentoCentesimosPct, 2),
      sacas: entrada.sacasCentesimos === null ? null : toNumber(entrada.sacasCentesimos, 2),
      preco: entrada.precoCentavos === null ? null : toNumber(entrada.precoCentavos, 2),
      coluna: entrada.coluna ?? (informado ? null : "valor"),
      funrural_pct: toNumber(entrada.funruralCentesimosPct, 2),
      comissao_pct: toNumber(entrada.comissaoCentesimosPct, 2),
      frete: toNumber(entrada.freteCentavos, 2),
    },
    preco: {
      ...ref,
      origem: informado ? "informado" : "serie",
      descricao,
      ...(colunaUsada ? { coluna: colunaUsada } : {}),
      ...(idade !== undefined ? { idade_dias: idade, desatualizado } : {}),
    },
    quantidade,
    bruto: toNumber(bruto, 2),
    deducoes: {
      funrural: {
        aliquota_pct: toNumber(funruralCent, 2),
        valor: toNumber(funrural, 2),
        base_legal: FUNRURAL_PADRAO.base_legal,
        padrao,
        preco_sem_funrural: semFunrural !== null,
        motivo: semFunrural,
      },
      comissao: { percentual: toNumber(entrada.comissaoCentesimosPct, 2), valor: toNumber(comissao, 2) },
      frete: toNumber(entrada.freteCentavos, 2),
      total: toNumber(totalDed, 2),
    },
    liquido: toNumber(liquido, 2),
    liquido_por_unidade: unidadesVendidas > 0n ? toNumber(divRoundSigned(liquido * 100n, unidadesVendidas), 2) : null,
    avisos,
    observacoes: obs,
  };
}

function divRoundSigned(a: bigint, b: bigint): bigint {
  return a < 0n ? -divRound(-a, b) : divRound(a, b);
}
