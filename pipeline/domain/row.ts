import { z } from "zod";
import { hasAtMostTwoDecimals } from "./money.ts";
import { isProduto, UNIDADES } from "./products.ts";
import { ALL_UFS } from "./ufs.ts";

const money = z.number().finite().refine(hasAtMostTwoDecimals, "valor com mais de duas casas decimais");

/**
 * One price as a source publishes it: what every parser returns. `uf: null` is the national
 * reference of the product; `praca` is set for sources quoted per praça (Scot).
 */
export const PriceRowSchema = z.strictObject({
  // ids are checked against the live catalogue (a product registered at run time is valid too)
  fonte: z.string().regex(/^[a-z][a-z0-9-]*$/),
  produto: z.string().refine(isProduto, "produto fora do catálogo (domain/products.ts)"),
  uf: z.enum(ALL_UFS as [string, ...string[]]).nullable(),
  // a name is text from the source's page: one that starts with "=", "+", "-" or "@" is no
  // praça's, and in the Excel files it would be a formula (CSV injection)
  praca: z
    .string()
    .regex(/^[\p{L}\p{N}]/u, "o nome da praça tem de começar por uma letra ou um algarismo (um nome que começa por =, +, - ou @ seria uma fórmula no Excel)")
    .nullable(),
  data: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  valor: money.positive(),
  unidade: z.enum(UNIDADES),
  /** the other columns the source publishes for the same row, in the source's order */
  extras: z.record(z.string(), z.union([money, z.string()])),
  /** a footnote the source attaches to this row (e.g. "Região de Cuiabá, inclui Rondonópolis") */
  nota: z.string().optional(),
});

export type PriceRow = Omit<z.infer<typeof PriceRowSchema>, "fonte" | "produto" | "uf"> & {
  fonte: Fonte;
  produto: import("./products.ts").Produto;
  uf: import("./ufs.ts").UF | null;
};

/**
 * A source's id: the type generated from the schemas' enum, which `npm run gerar` writes from
 * the sources of the catalogue (pipeline/sources/index.ts), so a new source is declared once.
 */
export type { Fonte } from "./publicados.gerados.ts";
import type { Fonte } from "./publicados.gerados.ts";

/**
 * The columns Scot's "Mercado Físico" publishes besides the gross à vista price, in the order
 * they are written everywhere (rows, praças, history): 30 days, basis to SP, with Funrural,
 * with Senar, trend arrow.
 */
export const EXTRAS_PRACA = ["valor_30d", "base_sp", "funrural_avista", "funrural_30d", "senar_avista", "senar_30d", "tendencia"] as const;
