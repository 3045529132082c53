import type { RevisaoAceita } from "../config.ts";
import { formatDateBR } from "../domain/dates.ts";
import { PipelineError } from "../domain/errors.ts";
import { formatDecimalBR, toHundredths } from "../domain/money.ts";
import { limitesDaSerie, type SeriesDef } from "../domain/series.ts";
import { EXEMPLOS } from "../sources/index.ts";
import type { HistoricoEntry, PracaQuote } from "../domain/publicados.ts";
import type { RevisaoCampo } from "../history/changes.ts";

/** A published value a page wants to change. `null` is a value that disappears (or appears). */
export type { RevisaoCampo };

export type { RevisaoAceita };

export interface RevisionVerdict {
  /** every published value the page changes, in order */
  todas: Array<RevisaoCampo & { aceita: boolean }>;
  /** beyond the product's bound and not accepted: the page is held */
  suspeitas: RevisaoCampo[];
  /** the operator's acceptances these revisions used */
  usadas: RevisaoAceita[];
}

/** Text fields a revision may change freely: Scot's trend arrow. (A praça's unit may not.) */
const TEXTOS_LIVRES = new Set(["tendencia"]);

/** base_sp is itself a percentage: its bound is in percentage points, not relative. */
const PONTOS_PERCENTUAIS = new Set(["base_sp"]);

function withinBound(campo: string, antes: number, depois: number, pct: number): boolean {
  const leaf = campo.split(".").pop()!;
  if (PONTOS_PERCENTUAIS.has(leaf)) return Math.abs(toHundredths(depois) - toHundredths(antes)) <= Math.round(pct * 100);
  const a = toHundredths(antes);
  const d = toHundredths(depois);
  if (a === 0) return d === 0;
  // |d - a| / |a| <= pct / 100, on integers
  return Math.abs(d - a) * 10000 <= Math.round(pct * 100) * Math.abs(a);
}

function fieldsOf(obj: object, skip: readonly string[]): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [k, v] of Object.entries(obj)) if (!skip.includes(k) && v !== undefined) out.set(k, v);
  return out;
}

/** Every field that differs between two versions of one published day. */
export function diffEntry(serie: string, antes: HistoricoEntry, depois: HistoricoEntry): RevisaoCampo[] {
  const out: RevisaoCampo[] = [];
  const a = fieldsOf(antes, ["data", "pracas"]);
  const d = fieldsOf(depois, ["data", "pracas"]);
  for (const k of new Set([...a.keys(), ...d.keys()])) {
    const x = (a.get(k) ?? null) as number | string | null;
    const y = (d.get(k) ?? null) as number | string | null;
    if (x !== y) out.push({ serie, data: antes.data, campo: k, antes: x, depois: y });
  }
  const pa = antes.pracas ?? {};
  const pd = depois.pracas ?? {};
  for (const p of new Set([...Object.keys(pa), ...Object.keys(pd)])) {
    const x = pa[p] ?? null;
    const y = pd[p] ?? null;
    if (x !== y) out.push({ serie, data: antes.data, campo: `pracas.${p}`, antes: x, depois: y });
  }
  return out;
}

/** Every field that differs between the stored and the new praça quotes of the same (latest) day. */
export function diffQuotes(
  serie: string,
  data: string,
  antes: readonly PracaQuote[],
  depois: readonly PracaQuote[],
  /** praças whose cash price the day's history line already carries (`pracas.<p>`) */
  noDia: ReadonlySet<string> = new Set(),
): RevisaoCampo[] {
  const out: RevisaoCampo[] = [];
  const byA = new Map(antes.map((q) => [q.praca, q]));
  const byD = new Map(depois.map((q) => [q.praca, q]));
  for (const p of new Set([...byA.keys(), ...byD.keys()])) {
    const qa = byA.get(p);
    const qd = byD.get(p);
    // a whole praça appearing or disappearing is already reported on the day's `pracas.<p>`
    if (!qa || !qd) continue;
    // the cash price of a praça quoted in another unit than the series' is only here
    const skip = noDia.has(p) ? ["praca", "valor", "nota"] : ["praca", "nota"];
    const a = fieldsOf(qa, skip);
    const d = fieldsOf(qd, skip);
    for (const k of new Set([...a.keys(), ...d.keys()])) {
      const x = (a.get(k) ?? null) as number | string | null;
      const y = (d.get(k) ?? null) as number | string | null;
      if (x !== y) out.push({ serie, data, campo: `pracas.${p}.${k}`, antes: x, depois: y });
    }
  }
  return out;
}

/**
 * Judges the changes a page makes to days already published. A number may move within the
 * product's revision bound (ProdutoInfo.revisaoMaximaPct); a text (Scot's trend arrow) may change;
 * a praça or a column may appear. Anything else — a number beyond the bound, a published value
 * that disappears — is suspicious unless an operator accepted exactly that new value. Accepting
 * a series' `valor` also accepts the same new value for its reference praça (`refPraca`), which
 * is the same number published twice.
 */
export function judgeRevisions(
  def: SeriesDef,
  changes: readonly RevisaoCampo[],
  aceitas: readonly RevisaoAceita[],
  refPraca: string | null,
  /** the value a field was published at by right (history/capturas.ts: baselines), when it was revised before */
  base: (c: RevisaoCampo) => number | string | null | undefined = () => undefined,
  /**
   * the page is behind the series (its newest day is older than the last published one): a
   * stale copy, whose changes are the source's superseded numbers, not revisions; each is held
   * like one beyond the bound (a value not published before may still fill in)
   */
  atrasada = false,
): RevisionVerdict {
  const pct = limitesDaSerie(def).revisaoMaximaPct;
  const todas: RevisionVerdict["todas"] = [];
  const suspeitas: RevisaoCampo[] = [];
  const usadas: RevisaoAceita[] = [];
  for (const c of changes) {
    let ok: boolean;
    if (atrasada && c.antes !== null) ok = false;
    else if (typeof c.antes === "number" && typeof c.depois === "number") {
      // against the stored value and against the value published by right, so that revisions
      // each within the bound never add up to more than the bound
      const b = base(c);
      ok = withinBound(c.campo, c.antes, c.depois, pct) && (typeof b !== "number" || withinBound(c.campo, b, c.depois, pct));
    }
    else if (c.antes === null) ok = true; // a value that was not published before
    else if (typeof c.antes === "string" && typeof c.depois === "string") ok = TEXTOS_LIVRES.has(c.campo.split(".").pop()!); // trend arrow, not a unit
    else ok = false; // a published value that disappears
    const aceite = ok ? undefined : acceptance(c, aceitas, refPraca);
    todas.push({ ...c, aceita: aceite !== undefined });
    if (aceite) usadas.push(aceite);
    else if (!ok) suspeitas.push(c);
  }
  return { todas, suspeitas, usadas };
}

function acceptance(c: RevisaoCampo, aceitas: readonly RevisaoAceita[], refPraca: string | null): RevisaoAceita | undefined {
  const depois = typeof c.depois === "number" ? c.depois : null;
  if (c.depois !== null && depois === null) return undefined;
  const campos = new Set([c.campo]);
  if (refPraca && (c.campo === `pracas.${refPraca}` || c.campo === `pracas.${refPraca}.valor`)) campos.add("valor");
  return aceitas.find((a) => a.serie === c.serie && a.data === c.data && campos.has(a.campo) && a.valor === depois);
}

/** "{serie}@2026-08-05=863.75", "{serie}@2026-09-25:valor_usd=31,50", "{serie}@2026-08-05:pracas.{praça}=nenhum" */
export function parseAceite(text: string): RevisaoAceita {
  const m = /^([a-z_]+(?:\/[A-Z]{2})?)@(\d{4}-\d{2}-\d{2})(?::([^=]+))?=(.+)$/.exec(text.trim());
  if (!m) {
    throw new PipelineError({
      stage: "config",
      reason:
        `revisão aceita inválida: "${text}" (use SERIE@AAAA-MM-DD=VALOR ou SERIE@AAAA-MM-DD:CAMPO=VALOR, ` +
        `ex.: ${EXEMPLOS.estadual}@2026-08-05=345.50; VALOR "nenhum" aceita a remoção do campo)`,
    });
  }
  const raw = m[4]!.trim();
  let valor: number | null;
  if (raw === "nenhum") valor = null;
  else {
    // "863.75", "863,75" and "1.234,56" all mean what a Brazilian operator would mean
    const normal = raw.includes(",") ? raw.replace(/\./g, "").replace(",", ".") : raw;
    valor = Number(normal);
    if (!/^-?\d+(\.\d{1,2})?$/.test(normal) || !Number.isFinite(valor)) {
      throw new PipelineError({ stage: "config", reason: `revisão aceita inválida: "${text}": valor "${raw}" não é um número com até duas casas (ou "nenhum")` });
    }
  }
  return { serie: m[1]!, data: m[2]!, campo: m[3]?.trim() || "valor", valor };
}

/** The command-line argument that accepts this revision, for the operator to copy. */
export function aceiteArg(c: RevisaoCampo): string {
  const v = c.depois === null ? "nenhum" : String(c.depois);
  return c.campo === "valor" ? `${c.serie}@${c.data}=${v}` : `${c.serie}@${c.data}:${c.campo}=${v}`;
}

/** One line for status.json and the report. */
export function describeRevision(c: RevisaoCampo): string {
  const v = (x: number | string | null) => (x === null ? "(nenhum)" : typeof x === "number" ? formatDecimalBR(x) : x);
  return `${c.serie} em ${formatDateBR(c.data)}, ${c.campo}: ${v(c.antes)} → ${v(c.depois)}`;
}
