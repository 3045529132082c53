import { loadConfig } from "../config.ts";
import { runClock } from "../domain/dates.ts";
import { runBuild } from "../run/build.ts";
import { buildAssets } from "../serve/assets.ts";

try {
  const config = loadConfig();
  const r = await runBuild(config, runClock());
  console.log(`build: ${r.files} arquivos gerados em ${config.publicDir}; ${r.written.length} alterado(s)`);
  for (const w of r.written) console.log(`  ${w}`);
  // the dashboard's scripts are bundled from pipeline/serve/web and pipeline/domain
  const assets = await buildAssets(config.publicDir);
  for (const a of assets) console.log(`  ${a} (regenerado)`);
} catch (err) {
  console.error((err as Error).message);
  process.exitCode = 1;
}
