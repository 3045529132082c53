/**
 * The build and its floor, each in a process of its own (a fresh heap, and the peak RSS of that
 * work alone):
 *   tsx test/bench/build-child.ts build PUBLIC_DIR    -> {buildMs, maxRssMb}
 *   tsx test/bench/build-child.ts piso PUBLIC_DIR FLOOR_DIR -> {floorMs, files, bytes, inputBytes}
 * each printing one JSON line.
 *
 * The floor is what any build must do at least: read and parse the same series files, and write
 * the same bytes (read into memory beforehand, so rendering costs it nothing), without checks,
 * fsync or atomic publishing. It runs after the build, on the tree the build wrote, three times
 * (the fastest counts).
 */
import { spawnSync } from "node:child_process";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { loadConfig } from "../../pipeline/config.ts";
import { seriesJsonPath } from "../../pipeline/domain/series.ts";
import { runBuild } from "../../pipeline/run/build.ts";
import { allSeries } from "../../pipeline/sources/index.ts";
import { listFiles } from "../helpers/pipeline.ts";

const [modo, publicDir, floorDir] = process.argv.slice(2);
if (!publicDir || (modo !== "build" && modo !== "piso") || (modo === "piso" && !floorDir)) throw new Error("uso: build-child.ts build PUBLIC_DIR | piso PUBLIC_DIR FLOOR_DIR");

// each measurement starts with no other writes pending: the kernel's flushing of one must not
// slow the next down (an fsync waits for every dirty page of its filesystem's journal)
spawnSync("sync");

if (modo === "build") {
  const t0 = performance.now();
  await runBuild(loadConfig({ publicDir, env: {} }), new Date("2026-11-20T12:00:00-03:00"));
  console.log(JSON.stringify({ buildMs: performance.now() - t0, maxRssMb: process.resourceUsage().maxRSS / 1024 }));
} else {
  const out = new Map<string, Buffer>();
  for (const f of await listFiles(publicDir)) out.set(relative(publicDir, f), await readFile(f));
  let bytes = 0;
  let inputBytes = 0;
  // a floor is the least it takes: the fastest of three runs (this machine's other load varies)
  let floorMs = Infinity;
  for (let vez = 0; vez < 3; vez++) {
    await rm(floorDir!, { recursive: true, force: true });
    spawnSync("sync");
    bytes = 0;
    inputBytes = 0;
    const t1 = performance.now();
    for (const def of allSeries()) {
      const text = await readFile(join(publicDir, seriesJsonPath(def)), "utf8").catch(() => null);
      if (text === null) continue;
      inputBytes += Buffer.byteLength(text);
      JSON.parse(text);
    }
    for (const [rel, b] of out) {
      const target = join(floorDir!, rel);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, b);
      bytes += b.length;
    }
    floorMs = Math.min(floorMs, performance.now() - t1);
  }
  console.log(JSON.stringify({ floorMs, files: out.size, bytes, inputBytes }));
}
