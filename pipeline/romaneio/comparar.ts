/**
 * A romaneio read by ler.ts, set against the published prices: the reference of its day (state
 * and national series), the simulator's result for the same business, and its deductions side by
 * side with the standard Funrural. Pure (no Node APIs): the page romaneio/ runs it in the browser
 * and POST /api/v1/romaneio on the server. Money is computed in BigInt centavos, quantities in
 * hundredths, with one rounding (half away from zero) per published figure, as the simulator does.
 */
import { formatBRL, formatDecimalBR, formatPreco, toHundredths } from "../domain/money.ts";
import { isProduto, PRODUTO_INFO, UNIDADE_INFO, type Produto, type Unidade } from "../domain/products.ts";
import type {
  ComparacaoRomaneio,
  DeducaoLadoALado,
  Desconto,
  HistoricoEntrada,
  LeituraRomaneio,
  ReferenciaDoDia,
  Serie,
} from "../domain/publicados.gerados.ts";
import { seriesId } from "../domain/series.ts";
import { CONFIANCA_MINIMA } from "./ler.ts";
import { isUF } from "../domain/ufs.ts";
import {
  diasEntre,
  FUNRURAL_PADRAO,
  hojeEmBrasilia,
  LIMITES,
  SimulacaoForaDoLimite,
  simular,
  type Entrada,
  type Resultado,
} from "../simulator/simulator.ts";

/** A reference price more than this many calendar days before the romaneio's day is flagged. */
export const DEFASAGEM_MAXIMA_DIAS = 7;
/**
 * A romaneio price further than this from a reference is flagged as a likely misread: a day's
 * physical deals in one UF sit within a few percent of its indicator, and a lost comma or digit
 * is far beyond it.
 */
export const DIFERENCA_PLAUSIVEL_PCT = 30;

/** The value at a reading's field path ("totais.arrobas"), null when absent. */
function valorDoCampo(l: LeituraRomaneio, caminho: string): unknown {
  let v: unknown = l;
  for (const parte of caminho.split(".")) v = v !== null && typeof v === "object" ? (v as Record<string, unknown>)[parte] : undefined;
  return v ?? null;
}

/**
 * The series a romaneio is compared with: its product in its UF ("{produto}/MS") and the product's
 * national series ("{produto}"), as ids to look up in the published tree. Whether such a series
 * exists is the tree's answer (a missing file is no reference), not the catalogue's: the catalogue
 * lives in pipeline/sources/, with the parsers, and the browser page must not carry it.
 */
export function seriesDoRomaneio(l: LeituraRomaneio): { estadual: string | null; nacional: string | null } {
  const p = l.produto;
  if (!p || !isProduto(p)) return { estadual: null, nacional: null };
  const estadual = l.uf && isUF(l.uf) ? seriesId({ produto: p, uf: l.uf }) : null;
  return { estadual, nacional: seriesId({ produto: p, uf: null }) };
}

/** What was sold, in scaled integers: the price per unit and the quantity it multiplies. */
interface Negocio {
  tipo: "abate" | "carga";
  unidade: Unidade;
  /** centavos per unit, or null when not read */
  preco: bigint | null;
  /** hundredths of arrobas or of sacks, or null */
  quantidade: bigint | null;
  campoPreco: string;
  campoQuantidade: string;
  /** "arrobas", "sacas de 60 kg" */
  nomeQuantidade: string;
  nomePreco: string;
}

/** a / b rounded half away from zero (b > 0) */
function divRound(a: bigint, b: bigint): bigint {
  const abs = a < 0n ? -a : a;
  const q = (2n * abs + b) / (2n * b);
  return a < 0n ? -q : q;
}

/** scaled integer (two places) -> the exact JSON number */
const numero = (x: bigint): number => Number(x) / 100;

/** a JSON number with at most two decimals -> hundredths; null for null or anything else */
function centesimos(v: number | null | undefined): bigint | null {
  if (typeof v !== "number" || !Number.isFinite(v)) return null;
  try {
    return BigInt(toHundredths(v));
  } catch {
    return null;
  }
}

/** "2026-08-05" -> "05/08/2026" */
function dataBR(iso: string): string {
  const [y, m, d] = iso.slice(0, 10).split("-");
  return `${d}/${m}/${y}`;
}

/** 1,5 and 100, not 1,50 and 100,00: rates as people write them */
const taxa = new Intl.NumberFormat("pt-BR", { maximumFractionDigits: 2 });

const dias = (n: number): string => `${n} ${n === 1 ? "dia" : "dias"}`;

function negocioDe(l: LeituraRomaneio): Negocio | null {
  const t = l.totais;
  if (!t) return null;
  // the totals' shape says which receipt it is; tipo may be null when the heading was not read
  if ("preco_arroba" in t) {
    return {
      tipo: "abate",
      unidade: "@",
      preco: centesimos(t.preco_arroba),
      quantidade: centesimos(t.arrobas),
      campoPreco: "totais.preco_arroba",
      campoQuantidade: "totais.arrobas",
      nomeQuantidade: "arrobas",
      nomePreco: "preço por arroba",
    };
  }
  return {
    tipo: "carga",
    unidade: "sc60kg",
    preco: centesimos(t.preco_saca),
    quantidade: centesimos(t.sacas),
    campoPreco: "totais.preco_saca",
    campoQuantidade: "totais.sacas",
    nomeQuantidade: "sacas de 60 kg",
    nomePreco: "preço por saca",
  };
}

/** The series' day for `data`: that day, or the last earlier one with a price; null before its first day. */
function diaDaSerie(s: Serie, data: string): HistoricoEntrada | null {
  for (let i = s.historico.length - 1; i >= 0; i--) {
    const e = s.historico[i]!;
    if (e.data <= data) return e;
  }
  return null;
}

function nomeDaSerie(s: Serie): string {
  return `${s.nome}, ${s.regiao}${s.praca ? `, praça ${s.praca}` : ""}`;
}

function referencia(
  escopo: "estadual" | "nacional",
  id: string,
  s: Serie,
  l: LeituraRomaneio,
  n: Negocio | null,
  avisos: string[],
): ReferenciaDoDia | null {
  const nome = nomeDaSerie(s);
  if (!l.data) return null; // said once by the caller
  const ultimo = s.historico[s.historico.length - 1];
  const e = diaDaSerie(s, l.data);
  if (!e || !ultimo) {
    avisos.push(
      `Referência ${escopo} (${nome}): a série começa em ${s.historico[0] ? dataBR(s.historico[0].data) : "?"}, ` +
        `depois do dia do romaneio (${dataBR(l.data)}); sem preço de referência para esse dia.`,
    );
    return null;
  }
  // a series in another unit (Scot's RS: R$/kg of live weight) is not converted: the yield that
  // would turn it into arrobas is the animal's, not the series'
  const unidadeDoRomaneio: Unidade = n?.unidade ?? (l.tipo === "carga" ? "sc60kg" : l.tipo === "abate" ? "@" : PRODUTO_INFO[s.produto as Produto]?.unidade ?? s.unidade);
  if (s.unidade !== unidadeDoRomaneio) {
    avisos.push(
      `Referência ${escopo} (${nome}): cotada ${UNIDADE_INFO[s.unidade].por} (${formatPreco(e.valor, s.unidade)} em ${dataBR(e.data)}), ` +
        `e o romaneio ${UNIDADE_INFO[unidadeDoRomaneio].por}: sem comparação, pois não há conversão exata entre as unidades.`,
    );
    return null;
  }
  const defasagem = Math.max(0, diasEntre(e.data, l.data));
  if (e === ultimo && l.data > ultimo.data) {
    avisos.push(
      `Referência ${escopo} (${nome}): sem preço publicado em ${dataBR(l.data)}; a série vai até ${dataBR(ultimo.data)}, ` +
        `e foi usado esse último preço, ${dias(defasagem)} antes do romaneio.`,
    );
  } else if (defasagem > DEFASAGEM_MAXIMA_DIAS) {
    avisos.push(
      `Referência ${escopo} (${nome}): o último preço antes de ${dataBR(l.data)} é de ${dataBR(e.data)}, ${dias(defasagem)} antes do romaneio.`,
    );
  }
  if (s.sem_funrural) {
    avisos.push(
      `Referência ${escopo} (${nome}): o preço publicado já é sem Funrural ("${s.sem_funrural}"), e o do romaneio é bruto: ` +
        `parte da diferença é o próprio Funrural.`,
    );
  }
  const ref = BigInt(toHundredths(e.valor));
  let diferenca: bigint | null = null;
  let pct: bigint | null = null;
  let total: bigint | null = null;
  if (n?.preco != null) {
    diferenca = n.preco - ref;
    // hundredths of a percent of the reference
    pct = divRound(diferenca * 10_000n, ref);
    // centavos per unit × hundredths of a unit / 100: one rounding, to the centavo
    if (n.quantidade != null) total = divRound(diferenca * n.quantidade, 100n);
  }
  return {
    escopo,
    serie: id,
    nome,
    fonte: s.fonte,
    unidade: s.unidade,
    data: e.data,
    defasagem_dias: defasagem,
    valor: e.valor,
    diferenca: diferenca === null ? null : numero(diferenca),
    diferenca_pct: pct === null ? null : numero(pct),
    diferenca_total: total === null ? null : numero(total),
  };
}

/** One arroba is 15 kg of carcass; the simulator's yield is in hundredths of a percent. */
const ARROBA_X_RENDIMENTO = 15n * 10_000n;
const CEM_POR_CENTO = 10_000n;

/**
 * The live weight per head and the yield to give the simulator so that its arrobas are exactly
 * the romaneio's (hundredths of @, `alvo`). The simulator computes
 *   arrobas = round(cabeças × peso (hundredths of kg) × rendimento (hundredths of %) ÷ 150 000)
 * (to the hundredth, half up, as a romaneio shows them). A romaneio has no live weight: its
 * carcass weight per head at a 100% yield is the same business. But the carcass total divided by
 * the heads is rarely a whole hundredth of a kg, and a receipt's arrobas are often the sum of each
 * animal's rounded arrobas, not total kg ÷ 15: so the weight is chosen for the simulator's
 * rounding to land on the romaneio's arrobas. At a 100% yield that needs a multiple of the head
 * count among 15 consecutive integers (always up to 15 head, by chance above); when there is
 * none, the yield moves from 100% by hundredths of a percent, the nearest first, at most
 * `desvioMaximo`, until [150 000·alvo − 75 000, 150 000·alvo + 75 000) holds a multiple of
 * cabeças × rendimento. null when none does (hundreds of head: the caller approximates).
 */
export function pesoERendimento(cabecas: bigint, alvo: bigint, desvioMaximo: bigint = DESVIO_MAXIMO_RENDIMENTO): { peso: bigint; rendimento: bigint } | null {
  const lo = ARROBA_X_RENDIMENTO * alvo - ARROBA_X_RENDIMENTO / 2n;
  const hi = ARROBA_X_RENDIMENTO * alvo + ARROBA_X_RENDIMENTO / 2n; // exclusive
  for (let d = 0n; d <= desvioMaximo; d++) {
    for (const rendimento of d === 0n ? [CEM_POR_CENTO] : [CEM_POR_CENTO - d, CEM_POR_CENTO + d]) {
      const passo = cabecas * rendimento;
      const peso = (lo + passo - 1n) / passo; // the smallest with cabeças × peso × rendimento >= lo
      if (peso > 0n && peso * passo < hi) return { peso, rendimento };
    }
  }
  return null;
}

/** How far from 100% the simulation's yield may move to hit the romaneio's arrobas: 1%. */
export const DESVIO_MAXIMO_RENDIMENTO = 100n;

function foraDaFaixa(v: bigint, [min, max]: readonly [number, number]): boolean {
  return v < BigInt(Math.round(min * 100)) || v > BigInt(Math.round(max * 100));
}

/** The simulator's result for the same business, or null with the reason in `avisos`. */
function simulacao(l: LeituraRomaneio, n: Negocio | null, hoje: string, avisos: string[]): Resultado | null {
  const sem = (motivo: string): null => {
    avisos.push(`Sem simulação: ${motivo}.`);
    return null;
  };
  if (!n) return sem("os totais do romaneio não foram lidos");
  const p = l.produto;
  if (!p || !isProduto(p)) return sem("o produto do romaneio não foi identificado");
  const tipoProduto = PRODUTO_INFO[p].tipo;
  const esperado = n.tipo === "abate" ? "gado_arroba" : "grao_saca";
  if (tipoProduto !== esperado) {
    return sem(`${PRODUTO_INFO[p].nome.toLowerCase()} não se vende ${n.tipo === "abate" ? "por arroba" : "por saca de 60 kg"} no simulador`);
  }
  const faltam: string[] = [];
  if (n.preco === null) faltam.push(`${n.nomePreco} (${n.campoPreco})`);
  if (n.quantidade === null) faltam.push(`${n.nomeQuantidade} (${n.campoQuantidade})`);
  const cab = n.tipo === "abate" && l.totais && "cabecas" in l.totais ? l.totais.cabecas : null;
  if (n.tipo === "abate" && (cab === null || !Number.isSafeInteger(cab))) faltam.push("número de cabeças (totais.cabecas)");
  if (faltam.length) return sem(`faltam ${faltam.join(", ")}`);
  const preco = n.preco!;
  const quantidade = n.quantidade!;
  if (foraDaFaixa(preco, LIMITES.preco)) return sem(`${n.nomePreco} lido (${formatBRL(numero(preco))}) fora da faixa do simulador`);

  const base: Omit<Entrada, "cabecas" | "pesoVivoCentesimosKg" | "rendimentoCentesimosPct" | "sacasCentesimos"> = {
    produto: p as Produto,
    uf: l.uf,
    precoCentavos: preco,
    funruralCentesimosPct: BigInt(FUNRURAL_PADRAO.aliquotaCentesimos),
    coluna: null,
    comissaoCentesimosPct: 0n,
    freteCentavos: 0n,
  };
  let entrada: Entrada;
  let nota: string;
  if (n.tipo === "abate") {
    const cabecas = BigInt(cab!);
    if (cabecas < 1n || foraDaFaixa(cabecas * 100n, LIMITES.cabecas)) return sem(`número de cabeças (${cab}) fora da faixa do simulador`);
    if (quantidade <= 0n) return sem("as arrobas do romaneio são zero");
    // no exact weight within 1% of yield (hundreds of head): the nearest weight at 100%, and say so
    const exato = pesoERendimento(cabecas, quantidade);
    const pr = exato ?? { peso: divRound(15n * quantidade, cabecas), rendimento: CEM_POR_CENTO };
    if (foraDaFaixa(pr.peso, LIMITES.pesoVivoKg)) {
      return sem(`o peso de carcaça por cabeça (${formatDecimalBR(numero(pr.peso))} kg) fica fora da faixa do simulador`);
    }
    entrada = { ...base, cabecas: Number(cabecas), pesoVivoCentesimosKg: pr.peso, rendimentoCentesimosPct: pr.rendimento, sacasCentesimos: null };
    const peso = `o peso de carcaça por cabeça (${formatDecimalBR(numero(pr.peso))} kg) entra como peso vivo`;
    const arrobas = `${formatDecimalBR(numero(quantidade))} arrobas do romaneio`;
    nota = !exato
      ? `Simulação do romaneio: ${peso}, com rendimento de 100%; com ${cab} cabeças nenhum peso ao centésimo de kg dá exatamente as ${arrobas}.`
      : `Simulação do romaneio: ${peso}, com rendimento de ${taxa.format(numero(pr.rendimento))}%, para dar exatamente as ${arrobas}` +
        (pr.rendimento === CEM_POR_CENTO ? "." : " (o rendimento difere de 100% só para acertar o arredondamento das arrobas).");
  } else {
    if (foraDaFaixa(quantidade, LIMITES.sacas)) return sem(`sacas (${formatDecimalBR(numero(quantidade))}) fora da faixa do simulador`);
    entrada = { ...base, cabecas: null, pesoVivoCentesimosKg: null, rendimentoCentesimosPct: null, sacasCentesimos: quantidade };
    nota = `Simulação do romaneio: ${formatDecimalBR(numero(quantidade))} sacas de 60 kg ao preço do romaneio.`;
  }
  let r: Resultado;
  try {
    r = simular(entrada, null, { hoje });
  } catch (err) {
    if (err instanceof SimulacaoForaDoLimite) return sem(err.message);
    throw err;
  }
  r.observacoes.unshift(nota);
  const arrobas = n.tipo === "abate" ? centesimos(r.quantidade.arrobas) : quantidade;
  if (arrobas !== quantidade) {
    r.avisos.push(
      `As arrobas da simulação (${formatDecimalBR(r.quantidade.arrobas ?? 0)}) diferem das do romaneio (${formatDecimalBR(numero(quantidade))}) ` +
        `pelo arredondamento do peso por cabeça: o bruto e o Funrural da simulação diferem na mesma proporção.`,
    );
  }
  return r;
}

type Componente = "inss" | "rat" | "senar";
const NOME_COMPONENTE: Record<Componente, string> = { inss: "INSS", rat: "RAT", senar: "SENAR" };

/** The standard Funrural's parts (FUNRURAL_PADRAO), keyed, in hundredths of a percent. */
const COMPONENTES: ReadonlyArray<{ chave: Componente; centesimos: bigint }> = FUNRURAL_PADRAO.componentes.map((c) => ({
  chave: /senar/i.test(c.nome) ? "senar" : /rat/i.test(c.nome) ? "rat" : "inss",
  centesimos: BigInt(Math.round(c.aliquota_pct * 100)),
}));

const semAcento = (s: string): string => s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();

/** The parts of the standard Funrural a deduction's printed name names explicitly. */
function partesNomeadas(nome: string): { partes: Set<Componente>; funrural: boolean } {
  const t = semAcento(nome);
  const partes = new Set<Componente>();
  if (/\bsenar\b/.test(t)) partes.add("senar");
  if (/\b(gil)?rat\b|\bsat\b/.test(t)) partes.add("rat");
  if (/\binss\b|previdenc/.test(t)) partes.add("inss");
  // "Funrural" alone is the whole contribution; next to a separate SENAR line, what is left of it
  return { partes, funrural: /fun\s*rural|contribuicao rural/.test(t) };
}

/**
 * The romaneio's deductions, each beside what the simulator's standard rates give on the same
 * gross: the parts of Funrural (INSS 1,2%, RAT 0,1%, SENAR 0,2%) a line covers, each line rounded
 * on its own as receipts do; a deduction the simulator does not know (a slaughter fee, freight)
 * has no simulator figure. A receipt without any Funrural line gets one row (romaneio null) with
 * the standard amount, so the producer sees it was not deducted (or not read).
 */
function deducoes(descontos: readonly Desconto[], n: Negocio | null, avisos: string[]): DeducaoLadoALado[] {
  // the romaneio's quantity × its price, to the centavo: the simulator's gross for the same
  // business (the same formula), and there even when the head count was not read
  const bruto = n?.preco != null && n.quantidade != null ? divRound(n.quantidade * n.preco, 100n) : null;
  const lidas = descontos.map((d) => ({ d, ...partesNomeadas(d.nome) }));
  const cobertas = new Set<Componente>(lidas.flatMap((x) => [...x.partes]));
  let restoDado = false;
  const linhas = lidas.map(({ d, partes, funrural }) => {
    const cobre = new Set(partes);
    // the first line called Funrural takes every part no other line names
    if (funrural && !restoDado) {
      for (const c of COMPONENTES) if (!cobertas.has(c.chave)) cobre.add(c.chave);
      restoDado = true;
    }
    const aliquota = COMPONENTES.filter((c) => cobre.has(c.chave)).reduce((s, c) => s + c.centesimos, 0n);
    return {
      nome: d.nome,
      romaneio: d.valor,
      simulador: bruto !== null && cobre.size > 0 ? numero(divRound(bruto * aliquota, 10_000n)) : null,
      cobre,
    };
  });
  const out: DeducaoLadoALado[] = linhas.map(({ nome, romaneio, simulador }) => ({ nome, romaneio, simulador }));
  // a line above the standard rates is said in words: the table alone reads like a simulator error
  for (const { nome, romaneio, simulador, cobre } of linhas) {
    if (romaneio === null || simulador === null) continue;
    const mais = BigInt(toHundredths(romaneio)) - BigInt(toHundredths(simulador));
    if (mais <= 1n) continue;
    const partes = COMPONENTES.filter((c) => cobre.has(c.chave)).map((c) => `${NOME_COMPONENTE[c.chave]} ${taxa.format(Number(c.centesimos) / 100)}%`);
    avisos.push(
      `${nome}: ${formatBRL(romaneio)} no romaneio, ${formatBRL(numero(mais))} acima de ${formatBRL(simulador)} (${partes.join(" + ")} do bruto, ` +
        `as alíquotas de produtor pessoa física). Confira a alíquota: pessoa jurídica paga mais, e um Funrural de 1,5% já inclui o SENAR de 0,2%.`,
    );
  }
  if (!linhas.some((x) => x.cobre.size > 0)) {
    const padrao = bruto === null ? null : numero(divRound(bruto * BigInt(FUNRURAL_PADRAO.aliquotaCentesimos), 10_000n));
    out.push({ nome: "Funrural", romaneio: null, simulador: padrao });
    avisos.push(
      `O romaneio não mostra desconto de Funrural nem de SENAR (ou ele não foi lido)` +
        (padrao !== null ? `; para produtor pessoa física o padrão é ${taxa.format(FUNRURAL_PADRAO.aliquota_pct)}% do bruto, ${formatBRL(padrao)}.` : "."),
    );
  }
  return out;
}

/**
 * The romaneio against the published prices. `series` are the documents of seriesDoRomaneio's
 * ids (cotacao/{id}.json; null when there is none or it could not be read); `hoje` (Brasília,
 * YYYY-MM-DD) dates the romaneio against today. It does not consult the catalogue (only
 * seriesDoRomaneio does), so a browser bundle that takes the ids from index.json need not carry
 * the sources' parsers.
 */
export function compararRomaneio(
  l: LeituraRomaneio,
  series: { estadual: Serie | null; nacional: Serie | null },
  opts: { hoje?: string } = {},
): ComparacaoRomaneio {
  const hoje = opts.hoje ?? hojeEmBrasilia();
  const avisos: string[] = [];
  const n = negocioDe(l);
  const produto = l.produto && isProduto(l.produto) ? PRODUTO_INFO[l.produto].nome.toLowerCase() : null;

  const referencias: ReferenciaDoDia[] = [];
  if (!produto) avisos.push("Produto do romaneio não identificado: sem preço de referência.");
  else if (!l.data) avisos.push("Data do romaneio não lida: sem preço de referência do dia.");
  else {
    if (l.data > hoje) avisos.push(`A data lida do romaneio (${dataBR(l.data)}) é posterior a hoje (${dataBR(hoje)}): confira a data.`);
    if (series.estadual) {
      const r = referencia("estadual", seriesId({ produto: series.estadual.produto as Produto, uf: series.estadual.uf }), series.estadual, l, n, avisos);
      if (r) referencias.push(r);
    } else if (!l.uf) avisos.push("UF do romaneio não lida: sem referência estadual.");
    else avisos.push(`Sem série estadual de ${produto} para ${l.uf}: só a referência nacional.`);
    if (series.nacional) {
      // a national document's uf is where its indicator is quoted (CEPEA's boi gordo: SP), not part of its id
      const r = referencia("nacional", seriesId({ produto: series.nacional.produto as Produto, uf: null }), series.nacional, l, n, avisos);
      if (r) referencias.push(r);
    } else avisos.push(`Sem série nacional de ${produto}: sem referência nacional.`);
    if (n && n.preco === null && referencias.length) avisos.push(`Sem diferença para a referência: ${n.nomePreco} não lido (${n.campoPreco}).`);
    else if (n && n.quantidade === null && referencias.length) {
      avisos.push(`Sem diferença total: ${n.nomeQuantidade} não lidas (${n.campoQuantidade}).`);
    }
  }

  const sim = simulacao(l, n, hoje, avisos);
  const lado = deducoes(l.totais?.descontos ?? [], n, avisos);

  // a number the comparison uses that failed one of the reading's cross-checks: used as read, and said
  if (n) {
    const usados = [n.campoPreco, n.campoQuantidade, ...(n.tipo === "abate" ? ["totais.cabecas"] : [])];
    const duvidosos = usados.filter((c) => l.avisos.some((a) => a.campos.includes(c)));
    if (duvidosos.length) {
      avisos.push(`${duvidosos.join(", ")}: não conferem com outros números do romaneio (veja os avisos da leitura); a comparação usa os valores como lidos.`);
    }
    // a number no check could confirm: the reading's confidence says so (a user's edit sets it to 1)
    const incertos = usados.filter((c) => !duvidosos.includes(c) && valorDoCampo(l, c) !== null && (l.confianca[c] ?? 0) < CONFIANCA_MINIMA);
    if (incertos.length) {
      avisos.push(`${incertos.join(", ")}: lidos com pouca confiança (nenhuma conferência os confirmou); confira-os no documento antes de usar a comparação.`);
    }
  }
  // the fields that pick the reference: a date or UF the reading doubts (OCR unsure, two dates
  // with labels of the same weight, two states in the letterhead) may give another day's or
  // another state's price, as silently as a wrong price would
  const duvida = (c: string): boolean => l.avisos.some((a) => a.campos.includes(c)) || (l.confianca[c] ?? 1) < CONFIANCA_MINIMA;
  if (l.data && referencias.length && duvida("data")) {
    avisos.push(`Data do romaneio (${dataBR(l.data)}) lida com dúvida (veja a leitura): as referências são as desse dia; confira a data no documento antes de usar a comparação.`);
  }
  if (l.uf && referencias.some((r) => r.escopo === "estadual") && duvida("uf")) {
    avisos.push(`UF do romaneio (${l.uf}) lida com dúvida (veja a leitura): a referência estadual é a dessa UF; confira no documento o local da venda antes de usar a comparação.`);
  }
  // a price far from every reference is more likely a misread (a lost comma: 32000 for 320,00) than a sale
  for (const r of referencias) {
    if (r.diferenca_pct !== null && Math.abs(r.diferenca_pct) > DIFERENCA_PLAUSIVEL_PCT) {
      avisos.push(
        `Referência ${r.escopo} (${r.nome}): o preço do romaneio difere ${taxa.format(Math.abs(r.diferenca_pct))}% da referência; ` +
          `confira o preço lido (${n?.campoPreco ?? "preço"}) antes de usar a diferença.`,
      );
    }
  }
  return { referencias, simulacao: sim, deducoes: lado, avisos };
}
