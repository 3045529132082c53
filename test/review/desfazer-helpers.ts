/**
 * What the npm run desfazer tests (review-auditoria8-desfazer*.test.ts) share: edits of the
 * recorded CEPEA pages, a temp git repository of the data (public/ and desfeitos.json), readers of
 * its published files and builders of recorded pages. Plain functions of the directories: the
 * tests own their hooks and clean up what they list in `dirs`.
 */
import { copyFile, readFile, writeFile } from "node:fs/promises";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO_ROOT } from "../../pipeline/config.ts";
import type { SerieFile, StatusFile } from "../../pipeline/domain/publicados.ts";
import { loadEventos } from "../../pipeline/events/model.ts";
import { editPage, replayDir } from "../helpers/pipeline.ts";
import { gitIn } from "../helpers/repos.ts";

export type Edicao = (h: string) => string;

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/** A table row of `pagina` (e.g. "do boi") taken out: the first of `dia`, at `valor` when given. */
export const semLinha =
  (pagina: string, dia: string, valor?: string): Edicao =>
  (h) => {
    const celula = valor === undefined ? "" : `\\s*<td>${literal(valor)}<\\/td>`;
    const out = h.replace(new RegExp(`<tr>\\s*<td>${literal(dia)}<\\/td>${celula}[\\s\\S]*?<\\/tr>`), "");
    if (out === h) throw new Error(`edição de teste: ${dia}${valor === undefined ? "" : ` ${valor}`} não está na página ${pagina}`);
    return out;
  };

/** The first `dia` of `pagina` (e.g. "do milho") at `de`, written `para`. */
export const celula =
  (pagina: string, dia: string, de: string, para: string): Edicao =>
  (h) => {
    const out = h.replace(new RegExp(`(<td>${literal(dia)}<\\/td>\\s*<td>)${literal(de)}(<\\/td>)`), `$1${para}$2`);
    if (out === h) throw new Error(`edição de teste: ${dia} ${de} não está na página ${pagina}`);
    return out;
  };

/** CEPEA boi gordo's first table (the boi_gordo indicator): one day's value. */
export const boiEm = (dia: string, de: string, para: string) => celula("do boi", dia, de, para);
/** CEPEA boi gordo's 04/09/2026 row (the page's newest day, 347,70) out of the page. */
export const semBoi0409 = semLinha("do boi", "04/09/2026", "347,70");
/** CEPEA boi gordo's 04/09/2026 at another value. */
export const boi0409 = (valor: string) => boiEm("04/09/2026", "347,70", valor);
/** CEPEA milho's 03/09/2026 (71,06) at another value. */
export const milho0309 = (valor: string) => celula("do milho", "03/09/2026", "71,06", valor);
/** CEPEA soja's (Paraná table) day at another value. */
export const sojaEm = (dia: string, de: string, para: string) => celula("da soja", dia, de, para);

/** A git repository with .gitignore (and `arquivos`, relative path → text) committed as "início". */
export async function iniciarRepo(repo: string, arquivos: Record<string, string> = {}): Promise<void> {
  gitIn(repo, "init", "-q", "-b", "main");
  await copyFile(join(REPO_ROOT, ".gitignore"), join(repo, ".gitignore"));
  for (const [rel, texto] of Object.entries(arquivos)) await writeFile(join(repo, rel), texto);
  gitIn(repo, "add", ".gitignore", ...Object.keys(arquivos));
  gitIn(repo, "commit", "-q", "-m", "início");
}

/**
 * The data repository at `repo` (a directory, or a getter for one a hook creates later) and
 * its site, public/: git, a commit of the data, readers of the published files.
 */
export function dadosEm(repo: string | (() => string)) {
  const dir = typeof repo === "string" ? () => repo : repo;
  const git = (...args: string[]) => gitIn(dir(), ...args);
  const ler = (rel: string) => readFile(join(dir(), "public", rel), "utf8");
  const serie = async (rel: string) => JSON.parse(await ler(rel)) as SerieFile;
  const status = async () => JSON.parse(await ler("api/v1/status.json")) as StatusFile;
  return {
    git,
    /** public/, and the undone values with it (npm run desfazer's suggested commit); the new HEAD */
    commit: (msg: string) => {
      git("add", "--all", "--", "public");
      if (existsSync(join(dir(), "desfeitos.json"))) git("add", "--", "desfeitos.json");
      git("commit", "-q", "-m", msg);
      return git("rev-parse", "HEAD");
    },
    ler,
    serie,
    dia: async (rel: string, data: string) => (await serie(rel)).historico.find((e) => e.data === data),
    status,
    pagina: async (fonte: string, id: string) => (await status()).fontes.find((f) => f.id === fonte)!.paginas.find((p) => p.id === id)!,
    eventos: async () => (await loadEventos(join(dir(), "public")))!,
  };
}

/** Recorded pages with these edits, listed in `dirs` for the cleanup. */
export async function gravadas(dirs: string[], ...edits: Array<[string, Edicao]>): Promise<string> {
  const d = await replayDir();
  dirs.push(d);
  for (const [rel, edit] of edits) await editPage(d, rel, edit);
  return d;
}

/** Recorded pages with edits of one page (`rel`), listed in `dirs`. */
export const gravadasDe =
  (dirs: string[], rel: string) =>
  (...edits: Edicao[]) =>
    gravadas(dirs, ...edits.map((e): [string, Edicao] => [rel, e]));

/**
 * A new data repository (temp, listed in `dirs`, .gitignore committed) for tests that edit one
 * recorded page (`rel`) run after run.
 */
export async function repoDeUmaPagina(prefixo: string, dirs: string[], rel: string) {
  const repo = mkdtempSync(join(tmpdir(), prefixo));
  dirs.push(repo);
  await iniciarRepo(repo);
  return { repo, site: join(repo, "public"), ...dadosEm(repo), pags: gravadasDe(dirs, rel) };
}
