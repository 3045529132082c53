import { cp, readFile, stat } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize } from "node:path";
import type { Page, Request } from "playwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../pipeline/config.ts";
import { formatDecimalBR } from "../../pipeline/domain/money.ts";
import type { LeituraRomaneio, Romaneio } from "../../pipeline/domain/publicados.gerados.ts";
import type { SerieFile } from "../../pipeline/domain/publicados.ts";
import { VENDOR_ROMANEIO, VENDOR_ROMANEIO_DIR } from "../../pipeline/publish/deploy.ts";
import { compararRomaneio, seriesDoRomaneio } from "../../pipeline/romaneio/comparar.ts";
import { criarLeitorOcr } from "../../pipeline/romaneio/ocr.ts";
import { startServer, type RunningServer } from "../../pipeline/serve/app.ts";
import { buildAssets } from "../../pipeline/serve/assets.ts";
import { reaisComSinal } from "../../pipeline/serve/web/dom.ts";
import { schemaErrors } from "../events/helpers.ts";
import { gerarCorpus, type DocumentoCorpus } from "../romaneio/corpus.ts";
import { buildTestSite } from "../serve/site.ts";
import { openChromium } from "./chromium.ts";

/** A clean reading's numbers, every one confirmed by its checks: what the page's reading of the corpus has. */
const CONFIRMADOS = { "totais.preco_arroba": 1, "totais.arrobas": 1, "totais.cabecas": 1, "totais.preco_saca": 1, "totais.sacas": 1 };

/**
 * The romaneio page in Chromium, served like GitHub Pages serves the site: static files under a
 * sub-path (/cotacao-aberta/), no server code. The site is the pipeline's own build of the
 * recorded pages (boi gordo MS: R$ 338,00/@ on 05/08/2026, Scot), and the document is the
 * corpus's slaughter settlement of that day in MS at R$ 320,00/@. Every request the page makes
 * is recorded on the server: a GET of a site file, never a body (the file stays in the browser).
 */
const SUB = "/cotacao-aberta/";
const HOJE = new Date("2026-09-26T12:00:00-03:00");
const TIPOS: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
};

interface Pedido {
  metodo: string;
  caminho: string;
  bytes: number;
}

let site: Awaited<ReturnType<typeof buildTestSite>>;
let estatico: Server;
let base: string;
let browser: Awaited<ReturnType<typeof openChromium>>;
let corpus: DocumentoCorpus[];
const pedidos: Pedido[] = [];

/** A static host: files under SUB, nothing else (GitHub Pages' 404 for anything missing). */
function servidorEstatico(dir: string): Promise<Server> {
  const srv = createServer((req, res) => {
    let bytes = 0;
    req.on("data", (c: Buffer) => (bytes += c.length));
    req.on("end", () => {
      const caminho = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
      pedidos.push({ metodo: req.method ?? "", caminho, bytes });
      void (async () => {
        if (req.method !== "GET" || !caminho.startsWith(SUB)) return res.writeHead(404).end();
        let arquivo = normalize(join(dir, caminho.slice(SUB.length)));
        if (!arquivo.startsWith(dir)) return res.writeHead(404).end();
        if ((await stat(arquivo).catch(() => null))?.isDirectory()) arquivo = join(arquivo, "index.html");
        const corpo = await readFile(arquivo).catch(() => null);
        if (!corpo) return res.writeHead(404).end();
        res.writeHead(200, { "Content-Type": TIPOS[extname(arquivo)] ?? "application/octet-stream" }).end(corpo);
      })();
    });
  });
  return new Promise((ok) => srv.listen(0, "127.0.0.1", () => ok(srv)));
}

/** "+1,25%", "−5,33%" (the same minus sign as the R$ difference beside it) */
const pct = (p: number) => `${p > 0 ? "+" : p < 0 ? "−" : ""}${formatDecimalBR(Math.abs(p))}%`;

const doc = (id: string) => corpus.find((d) => d.id === id)!;

async function serie(id: string): Promise<SerieFile | null> {
  const t = await readFile(join(site.publicDir, "api", "v1", "cotacao", `${id}.json`), "utf8").catch(() => null);
  return t === null ? null : (JSON.parse(t) as SerieFile);
}

async function abrir(): Promise<{ page: Page; saidas: string[]; erros: string[] }> {
  const page = await browser.context.newPage();
  await page.clock.setFixedTime(HOJE);
  const erros: string[] = [];
  const saidas: string[] = [];
  page.on("pageerror", (e) => erros.push(e.message));
  // requests of the page and of its workers, as the browser sees them
  const anotar = (r: Request) => {
    if (!r.url().startsWith(base) || r.method() !== "GET" || r.postDataBuffer() !== null) saidas.push(`${r.method()} ${r.url()}`);
  };
  browser.context.on("request", anotar);
  page.on("close", () => browser.context.off("request", anotar));
  await page.goto(`${base}romaneio/`);
  await page.waitForSelector("body[data-pronto=ok]", { state: "attached" });
  return { page, saidas, erros };
}

async function lerArquivo(page: Page, arquivo: string): Promise<void> {
  const antes = Number((await page.locator("body").getAttribute("data-comparacoes")) ?? "0");
  await page.setInputFiles("#arquivo", arquivo);
  await page.waitForSelector("body[data-lido=ok]", { state: "attached", timeout: 120_000 });
  await page.waitForFunction((n) => Number(document.body.dataset.comparacoes ?? "0") > n, antes);
}

const campo = (page: Page, caminho: string) => page.locator(`#form [data-caminho="${caminho}"]`);

/** What the page must show for a reading: the shared module's comparison, formatted. */
async function comparacaoEsperada(l: LeituraRomaneio) {
  const ids = seriesDoRomaneio(l);
  const c = compararRomaneio(l, { estadual: ids.estadual ? await serie(ids.estadual) : null, nacional: ids.nacional ? await serie(ids.nacional) : null }, { hoje: "2026-09-26" });
  return c.referencias.map((r) => ({
    escopo: r.escopo,
    diferenca: r.diferenca === null ? "—" : `${reaisComSinal(r.diferenca)} (${r.diferenca_pct === null ? "—" : pct(r.diferenca_pct)})`,
  }));
}

async function referenciasNaPagina(page: Page) {
  return page.locator("#referencias tbody tr").evaluateAll((trs) =>
    trs.map((tr) => ({ escopo: (tr as HTMLElement).dataset.escopo, diferenca: tr.querySelector('[data-campo="diferenca"]')!.textContent })),
  );
}

beforeAll(async () => {
  [site, corpus] = await Promise.all([buildTestSite(), gerarCorpus()]);
  await cp(join(REPO_ROOT, "public", "romaneio"), join(site.publicDir, "romaneio"), { recursive: true, filter: (p) => !p.includes(`${join("romaneio", "vendor")}`) });
  await buildAssets(site.publicDir);
  estatico = await servidorEstatico(site.publicDir);
  base = `http://127.0.0.1:${(estatico.address() as AddressInfo).port}${SUB}`;
  browser = await openChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((ok) => (estatico ? estatico.close(ok) : ok(undefined)));
  await site?.cleanup();
});

describe("romaneio page", { timeout: 180_000 }, () => {
  it("gets its OCR engine, Portuguese data and pdf.js from the site's romaneio/vendor/, copied from node_modules", async () => {
    for (const [destino, origem] of VENDOR_ROMANEIO) {
      const copia = await readFile(join(site.publicDir, ...VENDOR_ROMANEIO_DIR.split("/"), destino));
      expect(copia.equals(await readFile(join(REPO_ROOT, "node_modules", origem))), destino).toBe(true);
    }
    // a second build copies nothing
    expect((await buildAssets(site.publicDir)).filter((p) => p.startsWith(VENDOR_ROMANEIO_DIR))).toEqual([]);
  });

  it("reads a photographed settlement in the browser: fields, the reference of the day, and no byte of the file sent", async () => {
    const d = doc("abate-grande-boi-ms");
    pedidos.length = 0;
    const { page, saidas, erros } = await abrir();
    await lerArquivo(page, d.arquivos.png);
    expect(erros).toEqual([]);
    expect(await page.locator("#arquivo-lido").innerText()).toMatch(/imagem PNG, 1 página, lido por OCR, em [\d,]+ s\.$/);
    // the engine read the page (the raw text is shown too), word for word as the server reads it
    const lidoNaPagina = await page.locator("#texto-lido").textContent();
    expect(lidoNaPagina).toContain("Pantanal");
    const servidor = criarLeitorOcr({ workers: 1 });
    try {
      const r = await servidor.ler(new Uint8Array(await readFile(d.arquivos.png)), "image/png");
      expect(lidoNaPagina).toBe(r.texto);
    } finally {
      await servidor.fechar();
    }
    const e = d.esperado;
    expect(await campo(page, "data").inputValue()).toBe("05/08/2026");
    expect(await campo(page, "uf").inputValue()).toBe("MS");
    expect(await campo(page, "produto").inputValue()).toBe("boi_gordo");
    if (e.totais && "preco_arroba" in e.totais) {
      expect(await campo(page, "totais.preco_arroba").inputValue()).toBe(formatDecimalBR(e.totais.preco_arroba!));
      expect(await campo(page, "totais.arrobas").inputValue()).toBe(formatDecimalBR(e.totais.arrobas!));
      expect(await campo(page, "totais.valor_liquido").inputValue()).toBe(formatDecimalBR(e.totais.valor_liquido!));
    }
    expect(await page.locator("#form tr[data-linha]").count()).toBe(e.linhas.length);
    // the state's reference of that day, R$ 338,00/@, and the difference the shared module computes
    const ms = page.locator('#referencias tr[data-escopo="estadual"]');
    expect(await ms.getAttribute("data-serie")).toBe("boi_gordo/MS");
    expect(await ms.locator('[data-campo="valor"]').innerText()).toBe("R$ 338,00/@");
    expect(await ms.locator('[data-campo="diferenca"]').innerText()).toBe("−R$ 18,00 (−5,33%)");
    expect(await referenciasNaPagina(page)).toEqual(await comparacaoEsperada({ ...e, confianca: CONFIRMADOS, avisos: [] }));
    expect(await page.locator("#deducoes tbody tr").count()).toBeGreaterThan(0);
    // nothing left the origin, nothing but GETs of site files, none with a body
    expect(saidas).toEqual([]);
    expect(pedidos.filter((p) => p.metodo !== "GET" || p.bytes > 0)).toEqual([]);
    const caminhos = pedidos.map((p) => p.caminho);
    expect(caminhos).toContain(`${SUB}romaneio/vendor/por.traineddata.gz`);
    expect(caminhos.some((c) => /romaneio\/vendor\/tesseract-core-(relaxedsimd-|simd-)?lstm\.wasm\.js$/.test(c))).toBe(true);
    expect(caminhos).toContain(`${SUB}api/v1/cotacao/boi_gordo/MS.json`);
    expect(caminhos.every((c) => c.startsWith(SUB))).toBe(true);
    await page.close();
  });

  it("re-runs the checks and the comparison after an edit", async () => {
    const d = doc("abate-grande-boi-ms");
    const { page, erros } = await abrir();
    await lerArquivo(page, d.arquivos.pdf);
    expect(await page.locator("#arquivo-lido").innerText()).toContain("PDF, 1 página, texto do próprio PDF");
    expect(await page.locator("#conferencias [data-conferencias]").getAttribute("data-conferencias")).toBe("0");
    let n = Number(await page.locator("body").getAttribute("data-comparacoes"));
    // the price as the reference: no difference, and the gross value no longer matches arrobas × price
    await campo(page, "totais.preco_arroba").fill("338,00");
    await page.waitForFunction((k) => Number(document.body.dataset.comparacoes) > k, n);
    expect(await page.locator('#referencias tr[data-escopo="estadual"] [data-campo="diferenca"]').innerText()).toBe("R$ 0,00 (0,00%)");
    expect(await page.locator('#conferencias li[data-codigo="bruto_preco"]').count()).toBe(1);
    expect(await campo(page, "totais.valor_bruto").getAttribute("data-duvidoso")).toBe("sim");
    expect(await page.locator(`#${await campo(page, "totais.valor_bruto").getAttribute("id")}-duvida`).isVisible()).toBe(true);
    // one animal's weight off: its line no longer adds up to the total
    await campo(page, "linhas[0].peso_carcaca_kg").fill("1,00");
    await page.waitForSelector('#conferencias li[data-codigo="soma_linhas"]');
    expect(await campo(page, "linhas[0].peso_carcaca_kg").getAttribute("data-duvidoso")).toBe("sim");
    // an invalid number is said on leaving the field
    await campo(page, "totais.cabecas").fill("oito");
    await campo(page, "totais.cabecas").blur();
    expect(await campo(page, "totais.cabecas").getAttribute("aria-invalid")).toBe("true");
    // back to the document's figures: every check passes again
    n = Number(await page.locator("body").getAttribute("data-comparacoes"));
    const e = d.esperado;
    if (!e.totais || !("preco_arroba" in e.totais)) throw new Error("documento de abate esperado");
    await campo(page, "totais.preco_arroba").fill(formatDecimalBR(e.totais.preco_arroba!));
    await campo(page, "linhas[0].peso_carcaca_kg").fill(formatDecimalBR(e.linhas[0]!.peso_carcaca_kg!));
    await campo(page, "totais.cabecas").fill(String(e.totais.cabecas));
    await page.waitForSelector('#conferencias [data-conferencias="0"]');
    await page.waitForFunction((k) => Number(document.body.dataset.comparacoes) > k, n);
    expect(await page.locator('#referencias tr[data-escopo="estadual"] [data-campo="diferenca"]').innerText()).toBe("−R$ 18,00 (−5,33%)");
    expect(await page.locator('#form [data-duvidoso="sim"]').count()).toBe(0);
    // the result in the contract of POST /api/v1/romaneio, made in the page: no request
    const feitos = pedidos.length;
    // the blob the download link points to (headless Chromium here reports no download event)
    await page.evaluate(() => {
      const w = window as unknown as { baixado: Promise<string>; nome: string };
      const criar = URL.createObjectURL.bind(URL);
      w.baixado = new Promise((ok) => {
        URL.createObjectURL = (b: Blob | MediaSource) => {
          void (b as Blob).text().then(ok);
          return criar(b);
        };
      });
      const clicar = HTMLAnchorElement.prototype.click;
      HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
        w.nome = this.download;
        clicar.call(this);
      };
    });
    await page.evaluate(() => document.getElementById("baixar")!.click());
    const r = JSON.parse(await page.evaluate(() => (window as unknown as { baixado: Promise<string> }).baixado)) as Romaneio;
    expect(await page.evaluate(() => (window as unknown as { nome: string }).nome)).toBe("romaneio-2026-08-05.json");
    expect(schemaErrors("romaneio.schema.json", r)).toEqual([]);
    expect(r.arquivo).toMatchObject({ tipo: "application/pdf", paginas: 1, origem: "pdf_texto" });
    expect(r.leitura.avisos).toEqual([]);
    expect(r.leitura.totais).toEqual(e.totais);
    expect(r.comparacao.referencias.map((x) => x.serie)).toContain("boi_gordo/MS");
    expect(pedidos.length).toBe(feitos);
    expect(erros).toEqual([]);
    await page.close();
  });

  it("reads a scanned PDF (no text layer) by drawing its page and running OCR on it", async () => {
    const d = doc("abate-compacto-boi-sp");
    const { page, erros } = await abrir();
    await lerArquivo(page, d.arquivos.pdfEscaneado);
    expect(await page.locator("#arquivo-lido").innerText()).toContain("PDF, 1 página, lido por OCR");
    expect(await campo(page, "uf").inputValue()).toBe("SP");
    expect(await campo(page, "data").inputValue()).toBe("05/08/2026");
    if (!d.esperado.totais || !("preco_arroba" in d.esperado.totais)) throw new Error("documento de abate esperado");
    expect(await campo(page, "totais.preco_arroba").inputValue()).toBe(formatDecimalBR(d.esperado.totais.preco_arroba!));
    expect(await referenciasNaPagina(page)).toEqual(await comparacaoEsperada({ ...d.esperado, confianca: CONFIRMADOS, avisos: [] }));
    expect(await page.locator("#referencias tbody tr").count()).toBeGreaterThan(0);
    expect(erros).toEqual([]);
    await page.close();
  });

  it("shows a grain load ticket's own fields (no animals table) and the comparison's references and warnings", async () => {
    const d = doc("carga-ticket-milho-ms");
    const { page, erros } = await abrir();
    await lerArquivo(page, d.arquivos.pdf);
    expect(await campo(page, "tipo").inputValue()).toBe("carga");
    expect(await campo(page, "produto").inputValue()).toBe("milho");
    if (!d.esperado.totais || !("preco_saca" in d.esperado.totais)) throw new Error("documento de carga esperado");
    expect(await campo(page, "totais.sacas").inputValue()).toBe(formatDecimalBR(d.esperado.totais.sacas!));
    expect(await campo(page, "totais.preco_saca").inputValue()).toBe(formatDecimalBR(d.esperado.totais.preco_saca!));
    expect(await page.locator("#form tr[data-linha]").count()).toBe(0);
    const ids = seriesDoRomaneio({ ...d.esperado, confianca: CONFIRMADOS, avisos: [] });
    const c = compararRomaneio({ ...d.esperado, confianca: CONFIRMADOS, avisos: [] }, { estadual: ids.estadual ? await serie(ids.estadual) : null, nacional: ids.nacional ? await serie(ids.nacional) : null }, { hoje: "2026-09-26" });
    expect(await page.locator("#referencias tbody tr").count()).toBe(c.referencias.length);
    expect(await page.locator("#comparacao-avisos li").allInnerTexts()).toEqual(c.avisos);
    expect(erros).toEqual([]);
    await page.close();
  });

  it("refuses a file that is not an image or a PDF, by its bytes", async () => {
    const { page } = await abrir();
    await page.setInputFiles("#arquivo", { name: "romaneio.png", mimeType: "image/png", buffer: Buffer.from("não sou uma imagem") });
    await page.waitForSelector("body[data-lido=erro]", { state: "attached" });
    expect(await page.locator("#erro").innerText()).toBe("O arquivo não é PNG, JPEG, WebP nem PDF.");
    expect(await page.locator("#leitura").isHidden()).toBe(true);
    // a PNG whose header declares 10 000 × 10 000 pixels is refused before it is decoded
    const ihdr = Buffer.alloc(33);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(ihdr, 0);
    ihdr.writeUInt32BE(13, 8);
    ihdr.write("IHDR", 12, "latin1");
    ihdr.writeUInt32BE(10_000, 16);
    ihdr.writeUInt32BE(10_000, 20);
    await page.setInputFiles("#arquivo", { name: "enorme.png", mimeType: "image/png", buffer: ihdr });
    await page.waitForFunction(() => document.getElementById("erro")!.textContent!.includes("grande demais"));
    expect(await page.locator("#erro").innerText()).toBe("A imagem é grande demais (10000 × 10000 pixels; o máximo é 50 megapixels): reduza a foto.");
    await page.close();
  });

  it("takes a file dropped on the page, and fits a 390 px phone without sideways scrolling", async () => {
    const { page, erros } = await abrir();
    await page.setViewportSize({ width: 390, height: 844 });
    const pdf = (await readFile(doc("abate-bandas-vaca-pr").arquivos.pdf)).toString("base64");
    const dt = await page.evaluateHandle((b64) => {
      const dt = new DataTransfer();
      dt.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], "romaneio.pdf", { type: "application/pdf" }));
      return dt;
    }, pdf);
    await page.dispatchEvent("#soltar", "dragover", { dataTransfer: dt });
    await page.dispatchEvent("#soltar", "drop", { dataTransfer: dt });
    await page.waitForSelector("body[data-lido=ok]", { state: "attached", timeout: 120_000 });
    await page.waitForSelector("#comparacao:not([hidden])");
    expect(await campo(page, "uf").inputValue()).toBe("PR");
    expect(await page.locator("#arquivo-lido").innerText()).toMatch(/^romaneio\.pdf: PDF/);
    // wide tables scroll inside their own box, the page itself never does
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
    expect(erros).toEqual([]);
    await page.close();
  });

  it("is accessible (axe-core) with a reading on screen", async () => {
    const { page } = await abrir();
    await lerArquivo(page, doc("abate-bandas-boi-mt").arquivos.pdf);
    await page.addScriptTag({ path: join(REPO_ROOT, "node_modules", "axe-core", "axe.min.js") });
    const violacoes = await page.evaluate(async () => {
      const r = await (window as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: unknown }> }> }> } }).axe.run();
      return r.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => ({ id: v.id, alvos: v.nodes.map((n) => n.target) }));
    });
    expect(violacoes).toEqual([]);
    await page.close();
  });
});

describe("romaneio page on the self-host server", { timeout: 180_000 }, () => {
  let srv: RunningServer;
  beforeAll(async () => {
    srv = await startServer({ publicDir: site.publicDir });
  });
  afterAll(async () => {
    await srv?.close();
  });

  it("runs under the server's Content-Security-Policy (WebAssembly and the site's own workers)", async () => {
    const visitante = await openChromium({ bypassCSP: false });
    try {
      const page = await visitante.context.newPage();
      const violacoes: string[] = [];
      page.on("console", (m) => {
        if (/Content Security Policy|Refused to/i.test(m.text())) violacoes.push(m.text());
      });
      await page.goto(new URL("romaneio/", srv.url).href);
      await page.waitForSelector("body[data-pronto=ok]", { state: "attached" });
      await page.setInputFiles("#arquivo", doc("abate-grande-vaca-sp").arquivos.png);
      // a refused wasm compile or worker ends the reading with an error, not with a timeout
      await page.waitForSelector("body[data-lido=ok], body[data-lido=erro]", { state: "attached", timeout: 120_000 });
      expect(await page.locator("#erro").isHidden()).toBe(true);
      expect(await page.locator("body").getAttribute("data-lido")).toBe("ok");
      expect(violacoes).toEqual([]);
    } finally {
      await visitante.close();
    }
  });
});
