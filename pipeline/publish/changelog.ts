/**
 * The commit message of a data change: what a data journalist reads in `git log`. A pure
 * function of the site files before (HEAD) and after (working tree); the git layer that reads
 * them is below it and stays thin.
 */
import type { Dirent } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { diff, formatDecimalBR, formatNumeroDoPreco, formatPreco, variationPct } from "../domain/money.ts";
import { isProduto, UNIDADE_INFO, type Unidade } from "../domain/products.ts";
import { allSeries } from "../sources/index.ts";
import type { HistoricoEntry, SerieFile, SourceState, StatusFile, StatusSource } from "../domain/publicados.ts";
import { PipelineError } from "../domain/errors.ts";
import { git, gitValue } from "../io/git.ts";
import { CONTROL_NAME, isControlPath, TEMP_FILE } from "./journal.ts";
import { dataBR, dataHoraBR, nomeFonte, nomeProduto, nomeSerie, ufDaSerie } from "./nomes.ts";

/** Site files by path relative to the site root ("api/v1/cotacao/soja.json"); null = absent. */
export type SiteFiles = ReadonlyMap<string, string | null>;

const SERIE_PATH = /^api\/v1\/cotacao\/([a-z_]+)(?:\/([A-Z]{2}))?\.json$/;
export const STATUS_PATH = "api/v1/status.json";

/** "{produto}/{UF}" for a series file path, null for any other file. */
export function seriesIdOfPath(path: string): string | null {
  const m = SERIE_PATH.exec(path);
  if (!m || !isProduto(m[1]!)) return null;
  return m[2] ? `${m[1]}/${m[2]}` : m[1]!;
}

export interface Revision {
  data: string;
  antes: HistoricoEntry;
  depois: HistoricoEntry;
}

export interface SerieChange {
  id: string;
  antes: SerieFile | null;
  depois: SerieFile | null;
  /** days that were not in the history before, oldest first */
  novos: HistoricoEntry[];
  /** days already published whose entry changed */
  revisoes: Revision[];
  /** days that disappeared from the history */
  removidos: HistoricoEntry[];
}

function byDate(h: readonly HistoricoEntry[]): Map<string, HistoricoEntry> {
  return new Map(h.map((e) => [e.data, e]));
}

function sameEntry(a: HistoricoEntry, b: HistoricoEntry): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** What changed in one series' history; null when its days are all the same. */
export function diffSerie(id: string, antes: SerieFile | null, depois: SerieFile | null): SerieChange | null {
  const before = byDate(antes?.historico ?? []);
  const after = byDate(depois?.historico ?? []);
  const novos: HistoricoEntry[] = [];
  const revisoes: Revision[] = [];
  for (const e of depois?.historico ?? []) {
    const old = before.get(e.data);
    if (!old) novos.push(e);
    else if (!sameEntry(old, e)) revisoes.push({ data: e.data, antes: old, depois: e });
  }
  const removidos = (antes?.historico ?? []).filter((e) => !after.has(e.data));
  if (novos.length === 0 && revisoes.length === 0 && removidos.length === 0 && (antes === null) === (depois === null)) return null;
  return { id, antes, depois, novos, revisoes, removidos };
}

/** "+1,40", "-0,35", "0,00" */
function signed(n: number): string {
  const s = formatDecimalBR(Math.abs(n));
  return n > 0 ? `+${s}` : n < 0 ? `-${s}` : s;
}

/** "(+R$ 1,40; +0,40%)" from two money values, computed on integer centavos. */
function variation(from: number, to: number, unidade: Unidade): string {
  const d = diff(from, to);
  const money = `${d > 0 ? "+" : d < 0 ? "-" : ""}${formatNumeroDoPreco(Math.abs(d), unidade)}`;
  return `(${money}; ${signed(variationPct(from, to))}%)`;
}

const um = new Intl.NumberFormat("pt-BR", { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** "+2,3%" for the subject line; two decimals when one would round a real move to zero. */
function pctCurto(p: number): string {
  const sinal = p > 0 ? "+" : p < 0 ? "-" : "";
  const a = Math.abs(p);
  return `${sinal}${Math.round(a * 10) === 0 && a > 0 ? formatDecimalBR(a) : um.format(a)}%`;
}

function preco(valor: number, f: SerieFile): string {
  return UNIDADE_INFO[f.unidade] ? formatPreco(valor, f.unidade) : `${formatDecimalBR(valor)} R$/${f.unidade}`;
}

/** "Boi gordo (MS, Scot Consultoria)" */
function label(c: SerieChange): string {
  const f = (c.depois ?? c.antes)!;
  return nomeSerie(c.id, f.fonte, f.nome);
}

/** Fields other than valor that a revision touched: "US$", "30 dias", "praça Cuiabá". */
function otherFields(a: HistoricoEntry, b: HistoricoEntry): string[] {
  const out: string[] = [];
  if (a.valor_usd !== b.valor_usd) out.push("US$");
  if (a.valor_30d !== b.valor_30d) out.push("30 dias");
  const pa = a.pracas ?? {};
  const pb = b.pracas ?? {};
  for (const p of new Set([...Object.keys(pa), ...Object.keys(pb)])) {
    if (pa[p] !== pb[p]) out.push(`praça ${p}`);
  }
  return out;
}

/** "Boi gordo (CEPEA/ESALQ-USP), 03/09/2026: R$ 347,60/@ → R$ 347,70/@ (+R$ 0,10; +0,03%)" */
function revisionText(c: SerieChange, r: Revision): string {
  const f = (c.depois ?? c.antes)!;
  const head = `${label(c)}, ${dataBR(r.data)}`;
  if (r.antes.valor !== r.depois.valor) {
    const outros = otherFields(r.antes, r.depois);
    return (
      `${head}: ${preco(r.antes.valor, f)} → ${preco(r.depois.valor, f)} ${variation(r.antes.valor, r.depois.valor, f.unidade)}` +
      (outros.length ? `; também ${outros.join(", ")}` : "")
    );
  }
  return `${head}: valor mantido (${preco(r.depois.valor, f)}); mudou ${otherFields(r.antes, r.depois).join(", ") || "a entrada"}`;
}

/** What a series change is, for the message: each kind has its own section. */
export type Tipo =
  /** the latest day advanced and the price moved */
  | "variacao"
  /** the latest day advanced at the same price */
  | "sem_mudanca"
  /** only past days, or the latest, were revised */
  | "revisao"
  | "nova"
  | "removida"
  /** days filled in before the latest one (a backfill), a unit change, days removed */
  | "outra";

export function tipoDaMudanca(c: SerieChange): Tipo {
  if (c.depois === null) return "removida";
  if (c.antes === null || c.antes.historico.length === 0) return "nova";
  const a = c.antes;
  const d = c.depois;
  if (c.novos.length > 0 && d.data_cotacao !== a.data_cotacao) {
    // another unit or another reference praça: the two values are not one price that moved
    if (a.unidade !== d.unidade || trocouDePraca(a, d)) return "outra";
    return anterior(c) === d.valor ? "sem_mudanca" : "variacao";
  }
  if (c.novos.length > 0 || c.removidos.length > 0) return "outra";
  return "revisao";
}

/**
 * The value a move is measured from: the last day published before, as the series publishes it
 * now. CEPEA often corrects the day before along with a new one; measured from the superseded
 * number, the message would disagree with the series' own `variacao` (even in sign), and the
 * correction is told apart, under Revisões.
 */
function anterior(c: SerieChange): number {
  const a = c.antes!;
  return c.depois?.historico.find((e) => e.data === a.data_cotacao)?.valor ?? a.valor;
}

/** A state series whose reference praça is another one (cotacao.config.json's pracasReferencia changed). */
function trocouDePraca(a: SerieFile, d: SerieFile): boolean {
  return typeof a.praca === "string" && typeof d.praca === "string" && a.praca !== "" && d.praca !== "" && a.praca !== d.praca;
}

/** The variation of the latest value, in percent (0 for anything but a move). */
function pctDa(c: SerieChange): number {
  return tipoDaMudanca(c) === "variacao" ? variationPct(anterior(c), c.depois!.valor) : 0;
}

/**
 * The lines of one changed series in its section (revisions apart: revisionLines). A move:
 * "Boi gordo (SP, Scot Consultoria): R$ 345,50/@ → R$ 347,00/@ (+R$ 1,50; +0,43%) em 06/08/2026
 * (antes: 05/08/2026)".
 */
export function serieLines(c: SerieChange): string[] {
  const tipo = tipoDaMudanca(c);
  const lines: string[] = [];
  if (tipo === "removida") {
    const a = c.antes!;
    return [`- ${label(c)}: série removida (último valor ${preco(a.valor, a)} em ${dataBR(a.data_cotacao)})`];
  }
  const d = c.depois!;
  if (tipo === "nova") {
    const n = d.historico.length;
    const desde = d.historico[0]?.data;
    return [`- ${label(c)}: ${preco(d.valor, d)} em ${dataBR(d.data_cotacao)} (${n === 1 ? "1 dia" : `${n} dias desde ${dataBR(desde)}`})`];
  }
  const a = c.antes!;
  const mais = c.novos.length > 1 ? `; ${c.novos.length} dias novos` : "";
  if (tipo === "variacao" || tipo === "sem_mudanca") {
    const de = anterior(c);
    lines.push(`- ${label(c)}: ${preco(de, a)} → ${preco(d.valor, d)} ${variation(de, d.valor, d.unidade)} em ${dataBR(d.data_cotacao)} (antes: ${dataBR(a.data_cotacao)})${mais}`);
  } else if (tipo === "outra") {
    if (c.novos.length > 0 && d.data_cotacao !== a.data_cotacao) {
      const mudou = a.unidade !== d.unidade ? "unidade mudou" : `praça de referência mudou de ${a.praca} para ${d.praca}`;
      lines.push(`- ${label(c)}: ${preco(a.valor, a)} em ${dataBR(a.data_cotacao)} → ${preco(d.valor, d)} em ${dataBR(d.data_cotacao)}, ${mudou}${mais}`);
    } else if (c.novos.length > 0) {
      // days filled in before the latest one (a backfill): the latest value did not move
      const n = c.novos.length;
      lines.push(
        `- ${label(c)}: ${n} ${n === 1 ? "dia acrescentado" : "dias acrescentados"} ao histórico (${c.novos.map((e) => dataBR(e.data)).join(", ")}); ` +
          `último valor mantido, ${preco(d.valor, d)} em ${dataBR(d.data_cotacao)}`,
      );
    }
    for (const r of c.removidos) lines.push(`- ${label(c)}: dia removido do histórico: ${dataBR(r.data)} (${preco(r.valor, a)})`);
  }
  return lines;
}

/** One line per revised day, "- Boi gordo (CEPEA/ESALQ-USP), 03/09/2026: ...". */
export function revisionLines(c: SerieChange): string[] {
  return c.revisoes.map((r) => `- ${revisionText(c, r)}`);
}

const ESTADO: Record<SourceState, string> = {
  ok: "ok",
  stale: "desatualizada",
  blocked: "bloqueada",
  failed: "com falha",
  disabled: "desativada",
};

/** One short phrase per source whose health changed, and the detail lines under it. */
export function statusChanges(antes: StatusFile | null, depois: StatusFile | null): { resumo: string[]; linhas: string[] } {
  const resumo: string[] = [];
  const linhas: string[] = [];
  for (const s of depois?.fontes ?? []) {
    const p: StatusSource | undefined = antes?.fontes.find((x) => x.id === s.id);
    const nome = nomeFonte(s.id);
    const prevEstado = p?.estado ?? "ok";
    if (s.estado === "ok" || s.estado === "disabled" || s.estado === "stale") {
      if (prevEstado !== s.estado) {
        const phrase = s.estado === "ok" ? `${nome} voltou ao normal` : `${nome} ${ESTADO[s.estado]}`;
        resumo.push(phrase);
        linhas.push(`- ${phrase}${s.motivo ? ` (${s.motivo})` : ""}`);
      } else if (s.motivo !== (p?.motivo ?? null)) {
        // still stale, one more day without data: detail only, not news for the title
        linhas.push(`- ${nome} ${ESTADO[s.estado]}${s.motivo ? ` (${s.motivo})` : ""}`);
      }
      continue;
    }
    const fresh = prevEstado !== s.estado || p?.motivo !== s.motivo;
    const counted = (p?.falhas_consecutivas ?? 0) !== s.falhas_consecutivas;
    if (!fresh && !counted) continue;
    const phrase = `${nome} ${ESTADO[s.estado]} desde ${dataHoraBR(s.falhando_desde)}`;
    resumo.push(phrase);
    const falhas = `${s.falhas_consecutivas} ${s.falhas_consecutivas === 1 ? "falha" : "falhas seguidas"}`;
    linhas.push(`- ${phrase}, ${falhas}; dados mantidos até ${dataBR(s.ultima_data)}`);
    for (const pg of s.paginas) {
      if (pg.estado !== "ok") linhas.push(`  página ${s.id}/${pg.id}: ${pg.estado}${pg.motivo ? `: ${pg.motivo}` : ""}`);
    }
  }
  return { resumo, linhas };
}

export interface ChangelogInput {
  before: SiteFiles;
  after: SiteFiles;
}

function parseJson<T>(path: string, text: string | null | undefined, which: string): T | null {
  if (text === null || text === undefined) return null;
  try {
    return JSON.parse(text) as T;
  } catch (err) {
    throw new PipelineError({ stage: "publish", reason: `changelog: ${path} (${which}) não é JSON válido: ${(err as Error).message}`, cause: err });
  }
}

const ORDER = new Map(allSeries().map((d, i) => [d.id, i]));
const catalogo = (a: SerieChange, b: SerieChange) => (ORDER.get(a.id) ?? 1e9) - (ORDER.get(b.id) ?? 1e9) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** "A, B e C" */
function lista(itens: readonly string[]): string {
  return itens.length <= 1 ? (itens[0] ?? "") : `${itens.slice(0, -1).join(", ")} e ${itens.at(-1)}`;
}

/**
 * "12 praças sem mudança em 06/08/2026: Boi gordo (Scot Consultoria) em GO, MS e MT; Soja
 * (CEPEA/ESALQ-USP)": the series whose new day repeats the last price, folded into one line.
 */
function semMudanca(cs: readonly SerieChange[]): { resumo: string; linha: string } {
  const n = cs.length;
  const estaduais = cs.every((c) => ufDaSerie(c.id) !== null);
  const dias = [...new Set(cs.map((c) => c.depois!.data_cotacao))];
  const quando = dias.length === 1 ? ` em ${dataBR(dias[0])}` : "";
  const resumo = `${n} ${estaduais ? (n === 1 ? "praça" : "praças") : n === 1 ? "série" : "séries"} sem mudança${quando}`;
  // states grouped by product and source, in catalogue order of their first series
  const grupos = new Map<string, string[]>();
  for (const c of cs) {
    const f = c.depois!;
    const uf = ufDaSerie(c.id);
    const chave = uf ? `${nomeProduto(c.id, f.nome)} (${nomeFonte(f.fonte)})` : label(c);
    const g = grupos.get(chave) ?? [];
    if (uf) g.push(uf);
    grupos.set(chave, g);
  }
  const partes = [...grupos].map(([chave, ufs]) => (ufs.length ? `${chave} em ${lista([...ufs].sort())}` : chave));
  return { resumo, linha: `- ${resumo}: ${partes.join("; ")}` };
}

/** How many of the biggest moves the subject line names. */
const NO_TITULO = 3;

/**
 * The commit message for the site change, or null when no file differs. It leads with the news:
 * the subject names the biggest moves first (by |%|), then revisions, new series and source
 * trouble; the body has one section per kind of change (moves, unchanged praças folded into one
 * line, revisions, new series, other changes, sources), series and sources by name and every date
 * as dd/mm/aaaa. Deterministic: the same files give the same message.
 */
export function buildChangelog({ before, after }: ChangelogInput): string | null {
  const paths = [...new Set([...before.keys(), ...after.keys()])].filter((p) => (before.get(p) ?? null) !== (after.get(p) ?? null)).sort();
  if (paths.length === 0) return null;

  const changes: SerieChange[] = [];
  const regenerated: string[] = [];
  const outros: string[] = [];
  for (const p of paths) {
    const id = seriesIdOfPath(p);
    if (id) {
      const c = diffSerie(id, parseJson<SerieFile>(p, before.get(p), "antes"), parseJson<SerieFile>(p, after.get(p), "depois"));
      if (c) changes.push(c);
      else regenerated.push(p);
    } else if (p !== STATUS_PATH) {
      outros.push(p);
    }
  }
  changes.sort(catalogo);
  const status = paths.includes(STATUS_PATH)
    ? statusChanges(parseJson<StatusFile>(STATUS_PATH, before.get(STATUS_PATH), "antes"), parseJson<StatusFile>(STATUS_PATH, after.get(STATUS_PATH), "depois"))
    : { resumo: [], linhas: [] };

  const de = (t: Tipo) => changes.filter((c) => tipoDaMudanca(c) === t);
  const variacoes = de("variacao").sort((a, b) => Math.abs(pctDa(b)) - Math.abs(pctDa(a)) || catalogo(a, b));
  const iguais = de("sem_mudanca");
  const novas = de("nova");
  const outras = [...de("outra"), ...de("removida")].sort(catalogo);
  const revistas = changes.filter((c) => c.revisoes.length > 0);
  const nRevisoes = revistas.reduce((n, c) => n + c.revisoes.length, 0);
  const ultimoDia = changes
    .map((c) => (c.depois ?? c.antes)!.data_cotacao)
    .sort()
    .at(-1);

  const titulo: string[] = [];
  if (variacoes.length > 0) {
    const nomes = variacoes.slice(0, NO_TITULO).map((c) => `${label(c)} ${pctCurto(pctDa(c))}`);
    const resto = variacoes.length - NO_TITULO;
    titulo.push(resto > 0 ? `${nomes.join(", ")} e mais ${resto} ${resto === 1 ? "variação" : "variações"}` : lista(nomes));
  } else if (iguais.length > 0) {
    titulo.push(semMudanca(iguais).resumo);
  }
  if (nRevisoes > 0) {
    const nomes = revistas.map(label);
    titulo.push(
      titulo.length > 0
        ? `${nRevisoes} ${nRevisoes === 1 ? "revisão" : "revisões"}`
        : `${nRevisoes === 1 ? "revisão" : "revisões"} em ${nomes.length > 2 ? `${nomes.slice(0, 2).join(", ")} e mais ${nomes.length - 2}` : lista(nomes)}`,
    );
  }
  if (novas.length > 0) {
    const n = novas.length;
    titulo.push(`${n} ${n === 1 ? "série nova" : "séries novas"}${titulo.length === 0 && ultimoDia ? ` (dados até ${dataBR(ultimoDia)})` : ""}`);
  }
  if (titulo.length === 0 && outras.length > 0) {
    const n = outras.length;
    titulo.push(`histórico alterado em ${n} ${n === 1 ? "série" : "séries"}`);
  }
  titulo.push(...status.resumo);
  let title: string;
  if (titulo.length > 0) title = titulo.join("; ");
  else if (paths.includes(STATUS_PATH) && regenerated.length === 0 && outros.length === 0) title = "status: atualizado, sem dados novos";
  else {
    const n = paths.length;
    title = `site regenerado: ${n} ${n === 1 ? "arquivo alterado" : "arquivos alterados"}, sem dados novos`;
  }
  // git shows the subject alone in many places: it starts with a capital like a headline
  title = title.charAt(0).toUpperCase() + title.slice(1);

  const secoes: Array<[string, string[]]> = [
    ["Variações (maiores primeiro):", variacoes.flatMap(serieLines)],
    ["Sem mudança:", iguais.length > 0 ? [semMudanca(iguais).linha] : []],
    ["Revisões:", revistas.flatMap(revisionLines)],
    ["Séries novas:", novas.flatMap(serieLines)],
    ["Outras mudanças:", outras.flatMap(serieLines)],
    ["Fontes:", status.linhas],
  ];
  const extra = [...regenerated, ...outros];
  if (extra.length > 0 && changes.length === 0) {
    const linhas = extra.slice(0, 20).map((p) => `- ${p}`);
    if (extra.length > 20) linhas.push(`- e mais ${extra.length - 20} arquivo(s)`);
    secoes.push(["Arquivos:", linhas]);
  } else if (regenerated.length > 0) {
    secoes.push(["Arquivos:", [`- ${regenerated.length} arquivo(s) de série regenerado(s) sem mudança de dados`]]);
  }
  const body = secoes.filter(([, l]) => l.length > 0).map(([h, l]) => `${h}\n${l.join("\n")}`);
  return body.length ? `${title}\n\n${body.join("\n\n")}\n` : `${title}\n`;
}

// --- git layer ---------------------------------------------------------------------------

/** True when the repository has a HEAD commit. */
async function hasHead(cwd: string): Promise<boolean> {
  try {
    await git(cwd, ["rev-parse", "--verify", "--quiet", "HEAD"]);
    return true;
  } catch {
    return false;
  }
}

/**
 * The site files that differ between HEAD and the working tree (tracked changes and new
 * untracked files under the site root), read on both sides. Paths are relative to the site root.
 */
export async function readSiteChange(repoDir: string, siteDir: string): Promise<ChangelogInput> {
  const top = await gitValue(repoDir, ["rev-parse", "--show-toplevel"]);
  const rel = relative(top, siteDir).split(sep).join("/");
  if (rel.startsWith("..")) throw new PipelineError({ stage: "publish", reason: `changelog: ${siteDir} está fora do repositório ${top}` });
  const head = await hasHead(top);
  const changed = new Set<string>();
  const spec = sitePathspecs(rel);
  const tracked = head ? await git(top, ["diff", "--name-only", "-z", "--no-renames", "HEAD", "--", ...spec]) : "";
  const untracked = await git(top, ["ls-files", "-z", "--others", "--exclude-standard", "--", ...spec]);
  for (const p of `${tracked}\0${untracked}`.split("\0")) if (p) changed.add(p);
  const before = new Map<string, string | null>();
  const after = new Map<string, string | null>();
  for (const p of [...changed].sort()) {
    const sitePath = rel === "" ? p : p.slice(rel.length + 1);
    let old: string | null = null;
    if (head) {
      try {
        old = await git(top, ["show", `HEAD:${p}`]);
      } catch {
        old = null; // new file
      }
    }
    let now: string | null;
    try {
      now = await readFile(join(top, p), "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
      now = null;
    }
    before.set(sitePath, old);
    after.set(sitePath, now);
  }
  return { before, after };
}

/** Which of these files (repo-relative or absolute) differ from HEAD or are new. */
export async function changedFiles(repoDir: string, paths: readonly string[]): Promise<string[]> {
  if (paths.length === 0) return [];
  const top = await gitValue(repoDir, ["rev-parse", "--show-toplevel"]);
  const out = await git(top, ["status", "--porcelain=v1", "-z", "--no-renames", "--untracked-files=all", "--", ...paths.map((p) => relative(top, join(repoDir, p)) || p)]);
  return out
    .split("\0")
    .filter((e) => e.length > 3)
    .map((e) => e.slice(3))
    .sort();
}

/**
 * The message with files kept beside the data (the webhook delivery record): appended to the
 * data message, or a message of its own when only they changed.
 */
export function withExtraFiles(message: string | null, extras: readonly string[]): string | null {
  if (extras.length === 0) return message;
  if (message === null) return `registro atualizado: ${extras.join(", ")}\n`;
  return `${message.trimEnd()}\n- também: ${extras.join(", ")}\n`;
}

/**
 * The site directory as git pathspecs (relative to the repository's top), without the control
 * and temp files: they are never read as a change nor staged, even in a clone whose .gitignore
 * lost the rules (the lock is in the tree while changelog itself holds it).
 */
export function sitePathspecs(rel: string): string[] {
  const base = rel === "" ? "" : `${rel}/`;
  return [rel === "" ? "." : rel, `:(exclude,glob)${base}.cotacao*`, `:(exclude,glob)${base}.cotacao*/**`, `:(exclude,glob)${base}**/*.tmp-[0-9]*`];
}

/** The site directory's pathspecs for a directory given by path (absolute or relative to `top`). */
export function sitePathspecsOf(top: string, siteDir: string): string[] {
  const rel = relative(top, siteDir).split(sep).join("/");
  if (rel.startsWith("..")) throw new PipelineError({ stage: "publish", reason: `changelog: ${siteDir} está fora do repositório ${top}` });
  return sitePathspecs(rel);
}

/** The lock's own files: held by the committing run itself (or by a run waiting for it), ignored by git. */
const LOCK_FILE = /^\.cotacao\.lock(?:\..+)?$/;

/**
 * Files that must never reach git, as paths relative to the repository: temp and control files
 * (an interrupted publish's staging and journal, `*.tmp-PID`) in the site tree, and any such
 * file among what `git add --all` would stage (a .gitignore that lost a rule). The caller
 * refuses to commit when this is not empty.
 */
export async function forbiddenFiles(repoDir: string, siteDir: string, extras: readonly string[] = []): Promise<string[]> {
  const top = await gitValue(repoDir, ["rev-parse", "--show-toplevel"]);
  const rel = relative(top, siteDir).split(sep).join("/");
  const out = new Set<string>();
  let entries: Dirent[] = [];
  try {
    entries = await readdir(siteDir, { recursive: true, withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  for (const e of entries) {
    const inSite = relative(siteDir, join(e.parentPath, e.name)).split(sep).join("/");
    const first = inSite.split("/")[0]!;
    if (LOCK_FILE.test(first) && !inSite.includes("/")) continue;
    if (CONTROL_NAME.test(first)) out.add(rel ? `${rel}/${first}` : first);
    else if (TEMP_FILE.test(e.name)) out.add(rel ? `${rel}/${inSite}` : inSite);
  }
  const staged = await git(top, ["-c", "core.quotepath=off", "add", "--all", "--dry-run", "--ignore-missing", "--", rel || ".", ...extras.map((x) => relative(top, join(repoDir, x)) || x)]);
  for (const line of staged.split("\n")) {
    const m = /^add '(.*)'$/.exec(line);
    if (!m) continue;
    const p = m[1]!;
    const inSite = rel && p.startsWith(`${rel}/`) ? p.slice(rel.length + 1) : p;
    if (LOCK_FILE.test(inSite)) continue;
    if (isControlPath(inSite) || TEMP_FILE.test(p) || p.split("/").some((s) => CONTROL_NAME.test(s))) out.add(p);
  }
  return [...out].sort();
}
