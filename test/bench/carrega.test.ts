import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { expect, it } from "vitest";
import { REPO_ROOT } from "../../pipeline/config.ts";

// `npm run bench` runs outside vitest: a module it imports that pulls in vitest (a test helper's
// beforeAll, say) breaks every section. An unknown section loads every module, then stops.
it("npm run bench loads outside vitest, and names its sections when one is unknown", () => {
  const r = spawnSync(join(REPO_ROOT, "node_modules/.bin/tsx"), ["test/bench/run.ts", "nenhuma"], { cwd: REPO_ROOT, encoding: "utf8" });
  expect(r.stderr).not.toMatch(/Vitest failed/);
  expect(r.stderr).toContain('bench: seção desconhecida "nenhuma"; as seções são: parse, replay, build, sizes, live, serve, faults, romaneio');
  expect(r.status).toBe(2);
});
