/**
 * The gate before anything is published: every rendered set goes through the schemas of
 * ../contract/schemas.ts (one Ajv, JSON Schema 2020-12) plus the checks JSON Schema cannot express
 * (history order, headline = last day, content matching its path, CSV layout, files agreeing
 * with each other; the praças, long and Excel-BR CSVs and datapackage.json in ./dados.ts). The pipeline calls `validateFiles`/`FileValidator` on the rendered set before
 * writing; `npm run validate` calls it on public/.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { HISTORICO_LONGO_PATH, excelPath, historicoCsv, isExcelPath } from "../render/csv.ts";
import { DATAPACKAGE_PATH } from "../render/datapackage.ts";
import type { HistoricoEntry } from "../domain/publicados.ts";
import { jaValidado, listSchemaFiles, normalizePath, SCHEMA_DIR, validateDocument } from "../contract/schemas.ts";
import { ChecagemCruzada } from "./cruzada.ts";
import { ChecagemDados, type BytesDoLongo, type LongoMontado } from "./dados.ts";
import type { SerieReusada } from "../render/resumo.ts";
import { checarCsvHistorico, type CsvLinha } from "./csv.ts";
import { checarRenderizado } from "./renderizados.ts";
import type { RenderedFile } from "../render/json.ts";
import { linha, mostrar } from "../contract/messages.ts";
import { primeiraLinha } from "../domain/texto.ts";

// the schema half lives in ../contract/schemas.ts, which readers of published files import without
// pulling in the cross-file checks (and, through them, the renderers)
export {
  isDecimal2,
  listSchemaFiles,
  normalizePath,
  readPublished,
  SCHEMA_DIR,
  schemaFor,
  SEM_SCHEMA_PERMITIDOS,
  validateDocument,
  type SchemaKind,
  type SchemaMatch,
} from "../contract/schemas.ts";

export interface FileResult {
  path: string;
  erros: string[];
}

export interface ValidationReport {
  /** every checked file, sorted by path, with its problems (empty = valid) */
  arquivos: FileResult[];
  /** files that no check applies to (pages, feed.xml, assets) */
  ignorados: string[];
  /** all problems, in file order */
  erros: string[];
}

export interface ValidateFilesOptions {
  /**
   * The set is the whole published tree (npm run validate), not only the files of one run:
   * then index.json's paths must exist in it.
   */
  arvoreCompleta?: boolean;
  /**
   * The objects the JSON texts were serialized from, by path: they are validated instead of
   * parsing the text again (the pipeline's serializer is a pure function of the object, and a
   * 30-year history is tens of megabytes to parse twice).
   */
  documentos?: ReadonlyMap<string, unknown>;
  /**
   * The long file (api/v1/historico.csv) of a tree on disk, by its path on disk, instead of its
   * bytes in `files`: read in parts, never whole in memory (npm run validate at 30 years).
   */
  historicoLongoEmDisco?: string;
}

function texto(content: string | Buffer | BytesDoLongo): string {
  if (typeof content !== "string" && !Buffer.isBuffer(content)) {
    // only the long file is published in parts, and always with its layout (LongoMontado)
    const t = content.texto(0, content.length);
    if (t === null) throw new Error("arquivo em partes sem o mapa dos blocos: só o arquivo longo é publicado em partes");
    return t;
  }
  return typeof content === "string" ? content : content.toString("utf8");
}

/** historico/{id}.csv <-> cotacao/{id}.json */
function jsonDoCsv(csvPath: string): string {
  return csvPath.replace(/^api\/v1\/historico\//, "api/v1/cotacao/").replace(/\.csv$/, ".json");
}

/**
 * Validates files one at a time, with the same checks as `validateFiles`, so the pipeline can
 * check each rendered file and let go of its text before rendering the next. JSON under api/v1/
 * goes through its schema; CSV histories get their layout checked and are compared with the
 * JSON history of the same series (whichever of the two comes first waits for the other);
 * copies of the schemas under schemas/ must match the originals.
 */
export class FileValidator {
  private readonly results = new Map<string, string[]>();
  private readonly ignorados: string[] = [];
  /** series histories, kept until their CSV is seen (or for the index check) */
  private readonly series = new Map<string, unknown>();
  private readonly csvPendentes = new Map<string, CsvLido>();
  /** the series JSON whose rendered CSVs may follow (RenderedFile.daSerie) */
  private readonly jsons = new Map<string, unknown>();
  private index: unknown;
  private readonly cruzada = new ChecagemCruzada();
  private readonly dados = new ChecagemDados();

  private push(p: string, erros: string[]): void {
    const prev = this.results.get(p);
    this.results.set(p, prev ? [...prev, ...erros] : erros);
  }

  /** `doc`: the object the JSON text was serialized from, validated instead of parsing `content` again */
  add(path: string, content: string | Buffer | BytesDoLongo, doc?: unknown, origem?: Pick<RenderedFile, "daSerie" | "comCsvs" | "lido">): void {
    const p = normalizePath(path);
    const daSerie = origem?.daSerie;
    // a series' CSV rendered beside its JSON in this set: held line by line to that JSON's history
    const json = daSerie ? this.jsons.get(daSerie.json) : undefined;
    if (daSerie && json && /^api\/v1\/historico\/.+\.csv$/.test(p)) {
      const { historico: hist, unidade } = json as { historico: HistoricoEntry[]; unidade: string };
      const text = texto(content);
      this.push(p, checarRenderizado(text, hist, daSerie.tabela, daSerie.excel, unidade).map((pr) => linha(p, pr)));
      if (!daSerie.excel) this.dados.cabecalho(p, primeiraLinha(text));
      if (daSerie.tabela === "historico" && !daSerie.excel) this.series.delete(daSerie.json);
      return;
    }
    if (p.startsWith("api/v1/") && p.endsWith(".json")) {
      let data: unknown = doc;
      if (data === undefined) {
        try {
          data = JSON.parse(texto(content));
        } catch (e) {
          this.push(p, [`${p}: JSON inválido: ${(e as Error).message}`]);
          return;
        }
      }
      // a series rendered to the very text it was read from was validated as it was read
      const erros = jaValidado(origem?.lido, p, content) ? [] : validateDocument(p, data);
      this.push(p, erros);
      // a file wrong on its own is reported once, not again against every file that quotes it
      if (erros.length === 0) this.cruzada.add(p, data);
      if (p === "api/v1/index.json") this.index = data;
      if (p === DATAPACKAGE_PATH && erros.length === 0) this.dados.pacoteDeDados(data);
      if (p.startsWith("api/v1/cotacao/") && erros.length === 0) {
        this.dados.serie(p, data, origem?.comCsvs === true);
        // the last series only: a run renders a series' CSVs right after its JSON
        this.jsons.clear();
        this.jsons.set(p, data);
      }
      if (p.startsWith("api/v1/cotacao/")) {
        const csv = csvDoJson(p);
        const pendente = this.csvPendentes.get(csv);
        if (pendente) {
          this.csvPendentes.delete(csv);
          this.push(csv, compararCsvJson(csv, pendente, data));
        } else {
          this.series.set(p, data);
        }
      }
    } else if ((p === excelPath(HISTORICO_LONGO_PATH) || p.startsWith("api/v1/historico/")) && isExcelPath(p)) {
      // checked against its CSV at the end (report), but a file of the report from now on: the
      // summary counts it as valid or not, never as unchecked or missing
      this.push(p, []);
      this.dados.excel(p, texto(content));
    } else if (p === HISTORICO_LONGO_PATH) {
      // assembled by the run from blocks (doc): its new blocks are read, the copied ones stand by their facts
      const montado = doc as LongoMontado | undefined;
      const problemas = montado ? this.dados.longoMontado(content, montado) : this.dados.historicoLongo(texto(content));
      this.push(p, problemas.map((pr) => linha(p, pr)));
    } else if (/^api\/v1\/historico\/.+\.pracas\.csv$/.test(p)) {
      this.push(p, this.dados.pracas(p, texto(content)).map((pr) => linha(p, pr)));
    } else if (/^api\/v1\/historico\/.+\.csv$/.test(p)) {
      const text = texto(content);
      this.dados.csv(p, text);
      const lido = checarCsvHistorico(text);
      this.push(p, lido.problemas.map((pr) => linha(p, pr)));
      const csv: CsvLido = { linhas: lido.linhas, texto: text };
      const json = jsonDoCsv(p);
      if (this.series.has(json)) {
        this.push(p, compararCsvJson(p, csv, this.series.get(json)));
        this.series.delete(json);
      } else {
        this.csvPendentes.set(p, csv);
      }
    } else if (/^schemas\/[^/]+\.json$/.test(p)) {
      this.push(p, checarCopiaDoSchema(p, texto(content)));
    } else {
      this.ignorados.push(p);
    }
  }

  /** The long file of a tree on disk, read in parts with the same checks as `add` gives its whole text. */
  addHistoricoLongoEmDisco(arquivo: string): void {
    this.push(HISTORICO_LONGO_PATH, this.dados.historicoLongoEmDisco(arquivo).map((pr) => linha(HISTORICO_LONGO_PATH, pr)));
  }

  /** A new block of the long file, read as it was rendered (the run puts it aside until the long file is written). */
  blocoNovo(id: string, texto: string): void {
    this.dados.blocoNovo(id, texto);
  }

  /**
   * A series whose files a run leaves as published: what it said then stands for it in the checks
   * across files (aggregates, index, status, the long file, datapackage.json's headers).
   */
  reusada(r: SerieReusada): void {
    const { fatos } = r;
    this.cruzada.serieReusada(`api/v1/cotacao/${r.reusada}.json`, fatos.resumo);
    this.dados.serieReusada(r.reusada, { fixos: fatos.longo.fixos, hash: fatos.longo.valores, pontos: fatos.longo.pontos });
    for (const [p, cab] of Object.entries(fatos.cabecalhos)) this.dados.cabecalho(p, cab);
  }

  /**
   * The verdict. With `arvore` (every path of the whole published tree, for npm run validate),
   * index.json's paths must exist in it.
   */
  report(arvore?: { has(path: string): boolean }): ValidationReport {
    if (arvore && this.index) this.push("api/v1/index.json", checarCaminhosDoIndice(this.index as { series?: unknown; produtos?: unknown; ufs?: unknown }, arvore));
    for (const [p, erros] of this.cruzada.problemas(arvore)) this.push(p, erros);
    for (const [p, erros] of this.dados.problemas(arvore)) this.push(p, erros);
    const arquivos = [...this.results.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([path, erros]) => ({ path, erros }));
    return { arquivos, ignorados: [...this.ignorados].sort(), erros: arquivos.flatMap((a) => a.erros) };
  }
}

/** api/v1/cotacao/{id}.json -> api/v1/historico/{id}.csv */
function csvDoJson(jsonPath: string): string {
  return jsonPath.replace(/^api\/v1\/cotacao\//, "api/v1/historico/").replace(/\.json$/, ".csv");
}

/**
 * Validates a set of files keyed by their path under public/ (the whole tree, or one run's files).
 * A file may be given as a function that reads it: it is read when its turn comes, so a tree on
 * disk is never whole in memory.
 */
export function validateFiles(files: Map<string, string | Buffer | (() => Buffer)>, opts: ValidateFilesOptions = {}): ValidationReport {
  const byPath = new Map<string, string | Buffer | (() => Buffer)>();
  for (const [k, v] of files) byPath.set(normalizePath(k), v);
  const longo = opts.historicoLongoEmDisco;
  const paths = new Set(byPath.keys());
  if (longo !== undefined) paths.add(HISTORICO_LONGO_PATH);
  const v = new FileValidator();
  for (const p of ordemDeLeitura(paths)) {
    if (longo !== undefined && p === HISTORICO_LONGO_PATH) v.addHistoricoLongoEmDisco(longo);
    else {
      const c = byPath.get(p)!;
      v.add(p, typeof c === "function" ? c() : c, opts.documentos?.get(p));
    }
  }
  return v.report(opts.arvoreCompleta ? paths : undefined);
}

/**
 * The tree's paths sorted, except that a series' CSVs come right after its JSON: the JSON's
 * history waits in memory for its CSV (FileValidator.series), and in plain order every
 * api/v1/cotacao/ history of the tree would wait for api/v1/historico/ (hundreds of MB at 30 years).
 */
export function ordemDeLeitura(paths: Iterable<string>): string[] {
  const chave = (p: string) => {
    const m = /^api\/v1\/historico\/(.+?)(\.pracas)?(\.excel)?\.csv$/.exec(p);
    return m && p !== HISTORICO_LONGO_PATH ? `api/v1/cotacao/${m[1]}.json\u0000${p}` : p;
  };
  return [...paths].map((p) => [chave(p), p] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, p]) => p);
}

/** A CSV as read: its lines, and its text until it is compared with its JSON. */
type CsvLido = { linhas: CsvLinha[]; texto?: string };

/**
 * CSV and JSON of the same series must hold the same days and values, and then the very lines
 * the JSON history renders to (every column: US$, 30 days, praças).
 */
function compararCsvJson(p: string, csv: CsvLido, doc: unknown): string[] {
  const { linhas } = csv;
  const jsonPath = jsonDoCsv(p);
  const d = doc as { historico?: unknown; unidade?: unknown } | undefined;
  if (!d || !Array.isArray(d.historico)) return [];
  const hist = d.historico as Array<{ data?: unknown; valor?: unknown }>;
  const erros: string[] = [];
  if (linhas.length !== hist.length) {
    erros.push(`${p}: tem ${linhas.length} linhas de dados, mas ${jsonPath} tem ${hist.length} entradas no histórico`);
  }
  const n = Math.min(linhas.length, hist.length);
  for (let i = 0; i < n && erros.length < 5; i++) {
    const l = linhas[i]!;
    const h = hist[i]!;
    if (l.data !== h.data || Number(l.valor) !== h.valor) {
      erros.push(`${p}: linha ${l.linha}: ${l.data},${l.valor} difere de ${jsonPath} /historico/${i} (${mostrar(h.data)}, ${mostrar(h.valor)})`);
    }
  }
  if (erros.length === 0 && csv.texto !== undefined) {
    let esperado: string;
    try {
      esperado = historicoCsv(hist as HistoricoEntry[], String(d.unidade));
    } catch {
      return erros;
    }
    if (esperado !== csv.texto) {
      const a = csv.texto.split("\n");
      const b = esperado.split("\n");
      let i = 0;
      while (i < a.length && a[i] === b[i]) i++;
      erros.push(`${p}: linha ${i + 1}: ${mostrar(a[i] ?? "")} difere do que ${jsonPath} dá para essa linha (${mostrar(b[i] ?? "")}); os dois arquivos são de versões diferentes dos dados`);
    }
  }
  return erros;
}

function checarCopiaDoSchema(p: string, raw: string): string[] {
  const name = p.slice("schemas/".length);
  if (!listSchemaFiles().includes(name)) return [`${p}: não existe em schemas/ do repositório (cópia de um schema removido?)`];
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch (e) {
    return [`${p}: JSON inválido: ${(e as Error).message}`];
  }
  const original: unknown = JSON.parse(readFileSync(join(SCHEMA_DIR, name), "utf8"));
  return isDeepStrictEqual(data, original) ? [] : [`${p}: difere de schemas/${name} do repositório (cópia desatualizada: rode npm run build)`];
}

/**
 * index.json points at files: every series, product and UF path must be in the tree. Its paths
 * are relative to its own directory (api/v1/).
 */
function checarCaminhosDoIndice(index: { series?: unknown; produtos?: unknown; ufs?: unknown }, byPath: { has(path: string): boolean }): string[] {
  const out: string[] = [];
  const exists = (ref: string) => byPath.has(`api/v1/${ref}`);
  const lists: Array<[string, unknown, string[]]> = [
    ["series", index.series, ["path", "recente", "csv", "csv_excel", "pracas_csv"]],
    ["produtos", index.produtos, ["path"]],
    ["ufs", index.ufs, ["path"]],
  ];
  for (const [name, list, keys] of lists) {
    if (!Array.isArray(list)) continue;
    list.forEach((item: unknown, i) => {
      if (typeof item !== "object" || item === null) return;
      for (const k of keys) {
        const ref = (item as Record<string, unknown>)[k];
        if (typeof ref === "string" && ref !== "" && !exists(ref)) {
          out.push(`api/v1/index.json: /${name}/${i}/${k}: aponta para um arquivo que não existe (${JSON.stringify(ref)})`);
        }
      }
    });
  }
  return out;
}
