import { parseAceite, type RevisaoAceita } from "../check/revisions.ts";
import { loadConfig } from "../config.ts";
import { runClock } from "../domain/dates.ts";
import { createReplayLoader } from "../fetch/replay.ts";
import { createLiveLoader } from "../fetch/live.ts";
import { withRecording } from "../fetch/record.ts";
import { withDataLock } from "../publish/lock.ts";
import { runUpdate } from "../run/update.ts";
import { EXEMPLOS, layoutDoReplay } from "../sources/index.ts";
import { cliOptions, falhou, SEM_ESPERA, USAGE_SEM_ESPERA } from "./args.ts";

const USAGE = `uso: npm run update [-- --replay DIR | --record DIR] [--aceitar-revisao SERIE@AAAA-MM-DD[:CAMPO]=VALOR ...] [--sem-espera]
  (sem opções)   busca cada fonte ao vivo, mescla no histórico, gera e valida o site
  --replay DIR   o mesmo a partir de páginas gravadas: ${layoutDoReplay().join(",\n                 ")}
  --record DIR   busca ao vivo e grava cada página em DIR (mesmo layout do --replay)
  --aceitar-revisao SERIE@AAAA-MM-DD[:CAMPO]=VALOR
                 aceita, nesta execução, uma revisão além do limite que o status.json listou em
                 revisoes_suspeitas (copie o campo "aceitar"); repita a opção para cada valor.
                 Ex.: --aceitar-revisao ${EXEMPLOS.estadual}@2026-08-05=345.50 (VALOR "nenhum" aceita a remoção)
${USAGE_SEM_ESPERA}`;

const args = cliOptions(
  {
    replay: { type: "string" },
    record: { type: "string" },
    "aceitar-revisao": { type: "string", multiple: true },
    ...SEM_ESPERA,
  },
  USAGE,
);
if (args.replay && args.record) {
  console.error(`--replay e --record não podem ser usados juntos\n${USAGE}`);
  process.exit(2);
}

let aceitar: RevisaoAceita[];
try {
  aceitar = (args["aceitar-revisao"] ?? []).map(parseAceite);
} catch (err) {
  console.error(`${(err as Error).message}\n${USAGE}`);
  process.exit(2);
}

try {
  const config = loadConfig();
  const log = (line: string) => console.log(line);
  // one run at a time on the data directory: the store is read inside runUpdate, under the lock
  const report = await withDataLock(config.publicDir, { esperar: !args["sem-espera"], log }, () => {
    const now = runClock();
    let loader = args.replay ? createReplayLoader(args.replay, () => now) : createLiveLoader({ log });
    if (args.record) loader = withRecording(loader, args.record, log);
    return runUpdate({ loader, config, now, log, aceitar });
  });
  process.exitCode = report.exitCode;
} catch (err) {
  falhou(err);
}
