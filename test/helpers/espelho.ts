import { copyFile, mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { mirrorFile } from "../../pipeline/fetch/record.ts";
import { naMilho } from "../../pipeline/sources/noticias-agricolas.ts";
import { editPage, FIXTURES } from "./pipeline.ts";

/** A variation as Notícias Agrícolas prints it: sign, two decimals, decimal comma. */
const variacao = (de: number, para: number) => {
  const v = (para / de - 1) * 100;
  return `${v >= 0 ? "+" : ""}${v.toFixed(2).replace(".", ",")}`;
};

/**
 * The step two tests share, in a replay directory where milho's CEPEA page was read before:
 * CEPEA's own page is gone and Notícias Agrícolas' copy says `valor` for 04/09/2026 (70,93 on the
 * recording), with the variations it prints on 04/09 (against 03/09's 71,06) and on 08/09 (70,90
 * against the new value) made to agree with it, as a revision republished whole would be.
 */
export async function milhoRevistoPeloEspelho(dir: string, valor: number): Promise<void> {
  await rm(join(dir, "cepea/milho.html"));
  await mkdir(join(dir, "noticias-agricolas"), { recursive: true });
  await copyFile(mirrorFile(FIXTURES, naMilho), mirrorFile(dir, naMilho));
  const reais = valor.toFixed(2).replace(".", ",");
  await editPage(dir, "noticias-agricolas/indicador-cepea-esalq-milho.html", (h) =>
    h
      .replace(/(<td>04\/09\/2026<\/td>\s*<td>)70,93(<\/td>\s*<td>)-0,18/, `$1${reais}$2${variacao(71.06, valor)}`)
      .replace(/(<td>08\/09\/2026<\/td>\s*<td>70,90<\/td>\s*<td>)-0,04%/, `$1${variacao(valor, 70.9)}%`),
  );
}
