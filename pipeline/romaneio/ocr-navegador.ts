/**
 * The browser side of the OCR engine, for the page romaneio/: the same tesseract.js (WASM
 * Tesseract 5), the same `por` data and the same parameters and result mapping as the server's
 * ocr.ts (all from ./ocr-comum.ts), so the page reads a file as POST /api/v1/romaneio does. The
 * file never leaves the device: tesseract.js runs in a web worker and pdf.js in its own, both
 * loaded, with the WASM core and the language data, from the site's romaneio/vendor/ (the URL
 * given), never from a CDN. No Node APIs; tesseract.js and pdf.js are imported at run time from
 * that folder (not bundled), only when a file is read.
 */
import type { ArquivoLido } from "../domain/publicados.gerados.ts";
import type { TextoLido } from "./ler.ts";
import {
  camadaDeTextoBasta,
  dimensoesDaImagem,
  dpiParaOcr,
  juntarPaginas,
  LIMIARIZACOES,
  LINGUA_OCR,
  linhasDoPdf,
  OEM_LSTM,
  OPCOES_RECONHECER,
  PAGINAS_MAXIMAS,
  PARAMETROS_TESSERACT,
  PIXELS_MAXIMOS,
  PIXELS_MAXIMOS_IMAGEM,
  pontuacaoDaLeitura,
  SAIDAS_RECONHECER,
  textoDoPdf,
  textoDoTesseract,
  tipoDoArquivo,
  type ItemPdf,
  type PaginaTesseract,
  type TipoArquivo,
} from "./ocr-comum.ts";

/** What was read, like the server's ResultadoOcr. */
export interface ResultadoNavegador extends TextoLido {
  tipo: ArquivoLido["tipo"];
  paginas: number;
  segundos: number;
}

/** A step of the reading, for a progress bar: `fracao` 0..1, or null when unknown. */
export interface Progresso {
  etapa: "motor" | "lingua" | "reconhecendo" | "pdf" | "desenhando";
  fracao: number | null;
  pagina?: number;
  paginas?: number;
}

export class ErroLeituraNavegador extends Error {
  constructor(
    readonly codigo: "arquivo_invalido" | "pdf_invalido",
    mensagem: string,
  ) {
    super(mensagem);
    this.name = "ErroLeituraNavegador";
  }
}

/** The files of romaneio/vendor/ (pipeline/publish/deploy.ts: VENDOR_ROMANEIO). */
export const ARQUIVOS_VENDOR = {
  tesseract: "tesseract.esm.min.js",
  worker: "worker.min.js",
  pdf: "pdf.min.js",
  pdfWorker: "pdf.worker.min.js",
} as const;

interface WorkerTesseract {
  setParameters(p: Record<string, string>): Promise<unknown>;
  recognize(img: Blob | HTMLCanvasElement, opts: object, saidas: object): Promise<{ data: unknown }>;
  terminate(): Promise<unknown>;
}
interface MensagemTesseract {
  status: string;
  progress: number;
}
interface ModuloTesseract {
  createWorker(lingua: string, oem: number, opts: Record<string, unknown>): Promise<WorkerTesseract>;
}
interface PaginaPdf {
  getViewport(o: { scale: number }): { width: number; height: number };
  getOperatorList(): Promise<{ fnArray: number[]; argsArray: unknown[][] }>;
  getTextContent(): Promise<{ items: ItemPdf[] }>;
  render(o: { canvasContext: CanvasRenderingContext2D; viewport: unknown; canvas?: HTMLCanvasElement }): { promise: Promise<void> };
  cleanup(): void;
}
interface DocumentoPdf {
  numPages: number;
  getPage(n: number): Promise<PaginaPdf>;
  destroy(): Promise<void>;
}
interface ModuloPdf {
  GlobalWorkerOptions: { workerSrc: string };
  OPS: { paintImageXObject: number; paintInlineImageXObject: number };
  getDocument(o: Record<string, unknown>): { promise: Promise<DocumentoPdf> };
}


/** Imported at run time from the site (a URL esbuild leaves alone). */
const importar = <T>(url: string): Promise<T> => import(url) as Promise<T>;

/** tesseract.js's logger statuses -> the page's steps */
function etapaDoTesseract(status: string): Progresso["etapa"] | null {
  if (status.includes("core")) return "motor";
  if (status.includes("traineddata") || status.includes("language")) return "lingua";
  if (status.includes("recognizing")) return "reconhecendo";
  return null;
}

/**
 * A reader for this page's life: the Tesseract worker (engine and language data loaded once, at
 * the first file) and pdf.js (imported at the first PDF). `vendor` is the URL of romaneio/vendor/
 * (ending in "/"), relative to the page so the site works under a GitHub Pages sub-path.
 */
export function criarLeitorNavegador(vendor: URL, aoProgredir: (p: Progresso) => void = () => {}) {
  let worker: Promise<WorkerTesseract> | null = null;
  let pdf: Promise<ModuloPdf> | null = null;
  // the page being read, so the logger's "recognizing" progress says which one
  let atual: { pagina: number; paginas: number } | undefined;
  // which of the LIMIARIZACOES passes is running: the bar covers them all
  let passe = 0;

  const url = (arquivo: string) => new URL(arquivo, vendor).href;

  function tesseract(): Promise<WorkerTesseract> {
    worker ??= (async () => {
      const T = (await importar<{ default: ModuloTesseract }>(url(ARQUIVOS_VENDOR.tesseract))).default;
      const w = await T.createWorker(LINGUA_OCR, OEM_LSTM, {
        workerPath: url(ARQUIVOS_VENDOR.worker),
        // a folder: tesseract.js picks the LSTM core for the browser's WebAssembly features
        corePath: vendor.href.replace(/\/$/, ""),
        langPath: vendor.href.replace(/\/$/, ""),
        // the worker from the site's own file (no blob: URL), the data never stored in IndexedDB
        workerBlobURL: false,
        cacheMethod: "none",
        gzip: true,
        logger: (m: MensagemTesseract) => {
          const etapa = etapaDoTesseract(m.status);
          if (!etapa) return;
          const f = typeof m.progress === "number" ? m.progress : null;
          if (etapa === "reconhecendo") aoProgredir({ etapa, fracao: f === null ? null : (passe + f) / LIMIARIZACOES.length, ...atual });
          else aoProgredir({ etapa, fracao: f });
        },
      });
      await w.setParameters({ ...PARAMETROS_TESSERACT });
      return w;
    })();
    // a failed start (a missing file) is tried again with the next file
    worker.catch(() => (worker = null));
    return worker;
  }

  function pdfjs(): Promise<ModuloPdf> {
    pdf ??= importar<ModuloPdf>(url(ARQUIVOS_VENDOR.pdf)).then((m) => {
      m.GlobalWorkerOptions.workerSrc = url(ARQUIVOS_VENDOR.pdfWorker);
      return m;
    });
    pdf.catch(() => (pdf = null));
    return pdf;
  }

  /** One image read once per thresholding, the best reading kept: the server's rule (ocr.ts). */
  async function ocr(img: Blob | HTMLCanvasElement): Promise<TextoLido> {
    const w = await tesseract();
    let melhor: TextoLido | undefined;
    for (const [i, limiar] of LIMIARIZACOES.entries()) {
      passe = i;
      await w.setParameters({ thresholding_method: limiar });
      const r = await w.recognize(img, { ...OPCOES_RECONHECER }, { ...SAIDAS_RECONHECER });
      const t = textoDoTesseract(r.data as PaginaTesseract);
      if (!melhor || pontuacaoDaLeitura(t) > pontuacaoDaLeitura(melhor)) melhor = t;
    }
    return melhor!;
  }

  /** A PDF: its text layer when it is the document, else its pages rendered and read by OCR. */
  async function lerPdf(bytes: Uint8Array): Promise<{ texto: TextoLido; paginas: number }> {
    const m = await pdfjs();
    aoProgredir({ etapa: "pdf", fracao: null });
    let doc: DocumentoPdf;
    try {
      // a copy: pdf.js transfers the buffer to its worker; no eval (the site's CSP has none)
      doc = await m.getDocument({
        data: bytes.slice(),
        isEvalSupported: false,
        disableFontFace: true,
        useSystemFonts: false,
        stopAtErrors: false,
        // an image past the cap is left out (the page draws blank) instead of decoded: the
        // server refuses the same file (ocr-pdf.ts)
        maxImageSize: PIXELS_MAXIMOS_IMAGEM,
        // OpenJPEG (JPEG 2000 scans, /JPXDecode) from romaneio/vendor/: without it pdf.js 5 asks
        // for "nullopenjpeg.wasm" and such a page draws blank
        wasmUrl: vendor.href,
      }).promise;
    } catch (err) {
      throw new ErroLeituraNavegador("pdf_invalido", `O PDF não pôde ser aberto: ${(err as Error).message}`);
    }
    try {
      const n = Math.min(doc.numPages, PAGINAS_MAXIMAS);
      const linhas: string[][] = [];
      for (let i = 1; i <= n; i++) linhas.push(linhasDoPdf((await (await doc.getPage(i)).getTextContent()).items));
      if (camadaDeTextoBasta(linhas.flat().join("\n"), n)) return { texto: juntarPaginas(linhas.map((l) => textoDoPdf(l))), paginas: n };
      // a scan: each page drawn at the scan's own resolution (at most PIXELS_MAXIMOS pixels) and
      // read like a photo, as the server does (ocr.ts)
      const lidas: TextoLido[] = [];
      for (let i = 1; i <= n; i++) {
        aoProgredir({ etapa: "desenhando", fracao: null, pagina: i, paginas: n });
        const pagina = await doc.getPage(i);
        const base = pagina.getViewport({ scale: 1 });
        const ops = await pagina.getOperatorList();
        const larguras: number[] = [];
        ops.fnArray.forEach((fn, k) => {
          // args of a painted image: [objId, width, height]
          if (fn === m.OPS.paintImageXObject || fn === m.OPS.paintInlineImageXObject) larguras.push(Number(ops.argsArray[k]![1]));
        });
        let escala = dpiParaOcr(base.width, larguras) / 72;
        const px = base.width * base.height * escala * escala;
        if (px > PIXELS_MAXIMOS) escala *= Math.sqrt(PIXELS_MAXIMOS / px);
        const viewport = pagina.getViewport({ scale: escala });
        const canvas = document.createElement("canvas");
        canvas.width = Math.max(1, Math.floor(viewport.width));
        canvas.height = Math.max(1, Math.floor(viewport.height));
        const ctx = canvas.getContext("2d")!;
        ctx.fillStyle = "#fff";
        ctx.fillRect(0, 0, canvas.width, canvas.height);
        await pagina.render({ canvasContext: ctx, viewport, canvas }).promise;
        pagina.cleanup();
        atual = { pagina: i, paginas: n };
        lidas.push(await ocr(canvas));
        canvas.width = canvas.height = 0;
      }
      return { texto: juntarPaginas(lidas), paginas: n };
    } finally {
      atual = undefined;
      await doc.destroy();
    }
  }

  return {
    /** Reads a chosen file; its type from its first bytes, never from its name. */
    async ler(arquivo: Blob): Promise<ResultadoNavegador> {
      const inicio = performance.now();
      const bytes = new Uint8Array(await arquivo.arrayBuffer());
      const tipo: TipoArquivo | null = tipoDoArquivo(bytes);
      if (!tipo) throw new ErroLeituraNavegador("arquivo_invalido", "O arquivo não é PNG, JPEG, WebP nem PDF.");
      let texto: TextoLido;
      let paginas = 1;
      if (tipo === "application/pdf") ({ texto, paginas } = await lerPdf(bytes));
      else {
        const dim = dimensoesDaImagem(bytes);
        if (!dim) throw new ErroLeituraNavegador("arquivo_invalido", "A imagem está corrompida ou incompleta (cabeçalho ilegível).");
        if (dim.largura * dim.altura > PIXELS_MAXIMOS_IMAGEM) {
          throw new ErroLeituraNavegador(
            "arquivo_invalido",
            `A imagem é grande demais (${dim.largura} × ${dim.altura} pixels; o máximo é ${PIXELS_MAXIMOS_IMAGEM / 1e6} megapixels): reduza a foto.`,
          );
        }
        texto = await ocr(new Blob([bytes], { type: tipo }));
      }
      const segundos = Math.round((performance.now() - inicio) / 10) / 100;
      return { ...texto, tipo, paginas, segundos };
    },
    async fechar(): Promise<void> {
      const w = worker;
      worker = null;
      if (w) await (await w.catch(() => null))?.terminate();
    },
  };
}

export type LeitorNavegador = ReturnType<typeof criarLeitorNavegador>;
