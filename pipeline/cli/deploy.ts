import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { loadConfig } from "../config.ts";
import { deploy } from "../publish/deploy.ts";
import { withDataLock } from "../publish/lock.ts";
import { cliOptions, falhou } from "./args.ts";

const USAGE = `uso: npm run deploy [-- --repo URL] [--branch NOME] [--dir DIR]
  publica o site (public/) no branch gh-pages: só o site e um .nojekyll, em um único commit
  --repo URL     repositório de destino (padrão: o remoto origin)
  --branch NOME  branch de destino (padrão: gh-pages)
  --dir DIR      diretório do site (padrão: public/ ou COTACAO_PUBLIC_DIR)
  o token vem de GITHUB_TOKEN ou GH_TOKEN (para URLs https) e nunca é impresso
  antes, conclui ou desfaz uma publicação interrompida no diretório (com a trava dele), para nunca
  publicar uma mistura de duas execuções; a trava, o diário e os temporários nunca são publicados`;

const args = cliOptions({ repo: { type: "string" }, branch: { type: "string" }, dir: { type: "string" } }, USAGE);

try {
  const dir = args.dir ? resolve(args.dir) : loadConfig().publicDir;
  const log = (l: string) => console.log(l);
  if (!existsSync(dir)) await deploy({ dir, repo: args.repo, branch: args.branch, log });
  else await withDataLock(dir, { esperar: true, log: (l) => log(`deploy: ${l}`), comando: "npm run deploy" }, () => deploy({ dir, repo: args.repo, branch: args.branch, log }));
} catch (err) {
  falhou(err);
}
