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
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { REPO_ROOT } from "../../pipeline/config.ts";
import { gitIn, put, reposNoTeste } from "../helpers/repos.ts";

const depois = [{ arquivos: { "pipeline/y.ts": "export {};\n" }, mensagem: "segundo" }];

describe("revisão 6, push: a kept clone after a refusal", () => {
  const repo = reposNoTeste({ depois });

  it("the refusal says how to get back to the remote branch, and following it the next run is pushed", () => {
    repo.devPushes({ "public/api/v1/index.json": '{"data":"2026-09-08"}\n' }, "site rebuilt");
    put(repo.runner, "public/api/v1/cotacao.json", '{"soja":163}\n');
    const r = repo.changelog("--commit", "--push");
    expect(r.status, r.stderr).not.toBe(0);
    expect(r.stderr).toContain("git reset --keep origin/main");

    // without it, the next run in this clone is refused again from the same base (forever)
    put(repo.runner, "public/api/v1/cotacao.json", '{"soja":164}\n');
    const again = repo.changelog("--commit", "--push");
    expect(again.status, again.stderr).not.toBe(0);
    expect(again.stderr).toContain("nunca foi validada");

    // the advised command: back to main as pushed, then the run redoes its data and is pushed
    gitIn(repo.runner, "reset", "--keep", "origin/main");
    expect(readFileSync(join(repo.runner, "public/api/v1/index.json"), "utf8")).toBe('{"data":"2026-09-08"}\n');
    put(repo.runner, "public/api/v1/cotacao.json", '{"soja":164}\n');
    const ok = repo.changelog("--commit", "--push");
    expect(ok.status, ok.stderr).toBe(0);
    expect(repo.originMain("show", "main:public/api/v1/cotacao.json")).toBe('{"soja":164}');
    expect(repo.originMain("show", "main:public/api/v1/index.json")).toBe('{"data":"2026-09-08"}');
  });
});

describe("revisão 6, push: a shallow checkout (actions/checkout depth 1)", () => {
  const repo = reposNoTeste({ depois, raso: true });

  it("a code-only commit on main is rebased under the data commit and pushed; a site commit is refused", () => {
    repo.devPushes({ "pipeline/x.ts": "export const x = 1;\n" }, "code");
    put(repo.runner, "public/api/v1/cotacao.json", '{"soja":163}\n');
    const r = repo.changelog("--commit", "--push");
    expect(r.status, r.stderr).toBe(0);
    expect(repo.originMain("log", "--format=%s", "-3", "main").split("\n").slice(1)).toEqual(["code", "segundo"]);
    expect(repo.originMain("show", "main:public/api/v1/cotacao.json")).toBe('{"soja":163}');

    gitIn(repo.dev, "pull", "-q", "--ff-only", "origin", "main");
    repo.devPushes({ "public/api/v1/index.json": '{"data":"2026-09-08"}\n' }, "site rebuilt");
    put(repo.runner, "public/api/v1/cotacao.json", '{"soja":165}\n');
    const s = repo.changelog("--commit", "--push");
    expect(s.status, s.stderr).not.toBe(0);
    expect(s.stderr).toContain("public/api/v1/index.json");
    expect(repo.originMain("log", "--format=%s", "-1", "main")).toBe("site rebuilt");
  });
});

describe("revisão 6, workflow: update runs on main only", () => {
  it("a dispatch from another branch does not push, deploy nor notify", () => {
    const wf = parseDocument(readFileSync(join(REPO_ROOT, ".github", "workflows", "update.yml"), "utf8")).toJS() as {
      jobs: Record<string, { if?: string; steps: Array<{ uses?: string; with?: Record<string, unknown> }> }>;
    };
    // schedule runs always have github.ref = the default branch; workflow_dispatch has the branch chosen
    expect(wf.jobs.update!.if?.replace(/^\$\{\{\s*|\s*\}\}$/g, "")).toBe("github.ref == 'refs/heads/main'");
  });
});
