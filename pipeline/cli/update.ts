import { readFileSync, rmSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { parseAceite, type RevisaoAceita } from "../check/revisions.ts";
import { loadConfig } from "../config.ts";
import { runClock } from "../domain/dates.ts";
import { limparPastasAbandonadas } from "../fetch/browser.ts";
import { createReplayLoader } from "../fetch/replay.ts";
import { createLiveLoader } from "../fetch/live.ts";
import { withRecording } from "../fetch/record.ts";
import { LOCK_NAME, withDataLock } from "../publish/lock.ts";
import { AtualizacaoInterrompida, runUpdate } from "../run/update.ts";
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

/**
 * Cancelling a run (Ctrl-C, or GitHub Actions cancelling the job: SIGINT, then SIGTERM, then
 * SIGKILL after a grace period; SIGHUP when the terminal or ssh session running it closes). While
 * fetching, the first signal cuts the requests in flight, kills Chromium's process group and
 * removes its folder, publishes nothing, releases the lock and exits 130 (SIGINT) / 143 (SIGTERM) /
 * 129 (SIGHUP) within a few seconds. A publish already begun is finished (it is all or nothing and
 * takes seconds; its data passed every check), then the run exits with the same code. A second
 * signal exits at once: a publish cut there is finished or rolled back by the next command from its
 * journal (publish/journal.ts), as after a SIGKILL. SIGHUP is handled too: Playwright's own handler
 * for it is off (fetch/browser.ts), and node's default would end the run on the spot with its lock
 * and Chromium's folder left behind (nohup does not keep it: node resets an ignored SIGHUP at
 * start-up). `npm run update` execs node itself (package.json): npm forwards SIGINT/SIGTERM to its
 * script's process, and neither a shell nor tsx's CLI in between would pass them on (the shell dies
 * and leaves the run orphaned; tsx SIGKILLs a child that does not acknowledge within 60 ms).
 */
const CODIGO = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
type Sinal = keyof typeof CODIGO;
/** how long a cancelled fetch may take to wind down before the run exits anyway */
const ENCERRAMENTO_MS = 10_000;
const cancelar = new AbortController();
let fase = "trava" as "trava" | "busca" | "publicacao";
let recebido: Sinal | null = null;
let recebidoEm = 0;
/** a repeat of the first signal sooner than this is a relay of it (npm's), not a second one */
const REPETIDO_MS = 1_000;
let publicDir: string | null = null;

/** the data lock, when this process holds it: a run that exits at once while fetching leaves no lock behind */
function soltarTravaPropria(): void {
  if (!publicDir) return;
  const file = join(publicDir, LOCK_NAME);
  try {
    const h = JSON.parse(readFileSync(file, "utf8")) as { pid?: unknown; host?: unknown };
    if (h.pid === process.pid && h.host === hostname()) rmSync(file, { force: true });
  } catch {
    // no lock, or not ours to judge
  }
}

function sairJa(sinal: Sinal, motivo: string): never {
  let quadro: string;
  if (fase === "publicacao") {
    // the lock stays, as after a SIGKILL: the next command breaks it (our PID is gone) and,
    // holding it, finishes or rolls back the publish from its journal before anything else
    quadro = "a publicação foi cortada no meio: o próximo comando (npm run update, build ou validate) a conclui ou a desfaz pelo diário, nunca pela metade";
  } else {
    // while fetching nothing of the data directory is being written; waiting for the lock it is
    // not ours, and recovering under it the lock stays for the next command, as above
    if (fase === "busca") soltarTravaPropria();
    quadro = fase === "busca" ? "nada foi publicado; o site ficou como estava" : "nada desta execução foi publicado";
  }
  console.error(`atualização interrompida por ${sinal} (${motivo}): saindo agora; ${quadro}`);
  // the browser's exit handler kills Chromium and removes its folder (fetch/browser.ts)
  process.exit(CODIGO[sinal]);
}

function aoSinal(sinal: Sinal): void {
  if (recebido) {
    // Ctrl-C reaches the terminal's whole process group, and npm forwards it to this process
    // again: the same signal within REPETIDO_MS is that one cancellation, not a second
    if (sinal === recebido && Date.now() - recebidoEm < REPETIDO_MS) return;
    return sairJa(sinal, `segundo sinal, depois de ${recebido}`);
  }
  recebido = sinal;
  recebidoEm = Date.now();
  // waiting for the lock (or recovering under it): nothing of this run exists yet
  if (fase === "trava") return sairJa(sinal, "enquanto aguardava a trava do diretório de dados");
  if (fase === "publicacao") {
    console.error(`atualização: ${sinal} recebido durante a publicação; ela vai até o fim (tudo ou nada) e a execução sai em seguida. Outro sinal sai na hora`);
    return;
  }
  console.error(`atualização: ${sinal} recebido; interrompendo a busca (requisições e Chromium encerrados); nada será publicado. Outro sinal sai na hora`);
  cancelar.abort();
  setTimeout(() => {
    if (fase !== "publicacao") sairJa(sinal, `o encerramento passou de ${ENCERRAMENTO_MS / 1000} s`);
  }, ENCERRAMENTO_MS).unref();
}
process.on("SIGINT", () => aoSinal("SIGINT"));
process.on("SIGTERM", () => aoSinal("SIGTERM"));
process.on("SIGHUP", () => aoSinal("SIGHUP"));
// a terminal that closed (SIGHUP) fails every later write to it with EIO: without this the run's
// next log line would end it on the spot, its lock left behind, instead of winding down
for (const saida of [process.stdout, process.stderr]) {
  saida.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code !== "EIO") throw err;
  });
}

try {
  const config = loadConfig();
  publicDir = config.publicDir;
  const log = (line: string) => console.log(line);
  // Chromium folders of runs killed by SIGKILL (ours only, their owner gone)
  await limparPastasAbandonadas({ log });
  // one run at a time on the data directory: the store is read inside runUpdate, under the lock
  const report = await withDataLock(config.publicDir, { esperar: !args["sem-espera"], log }, () => {
    fase = "busca";
    const now = runClock();
    let loader = args.replay ? createReplayLoader(args.replay, () => now) : createLiveLoader({ log, signal: cancelar.signal });
    if (args.record) loader = withRecording(loader, args.record, log);
    return runUpdate({ loader, config, now, log, aceitar, signal: cancelar.signal, aoPublicar: () => void (fase = "publicacao") });
  });
  process.exitCode = report.exitCode;
  if (recebido) {
    console.error(`atualização interrompida por ${recebido} durante a publicação: a publicação foi concluída (${report.written.length} arquivo(s) escrito(s)); nada mais foi feito`);
    process.exit(CODIGO[recebido]);
  }
} catch (err) {
  if (!recebido) falhou(err);
  else {
    if (!(err instanceof AtualizacaoInterrompida)) console.error((err as Error).message);
    const onde = err instanceof AtualizacaoInterrompida ? err.onde : fase === "publicacao" ? "a publicação" : "a busca";
    const quadro = err instanceof AtualizacaoInterrompida || fase !== "publicacao" ? "nada foi publicado; o site ficou como estava" : "veja acima o que foi publicado";
    console.error(`atualização interrompida por ${recebido} durante ${onde}: ${quadro}`);
    // whatever still winds down (a wait between attempts, sockets) is not waited for
    process.exit(CODIGO[recebido]);
  }
}
