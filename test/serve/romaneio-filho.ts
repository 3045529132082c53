/**
 * `npm start` without the build, with romaneio on, for the tests that need a server process of its
 * own (strace watches it; --workers N makes a cluster): tsx test/serve/romaneio-filho.ts
 * PUBLIC_DIR [--workers N], with COTACAO_ROMANEIO_* read as start reads them. The primary prints
 * {"url": ...} once it serves.
 */
import cluster from "node:cluster";
import { lerConfigRomaneio, lerCota, lerRedis, lerWorkers, servirCluster, servirUmProcesso, type Instancia } from "../../pipeline/serve/cluster.ts";

const [publicDir, ...rest] = process.argv.slice(2);
if (!publicDir) throw new Error("uso: romaneio-filho.ts PUBLIC_DIR [--workers N]");
const workers = lerWorkers(rest, {});
const inst: Instancia = { serve: { publicDir, port: 0, host: "127.0.0.1" }, quota: lerCota(), redis: lerRedis(), romaneio: lerConfigRomaneio() };
const s = workers === undefined ? await servirUmProcesso(inst) : await servirCluster(inst, workers);
if (cluster.isPrimary) console.log(JSON.stringify({ url: s.url, pid: process.pid }));
if (workers === undefined) process.once("SIGTERM", () => void s.close().then(() => process.exit(0)));
