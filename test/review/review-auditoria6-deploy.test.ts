/**
 * Audit of the path from a finished run to what users fetch: the data commit and its push
 * (`npm run changelog -- --commit --push`), against local bare repositories only.
 *
 * - A push rejected because main moved: the rebase must never combine another commit's site
 *   files with the run's into a tree no validate saw (the deploy then publishes the working tree).
 * - The data commit holds the site (and --extra files) only, never what else was staged.
 * - The workflow checks out the branch's tip when the job starts, not the commit it was queued at.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { REPO_ROOT } from "../../pipeline/config.ts";
import { gitIn, put, reposNoTeste } from "../helpers/repos.ts";

const repo = reposNoTeste({ primeiro: { "webhooks-entregues.json": '{\n  "a": [],\n  "n": 2,\n  "b": []\n}\n' } });

describe("auditoria 6, deploy: the data commit's push when main moved", () => {
  it("a new commit on main that touched the site: nothing pushed, no mix of the two trees, the validated tree kept", () => {
    repo.devPushes({ "public/api/v1/index.json": '{"data":"2026-09-08"}\n' }, "site rebuilt");
    // the run's validated data: another file of the site, so git would merge the two cleanly
    put(repo.runner, "public/api/v1/cotacao.json", '{"soja":163}\n');
    const validado = readFileSync(join(repo.runner, "public/api/v1/index.json"), "utf8");
    const r = repo.changelog("--commit", "--push");
    expect(r.status, r.stderr).not.toBe(0);
    expect(r.stderr).toContain("nunca foi validada");
    expect(r.stderr).toContain("public/api/v1/index.json");
    // main on the remote is the developer's commit alone: no tree mixing both was pushed
    expect(repo.originMain("log", "--format=%s", "main").split("\n")).toEqual(["site rebuilt", "início"]);
    // the working tree (what a deploy would publish) is still the validated one
    expect(readFileSync(join(repo.runner, "public/api/v1/index.json"), "utf8")).toBe(validado);
    expect(readFileSync(join(repo.runner, "public/api/v1/cotacao.json"), "utf8")).toBe('{"soja":163}\n');
    expect(gitIn(repo.runner, "log", "--format=%s", "-1")).not.toBe("site rebuilt");
  });

  it("a file committed with --extra that changed upstream is not merged either, even where git would merge it line by line", () => {
    repo.devPushes({ "webhooks-entregues.json": '{\n  "a": ["e1"],\n  "n": 2,\n  "b": []\n}\n' }, "outro registro");
    put(repo.runner, "webhooks-entregues.json", '{\n  "a": [],\n  "n": 2,\n  "b": ["e2"]\n}\n');
    const r = repo.changelog("--commit", "--push", "--extra", "webhooks-entregues.json");
    expect(r.status, r.stderr).not.toBe(0);
    expect(r.stderr).toContain("nunca foi validada");
    expect(r.stderr).toContain("webhooks-entregues.json");
    expect(repo.originMain("log", "--format=%s", "-1", "main")).toBe("outro registro");
    expect(readFileSync(join(repo.runner, "webhooks-entregues.json"), "utf8")).toBe('{\n  "a": [],\n  "n": 2,\n  "b": ["e2"]\n}\n');
  });

  it("the delivery record alone still goes over a site change pushed meanwhile (no site in its commit, no deploy after it)", () => {
    repo.devPushes({ "public/api/v1/index.json": '{"data":"2026-09-08"}\n' }, "site rebuilt");
    put(repo.runner, "webhooks-entregues.json", '{\n  "a": [],\n  "n": 2,\n  "b": ["e2"]\n}\n');
    const r = repo.changelog("--commit", "--push", "--extra", "webhooks-entregues.json");
    expect(r.status, r.stderr).toBe(0);
    expect(repo.originMain("log", "--format=%s", "-2", "main").split("\n")).toEqual(["registro atualizado: webhooks-entregues.json", "site rebuilt"]);
    expect(repo.originMain("show", "main:webhooks-entregues.json")).toContain('"b": ["e2"]');
  });

  it("a code-only commit on main: the data commit is rebased on top and pushed, site exactly as validated", () => {
    repo.devPushes({ "pipeline/x.ts": "export const x = 1;\n" }, "code");
    put(repo.runner, "public/api/v1/cotacao.json", '{"soja":163}\n');
    const r = repo.changelog("--commit", "--push");
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain("rebase");
    expect(repo.originMain("log", "--format=%s", "-2", "main").split("\n")[1]).toBe("code");
    expect(repo.originMain("show", "main:public/api/v1/cotacao.json")).toBe('{"soja":163}');
    expect(repo.originMain("show", "main:pipeline/x.ts")).toBe("export const x = 1;");
  });
});

describe("auditoria 6, deploy: the data commit holds the site only", () => {
  it("code staged before the run stays out of the data commit (and stays staged)", () => {
    put(repo.runner, "pipeline/x.ts", "export const wip = true;\n");
    gitIn(repo.runner, "add", "pipeline/x.ts");
    put(repo.runner, "public/api/v1/cotacao.json", '{"soja":163}\n');
    const r = repo.changelog("--commit");
    expect(r.status, r.stderr).toBe(0);
    expect(gitIn(repo.runner, "show", "--name-only", "--format=", "HEAD")).toBe("public/api/v1/cotacao.json");
    expect(gitIn(repo.runner, "diff", "--cached", "--name-only")).toBe("pipeline/x.ts");
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
