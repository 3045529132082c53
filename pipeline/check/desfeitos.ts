import { formatDateBR } from "../domain/dates.ts";
import { formatDecimalBR } from "../domain/money.ts";
import type { SeriesUpdate } from "../history/assemble.ts";
import { DESFEITOS_FILE, valorDoCampo, type Desfeito } from "../history/desfeitos.ts";

/**
 * A page (or a backfill's file) that brings back exactly a value `npm run desfazer` took off the
 * site, for that day of that series (history/desfeitos.ts), is refused as a whole, as a page with
 * any other wrong value is: the source still shows the wrong number. A different value for the
 * day is the source's correction and passes. Returns the reasons; empty when it passes.
 */
export function checkDesfeitos(
  updates: readonly SeriesUpdate[],
  desfeitos: readonly Desfeito[],
  /** what was not merged, in the message: the page, or a backfill's file */
  de: "desta página" | "do arquivo" = "desta página",
): string[] {
  if (desfeitos.length === 0) return [];
  const problems: string[] = [];
  for (const u of updates) {
    const daSerie = desfeitos.filter((d) => d.serie === u.def.id);
    if (daSerie.length === 0) continue;
    for (const e of u.entries) {
      for (const d of daSerie) {
        if (d.data !== e.data || valorDoCampo(e, d.campo) !== d.valor) continue;
        const curto = d.commit.slice(0, 12);
        const onde = d.campo === "valor" ? "" : ` (${d.campo})`;
        problems.push(
          `${u.def.id} em ${formatDateBR(d.data)}: a fonte ainda traz ${formatDecimalBR(d.valor)}${onde}, o valor que npm run desfazer -- ${curto} tirou do site como errado ` +
            `(${DESFEITOS_FILE}); nada ${de} foi mesclado, e o dia fica como está até a fonte corrigi-lo (um valor diferente entra normalmente). ` +
            `Se ${formatDecimalBR(d.valor)} estava certo, apague de ${DESFEITOS_FILE}, na raiz do repositório, a entrada {"serie": "${d.serie}", "data": "${d.data}", "campo": "${d.campo}", ...} ` +
            `e faça commit de ${DESFEITOS_FILE}; a próxima atualização (ou importação) o publica`,
        );
      }
    }
  }
  return problems;
}
