/**
 * Runs in its own process so its peak RSS is the build's alone:
 *   tsx test/bench/build-child.ts PUBLIC_DIR FLOOR_DIR
 * prints one JSON line {buildMs, floorMs, maxRssMb, files, bytes, inputBytes}.
 *
 * The floor is what any build must do at least: read and parse the same series files, and write
 * the same bytes (held in memory beforehand, so rendering costs it nothing), without checks,
 * fsync or atomic publishing.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { loadConfig } from "../../pipeline/config.ts";
import { seriesJsonPath } from "../../pipeline/domain/series.ts";
import { runBuild } from "../../pipeline/run/build.ts";
import { allSeries } from "../../pipeline/sources/index.ts";
import { listFiles } from "../helpers/pipeline.ts";

const [publicDir, floorDir] = process.argv.slice(2);
if (!publicDir || !floorDir) throw new Error("uso: build-child.ts PUBLIC_DIR FLOOR_DIR");
const config = loadConfig({ publicDir, env: {} });
const now = new Date("2026-11-20T12:00:00-03:00");

const t0 = performance.now();
await runBuild(config, now);
const buildMs = performance.now() - t0;
const maxRssMb = process.resourceUsage().maxRSS / 1024;

// the floor, on the tree the build wrote
const out = new Map<string, Buffer>();
for (const f of await listFiles(publicDir)) out.set(relative(publicDir, f), await readFile(f));
let bytes = 0;
let inputBytes = 0;
const t1 = performance.now();
for (const def of allSeries()) {
  const text = await readFile(join(publicDir, seriesJsonPath(def)), "utf8").catch(() => null);
  if (text === null) continue;
  inputBytes += Buffer.byteLength(text);
  JSON.parse(text);
}
for (const [rel, b] of out) {
  const target = join(floorDir, rel);
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, b);
  bytes += b.length;
}
const floorMs = performance.now() - t1;
console.log(JSON.stringify({ buildMs, floorMs, maxRssMb, files: out.size, bytes, inputBytes }));
