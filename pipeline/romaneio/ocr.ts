/**
 * Reading a romaneio file on the server: a pool of warm tesseract.js workers (WASM Tesseract 5 in
 * worker_threads, the same engine and `por` data the page runs in the browser), PDF text layers
 * and scanned PDF pages through pdf.js, in a worker thread of each slot (ocr-pdf.ts: never on the
 * server's own thread). Nothing is written to disk: the language data is read
 * from node_modules with cacheMethod "none", images and rendered pages stay in memory, and
 * nothing of the content is logged.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker as NodeWorker } from "node:worker_threads";
import { createWorker, type Worker } from "tesseract.js";
import type { ArquivoLido } from "../domain/publicados.gerados.ts";
import type { TextoLido } from "./ler.ts";
import {
  DADOS_LINGUA,
  LINGUA_OCR,
  OEM_LSTM,
  OPCOES_RECONHECER,
  PARAMETROS_TESSERACT,
  LIMIARIZACOES,
  PIXELS_MAXIMOS_IMAGEM,
  SAIDAS_RECONHECER,
  dimensoesDaImagem,
  juntarPaginas,
  pontuacaoDaLeitura,
  textoDoPdf,
  textoDoTesseract,
  tipoDoArquivo,
  type PaginaTesseract,
} from "./ocr-comum.ts";
import type { PedidoPdf, RespostaPdf } from "./ocr-pdf.ts";

export interface ResultadoOcr extends TextoLido {
  tipo: ArquivoLido["tipo"];
  paginas: number;
  segundos: number;
}

export interface LeitorOcr {
  ler(bytes: Uint8Array, tipo: ArquivoLido["tipo"]): Promise<ResultadoOcr>;
  fechar(): Promise<void>;
}

/** `indisponivel`: the engine could not start (its language data, its WebAssembly): no work was done on the file. */
export type CodigoErroOcr = "tempo_esgotado" | "arquivo_invalido" | "ocupado" | "pdf_invalido" | "indisponivel";

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
  /** Limit of one file's reading (a PDF's parsing and rendering and the OCR), from the moment a slot takes it. Default 60 s. */
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
  /** Tests only: where the language data is (default: the npm package's). */
  dirLingua?: string;
  /** How long a Tesseract thread may take to start (load its WebAssembly and data). Default 30 s. */
  inicioMaximoMs?: number;
}


const require = createRequire(import.meta.url);
const DIR_LINGUA = join(dirname(require.resolve("@tesseract.js-data/por/package.json")), "..", "..", DADOS_LINGUA);
/**
 * The PDF worker (ocr-pdf.ts) is TypeScript: the thread registers tsx's loader before importing
 * it (a Worker inherits no loader hooks in Node 20, neither from `tsx` nor from vitest).
 */
const TSX_ESM = pathToFileURL(join(dirname(require.resolve("tsx/package.json")), "dist", "esm", "api", "index.mjs")).href;
const SCRIPT_PDF = new URL("./ocr-pdf.ts", import.meta.url).href;
/** V8 heap of a PDF worker: a page's objects fit in far less; a bomb past it kills the thread, not the server. */
const MEMORIA_PDF_MB = 512;
/**
 * pdf.js keeps decoded pixels in ArrayBuffers, outside the V8 heap that resourceLimits caps: a
 * page with a few dozen images just under the per-image cap grows the process by gigabytes. The
 * process's resident memory is watched while a PDF is parsed and drawn, and the thread is
 * terminated when it grows past this budget.
 */
export const MEMORIA_EXTERNA_PDF_MB = 1024;
const VIGIA_MEMORIA_MS = 50;

const TIPOS_IMAGEM = new Set(["image/png", "image/jpeg", "image/webp"]);
const arred2 = (n: number) => Math.round(n * 100) / 100;

interface Vaga {
  worker: Promise<Worker>;
  /** The slot's PDF thread (ocr-pdf.ts), started with the slot and replaced after a failure or a deadline. */
  pdf: ThreadPdf;
  /** Rejects the job in progress when the Tesseract thread dies. */
  falhou?: (e: unknown) => void;
}

interface ThreadPdf {
  thread: NodeWorker;
  /** The thread has exited (a late failure between two files, or it could not start). */
  morto?: boolean;
  /** Rejects the request in progress when the thread dies (an error, out of memory, terminated). */
  falhou?: (e: unknown) => void;
}

function novoThreadPdf(): ThreadPdf {
  const t: ThreadPdf = {
    thread: new NodeWorker(`import(${JSON.stringify(TSX_ESM)}).then((m) => { m.register(); return import(${JSON.stringify(SCRIPT_PDF)}); })`, {
      eval: true,
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: MEMORIA_PDF_MB, maxYoungGenerationSizeMb: 32 },
    }),
  };
  t.thread.on("error", (e) => t.falhou?.(e));
  t.thread.on("exit", (codigo) => {
    t.morto = true;
    t.falhou?.(new Error(`o leitor de PDF terminou (código ${codigo})`));
  });
  return t;
}

/** One request to a PDF thread; rejects when the thread dies. */
function pedirPdf(t: ThreadPdf, pedido: PedidoPdf): Promise<RespostaPdf> {
  if (t.morto) return Promise.reject(new Error("o leitor de PDF não está rodando"));
  return new Promise<RespostaPdf>((resolver, rejeitar) => {
    const aoResponder = (r: RespostaPdf) => {
      t.falhou = undefined;
      resolver(r);
    };
    t.falhou = (e) => {
      t.thread.off("message", aoResponder);
      t.falhou = undefined;
      rejeitar(e);
    };
    t.thread.once("message", aoResponder);
    t.thread.postMessage(pedido, [pedido.bytes.buffer as ArrayBuffer]);
  });
}

export function criarLeitorOcr(opts: OpcoesLeitorOcr = {}): LeitorOcr {
  const n = Math.max(1, Math.floor(opts.workers ?? 1));
  const tempoLimiteMs = opts.tempoLimiteMs ?? 60_000;
  const fila = Math.max(0, Math.floor(opts.fila ?? 4));
  const parametros = { ...PARAMETROS_TESSERACT, ...opts.parametros };
  const rotateAuto = opts.rotateAuto ?? OPCOES_RECONHECER.rotateAuto;
  const dpiPdf = opts.dpiPdf ?? null;
  const dirLingua = opts.dirLingua ?? DIR_LINGUA;
  const inicioMaximoMs = opts.inicioMaximoMs ?? 30_000;
  const limiarizacoes = opts.limiarizacoes ?? opts.parametros?.thresholding_method?.split(",") ?? LIMIARIZACOES;
  let fechado = false;

  const vagas: Vaga[] = [];
  const livres: number[] = [];
  const espera: Array<{ dar: (i: number) => void; recusar: (e: unknown) => void }> = [];

  function novoWorker(vaga: Vaga): Promise<Worker> {
    let timer: NodeJS.Timeout | undefined;
    // tesseract.js never answers when its data cannot be loaded: a start that takes too long failed
    const desistir = new Promise<never>((_, rejeitar) => {
      timer = setTimeout(() => rejeitar(new Error(`o motor de OCR não iniciou em ${inicioMaximoMs / 1000} s (dados de língua em ${dirLingua})`)), inicioMaximoMs);
      timer.unref();
    });
    desistir.catch(() => {});
    const p = (async () => {
      const iniciando = createWorker(LINGUA_OCR, OEM_LSTM, {
        langPath: dirLingua,
        cacheMethod: "none",
        gzip: true,
        // without it tesseract.js throws from its message handler (an uncaught exception) when
        // a job is rejected; the job's own promise already carries the error
        errorHandler: () => {},
      });
      // a late start is ended as soon as it arrives
      void desistir.catch(() => iniciando.then((w) => w.terminate()).catch(() => {}));
      const w = await Promise.race([iniciando, desistir]);
      clearTimeout(timer);
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

  for (let i = 0; i < n; i++) {
    // pdf.js takes about a second to load: each slot's PDF thread is started (warm) with it
    const vaga: Vaga = { worker: Promise.resolve(null as unknown as Worker), pdf: novoThreadPdf() };
    vaga.worker = novoWorker(vaga);
    vagas.push(vaga);
    livres.push(i);
  }

  async function substituir(i: number): Promise<void> {
    const vaga = vagas[i]!;
    const velho = vaga.worker;
    vaga.worker = novoWorker(vaga);
    // never wait for a start that may not come: the slot is handed on at once
    void velho.then((w) => w.terminate()).catch(() => {
      // it never started, or it is already gone
    });
  }

  async function substituirPdf(i: number): Promise<void> {
    const vaga = vagas[i]!;
    const velho = vaga.pdf;
    velho.falhou = undefined;
    vaga.pdf = novoThreadPdf();
    await velho.thread.terminate().catch(() => {});
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

  /** The OCR of the images of one file on the slot's Tesseract thread; stops between passes once `acabou()`. */
  async function ocr(vaga: Vaga, imagens: Uint8Array[], acabou: () => boolean): Promise<TextoLido> {
    let w: Worker;
    try {
      w = await vaga.worker;
    } catch (e) {
      // the server's fault, before any work on the file: the route gives the unit back
      throw new ErroOcr("indisponivel", "o motor de OCR deste servidor não pôde iniciar", { cause: e });
    }
    const paginas: TextoLido[] = [];
    for (const img of imagens) {
      if (acabou()) break;
      let melhor: TextoLido | undefined;
      for (const limiar of limiarizacoes) {
        if (acabou()) break;
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
  }

  /**
   * One file on one slot, under ONE deadline from the moment the slot is taken: a PDF's parsing,
   * text layer and rendering (on the slot's PDF thread) and then the OCR of its pages or of the
   * image. The slot is taken before the PDF is parsed, so the queue cap bounds the PDFs being
   * rendered too. At the deadline the thread at work is terminated (its work stops, its memory
   * is freed) and a fresh one takes its place before the slot is handed on.
   */
  async function lerNaVaga(bytes: Uint8Array, pdf: boolean): Promise<{ texto: TextoLido; paginas: number }> {
    const i = await pegar();
    const vaga = vagas[i]!;
    let timer: NodeJS.Timeout | undefined;
    let estourou = false;
    let etapa: "pdf" | "ocr" = pdf ? "pdf" : "ocr";
    const limite = new Promise<never>((_, rejeitar) => {
      timer = setTimeout(() => {
        estourou = true;
        const oQue = pdf ? "o PDF" : "a leitura";
        rejeitar(new ErroOcr("tempo_esgotado", `${oQue} passou do tempo limite de ${(tempoLimiteMs / 1000).toLocaleString("pt-BR")} s`));
      }, tempoLimiteMs);
    });
    const morte = new Promise<never>((_, rejeitar) => {
      vaga.falhou = (e) => rejeitar(e instanceof ErroOcr ? e : new ErroOcr("arquivo_invalido", "o leitor de OCR falhou ao ler o arquivo", { cause: e }));
    });
    limite.catch(() => {});
    morte.catch(() => {});
    let trocar = false;
    let recusado = false;
    let vigia: NodeJS.Timeout | undefined;
    try {
      let imagens = [bytes];
      let paginas = 1;
      if (pdf) {
        // a thread that died between two files is replaced before this one is handed to it
        if (vaga.pdf.morto && !fechado) await substituirPdf(i);
        const base = process.memoryUsage.rss();
        const memoria = new Promise<never>((_, rejeitar) => {
          vigia = setInterval(() => {
            if (process.memoryUsage.rss() - base <= MEMORIA_EXTERNA_PDF_MB * 1024 * 1024) return;
            clearInterval(vigia);
            void vaga.pdf.thread.terminate();
            rejeitar(new ErroOcr("arquivo_invalido", `o PDF exige memória demais para ser lido (as imagens passam de ${MEMORIA_EXTERNA_PDF_MB} MB)`));
          }, VIGIA_MEMORIA_MS);
        });
        memoria.catch(() => {});
        const pedido = pedirPdf(vaga.pdf, { bytes: bytes.slice(), dpiPdf }).catch((e: unknown) => {
          // the thread died: past its heap limit (the file's fault) or it could not start (ours)
          if ((e as { code?: string }).code === "ERR_WORKER_OUT_OF_MEMORY") {
            throw new ErroOcr("arquivo_invalido", `o PDF exige memória demais para ser lido (mais de ${MEMORIA_PDF_MB} MB)`, { cause: e });
          }
          throw e;
        });
        const r = await Promise.race([pedido, limite, memoria]);
        clearInterval(vigia);
        if (!r.ok) {
          recusado = true;
          throw new ErroOcr(r.codigo, r.motivo);
        }
        paginas = r.paginas;
        if ("linhas" in r) return { texto: juntarPaginas(r.linhas.map((l) => textoDoPdf(l))), paginas };
        imagens = r.imagens;
        etapa = "ocr";
      }
      const trabalho = ocr(vaga, imagens, () => estourou);
      trabalho.catch(() => {});
      return { texto: await Promise.race([trabalho, limite, morte]), paginas };
    } catch (e) {
      // a PDF the thread refused itself (a clean answer) leaves the thread usable
      trocar = !recusado;
      if (e instanceof ErroOcr) throw e;
      // not the file's fault (the engine did not start: language data missing, out of memory):
      // a plain error, which the server answers as its own failure
      throw new Error(`[romaneio] [ocr] o motor de ${etapa === "pdf" ? "PDF" : "OCR"} falhou: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    } finally {
      clearTimeout(timer);
      clearInterval(vigia);
      vaga.falhou = undefined;
      // a thread that timed out is still busy, one that failed may be in a bad state: a fresh
      // one takes its place before the slot is handed on. A PDF refused by the PDF thread
      // itself (a clean answer) leaves it usable.
      if (trocar && !fechado) {
        if (etapa === "pdf") await substituirPdf(i);
        else await substituir(i);
      }
      if (fechado) livres.push(i);
      else devolver(i);
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
        const { texto, paginas } = await lerNaVaga(bytes, true);
        return fim(texto, real, paginas);
      }
      if (!TIPOS_IMAGEM.has(real)) throw new ErroOcr("arquivo_invalido", `tipo de arquivo não aceito: ${real}`);
      const dim = dimensoesDaImagem(bytes);
      if (!dim) throw new ErroOcr("arquivo_invalido", "a imagem está corrompida ou incompleta (cabeçalho ilegível)");
      if (dim.largura * dim.altura > PIXELS_MAXIMOS_IMAGEM) {
        throw new ErroOcr("arquivo_invalido", `a imagem é grande demais (${dim.largura} × ${dim.altura} pixels; o máximo é ${PIXELS_MAXIMOS_IMAGEM / 1e6} megapixels)`);
      }
      return fim((await lerNaVaga(bytes, false)).texto, real, 1);
    },

    async fechar() {
      if (fechado) return;
      fechado = true;
      const encerrado = () => new ErroOcr("ocupado", "o leitor de OCR foi encerrado");
      for (const e of espera.splice(0)) e.recusar(encerrado());
      for (const v of vagas) v.falhou?.(encerrado());
      for (const v of vagas) v.pdf.falhou?.(encerrado());
      await Promise.all(
        vagas.map(async (v) => {
          await v.pdf.thread.terminate().catch(() => {});
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
