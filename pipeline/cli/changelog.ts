import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { loadConfig } from "../config.ts";
import { buildChangelog, changedFiles, readSiteChange, withExtraFiles } from "../publish/changelog.ts";
import { pushCurrentBranch } from "../publish/deploy.ts";
import { cliOptions } from "./args.ts";

const USAGE = `uso: npm run changelog [-- --commit [--push]] [--extra ARQUIVO ...]
  (sem opções)    imprime a mensagem de commit das mudanças do site (public/) em relação ao HEAD;
                  sem mudanças, não imprime nada e sai com 0
  --commit        faz o commit de public/ com essa mensagem
  --push          depois do commit, envia o branch atual para origin (token de GITHUB_TOKEN/GH_TOKEN)
  --extra ARQUIVO arquivo guardado junto com os dados (ex.: webhooks-entregues.json, o registro
                  de entregas do npm run notify); entra no mesmo commit`;

const run = promisify(execFile);

const args = cliOptions({ commit: { type: "boolean" }, push: { type: "boolean" }, extra: { type: "string", multiple: true } }, USAGE);
if (args.push && !args.commit) {
  console.error(`--push exige --commit\n${USAGE}`);
  process.exit(2);
}

try {
  const config = loadConfig();
  // git paths below are relative to the top of the repository
  const cwd = (await run("git", ["rev-parse", "--show-toplevel"], { encoding: "utf8" })).stdout.trim();
  const extras = await changedFiles(process.cwd(), args.extra ?? []);
  const message = withExtraFiles(buildChangelog(await readSiteChange(cwd, config.publicDir)), extras);
  if (message === null) {
    const onde = [config.publicDir, ...(args.extra ?? [])].join(", ");
    console.error(`changelog: nenhuma mudança em ${onde} em relação ao HEAD; nada a commitar`);
  } else {
    process.stdout.write(message);
    if (args.commit) {
      const opts = { cwd, env: { ...process.env, GIT_TERMINAL_PROMPT: "0" } };
      await run("git", ["add", "--all", "--", config.publicDir, ...extras], opts);
      const child = execFile("git", ["commit", "--quiet", "--file", "-"], opts);
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
      if (args.push) await pushCurrentBranch(cwd, { log: (l) => console.error(l) });
    }
  }
} catch (err) {
  console.error((err as Error).message);
  process.exitCode = 1;
}
