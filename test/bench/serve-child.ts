/**
 * The query server in its own process for the bench (the load comes from another process):
 *   tsx test/bench/serve-child.ts PUBLIC_DIR KEY [--workers N]
 * with COTACAO_REDIS_URL read as npm start reads it; prints one line {"url": ...} when listening
 * (in a cluster: the primary, once every worker listens). The bench key, and the address the
 * load comes from, have quotas large enough for the run, so the quota code path runs on every
 * request without throttling it. With so large a quota a key's leases are LOTE_MAXIMO units; a
 * key of the default 10 000 a day leases at most 156 (1/64 of what it has left), and an address
 * is counted one request at a time: the bench's rows without a key measure that path. One process
 * answers the line "cpu" on stdin with its own process.cpuUsage() ({"cpu": µs, "usuario", "sistema"}):
 * the CPU per request measured where it is spent, which the machine's other load changes less.
 */
import cluster from "node:cluster";
import { lerRedis, lerWorkers, servirCluster, servirUmProcesso, type Instancia } from "../../pipeline/serve/cluster.ts";

const [publicDir, key, ...rest] = process.argv.slice(2);
if (!publicDir || !key) throw new Error("uso: serve-child.ts PUBLIC_DIR KEY [--workers N]");
const workers = lerWorkers(rest, {});
const inst: Instancia = { serve: { publicDir, apiKeys: [key], port: 0, host: "127.0.0.1" }, quota: { keyLimit: 1_000_000_000, freeLimit: 1_000_000_000 }, redis: lerRedis() };
if (workers === undefined) {
  const s = await servirUmProcesso(inst);
  console.log(JSON.stringify({ url: s.url }));
  process.on("SIGTERM", () => void s.close().then(() => process.exit(0)));
  process.stdin.setEncoding("utf8").on("data", (d: string) => {
    for (const linha of d.split("\n")) {
      if (linha.trim() !== "cpu") continue;
      const u = process.cpuUsage();
      console.log(JSON.stringify({ cpu: u.user + u.system, usuario: u.user, sistema: u.system }));
    }
  });
  // a parent that goes away (its end of the pipe closed) must not leave the server behind listening
  process.stdin.on("end", () => void s.close().then(() => process.exit(0)));
} else {
  const s = await servirCluster(inst, workers);
  if (cluster.isPrimary) console.log(JSON.stringify({ url: s.url }));
}
