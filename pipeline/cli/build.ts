import { loadConfig } from "../config.ts";
import { runClock } from "../domain/dates.ts";
import { runBuild } from "../run/build.ts";

try {
  const config = loadConfig();
  const r = await runBuild(config, runClock());
  console.log(`build: ${r.files} arquivos gerados em ${config.publicDir}; ${r.written.length} alterado(s)`);
  for (const w of r.written) console.log(`  ${w}`);
} catch (err) {
  console.error((err as Error).message);
  process.exitCode = 1;
}
