import { execFile } from "node:child_process";
import { relative, resolve, sep } from "node:path";
import { promisify } from "node:util";
import { loadConfig } from "../config.ts";
import { buildChangelog, changedFiles, forbiddenFiles, readSiteChange, sitePathspecsOf, withExtraFiles } from "../publish/changelog.ts";
import { pushCurrentBranch } from "../publish/deploy.ts";
import { withDataLock } from "../publish/lock.ts";
import { cliOptions, falhou } from "./args.ts";

const USAGE = `uso: npm run changelog [-- --commit [--push]] [--extra ARQUIVO ...]
  (sem opções)    imprime a mensagem de commit das mudanças do site (public/) em relação ao HEAD:
                  no assunto as maiores variações primeiro, depois revisões, séries novas e
                  fontes com problema; sem mudanças, não imprime nada e sai com 0
  --commit        faz o commit de public/ com essa mensagem
  --push          depois do commit, envia o branch atual para origin (token de GITHUB_TOKEN/GH_TOKEN);
                  se o branch mudou no remoto, reaplica o commit por cima, mas recusa (nada enviado)
                  se os commits novos mexem no site ou nos arquivos do --extra
  --extra ARQUIVO arquivo guardado junto com os dados (ex.: webhooks-entregues.json, o registro
                  de entregas do npm run notify); entra no mesmo commit
  antes de tudo, conclui ou desfaz uma publicação interrompida em public/ (com a trava do diretório);
  com --commit, recusa (código 1) se houver arquivos temporários ou de controle no site`;

const run = promisify(execFile);

const args = cliOptions({ commit: { type: "boolean" }, push: { type: "boolean" }, extra: { type: "string", multiple: true } }, USAGE);
if (args.push && !args.commit) {
  console.error(`--push exige --commit\n${USAGE}`);
  process.exit(2);
}

try {
  const config = loadConfig();
  // under the data directory's lock: an interrupted publish is finished or rolled back first,
  // and no update publishes while the tree is read, committed and (on push) rebased
  await withDataLock(config.publicDir, { esperar: true, log: (l) => console.error(`changelog: ${l}`), comando: "npm run changelog" }, () => changelog(config));
} catch (err) {
  falhou(err);
}

async function changelog(config: ReturnType<typeof loadConfig>): Promise<void> {
  // git paths below are relative to the top of the repository
  const cwd = (await run("git", ["rev-parse", "--show-toplevel"], { encoding: "utf8" })).stdout.trim();
  const extras = await changedFiles(process.cwd(), args.extra ?? []);
  const proibidos = await forbiddenFiles(process.cwd(), config.publicDir, args.extra ?? []);
  if (proibidos.length > 0) {
    const lista = proibidos.map((p) => `  ${p}`).join("\n");
    if (args.commit) {
      throw new Error(
        `changelog: arquivos temporários ou de controle no site; nada foi commitado:\n${lista}\n` +
          "(são de uma execução em andamento ou de uma publicação que não pôde ser recuperada; confira .gitignore e rode npm run validate)",
      );
    }
    console.error(`changelog: aviso: arquivos temporários ou de controle no site (com --commit, nada seria commitado):\n${lista}`);
  }
  const doSite = buildChangelog(await readSiteChange(cwd, config.publicDir));
  const message = withExtraFiles(doSite, extras);
  if (message === null) {
    const onde = [config.publicDir, ...(args.extra ?? [])].join(", ");
    console.error(`changelog: nenhuma mudança em ${onde} em relação ao HEAD; nada a commitar`);
  } else {
    process.stdout.write(message);
    if (args.commit) {
      const opts = { cwd, env: { ...process.env, GIT_TERMINAL_PROMPT: "0" } };
      const paths = [...sitePathspecsOf(cwd, config.publicDir), ...extras];
      await run("git", ["add", "--all", "--", ...paths], opts);
      // only these paths: whatever else was staged before (a developer's code) stays out of the data commit
      const child = execFile("git", ["commit", "--quiet", "--file", "-", "--", ...paths], opts);
      const done = new Promise<void>((resolve, reject) => {
        let stderr = "";
        child.stderr?.on("data", (d: Buffer) => (stderr += String(d)));
        child.on("error", reject);
        child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`git commit falhou (código ${code}): ${stderr.trim()}`))));
      });
      child.stdin?.end(message);
      await done;
      const { stdout } = await run("git", ["rev-parse", "--short=12", "HEAD"], opts);
      console.error(`changelog: commit ${stdout.trim()} criado`);
      if (args.push) {
        // what this commit carries: a rebase must not merge another version of it. The site only
        // when it changed (the deploy that follows publishes it): a commit of the delivery record
        // alone still goes over a site change pushed meanwhile, or the next run would deliver again
        const site = doSite !== null ? [relative(cwd, config.publicDir) || "."] : [];
        const guard = [...site, ...(args.extra ?? []).map((x) => relative(cwd, resolve(x)))].map((p) => p.split(sep).join("/"));
        await pushCurrentBranch(cwd, { log: (l) => console.error(l), guard });
      }
    }
  }
}
