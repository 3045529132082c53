/**
 * npm run bench: prints the figures the issues ask for. Nothing here is asserted; goals are
 * printed next to the measurements. Run it on an otherwise idle machine.
 */
import { benchFaults } from "./faults.ts";
import { benchLive } from "./live.ts";
import { benchServe } from "./serve.ts";
import { benchBuild, benchParse, benchReplay, benchSizes } from "./pipeline.ts";
import { benchRomaneio } from "./romaneio.ts";

const only = process.argv[2];
const sections: Array<[string, () => Promise<void>]> = [
  ["parse", benchParse],
  ["replay", benchReplay],
  ["build", benchBuild],
  ["sizes", benchSizes],
  ["live", benchLive],
  ["serve", benchServe],
  ["faults", benchFaults],
  ["romaneio", benchRomaneio],
];

if (only && !sections.some(([name]) => name === only)) {
  console.error(`bench: seção desconhecida "${only}"; as seções são: ${sections.map(([name]) => name).join(", ")}`);
  process.exit(2);
}
console.log(`# Cotação Aberta — benchmark (${new Date().toISOString()}, Node ${process.version})`);
for (const [name, fn] of sections) {
  if (only && only !== name) continue;
  await fn();
}
