import { readFileSync, existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { PipelineError } from "./domain/errors.ts";
import type { Fonte } from "./domain/row.ts";
import { ALL_UFS, type UF } from "./domain/ufs.ts";
import { allSeries, SOURCES } from "./sources/index.ts";

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * An operator's explicit acceptance of one revision: this series, this day, this field, this
 * new value (cotacao.config.json's revisoesAceitas, or `--aceitar-revisao` for one run).
 */
export interface RevisaoAceita {
  serie: string;
  data: string;
  campo: string;
  /** the new value exactly as the page gives it; null accepts the field's removal */
  valor: number | null;
}

export const CONFIG_FILE = "cotacao.config.json";

// messages of configuration errors are shown to operators: in Portuguese
z.config(z.locales.pt());

/** The sources' ids and the UFs whose value comes from a reference praça, from the catalogue. */
function catalogo(): { fontes: string[]; ufsPraca: UF[]; pracasPadrao: Partial<Record<UF, string>> } {
  const pracasPadrao: Partial<Record<UF, string>> = {};
  for (const d of allSeries()) if (d.ufReferencia && d.pracaReferencia) pracasPadrao[d.ufReferencia] ??= d.pracaReferencia;
  return { fontes: SOURCES.map((s) => s.id), ufsPraca: Object.keys(pracasPadrao) as UF[], pracasPadrao };
}

function configSchema(fontes: readonly string[]) {
  return z.strictObject({
    /** turn a source off: its series keep their data and status.json says "disabled" */
    fontes: z.partialRecord(z.enum(fontes as [string, ...string[]]), z.strictObject({ ativa: z.boolean() })).optional(),
    /** reference praça per UF of a praça table, by the praça's cleaned name ("Barretos", "C. Grande") */
    pracasReferencia: z.partialRecord(z.enum(ALL_UFS as [UF, ...UF[]]), z.string().min(1)).optional(),
    /**
     * revisions beyond a product's bound that an operator has checked and accepts: exactly this
     * series, day, field and new value (the same as `update --aceitar-revisao`)
     */
    revisoesAceitas: z
      .array(
        z.strictObject({
          serie: z.string().regex(/^[a-z_]+(\/[A-Z]{2})?$/),
          data: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
          campo: z.string().min(1).default("valor"),
          valor: z.number().finite().nullable(),
        }),
      )
      .optional(),
  });
}

export interface Config {
  /** the site root: public/ of the repo, or a temp dir in tests */
  publicDir: string;
  fontesAtivas: Record<Fonte, boolean>;
  pracasReferencia: Record<UF, string>;
  /** from cotacao.config.json; `update --aceitar-revisao` adds to them for one run */
  revisoesAceitas: RevisaoAceita[];
}

/**
 * Configuration from cotacao.config.json at the repo root (optional) and the environment:
 * COTACAO_PUBLIC_DIR moves the site root, COTACAO_FONTES_DESATIVADAS="scot,cepea" turns sources off.
 */
export function loadConfig(opts: { root?: string; publicDir?: string; env?: NodeJS.ProcessEnv } = {}): Config {
  const root = opts.root ?? REPO_ROOT;
  const env = opts.env ?? process.env;
  const file = join(root, CONFIG_FILE);
  const cat = catalogo();
  let parsed: z.infer<ReturnType<typeof configSchema>> = {};
  if (existsSync(file)) {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, "utf8"));
    } catch (err) {
      throw new PipelineError({ stage: "config", reason: `${CONFIG_FILE}: JSON inválido (${(err as Error).message})`, cause: err });
    }
    const r = configSchema(cat.fontes).safeParse(raw);
    if (!r.success) {
      throw new PipelineError({
        stage: "config",
        reason:
          `${CONFIG_FILE}: ${r.error.issues.map((i) => `${i.path.join(".") || "(raiz)"}: ${i.message}`).join("; ")} ` +
          `(fontes válidas: ${cat.fontes.join(", ")}; UFs com praça de referência: ${cat.ufsPraca.join(" ")})`,
      });
    }
    parsed = r.data;
    const fora = Object.keys(parsed.pracasReferencia ?? {}).filter((uf) => !cat.ufsPraca.includes(uf as UF));
    if (fora.length > 0) {
      throw new PipelineError({
        stage: "config",
        reason: `${CONFIG_FILE}: pracasReferencia: ${fora.join(", ")} sem série de praças (UFs com praça de referência: ${cat.ufsPraca.join(" ")})`,
      });
    }
  }
  const fontesAtivas = Object.fromEntries(cat.fontes.map((f) => [f, parsed.fontes?.[f]?.ativa ?? true])) as Record<Fonte, boolean>;
  for (const id of (env.COTACAO_FONTES_DESATIVADAS ?? "").split(",").map((s) => s.trim()).filter(Boolean)) {
    if (!cat.fontes.includes(id)) {
      throw new PipelineError({ stage: "config", reason: `COTACAO_FONTES_DESATIVADAS: fonte desconhecida "${id}" (válidas: ${cat.fontes.join(", ")})` });
    }
    fontesAtivas[id as Fonte] = false;
  }
  return {
    publicDir: resolve(opts.publicDir ?? env.COTACAO_PUBLIC_DIR ?? join(root, "public")),
    fontesAtivas,
    pracasReferencia: { ...cat.pracasPadrao, ...parsed.pracasReferencia } as Record<UF, string>,
    revisoesAceitas: parsed.revisoesAceitas ?? [],
  };
}
