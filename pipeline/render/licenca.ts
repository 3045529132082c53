/**
 * The repository's LICENSE and CITATION.cff, written from the catalogue's sources and the site's
 * URLs, so they cannot drift from what the files say: the root copies are checked against these
 * (test/dados/licenca.test.ts) and the site publishes them as rendered (public/LICENSE,
 * public/CITATION.cff).
 */
import { LICENCA_COMPILACAO, PROJECT_NAME, type FonteComTermos } from "../domain/license.ts";
import { PROJECT_URL, SITE_URL } from "../domain/site.ts";
import { LICENCA_COMPILACAO_URL } from "./datapackage.ts";

export interface FonteDaLicenca extends FonteComTermos {
  site: string;
  termos: FonteComTermos["termos"] & { url: string };
}

export const LICENSE_PATH = "LICENSE";
export const CITATION_PATH = "CITATION.cff";

/** LICENSE: the compilation and the code under CC BY 4.0; the numbers under each source's terms. */
export function licencaTexto(fontes: readonly FonteDaLicenca[]): string {
  const linhas = [
    `${PROJECT_NAME}`,
    "",
    `Copyright (c) colaboradores do ${PROJECT_NAME} (${PROJECT_URL})`,
    "",
    `O código deste repositório e a compilação dos dados (seleção, estrutura, arquivos JSON e CSV,`,
    `descrições e esquemas) estão licenciados sob a Creative Commons Atribuição 4.0 Internacional`,
    `(${LICENCA_COMPILACAO}). Cite "${PROJECT_NAME}" e o endereço ${SITE_URL}.`,
    `Texto legal: ${LICENCA_COMPILACAO_URL}`,
    `(em inglês: https://creativecommons.org/licenses/by/4.0/legalcode)`,
    "",
    "OS NÚMEROS (os preços e as suas datas) NÃO são nossos: continuam sob os termos de cada fonte,",
    "que valem também para quem os obtém daqui. Antes de republicar, leia os termos da fonte:",
    "",
    ...fontes.flatMap((s) => [`- ${s.nome} (${s.site})`, `  Termos: ${s.termos.licenca}. ${s.termos.texto}`, `  Cite: "${s.termos.citacao}". ${s.termos.url}`, ""]),
    "Os mesmos termos estão em api/v1/index.json (fontes) e, por arquivo, em api/v1/datapackage.json",
    "(licenses de cada recurso).",
    "",
    "---",
    "",
    `The code and the data compilation are licensed under ${LICENCA_COMPILACAO} (${LICENCA_COMPILACAO_URL}).`,
    "The numbers remain under each source's own terms, listed above.",
  ];
  return linhas.join("\n") + "\n";
}

const y = (s: string) => JSON.stringify(s);

/** CITATION.cff (Citation File Format 1.2.0) of the dataset. */
export function citacaoCff(fontes: readonly FonteDaLicenca[]): string {
  const linhas = [
    "cff-version: 1.2.0",
    `message: ${y(`Se usar estes dados, cite "${PROJECT_NAME}" e a fonte original de cada série (veja references).`)}`,
    `title: ${y(`${PROJECT_NAME}: preços de referência do boi, da vaca, do bezerro e dos grãos no Brasil`)}`,
    "type: dataset",
    "authors:",
    `  - name: ${y(`Colaboradores do ${PROJECT_NAME}`)}`,
    `license: ${LICENCA_COMPILACAO}`,
    `repository-code: ${y(PROJECT_URL)}`,
    `url: ${y(SITE_URL)}`,
    `abstract: ${y(`Histórico diário dos preços de referência publicados por ${fontes.map((s) => s.nome).join(", ")}, como API JSON estática e CSV. Os números continuam sob os termos de cada fonte.`)}`,
    "keywords:",
    ...["agropecuária", "boi gordo", "preços", "Brasil"].map((k) => `  - ${y(k)}`),
    "references:",
    ...fontes.flatMap((s) => [
      "  - type: data",
      `    title: ${y(s.nome)}`,
      "    authors:",
      `      - name: ${y(s.termos.citacao)}`,
      `    url: ${y(s.site)}`,
      `    notes: ${y(`${s.termos.licenca}. ${s.termos.texto} Termos: ${s.termos.url}`)}`,
    ]),
  ];
  return linhas.join("\n") + "\n";
}
