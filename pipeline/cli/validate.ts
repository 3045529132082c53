/**
 * `npm run validate [dir]`: validates every file under public/ (COTACAO_PUBLIC_DIR, or dir) against schemas/ and
 * the checks in code, each file and across files (aggregates, index and status against the
 * series); prints every error grouped per file, a summary, and exits 1 on any error. First, under
 * the data directory's lock, it finishes or rolls back a publish a killed run left behind.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { loadConfig } from "../config.ts";
import { hasInterrupted, isControlPath } from "../publish/journal.ts";
import { withDataLock } from "../publish/lock.ts";
import { validateFiles } from "../validate/ajv.ts";
import { conferirFatos } from "../site/conferir.ts";
import { sobrasDaArvore } from "../site/caminhos.ts";
import { comArquivoDoLongo } from "../validate/dados.ts";
import { FATOS_PATH } from "../site/fatos.ts";
import { HISTORICO_LONGO_PATH } from "../render/csv.ts";

/** The site's files: the lock, an interrupted publish's staging and journal, and temp files are not the site. */
function listFiles(dir: string, root = dir): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (isControlPath(relative(root, p).split(sep).join("/"))) continue;
    if (entry.isDirectory()) out.push(...listFiles(p, root));
    else if (entry.isFile()) out.push(p);
  }
  return out;
}

/** The tree's files by their path in it, each read from disk when asked for (and not kept). */
class ArvoreEmDisco implements ReadonlyMap<string, Buffer> {
  private readonly caminhos = new Map<string, string>();
  constructor(dir: string, arquivos: string[]) {
    for (const p of arquivos) this.caminhos.set(relative(dir, p).split(sep).join("/"), p);
  }
  /** the file's path on disk */
  caminho(rel: string): string | undefined {
    return this.caminhos.get(rel);
  }
  get size(): number {
    return this.caminhos.size;
  }
  has(rel: string): boolean {
    return this.caminhos.has(rel);
  }
  get(rel: string): Buffer | undefined {
    const p = this.caminhos.get(rel);
    return p === undefined ? undefined : readFileSync(p);
  }
  keys(): MapIterator<string> {
    return this.caminhos.keys();
  }
  *entries(): MapIterator<[string, Buffer]> {
    for (const rel of this.caminhos.keys()) yield [rel, this.get(rel)!];
  }
  *values(): MapIterator<Buffer> {
    for (const [, b] of this.entries()) yield b;
  }
  [Symbol.iterator](): MapIterator<[string, Buffer]> {
    return this.entries();
  }
  forEach(f: (valor: Buffer, chave: string, mapa: ReadonlyMap<string, Buffer>) => void): void {
    for (const [rel, b] of this.entries()) f(b, rel, this);
  }
}

export function runValidate(dirArg: string | undefined): number {
  const dir = resolve(dirArg ?? "public");
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    console.error(`validate: diretório ${dir} não existe; rode "npm run build" (ou "npm run update") antes de validar.`);
    return 1;
  }
  const api = join(dir, "api", "v1");
  if (!existsSync(api) || listFiles(api).length === 0) {
    console.error(`validate: ${dir} ainda não tem a API (nenhum arquivo em api/v1/); rode "npm run build" (ou "npm run update") antes de validar.`);
    return 1;
  }

  // each file is read when the checks come to it, and the long file (75 MB at 30 years) is read
  // in parts: the tree is never whole in memory
  const arvore = new ArvoreEmDisco(dir, listFiles(dir));
  const longo = arvore.caminho(HISTORICO_LONGO_PATH);
  const files = new Map<string, () => Buffer>();
  for (const rel of arvore.keys()) if (rel !== HISTORICO_LONGO_PATH) files.set(rel, () => arvore.get(rel)!);

  const report = validateFiles(files, { arvoreCompleta: true, historicoLongoEmDisco: longo });
  // the facts the next update starts from (site/fatos.ts) must describe this very tree
  if (arvore.has(FATOS_PATH)) {
    report.arquivos.push({ path: FATOS_PATH, erros: longo === undefined ? conferirFatos(arvore) : comArquivoDoLongo(longo, (fonte) => conferirFatos(arvore, fonte)) });
    report.ignorados = report.ignorados.filter((p) => p !== FATOS_PATH);
  }
  // derived files no history produces, and histories of series out of the catalogue: first on
  // their file, with the fix (the other checks may name them too)
  for (const [rel, erros] of sobrasDaArvore(arvore, dir)) {
    const a = report.arquivos.find((x) => x.path === rel);
    if (a) a.erros.unshift(...erros);
    else report.arquivos.push({ path: rel, erros });
  }
  const comErros = report.arquivos.filter((a) => a.erros.length > 0);
  for (const a of comErros) {
    console.log(`\n✗ ${a.path} (${a.erros.length} ${a.erros.length === 1 ? "erro" : "erros"})`);
    for (const e of a.erros) console.log(`  ${e}`);
  }
  const validos = report.arquivos.length - comErros.length;
  if (comErros.length > 0) console.log("");
  console.log(
    `${validos} ${validos === 1 ? "arquivo válido" : "arquivos válidos"}, ${comErros.length} com erros` +
      (report.ignorados.length > 0 ? ` (${report.ignorados.length} sem verificação: ${report.ignorados.slice(0, 5).join(", ")}${report.ignorados.length > 5 ? ", ..." : ""})` : "") +
      ` em ${dir}`,
  );
  return comErros.length > 0 ? 1 : 0;
}

/**
 * Recovers an interrupted publish under the lock (printing what it did), then validates. A tree
 * this user cannot write (no lock possible) is validated as it is, unless a publish was left
 * unfinished in it: then it cannot be trusted, and that is the error.
 */
export async function runValidateRecovering(dirArg: string | undefined): Promise<number> {
  const dir = resolve(dirArg ?? "public");
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return runValidate(dir);
  try {
    return await withDataLock(dir, { esperar: true, log: (l) => console.error(`validate: ${l}`), comando: "npm run validate" }, async () => runValidate(dir));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== "EACCES" && code !== "EPERM" && code !== "EROFS") throw err;
    if (await hasInterrupted(dir)) {
      console.error(`validate: ${dir} tem uma publicação interrompida e não pode ser recuperada sem permissão de escrita (${code}); rode npm run validate com permissão de escrita`);
      return 1;
    }
    return runValidate(dir);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  try {
    process.exitCode = await runValidateRecovering(process.argv[2] ?? loadConfig().publicDir);
  } catch (err) {
    console.error((err as Error).message);
    process.exitCode = 1;
  }
}
