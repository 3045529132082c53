/**
 * The bench of the fault suite: a baseline site built once from the recorded pages, copied per
 * case; the loopback sources; the CLI as a child process; and the measurement of what a run left
 * behind (exit code, status.json, values changed, new events, temp files, validate). Used by
 * catalogue.ts, hence by both the vitest suite and `npm run bench -- faults`.
 */
import { FATOS_PATH } from "../../pipeline/site/fatos.ts";
import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync } from "node:fs";
import { cp, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { runValidate, runValidateRecovering } from "../../pipeline/cli/validate.ts";
import type { EventosFile } from "../../pipeline/events/model.ts";
import { entregarEventos, estadoVazio, formatarRelatorio } from "../../pipeline/events/webhooks.ts";
import { createLiveLoader } from "../../pipeline/fetch/live.ts";
import { runUpdate } from "../../pipeline/run/update.ts";
import { FIXTURES, editPage, listFiles, replay, replayDir, tempSite, testConfig } from "../helpers/pipeline.ts";
import {
  SOURCE_PAGES,
  chunkedCut,
  cloudflareBlock,
  endless,
  endlessChallenge,
  fixture,
  hang,
  noTable,
  ok,
  pump,
  raw,
  redirect,
  startFakeSite,
  startSources,
  status,
  truncatedBody,
  type Handler,
} from "../fetch/server.ts";

/** just after the recorded pages (Scot 05/08/2026, CEPEA up to 25/09/2026): nothing is stale or in the future */
export const NOW = "2026-09-27T12:00:00-03:00";
export const REPO = fileURLToPath(new URL("../../", import.meta.url));

export type Sites = Awaited<ReturnType<typeof startSources>>;
export type Tree = Map<string, Buffer>;

/** What a case left behind, measured the same way for every case. */
export interface Outcome {
  /** exit code of the run (in process: report.exitCode, 1 when it threw); null: killed / did not end */
  exit: number | null;
  /** status.json pages after the run, by "fonte/pagina" */
  pages: Record<string, PageStatus>;
  /** every changed numeric field of every series' historico, "serie@data:campo antes→depois", sorted */
  values: string[];
  /** events added to eventos.json, "tipo serie" */
  events: string[];
  /** temp, staging, journal and lock files left in the site */
  leftovers: string[];
  /** files of the site whose bytes changed (leftovers excluded) */
  changedFiles: string[];
  /** what `npm run validate` printed when it failed; empty when green */
  validation: string[];
  /** the run's log and error output */
  output: string;
  /** the site after the run (for case-specific checks) */
  after: Tree;
  /** extra figures for the bench (bytes read, step killed at, ...) */
  notes: string[];
}

export interface PageStatus {
  estado: string;
  motivo: string | null;
  revisoes_suspeitas?: Array<{ serie: string; data: string; campo: string; antes: unknown; depois: unknown }>;
  [k: string]: unknown;
}

/** Anything in a site that is not part of the published site: temp, staging, journal, lock. */
export function isLeftover(rel: string): boolean {
  // the facts of the published set are part of it (published with it, never deployed)
  if (rel === FATOS_PATH) return false;
  const parts = rel.split("/");
  return parts.some((p) => p.startsWith(".") || /\.tmp(?:-\d+)?$|staging|journal|\.lock\b|\.part$/i.test(p));
}

export async function snapshot(dir: string): Promise<Tree> {
  const out: Tree = new Map();
  for (const f of await listFiles(dir)) out.set(relative(dir, f).split(sep).join("/"), await readFile(f));
  return out;
}

/** The lab: one baseline site per process, a fresh copy per case, loopback sources on demand. */
export class Lab {
  private base: Promise<string> | null = null;
  private sites: Promise<Sites> | null = null;
  private readonly dirs: string[] = [];
  private readonly memos = new Map<string, Promise<unknown>>();

  /** one computation shared by the cases that need it */
  memo<T>(key: string, make: () => Promise<T>): Promise<T> {
    if (!this.memos.has(key)) this.memos.set(key, make());
    return this.memos.get(key) as Promise<T>;
  }

  /** a site built by `update --replay` of the recorded pages at NOW */
  baseline(): Promise<string> {
    this.base ??= (async () => {
      const site = await this.tempDir("cotacao-faults-base-");
      const r = await replay(FIXTURES, site, NOW);
      if (r.exitCode !== 0) throw new Error(`linha de base: update --replay saiu com ${r.exitCode}:\n${r.log.join("\n")}`);
      return site;
    })();
    return this.base;
  }

  /** a copy of the baseline, for one case */
  async site(): Promise<string> {
    const base = await this.baseline();
    const site = await tempSite();
    this.dirs.push(site);
    await cp(base, site, { recursive: true });
    return site;
  }

  /** the recorded pages in the replay layout, edited for one case */
  async pages(edit: (dir: string) => Promise<void> = async () => {}): Promise<string> {
    const dir = await replayDir();
    this.dirs.push(dir);
    await edit(dir);
    return dir;
  }

  async tempDir(prefix: string): Promise<string> {
    const d = await mkdtemp(join(tmpdir(), prefix));
    this.dirs.push(d);
    return d;
  }

  /** the three loopback sources, every route back on its recorded page */
  async sources(): Promise<Sites> {
    this.sites ??= startSources();
    const s = await this.sites;
    for (const [path, file] of Object.entries(SOURCE_PAGES.cepea)) s.cepea.route(path, ok(fixture(file)));
    for (const [path, file] of Object.entries(SOURCE_PAGES.scot)) s.scot.route(path, ok(fixture(file)));
    for (const [path, file] of Object.entries(SOURCE_PAGES["noticias-agricolas"])) s.na.route(path, ok(fixture(file)));
    return s;
  }

  async close(): Promise<void> {
    if (this.sites) await (await this.sites).close();
    await Promise.all(this.dirs.map((d) => rm(d, { recursive: true, force: true })));
  }
}

// ---- measuring -----------------------------------------------------------------------------

type Entry = Record<string, unknown> & { data: string };

function seriesHistories(tree: Tree): Map<string, Map<string, Entry>> {
  const out = new Map<string, Map<string, Entry>>();
  for (const [rel, bytes] of tree) {
    const m = rel.match(/^api\/v1\/cotacao\/(?!uf\/)(.+)\.json$/);
    if (!m || isLeftover(rel)) continue;
    let doc: { historico?: Entry[] };
    try {
      doc = JSON.parse(bytes.toString("utf8"));
    } catch {
      continue; // validate reports it
    }
    if (!Array.isArray(doc.historico)) continue;
    out.set(m[1]!, new Map(doc.historico.map((e) => [e.data, e])));
  }
  return out;
}

/** numeric fields of a day, flattened: valor, valor_usd, pracas.Barretos, ... */
function fields(e: Entry): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const walk = (prefix: string, v: unknown) => {
    if (v !== null && typeof v === "object" && !Array.isArray(v)) {
      for (const [k, x] of Object.entries(v)) walk(prefix ? `${prefix}.${k}` : k, x);
    } else if (prefix !== "data") out.set(prefix, v);
  };
  walk("", e);
  return out;
}

/** "milho@2026-09-07 novo", "boi_gordo@2026-09-03:valor 347.6→347.55", "x@d removido" */
export function valueChanges(before: Tree, after: Tree): string[] {
  const a = seriesHistories(before);
  const b = seriesHistories(after);
  const out: string[] = [];
  for (const id of new Set([...a.keys(), ...b.keys()])) {
    const ha = a.get(id) ?? new Map<string, Entry>();
    const hb = b.get(id) ?? new Map<string, Entry>();
    for (const d of new Set([...ha.keys(), ...hb.keys()])) {
      const ea = ha.get(d);
      const eb = hb.get(d);
      if (!ea) out.push(`${id}@${d} novo`);
      else if (!eb) out.push(`${id}@${d} removido`);
      else {
        const fa = fields(ea);
        const fb = fields(eb);
        for (const k of new Set([...fa.keys(), ...fb.keys()])) {
          const x = fa.get(k);
          const y = fb.get(k);
          if (x !== y) out.push(`${id}@${d}:${k} ${x ?? "—"}→${y ?? "—"}`);
        }
      }
    }
  }
  return out.sort();
}

function eventList(tree: Tree): Array<{ id: string; tipo: string; dados: { serie?: string } }> {
  const bytes = tree.get("api/v1/eventos.json");
  if (!bytes) return [];
  try {
    return JSON.parse(bytes.toString("utf8")).eventos ?? [];
  } catch {
    return [];
  }
}

export function newEvents(before: Tree, after: Tree): string[] {
  const old = new Set(eventList(before).map((e) => e.id));
  return eventList(after)
    .filter((e) => !old.has(e.id))
    .map((e) => (e.dados?.serie ? `${e.tipo} ${e.dados.serie}` : e.tipo))
    .sort();
}

function statusPages(tree: Tree): Record<string, PageStatus> {
  const bytes = tree.get("api/v1/status.json");
  if (!bytes) return {};
  try {
    const doc = JSON.parse(bytes.toString("utf8")) as { fontes: Array<{ id: string; paginas: Array<PageStatus & { id: string }> }> };
    return Object.fromEntries(doc.fontes.flatMap((f) => f.paginas.map((p) => [`${f.id}/${p.id}`, p])));
  } catch {
    return {};
  }
}

/**
 * `npm run validate` over a directory, in process (its own function, so it checks exactly what
 * the command checks); its printout is captured and returned when it fails.
 */
export function validateTree(dir: string): Promise<string[]> {
  // console is swapped while it runs: one at a time, whatever runs concurrently
  const run = validating.then(() => validateOnce(dir));
  validating = run.catch(() => {});
  return run;
}
let validating: Promise<unknown> = Promise.resolve();

/** what `npm run validate DIR` runs: recover an interrupted publish, then validate */
export function recoveringValidate(dir: string): Promise<{ code: number; output: string }> {
  const run = validating.then(async () => {
    const lines: string[] = [];
    const { log, error } = console;
    console.log = (...a: unknown[]) => void lines.push(a.join(" "));
    console.error = (...a: unknown[]) => void lines.push(a.join(" "));
    try {
      return { code: await runValidateRecovering(dir), output: lines.join("\n") };
    } catch (err) {
      return { code: 1, output: [...lines, (err as Error).message].join("\n") };
    } finally {
      console.log = log;
      console.error = error;
    }
  });
  validating = run.catch(() => {});
  return run;
}

async function validateOnce(dir: string): Promise<string[]> {
  const lines: string[] = [];
  const { log, error } = console;
  console.log = (...a: unknown[]) => void lines.push(a.join(" "));
  console.error = (...a: unknown[]) => void lines.push(a.join(" "));
  let code: unknown;
  try {
    code = await runValidate(dir);
  } catch (err) {
    lines.push(`validate lançou: ${(err as Error).message}`);
    code = 1;
  } finally {
    console.log = log;
    console.error = error;
  }
  return code === 0 ? [] : lines.filter((l) => l.trim() !== "");
}

/** Everything a case is judged on, taken after the run. Validate runs last: it may recover the tree. */
export async function measure(site: string, before: Tree, exit: number | null, output: string, notes: string[] = []): Promise<Outcome> {
  const after = await snapshot(site);
  const leftovers = [...after.keys()].filter(isLeftover).sort();
  const changedFiles = [...new Set([...before.keys(), ...after.keys()])]
    .filter((f) => !isLeftover(f))
    .filter((f) => {
      const x = before.get(f);
      const y = after.get(f);
      return !x || !y || !x.equals(y);
    })
    .sort();
  return {
    exit,
    pages: statusPages(after),
    values: valueChanges(before, after),
    events: newEvents(before, after),
    leftovers,
    changedFiles,
    validation: await validateTree(site),
    output,
    after,
    notes,
  };
}

// ---- running ------------------------------------------------------------------------------

/** `update --replay` in process (what `npm run update -- --replay` runs), a throw counts as exit 1 */
export async function runReplay(pages: string, site: string, env: NodeJS.ProcessEnv = {}): Promise<{ exit: number; output: string }> {
  try {
    const r = await replay(pages, site, NOW, env);
    return { exit: r.exitCode, output: r.log.join("\n") };
  } catch (err) {
    return { exit: 1, output: `${(err as Error).message}` };
  }
}

export interface Cli {
  child: ChildProcess;
  pid: number;
  output(): string;
  /** resolves with the exit code (null when killed by a signal) */
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** A real `npm run <script>` (node + tsx, without npm's own start-up) on `site`, clock pinned at NOW. */
export function cli(script: "update" | "validate" | "build", args: string[], site: string, env: NodeJS.ProcessEnv = {}): Cli {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("COTACAO_")));
  const child = spawn(process.execPath, ["--import", "tsx", `pipeline/cli/${script}.ts`, ...args], {
    cwd: REPO,
    env: { ...clean, NO_COLOR: "1", COTACAO_PUBLIC_DIR: site, COTACAO_NOW: NOW, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString("utf8")));
  child.stderr!.on("data", (d: Buffer) => (out += d.toString("utf8")));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("close", (code, signal) => resolve({ code, signal })),
  );
  return { child, pid: child.pid!, output: () => out, done };
}

/** Waits for a child, killing it (by its own PID) when it outlives `limitMs`: a safety net, not a measurement. */
export async function finish(c: Cli, limitMs: number): Promise<{ code: number | null; killed: boolean }> {
  let killed = false;
  const timer = setTimeout(() => {
    killed = true;
    c.child.kill("SIGKILL");
  }, limitMs);
  const r = await c.done;
  clearTimeout(timer);
  return { code: killed ? null : r.code, killed };
}

/** resolves when `cond` holds, polling; false when `limitMs` passed first */
export async function until(cond: () => boolean | Promise<boolean>, limitMs: number, everyMs = 25): Promise<boolean> {
  const end = Date.now() + limitMs;
  while (Date.now() < end) {
    if (await cond()) return true;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return cond();
}

// ---- a full disk ---------------------------------------------------------------------------

/**
 * Makes every write under `root` fail with ENOSPC once `allowed` writes went through, the way a
 * disk fills up in the middle of a publish. It patches node:fs and node:fs/promises in this
 * process (file handles included) and syncs the ESM bindings, so the pipeline's own imports see
 * it. Returns the undo.
 */
export async function fillDisk(root: string, allowed: number): Promise<{ undo(): void; failures(): number }> {
  const { createRequire, syncBuiltinESMExports } = await import("node:module");
  const require = createRequire(import.meta.url);
  const fs = require("node:fs") as typeof import("node:fs");
  const fsp = fs.promises as unknown as Record<string, unknown>;
  const fss = fs as unknown as Record<string, unknown>;
  let writes = 0;
  let failures = 0;
  const under = (p: unknown) => (typeof p === "string" || p instanceof URL || Buffer.isBuffer(p)) && String(p instanceof URL ? fileURLToPath(p) : p).startsWith(root);
  const enospc = (p: unknown) => {
    failures++;
    return Object.assign(new Error(`ENOSPC: no space left on device, write '${String(p)}'`), { code: "ENOSPC", errno: -28, syscall: "write", path: String(p) });
  };
  const gate = (p: unknown) => {
    if (!under(p)) return;
    if (writes++ >= allowed) throw enospc(p);
  };
  const saved: Array<[Record<string, unknown>, string, unknown]> = [];
  const patch = (obj: Record<string, unknown>, name: string, make: (orig: (...a: unknown[]) => unknown) => unknown) => {
    const orig = obj[name] as (...a: unknown[]) => unknown;
    saved.push([obj, name, orig]);
    obj[name] = make(orig);
  };
  for (const name of ["writeFile", "appendFile"]) {
    patch(fsp, name, (orig) => async (p: unknown, ...rest: unknown[]) => {
      gate(p);
      return orig(p, ...rest);
    });
    patch(fss, `${name}Sync`, (orig) => (p: unknown, ...rest: unknown[]) => {
      gate(p);
      return orig(p, ...rest);
    });
  }
  patch(fsp, "copyFile", (orig) => async (src: unknown, dest: unknown, ...rest: unknown[]) => {
    gate(dest);
    return orig(src, dest, ...rest);
  });
  patch(fss, "copyFileSync", (orig) => (src: unknown, dest: unknown, ...rest: unknown[]) => {
    gate(dest);
    return orig(src, dest, ...rest);
  });
  const WRITES = new Set(["write", "writeFile", "appendFile", "writev"]);
  patch(fsp, "open", (orig) => async (p: unknown, ...rest: unknown[]) => {
    const fh = (await orig(p, ...rest)) as object;
    if (!under(p)) return fh;
    return new Proxy(fh, {
      get(t, k) {
        const v = Reflect.get(t, k, t) as unknown;
        if (typeof v !== "function") return v;
        if (typeof k === "string" && WRITES.has(k)) {
          return async (...a: unknown[]) => {
            gate(p);
            return (v as (...x: unknown[]) => unknown).apply(t, a);
          };
        }
        return (v as (...x: unknown[]) => unknown).bind(t);
      },
    });
  });
  syncBuiltinESMExports();
  return {
    undo() {
      for (const [obj, name, orig] of saved.reverse()) obj[name] = orig;
      syncBuiltinESMExports();
    },
    failures: () => failures,
  };
}

// ---- the catalogue -------------------------------------------------------------------------

/** What the issue demands of a case (not what the code does today). */
export interface Expect {
  exit: number | "não zero";
  /** the page's state in status.json ("falha": any state but ok) and what its motivo must name */
  page?: { id: string; estado: string | readonly string[]; motivo?: RegExp };
  /** "inalterados": every series' historico byte-for-byte the same; else exactly these changes */
  values: "inalterados" | readonly string[];
  /** every file of the site the same bytes (a run that could not write anything) */
  treeUnchanged?: boolean;
  /** "nenhum", or events that must be among the new ones */
  events?: "nenhum" | readonly RegExp[];
  output?: RegExp;
  /** a capture record in api/v1/capturas/{AAAA}.json for this page naming these days */
  capture?: { page: string; days: readonly string[] };
  /** case-specific checks; each string is a mismatch */
  check?: (o: Outcome) => string[];
}

export type Group = "páginas gravadas" | "fontes locais" | "linha de comando" | "webhooks";

export interface FaultCase {
  id: string;
  group: Group;
  /** the fault, as the bench table shows it */
  fault: string;
  expect: Expect;
  run(lab: Lab): Promise<Outcome>;
}

/** Every way the outcome differs from the expectation, in words; empty when it conforms. */
export function judge(c: FaultCase, o: Outcome): string[] {
  const bad: string[] = [];
  const e = c.expect;
  const exitOk = e.exit === "não zero" ? o.exit !== null && o.exit !== 0 : o.exit === e.exit;
  if (!exitOk) bad.push(`código de saída ${o.exit ?? "nenhum (processo morto)"}, esperado ${e.exit}`);
  if (e.page) {
    const p = o.pages[e.page.id];
    if (!p) bad.push(`status.json sem a página ${e.page.id}`);
    else {
      const want = e.page.estado;
      const estadoOk = want === "falha" ? p.estado !== "ok" : typeof want === "string" ? p.estado === want : want.includes(p.estado);
      if (!estadoOk) bad.push(`${e.page.id}: estado "${p.estado}", esperado ${typeof want === "string" ? `"${want}"` : want.map((w) => `"${w}"`).join(" ou ")} (motivo: ${p.motivo ?? "nenhum"})`);
      if (e.page.motivo && !e.page.motivo.test(p.motivo ?? "")) bad.push(`${e.page.id}: motivo ${JSON.stringify(p.motivo)} não corresponde a ${e.page.motivo}`);
    }
  }
  if (e.values === "inalterados") {
    if (o.values.length > 0) bad.push(`histórico alterado: ${o.values.join("; ")}`);
  } else {
    const want = [...e.values].sort();
    if (JSON.stringify(want) !== JSON.stringify(o.values)) bad.push(`valores alterados: ${o.values.join("; ") || "nenhum"}; esperado: ${want.join("; ")}`);
  }
  if (e.treeUnchanged && o.changedFiles.length > 0) bad.push(`arquivos do site alterados: ${o.changedFiles.slice(0, 8).join(", ")}${o.changedFiles.length > 8 ? ", ..." : ""}`);
  if (e.events === "nenhum" && o.events.length > 0) bad.push(`eventos novos: ${o.events.join(", ")}`);
  if (Array.isArray(e.events)) {
    for (const re of e.events as readonly RegExp[]) if (!o.events.some((x) => re.test(x))) bad.push(`nenhum evento novo corresponde a ${re} (novos: ${o.events.join(", ") || "nenhum"})`);
  }
  if (e.output && !e.output.test(o.output)) bad.push(`a saída não corresponde a ${e.output}: ${o.output.slice(-300)}`);
  if (e.capture) bad.push(...captureProblems(o.after, e.capture.page, e.capture.days));
  if (o.leftovers.length > 0) bad.push(`arquivos deixados: ${o.leftovers.join(", ")}`);
  if (o.validation.length > 0) bad.push(`validate falhou: ${o.validation.slice(0, 6).join(" | ")}`);
  if (e.check) bad.push(...e.check(o));
  return bad;
}

/** a record naming the page and every day, anywhere in api/v1/capturas/*.json */
function captureProblems(tree: Tree, page: string, days: readonly string[]): string[] {
  const files = [...tree.keys()].filter((k) => /^api\/v1\/capturas\/\d{4}\.json$/.test(k));
  if (files.length === 0) return ["nenhum registro de captura (api/v1/capturas/AAAA.json)"];
  const records: unknown[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") {
      if ("sha256" in v) records.push(v);
      else Object.values(v).forEach(walk);
    }
  };
  for (const f of files) {
    try {
      walk(JSON.parse(tree.get(f)!.toString("utf8")));
    } catch {
      return [`${f} não é JSON válido`];
    }
  }
  const found = records.some((r) => {
    const t = JSON.stringify(r);
    return t.includes(`"${page}"`) && days.every((d) => t.includes(d));
  });
  return found ? [] : [`nenhum registro de captura da página ${page} com os dias ${days.join(", ")} (${records.length} registros)`];
}

// ---- page edits ----------------------------------------------------------------------------

const edit = editPage;
const CEPEA_BOI = "cepea/boi-gordo.html";
const CEPEA_BEZERRO = "cepea/bezerro.html";
const CEPEA_MILHO = "cepea/milho.html";
const CEPEA_SOJA = "cepea/soja.html";
const SCOT_BOI = "scot/boi-gordo.html";
const MILHO_PATH = "/br/indicador/milho.aspx";
const SOJA_PATH = "/br/indicador/soja.aspx";
const BOI_PATH = "/br/indicador/boi-gordo.aspx";

/** the latest row of a CEPEA table moved one day on: a day the store does not have (a canary) */
const nextDay = (from: string, to: string) => (h: string) => h.replace(`<td>${from}</td>`, `<td>${to}</td>`);
/** the same, with a new price, so the day is also a price change (and its event) */
const nextDayAt = (from: string, to: string, value: string) => (h: string) => {
  const out = h.replace(new RegExp(`<td>${from}</td>(\\s*)<td>[\\d.]+,\\d\\d</td>`), `<td>${to}</td>$1<td>${value}</td>`);
  if (out === h) throw new Error(`linha de ${from} não encontrada`);
  return out;
};
/** the Scot page dated another day (every date on it) */
const scotDated = (day: string) => (h: string) => h.replaceAll("05/08/2026", day);
const barretos = (value: string) => (h: string) => h.replace(/(SP Barretos<\/td>\s*<td>)345,50/, `$1${value}`);
const cutAt = (marker: string, keep: number) => (h: string) => {
  const i = h.indexOf(marker);
  if (i < 0) throw new Error(`marcador ${marker} não encontrado`);
  return h.slice(0, i + keep);
};
/** CEPEA's boi gordo page cut inside a cell: `66,38` (the oldest row's US$) becomes `6`, and the file ends there */
const cepeaCutInCell = cutAt("<td>66,38</td>", "<td>6".length);

function scotCutInLastRow(h: string): string {
  const label = "<td style='text-align: left; padding-left: 10px'>";
  const last = h.lastIndexOf(label);
  const cell = h.indexOf("<td>", last + label.length);
  return h.slice(0, cell + "<td>3".length);
}

const swapUsd = (h: string) =>
  h.replace("<th>Valor R$*</th>", "<th>\u0000</th>").replace("<th>Valor US$*</th>", "<th>Valor R$*</th>").replace("<th>\u0000</th>", "<th>Valor US$*</th>");

// ---- runners -------------------------------------------------------------------------------

/** `update --replay` of the recorded pages, edited, on a copy of the baseline */
function onReplay(change: (pages: string) => Promise<void>, env: NodeJS.ProcessEnv = {}) {
  return async (lab: Lab): Promise<Outcome> => {
    const pages = await lab.pages(change);
    const site = await lab.site();
    const before = await snapshot(site);
    const r = await runReplay(pages, site, env);
    return measure(site, before, r.exit, r.output);
  };
}

const HEALTHY = { requestMs: 10_000, pageMs: 20_000 };
const SHORT = { requestMs: 500, pageMs: 1500 };

/** the live `update` against the loopback sources, one route misbehaving */
function onLive(setup: (s: Sites) => void | (() => Promise<string>), timeouts = HEALTHY) {
  return async (lab: Lab): Promise<Outcome> => {
    const s = await lab.sources();
    const after = setup(s);
    const site = await lab.site();
    const before = await snapshot(site);
    const log: string[] = [];
    const loader = createLiveLoader({
      env: s.env,
      minIntervalMs: 0,
      browser: false,
      timeouts,
      http: { retries: 1, backoffBaseMs: 10, backoffMaxMs: 20 },
      log: (l) => log.push(l),
    });
    let exit: number;
    try {
      exit = (await runUpdate({ loader, config: testConfig(site, s.env), now: new Date(NOW), env: s.env, log: (l) => log.push(l) })).exitCode;
    } catch (err) {
      exit = 1;
      log.push((err as Error).message);
    }
    const notes = after ? [await after()] : [];
    return measure(site, before, exit, log.join("\n"), notes);
  };
}

/** the page after `edit`, from the recorded one */
const page = (rel: string, change: (h: string) => string) => change(fixture(rel));

/** a response held until `release()`; then answered by `then` */
function held(then: Handler): Handler & { release(): void; waiting(): number } {
  const pending: Array<[Parameters<Handler>[0], Parameters<Handler>[1]]> = [];
  let open = false;
  const h: Handler = (req, res, hit) => (open ? then(req, res, hit) : void pending.push([req, res]));
  return Object.assign(h, {
    release() {
      open = true;
      for (const [req, res] of pending.splice(0)) then(req, res, 1);
    },
    waiting: () => pending.length,
  });
}

/** Close-delimited body (no Content-Length, not chunked) that stops early: HTTP cannot tell, the page must. */
function closeDelimitedCut(body: string): Handler {
  return raw((socket) => {
    socket.write("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nConnection: close\r\n\r\n");
    socket.end(body);
  });
}

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

/**
 * Run A: the live `update` against its own loopback sources, its soja page (the last CEPEA
 * page) held until `release()`, with a day the store does not have. `started` resolves once A
 * holds the data directory (its lock file is there) or, without a lock, once it is fetching:
 * the moment a second run is started.
 */
async function heldLiveRun(site: string) {
  const s = await startSources();
  const soja = held(ok(page(CEPEA_SOJA, nextDayAt("25/09/2026", "28/09/2026", "161,50"))));
  s.cepea.route(SOJA_PATH, soja);
  // soja's next business day after 25/09 is Monday 28/09: A runs that evening
  const a = cli("update", [], site, { ...s.env, COTACAO_NOW: "2026-09-28T20:00:00-03:00" });
  const locked = () => readdirSync(site).some((n) => n.startsWith(".") && /lock/.test(n));
  await until(() => locked() || soja.waiting() > 0, 60_000);
  return { a, soja, close: () => s.close() };
}

// ---- the cases -----------------------------------------------------------------------------

export const CASES: readonly FaultCase[] = [
  // the attacker's cases, on recorded pages
  {
    id: "rotulos-trocados",
    group: "páginas gravadas",
    fault: 'bezerro com os rótulos "Valor R$*" e "Valor US$*" trocados',
    expect: { exit: 1, page: { id: "cepea/bezerro", estado: "rejected", motivo: /câmbio/ }, values: "inalterados", events: "nenhum" },
    run: onReplay((d) => edit(d, CEPEA_BEZERRO, swapUsd)),
  },
  {
    id: "revisao-suspeita-scot",
    group: "páginas gravadas",
    fault: "Scot de 05/08/2026 (já publicado) com SP Barretos 863,75 em vez de 345,50",
    expect: {
      exit: 1,
      // Barretos' own Funrural, Senar and 30-day columns contradict 863,75: refused by the
      // cross-field gate, and the reason also names the revision it would have made
      page: { id: "scot/boi-gordo", estado: "rejected", motivo: /Barretos.*boi_gordo\/SP em 05\/08\/2026, valor: 345,50 → 863,75/ },
      values: "inalterados",
      events: "nenhum",
    },
    run: onReplay((d) => edit(d, SCOT_BOI, barretos("863,75"))),
  },
  {
    id: "salto-apos-12-dias",
    group: "páginas gravadas",
    fault: "Scot 12 dias depois do último dia (17/08/2026) com Barretos a 999,00 (+189 %)",
    expect: { exit: 1, page: { id: "scot/boi-gordo", estado: "rejected", motivo: /salto/ }, values: "inalterados", events: "nenhum" },
    run: onReplay((d) => edit(d, SCOT_BOI, (h) => barretos("999,00")(scotDated("17/08/2026")(h)))),
  },
  {
    id: "cepea-cortada-na-celula",
    group: "páginas gravadas",
    fault: "CEPEA boi gordo cortada dentro de uma célula (66,38 → 6, fim do arquivo)",
    expect: { exit: 1, page: { id: "cepea/boi-gordo", estado: "parse_error", motivo: /incomplet|cortad/ }, values: "inalterados", events: "nenhum" },
    run: onReplay((d) => edit(d, CEPEA_BOI, cepeaCutInCell)),
  },
  {
    id: "scot-cortada-na-ultima-linha",
    group: "páginas gravadas",
    fault: "Scot (dia novo 06/08) cortada dentro da última linha",
    expect: { exit: 1, page: { id: "scot/boi-gordo", estado: "parse_error", motivo: /incomplet|cortad/ }, values: "inalterados", events: "nenhum" },
    run: onReplay((d) => edit(d, SCOT_BOI, (h) => scotCutInLastRow(scotDated("06/08/2026")(h)))),
  },
  {
    id: "praca-com-fffd",
    group: "páginas gravadas",
    fault: "praça com U+FFFD no nome (charset errado): SP Ara\uFFFDatuba",
    expect: { exit: 1, page: { id: "scot/boi-gordo", estado: "parse_error", motivo: /FFFD|caractere/ }, values: "inalterados", events: "nenhum" },
    run: onReplay((d) => edit(d, SCOT_BOI, (h) => h.replace("SP Araçatuba", "SP Ara\uFFFDatuba"))),
  },
  {
    id: "pagina-falha-no-meio",
    group: "páginas gravadas",
    fault: "soja: Paranaguá com dia novo, tabela do Paraná ilegível (a página é atômica)",
    expect: { exit: 1, page: { id: "cepea/soja", estado: "parse_error", motivo: /15x,38/ }, values: "inalterados", events: "nenhum" },
    run: onReplay((d) => edit(d, CEPEA_SOJA, (h) => nextDay("25/09/2026", "26/09/2026")(h).replace("<td>154,38</td>", "<td>15x,38</td>"))),
  },
  {
    id: "mudanca-de-layout",
    group: "páginas gravadas",
    fault: 'mudança de layout: milho com a coluna "Valor R$*" renomeada "Preço R$*" (e um dia novo)',
    expect: { exit: 1, page: { id: "cepea/milho", estado: "parse_error", motivo: /Preço R\$|coluna/ }, values: "inalterados", events: "nenhum" },
    run: onReplay((d) => edit(d, CEPEA_MILHO, (h) => nextDayAt("04/09/2026", "07/09/2026", "71,00")(h).replace("<th>Valor R$*</th>", "<th>Preço R$*</th>"))),
  },
  {
    id: "fora-da-faixa",
    group: "páginas gravadas",
    fault: "bezerro, dia novo 26/09, R$ 34.260,20 (fora da faixa)",
    expect: { exit: 1, page: { id: "cepea/bezerro", estado: "rejected", motivo: /faixa/ }, values: "inalterados", events: "nenhum" },
    run: onReplay((d) => edit(d, CEPEA_BEZERRO, (h) => nextDay("25/09/2026", "26/09/2026")(h).replace("3.426,02", "34.260,20"))),
  },
  {
    id: "data-futura",
    group: "páginas gravadas",
    fault: "soja com o dia 25/12/2026 (no futuro)",
    expect: { exit: 1, page: { id: "cepea/soja", estado: "rejected", motivo: /futuro/ }, values: "inalterados", events: "nenhum" },
    run: onReplay((d) => edit(d, CEPEA_SOJA, nextDay("25/09/2026", "25/12/2026"))),
  },
  {
    id: "pagina-ausente",
    group: "páginas gravadas",
    fault: "página gravada ausente (milho)",
    expect: { exit: 1, page: { id: "cepea/milho", estado: "missing", motivo: /não encontrada/ }, values: "inalterados", events: "nenhum" },
    run: onReplay((d) => rm(join(d, CEPEA_MILHO))),
  },
  {
    id: "scot-colunas-incoerentes",
    group: "páginas gravadas",
    fault: "Scot, dia novo 06/08: Barretos à vista 345,50 e 30 dias 500,00",
    expect: { exit: 1, page: { id: "scot/boi-gordo", estado: "rejected", motivo: /Barretos/ }, values: "inalterados", events: "nenhum" },
    run: onReplay((d) => edit(d, SCOT_BOI, (h) => scotDated("06/08/2026")(h).replace(/(SP Barretos<\/td>\s*<td>345,50<\/td>\s*<td>)350,00/, "$1500,00"))),
  },
  {
    id: "revisao-dentro-do-limite",
    group: "páginas gravadas",
    fault: "revisão dentro do limite: boi gordo CEPEA 03/09 de 347,60 para 347,55",
    expect: {
      exit: 0,
      page: { id: "cepea/boi-gordo", estado: "ok" },
      values: ["boi_gordo@2026-09-03:valor 347.6→347.55"],
      events: [/^historico_revisado boi_gordo$/],
      capture: { page: "boi-gordo", days: ["2026-09-03"] },
    },
    run: onReplay((d) => edit(d, CEPEA_BOI, (h) => h.replace("<td>347,60</td>", "<td>347,55</td>"))),
  },
  {
    id: "revisao-fora-do-limite",
    group: "páginas gravadas",
    fault: "revisão fora do limite sem aceite: boi gordo CEPEA 03/09 de 347,60 para 357,60",
    expect: {
      exit: 1,
      page: { id: "cepea/boi-gordo", estado: "revisao_suspeita", motivo: /boi_gordo/ },
      values: "inalterados",
      events: "nenhum",
      check: (o) => {
        const rs = o.pages["cepea/boi-gordo"]?.revisoes_suspeitas ?? [];
        const hit = rs.some((r) => r.serie === "boi_gordo" && r.data === "2026-09-03" && r.campo === "valor" && r.antes === 347.6 && r.depois === 357.6);
        return hit ? [] : [`revisoes_suspeitas sem {serie: "boi_gordo", data: "2026-09-03", campo: "valor", antes: 347.6, depois: 357.6}: ${JSON.stringify(rs)}`];
      },
    },
    run: onReplay((d) => edit(d, CEPEA_BOI, (h) => h.replace("<td>347,60</td>", "<td>357,60</td>"))),
  },
  {
    id: "disco-cheio",
    group: "páginas gravadas",
    fault: "disco cheio (ENOSPC) no meio da publicação de dois dias novos",
    expect: { exit: 1, values: "inalterados", treeUnchanged: true, events: "nenhum", output: /ENOSPC|espaço/ },
    run: async (lab) => {
      const pages = await lab.pages(async (d) => {
        await edit(d, CEPEA_BOI, nextDayAt("04/09/2026", "07/09/2026", "348,00"));
        await edit(d, CEPEA_MILHO, nextDayAt("04/09/2026", "07/09/2026", "71,00"));
      });
      const site = await lab.site();
      const before = await snapshot(site);
      // a few files get out before the disk is full: the worst moment, halfway through
      const disk = await fillDisk(site, 3);
      let r;
      try {
        r = await runReplay(pages, site);
      } finally {
        disk.undo();
      }
      return measure(site, before, r.exit, r.output, [`${disk.failures()} escritas recusadas`]);
    },
  },

  // the loopback sources (live path)
  {
    id: "http-503",
    group: "fontes locais",
    fault: "HTTP 503 (milho)",
    expect: { exit: 1, page: { id: "cepea/milho", estado: "http_error", motivo: /503/ }, values: "inalterados", events: "nenhum" },
    run: onLive((s) => s.cepea.route(MILHO_PATH, status(503))),
  },
  {
    id: "http-429",
    group: "fontes locais",
    fault: "HTTP 429 (milho)",
    expect: { exit: 1, page: { id: "cepea/milho", estado: "http_error", motivo: /429/ }, values: "inalterados", events: "nenhum" },
    run: onLive((s) => s.cepea.route(MILHO_PATH, status(429))),
  },
  {
    id: "sem-resposta",
    group: "fontes locais",
    fault: "servidor que não responde (milho)",
    expect: { exit: 1, page: { id: "cepea/milho", estado: "timeout", motivo: /sem resposta/ }, values: "inalterados", events: "nenhum" },
    run: onLive((s) => s.cepea.route(MILHO_PATH, hang()), SHORT),
  },
  {
    id: "desafio",
    group: "fontes locais",
    fault: "desafio Cloudflare que nunca passa (milho)",
    expect: { exit: 1, page: { id: "cepea/milho", estado: "blocked", motivo: /desafio/ }, values: "inalterados", events: "nenhum" },
    run: onLive((s) => s.cepea.route(MILHO_PATH, endlessChallenge())),
  },
  {
    id: "bloqueio-definitivo",
    group: "fontes locais",
    fault: 'bloqueio definitivo: 403 "Sorry, you have been blocked" (milho)',
    expect: { exit: 1, page: { id: "cepea/milho", estado: "blocked", motivo: /403/ }, values: "inalterados", events: "nenhum" },
    run: onLive((s) => s.cepea.route(MILHO_PATH, cloudflareBlock())),
  },
  {
    id: "bloqueio-brando",
    group: "fontes locais",
    fault: "bloqueio brando: HTTP 200 sem a tabela (milho)",
    expect: { exit: 1, page: { id: "cepea/milho", estado: "soft_block", motivo: /sem a tabela/ }, values: "inalterados", events: "nenhum" },
    run: onLive((s) => s.cepea.route(MILHO_PATH, noTable())),
  },
  {
    id: "redirecionamento-externo",
    group: "fontes locais",
    fault: "redirecionamento para outro host (milho)",
    expect: { exit: 1, page: { id: "cepea/milho", estado: "http_error", motivo: /outro host/ }, values: "inalterados", events: "nenhum" },
    run: onLive((s) => s.cepea.route(MILHO_PATH, redirect("http://203.0.113.9/br/indicador/milho.aspx"))),
  },
  {
    id: "corpo-enorme",
    group: "fontes locais",
    fault: "corpo sem fim (milho)",
    expect: {
      exit: 1,
      page: { id: "cepea/milho", estado: "http_error", motivo: /grande demais/ },
      values: "inalterados",
      events: "nenhum",
      check: (o) => {
        const sent = Number(o.notes.find((n) => n.startsWith("bytes:"))?.slice(6));
        return sent < 64 * 1024 * 1024 ? [] : [Number.isNaN(sent) ? "o cliente nunca largou o corpo sem fim" : `o cliente leu ${mb(sent)} de um corpo sem fim`];
      },
    },
    run: async (lab) => {
      const body = endless();
      const o = await onLive((s) => {
        s.cepea.route(MILHO_PATH, body);
        // the endless responses end when their client gives up on them; NaN if one never does
        return async () => `bytes:${await Promise.race([body.sent(), new Promise<number>((r) => setTimeout(() => r(Number.NaN), 10_000))])}`;
      })(lab);
      const sent = Number(o.notes[0]!.slice(6));
      return { ...o, notes: [...o.notes, `servidor enviou ${mb(sent)}`] };
    },
  },
  {
    id: "corpo-cortado-chunked",
    group: "fontes locais",
    fault: "corpo chunked cortado (sem Content-Length), dentro de uma célula",
    expect: { exit: 1, page: { id: "cepea/boi-gordo", estado: "network_error", motivo: /corpo interrompido/ }, values: "inalterados", events: "nenhum" },
    run: onLive((s) => s.cepea.route(BOI_PATH, raw(chunkedCut(page(CEPEA_BOI, cepeaCutInCell))))),
  },
  {
    id: "corpo-menor-que-content-length",
    group: "fontes locais",
    fault: "corpo menor que o Content-Length, cortado dentro de uma célula",
    expect: { exit: 1, page: { id: "cepea/boi-gordo", estado: "network_error", motivo: /corpo interrompido/ }, values: "inalterados", events: "nenhum" },
    run: onLive((s) =>
      s.cepea.route(BOI_PATH, raw(truncatedBody(page(CEPEA_BOI, cepeaCutInCell), Buffer.byteLength(fixture(CEPEA_BOI))))),
    ),
  },
  {
    id: "corpo-cortado-sem-delimitacao",
    group: "fontes locais",
    fault: "corpo sem Content-Length nem chunked, conexão fechada dentro de uma célula",
    expect: { exit: 1, page: { id: "cepea/boi-gordo", estado: ["parse_error", "network_error"], motivo: /incomplet|cortad|interrompido/ }, values: "inalterados", events: "nenhum" },
    run: onLive((s) => s.cepea.route(BOI_PATH, closeDelimitedCut(page(CEPEA_BOI, cepeaCutInCell)))),
  },

  // the real commands, as child processes
  {
    id: "replay-50mb",
    group: "linha de comando",
    fault: "página de 50 MB no --replay (milho)",
    expect: { exit: 1, page: { id: "cepea/milho", estado: "falha", motivo: /grande demais|limite/ }, values: "inalterados", events: "nenhum" },
    run: async (lab) => {
      const pages = await lab.pages((d) => edit(d, CEPEA_MILHO, (h) => h.replace("</body>", `${" ".repeat(50 * 1024 * 1024)}</body>`)));
      const site = await lab.site();
      const before = await snapshot(site);
      const t0 = Date.now();
      const c = cli("update", ["--replay", pages], site);
      // a safety net, not a measurement: an uncapped read of this page took 20+ s and 2 GB
      const r = await finish(c, 60_000);
      const notes = [`${((Date.now() - t0) / 1000).toFixed(1)} s`, ...(r.killed ? ["morto após 60 s"] : [])];
      return measure(site, before, r.code, c.output(), notes);
    },
  },
  {
    id: "revisao-aceita-pelo-operador",
    group: "linha de comando",
    fault: "revisão fora do limite aceita com --aceitar-revisao boi_gordo@2026-09-03=357.60",
    expect: {
      exit: 0,
      page: { id: "cepea/boi-gordo", estado: "ok" },
      values: ["boi_gordo@2026-09-03:valor 347.6→357.6"],
      events: [/^historico_revisado boi_gordo$/],
      capture: { page: "boi-gordo", days: ["2026-09-03"] },
    },
    run: async (lab) => {
      const pages = await lab.pages((d) => edit(d, CEPEA_BOI, (h) => h.replace("<td>347,60</td>", "<td>357,60</td>")));
      const site = await lab.site();
      const before = await snapshot(site);
      const c = cli("update", ["--replay", pages, "--aceitar-revisao", "boi_gordo@2026-09-03=357.60"], site);
      const r = await finish(c, 60_000);
      return measure(site, before, r.code, c.output());
    },
  },
  {
    id: "duas-atualizacoes",
    group: "linha de comando",
    fault: "duas atualizações ao mesmo tempo (a segunda espera)",
    expect: {
      exit: 0,
      values: ["milho@2026-09-07 novo", "soja@2026-09-28 novo"],
      events: [/^price_changed milho$/, /^price_changed soja$/],
    },
    run: async (lab) => {
      const site = await lab.site();
      const before = await snapshot(site);
      // B brings a day A does not have
      const pages = await lab.pages((d) => edit(d, CEPEA_MILHO, nextDayAt("04/09/2026", "07/09/2026", "71,00")));
      const { a, soja, close } = await heldLiveRun(site);
      try {
        const b = cli("update", ["--replay", pages], site);
        let bDone = false;
        void b.done.then(() => (bDone = true));
        // A goes on once B waits for it (or finished without waiting, which is the fault)
        await until(() => bDone || /aguardando/.test(b.output()), 60_000);
        soja.release();
        const [ra, rb] = await Promise.all([finish(a, 60_000), finish(b, 60_000)]);
        const exit = ra.code === 0 && rb.code === 0 ? 0 : ra.code !== 0 ? ra.code : rb.code;
        return measure(site, before, exit, `A:\n${a.output()}\nB:\n${b.output()}`, [`A saiu com ${ra.code}, B com ${rb.code}`]);
      } finally {
        await close();
      }
    },
  },
  {
    id: "duas-atualizacoes-sem-espera",
    group: "linha de comando",
    fault: "duas atualizações ao mesmo tempo, a segunda com --sem-espera",
    expect: {
      exit: "não zero",
      values: ["soja@2026-09-28 novo"],
      check: (o) => {
        const [pidNote, aNote] = [o.notes.find((n) => n.startsWith("A: PID")), o.notes.find((n) => n.startsWith("A saiu"))];
        const pid = pidNote?.match(/PID (\d+)/)?.[1];
        const out: string[] = [];
        if (!pid || !o.output.includes(`PID ${pid}`)) out.push(`a segunda execução não nomeia quem tem a trava (PID ${pid}): ${o.output.slice(-300)}`);
        if (aNote !== "A saiu com 0") out.push(aNote ?? "A não terminou");
        return out;
      },
    },
    run: async (lab) => {
      const site = await lab.site();
      const before = await snapshot(site);
      const { a, soja, close } = await heldLiveRun(site);
      try {
        const c = cli("update", ["--replay", FIXTURES, "--sem-espera"], site);
        const rc = await finish(c, 60_000);
        soja.release();
        const ra = await finish(a, 60_000);
        return measure(site, before, rc.code, c.output(), [`A: PID ${a.pid}`, `A saiu com ${ra.code}`]);
      } finally {
        await close();
      }
    },
  },
  ...[
    { id: "sigkill-preparando", fault: "SIGKILL durante a preparação da publicação", at: (n: number) => Math.floor(n / 2) },
    { id: "sigkill-renomeando", fault: "SIGKILL no meio das renomeações (depois do diário)", at: (n: number) => n + 2 + Math.floor(n / 2) },
  ].map(
    ({ id, fault, at }): FaultCase => ({
      id,
      group: "linha de comando",
      fault,
      expect: {
        exit: 0,
        values: ["boi_gordo@2026-09-07 novo", "milho@2026-09-07 novo"],
        events: [/^price_changed boi_gordo$/, /^price_changed milho$/],
        check: (o) => o.notes.filter((n) => n.startsWith("✗ ")).map((n) => n.slice(2)),
      },
      run: async (lab) => {
        // the pages, and what an uninterrupted run of them writes
        const { pages, refTree, n } = await lab.memo("sigkill", async () => {
          const pages = await lab.pages(async (d) => {
            await edit(d, CEPEA_BOI, nextDayAt("04/09/2026", "07/09/2026", "348,00"));
            await edit(d, CEPEA_MILHO, nextDayAt("04/09/2026", "07/09/2026", "71,00"));
          });
          const ref = await lab.site();
          const base = await snapshot(ref);
          await runReplay(pages, ref);
          const refTree = await snapshot(ref);
          const n = [...refTree.keys()].filter((f) => !isLeftover(f) && !base.get(f)?.equals(refTree.get(f)!)).length;
          return { pages, refTree, n };
        });
        const step = at(n);

        const site = await lab.site();
        const before = await snapshot(site);
        const notes = [`${n} arquivos mudam; morto no passo ${step}`];
        const k = cli("update", ["--replay", pages], site, { COTACAO_TESTE_MATAR_NO_PASSO: String(step) });
        const rk = await k.done;
        if (rk.signal !== "SIGKILL") notes.push(`✗ a execução não foi morta no passo ${step} (saiu com ${rk.code}): o gancho COTACAO_TESTE_MATAR_NO_PASSO não agiu`);
        // the next command recovers first: `npm run validate` sees the old set or the new set, never a mix
        const v = await recoveringValidate(site);
        if (v.code !== 0) notes.push(`✗ validate depois do SIGKILL saiu com ${v.code}: ${v.output.slice(-300)}`);
        const seen = await snapshot(site);
        const site0 = (t: Tree) => JSON.stringify([...t].filter(([f]) => !isLeftover(f)).map(([f, b]) => [f, b.toString("base64")]));
        const state = site0(seen) === site0(before) ? "antigo" : site0(seen) === site0(refTree) ? "novo" : "misturado";
        notes.push(`depois do validate: conjunto ${state}`);
        if (state === "misturado") notes.push("✗ depois do SIGKILL e do validate o site é uma mistura de arquivos antigos e novos");
        // the rerun reaches exactly the bytes of the uninterrupted run
        const r = await runReplay(pages, site);
        const final = await snapshot(site);
        const differ = [...new Set([...final.keys(), ...refTree.keys()])].filter((f) => !final.get(f) || !refTree.get(f) || !final.get(f)!.equals(refTree.get(f)!));
        if (differ.length > 0) notes.push(`✗ a nova execução não chega aos bytes de uma execução sem interrupção: ${differ.slice(0, 6).join(", ")}`);
        return measure(site, before, r.exit, r.output, notes);
      },
    }),
  ),

  // webhook receivers
  {
    id: "webhook-resposta-enorme",
    group: "webhooks",
    fault: "receptor de webhook responde 2xx com um corpo de 256 MB",
    expect: {
      exit: 0,
      values: "inalterados",
      check: (o) => {
        const sent = Number(o.notes.find((n) => n.startsWith("bytes:"))?.slice(6));
        return sent < 32 * 1024 * 1024 ? [] : [`notify leu ${mb(sent)} da resposta (limite pequeno esperado)`];
      },
    },
    run: async () => {
      const TOTAL = 256 * 1024 * 1024;
      let sent: Promise<number> = Promise.resolve(0);
      const site = await startFakeSite({
        "/hook": (_req, res) => {
          res.writeHead(200, { "content-type": "text/plain" });
          sent = pump(res, TOTAL);
        },
      });
      // one event as eventos.json publishes it; delivery only sends it, so its content is immaterial here
      const eventos = {
        api_version: "v1",
        atualizado: NOW,
        limite: 200,
        feed: "api/v1/feed.xml",
        eventos: [{ id: "evt_00000000000000000001", tipo: "price_changed", criado_em: NOW, dados: { serie: "milho" } }],
      } as unknown as EventosFile;
      let ok = false;
      let output = "";
      try {
        const r = await entregarEventos(
          eventos,
          [{ url: `${site.url}/hook`, eventos: ["price_changed"], segredo_env: "SEGREDO_TESTE" }],
          estadoVazio(),
          { permitirInseguro: true, env: { SEGREDO_TESTE: "s" }, timeoutMs: 10_000, tentativas: 1 },
        );
        ok = r.ok;
        output = formatarRelatorio(r).join("\n");
      } catch (err) {
        output = (err as Error).message;
      } finally {
        await site.close();
      }
      const bytes = await sent;
      const empty = new Map<string, Buffer>();
      return { exit: ok ? 0 : 1, pages: {}, values: [], events: [], leftovers: [], changedFiles: [], validation: [], output, after: empty, notes: [`bytes:${bytes}`, `servidor enviou ${mb(bytes)} de ${mb(TOTAL)}`] };
    },
  },
];
