/**
 * npm run backfill: a source's whole published history, imported into one series through the
 * same line as an update. The file (a download of CEPEA's series, live or given) is read whole
 * or refused (sources/cepea-series.ts); its days become one SeriesUpdate, as a page's do
 * (history/assemble.ts); they pass the same gates — plausible range (per era: check/eras.ts),
 * no future day, jumps day to day with the gap rule, R$ against US$ (in windows of 15 days, as
 * the daily page shows them) — and the same merge (run/apply.ts); days already published may
 * move only within the revision bound, else the import is held for an operator, exactly as a
 * page is (status.json lists the values and the `--aceitar-revisao` that accepts each); a file
 * that ends before the last published day is behind the history, and any published value it
 * would change is held (the superseded number, as on a stale page). A
 * backfill is a capture too: the capture log records the file's SHA-256, `via` "arquivo" (or
 * none, when downloaded live) and every day it added or revised. All of it is published under
 * the data directory's lock, all or nothing.
 */
import { readFile, stat } from "node:fs/promises";
import { basename } from "node:path";
import type { Config, RevisaoAceita } from "../config.ts";
import { dayBrasilia, formatDateBR, isoBrasilia } from "../domain/dates.ts";
import { ParseError, PipelineError } from "../domain/errors.ts";
import { formatDecimalBR } from "../domain/money.ts";
import { UNIDADE_INFO } from "../domain/products.ts";
import { PriceRowSchema, type PriceRow } from "../domain/row.ts";
import type { SeriesDef } from "../domain/series.ts";
import type { HistoricoEntry, SerieFile } from "../domain/publicados.ts";
import { baixarSerie } from "../fetch/serie.ts";
import type { HttpOptions } from "../fetch/http.ts";
import type { SeriesUpdate } from "../history/assemble.ts";
import { baselines, capturaId, capturasPath, loadCapturas, loadTodasCapturas, sha256Hex, type Captura, type CapturaRevisao } from "../history/capturas.ts";
import type { RevisaoCampo } from "../history/changes.ts";
import { avisoPulado, desfeitoNoDia, DESFEITOS_FILE, loadDesfeitos, type ValorPulado } from "../history/desfeitos.ts";
import { canonicalEntry } from "../history/entry.ts";
import { loadStore } from "../history/store.ts";
import { checkRows } from "../check/coherence.ts";
import { checkFaixasPorEra } from "../check/eras.ts";
import { checkUpdates } from "../check/gates.ts";
import { aceiteArg, describeRevision, judgeRevisions } from "../check/revisions.ts";
import { loadEventos, nextEventos } from "../events/model.ts";
import { holdsDataLock, withDataLock } from "../publish/lock.ts";
import { publishFiles } from "../publish/write.ts";
import { renderSiteFiles } from "../site/assemble.ts";
import { lerSerieCepea, urlDaSerie, type SerieCepea, type SerieLida } from "../sources/cepea-series.ts";
import { getSource, serieDef } from "../sources/index.ts";
import { abrirPlanilha } from "../sources/planilha.ts";
import { applyUpdate } from "./apply.ts";
import { historicoSumido, seriesDoIndice } from "./update.ts";
import { nextStatus, type PageOutcome } from "./status.ts";

export type OrigemBackfill = { tipo: "arquivo"; caminho: string } | { tipo: "ao_vivo"; http?: Partial<HttpOptions> };

export interface BackfillOptions {
  config: Config;
  now: Date;
  serie: SerieCepea;
  origem: OrigemBackfill;
  /** revisions beyond the bound the operator accepts for this run, besides the configuration's */
  aceitar?: RevisaoAceita[];
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
}

export type EstadoBackfill = "importado" | "nada_novo" | "recusado" | "retido";

export interface BackfillReport {
  serie: string;
  estado: EstadoBackfill;
  /** 0 imported (or nothing new), 1 refused or held */
  exitCode: 0 | 1;
  /** why it was refused or held, null otherwise */
  motivo: string | null;
  /** dated rows of the file */
  lidos: number;
  novos: number;
  revisados: number;
  /** days of the file already published with the same values */
  iguais: number;
  /** problems the gates found (a refused import); 0 otherwise */
  recusados: number;
  semValor: number;
  anterioresAoReal: number;
  /** held revisions, with the argument that accepts each */
  revisoes: Array<RevisaoCampo & { aceitar: string }>;
  /**
   * days of the file kept out because they bring back a value `npm run desfazer` took off the
   * site (desfeitos.json): they stay as published, the rest of the file is imported
   */
  pulados: ValorPulado[];
  /** the commit message of what was imported; null when nothing was */
  mensagem: string | null;
  written: string[];
}

/** Gate messages shown in one refusal before "e mais N". */
const MAX_MOTIVOS = 20;
/** Rows judged together by the R$/US$ coherence check: the daily page shows 15 days. */
const JANELA_COERENCIA = 15;

function primeiros(xs: readonly string[], max = MAX_MOTIVOS): string[] {
  return xs.length <= max ? [...xs] : [...xs.slice(0, max), `e mais ${xs.length - max}`];
}

/** The days of the file as the update of one series (history/assemble.ts does the same for a page). */
function comoUpdate(def: SeriesDef, dias: SerieLida["dias"]): SeriesUpdate {
  const entries: HistoricoEntry[] = [...dias].sort((a, b) => (a.data < b.data ? -1 : 1)).map((d) => canonicalEntry({ ...d }));
  const newest = entries[entries.length - 1]!;
  // a state indicator (soja/PR) has no praça table: the state itself is its one praça
  const pracas =
    def.uf === null ? null : { data: newest.data, praca: def.praca ?? def.uf, quotes: [{ praca: def.praca ?? def.uf, valor: newest.valor, unidade: def.unidade }] };
  return { def, entries, pracas };
}

/** The rows a page would have given for these days, for the row checks. */
function comoLinhas(def: SeriesDef, entries: readonly HistoricoEntry[]): PriceRow[] {
  return entries.map((e) => ({
    fonte: def.fonte,
    produto: def.produto,
    uf: def.uf,
    praca: null,
    data: e.data,
    valor: e.valor,
    unidade: def.unidade,
    extras: (e.valor_usd !== undefined ? { valor_usd: e.valor_usd } : {}) as Record<string, number>,
  }));
}

/** Every gate of an update, over a whole history: the reasons it is refused, and how many. */
function portoes(def: SeriesDef, update: SeriesUpdate, series: ReadonlyMap<string, SerieFile>, now: Date): { motivos: string[]; n: number } {
  const motivos: string[] = [];
  let n = 0;
  const rows = comoLinhas(def, update.entries);
  const invalidas = rows.flatMap((row) => {
    const r = PriceRowSchema.safeParse(row);
    return r.success ? [] : [`dia ${row.data} inválido: ${r.error.issues[0]!.path.join(".")}: ${r.error.issues[0]!.message}`];
  });
  motivos.push(...primeiros(invalidas));
  n += invalidas.length;
  // ranges per era, instead of today's range for every day
  const era = checkFaixasPorEra(def, update.entries, MAX_MOTIVOS);
  motivos.push(...era.motivos);
  n += era.dias;
  // future days and jumps (the gap rule), with the range left to the era check above
  const semFaixa: SeriesUpdate = { ...update, def: { ...def, limites: { ...def.limites, faixa: {} } } };
  const storedQuotes = (id: string) => {
    const f = series.get(id);
    return f?.pracas ? { data: f.data_cotacao, quotes: f.pracas } : null;
  };
  const saltos = checkUpdates([semFaixa], (id) => series.get(id)?.historico ?? [], now, storedQuotes);
  motivos.push(...primeiros(saltos));
  n += saltos.length;
  // R$ against US$, in windows the size of the daily page (one rate, era bounds)
  const coerencia: string[] = [];
  for (let i = 0; i < rows.length; i += JANELA_COERENCIA) coerencia.push(...checkRows(rows.slice(i, i + JANELA_COERENCIA)));
  motivos.push(...primeiros(coerencia));
  n += coerencia.length;
  return { motivos, n };
}

function plural(n: number, um: string, varios: string): string {
  return `${n.toLocaleString("pt-BR")} ${n === 1 ? um : varios}`;
}

export async function runBackfill(opts: BackfillOptions): Promise<BackfillReport> {
  // the stored tree is read and published under one lock, as an update (the CLI already holds it)
  if (!holdsDataLock(opts.config.publicDir)) {
    return withDataLock(opts.config.publicDir, { esperar: true, log: opts.log, comando: "importação (runBackfill)" }, () => runBackfill(opts));
  }
  const { config, now, serie } = opts;
  const env = opts.env ?? process.env;
  const log = opts.log ?? (() => {});
  const def = serieDef(serie.serie);
  if (!def) throw new PipelineError({ stage: "config", reason: `a série ${serie.serie} não está no catálogo` });
  const source = getSource(def.fonte);
  const url = urlDaSerie(env[source.baseUrlEnv] || source.site, serie);
  const report: BackfillReport = {
    serie: def.id,
    estado: "recusado",
    exitCode: 1,
    motivo: null,
    lidos: 0,
    novos: 0,
    revisados: 0,
    iguais: 0,
    recusados: 0,
    semValor: 0,
    anterioresAoReal: 0,
    revisoes: [],
    pulados: [],
    mensagem: null,
    written: [],
  };
  const recusar = (motivo: string): BackfillReport => {
    report.motivo = motivo;
    log(`RECUSADO: ${motivo}`);
    log("nada foi gravado");
    log(resumo(report));
    return report;
  };
  if (!config.fontesAtivas[source.id]) return recusar(`a fonte ${source.id} está desativada na configuração`);

  // the file, whole
  let bytes: Uint8Array;
  let fetchedAt: Date;
  let via: string | null;
  let nome: string;
  if (opts.origem.tipo === "arquivo") {
    const caminho = opts.origem.caminho;
    try {
      bytes = await readFile(caminho);
      fetchedAt = (await stat(caminho)).mtime;
    } catch (err) {
      return recusar(`não foi possível ler ${caminho}: ${(err as Error).message}`);
    }
    via = "arquivo";
    nome = basename(caminho);
    log(`${def.id}: lendo o arquivo ${caminho} (${plural(bytes.byteLength, "byte", "bytes")}); série do CEPEA ${url}`);
  } else {
    try {
      const got = await baixarSerie(url, { http: opts.origem.http, now: () => now, log });
      bytes = got.bytes;
      fetchedAt = got.fetchedAt;
    } catch (err) {
      return recusar((err as Error).message);
    }
    via = null;
    nome = url;
  }
  const sha256 = sha256Hex(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));

  // read and check the layout; rows are read whole or not at all
  let lida: SerieLida;
  try {
    const planilha = abrirPlanilha(bytes);
    log(
      `formato ${planilha.formato}${planilha.aba ? `, aba "${planilha.aba}"` : ""}: ${plural(planilha.linhas, "linha", "linhas")}` +
        (planilha.declaradas !== null ? ` (a planilha declara ${planilha.declaradas})` : ""),
    );
    lida = lerSerieCepea(planilha, serie, (k, total) => log(`  lendo: ${Math.round((k / Math.max(1, total)) * 100)}% (${k.toLocaleString("pt-BR")}/${total.toLocaleString("pt-BR")} linhas)`));
  } catch (err) {
    if (err instanceof ParseError) return recusar(`${nome}: ${err.message}`);
    throw err;
  }
  report.lidos = lida.linhasDeDados;
  report.semValor = lida.semValor;
  report.anterioresAoReal = lida.anterioresAoReal.n;
  log(`título "${lida.titulo}", cabeçalho na linha ${lida.linhaCabecalho}`);
  for (const a of lida.avisos) log(`aviso: ${a}`);
  if (lida.dias.length === 0) return recusar(`${nome}: nenhum dia com valor em R$ desde o início do Real (1º/07/1994)`);

  // the gates, over the stored history with the file's days laid in
  const store = await loadStore(config.publicDir);
  const series = new Map<string, SerieFile>(store.series);
  // a published series whose history is gone is not imported afresh over it (run/update.ts)
  const noIndice = await seriesDoIndice(config.publicDir);
  if (!series.get(def.id)?.historico.length && noIndice.has(def.id)) {
    return recusar(historicoSumido(config.publicDir, def, noIndice.get(def.id)!, "importe o arquivo de novo"));
  }
  // a day that brings back a value `npm run desfazer` took off the site stays as published; the
  // rest of the file goes on, as a daily page's does (history/desfeitos.ts)
  const desfeitos = loadDesfeitos(config.publicDir);
  report.pulados = comoUpdate(def, lida.dias).entries.flatMap((e) => {
    const d = desfeitoNoDia(def.id, e, desfeitos);
    return d ? [{ serie: def.id, data: e.data, desfeito: d }] : [];
  });
  for (const p of report.pulados) log(`aviso: ${avisoPulado(p, "do arquivo")}`);
  const fora = new Set(report.pulados.map((p) => p.data));
  const dias = lida.dias.filter((d) => !fora.has(d.data));
  if (dias.length === 0) {
    report.estado = "nada_novo";
    report.exitCode = 0;
    log("nada novo: todos os dias do arquivo trazem valores desfeitos (desfeitos.json); nada foi gravado");
    log(resumo(report));
    return report;
  }
  const update: SeriesUpdate = { ...comoUpdate(def, dias), ...(fora.size > 0 ? { pulados: [...fora].sort() } : {}) };
  log(`checando ${plural(update.entries.length, "dia", "dias")} (${update.entries[0]!.data} a ${update.entries[update.entries.length - 1]!.data})`);
  const gates = portoes(def, update, series, now);
  if (gates.motivos.length > 0) {
    report.recusados = gates.n;
    return recusar(`o arquivo não passou nos portões de integridade; nada dele foi mesclado:\n  ${gates.motivos.join("\n  ")}`);
  }

  // the merge, aside; then what it would revise
  const origin = { url, via, viaUrl: null, fetchedAt };
  const existing = series.get(def.id);
  const r = applyUpdate(def, source, existing, update, origin, now);
  const stored = new Set((existing?.historico ?? []).map((e) => e.data));
  if (!r) {
    report.estado = "nada_novo";
    report.exitCode = 0;
    report.iguais = update.entries.filter((e) => stored.has(e.data)).length;
    log("nada novo: todos os dias do arquivo já estão publicados com os mesmos valores; nada foi gravado");
    log(resumo(report));
    return report;
  }
  const aceitas = [...config.revisoesAceitas, ...(opts.aceitar ?? [])];
  const base = baselines(await loadTodasCapturas(config.publicDir));
  // a file that ends before the last published day (downloaded days ago, a cached copy) is
  // behind the history: the values it would change are CEPEA's superseded ones, which the daily
  // pages replaced since, not revisions; each is held, as an update holds a stale page
  const publicadoAte = existing?.historico.at(-1)?.data;
  const arquivoAte = update.entries[update.entries.length - 1]!.data;
  const atrasado = publicadoAte !== undefined && arquivoAte < publicadoAte;
  const v = judgeRevisions(def, r.change.campos, aceitas, update.pracas?.praca ?? null, (c) => base.get(`${c.serie}|${c.data}|${c.campo}`), atrasado);
  const revisoes: CapturaRevisao[] = [...v.todas, ...r.change.rebase.map((c) => ({ ...c, aceita: true }))];
  report.novos = r.change.added.length;
  report.revisados = r.change.revised.length;
  report.iguais = update.entries.filter((e) => stored.has(e.data)).length - report.revisados;
  const eventosAntes = await loadEventos(config.publicDir);

  if (v.suspeitas.length > 0) {
    // held, as an update holds a page: nothing merged, status.json lists what it would change
    report.estado = "retido";
    report.revisoes = v.suspeitas.map((c) => ({ ...c, aceitar: aceiteArg(c) }));
    const comando = `npm run backfill -- --pagina ${source.id}/${serie.pagina}${serie.pagina !== def.id.replace(/_/g, "-") ? ` --serie ${def.id}` : ""}` + (opts.origem.tipo === "arquivo" ? ` --arquivo ${opts.origem.caminho}` : "");
    report.motivo =
      (atrasado
        ? `o arquivo está atrás do histórico (o arquivo vai até ${formatDateBR(arquivoAte)} e o histórico publicado até ${formatDateBR(publicadoAte!)}: baixado antes da última atualização?) ` +
          `e mudaria ${v.suspeitas.length} valor(es) já publicado(s), que seriam os valores antigos do CEPEA, substituídos desde então; nada dele foi mesclado: `
        : `o arquivo mudaria ${v.suspeitas.length} valor(es) já publicado(s) além do limite de revisão; nada dele foi mesclado: `) +
      v.suspeitas.map(describeRevision).join("; ") +
      // a stale file's values are superseded ones: the way out is a fresh download, not accepting them
      (atrasado
        ? ". Baixe a série de novo e importe o arquivo novo (um arquivo que vai até o último dia publicado não é retido por estar atrás)"
        : `. Se a revisão for legítima, aceite-a: ${comando} ${report.revisoes.map((c) => `--aceitar-revisao ${c.aceitar}`).join(" ")}`);
    const outcome: PageOutcome = { source: source.id, page: serie.pagina, ok: false, url, kind: "revisao_suspeita", reason: report.motivo, revisoes: report.revisoes };
    const status = nextStatus(store.status, [outcome], series, config, now, env);
    const files = renderSiteFiles(series, status, config, { eventos: nextEventos(eventosAntes, [], now) });
    const published = await publishFiles(config.publicDir, files);
    if (published.erros.length > 0) throw invalid(published.erros);
    report.written = published.written;
    log(`RETIDO: ${report.motivo}`);
    log(`status.json registra a revisão suspeita (${published.written.length} arquivo(s) escrito(s)); nenhum dia foi mesclado`);
    log(resumo(report));
    return report;
  }

  series.set(def.id, r.file);
  const ano = Number(dayBrasilia(now).slice(0, 4));
  const captura: Captura = {
    id: capturaId(source.id, serie.pagina, sha256, isoBrasilia(now)),
    fonte: source.id,
    pagina: serie.pagina,
    url,
    via,
    via_url: null,
    coletado_em: isoBrasilia(fetchedAt),
    registrado_em: isoBrasilia(now),
    sha256,
    bytes: bytes.byteLength,
    dias: update.entries.map((e) => e.data),
    novos: r.change.added.length > 0 ? { [def.id]: r.change.added } : {},
    revisoes,
  };
  const log_ = await loadCapturas(config.publicDir, ano);
  // a backfill leaves the pages' status as it was (it read no page); the series' dates follow
  const status = nextStatus(store.status, [], series, config, now, env);
  log("gravando");
  const files = renderSiteFiles(series, status, config, {
    eventos: nextEventos(eventosAntes, [r.change], now),
    capturas: { ...log_, capturas: [...log_.capturas, captura] },
  });
  const published = await publishFiles(config.publicDir, files);
  if (published.erros.length > 0) throw invalid(published.erros);
  for (const a of aceitas) {
    if (!v.usadas.includes(a) && opts.aceitar?.includes(a)) log(`aviso: revisão aceita não usada: ${a.serie} em ${a.data}, ${a.campo} = ${a.valor ?? "nenhum"}`);
  }
  report.estado = "importado";
  report.exitCode = 0;
  report.written = published.written;
  report.mensagem = mensagemDeCommit({ def, serie, url, nome, via, sha256, bytes: bytes.byteLength, lida, r, revisoes, captura, ano, file: r.file, pulados: report.pulados });
  log(`${plural(published.written.length, "arquivo escrito", "arquivos escritos")}`);
  log(resumo(report));
  return report;
}

function invalid(erros: string[]): PipelineError {
  return new PipelineError({ stage: "validate", reason: `os arquivos gerados não passaram na validação; nada foi escrito:\n  ${erros.join("\n  ")}` });
}

/** The summary line at the end of every run. */
export function resumo(r: BackfillReport): string {
  const estado = { importado: "importado", nada_novo: "nada novo", recusado: "RECUSADO", retido: "RETIDO (revisão além do limite)" }[r.estado];
  return (
    `resumo ${r.serie}: ${estado}; ${plural(r.lidos, "dia lido", "dias lidos")}, ${plural(r.novos, "novo", "novos")}, ` +
    `${plural(r.revisados, "revisado", "revisados")}, ${plural(r.iguais, "igual ao publicado", "iguais ao publicado")}, ${plural(r.recusados, "recusado", "recusados")}` +
    ` pelos portões; não importados: ${plural(r.semValor, "dia sem valor em R$", "dias sem valor em R$")}, ${plural(r.anterioresAoReal, "dia anterior ao Real", "dias anteriores ao Real")}` +
    (r.pulados.length > 0 ? `, ${plural(r.pulados.length, "dia com valor desfeito", "dias com valor desfeito")} (${DESFEITOS_FILE})` : "")
  );
}

/** The commit message that says what was imported: title, the series, its source file, the revisions. */
function mensagemDeCommit(m: {
  def: SeriesDef;
  serie: SerieCepea;
  url: string;
  nome: string;
  via: string | null;
  sha256: string;
  bytes: number;
  lida: SerieLida;
  r: NonNullable<ReturnType<typeof applyUpdate>>;
  revisoes: CapturaRevisao[];
  captura: Captura;
  ano: number;
  file: SerieFile;
  pulados: readonly ValorPulado[];
}): string {
  const { def, r } = m;
  const added = r.change.added;
  const unidade = `R$${UNIDADE_INFO[def.unidade]?.sufixo ?? `/${def.unidade}`}`;
  const partes: string[] = [];
  if (added.length > 0) partes.push(`${plural(added.length, "dia importado", "dias importados")} (${added[0]} a ${added[added.length - 1]})`);
  if (r.change.revised.length > 0) partes.push(plural(r.change.revised.length, "dia revisado", "dias revisados"));
  const linhas = [`histórico ${def.id}: ${partes.join(", ") || "praças atualizadas"}`, ""];
  const h = m.file.historico;
  linhas.push(`- ${def.id} (CEPEA, ${def.regiao}): agora ${plural(h.length, "dia", "dias")}, de ${h[0]!.data} a ${h[h.length - 1]!.data}; último ${formatDecimalBR(m.file.valor)} ${unidade} em ${m.file.data_cotacao}`);
  const revs = r.change.campos;
  for (const c of revs.slice(0, MAX_MOTIVOS)) linhas.push(`  revisão: ${describeRevision(c)}${m.revisoes.find((x) => x.data === c.data && x.campo === c.campo && x.aceita) ? " (aceita pelo operador)" : ""}`);
  if (revs.length > MAX_MOTIVOS) linhas.push(`  e mais ${revs.length - MAX_MOTIVOS} revisão(ões)`);
  const origem = m.via === "arquivo" ? `arquivo ${m.nome}, da série ${m.url}` : `baixado de ${m.url}`;
  linhas.push(`- origem: ${origem}; título "${m.lida.titulo}"; ${plural(m.bytes, "byte", "bytes")}, sha256 ${m.sha256}`);
  const a = m.lida.anterioresAoReal;
  linhas.push(
    `- não importados: ${plural(m.lida.semValor, "dia sem valor em R$", "dias sem valor em R$")}; ` +
      `${plural(a.n, "dia anterior ao Real", "dias anteriores ao Real")}${a.n > 0 ? ` (${a.primeiro} a ${a.ultimo})` : ""}`,
  );
  if (m.pulados.length > 0) {
    const dias = m.pulados.map((p) => `${p.data} (${p.desfeito.campo} ${formatDecimalBR(p.desfeito.valor)}, desfeito em ${p.desfeito.commit.slice(0, 12)})`);
    linhas.push(`- pulados, por trazerem um valor desfeito (${DESFEITOS_FILE}): ${dias.join(", ")}`);
  }
  linhas.push(`- captura ${m.captura.id} em ${capturasPath(m.ano)}`);
  return linhas.join("\n") + "\n";
}
