import { loadConfig } from "../config.ts";
import { runClock } from "../domain/dates.ts";
import { withDataLock } from "../publish/lock.ts";
import { formatDesfazer, runDesfazer } from "../run/desfazer.ts";
import { cliArgs, falhou, SEM_ESPERA, USAGE_SEM_ESPERA } from "./args.ts";

const USAGE = `uso: npm run desfazer -- COMMIT [--sem-espera]
  desfaz os dados que COMMIT publicou (um número errado): os históricos das séries e o registro
  de capturas que ele mudou voltam ao estado de antes dele (só os dias que ele mudou: um dia
  publicado depois fica), e eventos.json e feed.xml seguem em frente, com eventos que avisam
  cada valor que voltou (seq depois do maior já dado). O site todo é gerado de novo e publicado
  tudo ou nada. Cada valor tirado do site vai para desfeitos.json, na raiz do repositório: a
  atualização e o backfill retêm a página que o trouxer de volta (um valor diferente entra).
  Nada é commitado: o comando diz como conferir, commitar e avisar os assinantes.
  Recusa (e nada muda) com mudanças não commitadas no site, um commit que não existe, um merge,
  um commit que não mudou dados, ou quando um commit posterior mudou de novo os mesmos valores
  (desfaça esse antes). Use no lugar de git revert, que volta também eventos.json.
${USAGE_SEM_ESPERA}`;

const { values: args, positionals } = cliArgs({ ...SEM_ESPERA }, USAGE);
if (positionals.length !== 1) {
  console.error(`${positionals.length === 0 ? "falta o COMMIT a desfazer" : `um COMMIT só (recebidos: ${positionals.join(" ")})`}\n${USAGE}`);
  process.exit(2);
}
const commit = positionals[0]!;

try {
  const config = loadConfig();
  const log = (line: string) => console.log(line);
  await withDataLock(config.publicDir, { esperar: !args["sem-espera"], log, comando: `npm run desfazer -- ${commit}` }, async () => {
    const r = await runDesfazer({ config, commit, now: runClock(), log });
    for (const line of formatDesfazer(r, config.publicDir)) console.log(line);
  });
} catch (err) {
  falhou(err);
}
