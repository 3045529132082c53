/**
 * `npm run gerar`: writes the files generated from schemas/ and the catalogue
 * (pipeline/gerar/arquivos.ts, GERADOS). Only files whose text changed
 * are written. With --verificar it writes nothing and exits 1 when any is stale.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gerarArquivos, lerEntradas, RAIZ } from "../gerar/arquivos.ts";
import { cliOptions, falhou } from "./args.ts";

const USAGE = `uso: npm run gerar [-- --verificar]
  escreve em schemas/common.schema.json os produtos, fontes e unidades do catálogo (domain/products.ts,
  sources/index.ts) e gera de schemas/*.schema.json os tipos de cada arquivo publicado
  (pipeline/domain/publicados.gerados.ts), public/api/v1/client.d.ts (com pipeline/openapi/client.d.template.ts),
  o pacote npm cliente/ (index.js do mesmo modelo de api/v1/client.js, index.d.ts, e em package.json
  repository, homepage e bugs do campo "repository" do package.json da raiz), a tabela de séries do
  README.md, e LICENSE e CITATION.cff com os termos de cada fonte (sources/*.ts)
  --verificar  não grava nada; sai com 1 se algum arquivo gerado estiver desatualizado`;

const args = cliOptions({ verificar: { type: "boolean" } } as const, USAGE);

function atual(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

try {
  const arquivos = await gerarArquivos(lerEntradas());
  let desatualizados = 0;
  for (const [rel, texto] of arquivos) {
    const path = join(RAIZ, rel);
    if (atual(path) === texto) {
      console.log(`gerar: ${rel} em dia`);
      continue;
    }
    desatualizados++;
    if (args.verificar) {
      console.error(`gerar: ${rel} desatualizado em relação a schemas/; rode npm run gerar`);
    } else {
      writeFileSync(path, texto);
      console.log(`gerar: ${rel} gravado`);
    }
  }
  if (args.verificar && desatualizados > 0) process.exitCode = 1;
} catch (err) {
  falhou(err);
}
