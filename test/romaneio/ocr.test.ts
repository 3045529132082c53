import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { deflateSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../pipeline/config.ts";
import { ErroOcr, MEMORIA_EXTERNA_PDF_MB, criarLeitorOcr, type LeitorOcr } from "../../pipeline/romaneio/ocr.ts";
import { camadaDeTextoBasta, dimensoesDaImagem, linhasDoPdf, textoDoTesseract, tipoDoArquivo } from "../../pipeline/romaneio/ocr-comum.ts";
import { gerarCorpus, type DocumentoCorpus } from "./corpus.ts";

/**
 * The OCR engine on the clean corpus (local files only): images and scanned PDFs through
 * Tesseract, PDFs with a text layer through pdf.js, the time limit, the queue cap, broken files,
 * and that the engine neither leaves a worker running nor opens any file for writing.
 */

const TSX = join(REPO_ROOT, "node_modules/.bin/tsx");
const brl = (n: number) => n.toLocaleString("pt-BR", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

let doc: DocumentoCorpus;
let png: Uint8Array;
let pdf: Uint8Array;
let escaneado: Uint8Array;
let leitor: LeitorOcr;

beforeAll(async () => {
  const docs = await gerarCorpus();
  doc = docs.find((d) => d.tipo === "abate")!;
  png = new Uint8Array(await readFile(doc.arquivos.png));
  pdf = new Uint8Array(await readFile(doc.arquivos.pdf));
  escaneado = new Uint8Array(await readFile(doc.arquivos.pdfEscaneado));
  leitor = criarLeitorOcr({ workers: 1, fila: 4 });
}, 120_000);

afterAll(async () => {
  await leitor?.fechar();
});

/** A PDF of pages that each paint one gray image (w × h, FlateDecode, the given pixel bytes). */
function pdfDeImagens(paginas: Array<{ w: number; h: number; pixels: Uint8Array; jpx?: boolean }>): Uint8Array {
  const enc = new TextEncoder();
  const objs: Uint8Array[] = [];
  const kids = paginas.map((_, i) => `${3 + i * 3} 0 R`).join(" ");
  objs.push(enc.encode("<< /Type /Catalog /Pages 2 0 R >>"));
  objs.push(enc.encode(`<< /Type /Pages /Kids [${kids}] /Count ${paginas.length} >>`));
  paginas.forEach(({ w, h, pixels, jpx }, i) => {
    const n = 3 + i * 3;
    objs.push(enc.encode(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im1 ${n + 2} 0 R >> >> /Contents ${n + 1} 0 R >>`));
    // the image across the page's width, at its own aspect ratio, at the top
    const cs = `q 612 0 0 ${((612 * h) / w).toFixed(2)} 0 ${(792 - (612 * h) / w).toFixed(2)} cm /Im1 Do Q`;
    objs.push(enc.encode(`<< /Length ${cs.length} >>\nstream\n${cs}\nendstream`));
    // a JPEG 2000 codestream is embedded as is
    const dados = jpx ? pixels : deflateSync(pixels);
    objs.push(
      Buffer.concat([
        enc.encode(`<< /Type /XObject /Subtype /Image /Width ${w} /Height ${h} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /${jpx ? "JPXDecode" : "FlateDecode"} /Length ${dados.length} >>\nstream\n`),
        dados,
        enc.encode("\nendstream"),
      ]),
    );
  });
  return arquivoPdf(objs);
}

/** A PDF file of these objects (numbered from 1, the first the catalogue), with its cross-reference table. */
function arquivoPdf(objs: readonly Uint8Array[]): Uint8Array {
  const enc = new TextEncoder();
  const partes: Uint8Array[] = [enc.encode("%PDF-1.4\n")];
  let tamanho = partes[0]!.length;
  const offsets: number[] = [];
  objs.forEach((o, i) => {
    offsets.push(tamanho);
    const bloco = Buffer.concat([enc.encode(`${i + 1} 0 obj\n`), o, enc.encode("\nendobj\n")]);
    partes.push(bloco);
    tamanho += bloco.length;
  });
  const xref = `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  partes.push(enc.encode(`${xref}trailer\n<< /Size ${objs.length + 1} /Root 1 0 R >>\nstartxref\n${tamanho}\n%%EOF\n`));
  return new Uint8Array(Buffer.concat(partes));
}

/**
 * "ROMANEIO DE ABATE" in black on white, 640 × 90 gray, as a JPEG 2000 codestream (lossy, 30:1):
 * written with the system's libopenjp2 (opj_compress's defaults), since nothing in node_modules
 * encodes JPEG 2000.
 */
const JPX_ROMANEIO = new Uint8Array(
  Buffer.from(
    "/0//UQApAAAAAAKAAAAAWgAAAAAAAAAAAAACgAAAAFoAAAAAAAAAAAABBwEB/1IADAAAAAEABQQEAAH/XAATQEBISFBISFBISFBISFBISFD/ZAAlAAFDcmVhdGVkIGJ5IE9wZW5KUEVHIHZlcnNpb24gMi41LjD/kAAKAAAAAAcWAAH/k99K4AqzCUtN1bNfSyWp7fieNg9AGkHERr1CmiLCb5HqThjKu436aBDqfp0KcuQ1ik7Hxn59COPlOgtoBCE4LFd5+0FzOmrZ7EPqcugcd17hupLS/h3XpwtfP6z/RPA9+RRaFk5GByOjLyZ9AHIu+PZmLcYQfMSSVi51EiXdjl8P+bEGVsnqmR75ukz3zbAF2miEaordhY2X3zUmfG/nxugkyOtDfV8U6DWulvsA5Yj4uErzrpTt+JfGzc3CvpHn5e01C808t2+D4WRR5jTUacNmZIqfx7bfYXbsQBHn81XpysYmKeGWZUAmG4LnU0gMaaJYPLErbRMXK4tmZaU5B7Middd7C/Banc8PPqNI8UwcsDsMJkZ+LSfgEwqQK5udLTbdQpfEma3WKdUlPyi0kbXHuapyGHWgvJ8N/r0DuqqhYkh+QT9mqgQ+N/cXANmFI8PAYfvSiBIiU1mfDRIw2Bhi8+/Hpdvx6OZ+HZixOrt8xDWAKAVgnEFCfKn+wQ1ZrP6/immMsqH6jNfjnqnJcsQjQbRIkEnUGSmpanxri5FzmsVx1QSWqSVJsoyC8TVz95WbQKYNUYYgh+wwaWJaagjqv41RATV9ZlMhSZ4MBUAYGiyhBW9CJ/qL7pPuOsQtr8XZ+jyuIZjGLBLrPK5pJaET7pTqcD9c93qpWd9+P3POe0whtySGUsVIFxCjjTkZnFbQNIeUNcqFOA2n7QN+yJNZl4nsCiMHT1ld13pBs8hKOj6J+NzeCDQnxaICglamZrxXNMuwejslAb1T6DlTGk1VjbJTPQBw3EVtI/8r1Xog2jo5sCyL7VlTGFp62IrosanmZGdsMF8qF1zP4DgXfokycUunH3mYWjkYi/bJUUuufLvfesS3VkRzTSo8vydOumSRkSO47iJLdrdOwufVqop5QqsBb2YCrC+pV0m45YlX/2EHzGtBs5uNPOBtajYUsokGKXMdDxHMl5mjjqnUtBEp4cqfdHYj+QVvIqF04uBVJSvQfdSuw/Pu3fdDufdR901x2r5XAM4tFL6YqJat+E0JeHe6tNw91G+189hCQDzCGCHcovA2bG8jqDkrrSXBduS8Ud2CZ1e+Lysnfp9LlyHUWgccIDHL63jF165W2jR9YehHoCIHsQ7/O1hj9siLA/9A32i4FbcsqGl/AJ35LoF1gH1czMZvlhXZV8Ou1C3VESBqYXHaF5T4LxVL2tNYAoMS3K99+jmH+S8MAKWzkj1JzZWqi+LHVNYCWWvDvIsDy8sYr5ftlZFu0JZB6zGSaHHDvS12kc06Jzi2yDVe428VHnJ+CbwxlA7/V0aCmeQgGWFwd+ygNuKtwshf0i7EEvxcKWHN+9KEaNAouVpJV+Yv75rOqeITodOaBH03eMXMnD1DDlxJqQq0sC8MjNwpHkHT3lB/9LqcyeG0USz3/LB/6ebOggFyRLaHTwyxgWTyKeQMk5Tir0nfY3I+zKjxkXXfR44jAuJMdwoz8mrjmmTmP40lGf8P09Xf6gzuO/9wZvxDUy/TextVwJaluMHKNMdgCynkdDgmtGhejuW2gFqlnPnsm34SCm7PLuM16etWh8OSf4Se8KggyIRwh/3MqrxNRtbcec3BI/eOqxP/HYqjXs3IRPn7p/uw/uh+6m866z27/tF9vgDvPuV2JdQfgPcvR0wSQ0T9x05vS4L3WOXCl/A5LsBlrIrR0aGB0IC8x9j0n00N/2N0JFSZQukhxKju8W9GlYbD6PoqnQAm50+KSCEvyGPy5IzezOKdgfhAEg2NMIxYWmq3hFPmjPO0rJzCpbRtmXDF7cN1xhnVqZBRhhMFjdBkC2uAq5hWIAGM326rf8heivwsAO2yG+OwMaNR2fZqB17WpuOtRejQMWmteC9KmLh95OcjZeBIY97C5w8qPtEJNyqtQGt+8UtRYKfPGgk8xiIovsuRFZ7VKNLVCjWyYc4YkK2+QtgjnSQ1P3fSntzv/gaTj6Hk3VbphQ63fIziwph3RD4l19WCGGxUuIN+YPy2Zxd68ybodNW7fQz5C3pJ53i2BL0b5A1DYIIgGI/UVh7Y9Dxl+LhrOx6x4F9PJICkKUrt5O+tVeAu6jPr3b4RX0icJs357q5D8lp3uRpaHGClPC+DKzkSNp/DmSYcsJfyRHUU5fKJS3HtL8wT7pDpdPZ513jIU/gUVEnPitzkrT3YBJMn++iju5s/vuvIJ1+ZLsAGzprkfgyFPjPIDz7lwKlLce0vz9mxU/tXi/L4JZUkzRSNFx8VTjjgufX3MDXvOXj7p1+ltPouv8rm1GWcFFXNc25tgMF26QTEqLaiW9tz6IPljsgEk/RdrBn4lyAh4SzZ0CU7mjEwlNX+NouBLm+nx3LZ37LplolmKQfEyaK/7BPRZXHRSVbvhkhiKw8sxf/Z",
    "base64",
  ),
);

async function erroDe(p: Promise<unknown>): Promise<ErroOcr> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ErroOcr);
    return e as ErroOcr;
  }
  throw new Error("a leitura deveria ter falhado");
}

/** The expected totals of an abate document, as printed (pt-BR). */
function totaisImpressos(d: DocumentoCorpus): string[] {
  const t = d.esperado.totais as { valor_bruto: number; valor_liquido: number; arrobas: number };
  return [brl(t.valor_bruto), brl(t.valor_liquido), brl(t.arrobas)];
}

describe("ocr-comum", () => {
  it("sniffs PNG, JPEG, WebP and PDF from their first bytes, nothing else", () => {
    expect(tipoDoArquivo(png)).toBe("image/png");
    expect(tipoDoArquivo(pdf)).toBe("application/pdf");
    expect(tipoDoArquivo(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]))).toBe("image/jpeg");
    expect(tipoDoArquivo(new TextEncoder().encode("RIFF\x24\x00\x00\x00WEBPVP8 "))).toBe("image/webp");
    expect(tipoDoArquivo(new TextEncoder().encode("RIFF\x24\x00\x00\x00WAVEfmt "))).toBeNull();
    expect(tipoDoArquivo(new TextEncoder().encode("GIF89a"))).toBeNull();
    expect(tipoDoArquivo(new Uint8Array())).toBeNull();
  });

  it("reads an image's size from its header, null when the header is cut", () => {
    expect(dimensoesDaImagem(png)).toEqual({ largura: 1241, altura: 1755 }) // Chromium rounds 794 × 1.5625 up;
    expect(dimensoesDaImagem(png.subarray(0, 20))).toBeNull();
  });

  it("groups pdf.js items into lines by baseline, ordered by x, with column gaps kept", () => {
    const item = (str: string, x: number, y: number, width: number) => ({ str, transform: [10, 0, 0, 10, x, y], width, height: 10 });
    const linhas = linhasDoPdf([
      item("Valor bruto", 10, 500, 50),
      item("R$ 51.696,00", 200, 500.5, 60),
      item("Data:", 10, 700, 25),
      item("05/08/2026", 38, 700, 50),
      { str: " ", transform: [10, 0, 0, 10, 60, 500], width: 140, height: 0 },
    ]);
    expect(linhas[0]).toBe("Data: 05/08/2026");
    expect(linhas[1]).toMatch(/^Valor bruto {2,}R\$ 51\.696,00$/);
    expect(linhas).toHaveLength(2);
  });

  it("joins again a row that Tesseract's layout cut into two blocks", () => {
    const w = (text: string, x0: number, y0: number, c = 90) => ({ text, confidence: c, bbox: { x0, y0, x1: x0 + 40, y1: y0 + 12 } });
    const linha = (words: ReturnType<typeof w>[]) => ({
      text: words.map((x) => x.text).join(" "),
      words,
      bbox: { x0: words[0]!.bbox.x0, y0: words[0]!.bbox.y0, x1: words[words.length - 1]!.bbox.x1, y1: words[0]!.bbox.y1 },
    });
    const t = textoDoTesseract({
      text: "",
      blocks: [
        { paragraphs: [{ lines: [linha([w("Valor", 0, 100), w("bruto", 45, 101)]), linha([w("Senar", 0, 130)])] }] },
        { paragraphs: [{ lines: [linha([w("R$", 300, 102, 55), w("51.696,00", 345, 102)])] }] },
      ],
    });
    expect(t.texto.split("\n")).toEqual(["Valor bruto   R$ 51.696,00", "Senar"]);
    expect(t.palavras).toContainEqual({ texto: "R$", confianca: 0.55, linha: 0 });
    expect(t.palavras).toContainEqual({ texto: "Senar", confianca: 0.9, linha: 1 });
  });

  it("tells a real text layer from a scan's stray characters", () => {
    expect(camadaDeTextoBasta("")).toBe(false);
    expect(camadaDeTextoBasta("Página 1")).toBe(false);
    expect(camadaDeTextoBasta("Valor bruto R$ 51.696,00 ".repeat(6))).toBe(true);
    expect(camadaDeTextoBasta("Valor bruto R$ 51.696,00 ".repeat(6), 3)).toBe(false);
  });
});

describe("criarLeitorOcr", () => {
  it("reads a clean PNG with Tesseract: words with confidences 0..1 on valid line indexes", async () => {
    const r = await leitor.ler(png, "image/png");
    expect(r).toMatchObject({ origem: "ocr", tipo: "image/png", paginas: 1 });
    expect(r.segundos).toBeGreaterThan(0);
    expect(r.texto).toContain("ROMANEIO DE ABATE");
    for (const t of totaisImpressos(doc)) expect(r.texto).toContain(t);
    const linhas = r.texto.split("\n");
    expect(r.palavras!.length).toBeGreaterThan(50);
    for (const p of r.palavras!) {
      expect(p.confianca).toBeGreaterThanOrEqual(0);
      expect(p.confianca).toBeLessThanOrEqual(1);
      expect(linhas[p.linha]).toContain(p.texto);
    }
  }, 120_000);

  it("uses a PDF's text layer when it has one (origem pdf_texto, confidence 1)", async () => {
    const r = await leitor.ler(pdf, "application/pdf");
    expect(r).toMatchObject({ origem: "pdf_texto", tipo: "application/pdf", paginas: 1 });
    expect(r.texto).toContain("ROMANEIO DE ABATE");
    expect(r.texto).toContain(doc.esperado.comprador!.documento!);
    for (const t of totaisImpressos(doc)) expect(r.texto).toContain(t);
    expect(r.palavras!.every((p) => p.confianca === 1)).toBe(true);
  }, 120_000);

  it("renders and OCRs a scanned PDF (no text layer)", async () => {
    const r = await leitor.ler(escaneado, "application/pdf");
    expect(r).toMatchObject({ origem: "ocr", tipo: "application/pdf", paginas: 1 });
    expect(r.texto).toContain("ROMANEIO DE ABATE");
    for (const t of totaisImpressos(doc)) expect(r.texto).toContain(t);
    expect(r.palavras!.some((p) => p.confianca < 1)).toBe(true);
  }, 120_000);

  it("trusts the bytes, not the declared type", async () => {
    const r = await leitor.ler(pdf, "image/png");
    expect(r.tipo).toBe("application/pdf");
    expect(r.origem).toBe("pdf_texto");
  }, 120_000);

  it("refuses broken files with a code and a Portuguese message, and keeps working", async () => {
    const lixo = await erroDe(leitor.ler(new TextEncoder().encode("isto não é uma imagem"), "image/png"));
    expect(lixo.codigo).toBe("arquivo_invalido");
    expect(lixo.message).toMatch(/não é PNG, JPEG, WebP nem PDF/);

    // the header is there, the pixels are cut off
    const cortado = await erroDe(leitor.ler(png.subarray(0, Math.floor(png.length / 3)), "image/png"));
    expect(cortado.codigo).toBe("arquivo_invalido");
    expect(cortado.message).toMatch(/corrompido ou incompleto/);

    // only the signature: no header to read
    const soAssinatura = await erroDe(leitor.ler(png.subarray(0, 12), "image/png"));
    expect(soAssinatura.codigo).toBe("arquivo_invalido");

    // a tiny file that declares a 30000 × 30000 image is refused before it is decoded
    const bomba = png.slice(0, 33);
    new DataView(bomba.buffer).setUint32(16, 30_000);
    new DataView(bomba.buffer).setUint32(20, 30_000);
    const grande = await erroDe(leitor.ler(bomba, "image/png"));
    expect(grande.codigo).toBe("arquivo_invalido");
    expect(grande.message).toMatch(/grande demais/);
    expect(grande.motivo).toBe("a imagem é grande demais (30000 × 30000 pixels; o máximo é 50 megapixels)");

    const truncado = await erroDe(leitor.ler(pdf.subarray(0, Math.floor(pdf.length / 2)), "application/pdf"));
    expect(truncado.codigo).toBe("pdf_invalido");

    const semPaginas = new TextEncoder().encode(
      "%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n",
    );
    const vazio = await erroDe(leitor.ler(semPaginas, "application/pdf"));
    expect(vazio.codigo).toBe("pdf_invalido");

    const soCabecalho = await erroDe(leitor.ler(new TextEncoder().encode("%PDF-1.7\n"), "application/pdf"));
    expect(soCabecalho.codigo).toBe("pdf_invalido");

    // the worker that choked on the cut PNG was replaced: the next file reads fine
    const r = await leitor.ler(png, "image/png");
    expect(r.texto).toContain("ROMANEIO DE ABATE");
  }, 240_000);

  it("gives up past the time limit (tempo_esgotado) and stays usable", async () => {
    const apressado = criarLeitorOcr({ workers: 1, tempoLimiteMs: 1 });
    try {
      const e = await erroDe(apressado.ler(png, "image/png"));
      expect(e.codigo).toBe("tempo_esgotado");
      expect(e.message).toMatch(/tempo limite/);
      // the killed worker was replaced, not left busy: the next file gets a worker (and its own limit)
      expect((await erroDe(apressado.ler(png, "image/png"))).codigo).toBe("tempo_esgotado");
      expect((await erroDe(apressado.ler(escaneado, "application/pdf"))).codigo).toBe("tempo_esgotado");
    } finally {
      await apressado.fechar();
    }
  }, 120_000);

  it("refuses a PDF bomb (a 30000 × 30000 image declared in a tiny file) without decoding it, and reads on", async () => {
    // the pixels are a few bytes: pdf.js would inflate whatever the stream holds, the refusal
    // comes from the declared size, before any decoding
    const bomba = pdfDeImagens([{ w: 30_000, h: 30_000, pixels: new Uint8Array(30_000).fill(0xff) }]);
    expect(bomba.length).toBeLessThan(2_000);
    const e = await erroDe(leitor.ler(bomba, "application/pdf"));
    expect(e.codigo).toBe("arquivo_invalido");
    expect(e.motivo).toBe("o PDF contém uma imagem grande demais (mais de 50 megapixels)");
    // the PDF thread answered cleanly and is still there: both kinds of PDF read afterwards
    expect((await leitor.ler(pdf, "application/pdf")).origem).toBe("pdf_texto");
    expect((await leitor.ler(escaneado, "application/pdf")).texto).toContain("ROMANEIO DE ABATE");
  }, 120_000);

  it("stops a PDF whose images, each under the cap, add up to gigabytes (pixels live outside the thread's heap limit)", async () => {
    // ten 7000 × 7000 images on one page, 49 MP each, in a file of a few hundred KB: the thread's
    // V8 heap limit does not cover decoded pixels; the watch on the process's memory does
    const pixels = deflateSync(new Uint8Array(7000 * 7000).fill(0xff));
    const enc = new TextEncoder();
    const n = 10;
    const objs: Uint8Array[] = [enc.encode("<< /Type /Catalog /Pages 2 0 R >>"), enc.encode("<< /Type /Pages /Kids [3 0 R] /Count 1 >>")];
    const desenho = Array.from({ length: n }, (_, k) => `q 50 0 0 50 ${10 + k * 55} 10 cm /Im${k} Do Q`).join("\n");
    objs.push(enc.encode(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << ${Array.from({ length: n }, (_, k) => `/Im${k} ${5 + k} 0 R`).join(" ")} >> >> /Contents 4 0 R >>`));
    objs.push(enc.encode(`<< /Length ${desenho.length} >>\nstream\n${desenho}\nendstream`));
    for (let k = 0; k < n; k++) {
      objs.push(Buffer.concat([enc.encode(`<< /Type /XObject /Subtype /Image /Width 7000 /Height 7000 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length ${pixels.length} >>\nstream\n`), pixels, enc.encode("\nendstream")]));
    }
    const bomba = arquivoPdf(objs);
    expect(bomba.length).toBeLessThan(2_000_000);
    const e = await erroDe(leitor.ler(bomba, "application/pdf"));
    expect(e.codigo).toBe("arquivo_invalido");
    expect(e.motivo).toBe(`o PDF exige memória demais para ser lido (as imagens passam de ${MEMORIA_EXTERNA_PDF_MB} MB)`);
    // a fresh PDF thread took the place of the one stopped
    expect((await leitor.ler(pdf, "application/pdf")).origem).toBe("pdf_texto");
  }, 120_000);

  it("renders a scan compressed as JPEG 2000 (/JPXDecode: pdf.js's OpenJPEG wasm, wasmUrl)", async () => {
    const r = await leitor.ler(pdfDeImagens([{ w: 640, h: 90, pixels: JPX_ROMANEIO, jpx: true }]), "application/pdf");
    expect(r.origem).toBe("ocr");
    // without wasmUrl pdf.js looks for "nullopenjpeg.wasm" and draws a blank page
    expect(r.texto).toContain("ROMANEIO DE ABATE");
  }, 120_000);

  it("one deadline for a whole PDF (parsing, rendering, OCR), with the work off the main thread", async () => {
    // five pages of 49 megapixels each (under the cap): seconds of inflating and drawing
    const pixels = new Uint8Array(7_000 * 7_000).fill(0xff);
    const pesado = pdfDeImagens(Array.from({ length: 5 }, () => ({ w: 7_000, h: 7_000, pixels })));
    const apressado = criarLeitorOcr({ workers: 1, tempoLimiteMs: 3_000, fila: 0 });
    try {
      let tiques = 0;
      const relogio = setInterval(() => tiques++, 10);
      const antes = performance.eventLoopUtilization();
      const leitura = apressado.ler(pesado, "application/pdf");
      // the slot is taken before the PDF is parsed: a second file finds it busy and no queue
      expect((await erroDe(apressado.ler(pesado, "application/pdf"))).codigo).toBe("ocupado");
      const e = await erroDe(leitura);
      const uso = performance.eventLoopUtilization(antes);
      clearInterval(relogio);
      expect(e.codigo).toBe("tempo_esgotado");
      expect(e.motivo).toBe("o PDF passou do tempo limite de 3 s");
      // the decoding and drawing ran on the PDF thread: this thread stayed idle and its timer ticked
      expect(uso.utilization).toBeLessThan(0.5);
      expect(tiques).toBeGreaterThan(20);
      // the thread at work was terminated and replaced: the slot is free and reads a PDF again (on a
      // loaded machine the new thread's start alone can pass 3 s: that is the deadline again, never "ocupado")
      let outra: unknown;
      for (let i = 0; i < 3; i++) {
        outra = await apressado.ler(pdf, "application/pdf").catch((err: unknown) => err);
        if (!(outra instanceof ErroOcr) || outra.codigo !== "tempo_esgotado") break;
      }
      expect((outra as { origem?: string }).origem).toBe("pdf_texto");
    } finally {
      await apressado.fechar();
    }
  }, 120_000);

  it("an engine that cannot start (no language data) says so with its own code, indisponivel: no work was done on the file", async () => {
    const dir = await mkdtemp(join(tmpdir(), "romaneio-sem-dados-"));
    const quebrado = criarLeitorOcr({ dirLingua: dir, inicioMaximoMs: 3000 });
    try {
      const e = await erroDe(quebrado.ler(png, "image/png"));
      expect([e.codigo, e.motivo]).toEqual(["indisponivel", "o motor de OCR deste servidor não pôde iniciar"]);
      expect((e.cause as Error).message).toBe(`o motor de OCR não iniciou em 3 s (dados de língua em ${dir})`);
      // the slot was handed on at once: the next file gets the same answer, not a wait
      expect((await erroDe(quebrado.ler(png, "image/png"))).codigo).toBe("indisponivel");
    } finally {
      await quebrado.fechar();
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("refuses a file when every worker is busy and the queue is full (ocupado)", async () => {
    const pequeno = criarLeitorOcr({ workers: 1, fila: 1 });
    try {
      const a = pequeno.ler(png, "image/png"); // takes the worker
      const b = pequeno.ler(png, "image/png"); // waits
      const c = await erroDe(pequeno.ler(png, "image/png"));
      expect(c.codigo).toBe("ocupado");
      expect(c.message).toMatch(/fila \(1\) está cheia/);
      const [ra, rb] = await Promise.all([a, b]);
      expect(ra.texto).toBe(rb.texto);
      // the queue drained: room again
      expect((await pequeno.ler(pdf, "application/pdf")).origem).toBe("pdf_texto");
    } finally {
      await pequeno.fechar();
    }
    expect((await erroDe(pequeno.ler(png, "image/png"))).codigo).toBe("ocupado");
  }, 240_000);

  it("fechar() ends every worker and nothing is opened for writing (strace)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "romaneio-strace-"));
    try {
      const log = join(dir, "strace.log");
      const r = spawnSync(
        "strace",
        [
          "-f",
          "-e",
          "trace=openat,open,creat",
          "-o",
          log,
          TSX,
          "test/romaneio/ocr-filho.ts",
          `${doc.arquivos.png}:image/png`,
          `${doc.arquivos.pdf}:application/pdf`,
          `${doc.arquivos.pdfEscaneado}:application/pdf`,
        ],
        // tsx would otherwise write its transpile cache; the child must exit by itself (no
        // worker left), well before this timeout
        { cwd: REPO_ROOT, encoding: "utf8", timeout: 180_000, env: { ...process.env, TSX_DISABLE_CACHE: "1" } },
      );
      expect(r.error).toBeUndefined();
      expect(r.status, r.stderr).toBe(0);
      const saida = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as { origem: string });
      expect(saida.map((s) => s.origem)).toEqual(["ocr", "pdf_texto", "ocr"]);
      const abertos = (await readFile(log, "utf8")).split("\n").filter((l) => /\bopen(at)?\(|\bcreat\(/.test(l));
      // the trace is real: it saw the uploads and the language data being read
      expect(abertos.some((l) => l.includes(doc.arquivos.png))).toBe(true);
      expect(abertos.some((l) => l.includes("por.traineddata.gz"))).toBe(true);
      const escritas = abertos.filter((l) => /O_WRONLY|O_RDWR|O_CREAT|\bcreat\(/.test(l)).filter((l) => !/"\/(dev|proc)\//.test(l));
      expect(escritas).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 240_000);
});
