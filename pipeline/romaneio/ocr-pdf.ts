/**
 * The PDF stage of ocr.ts, run in its own worker thread (one per reader slot): parse the file,
 * take its text layer, or render its pages to PNG for Tesseract. pdf.js parses and decodes on
 * the thread that calls it (in Node its "worker" is a fake one, in the same thread), and a small
 * PDF can hold an image that takes seconds and gigabytes to decode: here it blocks only this
 * thread, under the V8 heap limit ocr.ts gives it, and ocr.ts terminates the thread at the
 * file's deadline (a rejected promise alone would let the decoding run on).
 *
 * Protocol: one PedidoPdf at a time in, one RespostaPdf out.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { parentPort } from "node:worker_threads";
import {
  DPI_PDF,
  PAGINAS_MAXIMAS,
  PIXELS_MAXIMOS,
  PIXELS_MAXIMOS_IMAGEM,
  camadaDeTextoBasta,
  dpiParaOcr,
  linhasDoPdf,
  type ItemPdf,
} from "./ocr-comum.ts";

export interface PedidoPdf {
  bytes: Uint8Array;
  /** A fixed resolution for scanned pages (bench), else the scan's own (dpiParaOcr). */
  dpiPdf: number | null;
}

export type RespostaPdf =
  | { ok: true; paginas: number; linhas: string[][] }
  | { ok: true; paginas: number; imagens: Uint8Array[] }
  | { ok: false; codigo: "pdf_invalido" | "arquivo_invalido"; motivo: string };

const require = createRequire(import.meta.url);
const DIR_PDFJS = dirname(require.resolve("pdfjs-dist/package.json"));
/** pdf.js's warning when it leaves out an image larger than maxImageSize. */
const IMAGEM_GRANDE = /exceeded maximum allowed size/;

// pdf.js reports through console.warn (verbosity 1); this thread's warnings are read here, never
// printed (they may quote the file). With stopAtErrors on, pdf.js swallows the too-large image's
// error and returns an empty page (no warning, nothing drawn): so errors are off, as on the page
// (ocr-navegador.ts), and the warning is what tells the image was left out.
let imagemGrande = false;
console.warn = (...args: unknown[]) => {
  if (IMAGEM_GRANDE.test(String(args[0]))) imagemGrande = true;
};

const lib = await import("pdfjs-dist/legacy/build/pdf.mjs");

/** The options of getDocument, also used by the bench. */
export function opcoesDoPdf(bytes: Uint8Array) {
  return {
    data: bytes,
    isEvalSupported: false,
    useSystemFonts: false,
    disableFontFace: true,
    stopAtErrors: false,
    verbosity: 1, // warnings: see console.warn above

    // a decompression bomb (a 30000 × 30000 FlateDecode image in an 875 KB file) is refused
    // before it is decoded
    maxImageSize: PIXELS_MAXIMOS_IMAGEM,
    // without it pdf.js measures the largest canvas by trial (OffscreenCanvas); 4 bytes a pixel
    canvasMaxAreaInBytes: PIXELS_MAXIMOS * 4,
    standardFontDataUrl: join(DIR_PDFJS, "standard_fonts") + "/",
    cMapUrl: join(DIR_PDFJS, "cmaps") + "/",
    cMapPacked: true,
    // OpenJPEG (JPEG 2000 scans, /JPXDecode) and JBIG2 decoders: without it pdf.js 5 looks for
    // "nullopenjpeg.wasm" and such a page renders blank
    wasmUrl: join(DIR_PDFJS, "wasm") + "/",
  };
}

class Recusa extends Error {
  constructor(
    readonly codigo: "pdf_invalido" | "arquivo_invalido",
    readonly motivo: string,
  ) {
    super(motivo);
  }
}

const grande = () =>
  new Recusa("arquivo_invalido", `o PDF contém uma imagem grande demais (mais de ${PIXELS_MAXIMOS_IMAGEM / 1e6} megapixels)`);

async function lerPdf({ bytes, dpiPdf }: PedidoPdf): Promise<RespostaPdf> {
  imagemGrande = false;
  const tarefa = lib.getDocument(opcoesDoPdf(bytes));
  try {
    let doc;
    try {
      doc = await tarefa.promise;
    } catch (e) {
      const nome = (e as { name?: string }).name;
      throw new Recusa("pdf_invalido", nome === "PasswordException" ? "o PDF está protegido por senha" : "o PDF está corrompido, incompleto ou não é um PDF");
    }
    if (doc.numPages < 1) throw new Recusa("pdf_invalido", "o PDF não tem páginas");
    const paginas = Math.min(doc.numPages, PAGINAS_MAXIMAS);
    const linhas: string[][] = [];
    try {
      for (let p = 1; p <= paginas; p++) {
        const conteudo = await (await doc.getPage(p)).getTextContent();
        linhas.push(linhasDoPdf(conteudo.items as ItemPdf[]));
      }
    } catch {
      throw new Recusa("pdf_invalido", "uma página do PDF não pôde ser lida");
    }
    if (camadaDeTextoBasta(linhas.flat().join("\n"), paginas)) return { ok: true, paginas, linhas };

    // a scan: each page rendered at the scan's own resolution (at most PIXELS_MAXIMOS pixels)
    const imagens: Uint8Array[] = [];
    for (let p = 1; p <= paginas; p++) {
      try {
        const pagina = await doc.getPage(p);
        const base = pagina.getViewport({ scale: 1 });
        let dpi = dpiPdf ?? DPI_PDF;
        if (dpiPdf === null) {
          const ops = await pagina.getOperatorList();
          const larguras: number[] = [];
          ops.fnArray.forEach((fn, k) => {
            // args of a painted image: [objId, width, height]
            if (fn === lib.OPS.paintImageXObject || fn === lib.OPS.paintInlineImageXObject) larguras.push(Number((ops.argsArray[k] as unknown[])[1]));
          });
          dpi = dpiParaOcr(base.width, larguras);
          if (imagemGrande) throw grande();
        }
        let escala = dpi / 72;
        const px = base.width * base.height * escala * escala;
        if (px > PIXELS_MAXIMOS) escala *= Math.sqrt(PIXELS_MAXIMOS / px);
        const viewport = pagina.getViewport({ scale: escala });
        const w = Math.max(1, Math.floor(viewport.width));
        const h = Math.max(1, Math.floor(viewport.height));
        const fabrica = doc.canvasFactory as {
          create(w: number, h: number): { canvas: { toBuffer(mime: string): Buffer }; context: unknown };
          destroy(c: unknown): void;
        };
        const alvo = fabrica.create(w, h);
        const ctx = alvo.context as CanvasRenderingContext2D;
        ctx.fillStyle = "#ffffff"; // transparent pixels would read as black
        ctx.fillRect(0, 0, w, h);
        await pagina.render({ canvas: alvo.canvas as unknown as HTMLCanvasElement, canvasContext: ctx, viewport }).promise;
        if (imagemGrande) throw grande();
        // a copy with a buffer of its own, transferred to the main thread without copying again
        imagens.push(new Uint8Array(alvo.canvas.toBuffer("image/png")));
        fabrica.destroy(alvo);
        pagina.cleanup();
      } catch (e) {
        if (e instanceof Recusa) throw e;
        throw new Recusa("pdf_invalido", "uma página do PDF não pôde ser desenhada para o OCR");
      }
    }
    return { ok: true, paginas, imagens };
  } finally {
    await tarefa.destroy().catch(() => {});
  }
}

parentPort?.on("message", (pedido: PedidoPdf) => {
  lerPdf(pedido).then(
    (r) => parentPort!.postMessage(r, "imagens" in r ? r.imagens.map((i) => i.buffer as ArrayBuffer) : []),
    (e: unknown) => {
      const r: RespostaPdf =
        e instanceof Recusa
          ? { ok: false, codigo: e.codigo, motivo: e.motivo }
          : { ok: false, codigo: "pdf_invalido", motivo: "o PDF está corrompido, incompleto ou não é um PDF" };
      parentPort!.postMessage(r);
    },
  );
});
