export const PRODUTOS = ["boi_gordo", "vaca_gorda", "soja", "milho", "bezerro"] as const;
export type Produto = (typeof PRODUTOS)[number];

export const UNIDADES = ["@", "kg", "sc60kg", "cabeca"] as const;
export type Unidade = (typeof UNIDADES)[number];

export interface ProdutoInfo {
  nome: string;
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
}

export const PRODUTO_INFO: Record<Produto, ProdutoInfo> = {
  boi_gordo: { nome: "Boi gordo", unidade: "@", faixa: { "@": [100, 1000], kg: [4, 60] }, saltoMaximoPct: 10, revisaoMaximaPct: 1.5 },
  vaca_gorda: { nome: "Vaca gorda", unidade: "@", faixa: { "@": [100, 1000], kg: [4, 60] }, saltoMaximoPct: 10, revisaoMaximaPct: 1.5 },
  soja: { nome: "Soja", unidade: "sc60kg", faixa: { sc60kg: [40, 500] }, saltoMaximoPct: 10, revisaoMaximaPct: 1 },
  milho: { nome: "Milho", unidade: "sc60kg", faixa: { sc60kg: [15, 250] }, saltoMaximoPct: 12, revisaoMaximaPct: 1 },
  bezerro: { nome: "Bezerro", unidade: "cabeca", faixa: { cabeca: [500, 15000] }, saltoMaximoPct: 12, revisaoMaximaPct: 1.5 },
};

export const UNIDADE_INFO: Record<Unidade, { nome: string; sufixo: string }> = {
  "@": { nome: "arroba (15 kg de carcaça)", sufixo: "/@" },
  kg: { nome: "quilo", sufixo: "/kg" },
  sc60kg: { nome: "saca de 60 kg", sufixo: "/sc 60 kg" },
  cabeca: { nome: "cabeça", sufixo: "/cabeça" },
};

export function isProduto(value: string): value is Produto {
  return (PRODUTOS as readonly string[]).includes(value);
}
