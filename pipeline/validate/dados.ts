/**
 * The files for data people, checked against the series they repeat: the long CSV
 * (api/v1/historico.csv), the praças CSVs (historico/{produto}/{UF}.pracas.csv), the Excel-BR
 * variants (*.excel.csv) and the Frictionless descriptor (datapackage.json). Only hashes and
 * headers are kept while files are added, so the tree is still read once, one file at a time;
 * `problemas()` compares them at the end.
 *
 * - each Excel variant must be exactly its CSV respelled (renderer's excelTexto of the CSV's rows);
 * - each praças CSV must be exactly what its series' JSON history renders to;
 * - the long file must hold, per series, the same days and values as the series' JSON, with its
 *   product, source, unit and currency, and the uf the catalogue publishes;
 * - the descriptor must list exactly the canonical CSVs on disk (whole tree), each resource's
 *   fields being its CSV's header.
 */
import { createHash, type Hash } from "node:crypto";
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { mostrar, type Problema } from "../contract/messages.ts";
import { UNIDADES } from "../domain/products.ts";
import { ufPublicada } from "../domain/series.ts";
import { COLUNAS_PRACAS, HISTORICO_LONGO_PATH, Linhas, Numeros, excelPath, excelTexto, pracasCsv } from "../render/csv.ts";
import { DATAPACKAGE_PATH } from "../render/datapackage.ts";
import { COLUNAS_LONGO } from "../render/longo.ts";
import { serieDef } from "../sources/index.ts";
import type { HistoricoEntry, SerieFile } from "../domain/publicados.ts";
import { isDataValidaEm } from "../contract/data.ts";
import { camposCsv, isRealDate } from "./csv.ts";
import { primeiraLinha } from "../domain/texto.ts";

const DECIMAL = /^-?\d+(\.\d{1,2})?$/;
const UNIDADE = new Set<string>(UNIDADES);
const sha = (s: string) => createHash("sha256").update(s).digest("hex");
const at = (n: number) => `linha ${n}`;
const mix = "os arquivos são de versões diferentes dos dados (publicação misturada?); rode npm run build";

/** The lines of a CSV as written here (LF, no BOM), without the empty string after the last \n. */
function linhasDe(text: string): string[] {
  const l = text.split("\n");
  if (l[l.length - 1] === "") l.pop();
  return l;
}

/** The Excel-BR variant a canonical CSV text should have, or null when the text is not a CSV. */
export function excelDoCsv(text: string): string | null {
  const l = linhasDe(text);
  const colunas = camposCsv(l[0] ?? "");
  if (!colunas) return null;
  const linhas: string[][] = [];
  for (const x of l.slice(1)) {
    const f = camposCsv(x);
    if (!f) return null;
    linhas.push(f);
  }
  return excelTexto({ colunas, linhas });
}

const cabecalhoErrado = (esperado: readonly string[], recebido: string): Problema => ({
  ponteiro: at(1),
  mensagem: `cabeçalho deve ser ${mostrar(esperado.join(","))} (recebido ${mostrar(recebido)})`,
});

/** Layout of a file whose header is fixed: the header, then rows of that many fields. */
function checarCabecalho(lines: string[], esperado: readonly string[], problemas: Problema[]): boolean {
  if (lines[0] !== esperado.join(",")) {
    problemas.push(cabecalhoErrado(esperado, lines[0] ?? ""));
    return false;
  }
  if (lines.length < 2) problemas.push({ ponteiro: "", mensagem: "sem nenhuma linha de dados" });
  return true;
}

function checarTexto(text: string, problemas: Problema[]): void {
  if (text.length === 0) problemas.push({ ponteiro: "", mensagem: "arquivo vazio" });
  if (text.charCodeAt(0) === 0xfeff) problemas.push({ ponteiro: at(1), mensagem: "começa com BOM (use UTF-8 sem BOM; a variante com BOM é o .excel.csv)" });
  if (text.includes("\r")) problemas.push({ ponteiro: "", mensagem: "quebras de linha CRLF/CR: use apenas LF (\\n)" });
  if (text.length > 0 && !text.endsWith("\n")) problemas.push({ ponteiro: "", mensagem: "a última linha deve terminar com \\n" });
}

function checarCampos(n: number, f: string[] | null, line: string, colunas: readonly string[], problemas: Problema[]): f is string[] {
  if (!f) {
    problemas.push({ ponteiro: at(n), mensagem: `aspas malformadas (recebido ${mostrar(line)})` });
    return false;
  }
  if (f.length !== colunas.length) {
    problemas.push({ ponteiro: at(n), mensagem: `deve ter ${colunas.length} campos como o cabeçalho (recebido ${f.length}: ${mostrar(line)})` });
    return false;
  }
  return true;
}

function checarValorUnidade(n: number, data: string, valor: string, unidade: string, problemas: Problema[]): void {
  if (!isRealDate(data)) problemas.push({ ponteiro: at(n), mensagem: `data deve ser AAAA-MM-DD válida (recebido ${mostrar(data)})` });
  if (!DECIMAL.test(valor) || Number(valor) <= 0) {
    problemas.push({ ponteiro: at(n), mensagem: `valor deve ser número positivo com ponto decimal e até duas casas (recebido ${mostrar(valor)})` });
  }
  if (!UNIDADE.has(unidade)) problemas.push({ ponteiro: at(n), mensagem: `unidade desconhecida ${mostrar(unidade)} (use ${UNIDADES.join(", ")})` });
}

/** api/v1/historico/{produto}/{UF}.pracas.csv on its own: layout, days in order, one line per praça per day. */
export function checarCsvPracas(text: string): Problema[] {
  const problemas: Problema[] = [];
  checarTexto(text, problemas);
  const lines = linhasDe(text.replace(/^\ufeff/, "").replace(/\r/g, ""));
  if (!checarCabecalho(lines, COLUNAS_PRACAS, problemas)) return problemas;
  let dia = "";
  const vistas = new Set<string>();
  for (let k = 1; k < lines.length && problemas.length < 20; k++) {
    const n = k + 1;
    const f = camposCsv(lines[k]!);
    if (!checarCampos(n, f, lines[k]!, COLUNAS_PRACAS, problemas)) continue;
    const [data, praca, valor, unidade] = f as [string, string, string, string];
    checarValorUnidade(n, data, valor, unidade, problemas);
    if (praca === "") problemas.push({ ponteiro: at(n), mensagem: "praça vazia" });
    if (data < dia) problemas.push({ ponteiro: at(n), mensagem: `fora de ordem: "${data}" vem depois de "${dia}" (do mais antigo ao mais recente)` });
    if (data !== dia) vistas.clear();
    if (vistas.has(praca)) problemas.push({ ponteiro: at(n), mensagem: `praça ${mostrar(praca)} repetida no dia ${data} (uma linha por praça por dia)` });
    vistas.add(praca);
    if (data > dia) dia = data;
  }
  return problemas;
}

/** What the long file says of one series, while it is read. */
interface ResumoLongo {
  fixos: string;
  /** the series' "data,valor\n" lines, hashed when the file is read */
  dias: string[];
  pontos: number;
}

/**
 * The long file as a run assembles it (site/assemble.ts): the blocks rendered now, checked line by
 * line, and the series whose block was copied from the published file, standing for what they said
 * when they were published (site/store.ts checked each copied block's sha256 before the run).
 */
/**
 * The bytes of the long file as the checks read them: a Buffer, or a file written from parts
 * (publish/write.ts), whose new bytes are all there and whose copied ranges show only their
 * first bytes and their last one (their contents were checked by sha256 as they were copied).
 */
export interface BytesDoLongo {
  length: number;
  /** the byte at `i`; undefined where it is not held */
  at(i: number): number | undefined;
  /** the text of [inicio, fim); null when part of it is not held */
  texto(inicio: number, fim: number): string | null;
  /** the sha256 of the bytes written at exactly [inicio, fim), when they were copied from a file (null otherwise) */
  sha256De?(inicio: number, fim: number): string | null;
}

/** A new block of the long file, line by line: its problems, and what it says of each series. */
function conferirBloco(id: string, bloco: string): { problemas: Problema[]; longo: Map<string, LongoEsperado> } {
  const problemas: Problema[] = [];
  const longo = new Map<string, LongoEsperado>();
  if (bloco.includes("\r")) problemas.push({ ponteiro: "", mensagem: `bloco da série ${id}: quebras de linha CRLF/CR: use apenas LF (\\n)` });
  const rapido = blocoRapido(id, bloco);
  if (rapido) {
    longo.set(id, rapido);
    return { problemas, longo };
  }
  const lido = lerCsvLongo(`${COLUNAS_LONGO.join(",")}\n${bloco}`);
  for (const pr of lido.problemas) problemas.push({ ponteiro: pr.ponteiro, mensagem: `bloco da série ${id}: ${pr.mensagem}` });
  for (const [k, v] of digeridos(lido.series)) {
    if (k !== id) problemas.push({ ponteiro: "", mensagem: `o bloco da série ${id} traz linhas da série ${mostrar(k)}` });
    longo.set(k, v);
  }
  return { problemas, longo };
}

function bytesDoLongo(content: string | Buffer | BytesDoLongo): BytesDoLongo {
  if (typeof content !== "string" && !Buffer.isBuffer(content)) return content;
  const b = typeof content === "string" ? Buffer.from(content, "utf8") : content;
  return { length: b.length, at: (i) => (i >= 0 && i < b.length ? b[i] : undefined), texto: (i, j) => b.toString("utf8", Math.max(0, i), Math.min(j, b.length)) };
}

export interface LongoMontado {
  /** the file's blocks after the header, in order: their length in bytes, and for a copied one what it says */
  blocos: ReadonlyArray<{ id: string; bytes: number; reusado?: LongoEsperado }>;
}

/** What a series' JSON says, as the long file must repeat it. */
export interface LongoEsperado {
  fixos: string;
  hash: string;
  pontos: number;
}

type SerieNoLongo = Pick<SerieFile, "produto" | "uf" | "praca" | "fonte" | "unidade" | "moeda" | "historico">;

/** What the long file must say of a series: the columns it repeats, and a hash of its days and values. */
const longosCalculados = new WeakMap<object, LongoEsperado>();

export function longoDaSerie(id: string, doc: SerieNoLongo): LongoEsperado {
  // a pure function of the document: the run's facts and its checks ask it of the same object
  const pronto = longosCalculados.get(doc);
  if (pronto) return pronto;
  const r = calcularLongo(id, doc);
  longosCalculados.set(doc, r);
  return r;
}

function calcularLongo(id: string, doc: SerieNoLongo): LongoEsperado {
  const def = serieDef(id);
  const uf = def ? (ufPublicada(def) ?? "") : String(doc.uf ?? "");
  // one string hashed once: a call into the hash per day is most of the cost at 30 years
  const dias = new Linhas();
  const n = new Numeros();
  for (const e of doc.historico) {
    if (typeof e.valor === "number") {
      n.ler(e.valor);
      dias.push(`${e.data},${n.csv}\n`);
    } else dias.push(`${e.data},${e.valor}\n`);
  }
  return { fixos: [doc.produto, uf, doc.praca ?? "", doc.fonte, String(doc.unidade), doc.moeda].join(","), hash: sha(dias.texto()), pontos: doc.historico.length };
}

/** The long file on its own, and what it says of each series. */
export function lerCsvLongo(text: string): { problemas: Problema[]; series: Map<string, ResumoLongo> } {
  const problemas: Problema[] = [];
  checarTexto(text, problemas);
  const lines = linhasDe(text.replace(/^\ufeff/, "").replace(/\r/g, ""));
  const estado = estadoLongo(problemas);
  if (!checarCabecalho(lines, COLUNAS_LONGO, problemas)) return { problemas, series: estado.series };
  lerLinhasLongo(estado, lines, 1, 1);
  return { problemas, series: estado.series };
}

/** What reading the long file carries from one line to the next: its problems so far, the last line's series and day, each series. */
interface EstadoLongo {
  problemas: Problema[];
  prev: [string, string];
  series: Map<string, ResumoLongo>;
}

const estadoLongo = (problemas: Problema[]): EstadoLongo => ({ problemas, prev: ["", ""], series: new Map() });

/** lerCsvLongo stops after this many problems (counting those of the whole text) */
const MAX_PROBLEMAS_LONGO = 20;

/**
 * The data lines `lines[desde..]` of the long file, line by line; `lines[k]` is line `k + base`
 * of the file. False once the problems reach their cap: the reading stops there, as lerCsvLongo's does.
 */
function lerLinhasLongo(estado: EstadoLongo, lines: readonly string[], desde: number, base: number): boolean {
  const { problemas, series } = estado;
  for (let k = desde; k < lines.length; k++) {
    if (problemas.length >= MAX_PROBLEMAS_LONGO) return false;
    const n = k + base;
    const f = camposCsv(lines[k]!);
    if (!checarCampos(n, f, lines[k]!, COLUNAS_LONGO, problemas)) continue;
    const [serie, produto, uf, nacional, praca, fonte, unidade, moeda, data, valor] = f as string[] as [string, string, string, string, string, string, string, string, string, string];
    if (nacional !== (serie.includes("/") ? "false" : "true")) {
      problemas.push({ ponteiro: at(n), mensagem: `nacional deve ser ${serie.includes("/") ? "false" : "true"} na série ${mostrar(serie)} (recebido ${mostrar(nacional)})` });
    }
    checarValorUnidade(n, data, valor, unidade, problemas);
    if (!/^[a-z_]+(\/[A-Z]{2})?$/.test(serie)) problemas.push({ ponteiro: at(n), mensagem: `serie deve ser {produto} ou {produto}/{UF} (recebido ${mostrar(serie)})` });
    const prev = estado.prev;
    if (serie < prev[0] || (serie === prev[0] && data <= prev[1])) {
      problemas.push({ ponteiro: at(n), mensagem: `fora de ordem ou repetida: ${serie} ${data} depois de ${prev[0]} ${prev[1]} (ordene por serie e data, um dia por série)` });
    }
    estado.prev = [serie, data];
    let r = series.get(serie);
    if (!r) {
      r = { fixos: [produto, uf, praca, fonte, unidade, moeda].join(","), dias: [], pontos: 0 };
      series.set(serie, r);
    } else if (r.fixos !== [produto, uf, praca, fonte, unidade, moeda].join(",")) {
      problemas.push({ ponteiro: at(n), mensagem: `${serie}: produto, uf, praca, fonte, unidade e moeda devem ser os mesmos em todas as linhas da série (recebido ${mostrar(lines[k]!)})` });
    }
    r.dias.push(`${data},${valor}\n`);
    r.pontos++;
  }
  return problemas.length < MAX_PROBLEMAS_LONGO;
}

/**
 * A block whose lines all repeat its first line's columns up to `data`, in plain fields (no
 * quotes), read without splitting every line: the first line gets every check of lerCsvLongo,
 * the others their day (in order) and value, hashed as lerCsvLongo hashes them. Null when the
 * block is not that regular: then lerCsvLongo reads it and says what is wrong.
 */
export function blocoRapido(id: string, bloco: string): LongoEsperado | null {
  const r = blocoRegular(id, bloco);
  return r && { fixos: r.fixos, hash: sha(r.dias), pontos: r.pontos };
}

/** blocoRapido's reading: the block's "data,valor\n" lines as one text, and its first and last day. */
function blocoRegular(id: string, bloco: string): { fixos: string; dias: string; pontos: number; primeiro: string; ultimo: string } | null {
  if (bloco.includes('"') || !bloco.endsWith("\n")) return null;
  const primeira = bloco.slice(0, bloco.indexOf("\n"));
  const campos = primeira.split(",");
  if (campos.length !== COLUNAS_LONGO.length || campos[0] !== id) return null;
  const lida = lerCsvLongo(`${COLUNAS_LONGO.join(",")}\n${primeira}\n`);
  if (lida.problemas.length > 0) return null;
  const prefixo = `${campos.slice(0, 8).join(",")},`;
  let pontos = 0;
  let anterior = -1;
  for (let pos = 0; pos < bloco.length; ) {
    const fim = bloco.indexOf("\n", pos);
    const inicio = pos + prefixo.length;
    // (a slice compared is cheaper than startsWith here)
    if (bloco.slice(pos, inicio) !== prefixo) return null;
    const virgula = inicio + 10;
    // a comma before it would be inside the date, which isDataValidaEm refuses
    if (virgula >= fim || bloco.charCodeAt(virgula) !== 44 || !isDataValidaEm(bloco, inicio)) return null;
    if ((anterior >= 0 && !depoisDe(bloco, inicio, anterior)) || !positivoEm(bloco, virgula + 1, fim)) return null;
    anterior = inicio;
    pontos++;
    pos = fim + 1;
  }
  const [, produto, uf, , praca, fonte, unidade, moeda] = campos;
  // every line's "data,valor\n": the block without its prefixes, which begin with the series' id
  // ([a-z_], checked above) and so occur nowhere else in lines of prefix, day, comma and value
  return {
    fixos: [produto, uf, praca, fonte, unidade, moeda].join(","),
    dias: bloco.replaceAll(prefixo, ""),
    pontos,
    primeiro: bloco.slice(prefixo.length, prefixo.length + 10),
    ultimo: bloco.slice(anterior, anterior + 10),
  };
}

/**
 * Where the long file's bytes come from when it is read in parts (lerLongoEmPartes): a file on
 * disk, or bytes in memory.
 */
export interface FonteDoLongo {
  /** its size in bytes */
  bytes: number;
  /** reads bytes from `posicao` into `destino` (from its start): how many it read, 0 past the end */
  ler(destino: Buffer, posicao: number): number;
}

export function fonteDeBytes(b: Buffer): FonteDoLongo {
  return { bytes: b.length, ler: (destino, posicao) => (posicao >= b.length ? 0 : b.copy(destino, 0, posicao, Math.min(b.length, posicao + destino.length))) };
}

/** The long file of a tree on disk as a FonteDoLongo, open while `f` runs. */
export function comArquivoDoLongo<T>(arquivo: string, f: (fonte: FonteDoLongo) => T): T {
  const fd = openSync(arquivo, "r");
  try {
    return f({ bytes: fstatSync(fd).size, ler: (destino, posicao) => readSync(fd, destino, 0, destino.length, posicao) });
  } finally {
    closeSync(fd);
  }
}

const BYTES_POR_PARTE = 4 << 20;
let bytesPorParte = BYTES_POR_PARTE;

/** How many bytes of the long file are read at a time (lerLongoEmPartes, site/conferir.ts). */
export function bytesPorParteDoLongo(): number {
  return bytesPorParte;
}

/** How many bytes of the long file lerLongoEmPartes reads at a time (tests make it small); null: the default (4 MiB). */
export function setBytesPorParteDoLongo(bytes: number | null): void {
  bytesPorParte = bytes === null ? BYTES_POR_PARTE : Math.max(1, bytes);
}

/**
 * The long file read in parts of about bytesPorParte bytes, each cut after a "\n": the same
 * problems as lerCsvLongo on its whole text (same messages, the same absolute line numbers, the
 * same cap), and what it says of each series, digested as digeridos digests lerCsvLongo's, with
 * neither the text nor its lines ever whole in memory. A series' run of lines in a part is read
 * by blocoRegular when it is regular and follows the line before it in order, and line by line
 * as lerCsvLongo reads otherwise. `cabecalho`: what ChecagemDados.historicoLongo keeps of the
 * first line.
 */
export function lerLongoEmPartes(fonte: FonteDoLongo): { problemas: Problema[]; series: Map<string, LongoEsperado>; cabecalho: string } {
  // checarTexto's problems, from the bytes (0x0a and 0x0d are never inside a UTF-8 sequence, the
  // BOM is EF BB BF); whether there is a CR anywhere is known only at the end, and its problem
  // comes before the lines' (and counts toward their cap): a file with one is read again
  const borda = Buffer.alloc(3);
  const comBom = fonte.bytes >= 3 && fonte.ler(borda, 0) === 3 && borda[0] === 0xef && borda[1] === 0xbb && borda[2] === 0xbf;
  const ultimo = Buffer.alloc(1);
  const semFimDeLinha = fonte.bytes > 0 && (fonte.ler(ultimo, fonte.bytes - 1) !== 1 || ultimo[0] !== 10);
  const ler = (comCR: boolean) => {
    const problemas: Problema[] = [];
    if (fonte.bytes === 0) problemas.push({ ponteiro: "", mensagem: "arquivo vazio" });
    if (comBom) problemas.push({ ponteiro: at(1), mensagem: "começa com BOM (use UTF-8 sem BOM; a variante com BOM é o .excel.csv)" });
    if (comCR) problemas.push({ ponteiro: "", mensagem: "quebras de linha CRLF/CR: use apenas LF (\\n)" });
    if (semFimDeLinha) problemas.push({ ponteiro: "", mensagem: "a última linha deve terminar com \\n" });
    return lerPartes(fonte, estadoLongo(problemas));
  };
  let lido = ler(false);
  if (lido.viuCR) lido = ler(true);
  return { problemas: lido.problemas, series: lido.series, cabecalho: lido.cabecalho };
}

function lerPartes(fonte: FonteDoLongo, estado: EstadoLongo): { problemas: Problema[]; series: Map<string, LongoEsperado>; cabecalho: string; viuCR: boolean } {
  const cabecalhoEsperado = COLUNAS_LONGO.join(",");
  const hashes = new Map<string, { fixos: string; hash: Hash; pontos: number }>();
  // each series' "data,valor\n" lines of a part go into its hash once the part is read
  const digerir = () => {
    for (const [id, r] of estado.series) {
      let h = hashes.get(id);
      if (!h) hashes.set(id, (h = { fixos: r.fixos, hash: createHash("sha256"), pontos: 0 }));
      if (r.dias.length > 0) h.hash.update(r.dias.join(""));
      h.pontos = r.pontos;
      r.dias = [];
    }
  };
  let cabecalho = "";
  let viuCR = false;
  /** lines read so far, the header's included */
  let linhas = 0;
  let cabecalhoCerto = false;
  let buf = Buffer.allocUnsafe(bytesPorParte);
  let guardados = 0;
  let posicao = 0;
  for (;;) {
    const n = guardados < buf.length ? fonte.ler(buf.subarray(guardados), posicao) : 0;
    posicao += n;
    guardados += n;
    const fim = n === 0 && guardados < buf.length;
    // a part ends after a "\n" (or at the end of the file): no line, and no UTF-8 sequence, is cut
    const corte = fim ? guardados : guardados > 0 ? buf.lastIndexOf(10, guardados - 1) + 1 : 0;
    if (!fim && corte === 0) {
      if (guardados === buf.length) {
        // a line longer than a part: the part grows until it holds the line
        const maior = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(maior, 0, 0, guardados);
        buf = maior;
      }
      continue;
    }
    let text = buf.toString("utf8", 0, corte);
    buf.copy(buf, 0, corte, guardados);
    guardados -= corte;
    if (linhas === 0) {
      cabecalho = primeiraLinha(text).replace(/^\ufeff/, "");
      text = text.replace(/^\ufeff/, "");
    }
    if (text.includes("\r")) {
      viuCR = true;
      text = text.replace(/\r/g, "");
    }
    if (linhas === 0) {
      const nl = text.indexOf("\n");
      const primeira = nl < 0 ? text : text.slice(0, nl);
      // (an empty text has no line at all, as linhasDe says)
      if (text === "" || primeira !== cabecalhoEsperado) {
        estado.problemas.push(cabecalhoErrado(COLUNAS_LONGO, text === "" ? "" : primeira));
        break;
      }
      cabecalhoCerto = true;
      linhas = 1;
      text = nl < 0 ? "" : text.slice(nl + 1);
    }
    const parte = lerParte(estado, text, linhas + 1);
    linhas += parte.linhas;
    digerir();
    if (fim || !parte.seguir) break;
  }
  if (cabecalhoCerto && linhas === 1) estado.problemas.push({ ponteiro: "", mensagem: "sem nenhuma linha de dados" });
  const series = new Map<string, LongoEsperado>();
  for (const [id, h] of hashes) series.set(id, { fixos: h.fixos, hash: h.hash.digest("hex"), pontos: h.pontos });
  return { problemas: estado.problemas, series, cabecalho, viuCR };
}

/**
 * One part of the long file (whole lines, without CRs), whose first line is line `primeira` of
 * the file: each run of lines of one series read by blocoRegular when lerLinhasLongo would find
 * nothing wrong in it, else by lerLinhasLongo. `seguir`: false once the problems reach their cap.
 */
function lerParte(estado: EstadoLongo, text: string, primeira: number): { seguir: boolean; linhas: number } {
  let n = primeira;
  for (let s = 0; s < text.length; ) {
    if (estado.problemas.length >= MAX_PROBLEMAS_LONGO) return { seguir: false, linhas: n - primeira };
    const virgula = text.indexOf(",", s);
    const eol = text.indexOf("\n", s);
    let fim = eol < 0 ? text.length : eol + 1;
    if (virgula >= 0 && (eol < 0 || virgula < eol)) {
      const id = text.slice(s, virgula);
      const prefixo = `${id},`;
      // the run: the following lines that begin with the same first field
      while (fim < text.length && text.startsWith(prefixo, fim)) {
        const e = text.indexOf("\n", fim);
        fim = e < 0 ? text.length : e + 1;
      }
      const bloco = text.slice(s, fim);
      const r = blocoRegular(id, bloco);
      const [serie, dia] = estado.prev;
      const antes = estado.series.get(id);
      // lerLinhasLongo would say nothing of these lines: in order after the last one, the
      // series' columns as its earlier lines had them
      if (r && (id > serie || (id === serie && r.primeiro > dia)) && (!antes || antes.fixos === r.fixos)) {
        if (antes) {
          antes.dias.push(r.dias);
          antes.pontos += r.pontos;
        } else estado.series.set(id, { fixos: r.fixos, dias: [r.dias], pontos: r.pontos });
        estado.prev = [id, r.ultimo];
        n += r.pontos;
        s = fim;
        continue;
      }
    }
    const lines = linhasDe(text.slice(s, fim));
    if (!lerLinhasLongo(estado, lines, 0, n)) return { seguir: false, linhas: n - primeira + lines.length };
    n += lines.length;
    s = fim;
  }
  return { seguir: true, linhas: n - primeira };
}

/** The day (AAAA-MM-DD) at i comes after the one at j, in the text itself. */
function depoisDe(text: string, i: number, j: number): boolean {
  for (let k = 0; k < 10; k++) {
    const a = text.charCodeAt(i + k);
    const b = text.charCodeAt(j + k);
    if (a !== b) return a > b;
  }
  return false;
}

/**
 * What checarValorUnidade asks of a value, on text.slice(i, j) without the slice: DECIMAL
 * (\d+(\.\d{1,2})?, no sign: a negative is not positive) and not zero.
 */
function positivoEm(text: string, i: number, j: number): boolean {
  let k = i;
  let naoZero = false;
  for (; k < j; k++) {
    const c = text.charCodeAt(k);
    if (c < 48 || c > 57) break;
    if (c !== 48) naoZero = true;
  }
  if (k === i) return false;
  if (k < j) {
    if (text.charCodeAt(k) !== 46 || j - k - 1 < 1 || j - k - 1 > 2) return false;
    for (let m = k + 1; m < j; m++) {
      const c = text.charCodeAt(m);
      if (c < 48 || c > 57) return false;
      if (c !== 48) naoZero = true;
    }
  }
  return naoZero;
}

function digeridos(series: ReadonlyMap<string, ResumoLongo>): Map<string, LongoEsperado> {
  return new Map([...series].map(([id, r]) => [id, { fixos: r.fixos, hash: sha(r.dias.join("")), pontos: r.pontos }]));
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

export class ChecagemDados {
  /** canonical CSV path -> sha256 of the Excel text it should have */
  private readonly excelEsperado = new Map<string, string>();
  /** Excel path -> sha256 of its text */
  private readonly excelVisto = new Map<string, string>();
  /** praças CSV path -> sha256 (seen / what its series renders to) */
  private readonly pracasVisto = new Map<string, string>();
  private readonly pracasEsperado = new Map<string, string | null>();
  /** canonical CSV path -> its header line */
  private readonly cabecalhos = new Map<string, string>();
  private longo: Map<string, LongoEsperado> | null = null;
  private readonly seriesJson = new Map<string, LongoEsperado>();
  private pacote: Obj | null = null;

  /** A canonical CSV (series, praças or long): its header, and the Excel variant it should have. */
  csv(p: string, text: string): void {
    this.cabecalhos.set(p, primeiraLinha(text));
    const excel = excelDoCsv(text);
    if (excel !== null) this.excelEsperado.set(p, sha(excel));
  }

  /** The header of a CSV the run leaves as published (its Excel variant was checked when it was). */
  cabecalho(p: string, linha: string): void {
    this.cabecalhos.set(p, linha);
  }

  excel(p: string, text: string): void {
    this.excelVisto.set(p, sha(text));
  }

  pracas(p: string, text: string): Problema[] {
    this.pracasVisto.set(p, sha(text));
    this.csv(p, text);
    return checarCsvPracas(text);
  }

  /** The long file, read whole. */
  historicoLongo(text: string): Problema[] {
    // header only: the long file has no Excel variant (past a spreadsheet's row limit)
    this.cabecalhos.set(HISTORICO_LONGO_PATH, primeiraLinha(text).replace(/^\ufeff/, ""));
    const lido = lerCsvLongo(text);
    this.longo = digeridos(lido.series);
    return lido.problemas;
  }

  /** The long file of a tree on disk (npm run validate), read in parts: the same checks as historicoLongo, its text never whole in memory. */
  historicoLongoEmDisco(arquivo: string): Problema[] {
    return comArquivoDoLongo(arquivo, (fonte) => this.historicoLongoEmPartes(fonte));
  }

  /** The long file read in parts (lerLongoEmPartes): the same checks as historicoLongo. */
  historicoLongoEmPartes(fonte: FonteDoLongo): Problema[] {
    const lido = lerLongoEmPartes(fonte);
    this.cabecalhos.set(HISTORICO_LONGO_PATH, lido.cabecalho);
    this.longo = lido.series;
    return lido.problemas;
  }

  /** new blocks read as they were rendered, before the run put them aside (site/assemble.ts) */
  private readonly blocosVistos = new Map<string, { sha256: string; problemas: Problema[]; longo: Map<string, LongoEsperado> }>();

  /**
   * A new block of the long file, read now; the long file must later hold exactly these bytes
   * where the run says (hashed here from the text read, not taken from the run that rendered it).
   */
  blocoNovo(id: string, bloco: string): void {
    this.blocosVistos.set(id, { sha256: createHash("sha256").update(bloco, "utf8").digest("hex"), ...conferirBloco(id, bloco) });
  }

  /** The long file as a run assembled it: its layout, and only its new blocks line by line. */
  longoMontado(content: string | Buffer | BytesDoLongo, montado: LongoMontado): Problema[] {
    const b = bytesDoLongo(content);
    const cabecalho = `${COLUNAS_LONGO.join(",")}\n`;
    this.cabecalhos.set(HISTORICO_LONGO_PATH, COLUNAS_LONGO.join(","));
    const problemas: Problema[] = [];
    if (b.texto(0, cabecalho.length) !== cabecalho) problemas.push({ ponteiro: at(1), mensagem: `cabeçalho deve ser ${mostrar(COLUNAS_LONGO.join(","))}` });
    // the copied blocks were checked when they were published; the new ones are read below
    if (b.length > 0 && b.at(b.length - 1) !== 10) problemas.push({ ponteiro: "", mensagem: "a última linha deve terminar com \\n" });
    const longo = new Map<string, LongoEsperado>();
    // every new block is read from the file's own bytes, where the run says it is
    let pos = cabecalho.length;
    for (const { id, bytes, reusado } of montado.blocos) {
      const inicio = pos;
      pos += bytes;
      if (reusado) {
        // copied from the published file after its sha256 was checked (site/store.ts); here,
        // that it sits where the run says: its own lines, whole
        const fim = pos - 1;
        if (bytes === 0 || b.at(inicio - 1) !== 10 || b.at(fim) !== 10 || b.texto(inicio, inicio + id.length + 1) !== `${id},`) {
          problemas.push({ ponteiro: "", mensagem: `o bloco copiado da série ${id} não está inteiro no lugar (bytes ${inicio} a ${pos}); ${mix}` });
        }
        longo.set(id, reusado);
        continue;
      }
      const bloco = b.texto(inicio, pos);
      if (bloco === null) {
        // a new block the run put aside on disk (site/assemble.ts): read here when it was
        // rendered (blocoNovo), and the bytes in the file are those very bytes (their sha256)
        const visto = this.blocosVistos.get(id);
        const sha = b.sha256De?.(inicio, pos) ?? null;
        if (!visto || sha === null || sha !== visto.sha256) {
          problemas.push({ ponteiro: "", mensagem: `o bloco novo da série ${id} (bytes ${inicio} a ${pos}) não é o que foi conferido ao gerá-lo; ${mix}` });
          continue;
        }
        problemas.push(...visto.problemas);
        for (const [k, v] of visto.longo) longo.set(k, v);
        continue;
      }
      const lido = conferirBloco(id, bloco);
      problemas.push(...lido.problemas);
      for (const [k, v] of lido.longo) longo.set(k, v);
    }
    if (pos !== b.length) problemas.push({ ponteiro: "", mensagem: `tem ${b.length} bytes, mas os blocos das séries somam ${pos}; ${mix}` });
    this.longo = longo;
    return problemas;
  }

  /** A series JSON, already valid against its schema: what its praças CSV and its lines of the long file must be. */
  serie(p: string, doc: unknown, csvsRenderizados = false): void {
    if (!isObj(doc) || !Array.isArray(doc.historico)) return;
    const m = /^api\/v1\/cotacao\/([a-z_]+(?:\/[A-Z]{2})?)\.json$/.exec(p);
    if (!m || p.startsWith("api/v1/cotacao/uf/")) return;
    const id = m[1]!;
    const hist = doc.historico as HistoricoEntry[];
    const unidade = String(doc.unidade);
    // rendered with it in this set, its praças CSV is held line by line to it (./renderizados.ts)
    if (!csvsRenderizados) {
      const pr = pracasCsv(hist, unidade);
      this.pracasEsperado.set(`api/v1/historico/${id}.pracas.csv`, pr === null ? null : sha(pr));
    }
    this.seriesJson.set(id, longoDaSerie(id, doc as unknown as SerieNoLongo));
  }

  /** An unchanged series of an incremental run: what its JSON said when it was published (site/fatos.ts). */
  serieReusada(id: string, r: LongoEsperado): void {
    this.seriesJson.set(id, r);
  }

  pacoteDeDados(doc: unknown): void {
    if (isObj(doc)) this.pacote = doc;
  }

  /**
   * Every disagreement, by file. With `arvore` (the whole tree: npm run validate), files that
   * must exist beside others are required too.
   */
  problemas(arvore?: { has(path: string): boolean }): Map<string, string[]> {
    const out = new Map<string, string[]>();
    const push = (p: string, msg: string) => out.set(p, [...(out.get(p) ?? []), `${p}: ${msg}`]);

    for (const [csv, want] of this.excelEsperado) {
      const x = excelPath(csv);
      const got = this.excelVisto.get(x);
      if (got === undefined) {
        if (arvore) push(x, `falta: é a variante para o Excel de ${csv} (';', vírgula decimal, UTF-8 com BOM, CRLF); rode npm run build`);
      } else if (got !== want) push(x, `não é ${csv} com ';', vírgula decimal, BOM e CRLF (conteúdo difere); ${mix}`);
    }
    if (arvore) {
      for (const x of this.excelVisto.keys()) {
        const csv = x.replace(/\.excel\.csv$/, ".csv");
        if (!this.cabecalhos.has(csv)) push(x, `variante para o Excel sem o CSV ${csv} ao lado (arquivo órfão)`);
      }
    }

    for (const [p, want] of this.pracasEsperado) {
      const got = this.pracasVisto.get(p);
      const json = p.replace(/^api\/v1\/historico\//, "api/v1/cotacao/").replace(/\.pracas\.csv$/, ".json");
      if (want === null) {
        if (got !== undefined) push(p, `${json} não tem praças no histórico, então este arquivo não deveria existir; ${mix}`);
      } else if (got === undefined) {
        if (arvore) push(p, `falta: ${json} tem praças no histórico; rode npm run build`);
      } else if (got !== want) push(p, `difere do que o histórico de ${json} dá para as praças; ${mix}`);
    }
    for (const p of this.pracasVisto.keys()) {
      if (!this.pracasEsperado.has(p) && arvore) push(p, `não há série ${p.replace(/^api\/v1\/historico\//, "api/v1/cotacao/").replace(/\.pracas\.csv$/, ".json")} para estas praças`);
    }

    const L = HISTORICO_LONGO_PATH;
    if (this.longo) {
      for (const [id, s] of this.seriesJson) {
        const l = this.longo.get(id);
        if (!l) {
          if (s.pontos > 0) push(L, `não traz a série ${id} (${s.pontos} dias em api/v1/cotacao/${id}.json); ${mix}`);
          continue;
        }
        if (l.fixos !== s.fixos) push(L, `${id}: produto,uf,praca,fonte,unidade,moeda = ${mostrar(l.fixos)}, mas api/v1/cotacao/${id}.json e o catálogo dão ${mostrar(s.fixos)}; ${mix}`);
        if (l.pontos !== s.pontos || l.hash !== s.hash) {
          push(L, `${id}: ${l.pontos} linhas que não conferem com os ${s.pontos} dias (data, valor) de api/v1/cotacao/${id}.json; ${mix}`);
        }
      }
      if (arvore) for (const id of this.longo.keys()) if (!this.seriesJson.has(id)) push(L, `traz a série ${id}, que não está publicada (api/v1/cotacao/${id}.json não existe)`);
    } else if (arvore && this.seriesJson.size > 0) {
      push(L, "falta o arquivo longo com todas as séries; rode npm run build");
    }

    const csvs = [...this.cabecalhos.keys()];
    if (this.pacote && Array.isArray(this.pacote.resources)) {
      const listados = new Set<string>();
      this.pacote.resources.forEach((r: unknown, i) => {
        if (!isObj(r) || typeof r.path !== "string") return;
        const p = `api/v1/${r.path}`;
        listados.add(p);
        const campos = isObj(r.schema) && Array.isArray(r.schema.fields) ? r.schema.fields.map((f) => (isObj(f) ? f.name : undefined)) : [];
        const chave = isObj(r.schema) && Array.isArray(r.schema.primaryKey) ? r.schema.primaryKey : [];
        for (const k of chave) if (!campos.includes(k)) push(DATAPACKAGE_PATH, `/resources/${i}/schema/primaryKey: ${mostrar(k)} não é um dos campos`);
        const cab = this.cabecalhos.get(p);
        if (cab === undefined) {
          if (arvore) push(DATAPACKAGE_PATH, `/resources/${i}/path: ${mostrar(r.path)} não existe (o recurso deve ser um CSV publicado)`);
        } else if (cab !== campos.join(",")) {
          push(DATAPACKAGE_PATH, `/resources/${i}/schema/fields: ${mostrar(campos.join(","))} não é o cabeçalho de ${p} (${mostrar(cab)}); ${mix}`);
        }
      });
      if (arvore) for (const p of csvs) if (!listados.has(p)) push(DATAPACKAGE_PATH, `não lista ${p} em resources (todo CSV publicado tem o seu recurso)`);
    } else if (arvore && csvs.length > 0) {
      push(DATAPACKAGE_PATH, "falta o descritor Frictionless dos CSV; rode npm run build");
    }
    return out;
  }
}
