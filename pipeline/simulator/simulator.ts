/**
 * The sale simulator: one pure module (no I/O, no Node APIs) shared by the page
 * public/simulador/ (bundled to public/assets/simulador.js by pipeline/serve/assets.ts) and the
 * endpoint GET /api/v1/simulador. Inputs arrive as text (query string or form), are read into
 * scaled integers straight from their digits, and every amount is computed in BigInt centavos
 * with one rounding (half up) per published figure: no float ever touches money.
 */
import { PRODUTOS, type Produto, type Unidade } from "../domain/products.ts";
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

export const PRODUTOS_GADO = ["boi_gordo", "vaca_gorda"] as const;

export interface CampoErro {
  campo: string;
  mensagem: string;
}

/** What a simulation needs, validated and in scaled integers. */
export interface Entrada {
  produto: Produto;
  uf: UF | null;
  /** boi_gordo, vaca_gorda, bezerro */
  cabecas: number | null;
  /** boi_gordo, vaca_gorda: average live weight per head, hundredths of a kg */
  pesoVivoCentesimosKg: bigint | null;
  /** boi_gordo, vaca_gorda: carcass yield, hundredths of a percent (52% = 5200) */
  rendimentoCentesimosPct: bigint | null;
  /** soja, milho: 60 kg sacks, hundredths of a sack */
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
  /** series id ("boi_gordo/MT") or null when informed by the user */
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

const LIMITES = {
  cabecas: [1, 1_000_000],
  pesoVivoKg: [30, 2_000],
  rendimentoPct: [30, 75],
  sacas: [0.01, 100_000_000],
  preco: [0.01, 1_000_000],
  funruralPct: [0, 10],
  comissaoPct: [0, 100],
  frete: [0, 1_000_000_000],
} as const;

const CAMPOS = [
  "produto", "uf", "cabecas", "peso_vivo_kg", "rendimento_pct", "sacas", "preco", "funrural_pct", "comissao_pct", "frete",
] as const;
export type Campo = (typeof CAMPOS)[number];
export const CAMPOS_SIMULADOR: readonly string[] = CAMPOS;

/**
 * "540,5", "540.5", "1.540,50", "12": a decimal written either way, read into an integer scaled
 * by 10^casas, digit by digit. A comma makes it Brazilian (dots are thousands separators);
 * without a comma a dot is the decimal point. null when it is not such a number or has more
 * decimals than allowed.
 */
export function lerDecimal(texto: string, casas: number): bigint | null {
  let s = texto.trim().replace(/\s/g, "");
  if (s === "" || s.length > 32) return null;
  if (s.includes(",")) {
    if (!/^\d{1,3}(\.\d{3})*(,\d+)?$|^\d+(,\d+)?$/.test(s)) return null;
    s = s.replace(/\./g, "").replace(",", ".");
  } else if (!/^\d+(\.\d+)?$/.test(s)) {
    return null;
  }
  const [int = "0", frac = ""] = s.split(".");
  if (frac.length > casas) return null;
  return BigInt(int) * 10n ** BigInt(casas) + BigInt(frac.padEnd(casas, "0") || "0");
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

/** "R$ 1.234,56" from centavos */
export function formatarReais(centavos: bigint): string {
  return `R$ ${fmt(centavos, 2)}`;
}

function faixa(campo: string, valor: bigint, casas: number, [min, max]: readonly [number, number], unidade: string): CampoErro | null {
  const lo = BigInt(Math.round(min * 10 ** casas));
  const hi = BigInt(Math.round(max * 10 ** casas));
  if (valor < lo || valor > hi) {
    return { campo, mensagem: `${campo}: deve estar entre ${fmt(lo, casas)} e ${fmt(hi, casas)}${unidade}` };
  }
  return null;
}

type Params = Partial<Record<string, string | undefined>>;

/**
 * Validates the raw inputs (query string or form fields, all text). Every problem is reported
 * at once, each naming its field, in Portuguese.
 */
export function validarEntrada(params: Params): { ok: true; entrada: Entrada } | { ok: false; erros: CampoErro[] } {
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
  if (produtoTxt === undefined) erros.push({ campo: "produto", mensagem: `produto: obrigatório; válidos: ${PRODUTOS.join(", ")}` });
  else if (!(PRODUTOS as readonly string[]).includes(produtoTxt.trim().toLowerCase())) {
    erros.push({ campo: "produto", mensagem: `produto: "${produtoTxt}" não existe; válidos: ${PRODUTOS.join(", ")}` });
  } else produto = produtoTxt.trim().toLowerCase() as Produto;

  let uf: UF | null = null;
  const ufTxt = get("uf");
  if (ufTxt !== undefined) {
    uf = normalizeUF(ufTxt);
    if (!uf) erros.push({ campo: "uf", mensagem: `uf: "${ufTxt}" não é uma sigla de estado (ex.: MS, SP, MT)` });
  }

  const decimal = (k: Campo, casas: number, lim: readonly [number, number], unidade: string, obrigatorio: boolean, padrao: bigint | null): bigint | null => {
    const t = get(k);
    if (t === undefined) {
      if (obrigatorio) erros.push({ campo: k, mensagem: `${k}: obrigatório para ${produto}` });
      return padrao;
    }
    const v = lerDecimal(t, casas);
    if (v === null) {
      const forma = casas === 0 ? "um número inteiro, ex.: 120" : `um número com até ${casas} casas decimais, ex.: 540,5 ou 540.5`;
      erros.push({ campo: k, mensagem: `${k}: "${t}" não é um número válido (use ${forma})` });
      return null;
    }
    const e = faixa(k, v, casas, lim, unidade);
    if (e) erros.push(e);
    return v;
  };

  const gado = produto === "boi_gordo" || produto === "vaca_gorda";
  const grao = produto === "soja" || produto === "milho";
  let cabecas: number | null = null;
  if (produto && !grao) {
    const c = decimal("cabecas", 0, LIMITES.cabecas, " cabeças", true, null);
    cabecas = c === null ? null : Number(c);
  } else if (get("cabecas") !== undefined && produto) {
    erros.push({ campo: "cabecas", mensagem: `cabecas: não se aplica a ${produto} (use sacas)` });
  }
  const peso = gado ? decimal("peso_vivo_kg", 2, LIMITES.pesoVivoKg, " kg", true, null) : null;
  const rend = gado ? decimal("rendimento_pct", 2, LIMITES.rendimentoPct, "%", true, null) : null;
  if (produto && !gado) {
    for (const k of ["peso_vivo_kg", "rendimento_pct"] as const) {
      if (get(k) !== undefined) erros.push({ campo: k, mensagem: `${k}: só se aplica a boi_gordo e vaca_gorda` });
    }
  }
  const sacas = grao ? decimal("sacas", 2, LIMITES.sacas, " sacas", true, null) : null;
  if (produto && !grao && get("sacas") !== undefined) erros.push({ campo: "sacas", mensagem: `sacas: só se aplica a soja e milho` });
  const preco = decimal("preco", 2, LIMITES.preco, "", false, null);
  const funrural = decimal("funrural_pct", 2, LIMITES.funruralPct, "%", false, BigInt(FUNRURAL_PADRAO.aliquotaCentesimos));
  const comissao = decimal("comissao_pct", 2, LIMITES.comissaoPct, "%", false, 0n);
  const frete = decimal("frete", 2, LIMITES.frete, "", false, 0n);

  if (erros.length > 0 || !produto) return { ok: false, erros };
  return {
    ok: true,
    entrada: {
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
    },
  };
}

/** The series a simulation reads its price from: the state's when a UF is given. */
export function serieDaEntrada(e: Pick<Entrada, "produto" | "uf">): string {
  return e.uf ? `${e.produto}/${e.uf}` : e.produto;
}

const UNIDADE_TEXTO: Record<Unidade, string> = { "@": "/@", kg: "/kg", sc60kg: "/sc 60 kg", cabeca: "/cabeça" };

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
  const unidade: Unidade = informado
    ? entrada.produto === "soja" || entrada.produto === "milho"
      ? "sc60kg"
      : entrada.produto === "bezerro"
        ? "cabeca"
        : (preco?.unidade ?? "@")
    : preco!.unidade;
  const precoCent = informado ? entrada.precoCentavos! : BigInt(Math.round(preco!.valor * 100));

  const quantidade: Resultado["quantidade"] = { base: "" };
  let bruto: bigint;
  let unidadesVendidas: bigint; // hundredths of the priced unit, for the net per unit
  if (entrada.produto === "boi_gordo" || entrada.produto === "vaca_gorda") {
    const cab = BigInt(entrada.cabecas!);
    const pesoTotal = cab * entrada.pesoVivoCentesimosKg!; // hundredths of kg
    const carcacaX = pesoTotal * entrada.rendimentoCentesimosPct!; // kg × 10^6
    const arrobasCent = divRound(carcacaX, KG_POR_ARROBA * 10_000n); // hundredths of @
    quantidade.cabecas = entrada.cabecas!;
    quantidade.peso_vivo_total_kg = toNumber(pesoTotal, 2);
    quantidade.arrobas = toNumber(arrobasCent, 2);
    if (unidade === "kg") {
      quantidade.base = "kg de peso vivo";
      bruto = divRound(pesoTotal * precoCent, 100n);
      unidadesVendidas = pesoTotal;
      obs.push("Preço cotado por kg de peso vivo (como a Scot publica o RS): bruto = peso vivo total × R$/kg; as arrobas são só informativas.");
    } else {
      quantidade.base = "arrobas";
      bruto = divRound(arrobasCent * precoCent, 100n);
      unidadesVendidas = arrobasCent;
      obs.push("Arrobas = cabeças × peso vivo × rendimento de carcaça ÷ 15 kg, arredondadas ao centésimo antes de multiplicar pelo preço.");
    }
  } else if (entrada.produto === "bezerro") {
    quantidade.cabecas = entrada.cabecas!;
    quantidade.base = "cabeças";
    bruto = BigInt(entrada.cabecas!) * precoCent;
    unidadesVendidas = BigInt(entrada.cabecas!) * 100n;
    obs.push("Animal vendido para reprodução ou criação não integra a base do Funrural (Lei 8.212/1991, art. 25, § 12): se for o caso, use alíquota 0.");
  } else {
    quantidade.sacas = toNumber(entrada.sacasCentesimos!, 2);
    quantidade.base = "sacas de 60 kg";
    bruto = divRound(entrada.sacasCentesimos! * precoCent, 100n);
    unidadesVendidas = entrada.sacasCentesimos!;
  }

  const funrural = divRound(bruto * entrada.funruralCentesimosPct, 10_000n);
  const comissao = divRound(bruto * entrada.comissaoCentesimosPct, 10_000n);
  const totalDed = funrural + comissao + entrada.freteCentavos;
  const liquido = bruto - totalDed;
  if (liquido < 0n) obs.push("As deduções superam o valor bruto: o resultado líquido é negativo.");
  const padrao = entrada.funruralCentesimosPct === BigInt(FUNRURAL_PADRAO.aliquotaCentesimos);
  if (!padrao) obs.push(`Alíquota do Funrural alterada para ${fmt(entrada.funruralCentesimosPct, 2)}% (padrão: 1,5% para pessoa física).`);

  const ref: PrecoReferencia = informado
    ? { valor: toNumber(precoCent, 2), unidade, data_cotacao: null, fonte: null, serie: null, praca: null }
    : preco!;
  const descricao = informado
    ? `${formatarReais(precoCent)}${UNIDADE_TEXTO[unidade]} informado pelo usuário`
    : `${formatarReais(precoCent)}${UNIDADE_TEXTO[unidade]} de ${ref.data_cotacao ?? "data desconhecida"}` +
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
