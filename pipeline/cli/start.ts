import cluster from "node:cluster";
import { loadConfig } from "../config.ts";
import { runClock } from "../domain/dates.ts";
import { withDataLock } from "../publish/lock.ts";
import { runBuild } from "../run/build.ts";
import { keysFromEnv } from "../serve/app.ts";
import { buildAssets } from "../serve/assets.ts";
import { lerConfigRomaneio, lerCota, lerRedis, lerWorkers, linhaRomaneio, servirCluster, servirUmProcesso, type Instancia } from "../serve/cluster.ts";

/**
 * npm start: rebuild the site from the committed data, then serve public/ and the query
 * interface. PORT (default 8080), HOST (default 127.0.0.1; 0.0.0.0 to expose it),
 * COTACAO_API_KEYS / COTACAO_API_KEYS_FILE (keys of 10,000 requests a day),
 * COTACAO_TRUST_PROXY (how many proxies in front append to X-Forwarded-For; default 0: ignore it),
 * COTACAO_COTA_DIARIA (requests a day per address without a key; default 100),
 * COTACAO_REDIS_URL / COTACAO_REDIS_FALHA (the quota in Redis, shared by every instance; abrir or
 * fechar when it is down), `--workers N` / COTACAO_WORKERS (a cluster of N processes on one port;
 * 0 or auto: all cores), COTACAO_ROMANEIO_KEYS / _COTA_DIARIA / _MAX_MB / _TEMPO_S / _WORKERS / _SIMULTANEAS
 * (POST /api/v1/romaneio: the keys that may read receipts, their quota, the caps, the OCR engine
 * of each process; with it on, a request may take 120 s to arrive, more past 10 MB: see
 * tempoRequisicaoMs in ../serve/app.ts). The build runs once, in the primary; workers only serve.
 */
function inteiro(nome: string, valor: string | undefined, padrao: number, max: number): number {
  if (valor === undefined || valor.trim() === "") return padrao;
  if (!/^\d+$/.test(valor.trim()) || Number(valor) > max) {
    throw new Error(`${nome} inválido: "${valor}" (use um inteiro de 0 a ${max})`);
  }
  return Number(valor);
}

try {
  const config = loadConfig();
  // everything read from the environment is checked before the build: a typo stops at once
  const workers = lerWorkers(process.argv.slice(2));
  const keys = keysFromEnv();
  const inst: Instancia = {
    serve: {
      publicDir: config.publicDir,
      port: inteiro("PORT", process.env.PORT, 8080, 65535),
      host: process.env.HOST || "127.0.0.1",
      apiKeys: keys,
      trustedProxies: inteiro("COTACAO_TRUST_PROXY", process.env.COTACAO_TRUST_PROXY, 0, 10),
    },
    quota: lerCota(),
    redis: lerRedis(),
    romaneio: lerConfigRomaneio(),
  };
  if (workers !== undefined && cluster.isWorker) {
    await servirCluster(inst, workers);
  } else {
    // the rebuild under the data directory's lock (an interrupted publish is recovered first);
    // serving only reads, so the lock is released before the server starts
    const { r, assets } = await withDataLock(config.publicDir, { esperar: true, log: (l) => console.log(l) }, async () => {
      const r = await runBuild(config, runClock());
      return { r, assets: await buildAssets(config.publicDir) };
    });
    console.log(`build: ${r.files} arquivos em ${config.publicDir}; ${r.written.length + assets.length} alterado(s)`);
    const server = workers === undefined ? await servirUmProcesso(inst) : await servirCluster(inst, workers);
    console.log(`Cotação Aberta servindo em ${server.url}`);
    console.log(`  consulta: ${server.url}api/v1/cotacao?uf=MS   simulador: ${server.url}simulador/`);
    console.log(`  ${linhaRomaneio(inst.romaneio)}`);
    console.log(`  ${keys.length} chave(s) de API configurada(s); cota ${inst.redis ? `no Redis (se cair: ${inst.redis.falha})` : workers === undefined ? "em memória" : "no processo primário"}; Ctrl+C para parar`);
    if (workers === undefined) {
      const stop = () => void server.close().then(() => process.exit(0));
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    }
  }
} catch (err) {
  console.error((err as Error).message);
  process.exitCode = 1;
}
