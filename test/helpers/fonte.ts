import type { SourceDef } from "../../pipeline/sources/types.ts";

/**
 * A made-up source for a test that registers one at run time (registrarFonte): its pages, and
 * the rest as a real source declares it (name, site, the environment variable of its base URL,
 * terms), overridable.
 */
export function fonteDeTeste(id: string, pages: SourceDef["pages"], extra: Partial<Omit<SourceDef, "id" | "pages">> = {}): SourceDef {
  return {
    id: id as SourceDef["id"],
    nome: "Fonte de Teste",
    nomeCurto: "Teste",
    site: "https://teste.example",
    baseUrlEnv: `COTACAO_${id.toUpperCase()}_URL`,
    maxIdadeDias: 5,
    termos: { licenca: "CC0", citacao: "Fonte de Teste", texto: "Dados de teste, domínio público.", url: "https://teste.example/termos" },
    pages,
    ...extra,
  };
}
