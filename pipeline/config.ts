import { readFileSync, existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import type { RevisaoAceita } from "./check/revisions.ts";
import { FONTES, type Fonte } from "./domain/row.ts";
import { DEFAULT_PRACAS_REFERENCIA } from "./domain/series.ts";
import { SCOT_UFS, type UF } from "./domain/ufs.ts";

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const CONFIG_FILE = "cotacao.config.json";

// messages of configuration errors are shown to operators: in Portuguese
z.config(z.locales.pt());

const ConfigSchema = z.strictObject({
  /** turn a source off: its series keep their data and status.json says "disabled" */
  fontes: z.partialRecord(z.enum(FONTES), z.strictObject({ ativa: z.boolean() })).optional(),
  /** reference praça per Scot UF, by the praça's cleaned name ("Barretos", "C. Grande") */
  pracasReferencia: z.partialRecord(z.enum(SCOT_UFS), z.string().min(1)).optional(),
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
  let parsed: z.infer<typeof ConfigSchema> = {};
  if (existsSync(file)) {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, "utf8"));
    } catch (err) {
      throw new Error(`${CONFIG_FILE}: JSON inválido (${(err as Error).message})`);
    }
    const r = ConfigSchema.safeParse(raw);
    if (!r.success) {
      throw new Error(
        `${CONFIG_FILE}: ${r.error.issues.map((i) => `${i.path.join(".") || "(raiz)"}: ${i.message}`).join("; ")} ` +
          `(fontes válidas: ${FONTES.join(", ")}; UFs com praça de referência: ${SCOT_UFS.join(" ")})`,
      );
    }
    parsed = r.data;
  }
  const fontesAtivas = Object.fromEntries(FONTES.map((f) => [f, parsed.fontes?.[f]?.ativa ?? true])) as Record<Fonte, boolean>;
  for (const id of (env.COTACAO_FONTES_DESATIVADAS ?? "").split(",").map((s) => s.trim()).filter(Boolean)) {
    if (!(FONTES as readonly string[]).includes(id)) {
      throw new Error(`COTACAO_FONTES_DESATIVADAS: fonte desconhecida "${id}" (válidas: ${FONTES.join(", ")})`);
    }
    fontesAtivas[id as Fonte] = false;
  }
  return {
    publicDir: resolve(opts.publicDir ?? env.COTACAO_PUBLIC_DIR ?? join(root, "public")),
    fontesAtivas,
    pracasReferencia: { ...DEFAULT_PRACAS_REFERENCIA, ...parsed.pracasReferencia } as Record<UF, string>,
    revisoesAceitas: parsed.revisoesAceitas ?? [],
  };
}
