import type { AvisoRomaneio, LeituraRomaneio } from "../domain/publicados.gerados.ts";

/** One word as the OCR read it, with its confidence (0..1) and the index of its line in `texto.split("\n")`. */
export interface PalavraOcr {
  texto: string;
  confianca: number;
  linha: number;
}

/** The text of a document: from OCR (with word confidences), a PDF text layer, or typed. */
export interface TextoLido {
  texto: string;
  origem: "ocr" | "pdf_texto" | "texto";
  palavras?: PalavraOcr[];
}

/** Below this a field is shown as doubtful. */
export const CONFIANCA_MINIMA = 0.6;

/** Work in progress: the full reader replaces this. */
export function lerRomaneio(t: TextoLido): LeituraRomaneio {
  void t;
  return { tipo: null, data: null, produto: null, uf: null, municipio: null, comprador: null, vendedor: null, linhas: [], totais: null, confianca: {}, avisos: [] };
}

export function conferirLeitura(l: LeituraRomaneio): AvisoRomaneio[] {
  void l;
  return [];
}
