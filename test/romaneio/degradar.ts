import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright";
import { CHROMIUM_ARGS } from "../../pipeline/fetch/browser.ts";
import { CHROMIUM } from "../browser/chromium.ts";
import type { LeituraRomaneio } from "../../pipeline/domain/publicados.gerados.ts";
import { CONFIANCA_MINIMA } from "../../pipeline/romaneio/ler.ts";
import { CACHE_CORPUS, gerarCorpus, hashDoCorpus, type DocumentoCorpus } from "./corpus.ts";

/**
 * The degraded corpus: every clean PNG of corpus.ts made worse the ways a phone photo or a bad
 * scan is, in Chromium's canvas (its blur filter, its JPEG encoder), with noise from a seeded
 * generator, so the same bytes come out every time. Cached like the clean corpus, under
 * node_modules/.cache/romaneio-corpus-degradado/<hash of the clean corpus and this file>/.
 * Each copy keeps its document's expected fields.
 */

export const DEGRADACOES = ["rotacao", "desfoque", "ruido", "jpeg", "baixa_resolucao", "iluminacao", "celular"] as const;
export type Degradacao = (typeof DEGRADACOES)[number];

/** What each one does, for the bench's table. */
export const DESCRICAO: Record<Degradacao, string> = {
  rotacao: "girada 2–4°",
  desfoque: "desfoque gaussiano 1,2 px",
  ruido: "ruído gaussiano σ≈28",
  jpeg: "JPEG qualidade 25",
  baixa_resolucao: "100 dpi (2/3 do tamanho)",
  iluminacao: "luz desigual (gradiente até 55% mais escuro)",
  celular: "foto de celular: 3° + luz desigual + desfoque + ruído + JPEG 60",
};

export interface DocumentoDegradado {
  /** `${documento}.${degradacao}` */
  id: string;
  documento: string;
  degradacao: Degradacao;
  tipo: "image/png" | "image/jpeg";
  /** absolute path */
  arquivo: string;
  esperado: DocumentoCorpus["esperado"];
}

const AQUI = fileURLToPath(new URL(".", import.meta.url));
export const CACHE_DEGRADADOS = resolve(AQUI, "../../node_modules/.cache/romaneio-corpus-degradado");

async function hashDosDegradados(): Promise<string> {
  const h = createHash("sha256");
  h.update(await hashDoCorpus());
  // only what shapes the bytes: the list of degradations and the page's code (not the helpers below)
  const fonte = await readFile(join(AQUI, "degradar.ts"), "utf8");
  h.update(fonte.slice(fonte.indexOf("export const DEGRADACOES"), fonte.indexOf("export async function gerarDegradados")));
  return h.digest("hex").slice(0, 16);
}

const tipoDe = (d: Degradacao): DocumentoDegradado["tipo"] => (d === "jpeg" || d === "celular" ? "image/jpeg" : "image/png");

function degradados(dir: string, docs: DocumentoCorpus[]): DocumentoDegradado[] {
  return docs.flatMap((doc) =>
    DEGRADACOES.map((degradacao) => ({
      id: `${doc.id}.${degradacao}`,
      documento: doc.id,
      degradacao,
      tipo: tipoDe(degradacao),
      arquivo: join(dir, `${doc.id}.${degradacao}.${tipoDe(degradacao) === "image/jpeg" ? "jpg" : "png"}`),
      esperado: doc.esperado,
    })),
  );
}

/** Seed of a document's noise and angle: from its id, so every copy differs and repeats. */
function semente(id: string): number {
  return createHash("sha256").update(id).digest().readUInt32LE(0);
}

/**
 * Runs in the page: the clean PNG (data URL) -> the degraded image (data URL). The noise is
 * mulberry32 (seeded), Gaussian-like as the sum of three uniforms.
 */
async function degradarNaPagina(args: { png: string; degradacao: Degradacao; semente: number }): Promise<string> {
  const { png, degradacao, semente } = args;
  let s = semente >>> 0;
  const aleatorio = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const gauss = () => (aleatorio() + aleatorio() + aleatorio() - 1.5) * 2; // sd ≈ 1
  const img = new Image();
  img.src = png;
  await img.decode();
  const W = img.naturalWidth;
  const H = img.naturalHeight;
  const canvas = (w: number, h: number) => {
    const c = document.createElement("canvas");
    c.width = w;
    c.height = h;
    const ctx = c.getContext("2d", { willReadFrequently: true })!;
    ctx.fillStyle = "#fff";
    ctx.fillRect(0, 0, w, h);
    return { c, ctx };
  };
  let atual: HTMLCanvasElement = canvas(W, H).c;
  atual.getContext("2d")!.drawImage(img, 0, 0);

  const girar = (graus: number) => {
    const { c, ctx } = canvas(atual.width, atual.height);
    ctx.translate(c.width / 2, c.height / 2);
    ctx.rotate((graus * Math.PI) / 180);
    ctx.drawImage(atual, -atual.width / 2, -atual.height / 2);
    atual = c;
  };
  const desfocar = (px: number) => {
    const { c, ctx } = canvas(atual.width, atual.height);
    ctx.filter = `blur(${px}px)`;
    ctx.drawImage(atual, 0, 0);
    atual = c;
  };
  const escalar = (f: number) => {
    const { c, ctx } = canvas(Math.round(atual.width * f), Math.round(atual.height * f));
    ctx.imageSmoothingQuality = "high";
    ctx.drawImage(atual, 0, 0, c.width, c.height);
    atual = c;
  };
  const pixels = (f: (d: Uint8ClampedArray, x: number, y: number, i: number) => void) => {
    const ctx = atual.getContext("2d")!;
    const dados = ctx.getImageData(0, 0, atual.width, atual.height);
    const d = dados.data;
    for (let y = 0; y < atual.height; y++) for (let x = 0; x < atual.width; x++) f(d, x, y, (y * atual.width + x) * 4);
    ctx.putImageData(dados, 0, 0);
  };
  const ruido = (sd: number) =>
    pixels((d, _x, _y, i) => {
      const n = gauss() * sd;
      d[i] = d[i]! + n;
      d[i + 1] = d[i + 1]! + n;
      d[i + 2] = d[i + 2]! + n;
    });
  // a lamp off to one side: brightness falls from 100% at the top-left corner to `minimo` at the bottom-right, with a yellowish cast
  const luz = (minimo: number) =>
    pixels((d, x, y, i) => {
      const t = (x / atual.width + y / atual.height) / 2;
      const f = 1 - (1 - minimo) * t * t * (3 - 2 * t);
      d[i] = d[i]! * f;
      d[i + 1] = d[i + 1]! * f * 0.97;
      d[i + 2] = d[i + 2]! * f * 0.85;
    });
  const angulo = (2 + aleatorio() * 2) * (aleatorio() < 0.5 ? -1 : 1);

  switch (degradacao) {
    case "rotacao":
      girar(angulo);
      break;
    case "desfoque":
      desfocar(1.2);
      break;
    case "ruido":
      ruido(28);
      break;
    case "jpeg":
      return atual.toDataURL("image/jpeg", 0.25);
    case "baixa_resolucao":
      escalar(2 / 3);
      break;
    case "iluminacao":
      luz(0.45);
      break;
    case "celular":
      girar(angulo > 0 ? 3 : -3);
      luz(0.55);
      desfocar(0.8);
      ruido(14);
      return atual.toDataURL("image/jpeg", 0.6);
  }
  return atual.toDataURL("image/png");
}

async function renderizar(docs: DocumentoCorpus[], saida: DocumentoDegradado[]): Promise<void> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS] });
  try {
    const context = await browser.newContext({ offline: true });
    await context.route("**/*", (route) => (route.request().url().startsWith("data:") ? route.continue() : route.abort()));
    const page = await context.newPage();
    await page.setContent("<!doctype html><title>degradar</title>");
    // tsx (esbuild keepNames) wraps inner functions in __name(...); the page has no such helper
    await page.evaluate("globalThis.__name = (f) => f");
    for (const doc of docs) {
      const png = `data:image/png;base64,${(await readFile(doc.arquivos.png)).toString("base64")}`;
      for (const d of saida.filter((x) => x.documento === doc.id)) {
        const url = await page.evaluate(degradarNaPagina, { png, degradacao: d.degradacao, semente: semente(d.id) });
        await writeFile(d.arquivo, Buffer.from(url.slice(url.indexOf(",") + 1), "base64"));
      }
    }
    await context.close();
  } finally {
    await browser.close();
  }
}

/**
 * The degraded copies of every clean document, rendered once into `${raiz}/<hash>/` (a temporary
 * sibling renamed into place, so a reader never sees half of them).
 */
export async function gerarDegradados(raiz: string = CACHE_DEGRADADOS, raizLimpo: string = CACHE_CORPUS): Promise<DocumentoDegradado[]> {
  const docs = await gerarCorpus(raizLimpo);
  const dir = join(raiz, await hashDosDegradados());
  if (existsSync(join(dir, "degradados.json"))) return degradados(dir, docs);
  const tmp = `${dir}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`;
  await mkdir(tmp, { recursive: true });
  try {
    const saida = degradados(tmp, docs);
    await renderizar(docs, saida);
    await writeFile(join(tmp, "degradados.json"), JSON.stringify(saida.map(({ id, degradacao, tipo }) => ({ id, degradacao, tipo })), null, 2) + "\n");
    try {
      await rename(tmp, dir);
    } catch (e) {
      if (!existsSync(join(dir, "degradados.json"))) throw e;
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  return degradados(dir, docs);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const d of await gerarDegradados(process.argv[2] ?? CACHE_DEGRADADOS)) console.log(d.id, d.arquivo);
}

export type SituacaoCampo = "exato" | "nulo" | "sinalizado" | "silencioso";

/**
 * Every expected leaf field of a document (tipo, data, parties, each animal's numbers, each
 * total and deduction) against the reading, by path (an animal matched by its number): read exactly, not read (null or missing),
 * wrong but flagged (confidence below CONFIANCA_MINIMA or named in an aviso), or wrong in silence.
 */
export function avaliarCampos(lida: LeituraRomaneio, esperado: DocumentoCorpus["esperado"]): Array<{ campo: string; situacao: SituacaoCampo }> {
  const avisados = new Set(lida.avisos.flatMap((a) => a.campos));
  const out: Array<{ campo: string; situacao: SituacaoCampo }> = [];
  const folhas = (prefixo: string, certo: unknown, lido: unknown, caminhoConf: string): void => {
    if (certo !== null && typeof certo === "object" && !Array.isArray(certo)) {
      for (const [k, v] of Object.entries(certo)) folhas(`${prefixo}.${k}`, v, (lido as Record<string, unknown> | null | undefined)?.[k], `${caminhoConf}.${k}`);
      return;
    }
    if (prefixo === ".linhas" && Array.isArray(certo)) {
      // the same animal by its number (a row OCR lost shifts the others), else the same position
      const lidas = (lido ?? []) as Array<{ identificacao: string | null }>;
      (certo as Array<{ identificacao: string | null }>).forEach((v, i) => {
        let j = lidas.findIndex((x) => x.identificacao !== null && x.identificacao === v.identificacao);
        if (j < 0 && lidas[i] && lidas[i]!.identificacao === null) j = i;
        folhas(`${prefixo}[${i}]`, v, j >= 0 ? lidas[j] : null, `${caminhoConf}[${j >= 0 ? j : i}]`);
      });
      return;
    }
    if (Array.isArray(certo) && certo.some((x) => x !== null && typeof x === "object")) {
      certo.forEach((v, i) => folhas(`${prefixo}[${i}]`, v, (lido as unknown[] | null | undefined)?.[i], `${caminhoConf}[${i}]`));
      return;
    }
    const campo = prefixo.replace(/^\./, "");
    const conf = caminhoConf.replace(/^\./, "");
    let situacao: SituacaoCampo;
    if (JSON.stringify(lido ?? null) === JSON.stringify(certo)) situacao = "exato";
    else if (lido === null || lido === undefined) situacao = "nulo";
    else if ((lida.confianca[conf] ?? 1) < CONFIANCA_MINIMA || avisados.has(conf) || avisados.has(conf.replace(/\.[a-z_]+$/, ""))) situacao = "sinalizado";
    else situacao = "silencioso";
    out.push({ campo, situacao });
  };
  folhas("", esperado, lida, "");
  return out;
}
