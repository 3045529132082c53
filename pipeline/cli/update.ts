import { loadConfig } from "../config.ts";
import { runClock } from "../domain/dates.ts";
import { createReplayLoader } from "../fetch/replay.ts";
import { createLiveLoader } from "../fetch/live.ts";
import { withRecording } from "../fetch/record.ts";
import { runUpdate } from "../run/update.ts";
import { cliOptions } from "./args.ts";

const USAGE = `uso: npm run update [-- --replay DIR | --record DIR]
  (sem opções)   busca cada fonte ao vivo, mescla no histórico, gera e valida o site
  --replay DIR   o mesmo a partir de páginas gravadas: DIR/cepea/{boi-gordo,bezerro,milho,soja}.html,
                 DIR/scot/{boi-gordo,vaca-gorda}.html
  --record DIR   busca ao vivo e grava cada página em DIR (mesmo layout do --replay)`;

const args = cliOptions({ replay: { type: "string" }, record: { type: "string" } }, USAGE);
if (args.replay && args.record) {
  console.error(`--replay e --record não podem ser usados juntos\n${USAGE}`);
  process.exit(2);
}

try {
  const config = loadConfig();
  const now = runClock();
  const log = (line: string) => console.log(line);
  let loader = args.replay ? createReplayLoader(args.replay, () => now) : createLiveLoader({ log });
  if (args.record) loader = withRecording(loader, args.record, log);
  const report = await runUpdate({ loader, config, now, log });
  process.exitCode = report.exitCode;
} catch (err) {
  console.error((err as Error).message);
  process.exitCode = 1;
}
