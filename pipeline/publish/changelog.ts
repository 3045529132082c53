/**
 * The commit message of a data change: what a data journalist reads in `git log`. A pure
 * function of the site files before (HEAD) and after (working tree); the git layer that reads
 * them is below it and stays thin.
 */
import type { Dirent } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { diff, formatDecimalBR, variationPct } from "../domain/money.ts";
import { isProduto, UNIDADE_INFO } from "../domain/products.ts";
import { allSeries } from "../sources/index.ts";
import type { HistoricoEntry, SerieFile, SourceState, StatusFile, StatusSource } from "../domain/publicados.ts";
import { PipelineError } from "../domain/errors.ts";
import { git, gitValue } from "../io/git.ts";
import { CONTROL_NAME, isControlPath, TEMP_FILE } from "./journal.ts";

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

/** "(+1,40; +0,40%)" from two money values, computed on integer centavos. */
function variation(from: number, to: number): string {
  return `(${signed(diff(from, to))}; ${signed(variationPct(from, to))}%)`;
}

function unit(f: SerieFile): string {
  return `R$${UNIDADE_INFO[f.unidade]?.sufixo ?? `/${f.unidade}`}`;
}

const FONTE_NOME: Record<string, string> = { cepea: "CEPEA", scot: "Scot" };

/** "{produto}/{UF} (Scot, Cuiabá)" */
function label(c: SerieChange): string {
  const f = (c.depois ?? c.antes)!;
  const fonte = FONTE_NOME[f.fonte] ?? f.fonte;
  return `${c.id} (${f.praca ? `${fonte}, ${f.praca}` : fonte})`;
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

function revisionText(r: Revision, f: SerieFile): string {
  if (r.antes.valor !== r.depois.valor) {
    const outros = otherFields(r.antes, r.depois);
    return (
      `revisão de ${r.data}: ${formatDecimalBR(r.antes.valor)} -> ${formatDecimalBR(r.depois.valor)} ${unit(f)} ${variation(r.antes.valor, r.depois.valor)}` +
      (outros.length ? `; também ${outros.join(", ")}` : "")
    );
  }
  return `revisão de ${r.data}: valor mantido (${formatDecimalBR(r.depois.valor)}); mudou ${otherFields(r.antes, r.depois).join(", ") || "a entrada"}`;
}

/** The lines of one changed series: a headline, then one line per revision. */
export function serieLines(c: SerieChange): string[] {
  const lines: string[] = [];
  const f = (c.depois ?? c.antes)!;
  const revs = c.revisoes.map((r) => `  ${revisionText(r, f)}`);
  if (c.depois === null) {
    lines.push(`- ${label(c)}: série removida (último valor ${formatDecimalBR(c.antes!.valor)} ${unit(c.antes!)} em ${c.antes!.data_cotacao})`);
    return lines;
  }
  const d = c.depois;
  if (c.antes === null || c.antes.historico.length === 0) {
    const n = d.historico.length;
    const desde = d.historico[0]?.data;
    lines.push(`- ${label(c)}: série nova, ${formatDecimalBR(d.valor)} ${unit(d)} em ${d.data_cotacao} (${n} ${n === 1 ? "dia" : `dias desde ${desde}`})`);
    return lines;
  }
  const a = c.antes;
  if (c.novos.length > 0 && d.data_cotacao !== a.data_cotacao) {
    const mais = c.novos.length > 1 ? `; ${c.novos.length} dias novos` : "";
    lines.push(
      a.unidade !== d.unidade
        ? `- ${label(c)}: ${formatDecimalBR(a.valor)} ${unit(a)} -> ${formatDecimalBR(d.valor)} ${unit(d)} em ${d.data_cotacao} (antes: ${a.data_cotacao}), unidade mudou${mais}`
        : `- ${label(c)}: ${formatDecimalBR(a.valor)} -> ${formatDecimalBR(d.valor)} ${unit(d)} ${variation(a.valor, d.valor)} em ${d.data_cotacao} (antes: ${a.data_cotacao})${mais}`,
    );
    lines.push(...revs);
  } else if (c.novos.length > 0) {
    // days filled in before the latest one (a backfill): the latest value did not move
    const n = c.novos.length;
    lines.push(`- ${label(c)}: ${n} ${n === 1 ? "dia acrescentado" : "dias acrescentados"} ao histórico (${c.novos.map((e) => e.data).join(", ")}); último valor mantido, ${formatDecimalBR(d.valor)} ${unit(d)} em ${d.data_cotacao}`);
    lines.push(...revs);
  } else if (c.revisoes.length > 0) {
    // only past (or the latest) days were revised: the revision is the headline
    lines.push(`- ${label(c)}: ${revisionText(c.revisoes[0]!, f)}`);
    lines.push(...revs.slice(1));
  }
  for (const r of c.removidos) lines.push(`  dia removido: ${r.data} (${formatDecimalBR(r.valor)})`);
  if (lines.length === 0) lines.push(`- ${label(c)}: histórico alterado`);
  return lines;
}

const ESTADO: Record<SourceState, string> = {
  ok: "ok",
  stale: "desatualizada",
  blocked: "bloqueada",
  failed: "com falha",
  disabled: "desativada",
};

/** "2026-09-08T21:07:12-03:00" -> "2026-09-08 21:07" (the files already carry Brasília time) */
function shortTime(iso: string | null): string {
  if (!iso) return "?";
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso);
  return m ? `${m[1]} ${m[2]}` : iso;
}

/** One short phrase per source whose health changed, and the detail lines under it. */
export function statusChanges(antes: StatusFile | null, depois: StatusFile | null): { resumo: string[]; linhas: string[] } {
  const resumo: string[] = [];
  const linhas: string[] = [];
  for (const s of depois?.fontes ?? []) {
    const p: StatusSource | undefined = antes?.fontes.find((x) => x.id === s.id);
    const prevEstado = p?.estado ?? "ok";
    if (s.estado === "ok" || s.estado === "disabled" || s.estado === "stale") {
      if (prevEstado !== s.estado) {
        const phrase = s.estado === "ok" ? `${s.id} voltou ao normal` : `${s.id} ${ESTADO[s.estado]}`;
        resumo.push(phrase);
        linhas.push(`- status: ${phrase}${s.motivo ? ` (${s.motivo})` : ""}`);
      } else if (s.motivo !== (p?.motivo ?? null)) {
        // still stale, one more day without data: detail only, not news for the title
        linhas.push(`- status: ${s.id} ${ESTADO[s.estado]}${s.motivo ? ` (${s.motivo})` : ""}`);
      }
      continue;
    }
    const fresh = prevEstado !== s.estado || p?.motivo !== s.motivo;
    const counted = (p?.falhas_consecutivas ?? 0) !== s.falhas_consecutivas;
    if (!fresh && !counted) continue;
    const phrase = `${s.id} ${ESTADO[s.estado]} desde ${shortTime(s.falhando_desde)}`;
    resumo.push(phrase);
    const falhas = `${s.falhas_consecutivas} ${s.falhas_consecutivas === 1 ? "falha" : "falhas seguidas"}`;
    linhas.push(`- status: ${phrase}, ${falhas}; dados mantidos até ${s.ultima_data ?? "?"}`);
    for (const pg of s.paginas) {
      if (pg.estado !== "ok") linhas.push(`  ${s.id}/${pg.id}: ${pg.estado}${pg.motivo ? `: ${pg.motivo}` : ""}`);
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

/**
 * The commit message for the site change, or null when no file differs. Title: newest data day
 * and how many series changed; then one line per series (old -> new, variation, day) with
 * revisions called out; then source health changes; then files that changed for other reasons.
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
  changes.sort((a, b) => (ORDER.get(a.id) ?? 1e9) - (ORDER.get(b.id) ?? 1e9) || a.id.localeCompare(b.id));
  const status = paths.includes(STATUS_PATH)
    ? statusChanges(parseJson<StatusFile>(STATUS_PATH, before.get(STATUS_PATH), "antes"), parseJson<StatusFile>(STATUS_PATH, after.get(STATUS_PATH), "depois"))
    : { resumo: [], linhas: [] };

  let title: string;
  if (changes.length > 0) {
    const onlyRevisions = changes.every((c) => c.novos.length === 0 && c.antes !== null && c.depois !== null);
    const days = changes.flatMap((c) => (onlyRevisions ? c.revisoes.map((r) => r.data) : c.novos.map((e) => e.data))).sort();
    const day = days.at(-1) ?? changes.map((c) => (c.depois ?? c.antes)!.data_cotacao).sort().at(-1)!;
    const n = changes.length;
    const verbo = onlyRevisions ? (n === 1 ? "revisada" : "revisadas") : n === 1 ? "atualizada" : "atualizadas";
    title = `dados ${day}: ${n} ${n === 1 ? "série" : "séries"} ${verbo}`;
    if (status.resumo.length) title += `; ${status.resumo.join(", ")}`;
  } else if (status.resumo.length > 0) {
    title = `status: ${status.resumo.join(", ")}`;
  } else if (paths.includes(STATUS_PATH) && regenerated.length === 0 && outros.length === 0) {
    title = "status: atualizado, sem dados novos";
  } else {
    const n = paths.length;
    title = `site regenerado: ${n} ${n === 1 ? "arquivo alterado" : "arquivos alterados"}, sem dados novos`;
  }

  const body: string[] = [];
  for (const c of changes) body.push(...serieLines(c));
  body.push(...status.linhas);
  const extra = [...regenerated, ...outros];
  if (extra.length > 0 && changes.length === 0) {
    for (const p of extra.slice(0, 20)) body.push(`- ${p}`);
    if (extra.length > 20) body.push(`- e mais ${extra.length - 20} arquivo(s)`);
  } else if (regenerated.length > 0) {
    body.push(`- ${regenerated.length} arquivo(s) de série regenerado(s) sem mudança de dados`);
  }
  return body.length ? `${title}\n\n${body.join("\n")}\n` : `${title}\n`;
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
