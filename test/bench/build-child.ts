/**
 * Runs in its own process so its peak RSS is the build's alone:
 *   tsx test/bench/build-child.ts PUBLIC_DIR FLOOR_DIR
 * prints one JSON line {buildMs, floorMs, maxRssMb, files, bytes}.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { loadConfig } from "../../pipeline/config.ts";
import { loadStore } from "../../pipeline/history/store.ts";
import { runBuild } from "../../pipeline/run/build.ts";
import { renderSite } from "../../pipeline/site/assemble.ts";

const [publicDir, floorDir] = process.argv.slice(2);
if (!publicDir || !floorDir) throw new Error("uso: build-child.ts PUBLIC_DIR FLOOR_DIR");
const config = loadConfig({ publicDir, env: {} });
const now = new Date("2026-11-20T12:00:00-03:00");

const t0 = performance.now();
await runBuild(config, now);
const buildMs = performance.now() - t0;
const maxRssMb = process.resourceUsage().maxRSS / 1024;

// the floor: the same bytes written to disk, nothing else
const store = await loadStore(publicDir);
const files = renderSite(store.series, store.status!, config);
let bytes = 0;
const t1 = performance.now();
for (const [rel, text] of files) {
  const target = join(floorDir, rel);
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, text);
  bytes += Buffer.byteLength(text);
}
const floorMs = performance.now() - t1;
console.log(JSON.stringify({ buildMs, floorMs, maxRssMb, files: files.size, bytes }));
