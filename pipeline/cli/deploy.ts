import { resolve } from "node:path";
import { loadConfig } from "../config.ts";
import { deploy } from "../publish/deploy.ts";
import { cliOptions } from "./args.ts";

const USAGE = `uso: npm run deploy [-- --repo URL] [--branch NOME] [--dir DIR]
  publica o site (public/) no branch gh-pages: só o site e um .nojekyll, em um único commit
  --repo URL     repositório de destino (padrão: o remoto origin)
  --branch NOME  branch de destino (padrão: gh-pages)
  --dir DIR      diretório do site (padrão: public/ ou COTACAO_PUBLIC_DIR)
  o token vem de GITHUB_TOKEN ou GH_TOKEN (para URLs https) e nunca é impresso`;

const args = cliOptions({ repo: { type: "string" }, branch: { type: "string" }, dir: { type: "string" } }, USAGE);

try {
  const dir = args.dir ? resolve(args.dir) : loadConfig().publicDir;
  await deploy({ dir, repo: args.repo, branch: args.branch, log: (l) => console.log(l) });
} catch (err) {
  console.error((err as Error).message);
  process.exitCode = 1;
}
