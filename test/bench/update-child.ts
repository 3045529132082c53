/**
 * One update in its own process, timed from inside (the process's start, tsx compiling the
 * pipeline, is not the update's work):
 *   tsx test/bench/update-child.ts PUBLIC_DIR PAGES_DIR NOW_ISO
 * prints one JSON line {ms, maxRssMb, written, exitCode, log}.
 */
import { loadConfig } from "../../pipeline/config.ts";
import { createReplayLoader } from "../../pipeline/fetch/replay.ts";
import { runUpdate } from "../../pipeline/run/update.ts";

const [publicDir, pages, nowIso] = process.argv.slice(2);
if (!publicDir || !pages || !nowIso) throw new Error("uso: update-child.ts PUBLIC_DIR PAGES_DIR NOW_ISO");
const env = { ...process.env, COTACAO_FONTES_DESATIVADAS: process.env.COTACAO_FONTES_DESATIVADAS ?? "" };
const config = loadConfig({ publicDir, env });
const now = new Date(nowIso);
const log: string[] = [];
const t = performance.now();
const r = await runUpdate({ loader: createReplayLoader(pages, () => now, env), config, now, env, log: (l) => log.push(l) });
const ms = performance.now() - t;
console.log(JSON.stringify({ ms, maxRssMb: process.resourceUsage().maxRSS / 1024, written: r.written, exitCode: r.exitCode, log }));
