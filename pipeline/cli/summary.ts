/**
 * The run's step summary ($GITHUB_STEP_SUMMARY) from public/api/v1/status.json: sources, the
 * pages that failed and why. Exits 1 when the update failed (UPDATE_OUTCOME=failure, set by the
 * workflow from the update step), so the job goes red after the good data was committed and
 * deployed.
 */
import { execFileSync } from "node:child_process";
import { appendFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { loadConfig } from "../config.ts";
import type { StatusFile } from "../domain/publicados.ts";

export interface SummaryInput {
  status: StatusFile | null;
  /** outcome of the update step: "success", "failure", or undefined when run by hand */
  outcome?: string;
  /** subject of the data commit this run made, if any */
  commit?: string | null;
  /** outcome of the validate step after the update: "failure" = the tree was invalid and restored */
  validacao?: string;
}

export interface FailedPage {
  fonte: string;
  pagina: string;
  estado: string;
  motivo: string;
  url: string;
  desde: string | null;
  falhas: number;
}

export function failedPages(status: StatusFile | null): FailedPage[] {
  const out: FailedPage[] = [];
  for (const f of status?.fontes ?? []) {
    if (f.estado === "disabled") continue;
    for (const p of f.paginas) {
      if (p.estado === "ok") continue;
      out.push({ fonte: f.id, pagina: p.id, estado: p.estado, motivo: p.motivo ?? "", url: p.url, desde: p.falhando_desde, falhas: p.falhas_consecutivas });
    }
  }
  return out;
}

const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");

/** Markdown for the step summary and whether the job must fail. */
export function stepSummary({ status, outcome, commit, validacao }: SummaryInput): { markdown: string; failed: boolean; failures: FailedPage[] } {
  const failures = failedPages(status);
  const invalid = validacao === "failure";
  const failed = invalid || (outcome === undefined || outcome === "" ? failures.length > 0 : outcome !== "success");
  const md: string[] = [];
  md.push(failed ? `## Atualização: falhou${failures.length ? ` (${failures.length} página(s))` : ""}` : "## Atualização: ok", "");
  md.push(commit ? `Commit de dados: \`${cell(commit)}\`` : "Nenhum dado novo nesta execução (nada commitado).", "");
  if (invalid) {
    md.push("O site gerado não passou em `npm run validate`: os dados foram restaurados ao último commit e nada foi commitado nem publicado; veja o log do passo de validação.", "");
  }
  if (failed && failures.length === 0 && !invalid) {
    md.push("A atualização terminou com erro antes de registrar as páginas em `status.json`; veja o log do passo `npm run update`.", "");
  }
  if (failures.length) {
    md.push("### Páginas com falha", "", "| fonte | página | estado | motivo | falhando desde | falhas seguidas |", "|---|---|---|---|---|---|");
    for (const f of failures) md.push(`| ${f.fonte} | [${f.pagina}](${f.url}) | ${f.estado} | ${cell(f.motivo)} | ${f.desde ?? ""} | ${f.falhas} |`);
    md.push("", invalid ? "" : "Os dados bons das outras páginas foram commitados e publicados; as séries das páginas com falha mantêm o último dado válido.", "");
  }
  if (status) {
    md.push("### Fontes", "", "| fonte | estado | último dado | último sucesso | motivo |", "|---|---|---|---|---|");
    for (const f of status.fontes) md.push(`| ${f.id} | ${f.estado} | ${f.ultima_data ?? ""} | ${f.ultimo_sucesso ?? ""} | ${cell(f.motivo ?? "")} |`);
    md.push("");
  } else {
    md.push("`status.json` não encontrado.", "");
  }
  return { markdown: md.join("\n"), failed, failures };
}

function readStatus(publicDir: string): StatusFile | null {
  try {
    return JSON.parse(readFileSync(join(publicDir, "api/v1/status.json"), "utf8")) as StatusFile;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new Error(`summary: status.json ilegível: ${(err as Error).message}`);
  }
}

/** The subject of HEAD when this run committed it (HEAD moved away from GITHUB_SHA). */
function dataCommit(env: NodeJS.ProcessEnv): string | null {
  try {
    const head = execFileSync("git", ["rev-parse", "HEAD"], { encoding: "utf8" }).trim();
    if (!env.GITHUB_SHA || head === env.GITHUB_SHA) return null;
    return execFileSync("git", ["log", "-1", "--format=%s"], { encoding: "utf8" }).trim();
  } catch {
    return null;
  }
}

function main(): void {
  const env = process.env;
  const { markdown, failed, failures } = stepSummary({
    status: readStatus(loadConfig().publicDir),
    outcome: env.UPDATE_OUTCOME,
    commit: dataCommit(env),
    validacao: env.VALIDATE_OUTCOME,
  });
  if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, `${markdown}\n`);
  else process.stdout.write(`${markdown}\n`);
  for (const f of failures) {
    // workflow command: one annotation per failed page on the run's page
    const msg = `${f.fonte}/${f.pagina}: ${f.estado}${f.motivo ? ` — ${f.motivo}` : ""} (${f.url})`.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
    if (env.GITHUB_ACTIONS) console.log(`::error title=Página com falha::${msg}`);
  }
  if (failed) {
    const motivo = env.VALIDATE_OUTCOME === "failure" ? ": o site gerado não passou na validação (dados restaurados)" : "";
    console.error(`summary: a atualização falhou${motivo}${failures.length ? `: ${failures.map((f) => `${f.fonte}/${f.pagina}`).join(", ")}` : ""}`);
    process.exitCode = 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    main();
  } catch (err) {
    console.error((err as Error).message);
    process.exitCode = 1;
  }
}
