import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lerRomaneio } from "../../pipeline/romaneio/ler.ts";
import { criarLeitorOcr, type LeitorOcr } from "../../pipeline/romaneio/ocr.ts";
import { DOCUMENTOS } from "./modelos/calculo.ts";
import { diferencas, gerarCorpus, numerosErradosEmSilencio, type DocumentoCorpus } from "./corpus.ts";

/**
 * The whole path on the clean corpus: the real OCR engine (tesseract.js, por best_int, one warm
 * pool for the file) on every PNG and scanned PDF, the PDF text layer through pdf.js, then the
 * reader. Every expected field is read exactly, with no aviso, and no number is ever wrong
 * without the reading saying so.
 */

let docs: DocumentoCorpus[] = [];
let leitor: LeitorOcr;

beforeAll(async () => {
  docs = await gerarCorpus();
  // the engine as the server runs it: a scanned page is rendered at the scan's own resolution
  // (dpiParaOcr); resampled to 200 or 250 dpi, Tesseract split 4 to 6 of the 11 tables into columns
  leitor = criarLeitorOcr({ workers: 2, fila: 64, tempoLimiteMs: 180_000 });
}, 180_000);

afterAll(async () => {
  await leitor?.fechar();
});

describe("corpus", () => {
  it("renders every document of the templates to three files, with its expected fields", async () => {
    expect(docs.map((d) => d.id)).toEqual(DOCUMENTOS.map((d) => d.id));
    expect(new Set(docs.map((d) => d.modelo)).size).toBe(5);
    for (const d of docs) {
      const png = await readFile(d.arquivos.png);
      expect([...png.subarray(1, 4)].map((c) => String.fromCharCode(c)).join("")).toBe("PNG");
      // A4 at 150 dpi
      expect(png.readUInt32BE(16)).toBeGreaterThanOrEqual(1240);
      for (const f of [d.arquivos.pdf, d.arquivos.pdfEscaneado]) expect((await readFile(f)).subarray(0, 5).toString("latin1")).toBe("%PDF-");
      expect(d.esperado.tipo).toBe(d.tipo);
    }
  });

  it("is rendered once: a second call returns the same files", async () => {
    const outra = await gerarCorpus();
    expect(outra.map((d) => d.arquivos)).toEqual(docs.map((d) => d.arquivos));
  });
});

const ARQUIVOS = [
  { chave: "png", tipo: "image/png", origem: "ocr" },
  { chave: "pdf", tipo: "application/pdf", origem: "pdf_texto" },
  { chave: "pdfEscaneado", tipo: "application/pdf", origem: "ocr" },
] as const;

describe.each(ARQUIVOS)("the $chave of every document", ({ chave, tipo, origem }) => {
  for (const d of DOCUMENTOS) {
    it(`${d.id}: every field read exactly, no aviso, no number wrong in silence`, async () => {
      const doc = docs.find((x) => x.id === d.id)!;
      const r = await leitor.ler(new Uint8Array(await readFile(doc.arquivos[chave])), tipo);
      expect(r.origem).toBe(origem);
      const l = lerRomaneio(r);
      expect(numerosErradosEmSilencio(l, doc.esperado)).toEqual([]);
      expect(diferencas(l, doc.esperado)).toEqual([]);
      expect(l.avisos).toEqual([]);
    }, 300_000);
  }
});
