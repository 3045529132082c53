import { readFile } from "node:fs/promises";
import type { ArquivoLido } from "../../pipeline/domain/publicados.gerados.ts";
import { lerRomaneio } from "../../pipeline/romaneio/ler.ts";
import { criarLeitorOcr, type OpcoesLeitorOcr } from "../../pipeline/romaneio/ocr.ts";
import { DPI_PDF, PARAMETROS_TESSERACT } from "../../pipeline/romaneio/ocr-comum.ts";
import { gerarCorpus, numerosErradosEmSilencio } from "../romaneio/corpus.ts";
import { DEGRADACOES, DESCRICAO, avaliarCampos, gerarDegradados, type SituacaoCampo } from "../romaneio/degradar.ts";

/**
 * npm run bench -- romaneio: the whole reading (OCR engine + lerRomaneio) on the clean corpus,
 * the PDFs and every degraded copy: share of expected fields read exactly, fields not read,
 * wrong fields flagged (low confidence or an aviso) and wrong in silence, and seconds per page
 * (one warm worker, files one at a time). Then the same with each preprocessing option changed,
 * to show which ones earn their place. ROMANEIO_BENCH_DOCS=n limits the documents (quick runs).
 */

interface Arquivo {
  conjunto: string;
  caminho: string;
  tipo: ArquivoLido["tipo"];
  esperado: Parameters<typeof avaliarCampos>[1];
}

interface Linha {
  conjunto: string;
  paginas: number;
  campos: number;
  contagem: Record<SituacaoCampo, number>;
  silenciosos: number;
  segundos: number[];
  origens: Set<string>;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

async function medir(arquivos: Arquivo[], opcoes: OpcoesLeitorOcr): Promise<Map<string, Linha>> {
  const leitor = criarLeitorOcr({ workers: 1, tempoLimiteMs: 120_000, ...opcoes });
  const linhas = new Map<string, Linha>();
  try {
    // warm the worker (its start-up is not a page's time)
    await leitor.ler(await readFile(arquivos[0]!.caminho), arquivos[0]!.tipo).catch(() => undefined);
    for (const a of arquivos) {
      const l =
        linhas.get(a.conjunto) ??
        { conjunto: a.conjunto, paginas: 0, campos: 0, contagem: { exato: 0, nulo: 0, sinalizado: 0, silencioso: 0 }, silenciosos: 0, segundos: [], origens: new Set<string>() };
      linhas.set(a.conjunto, l);
      const bytes = new Uint8Array(await readFile(a.caminho));
      let lida;
      try {
        const r = await leitor.ler(bytes, a.tipo);
        l.segundos.push(r.segundos / r.paginas);
        l.origens.add(r.origem);
        lida = lerRomaneio(r);
      } catch (e) {
        console.log(`    ${a.caminho}: ${(e as Error).message}`);
        l.origens.add("erro");
        continue;
      }
      l.paginas++;
      for (const c of avaliarCampos(lida, a.esperado)) {
        l.campos++;
        l.contagem[c.situacao]++;
      }
      l.silenciosos += numerosErradosEmSilencio(lida, a.esperado).length;
    }
  } finally {
    await leitor.fechar();
  }
  return linhas;
}

const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1).replace(".", ",")}%` : "—");
const seg = (n: number) => n.toFixed(2).replace(".", ",");

function imprimir(linhas: Map<string, Linha>): void {
  const cab = ["conjunto", "págs", "campos exatos", "não lidos", "errados sinalizados", "errados em silêncio", "números em silêncio", "s/página (mediana)", "origem"];
  const rows = [...linhas.values()].map((l) => [
    l.conjunto,
    String(l.paginas),
    `${pct(l.contagem.exato, l.campos)} (${l.contagem.exato}/${l.campos})`,
    String(l.contagem.nulo),
    String(l.contagem.sinalizado),
    String(l.contagem.silencioso),
    String(l.silenciosos),
    seg(median(l.segundos)),
    [...l.origens].join("+"),
  ]);
  const larg = cab.map((c, i) => Math.max(c.length, ...rows.map((r) => r[i]!.length)));
  const fmt = (r: string[]) => "  " + r.map((c, i) => (i === 0 ? c.padEnd(larg[i]!) : c.padStart(larg[i]!))).join("  ");
  console.log(fmt(cab));
  for (const r of rows) console.log(fmt(r));
}

export async function benchRomaneio(): Promise<void> {
  console.log("\n## Romaneio: leitura de ponta a ponta (OCR + lerRomaneio), por degradação");
  const limite = Number(process.env.ROMANEIO_BENCH_DOCS ?? "0") || Infinity;
  const docs = (await gerarCorpus()).slice(0, limite);
  const ids = new Set(docs.map((d) => d.id));
  const degradados = (await gerarDegradados()).filter((d) => ids.has(d.documento));
  const limpos: Arquivo[] = docs.map((d) => ({ conjunto: "PNG limpo (150 dpi)", caminho: d.arquivos.png, tipo: "image/png", esperado: d.esperado }));
  const pdfTexto: Arquivo[] = docs.map((d) => ({ conjunto: "PDF com texto", caminho: d.arquivos.pdf, tipo: "application/pdf", esperado: d.esperado }));
  const pdfEscaneado: Arquivo[] = docs.map((d) => ({ conjunto: "PDF escaneado", caminho: d.arquivos.pdfEscaneado, tipo: "application/pdf", esperado: d.esperado }));
  const sujos: Arquivo[] = DEGRADACOES.flatMap((g) =>
    degradados.filter((d) => d.degradacao === g).map((d) => ({ conjunto: `${g} (${DESCRICAO[g]})`, caminho: d.arquivo, tipo: d.tipo, esperado: d.esperado })),
  );
  console.log(
    `  ${docs.length} documentos; Tesseract 5 (tesseract.js, WASM) com por/4.0.0_best_int, ${Object.entries(PARAMETROS_TESSERACT).map(([k, v]) => `${k}=${v}`).join(", ")}, rotateAuto, limiarização Otsu e Sauvola (fica a leitura de maior soma de confianças), PDF escaneado na resolução do próprio scan (sem imagem: ${DPI_PDF} dpi); um worker, um arquivo por vez`,
  );
  console.log("  \"errados em silêncio\": campo lido com valor errado, confiança ≥ mínima e sem aviso (a meta é 0); \"números em silêncio\": o mesmo pela regra dos testes (só números, animais casados pelo número)");
  imprimir(await medir([...limpos, ...pdfTexto, ...pdfEscaneado, ...sujos], {}));

  // each option changed alone, on what it could change (rotated, unevenly lit and phone copies, the scan)
  const alvo = (g: string) => sujos.filter((a) => a.conjunto.startsWith(g));
  const variantes: Array<[string, OpcoesLeitorOcr, Arquivo[]]> = [
    ["sem rotateAuto", { rotateAuto: false }, [...alvo("rotacao"), ...alvo("celular")]],
    ["só Otsu (thresholding_method=0, uma passagem)", { limiarizacoes: ["0"] }, [...alvo("iluminacao"), ...alvo("celular"), ...alvo("ruido"), ...alvo("desfoque")]],
    ["só Sauvola (thresholding_method=2, uma passagem)", { limiarizacoes: ["2"] }, [...alvo("iluminacao"), ...alvo("celular"), ...alvo("ruido"), ...alvo("desfoque")]],
    ["só Leptonica Otsu (thresholding_method=1, uma passagem)", { limiarizacoes: ["1"] }, [...alvo("iluminacao"), ...alvo("celular"), ...alvo("ruido"), ...alvo("desfoque")]],
    ["tessedit_pageseg_mode=3 (layout automático, o anterior)", { parametros: { tessedit_pageseg_mode: "3" } }, [...limpos, ...pdfEscaneado, ...alvo("desfoque"), ...alvo("ruido"), ...alvo("celular")]],
    ["PDF escaneado a 250 dpi fixos", { dpiPdf: 250 }, pdfEscaneado],
    ["PDF escaneado a 300 dpi fixos", { dpiPdf: 300 }, pdfEscaneado],
  ];
  for (const [nome, opcoes, arquivos] of variantes) {
    if (process.env.ROMANEIO_BENCH_VARIANTES === "0") break;
    console.log(`\n### Variante: ${nome} (compare com as mesmas linhas acima)`);
    imprimir(await medir(arquivos, opcoes));
  }
}
