/**
 * What the server (ocr.ts, Node) and the page (romaneio/, browser) share about reading a file:
 * the Tesseract parameters, a tesseract.js result -> TextoLido, pdf.js text items -> lines,
 * whether a PDF's text layer is a real one, and the file type from its first bytes. Pure: no
 * Node APIs, no tesseract.js or pdf.js import (their results are described structurally here),
 * so both sides read a file the same way.
 */
import type { TextoLido, PalavraOcr } from "./ler.ts";

/** Language data: `por` from @tesseract.js-data/por/4.0.0_best_int (LSTM only). */
export const LINGUA_OCR = "por";
/** OEM 1: LSTM only (the `best_int` data has no legacy model). */
export const OEM_LSTM = 1;
/** Folder of the language data inside node_modules (and copied as is to the site for the page). */
export const DADOS_LINGUA = "@tesseract.js-data/por/4.0.0_best_int";

/**
 * Page segmentation: PSM 4 (one column of text of varying sizes). Measured end to end against
 * PSM 3 (automatic layout; fields read exactly by lerRomaneio, 3 documents each): the same 100%
 * on the clean PNGs and scans (all 11 documents), blur 100% vs 78%, phone photo 75% vs 51%,
 * noise 94.5% vs 95%, JPEG, 100 dpi, uneven light and rotation the same. On a noisy copy PSM 4
 * reads specks between a label and its value as stray letters ("Taxa de abate   é  o  é   45,00"),
 * which the reader drops from a deduction's name (nomeDoDesconto). PSM 6 (one block) drops a
 * table's narrow first columns.
 * preserve_interword_spaces keeps column gaps as runs of spaces, which the reader uses to split
 * a table row (and to tell a label from the debris after it).
 */
export const PARAMETROS_TESSERACT: Readonly<Record<string, string>> = {
  preserve_interword_spaces: "1",
  tessedit_pageseg_mode: "4",
  // Tesseract's own messages ("Estimating resolution as 168", one per page) go to the WASM
  // file system's /dev/null (in memory, not the disk) instead of the server's stderr
  debug_file: "/dev/null",
};

/**
 * Options of `worker.recognize`. rotateAuto deskews a page photographed a few degrees off:
 * measured on 4 rotated copies, 242/242 fields exact with it, 235/242 without; on 4 phone-like
 * copies (rotation with blur, noise and shade) 115 vs 131: mixed, kept for the plain rotation.
 */
export const OPCOES_RECONHECER = { rotateAuto: true } as const;
/**
 * Each image is read twice, with Tesseract's global Otsu threshold and with Sauvola's local one
 * (`thresholding_method` 0 and 2), and the reading with the higher pontuacaoDaLeitura is kept.
 * Measured on the degraded corpus (expected fields read exactly, Otsu -> Sauvola): uneven light
 * 28% -> 100% (2 documents), phone photo 25% -> 51% (3), blur 61% -> 60% on three documents but
 * 44% -> 96% on the two with per-half-carcass columns, noise 79% -> 68% (3): neither one alone;
 * the higher sum picked the better reading in each of those 15 pairs but one (a tie within one
 * field). Rotated and JPEG copies read the same with both. Costs a second OCR pass.
 */
export const LIMIARIZACOES: readonly string[] = ["0", "2"];

/**
 * How much a reading read: the sum of its words' confidences. A threshold that fails on part of
 * the page loses whole lines (86 words instead of 123), which the mean confidence hides.
 */
export function pontuacaoDaLeitura(t: TextoLido): number {
  return (t.palavras ?? []).reduce((soma, p) => soma + p.confianca, 0);
}

/** Outputs asked of `worker.recognize`: the text and the blocks (words with confidences). */
export const SAIDAS_RECONHECER = { text: true, blocks: true } as const;

/** A PDF's pages beyond this are not read (a romaneio is one or two pages). */
export const PAGINAS_MAXIMAS = 5;
/** A scanned PDF page without an image to measure is rendered at this resolution for OCR. */
export const DPI_PDF = 200;
/** ...but never larger than this many pixels (width × height) per page. */
export const PIXELS_MAXIMOS = 12_000_000;
/** Largest image (width × height) handed to Tesseract, on the server and in the page: a 12 MP phone photo passes, a decompression bomb does not. */
export const PIXELS_MAXIMOS_IMAGEM = 50_000_000;

/**
 * The resolution to render a scanned page at: the scan's own (its widest image's pixels over the
 * page's width), between 100 and 300 dpi, else DPI_PDF. Measured on the corpus's 150 dpi scans
 * (lines read exactly, PSM 3): 85% rendered at 150 dpi, 71–75% at 120, 200, 250 or 300 dpi:
 * resampling the scan's pixels costs Tesseract more than a higher resolution gains.
 */
export function dpiParaOcr(larguraPaginaPt: number, largurasImagensPx: readonly number[]): number {
  const maior = Math.max(0, ...largurasImagensPx.filter((w) => Number.isFinite(w)));
  if (maior <= 0 || !(larguraPaginaPt > 0)) return DPI_PDF;
  const dpi = maior / (larguraPaginaPt / 72);
  return Math.max(100, Math.min(300, dpi));
}

/** The part of a tesseract.js `Page` this module reads (blocks -> paragraphs -> lines -> words). */
export interface CaixaOcr {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
export interface PalavraTesseract {
  text: string;
  confidence: number; // 0..100
  bbox: CaixaOcr;
}
export interface LinhaTesseract {
  text: string;
  words: PalavraTesseract[];
  bbox: CaixaOcr;
}
export interface PaginaTesseract {
  text: string;
  blocks: Array<{ paragraphs: Array<{ lines: LinhaTesseract[] }> }> | null;
}

/** Vertical overlap of two boxes, as a share of the shorter one. */
function sobreposicaoVertical(a: CaixaOcr, b: CaixaOcr): number {
  const h = Math.min(a.y1 - a.y0, b.y1 - b.y0);
  if (h <= 0) return 0;
  return Math.max(0, Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0)) / h;
}

const conf01 = (c: number): number => Math.round(Math.max(0, Math.min(100, c))) / 100;

/**
 * A tesseract.js page -> TextoLido (origem "ocr"): one text line per row of the page, words with
 * confidences 0..1 and the index of their line in `texto.split("\n")`.
 *
 * Tesseract's layout analysis (PSM 3 often, PSM 4 seldom) may cut one printed row into two
 * blocks (a label on the left, its value far to the right, or a table's last column): lines of different blocks that
 * sit on the same row (vertical overlap of at least half their height, no horizontal overlap)
 * are joined again, left to right, with a wide gap ("   ") where the cut was.
 */
export function textoDoTesseract(pagina: PaginaTesseract): TextoLido {
  const linhas: LinhaTesseract[] = [];
  for (const bloco of pagina.blocks ?? []) {
    for (const par of bloco.paragraphs) {
      for (const linha of par.lines) {
        if (linha.words.some((w) => w.text.trim() !== "")) linhas.push(linha);
      }
    }
  }
  if (linhas.length === 0 && pagina.text.trim() !== "") {
    // no blocks asked for: the text alone, without confidences
    return { texto: pagina.text.replace(/\n+$/, ""), origem: "ocr" };
  }
  const centro = (c: CaixaOcr) => (c.y0 + c.y1) / 2;
  const ordenadas = [...linhas].sort((a, b) => centro(a.bbox) - centro(b.bbox) || a.bbox.x0 - b.bbox.x0);
  const fileiras: LinhaTesseract[][] = [];
  for (const linha of ordenadas) {
    const alvo = fileiras.find(
      (f) =>
        f.some((o) => sobreposicaoVertical(o.bbox, linha.bbox) >= 0.5) &&
        f.every((o) => linha.bbox.x0 >= o.bbox.x1 || linha.bbox.x1 <= o.bbox.x0),
    );
    if (alvo) alvo.push(linha);
    else fileiras.push([linha]);
  }
  const textos: string[] = [];
  const palavras: PalavraOcr[] = [];
  fileiras.forEach((fileira, i) => {
    fileira.sort((a, b) => a.bbox.x0 - b.bbox.x0);
    textos.push(fileira.map((l) => l.text.replace(/\s+$/, "").replace(/^\s+/, "")).join("   "));
    for (const l of fileira) {
      for (const w of l.words) {
        const texto = w.text.trim();
        if (texto !== "") palavras.push({ texto, confianca: conf01(w.confidence), linha: i });
      }
    }
  });
  return { texto: textos.join("\n"), origem: "ocr", palavras };
}

/** Several pages read one by one -> one TextoLido (line indexes shifted; pages separated by a blank line). */
export function juntarPaginas(paginas: TextoLido[]): TextoLido {
  if (paginas.length === 1) return paginas[0]!;
  const textos: string[] = [];
  const palavras: PalavraOcr[] = [];
  let deslocamento = 0;
  let comPalavras = false;
  for (const p of paginas) {
    const linhas = p.texto.split("\n");
    textos.push(...linhas, "");
    if (p.palavras) {
      comPalavras = true;
      for (const w of p.palavras) palavras.push({ ...w, linha: w.linha + deslocamento });
    }
    deslocamento += linhas.length + 1;
  }
  textos.pop();
  const origem = paginas[0]?.origem ?? "ocr";
  return comPalavras ? { texto: textos.join("\n"), origem, palavras } : { texto: textos.join("\n"), origem };
}

/** The part of a pdf.js `TextItem` this module reads (`TextMarkedContent` items have no `str`). */
export interface ItemPdf {
  str?: string;
  transform?: number[]; // [a, b, c, d, e, f]: e, f the origin in PDF units (y grows upwards)
  width?: number;
  height?: number;
  hasEOL?: boolean;
}

/**
 * pdf.js text-content items of one page -> its lines, top to bottom: items grouped by baseline
 * (within 40% of the font height), ordered by x, a gap wider than a quarter of the font height
 * kept as spaces (a table cell gap as a run of two or more, the way Tesseract keeps column gaps with
 * preserve_interword_spaces). Browsers' "Print to PDF" emits one item per word or per run of
 * text, sometimes with the spaces as items of their own.
 */
export function linhasDoPdf(itens: readonly ItemPdf[]): string[] {
  interface Peca {
    x: number;
    y: number;
    fim: number;
    altura: number;
    str: string;
  }
  const pecas: Peca[] = [];
  for (const it of itens) {
    if (typeof it.str !== "string" || !it.transform || it.transform.length < 6) continue;
    // Chromium's PDFs carry a cell gap as a " " item as wide as the gap: the gap is measured
    // from the positions of the words instead
    if (it.str.trim() === "") continue;
    const [a, b, , d, x, y] = it.transform as [number, number, number, number, number, number];
    const altura = Math.abs(it.height ?? 0) || Math.hypot(b, d) || Math.abs(a) || 10;
    pecas.push({ x, y, fim: x + (it.width ?? 0), altura, str: it.str });
  }
  pecas.sort((p, q) => q.y - p.y || p.x - q.x);
  const fileiras: Peca[][] = [];
  for (const p of pecas) {
    const ultima = fileiras[fileiras.length - 1];
    if (ultima && Math.abs(ultima[0]!.y - p.y) <= 0.4 * Math.max(ultima[0]!.altura, p.altura)) ultima.push(p);
    else fileiras.push([p]);
  }
  const linhas: string[] = [];
  for (const f of fileiras) {
    f.sort((p, q) => p.x - q.x);
    let s = "";
    let fim = -Infinity;
    for (const p of f) {
      const vao = p.x - fim;
      if (s !== "" && vao > p.altura / 4 && !/\s$/.test(s) && !/^\s/.test(p.str)) {
        // a word gap is one space; a gap wider than 0.6 em (a table cell, a label and its value
        // far apart) at least two, about one per 0.3 em, at most 8
        s += vao > 0.6 * p.altura ? " ".repeat(Math.max(2, Math.min(8, Math.round(vao / (0.3 * p.altura))))) : " ";
      }
      s += p.str;
      fim = Math.max(fim, p.fim);
    }
    const limpa = s.replace(/\s+$/, "");
    if (limpa.trim() !== "") linhas.push(limpa);
  }
  return linhas;
}

/** A PDF's text layer -> TextoLido (origem "pdf_texto"): every word with confidence 1. */
export function textoDoPdf(linhas: readonly string[]): TextoLido {
  const palavras: PalavraOcr[] = [];
  linhas.forEach((l, i) => {
    for (const w of l.split(/\s+/)) if (w !== "") palavras.push({ texto: w, confianca: 1, linha: i });
  });
  return { texto: linhas.join("\n"), origem: "pdf_texto", palavras };
}

/**
 * Whether a PDF's text layer is the document (a PDF printed by a system) or not (a scan, maybe
 * with a few stray characters, a stamp or a page number): at least 80 letters or digits per page
 * read, 10 of them digits (a romaneio is mostly numbers).
 */
export function camadaDeTextoBasta(texto: string, paginas = 1): boolean {
  const alnum = (texto.match(/[\p{L}\p{N}]/gu) ?? []).length;
  const digitos = (texto.match(/\p{N}/gu) ?? []).length;
  const n = Math.max(1, paginas);
  return alnum >= 80 * n && digitos >= 10 * n;
}

export type TipoArquivo = "image/png" | "image/jpeg" | "image/webp" | "application/pdf";

/** The file type from its magic bytes (never from the name or the declared Content-Type alone). */
export function tipoDoArquivo(bytes: Uint8Array): TipoArquivo | null {
  const b = (i: number) => bytes[i];
  const comeca = (sig: number[], em = 0) => bytes.length >= em + sig.length && sig.every((v, i) => b(em + i) === v);
  if (comeca([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (comeca([0xff, 0xd8, 0xff])) return "image/jpeg";
  if (comeca([0x52, 0x49, 0x46, 0x46]) && comeca([0x57, 0x45, 0x42, 0x50], 8)) return "image/webp";
  // "%PDF-": readers accept it anywhere in the first 1024 bytes (some generators prepend junk)
  const limite = Math.min(bytes.length - 5, 1024);
  for (let i = 0; i <= limite; i++) {
    if (b(i) === 0x25 && b(i + 1) === 0x50 && b(i + 2) === 0x44 && b(i + 3) === 0x46 && b(i + 4) === 0x2d) return "application/pdf";
  }
  return null;
}

/**
 * Width and height from an image's header (PNG IHDR, JPEG SOFn, WebP VP8/VP8L/VP8X), read before
 * the image is decoded, so a tiny file that declares a gigantic image is refused; null when the
 * header is not there (a truncated or corrupt file).
 */
export function dimensoesDaImagem(bytes: Uint8Array): { largura: number; altura: number } | null {
  const tipo = tipoDoArquivo(bytes);
  const u16be = (i: number) => (bytes[i]! << 8) | bytes[i + 1]!;
  const u16le = (i: number) => bytes[i]! | (bytes[i + 1]! << 8);
  const u24le = (i: number) => bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16);
  const u32be = (i: number) => ((bytes[i]! << 24) >>> 0) + (bytes[i + 1]! << 16) + (bytes[i + 2]! << 8) + bytes[i + 3]!;
  const ok = (l: number, a: number) => (l > 0 && a > 0 ? { largura: l, altura: a } : null);
  if (tipo === "image/png") {
    if (bytes.length < 24 || String.fromCharCode(...bytes.subarray(12, 16)) !== "IHDR") return null;
    return ok(u32be(16), u32be(20));
  }
  if (tipo === "image/jpeg") {
    let i = 2;
    while (i + 9 < bytes.length) {
      if (bytes[i] !== 0xff) return null;
      const m = bytes[i + 1]!;
      if (m === 0xff) {
        i++;
        continue;
      }
      if (m === 0xd8 || (m >= 0xd0 && m <= 0xd7) || m === 0x01) {
        i += 2;
        continue;
      }
      // SOF0..SOF15 except DHT (c4), JPG (c8), DAC (cc)
      if (m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc) return ok(u16be(i + 7), u16be(i + 5));
      if (m === 0xda || m === 0xd9) return null;
      i += 2 + u16be(i + 2);
    }
    return null;
  }
  if (tipo === "image/webp") {
    if (bytes.length < 30) return null;
    const chunk = String.fromCharCode(...bytes.subarray(12, 16));
    if (chunk === "VP8X") return ok(u24le(24) + 1, u24le(27) + 1);
    if (chunk === "VP8 ") return ok(u16le(26) & 0x3fff, u16le(28) & 0x3fff);
    if (chunk === "VP8L") {
      const b = (k: number) => bytes[21 + k]!;
      return ok(1 + (((b(1) & 0x3f) << 8) | b(0)), 1 + (((b(3) & 0xf) << 10) | (b(2) << 2) | ((b(1) & 0xc0) >> 6)));
    }
    return null;
  }
  return null;
}
