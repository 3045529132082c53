/**
 * Audit of the path from a finished run to what users fetch: the data commit and its push
 * (`npm run changelog -- --commit --push`), against local bare repositories only.
 *
 * - A push rejected because main moved: the rebase must never combine another commit's site
 *   files with the run's into a tree no validate saw (the deploy then publishes the working tree).
 * - The data commit holds the site (and --extra files) only, never what else was staged.
 * - The workflow checks out the branch's tip when the job starts, not the commit it was queued at.
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
/** A developer pushes a commit to main while the run is going. */
const devPushes = (files: Record<string, string>, msg: string) => {
  for (const [rel, text] of Object.entries(files)) put(dev, rel, text);
  gitIn(dev, "add", "--all");
  gitIn(dev, "commit", "-q", "-m", msg);
  gitIn(dev, "push", "-q", "origin", "main");
};
const originMain = (...args: string[]) => execFileSync("git", ["--git-dir", origin, ...args], { encoding: "utf8" }).trim();

beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), "cotacao-auditoria6-deploy-"));
  origin = join(tmp, "origin.git");
  runner = join(tmp, "runner");
  dev = join(tmp, "dev");
  execFileSync("git", ["init", "-q", "--bare", "-b", "main", origin]);
  const seed = join(tmp, "seed");
  execFileSync("git", ["init", "-q", "-b", "main", seed]);
  execFileSync("cp", [join(REPO_ROOT, ".gitignore"), join(seed, ".gitignore")]);
  put(seed, "pipeline/x.ts", "export {};\n");
  put(seed, "webhooks-entregues.json", '{\n  "a": [],\n  "n": 2,\n  "b": []\n}\n');
  put(seed, "public/index.html", "<!doctype html>\n");
  put(seed, "public/api/v1/cotacao.json", '{"soja":161}\n');
  put(seed, "public/api/v1/index.json", '{"data":"2026-09-07"}\n');
  gitIn(seed, "add", "--all");
  gitIn(seed, "commit", "-q", "-m", "início");
  gitIn(seed, "remote", "add", "origin", origin);
  gitIn(seed, "push", "-q", "origin", "main");
  execFileSync("git", ["clone", "-q", origin, runner]);
  execFileSync("git", ["clone", "-q", origin, dev]);
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

describe("auditoria 6, deploy: the data commit's push when main moved", () => {
  it("a new commit on main that touched the site: nothing pushed, no mix of the two trees, the validated tree kept", () => {
    devPushes({ "public/api/v1/index.json": '{"data":"2026-09-08"}\n' }, "site rebuilt");
    // the run's validated data: another file of the site, so git would merge the two cleanly
    put(runner, "public/api/v1/cotacao.json", '{"soja":163}\n');
    const validado = readFileSync(join(runner, "public/api/v1/index.json"), "utf8");
    const r = changelog("--commit", "--push");
    expect(r.status, r.stderr).not.toBe(0);
    expect(r.stderr).toContain("nunca foi validada");
    expect(r.stderr).toContain("public/api/v1/index.json");
    // main on the remote is the developer's commit alone: no tree mixing both was pushed
    expect(originMain("log", "--format=%s", "main").split("\n")).toEqual(["site rebuilt", "início"]);
    // the working tree (what a deploy would publish) is still the validated one
    expect(readFileSync(join(runner, "public/api/v1/index.json"), "utf8")).toBe(validado);
    expect(readFileSync(join(runner, "public/api/v1/cotacao.json"), "utf8")).toBe('{"soja":163}\n');
    expect(gitIn(runner, "log", "--format=%s", "-1")).not.toBe("site rebuilt");
  });

  it("a file committed with --extra that changed upstream is not merged either, even where git would merge it line by line", () => {
    devPushes({ "webhooks-entregues.json": '{\n  "a": ["e1"],\n  "n": 2,\n  "b": []\n}\n' }, "outro registro");
    put(runner, "webhooks-entregues.json", '{\n  "a": [],\n  "n": 2,\n  "b": ["e2"]\n}\n');
    const r = changelog("--commit", "--push", "--extra", "webhooks-entregues.json");
    expect(r.status, r.stderr).not.toBe(0);
    expect(r.stderr).toContain("nunca foi validada");
    expect(r.stderr).toContain("webhooks-entregues.json");
    expect(originMain("log", "--format=%s", "-1", "main")).toBe("outro registro");
    expect(readFileSync(join(runner, "webhooks-entregues.json"), "utf8")).toBe('{\n  "a": [],\n  "n": 2,\n  "b": ["e2"]\n}\n');
  });

  it("the delivery record alone still goes over a site change pushed meanwhile (no site in its commit, no deploy after it)", () => {
    devPushes({ "public/api/v1/index.json": '{"data":"2026-09-08"}\n' }, "site rebuilt");
    put(runner, "webhooks-entregues.json", '{\n  "a": [],\n  "n": 2,\n  "b": ["e2"]\n}\n');
    const r = changelog("--commit", "--push", "--extra", "webhooks-entregues.json");
    expect(r.status, r.stderr).toBe(0);
    expect(originMain("log", "--format=%s", "-2", "main").split("\n")).toEqual(["registro atualizado: webhooks-entregues.json", "site rebuilt"]);
    expect(originMain("show", "main:webhooks-entregues.json")).toContain('"b": ["e2"]');
  });

  it("a code-only commit on main: the data commit is rebased on top and pushed, site exactly as validated", () => {
    devPushes({ "pipeline/x.ts": "export const x = 1;\n" }, "code");
    put(runner, "public/api/v1/cotacao.json", '{"soja":163}\n');
    const r = changelog("--commit", "--push");
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain("rebase");
    expect(originMain("log", "--format=%s", "-2", "main").split("\n")[1]).toBe("code");
    expect(originMain("show", "main:public/api/v1/cotacao.json")).toBe('{"soja":163}');
    expect(originMain("show", "main:pipeline/x.ts")).toBe("export const x = 1;");
  });
});

describe("auditoria 6, deploy: the data commit holds the site only", () => {
  it("code staged before the run stays out of the data commit (and stays staged)", () => {
    put(runner, "pipeline/x.ts", "export const wip = true;\n");
    gitIn(runner, "add", "pipeline/x.ts");
    put(runner, "public/api/v1/cotacao.json", '{"soja":163}\n');
    const r = changelog("--commit");
    expect(r.status, r.stderr).toBe(0);
    expect(gitIn(runner, "show", "--name-only", "--format=", "HEAD")).toBe("public/api/v1/cotacao.json");
    expect(gitIn(runner, "diff", "--cached", "--name-only")).toBe("pipeline/x.ts");
  });
});

describe("auditoria 6, deploy: the workflow", () => {
  it("update: checkout takes the branch's tip at job start (a run queued behind another starts from its commit)", () => {
    const wf = parseDocument(readFileSync(join(REPO_ROOT, ".github", "workflows", "update.yml"), "utf8")).toJS() as {
      jobs: Record<string, { steps: Array<{ uses?: string; with?: Record<string, unknown> }> }>;
    };
    const checkout = wf.jobs.update!.steps.find((s) => s.uses?.startsWith("actions/checkout@"))!;
    // without ref, actions/checkout fetches github.sha, fixed when the run was queued
    expect(checkout.with?.ref).toBe("${{ github.ref }}");
  });
});
