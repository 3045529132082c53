/**
 * `npm start -- --workers N` without the build, for the cluster tests (the build is start's own
 * test): tsx test/serve/cluster-child.ts PUBLIC_DIR --workers N, with COTACAO_COTA_DIARIA and
 * COTACAO_REDIS_URL read as start reads them (and COTACAO_API_KEYS, with COTACAO_TESTE_LIMITE_CHAVE
 * as their daily limit: the leases of a key's quota are tested with a small one; and
 * COTACAO_TESTE_VALIDADE_LOTE_MS, the leases' give-back time). The primary prints {"worker": pid} for each worker
 * that comes online and {"url": ...} once all listen.
 */
import cluster from "node:cluster";
import { keysFromEnv } from "../../pipeline/serve/app.ts";
import { lerCota, lerRedis, lerWorkers, servirCluster } from "../../pipeline/serve/cluster.ts";

const [publicDir, ...rest] = process.argv.slice(2);
if (!publicDir) throw new Error("uso: cluster-child.ts PUBLIC_DIR --workers N");
const workers = lerWorkers(rest) ?? 2;
if (cluster.isPrimary) cluster.on("online", (w) => console.log(JSON.stringify({ worker: w.process.pid })));
const limiteChave = process.env.COTACAO_TESTE_LIMITE_CHAVE;
const validadeLote = process.env.COTACAO_TESTE_VALIDADE_LOTE_MS;
const s = await servirCluster(
  {
    serve: { publicDir, port: 0, host: "127.0.0.1", trustedProxies: 1, apiKeys: keysFromEnv() },
    quota: { ...lerCota(), ...(limiteChave ? { keyLimit: Number(limiteChave) } : {}) },
    redis: lerRedis(),
    ...(validadeLote ? { lotes: { validadeMs: Number(validadeLote) } } : {}),
  },
  workers,
);
if (cluster.isPrimary) console.log(JSON.stringify({ url: s.url }));
