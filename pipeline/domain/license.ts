import type { SourceDef } from "../sources/types.ts";

export const PROJECT_NAME = "Cotação Aberta";

/** The compilation (selection, structure, files) is ours to license; the numbers are the sources'. */
export const LICENCA_COMPILACAO = "CC-BY-4.0";

/** Short form, for the small aggregate files (cotacao.json stays under 1 KB). */
export const LICENSE_SHORT =
  "Compilação: CC-BY-4.0, cite \"Cotação Aberta\". Dados CEPEA/ESALQ: CC BY-NC 4.0, cite \"Cepea/Esalq-USP\". " +
  "Dados Scot Consultoria: reprodução requer autorização da Scot. Termos completos em api/v1/index.json.";

export const LICENSE_FULL =
  "Compilação (seleção, estrutura e arquivos) licenciada sob CC-BY-4.0: cite \"Cotação Aberta\". " +
  "Os números continuam sob os termos de cada fonte: dados CEPEA/ESALQ sob CC BY-NC 4.0 (uso não comercial, " +
  "cite \"Cepea/Esalq-USP\"); dados da Scot Consultoria não podem ser reproduzidos sem autorização da Scot " +
  "Consultoria (scotconsultoria@scotconsultoria.com.br).";

/** License line of one series: our compilation plus its source's own terms. */
export function serieLicense(source: SourceDef): string {
  return `Compilação CC-BY-4.0 (cite "Cotação Aberta"); dados: ${source.termos.texto}`;
}
