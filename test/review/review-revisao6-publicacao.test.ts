/**
 * Review 6 of the data push (pipeline/publish/deploy.ts pushCurrentBranch) and of the update
 * workflow, against local bare repositories only.
 *
 * - After a refused push, a clone that is kept (not a fresh runner) must be told how to get
 *   back to the remote branch: otherwise every later run is refused from the same old base.
 * - A shallow checkout (actions/checkout's default depth 1) still rebases a code-only change.
 * - The update job runs on main only: a dispatch from another branch would deploy and notify
 *   data main never gets.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { REPO_ROOT } from "../../pipeline/config.ts";

const ID = { GIT_AUTHOR_NAME: "teste", GIT_AUTHOR_EMAIL: "teste@example.invalid", GIT_COMMITTER_NAME: "teste", GIT_COMMITTER_EMAIL: "teste@example.invalid" };
let tmp: string;
let origin: string;
let runner: string;
let dev: string;

const gitIn = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, ...ID } }).trim();
const put = (root: string, rel: string, text: string) => {
  mkdirSync(join(root, rel, ".."), { recursive: true });
  writeFileSync(join(root, rel), text);
};
const changelog = (...args: string[]) =>
  spawnSync(join(REPO_ROOT, "node_modules", ".bin", "tsx"), [join(REPO_ROOT, "pipeline/cli/changelog.ts"), ...args], {
    cwd: runner,
    encoding: "utf8",
    env: { ...process.env, ...ID, COTACAO_PUBLIC_DIR: join(runner, "public"), GITHUB_TOKEN: "", GH_TOKEN: "" },
  });
const devPushes = (files: Record<string, string>, msg: string) => {
  for (const [rel, text] of Object.entries(files)) put(dev, rel, text);
  gitIn(dev, "add", "--all");
  gitIn(dev, "commit", "-q", "-m", msg);
  gitIn(dev, "push", "-q", "origin", "main");
};
const originMain = (...args: string[]) => execFileSync("git", ["--git-dir", origin, ...args], { encoding: "utf8" }).trim();

function setup(shallow: boolean): void {
  tmp = mkdtempSync(join(tmpdir(), "cotacao-revisao6-pub-"));
  origin = join(tmp, "origin.git");
  runner = join(tmp, "runner");
  dev = join(tmp, "dev");
  execFileSync("git", ["init", "-q", "--bare", "-b", "main", origin]);
  const seed = join(tmp, "seed");
  execFileSync("git", ["init", "-q", "-b", "main", seed]);
  execFileSync("cp", [join(REPO_ROOT, ".gitignore"), join(seed, ".gitignore")]);
  put(seed, "pipeline/x.ts", "export {};\n");
  put(seed, "public/index.html", "<!doctype html>\n");
  put(seed, "public/api/v1/cotacao.json", '{"soja":161}\n');
  put(seed, "public/api/v1/index.json", '{"data":"2026-09-07"}\n');
  gitIn(seed, "add", "--all");
  gitIn(seed, "commit", "-q", "-m", "início");
  put(seed, "pipeline/y.ts", "export {};\n");
  gitIn(seed, "add", "--all");
  gitIn(seed, "commit", "-q", "-m", "segundo");
  gitIn(seed, "remote", "add", "origin", origin);
  gitIn(seed, "push", "-q", "origin", "main");
  // actions/checkout fetches one commit by default; --depth needs a file:// URL locally
  execFileSync("git", shallow ? ["clone", "-q", "--depth", "1", `file://${origin}`, runner] : ["clone", "-q", origin, runner]);
  execFileSync("git", ["clone", "-q", origin, dev]);
}
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

describe("revisão 6, push: a kept clone after a refusal", () => {
  beforeEach(() => setup(false));

  it("the refusal says how to get back to the remote branch, and following it the next run is pushed", () => {
    devPushes({ "public/api/v1/index.json": '{"data":"2026-09-08"}\n' }, "site rebuilt");
    put(runner, "public/api/v1/cotacao.json", '{"soja":163}\n');
    const r = changelog("--commit", "--push");
    expect(r.status, r.stderr).not.toBe(0);
    expect(r.stderr).toContain("git reset --keep origin/main");

    // without it, the next run in this clone is refused again from the same base (forever)
    put(runner, "public/api/v1/cotacao.json", '{"soja":164}\n');
    const again = changelog("--commit", "--push");
    expect(again.status, again.stderr).not.toBe(0);
    expect(again.stderr).toContain("nunca foi validada");

    // the advised command: back to main as pushed, then the run redoes its data and is pushed
    gitIn(runner, "reset", "--keep", "origin/main");
    expect(readFileSync(join(runner, "public/api/v1/index.json"), "utf8")).toBe('{"data":"2026-09-08"}\n');
    put(runner, "public/api/v1/cotacao.json", '{"soja":164}\n');
    const ok = changelog("--commit", "--push");
    expect(ok.status, ok.stderr).toBe(0);
    expect(originMain("show", "main:public/api/v1/cotacao.json")).toBe('{"soja":164}');
    expect(originMain("show", "main:public/api/v1/index.json")).toBe('{"data":"2026-09-08"}');
  });
});

describe("revisão 6, push: a shallow checkout (actions/checkout depth 1)", () => {
  beforeEach(() => setup(true));

  it("a code-only commit on main is rebased under the data commit and pushed; a site commit is refused", () => {
    devPushes({ "pipeline/x.ts": "export const x = 1;\n" }, "code");
    put(runner, "public/api/v1/cotacao.json", '{"soja":163}\n');
    const r = changelog("--commit", "--push");
    expect(r.status, r.stderr).toBe(0);
    expect(originMain("log", "--format=%s", "-3", "main").split("\n").slice(1)).toEqual(["code", "segundo"]);
    expect(originMain("show", "main:public/api/v1/cotacao.json")).toBe('{"soja":163}');

    gitIn(dev, "pull", "-q", "--ff-only", "origin", "main");
    devPushes({ "public/api/v1/index.json": '{"data":"2026-09-08"}\n' }, "site rebuilt");
    put(runner, "public/api/v1/cotacao.json", '{"soja":165}\n');
    const s = changelog("--commit", "--push");
    expect(s.status, s.stderr).not.toBe(0);
    expect(s.stderr).toContain("public/api/v1/index.json");
    expect(originMain("log", "--format=%s", "-1", "main")).toBe("site rebuilt");
  });
});

describe("revisão 6, workflow: update runs on main only", () => {
  it("a dispatch from another branch does not push, deploy nor notify", () => {
    setup(false);
    const wf = parseDocument(readFileSync(join(REPO_ROOT, ".github", "workflows", "update.yml"), "utf8")).toJS() as {
      jobs: Record<string, { if?: string; steps: Array<{ uses?: string; with?: Record<string, unknown> }> }>;
    };
    // schedule runs always have github.ref = the default branch; workflow_dispatch has the branch chosen
    expect(wf.jobs.update!.if?.replace(/^\$\{\{\s*|\s*\}\}$/g, "")).toBe("github.ref == 'refs/heads/main'");
  });
});
