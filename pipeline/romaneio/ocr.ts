/**
 * Reading a romaneio file on the server: a pool of warm tesseract.js workers (WASM Tesseract 5 in
 * worker_threads, the same engine and `por` data the page runs in the browser), PDF text layers
 * and scanned PDF pages through pdf.js. Nothing is written to disk: the language data is read
 * from node_modules with cacheMethod "none", images and rendered pages stay in memory, and
 * nothing of the content is logged.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { createWorker, type Worker } from "tesseract.js";
import type { ArquivoLido } from "../domain/publicados.gerados.ts";
import type { TextoLido } from "./ler.ts";
import {
  DADOS_LINGUA,
  DPI_PDF,
  LINGUA_OCR,
  OEM_LSTM,
  OPCOES_RECONHECER,
  PAGINAS_MAXIMAS,
  PARAMETROS_TESSERACT,
  LIMIARIZACOES,
  PIXELS_MAXIMOS,
  PIXELS_MAXIMOS_IMAGEM,
  SAIDAS_RECONHECER,
  camadaDeTextoBasta,
  dimensoesDaImagem,
  dpiParaOcr,
  juntarPaginas,
  linhasDoPdf,
  pontuacaoDaLeitura,
  textoDoPdf,
  textoDoTesseract,
  tipoDoArquivo,
  type ItemPdf,
  type PaginaTesseract,
} from "./ocr-comum.ts";

export interface ResultadoOcr extends TextoLido {
  tipo: ArquivoLido["tipo"];
  paginas: number;
  segundos: number;
}

export interface LeitorOcr {
  ler(bytes: Uint8Array, tipo: ArquivoLido["tipo"]): Promise<ResultadoOcr>;
  fechar(): Promise<void>;
}

export type CodigoErroOcr = "tempo_esgotado" | "arquivo_invalido" | "ocupado" | "pdf_invalido";

/** What the server turns into a JSON error: a stable code and a message in Portuguese. */
export class ErroOcr extends Error {
  readonly codigo: CodigoErroOcr;
  /** What was wrong, in Portuguese, for the user (the message without the "[romaneio] [ocr]" prefix). */
  readonly motivo: string;
  constructor(codigo: CodigoErroOcr, motivo: string, opts?: { cause?: unknown }) {
    super(`[romaneio] [ocr] ${motivo}`, opts);
    this.name = "ErroOcr";
    this.codigo = codigo;
    this.motivo = motivo;
  }
}

export interface OpcoesLeitorOcr {
  /** Warm workers (each one a worker thread with ~100 MB of WASM heap). Default 1. */
  workers?: number;
  /** Limit of one file's OCR, from the moment a worker takes it. Default 60 s. */
  tempoLimiteMs?: number;
  /** Files waiting for a worker beyond the ones being read; one more is refused ("ocupado"). Default 4. */
  fila?: number;
  /** Bench only: Tesseract parameters over PARAMETROS_TESSERACT, and whether to deskew. */
  parametros?: Record<string, string>;
  rotateAuto?: boolean;
  /** Bench only: the thresholdings tried on each image (default LIMIARIZACOES). */
  limiarizacoes?: readonly string[];
  /** Bench only: a fixed resolution for scanned PDF pages (default: the scan's own, dpiParaOcr). */
  dpiPdf?: number;
}


const require = createRequire(import.meta.url);
const DIR_LINGUA = join(dirname(require.resolve("@tesseract.js-data/por/package.json")), "..", "..", DADOS_LINGUA);
const DIR_PDFJS = dirname(require.resolve("pdfjs-dist/package.json"));

type Pdfjs = typeof import("pdfjs-dist/legacy/build/pdf.mjs");
let pdfjsCarregado: Promise<Pdfjs> | undefined;
/** pdf.js, loaded once per process (when the first reader is created). */
function pdfjs(): Promise<Pdfjs> {
  pdfjsCarregado ??= import("pdfjs-dist/legacy/build/pdf.mjs");
  return pdfjsCarregado;
}

const TIPOS_IMAGEM = new Set(["image/png", "image/jpeg", "image/webp"]);
const arred2 = (n: number) => Math.round(n * 100) / 100;

interface Vaga {
  worker: Promise<Worker>;
  /** Rejects the job in progress when the worker thread dies. */
  falhou?: (e: unknown) => void;
}

export function criarLeitorOcr(opts: OpcoesLeitorOcr = {}): LeitorOcr {
  const n = Math.max(1, Math.floor(opts.workers ?? 1));
  const tempoLimiteMs = opts.tempoLimiteMs ?? 60_000;
  const fila = Math.max(0, Math.floor(opts.fila ?? 4));
  const parametros = { ...PARAMETROS_TESSERACT, ...opts.parametros };
  const rotateAuto = opts.rotateAuto ?? OPCOES_RECONHECER.rotateAuto;
  const dpiPdf = opts.dpiPdf ?? DPI_PDF;
  const limiarizacoes = opts.limiarizacoes ?? opts.parametros?.thresholding_method?.split(",") ?? LIMIARIZACOES;
  let fechado = false;

  const vagas: Vaga[] = [];
  const livres: number[] = [];
  const espera: Array<{ dar: (i: number) => void; recusar: (e: unknown) => void }> = [];

  function novoWorker(vaga: Vaga): Promise<Worker> {
    const p = (async () => {
      const w = await createWorker(LINGUA_OCR, OEM_LSTM, {
        langPath: DIR_LINGUA,
        cacheMethod: "none",
        gzip: true,
        // without it tesseract.js throws from its message handler (an uncaught exception) when
        // a job is rejected; the job's own promise already carries the error
        errorHandler: () => {},
      });
      // A WASM abort inside the thread is an "error" event on the Node Worker: unheard, it
      // would take the whole process down.
      const thread = (w as unknown as { worker?: { on?: (ev: string, f: (e: unknown) => void) => void } }).worker;
      thread?.on?.("error", (e) => vaga.falhou?.(e));
      await w.setParameters(parametros);
      return w;
    })();
    p.catch(() => {}); // seen by the job that awaits it
    return p;
  }

  // pdf.js takes seconds to load: warm it with the workers, not on the first PDF of a request
  pdfjs().catch(() => {});

  for (let i = 0; i < n; i++) {
    const vaga: Vaga = { worker: Promise.resolve(null as unknown as Worker) };
    vaga.worker = novoWorker(vaga);
    vagas.push(vaga);
    livres.push(i);
  }

  async function substituir(i: number): Promise<void> {
    const vaga = vagas[i]!;
    const velho = vaga.worker;
    vaga.worker = novoWorker(vaga);
    try {
      await (await velho).terminate();
    } catch {
      // it never started, or it is already gone
    }
  }

  function pegar(): Promise<number> {
    if (fechado) return Promise.reject(new ErroOcr("ocupado", "o leitor de OCR foi encerrado"));
    const i = livres.shift();
    if (i !== undefined) return Promise.resolve(i);
    if (espera.length >= fila) {
      return Promise.reject(new ErroOcr("ocupado", `todos os ${n} leitores de OCR estão ocupados e a fila (${fila}) está cheia; tente de novo em instantes`));
    }
    return new Promise((dar, recusar) => espera.push({ dar, recusar }));
  }

  function devolver(i: number): void {
    const proximo = espera.shift();
    if (proximo) proximo.dar(i);
    else livres.push(i);
  }

  /** OCR of the images of one file on one worker, all within tempoLimiteMs. */
  async function ocr(imagens: Uint8Array[]): Promise<TextoLido> {
    const i = await pegar();
    const vaga = vagas[i]!;
    let timer: NodeJS.Timeout | undefined;
    let estourou = false;
    const limite = new Promise<never>((_, rejeitar) => {
      timer = setTimeout(() => {
        estourou = true;
        rejeitar(new ErroOcr("tempo_esgotado", `a leitura passou do tempo limite de ${(tempoLimiteMs / 1000).toLocaleString("pt-BR")} s`));
      }, tempoLimiteMs);
    });
    const morte = new Promise<never>((_, rejeitar) => {
      vaga.falhou = (e) => rejeitar(e instanceof ErroOcr ? e : new ErroOcr("arquivo_invalido", "o leitor de OCR falhou ao ler o arquivo", { cause: e }));
    });
    limite.catch(() => {});
    morte.catch(() => {});
    let trocar = false;
    try {
      const trabalho = (async () => {
        const w = await vaga.worker;
        const paginas: TextoLido[] = [];
        for (const img of imagens) {
          if (estourou) break;
          let melhor: TextoLido | undefined;
          for (const limiar of limiarizacoes) {
            if (estourou) break;
            let r;
            try {
              await w.setParameters({ thresholding_method: limiar });
              r = await w.recognize(Buffer.from(img.buffer, img.byteOffset, img.byteLength), { rotateAuto }, SAIDAS_RECONHECER);
            } catch (e) {
              throw new ErroOcr("arquivo_invalido", "a imagem não pôde ser lida (arquivo corrompido ou incompleto)", { cause: e });
            }
            const t = textoDoTesseract(r.data as unknown as PaginaTesseract);
            if (!melhor || pontuacaoDaLeitura(t) > pontuacaoDaLeitura(melhor)) melhor = t;
          }
          if (melhor) paginas.push(melhor);
        }
        return juntarPaginas(paginas);
      })();
      trabalho.catch(() => {});
      return await Promise.race([trabalho, limite, morte]);
    } catch (e) {
      trocar = true;
      if (e instanceof ErroOcr) throw e;
      // not the file's fault (the engine did not start: language data missing, out of memory):
      // a plain error, which the server answers as its own failure
      throw new Error(`[romaneio] [ocr] o motor de OCR falhou: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    } finally {
      clearTimeout(timer);
      vaga.falhou = undefined;
      // a worker that timed out is still busy (its thread is killed), one that failed may be in
      // a bad state: a fresh one takes its place before the slot is handed on
      if (trocar && !fechado) await substituir(i);
      if (fechado) livres.push(i);
      else devolver(i);
    }
  }

  async function lerPdf(bytes: Uint8Array): Promise<{ texto: TextoLido; paginas: number }> {
    const lib = await pdfjs();
    let doc: Awaited<ReturnType<Pdfjs["getDocument"]>["promise"]>;
    const tarefa = lib.getDocument({
      // pdf.js takes ownership of (detaches) the buffer it is given: a copy keeps the caller's
      data: bytes.slice(),
      isEvalSupported: false,
      useSystemFonts: false,
      disableFontFace: true,
      stopAtErrors: true,
      verbosity: 0,
      standardFontDataUrl: join(DIR_PDFJS, "standard_fonts") + "/",
      cMapUrl: join(DIR_PDFJS, "cmaps") + "/",
      cMapPacked: true,
    });
    let timer: NodeJS.Timeout | undefined;
    const limite = new Promise<never>((_, rejeitar) => {
      timer = setTimeout(() => rejeitar(new ErroOcr("tempo_esgotado", `o PDF passou do tempo limite de ${(tempoLimiteMs / 1000).toLocaleString("pt-BR")} s`)), tempoLimiteMs);
    });
    limite.catch(() => {});
    try {
      try {
        doc = await Promise.race([tarefa.promise, limite]);
      } catch (e) {
        if (e instanceof ErroOcr) throw e;
        const nome = (e as { name?: string }).name;
        const motivo = nome === "PasswordException" ? "o PDF está protegido por senha" : "o PDF está corrompido, incompleto ou não é um PDF";
        throw new ErroOcr("pdf_invalido", motivo, { cause: e });
      }
      const total = doc.numPages;
      if (total < 1) throw new ErroOcr("pdf_invalido", "o PDF não tem páginas");
      const paginas = Math.min(total, PAGINAS_MAXIMAS);
      const linhasPorPagina: string[][] = [];
      const leitura = (async () => {
        for (let p = 1; p <= paginas; p++) {
          const pagina = await doc.getPage(p);
          const conteudo = await pagina.getTextContent();
          linhasPorPagina.push(linhasDoPdf(conteudo.items as ItemPdf[]));
        }
      })();
      try {
        await Promise.race([leitura, limite]);
      } catch (e) {
        if (e instanceof ErroOcr) throw e;
        throw new ErroOcr("pdf_invalido", "uma página do PDF não pôde ser lida", { cause: e });
      }
      const camada = linhasPorPagina.flat().join("\n");
      if (camadaDeTextoBasta(camada, paginas)) {
        return { texto: juntarPaginas(linhasPorPagina.map((l) => textoDoPdf(l))), paginas };
      }
      // a scan: render each page and read it with Tesseract
      const imagens: Uint8Array[] = [];
      const render = (async () => {
        for (let p = 1; p <= paginas; p++) {
          const pagina = await doc.getPage(p);
          const base = pagina.getViewport({ scale: 1 });
          let dpi = dpiPdf;
          if (opts.dpiPdf === undefined) {
            const ops = await pagina.getOperatorList();
            const larguras: number[] = [];
            ops.fnArray.forEach((fn, k) => {
              // args of a painted image: [objId, width, height]
              if (fn === lib.OPS.paintImageXObject || fn === lib.OPS.paintInlineImageXObject) larguras.push(Number((ops.argsArray[k] as unknown[])[1]));
            });
            dpi = dpiParaOcr(base.width, larguras);
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
          imagens.push(new Uint8Array(alvo.canvas.toBuffer("image/png")));
          fabrica.destroy(alvo);
        }
      })();
      try {
        await Promise.race([render, limite]);
      } catch (e) {
        if (e instanceof ErroOcr) throw e;
        throw new ErroOcr("pdf_invalido", "uma página do PDF não pôde ser desenhada para o OCR", { cause: e });
      }
      clearTimeout(timer);
      return { texto: await ocr(imagens), paginas };
    } finally {
      clearTimeout(timer);
      await tarefa.destroy().catch(() => {});
    }
  }

  return {
    async ler(bytes, tipo) {
      const inicio = performance.now();
      if (fechado) throw new ErroOcr("ocupado", "o leitor de OCR foi encerrado");
      const fim = (t: TextoLido, tipoLido: ArquivoLido["tipo"], paginas: number): ResultadoOcr => ({
        ...t,
        tipo: tipoLido,
        paginas,
        segundos: arred2((performance.now() - inicio) / 1000),
      });
      if (tipo === "text/plain") {
        let texto: string;
        try {
          texto = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
        } catch (e) {
          throw new ErroOcr("arquivo_invalido", "o texto enviado não é UTF-8 válido", { cause: e });
        }
        return fim({ texto: texto.replace(/\r\n?/g, "\n"), origem: "texto" }, "text/plain", 1);
      }
      const real = tipoDoArquivo(bytes);
      if (real === null) {
        throw new ErroOcr("arquivo_invalido", `o arquivo não é PNG, JPEG, WebP nem PDF (declarado como ${tipo}; os primeiros bytes não conferem)`);
      }
      if (real === "application/pdf") {
        const { texto, paginas } = await lerPdf(bytes);
        return fim(texto, real, paginas);
      }
      if (!TIPOS_IMAGEM.has(real)) throw new ErroOcr("arquivo_invalido", `tipo de arquivo não aceito: ${real}`);
      const dim = dimensoesDaImagem(bytes);
      if (!dim) throw new ErroOcr("arquivo_invalido", "a imagem está corrompida ou incompleta (cabeçalho ilegível)");
      if (dim.largura * dim.altura > PIXELS_MAXIMOS_IMAGEM) {
        throw new ErroOcr("arquivo_invalido", `a imagem é grande demais (${dim.largura} × ${dim.altura} pixels; o máximo é ${PIXELS_MAXIMOS_IMAGEM / 1e6} megapixels)`);
      }
      return fim(await ocr([bytes]), real, 1);
    },

    async fechar() {
      if (fechado) return;
      fechado = true;
      const encerrado = () => new ErroOcr("ocupado", "o leitor de OCR foi encerrado");
      for (const e of espera.splice(0)) e.recusar(encerrado());
      for (const v of vagas) v.falhou?.(encerrado());
      await Promise.all(
        vagas.map(async (v) => {
          try {
            await (await v.worker).terminate();
          } catch {
            // never started
          }
        }),
      );
    },
  };
}
