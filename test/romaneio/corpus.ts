import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright";
import { CHROMIUM_ARGS } from "../../pipeline/fetch/browser.ts";
import { CHROMIUM } from "../browser/chromium.ts";
import type { Desconto, LeituraRomaneio } from "../../pipeline/domain/publicados.gerados.ts";
import { CONFIANCA_MINIMA } from "../../pipeline/romaneio/ler.ts";
import { DOCUMENTOS, esperado, type Esperado } from "./modelos/calculo.ts";

export type { Esperado };
import { html } from "./modelos/layouts.ts";

/**
 * The clean corpus: every document of test/romaneio/modelos rendered in Chromium to a PNG
 * (A4 at 150 dpi, 1240 px wide), a PDF with its text layer, and a "scanned" PDF whose page is
 * only that PNG as an image. Cached under node_modules/.cache/romaneio-corpus/<hash of the
 * templates>/ (never committed): repeated runs reuse the files.
 */

export interface DocumentoCorpus {
  id: string;
  modelo: string;
  tipo: "abate" | "carga";
  /** absolute paths */
  arquivos: { png: string; pdf: string; pdfEscaneado: string };
  esperado: Esperado;
}

const AQUI = fileURLToPath(new URL(".", import.meta.url));
export const CACHE_CORPUS = resolve(AQUI, "../../node_modules/.cache/romaneio-corpus");

/** Hash of everything that shapes the rendered bytes (templates, data, this file). */
export async function hashDoCorpus(): Promise<string> {
  const h = createHash("sha256");
  const modelos = join(AQUI, "modelos");
  for (const f of (await readdir(modelos)).sort()) {
    h.update(f);
    h.update(await readFile(join(modelos, f)));
  }
  h.update(await readFile(join(AQUI, "corpus.ts")));
  return h.digest("hex").slice(0, 16);
}

function documentos(dir: string): DocumentoCorpus[] {
  return DOCUMENTOS.map((d) => ({
    id: d.id,
    modelo: d.modelo,
    tipo: d.tipo,
    arquivos: { png: join(dir, `${d.id}.png`), pdf: join(dir, `${d.id}.pdf`), pdfEscaneado: join(dir, `${d.id}.escaneado.pdf`) },
    esperado: esperado(d),
  }));
}

/** Chromium stamps the render time into a PDF's Info dictionary: fixed, same length, so the bytes repeat. */
function semDatas(pdf: Buffer): Buffer {
  const s = pdf.toString("latin1").replace(/\/(CreationDate|ModDate) \(D:(\d{14})([^)]*)\)/g, (_m, k: string, d: string, rest: string) => `/${k} (D:${"20260101000000".slice(0, d.length)}${rest.replace(/[0-9]/g, "0")})`);
  return Buffer.from(s, "latin1");
}

async function renderizar(dir: string, docs: DocumentoCorpus[]): Promise<void> {
  // launch() gives a fresh temporary profile, removed on close
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS] });
  try {
    // the PNG at 150 dpi: 794 CSS px × 1.5625 = 1240 px wide, the A4 page's height
    const context = await browser.newContext({ viewport: { width: 794, height: 1123 }, deviceScaleFactor: 1.5625, locale: "pt-BR", offline: true });
    // offline: a template never loads anything, and nothing may be fetched by accident
    await context.route("**/*", (route) => (route.request().url().startsWith("data:") ? route.continue() : route.abort()));
    const page = await context.newPage();
    for (const [i, doc] of docs.entries()) {
      await page.setContent(html(DOCUMENTOS[i]!), { waitUntil: "load" });
      await writeFile(doc.arquivos.pdf, semDatas(await page.pdf({ format: "A4", printBackground: true, margin: { top: "0", bottom: "0", left: "0", right: "0" } })));
      const png = await page.screenshot({ type: "png", clip: { x: 0, y: 0, width: 794, height: 1123 } });
      await writeFile(doc.arquivos.png, png);
      // a scan: the page is the picture alone, so the PDF has no text layer
      await page.setContent(
        `<!doctype html><html><head><style>@page{size:A4;margin:0}html,body{margin:0}img{display:block;width:210mm;height:297mm}</style></head><body><img src="data:image/png;base64,${png.toString("base64")}"></body></html>`,
        { waitUntil: "load" },
      );
      await writeFile(doc.arquivos.pdfEscaneado, semDatas(await page.pdf({ format: "A4", printBackground: true, margin: { top: "0", bottom: "0", left: "0", right: "0" } })));
    }
    await context.close();
  } finally {
    await browser.close();
  }
}

/**
 * Renders the corpus once into `${raiz}/<hash>/` and returns its documents; a later call (or a
 * parallel test file) finds the directory complete and renders nothing. Rendered into a
 * temporary sibling and renamed, so a reader never sees half a corpus.
 */
export async function gerarCorpus(raiz: string = CACHE_CORPUS): Promise<DocumentoCorpus[]> {
  const dir = join(raiz, await hashDoCorpus());
  if (existsSync(join(dir, "corpus.json"))) return documentos(dir);
  const tmp = `${dir}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`;
  await mkdir(tmp, { recursive: true });
  try {
    const docs = documentos(tmp);
    await renderizar(tmp, docs);
    await writeFile(join(tmp, "corpus.json"), JSON.stringify(docs.map((d) => ({ id: d.id, modelo: d.modelo, tipo: d.tipo, esperado: d.esperado })), null, 2) + "\n");
    try {
      await rename(tmp, dir);
    } catch (e) {
      // another process finished first: its files are the same documents
      if (!existsSync(join(dir, "corpus.json"))) throw e;
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  return documentos(dir);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const docs = await gerarCorpus(process.argv[2] ?? CACHE_CORPUS);
  for (const d of docs) console.log(d.id, d.arquivos.png);
}

/** Field-by-field differences between a reading and the expected fields (empty: read exactly). */
export function diferencas(lida: LeituraRomaneio, esperado: Esperado): string[] {
  const out: string[] = [];
  const cmp = (p: string, a: unknown, b: unknown): void => {
    if (JSON.stringify(a) !== JSON.stringify(b)) out.push(`${p}: lido ${JSON.stringify(a)}, esperado ${JSON.stringify(b)}`);
  };
  for (const k of ["tipo", "data", "produto", "uf", "municipio", "comprador", "vendedor"] as const) cmp(k, lida[k], esperado[k]);
  cmp("linhas.length", lida.linhas.length, esperado.linhas.length);
  esperado.linhas.forEach((x, i) => cmp(`linhas[${i}]`, lida.linhas[i], x));
  if (lida.totais && esperado.totais) for (const [k, v] of Object.entries(esperado.totais)) cmp(`totais.${k}`, (lida.totais as unknown as Record<string, unknown>)[k], v);
  else cmp("totais", lida.totais, esperado.totais);
  return out;
}

/**
 * The numbers (and the type, date, UF and product, which pick the reference) a reading gets
 * wrong without saying so (animals matched by their weights or
 * number, deductions by name, unlike the bench's avaliarCampos, which goes by position): a value that is not null, differs from the
 * expected one, has a confidence at or above CONFIANCA_MINIMA and is named in no aviso. The
 * promise of the reader is that this list is always empty, however bad the picture.
 */
export function numerosErradosEmSilencio(lida: LeituraRomaneio, esperado: Esperado): string[] {
  const avisados = new Set(lida.avisos.flatMap((a) => a.campos));
  const out: string[] = [];
  const ver = (caminho: string, lido: unknown, certo: unknown): void => {
    if (lido === null || lido === undefined) return;
    if (JSON.stringify(lido) === JSON.stringify(certo)) return;
    if ((lida.confianca[caminho] ?? 1) < CONFIANCA_MINIMA) return;
    if (avisados.has(caminho)) return;
    out.push(`${caminho}: lido ${JSON.stringify(lido)}, certo ${JSON.stringify(certo)} (confiança ${lida.confianca[caminho] ?? "?"})`);
  };
  // the fields that pick the reference series and day: a wrong one misleads the comparison as
  // much as a wrong price (a wrong tipo also reads every total under the wrong names)
  for (const k of ["tipo", "data", "uf", "produto"] as const) ver(k, lida[k], esperado[k]);
  const t = (lida.totais ?? {}) as unknown as Record<string, unknown>;
  const e = (esperado.totais ?? {}) as unknown as Record<string, unknown>;
  if (lida.tipo === esperado.tipo) {
    for (const [k, v] of Object.entries(t)) if (typeof v === "number") ver(`totais.${k}`, v, e[k] ?? null);
    const dl = (t["descontos"] ?? []) as Desconto[];
    const de = (e["descontos"] ?? []) as Desconto[];
    dl.forEach((d, i) => {
      const certo = de.find((x) => x.nome === d.nome);
      ver(`totais.descontos[${i}].valor`, d.valor, certo?.valor ?? null);
      ver(`totais.descontos[${i}].aliquota_pct`, d.aliquota_pct, certo?.aliquota_pct ?? null);
    });
  }
  lida.linhas.forEach((l, i) => {
    // the same animal: by its number, else by its weights (a row OCR lost shifts the others)
    // (weights first: OCR may misread the animal's number itself, "2" as "4")
    const certo = esperado.linhas.find((x) => x.peso_carcaca_kg === l.peso_carcaca_kg && x.arrobas === l.arrobas) ?? esperado.linhas.find((x) => x.identificacao === l.identificacao);
    ver(`linhas[${i}].peso_carcaca_kg`, l.peso_carcaca_kg, certo?.peso_carcaca_kg ?? null);
    ver(`linhas[${i}].arrobas`, l.arrobas, certo?.arrobas ?? null);
    ver(`linhas[${i}].bandas_kg`, l.bandas_kg, certo?.bandas_kg ?? null);
  });
  return out;
}
