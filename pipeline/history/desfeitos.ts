/**
 * desfeitos.json: the values `npm run desfazer` took off the site. An undone value is a wrong
 * number the source may well still show: the scheduled update reads the same page the next day
 * and would publish it again, long before anyone turns the source off. So the undo records each
 * value it took out (series, day, field, the exact value, the commit it came from) in a small
 * committed file beside the data, at the top of the git repository that holds the site (the
 * repository's root in production, beside webhooks.json and webhooks-entregues.json), and every
 * page and every backfill that brings exactly one of those values back for that day of that
 * series is kept out (desfeitoNoDia, below). A different value for the day is the source's correction
 * and goes through as usual. The operator who finds the value was right after all takes its
 * entry out of the file and commits it.
 *
 * One entry per line group, sorted, so the file is deterministic and its diff says what changed.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { z } from "zod";
import { PipelineError } from "../domain/errors.ts";
import { formatDateBR } from "../domain/dates.ts";
import { formatDecimalBR } from "../domain/money.ts";
import type { HistoricoEntry, PracaQuote } from "../domain/publicados.ts";

export const DESFEITOS_FILE = "desfeitos.json";

/** One value an undo took off the site. */
export interface Desfeito {
  serie: string;
  data: string;
  /** as a revision names it: "valor", "valor_usd", "pracas.Barretos", ... */
  campo: string;
  /** the exact value taken out */
  valor: number;
  /** the full hash of the commit whose data was undone */
  commit: string;
}

export interface DesfeitosFile {
  desfeitos: Desfeito[];
}

const schema = z.strictObject({
  desfeitos: z.array(
    z.strictObject({
      serie: z.string().regex(/^[a-z_]+(\/[A-Z]{2})?$/),
      data: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
      campo: z.string().min(1),
      valor: z.number().finite(),
      commit: z.string().regex(/^[0-9a-f]{40}$/),
    }),
  ),
});

/**
 * Where the undone values of the site in `publicDir` are kept: desfeitos.json at the top of the
 * git work tree holding it; null outside any (no undo can have happened there: it needs git).
 */
export function arquivoDesfeitos(publicDir: string): string | null {
  let dir = resolve(publicDir);
  for (;;) {
    if (existsSync(join(dir, ".git"))) return join(dir, DESFEITOS_FILE);
    const up = dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

/**
 * The undone values of the site in `publicDir`, read and checked every time (a few entries); none
 * without the file. A damaged file stops the run: without it a wrong number could come back.
 */
export function loadDesfeitos(publicDir: string): Desfeito[] {
  const file = arquivoDesfeitos(publicDir);
  if (file === null || !existsSync(file)) return [];
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new PipelineError({ stage: "config", reason: `${file}: JSON inválido (${(err as Error).message}); restaure o arquivo com git`, cause: err });
  }
  const r = schema.safeParse(raw);
  if (!r.success) {
    throw new PipelineError({
      stage: "config",
      reason: `${file}: ${r.error.issues.map((i) => `${i.path.join(".") || "(raiz)"}: ${i.message}`).join("; ")} (restaure o arquivo com git)`,
    });
  }
  return r.data.desfeitos;
}

const chave = (d: Desfeito) => `${d.serie}\u0000${d.data}\u0000${d.campo}\u0000${d.valor}`;

/** The file's text: entries sorted by series, day, field, value, commit; one value once. */
export function serializarDesfeitos(desfeitos: readonly Desfeito[]): string {
  const unicos = new Map<string, Desfeito>();
  const ordenados = [...desfeitos].sort(
    (a, b) => a.serie.localeCompare(b.serie) || a.data.localeCompare(b.data) || a.campo.localeCompare(b.campo) || a.valor - b.valor || a.commit.localeCompare(b.commit),
  );
  // the same value undone twice (undone, brought back by hand, undone again) is kept once, under its first commit
  for (const d of ordenados) if (!unicos.has(chave(d))) unicos.set(chave(d), { serie: d.serie, data: d.data, campo: d.campo, valor: d.valor, commit: d.commit });
  const linhas = [...unicos.values()].map((d) => `    ${JSON.stringify(d)}`);
  return `{\n  "desfeitos": [${linhas.length > 0 ? `\n${linhas.join(",\n")}\n  ` : ""}]\n}\n`;
}

/** A field of one history day, as a revision names it; undefined when the day has none. */
export function valorDoCampo(e: HistoricoEntry, campo: string): unknown {
  if (campo.startsWith("pracas.")) return e.pracas?.[campo.slice("pracas.".length)];
  return (e as unknown as Record<string, unknown>)[campo];
}

/**
 * Whether one day of a series, as published or as a page gives it, holds the undone value: in its
 * history line (`valor`, `pracas.<praça>`...) or, on the newest day, in a column of its praças'
 * quotes (`pracas.<praça>.<coluna>`, diffQuotes: a praça's 30-day price is only there). A praça's
 * name may hold a dot ("C. Grande"); a column's never does.
 */
export function temValor(e: HistoricoEntry, quotes: readonly PracaQuote[] | null | undefined, d: Pick<Desfeito, "campo" | "valor">): boolean {
  if (valorDoCampo(e, d.campo) === d.valor) return true;
  const m = /^pracas\.(.+)\.([^.]+)$/.exec(d.campo);
  if (!m || !quotes) return false;
  const q = quotes.find((x) => x.praca === m[1]) as unknown as Record<string, unknown> | undefined;
  return q?.[m[2]!] === d.valor;
}

/**
 * A day of a series a page (or a backfill's file) brought with exactly a value `npm run desfazer`
 * took off the site (history/desfeitos.ts), and so kept out: that day of that series stays as it
 * is published (the restored value, or no day) while the rest of the page is merged. A page is
 * not refused whole for it: CEPEA's pages show 15 business days, Notícias Agrícolas' 10, Scot's
 * one table feeds 44 series, and a source that never corrects the day would otherwise stop every
 * series of the page for weeks. A different value for the day is the source's correction and
 * passes.
 */
export interface ValorPulado {
  /** the series whose day was kept out */
  serie: string;
  data: string;
  /**
   * the entry of desfeitos.json the page brought back: of this series, or of the series it
   * shares its reference praça with (a Scot national series and its UF's series)
   */
  desfeito: Desfeito;
}

/**
 * The entry of desfeitos.json that one day of one series, as a page gives it (with that day's
 * praça quotes, when the page has them), brings back; undefined when none.
 */
export function desfeitoNoDia(serie: string, e: HistoricoEntry, desfeitos: readonly Desfeito[], quotes?: readonly PracaQuote[] | null): Desfeito | undefined {
  return desfeitos.find((d) => d.serie === serie && d.data === e.data && temValor(e, quotes, d));
}

/** The notice (pt-BR) for a day kept out: series, day, value, the undo's commit, and how to let the value in. */
export function avisoPulado(p: ValorPulado, de: "da página" | "do arquivo" = "da página"): string {
  const d = p.desfeito;
  const curto = d.commit.slice(0, 12);
  const valor = formatDecimalBR(d.valor);
  const onde = d.campo === "valor" ? "" : ` (${d.campo})`;
  const traz =
    p.serie === d.serie
      ? `${p.serie} em ${formatDateBR(p.data)}: a fonte ainda traz ${valor}${onde}`
      : `${p.serie} em ${formatDateBR(p.data)}: pulado com ${d.serie}, que segue a mesma praça de referência e em que a fonte ainda traz ${valor}${onde} nesse dia`;
  return (
    `${traz}, o valor que npm run desfazer -- ${curto} tirou do site como errado (${DESFEITOS_FILE}); ` +
    `esse dia de ${p.serie} foi pulado e fica como está publicado até a fonte corrigi-lo (um valor diferente entra normalmente); o resto ${de} foi mesclado. ` +
    `Se ${valor} estava certo, apague de ${DESFEITOS_FILE}, na raiz do repositório, a entrada {"serie": "${d.serie}", "data": "${d.data}", "campo": "${d.campo}", ...} ` +
    `e faça commit de ${DESFEITOS_FILE}; a próxima atualização (ou importação) o publica`
  );
}
