import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { loadConfig } from "../config.ts";
import { PipelineError } from "../domain/errors.ts";
import { conferirArvoreDoDeploy, deploy } from "../publish/deploy.ts";
import { withDataLock } from "../publish/lock.ts";
import { cliOptions, falhou } from "./args.ts";
import { runValidate } from "./validate.ts";

const USAGE = `uso: npm run deploy [-- --repo URL] [--branch NOME] [--dir DIR] [--substituir-mais-novo]
  publica o site (public/) no branch gh-pages: só o site e um .nojekyll, em um único commit
  --repo URL     repositório de destino (padrão: o remoto origin)
  --branch NOME  branch de destino (padrão: gh-pages)
  --dir DIR      diretório do site (padrão: public/ ou COTACAO_PUBLIC_DIR)
  --substituir-mais-novo
                 publica mesmo que o site publicado pareça mais novo que este (para desfazer uma
                 publicação errada quando nenhum clone à mão tem o commit publicado)
  o token vem de GITHUB_TOKEN ou GH_TOKEN (para URLs https) e nunca é impresso
  antes, conclui ou desfaz uma publicação interrompida no diretório (com a trava dele), para nunca
  publicar uma mistura de duas execuções; a trava, o diário e os temporários nunca são publicados
  recusa (e não publica nada) quando:
    o diretório difere do commit HEAD (arquivo modificado, apagado, novo ou ignorado pelo git, ou
      marcado para o git não conferir: assume-unchanged, skip-worktree)
    o site não passa em npm run validate
    o gh-pages tem um site mais novo (de um commit que vem depois deste, ou com dados mais novos;
      com dados da mesma data, com status.json mais novo)
    o eventos.json deste site não tem eventos já publicados, ou dá a outro evento um seq já
      publicado (o que um git revert de um commit de dados faz; --substituir-mais-novo não pula isto)
    o gh-pages mudou no remoto enquanto este deploy montava o site (outro deploy publicou)`;

const args = cliOptions(
  { repo: { type: "string" }, branch: { type: "string" }, dir: { type: "string" }, "substituir-mais-novo": { type: "boolean" } },
  USAGE,
);

try {
  const dir = args.dir ? resolve(args.dir) : loadConfig().publicDir;
  const log = (l: string) => console.log(l);
  const opts = { dir, repo: args.repo, branch: args.branch, log, substituirMaisNovo: args["substituir-mais-novo"] ?? false };
  if (!existsSync(dir)) await deploy(opts);
  else
    await withDataLock(dir, { esperar: true, log: (l) => log(`deploy: ${l}`), comando: "npm run deploy" }, async () => {
      // under the lock, after any interrupted publish was finished or rolled back: what is checked is what goes
      const head = await conferirArvoreDoDeploy(dir, process.cwd(), log);
      log(`deploy: ${dir} é o commit ${head.slice(0, 12)}; validando (o mesmo que npm run validate)`);
      if (runValidate(dir) !== 0) {
        throw new PipelineError({
          stage: "publish",
          reason: `deploy: o site em ${dir} (commit ${head.slice(0, 12)}) não passa na validação (erros acima); nada foi publicado. Corrija os dados, commite e rode npm run deploy de novo`,
        });
      }
      return deploy(opts);
    });
} catch (err) {
  falhou(err);
}
