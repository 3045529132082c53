/**
 * Temp files never reach git: `changelog --commit` first recovers an interrupted publish (under
 * the data directory's lock), then refuses, committing nothing, while any temp or control file
 * is in the site tree or among what it would stage.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../pipeline/config.ts";

const ID = { GIT_AUTHOR_NAME: "teste", GIT_AUTHOR_EMAIL: "teste@example.invalid", GIT_COMMITTER_NAME: "teste", GIT_COMMITTER_EMAIL: "teste@example.invalid" };
let repo: string;
let site: string;
const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, encoding: "utf8", env: { ...process.env, ...ID } }).trim();
const write = (rel: string, text: string) => {
  mkdirSync(join(site, rel, ".."), { recursive: true });
  writeFileSync(join(site, rel), text);
};
const changelog = (...args: string[]) =>
  spawnSync(join(REPO_ROOT, "node_modules", ".bin", "tsx"), [join(REPO_ROOT, "pipeline/cli/changelog.ts"), ...args], {
    cwd: repo,
    encoding: "utf8",
    env: { ...process.env, ...ID, COTACAO_PUBLIC_DIR: site, GITHUB_TOKEN: "", GH_TOKEN: "" },
  });

beforeEach(() => {
  repo = mkdtempSync(join(tmpdir(), "cotacao-changelog-temp-"));
  site = join(repo, "public");
  git("init", "-q", "-b", "main");
  // the project's .gitignore: the rules under test
  execFileSync("cp", [join(REPO_ROOT, ".gitignore"), join(repo, ".gitignore")]);
  write("index.html", "<!doctype html>\n");
  git("add", "-A");
  git("commit", "-q", "-m", "início");
});
afterEach(() => rmSync(repo, { recursive: true, force: true }));

describe("changelog --commit and temp files", () => {
  it("refuses while a live run's temp file is in the site, naming it; nothing is committed", () => {
    write("index.html", "<!doctype html><title>novo</title>\n");
    // a temp file of a live process (this one): recovery must leave it, so changelog refuses
    write(`api/v1/cotacao.json.tmp-${process.pid}`, "{ metade");
    const r = changelog("--commit");
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`changelog: arquivos temporários ou de controle no site; nada foi commitado:\n  public/api/v1/cotacao.json.tmp-${process.pid}\n`);
    expect(git("rev-list", "--count", "HEAD")).toBe("1");
    expect(git("diff", "--cached", "--name-only")).toBe("");
  });

  it("refuses when .gitignore lost a rule and git would stage a temp file named outside the site", () => {
    writeFileSync(join(repo, ".gitignore"), "");
    writeFileSync(join(repo, `registro.json.tmp-${process.pid}`), "{}");
    write("index.html", "<!doctype html><title>novo</title>\n");
    const r = changelog("--commit", "--extra", `registro.json.tmp-${process.pid}`);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`  registro.json.tmp-${process.pid}\n`);
    expect(git("rev-list", "--count", "HEAD")).toBe("1");
  });

  it("recovers an interrupted publish first: a dead run's staging and temp files are discarded, never committed", () => {
    write("index.html", "<!doctype html><title>novo</title>\n");
    write(".cotacao-staging/api/v1/cotacao.json", "{ preparado e nunca confirmado");
    write("api/v1/status.json.tmp-999999999", "{ metade");
    const r = changelog("--commit");
    expect(r.stderr).toContain("changelog: recuperação: publicação interrompida antes de confirmada descartada (1 arquivo(s) preparado(s) removido(s))");
    expect(r.status, r.stderr).toBe(0);
    expect(git("show", "--name-only", "--format=", "HEAD")).toBe("public/index.html");
    expect(git("status", "--porcelain", "--ignored")).toBe("");
  });

  it(".gitignore covers the lock, its temp and breaker files, the staging directory, the journal and temp files", () => {
    for (const f of [".cotacao.lock", ".cotacao.lock.123.abcdef", ".cotacao.lock.quebra", ".cotacao-staging/api/v1/x.json", ".cotacao-journal.json", ".cotacao-journal.json.tmp", "api/v1/x.json.tmp-123"]) write(f, "x");
    expect(git("status", "--porcelain", "--untracked-files=all")).toBe("");
  });
});
