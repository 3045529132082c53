/**
 * The products: each one declared once, with the traits everything else derives from (names,
 * units, sanity bounds, how the simulator sells it, whether the aggregate shows it). A series of
 * a product is declared by the source page that feeds it (pipeline/sources/*); the catalogue
 * (pipeline/catalogo.ts) puts the two together.
 *
 * This module is bundled into the dashboard and the simulator page: plain data, no imports of
 * the pipeline.
 */
export const UNIDADES = ["@", "kg", "sc60kg", "cabeca", "sc50kg", "t", "cx40_8kg", "ct_lb"] as const;
export type Unidade = (typeof UNIDADES)[number];

/**
 * Each unit as the sources print it: `nome` for pages, `sufixo` after a price ("R$ 12,35/kg"),
 * `por` for forms, `descricao` for the schema (npm run gerar writes it into common.schema.json).
 */
export const UNIDADE_INFO: Record<Unidade, { nome: string; sufixo: string; por: string; descricao: string; emCentavos?: true }> = {
  "@": { nome: "arroba (15 kg de carcaça)", sufixo: "/@", por: "por arroba", descricao: "arroba, 15 kg de carcaça" },
  kg: { nome: "quilo", sufixo: "/kg", por: "por kg", descricao: "quilo (de peso vivo no boi do RS e na reposição, de carcaça ou de produto nos outros: a região de cada série diz)" },
  sc60kg: { nome: "saca de 60 kg", sufixo: "/sc 60 kg", por: "por saca de 60 kg", descricao: "saca de 60 kg" },
  cabeca: { nome: "cabeça", sufixo: "/cabeça", por: "por cabeça", descricao: "por cabeça" },
  sc50kg: { nome: "saca de 50 kg", sufixo: "/sc 50 kg", por: "por saca de 50 kg", descricao: "saca de 50 kg" },
  t: { nome: "tonelada", sufixo: "/t", por: "por tonelada", descricao: "tonelada" },
  cx40_8kg: { nome: "caixa de 40,8 kg", sufixo: "/cx 40,8 kg", por: "por caixa de 40,8 kg", descricao: "caixa de 40,8 kg (laranja)" },
  // CEPEA's cotton indicator is in centavos of real per pound: "valor" is then centavos, not reais
  ct_lb: { nome: "centavos de real por libra-peso", sufixo: " centavos de R$/lb", por: "por libra-peso", descricao: "centavos de real por libra-peso (algodão)", emCentavos: true },
};

/**
 * How a product is sold, which decides what a sale simulation asks for: cattle by the arroba of
 * carcass (head count, live weight, carcass yield), animals by the head (head count), grain by
 * the 60 kg sack (sacks). `sem_simulacao`: published, but the simulator does not sell it.
 */
export const TIPOS_PRODUTO = ["gado_arroba", "cabeca", "grao_saca", "sem_simulacao"] as const;
export type TipoProduto = (typeof TIPOS_PRODUTO)[number];

/** The keys of the aggregate cotacao.json (fixed by the v1 contract). */
export type AggregateKey = "boi_gordo_cepea_sp" | "vaca_gorda" | "soja" | "milho" | "bezerro_ms";

export interface ProdutoInfo {
  nome: string;
  tipo: TipoProduto;
  /** unit of the national reference */
  unidade: Unidade;
  /** plausible range per unit, in R$ (outside it a page is rejected, not published) */
  faixa: Partial<Record<Unidade, readonly [number, number]>>;
  /**
   * largest accepted change from the last stored day, in percent, before a page is held for
   * review; after a gap it widens (check/gates.ts: jumpLimitPct), never beyond 3 times this
   */
  saltoMaximoPct: number;
  /**
   * largest accepted revision of a day already published, in percent of the published value,
   * for every money field of the day (and in percentage points for Scot's base_sp). CEPEA's
   * real revisions are centavos; Scot re-quotes a day by a real or two at most.
   */
  revisaoMaximaPct: number;
  /**
   * the payment term of the headline price (`valor`) when it is not cash ("à vista"): Scot's
   * Boi China is quoted only a prazo, 30 days
   */
  prazo?: string;
  /**
   * the aggregate cotacao.json shows this product's national series under `chave`; `rotulo`
   * names it in the aggregate's `fonte` ("CEPEA/ESALQ (boi gordo SP, ...)"); `praca` is a text
   * field the contract puts right after the value
   */
  agregado?: { chave: AggregateKey; rotulo: string; praca?: { chave: string; texto: string } };
  /**
   * the state aggregates cotacao/uf/{UF}.json show this product's state series under `chave`;
   * `rotulo` names it in their `fonte` ("Scot Consultoria (boi e vaca gorda MS)")
   */
  agregadoUf?: { chave: string; rotulo: string };
}

const PRODUTOS_DECLARADOS = {
  boi_gordo: {
    nome: "Boi gordo",
    tipo: "gado_arroba",
    unidade: "@",
    faixa: { "@": [100, 1000], kg: [4, 60] },
    saltoMaximoPct: 10,
    revisaoMaximaPct: 1.5,
    agregado: { chave: "boi_gordo_cepea_sp", rotulo: "boi gordo SP", praca: { chave: "boi_gordo_praca", texto: "Estado de São Paulo (Indicador CEPEA/ESALQ)" } },
    agregadoUf: { chave: "boi_gordo_uf", rotulo: "boi" },
  },
  vaca_gorda: {
    nome: "Vaca gorda",
    tipo: "gado_arroba",
    unidade: "@",
    faixa: { "@": [100, 1000], kg: [4, 60] },
    saltoMaximoPct: 10,
    revisaoMaximaPct: 1.5,
    agregado: { chave: "vaca_gorda", rotulo: "vaca gorda SP" },
    agregadoUf: { chave: "vaca_gorda_uf", rotulo: "vaca gorda" },
  },
  soja: {
    nome: "Soja",
    tipo: "grao_saca",
    unidade: "sc60kg",
    faixa: { sc60kg: [40, 500] },
    saltoMaximoPct: 10,
    revisaoMaximaPct: 1,
    agregado: { chave: "soja", rotulo: "soja Paranaguá" },
  },
  milho: {
    nome: "Milho",
    tipo: "grao_saca",
    unidade: "sc60kg",
    faixa: { sc60kg: [15, 250] },
    saltoMaximoPct: 12,
    revisaoMaximaPct: 1,
    agregado: { chave: "milho", rotulo: "milho Campinas" },
  },
  bezerro: {
    nome: "Bezerro",
    tipo: "cabeca",
    unidade: "cabeca",
    // CEPEA's MS indicator, per head, only: Datagro's per-kg calf is bezerro_reposicao, so that
    // `bezerro` has one unit and its national series answers for MS
    faixa: { cabeca: [500, 15000] },
    saltoMaximoPct: 12,
    revisaoMaximaPct: 1.5,
    agregado: { chave: "bezerro_ms", rotulo: "bezerro MS" },
  },
  // ---- Scot Consultoria's other tables ----
  novilha_gorda: {
    nome: "Novilha gorda",
    tipo: "gado_arroba",
    unidade: "@",
    // as boi and vaca gorda: same praças, same units (RS per kg of live weight); the recorded
    // table (05/08/2026) runs 286,50–341,00 R$/@ and 12,10–12,20 R$/kg
    faixa: { "@": [100, 1000], kg: [4, 60] },
    saltoMaximoPct: 10,
    revisaoMaximaPct: 1.5,
  },
  boi_china: {
    // Scot's "Boi China a Prazo": steers for China (at most four permanent teeth, under 30
    // months), a 30-day price only; recorded 05/08/2026: 328,00–355,00 R$/@
    nome: "Boi China (a prazo)",
    prazo: "a prazo (30 dias)",
    tipo: "gado_arroba",
    unidade: "@",
    faixa: { "@": [100, 1000] },
    saltoMaximoPct: 10,
    revisaoMaximaPct: 1.5,
  },
  // ---- reposição (Datagro) ----
  // Datagro's reposição Nelore macho, R$ per kg of live weight by state (sources/datagro.ts): the
  // recorded page (26/01–06/02/2026) runs 11,76–25,13 R$/kg; the range is the per-kg cattle
  // range; the state quotes move up to 12,84 % in a day there, so jumps up to 15 %; revisions
  // as the bezerro's (the series repeat these bounds: LIMITES_REPOSICAO in sources/datagro.ts)
  bezerro_desmama: {
    // "Desmama": the weaned calf, the youngest category
    nome: "Bezerro de desmama",
    tipo: "sem_simulacao",
    unidade: "kg",
    faixa: { kg: [4, 60] },
    saltoMaximoPct: 15,
    revisaoMaximaPct: 1.5,
  },
  bezerro_reposicao: {
    // Datagro's "Bezerro" column, per kg of live weight by state: not the national bezerro
    // (CEPEA's MS indicator, per head), so a product of its own, like the other reposição columns
    nome: "Bezerro (reposição)",
    tipo: "sem_simulacao",
    unidade: "kg",
    faixa: { kg: [4, 60] },
    saltoMaximoPct: 15,
    revisaoMaximaPct: 1.5,
  },
  garrote: {
    // the young steer, between bezerro and boi magro
    nome: "Garrote",
    tipo: "sem_simulacao",
    unidade: "kg",
    faixa: { kg: [4, 60] },
    saltoMaximoPct: 15,
    revisaoMaximaPct: 1.5,
  },
  boi_magro: {
    // the lean steer, ready for finishing
    nome: "Boi magro",
    tipo: "sem_simulacao",
    unidade: "kg",
    faixa: { kg: [4, 60] },
    saltoMaximoPct: 15,
    revisaoMaximaPct: 1.5,
  },
  // ---- CEPEA's other indicators ----
  // Ranges: the recorded pages' own values (test/fixtures/cepea/*.html, 17/08–04/09/2026) with
  // wide margins (about a third below the lowest to three times the highest), so they catch a
  // misread column or unit, not the market. Jumps: the largest daily move on the page, times 3 or
  // more. Revisions: CEPEA revises by centavos, as for its other indicators.
  boi_gordo_prazo: {
    // "Boi Gordo - Média a Prazo Estado de São Paulo": 346,21–351,65 R$/@ (the cash indicator's range)
    nome: "Boi gordo a prazo",
    prazo: "média a prazo (CDI de 30 dias)",
    tipo: "sem_simulacao",
    unidade: "@",
    faixa: { "@": [100, 1000] },
    saltoMaximoPct: 10,
    revisaoMaximaPct: 1.5,
  },
  trigo: {
    // PR 1.419,11–1.457,92 and RS 1.318,09–1.359,38 R$/t; largest daily move 1,75%
    nome: "Trigo",
    tipo: "sem_simulacao",
    unidade: "t",
    faixa: { t: [400, 5000] },
    saltoMaximoPct: 10,
    revisaoMaximaPct: 1.5,
  },
  arroz: {
    // 58% inteiros: 73,81–79,07 R$/sc 50 kg; largest daily move 2,91%
    nome: "Arroz em casca (58% de grãos inteiros)",
    tipo: "sem_simulacao",
    unidade: "sc50kg",
    faixa: { sc50kg: [20, 300] },
    saltoMaximoPct: 10,
    revisaoMaximaPct: 1.5,
  },
  arroz_alto_rendimento: {
    // 59% a 62% inteiros ("alto rendimento" de grãos inteiros; series ids take no digits:
    // ^[a-z_]+ in the schemas): 75,43–80,16 R$/sc 50 kg; largest daily move 2,40%
    nome: "Arroz em casca (59% a 62% de grãos inteiros)",
    tipo: "sem_simulacao",
    unidade: "sc50kg",
    faixa: { sc50kg: [20, 300] },
    saltoMaximoPct: 10,
    revisaoMaximaPct: 1.5,
  },
  cafe_arabica: {
    // 1.659,93–1.826,58 R$/sc 60 kg; coffee is volatile (-3,22% in one day on the page)
    nome: "Café arábica",
    tipo: "grao_saca",
    unidade: "sc60kg",
    faixa: { sc60kg: [300, 6000] },
    saltoMaximoPct: 15,
    revisaoMaximaPct: 1.5,
  },
  cafe_robusta: {
    // 976,71–1.075,11 R$/sc 60 kg; largest daily move 2,10%
    nome: "Café robusta",
    tipo: "grao_saca",
    unidade: "sc60kg",
    faixa: { sc60kg: [200, 4000] },
    saltoMaximoPct: 15,
    revisaoMaximaPct: 1.5,
  },
  algodao: {
    // centavos de R$ per pound: 420,68–444,82; largest daily move 1,91%
    nome: "Algodão em pluma",
    tipo: "sem_simulacao",
    unidade: "ct_lb",
    faixa: { ct_lb: [100, 1500] },
    saltoMaximoPct: 10,
    revisaoMaximaPct: 1.5,
  },
  acucar_cristal_sp: {
    // 99,94–116,79 R$/sc 50 kg (up 24% in the month before); largest daily move 2,42%
    nome: "Açúcar cristal branco (SP)",
    tipo: "sem_simulacao",
    unidade: "sc50kg",
    faixa: { sc50kg: [30, 400] },
    saltoMaximoPct: 10,
    revisaoMaximaPct: 1.5,
  },
  acucar_santos: {
    // 122,13–131,07 R$/sc 50 kg; largest daily move -3,69%
    nome: "Açúcar cristal (Santos, FOB)",
    tipo: "sem_simulacao",
    unidade: "sc50kg",
    faixa: { sc50kg: [30, 400] },
    saltoMaximoPct: 12,
    revisaoMaximaPct: 1.5,
  },
  laranja_industria: {
    // 30,73–31,30 R$/cx 40,8 kg; CEPEA once replaced a week of these values (note of 09/06/2022)
    nome: "Laranja indústria",
    tipo: "sem_simulacao",
    unidade: "cx40_8kg",
    faixa: { cx40_8kg: [5, 150] },
    saltoMaximoPct: 15,
    revisaoMaximaPct: 2,
  },
  laranja_pera: {
    // 30,66–31,97 R$/cx 40,8 kg; largest daily move -3,13%
    nome: "Laranja pera in natura",
    tipo: "sem_simulacao",
    unidade: "cx40_8kg",
    faixa: { cx40_8kg: [5, 150] },
    saltoMaximoPct: 15,
    revisaoMaximaPct: 2,
  },
  laranja_industria_precoce: {
    // 24,60–26,00 R$/cx 40,8 kg; largest daily move 5,39%
    nome: "Laranja indústria precoce",
    tipo: "sem_simulacao",
    unidade: "cx40_8kg",
    faixa: { cx40_8kg: [5, 150] },
    saltoMaximoPct: 15,
    revisaoMaximaPct: 2,
  },
  frango_congelado: {
    // 7,17–7,61 R$/kg (wholesale); largest daily move 2,45%
    nome: "Frango congelado",
    tipo: "sem_simulacao",
    unidade: "kg",
    faixa: { kg: [2, 30] },
    saltoMaximoPct: 10,
    revisaoMaximaPct: 1.5,
  },
  frango_resfriado: {
    // 7,18–7,61 R$/kg (wholesale); largest daily move 2,59%
    nome: "Frango resfriado",
    tipo: "sem_simulacao",
    unidade: "kg",
    faixa: { kg: [2, 30] },
    saltoMaximoPct: 10,
    revisaoMaximaPct: 1.5,
  },
  suino_vivo: {
    // 4,42–5,02 R$/kg live weight by state (the page's monthly table: 4,58–9,26 in a year)
    nome: "Suíno vivo",
    tipo: "sem_simulacao",
    unidade: "kg",
    faixa: { kg: [1.5, 25] },
    saltoMaximoPct: 10,
    revisaoMaximaPct: 1.5,
  },
  suino_carcaca: {
    // carcaça especial, 7,16–7,38 R$/kg (wholesale, Grande São Paulo); largest daily move -2,05%
    nome: "Carcaça suína especial",
    tipo: "sem_simulacao",
    unidade: "kg",
    faixa: { kg: [2, 35] },
    saltoMaximoPct: 10,
    revisaoMaximaPct: 1.5,
  },
} as const satisfies Record<string, ProdutoInfo>;

/** The shipped products' ids (the type); a product registered at run time (tests) is cast to it. */
export type Produto = keyof typeof PRODUTOS_DECLARADOS;

/** Every product, in catalogue order (live: registrarProduto appends). */
export const PRODUTOS: readonly Produto[] = Object.keys(PRODUTOS_DECLARADOS) as Produto[];

/**
 * What a slaughter settlement (romaneio de abate) sells, by the sex of its animals: the product
 * whose reference price it is compared with (pipeline/romaneio/ler.ts).
 */
export const ABATE_POR_SEXO: Readonly<Record<"M" | "F", Produto>> = { M: "boi_gordo", F: "vaca_gorda" };

/** Each product's traits (live: registrarProduto adds). */
export const PRODUTO_INFO: Readonly<Record<Produto, ProdutoInfo>> = { ...PRODUTOS_DECLARADOS };

/**
 * Adds a product at run time, for a test that proves the catalogue drives everything (a product
 * of an existing kind needs nothing else). Shipped products are declared above.
 */
export function registrarProduto(id: string, info: ProdutoInfo): void {
  if (!/^[a-z][a-z_]*[a-z]$/.test(id)) throw new Error(`produto "${id}": use letras minúsculas e _`);
  if (isProduto(id)) throw new Error(`produto "${id}" já existe`);
  (PRODUTOS as string[]).push(id);
  (PRODUTO_INFO as Record<string, ProdutoInfo>)[id] = info;
  mudancasDosProdutos++;
}

let mudancasDosProdutos = 0;

/** Changes each time a product is added or removed at run time (what was checked with the old ones is checked again). */
export function edicaoDosProdutos(): number {
  return mudancasDosProdutos;
}

/** Removes a product registered with registrarProduto (tests clean up after themselves). */
export function removerProduto(id: string): void {
  if (id in PRODUTOS_DECLARADOS) throw new Error(`produto "${id}" é declarado, não registrado`);
  const i = (PRODUTOS as string[]).indexOf(id);
  if (i >= 0) (PRODUTOS as string[]).splice(i, 1);
  delete (PRODUTO_INFO as Record<string, ProdutoInfo>)[id];
  mudancasDosProdutos++;
}

/** The payment term of a product's headline price: "à vista" unless it declares another. */
export function prazoDoValor(p: string): string {
  return (isProduto(p) ? PRODUTO_INFO[p].prazo : undefined) ?? "à vista";
}

export function isProduto(value: string): value is Produto {
  return (PRODUTOS as readonly string[]).includes(value);
}

/** The products sold as `tipo`, by name ("boi gordo e vaca gorda"), for messages. */
export function nomesDoTipo(tipo: TipoProduto): string {
  const nomes = PRODUTOS.filter((p) => PRODUTO_INFO[p].tipo === tipo).map((p) => PRODUTO_INFO[p].nome.toLowerCase());
  return nomes.length <= 1 ? (nomes[0] ?? "") : `${nomes.slice(0, -1).join(", ")} e ${nomes[nomes.length - 1]}`;
}

/** The aggregate's keys and the product each one shows, in catalogue order. */
export function agregados(): Array<{ chave: AggregateKey; produto: Produto; rotulo: string; praca?: { chave: string; texto: string } }> {
  return PRODUTOS.flatMap((p) => {
    const a = PRODUTO_INFO[p].agregado;
    return a ? [{ ...a, produto: p }] : [];
  });
}

/** The state aggregates' quote keys and the product each one shows, in catalogue order. */
export function agregadosUf(): Array<{ chave: string; produto: Produto; rotulo: string }> {
  return PRODUTOS.flatMap((p) => {
    const a = PRODUTO_INFO[p].agregadoUf;
    return a ? [{ ...a, produto: p }] : [];
  });
}
