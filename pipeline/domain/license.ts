/**
 * What the license lines need of a source: its name and terms. Declared here so the domain does
 * not reach into sources/ (a SourceDef of ../sources/types.ts is one).
 */
export interface FonteComTermos {
  nome: string;
  termos: {
    /** SPDX-like id or short name of the source's terms */
    licenca: string;
    /** how the source asks to be cited */
    citacao: string;
    /** the terms in one sentence, pt-BR */
    texto: string;
  };
}

export const PROJECT_NAME = "Cotação Aberta";

/** The compilation (selection, structure, files) is ours to license; the numbers are the sources'. */
export const LICENCA_COMPILACAO = "CC-BY-4.0";

const COMPILACAO = `Compilação: ${LICENCA_COMPILACAO}, cite "${PROJECT_NAME}".`;

/** Short form, for the small aggregate files (cotacao.json stays under 1 KB): every source's terms in brief. */
export function licenseShort(sources: readonly FonteComTermos[]): string {
  const dados = sources.map((s) => `Dados ${s.nome}: ${s.termos.licenca}, cite "${s.termos.citacao}".`);
  return [COMPILACAO, ...dados, "Termos completos em api/v1/index.json."].join(" ");
}

/** Long form, for the catalogue: every source's own terms in full. */
export function licenseFull(sources: readonly FonteComTermos[]): string {
  const dados = sources.map((s) => `${s.nome} (${s.termos.licenca}): ${s.termos.texto}`);
  return (
    `Compilação (seleção, estrutura e arquivos) licenciada sob ${LICENCA_COMPILACAO}: cite "${PROJECT_NAME}". ` +
    `Os números continuam sob os termos de cada fonte. ${dados.join(" ")}`
  );
}

/** License line of one series: our compilation plus its source's own terms. */
export function serieLicense(source: FonteComTermos): string {
  return `Compilação ${LICENCA_COMPILACAO} (cite "${PROJECT_NAME}"); dados: ${source.termos.texto}`;
}
