/**
 * `npm run validate [dir]`: validates every file under public/ (or dir) against schemas/ and
 * the checks in code; prints every error grouped per file, a summary, and exits 1 on any error.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { validateFiles } from "../validate/ajv.ts";

function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(p));
    else if (entry.isFile()) out.push(p);
  }
  return out;
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

  const files = new Map<string, Buffer>();
  for (const p of listFiles(dir)) files.set(relative(dir, p).split(sep).join("/"), readFileSync(p));

  const report = validateFiles(files, { arvoreCompleta: true });
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

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = runValidate(process.argv[2]);
}
