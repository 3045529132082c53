import { loadConfig } from "../config.ts";
import { runClock } from "../domain/dates.ts";
import { withDataLock } from "../publish/lock.ts";
import { runBuild } from "../run/build.ts";
import { buildAssets } from "../serve/assets.ts";
import { cliOptions, falhou, SEM_ESPERA, USAGE_SEM_ESPERA } from "./args.ts";

const USAGE = `uso: npm run build [-- --sem-espera]
  gera de novo todos os arquivos do site a partir dos históricos guardados (sem buscar nada)
${USAGE_SEM_ESPERA}`;

const args = cliOptions({ ...SEM_ESPERA }, USAGE);

try {
  const config = loadConfig();
  const log = (line: string) => console.log(line);
  await withDataLock(config.publicDir, { esperar: !args["sem-espera"], log }, async () => {
    const r = await runBuild(config, runClock());
    console.log(`build: ${r.files} arquivos gerados em ${config.publicDir}; ${r.written.length} alterado(s)`);
    for (const w of r.written) console.log(`  ${w}`);
    for (const a of r.removidos) console.log(`  ${a} (apagado: nenhum histórico o gera)`);
    // the dashboard's scripts are bundled from pipeline/serve/web and pipeline/domain
    const assets = await buildAssets(config.publicDir);
    for (const a of assets) console.log(`  ${a} (regenerado)`);
  });
} catch (err) {
  falhou(err);
}
