/**
 * The README's promise: on a fresh clone, `npm install && npm start` serves the site. start
 * rebuilds the site from the committed data (no network, no source fetched) and serves it; here on
 * a copy of the committed public/, on a free port.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../pipeline/config.ts";

let child: ChildProcess | undefined;
let tmp: string | undefined;
afterAll(() => {
  if (child && child.exitCode === null) child.kill("SIGTERM");
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** Starts `npm start`'s command and resolves with the URL it prints. */
function start(publicDir: string): Promise<string> {
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> };
  expect(pkg.scripts.start).toBe("tsx pipeline/cli/start.ts");
  child = spawn(join(REPO_ROOT, "node_modules", ".bin", "tsx"), ["pipeline/cli/start.ts"], {
    cwd: REPO_ROOT,
    env: { ...process.env, COTACAO_PUBLIC_DIR: publicDir, PORT: "0", HOST: "127.0.0.1", COTACAO_API_KEYS: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  return new Promise((resolve, reject) => {
    child!.stdout!.on("data", (d: Buffer) => {
      out += String(d);
      const m = /servindo em (http:\/\/\S+\/)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child!.stderr!.on("data", (d: Buffer) => (out += String(d)));
    child!.on("exit", (code) => reject(new Error(`npm start saiu com ${code} antes de servir:\n${out}`)));
  });
}

describe("npm start on a fresh clone", () => {
  it("builds from the committed data and serves the dashboard and the API", async () => {
    tmp = mkdtempSync(join(tmpdir(), "cotacao-start-"));
    const publicDir = join(tmp, "public");
    cpSync(join(REPO_ROOT, "public"), publicDir, { recursive: true });
    const url = await start(publicDir);
    const home = await fetch(url);
    expect(home.status).toBe(200);
    expect(home.headers.get("content-type")).toMatch(/text\/html/);
    expect(await home.text()).toContain("Cotação Aberta");
    const api = await fetch(`${url}api/v1/cotacao?uf=MS`);
    expect(api.status).toBe(200);
    expect(((await api.json()) as { boi_gordo_uf: { uf: string } }).boi_gordo_uf.uf).toBe("MS");
  }, 240_000);
});
