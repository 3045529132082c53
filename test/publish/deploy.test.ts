/** deploy against a local bare repository: branch content, .nojekyll, one commit, token never printed. */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deploy, gitAuthEnv, maskSecrets, pushCurrentBranch, tokenFromEnv } from "../../pipeline/publish/deploy.ts";

const ID = { GIT_AUTHOR_NAME: "teste", GIT_AUTHOR_EMAIL: "teste@example.invalid", GIT_COMMITTER_NAME: "teste", GIT_COMMITTER_EMAIL: "teste@example.invalid" };
let tmp: string;
let bare: string;
let work: string;
let site: string;

const inBare = (...args: string[]) => execFileSync("git", ["--git-dir", bare, ...args], { encoding: "utf8" }).trim();
const files = () => inBare("ls-tree", "-r", "--name-only", "gh-pages").split("\n").sort();
const write = (rel: string, text: string) => {
  mkdirSync(join(site, rel, ".."), { recursive: true });
  writeFileSync(join(site, rel), text);
};

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), "cotacao-deploy-test-"));
  bare = join(tmp, "origin.git");
  work = join(tmp, "work");
  execFileSync("git", ["init", "-q", "--bare", bare]);
  // a working repository like the project's: sources, tests and the site under public/
  execFileSync("git", ["init", "-q", "-b", "main", work]);
  site = join(work, "public");
  writeFileSync(join(work, "package.json"), "{}\n");
  mkdirSync(join(work, "pipeline"));
  writeFileSync(join(work, "pipeline", "x.ts"), "export {};\n");
  write("api/v1/cotacao.json", '{"soja":161}\n');
  write("api/v1/cotacao/soja.json", '{"valor":161}\n');
  write("index.html", "<!doctype html><title>Cotação Aberta</title>\n");
  const g = (...a: string[]) => execFileSync("git", a, { cwd: work, env: { ...process.env, ...ID } });
  g("add", "-A");
  g("commit", "-q", "-m", "data");
  g("remote", "add", "origin", bare);
  g("push", "-q", "origin", "main");
});

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe("deploy", () => {
  const env = { ...ID };

  it("publishes only the site and a .nojekyll to gh-pages of origin", async () => {
    const r = await deploy({ dir: site, cwd: work, env });
    expect(r.published).toBe(true);
    expect(r.files).toBe(3);
    expect(files()).toEqual([".nojekyll", "api/v1/cotacao.json", "api/v1/cotacao/soja.json", "index.html"]);
    expect(inBare("show", "gh-pages:api/v1/cotacao/soja.json")).toBe('{"valor":161}');
    expect(inBare("rev-list", "--count", "gh-pages")).toBe("1");
    expect(inBare("log", "-1", "--format=%s", "gh-pages")).toMatch(/^Deploy site from [0-9a-f]{12}$/);
    // main is untouched
    expect(inBare("rev-list", "--count", "main")).toBe("1");
  });

  it("a second deploy with a changed site leaves one commit, with removed files gone", async () => {
    write("api/v1/cotacao/soja.json", '{"valor":162}\n');
    rmSync(join(site, "index.html"));
    write("api/v1/status.json", "{}\n");
    const before = inBare("rev-parse", "gh-pages");
    const r = await deploy({ dir: site, cwd: work, env });
    expect(r.published).toBe(true);
    expect(inBare("rev-parse", "gh-pages")).not.toBe(before);
    expect(inBare("rev-list", "--count", "gh-pages")).toBe("1");
    expect(files()).toEqual([".nojekyll", "api/v1/cotacao.json", "api/v1/cotacao/soja.json", "api/v1/status.json"]);
    expect(inBare("show", "gh-pages:api/v1/cotacao/soja.json")).toBe('{"valor":162}');
  });

  it("never ships the data directory's lock nor temp files", async () => {
    const other = join(tmp, "control.git");
    execFileSync("git", ["init", "-q", "--bare", other]);
    const junk = [".cotacao.lock", "api/v1/cotacao.json.tmp-4242"];
    for (const f of junk) write(f, "{ metade");
    try {
      const r = await deploy({ dir: site, cwd: work, env, repo: other });
      expect(r.files).toBe(3);
      expect(execFileSync("git", ["--git-dir", other, "ls-tree", "-r", "--name-only", "gh-pages"], { encoding: "utf8" }).trim().split("\n").sort()).toEqual([
        ".nojekyll",
        "api/v1/cotacao.json",
        "api/v1/cotacao/soja.json",
        "api/v1/status.json",
      ]);
    } finally {
      for (const f of junk) rmSync(join(site, f));
    }
  });

  it("refuses a site with an interrupted publish (its journal or staging): the tree is between two versions", async () => {
    const other = join(tmp, "interrupted.git");
    execFileSync("git", ["init", "-q", "--bare", other]);
    for (const f of [".cotacao-journal.json", ".cotacao-staging/api/v1/cotacao.json"]) {
      write(f, "{ metade");
      try {
        await expect(deploy({ dir: site, cwd: work, env, repo: other })).rejects.toThrow(/publicação interrompida .*nada foi publicado\. Rode npm run validate/);
      } finally {
        rmSync(join(site, f.split("/")[0]!), { recursive: true });
      }
      expect(execFileSync("git", ["--git-dir", other, "branch", "--list"], { encoding: "utf8" }).trim()).toBe("");
    }
  });

  it("the same site again pushes nothing", async () => {
    const before = inBare("rev-parse", "gh-pages");
    const r = await deploy({ dir: site, cwd: work, env });
    expect(r.published).toBe(false);
    expect(r.commit).toBe(before);
    expect(inBare("rev-parse", "gh-pages")).toBe(before);
  });

  it("--repo sends it elsewhere, to another branch if asked", async () => {
    const other = join(tmp, "other.git");
    execFileSync("git", ["init", "-q", "--bare", other]);
    const r = await deploy({ dir: site, cwd: work, env, repo: other, branch: "site" });
    expect(r.published).toBe(true);
    expect(execFileSync("git", ["--git-dir", other, "ls-tree", "-r", "--name-only", "site"], { encoding: "utf8" })).toContain(".nojekyll");
  });

  it("squashes a branch that had grown a history", async () => {
    const other = join(tmp, "grown.git");
    execFileSync("git", ["init", "-q", "--bare", other]);
    await deploy({ dir: site, cwd: work, env, repo: other });
    // someone pushed a second commit on top of the deployed one
    const clone = join(tmp, "grown-clone");
    execFileSync("git", ["clone", "-q", "-b", "gh-pages", other, clone]);
    execFileSync("git", ["commit", "-q", "--allow-empty", "-m", "manual"], { cwd: clone, env: { ...process.env, ...ID } });
    execFileSync("git", ["push", "-q", "origin", "gh-pages"], { cwd: clone });
    const r = await deploy({ dir: site, cwd: work, env, repo: other });
    expect(r.published).toBe(true);
    expect(execFileSync("git", ["--git-dir", other, "rev-list", "--count", "gh-pages"], { encoding: "utf8" }).trim()).toBe("1");
  });

  it("refuses a missing or empty site dir with a clear message", async () => {
    await expect(deploy({ dir: join(tmp, "nada"), cwd: work, env })).rejects.toThrow(/diretório do site não existe/);
    const empty = join(tmp, "vazio");
    mkdirSync(empty);
    await expect(deploy({ dir: empty, cwd: work, env })).rejects.toThrow(/diretório do site está vazio/);
  });
});

describe("push of the data commit", () => {
  it("when main moved during the run (a code push), rebases the data commit on top and pushes", async () => {
    const origin = join(tmp, "push-origin.git");
    const runner = join(tmp, "push-runner");
    const dev = join(tmp, "push-dev");
    const envG = { ...process.env, ...ID };
    execFileSync("git", ["init", "-q", "--bare", "-b", "main", origin]);
    execFileSync("git", ["clone", "-q", work, runner]);
    execFileSync("git", ["remote", "set-url", "origin", origin], { cwd: runner });
    execFileSync("git", ["push", "-q", "origin", "main"], { cwd: runner });
    execFileSync("git", ["clone", "-q", origin, dev]);
    // a developer pushes code while the update runs
    writeFileSync(join(dev, "README.md"), "novo\n");
    execFileSync("git", ["add", "README.md"], { cwd: dev });
    execFileSync("git", ["commit", "-q", "-m", "code"], { cwd: dev, env: envG });
    execFileSync("git", ["push", "-q", "origin", "main"], { cwd: dev });
    // the run commits its data on the old main
    writeFileSync(join(runner, "public", "api", "v1", "cotacao.json"), '{"soja":163}\n');
    execFileSync("git", ["commit", "-q", "-am", "dados"], { cwd: runner, env: envG });
    const logs: string[] = [];
    await pushCurrentBranch(runner, { env: { ...ID }, log: (l) => logs.push(l) });
    expect(logs.join("\n")).toContain("rebase");
    const subjects = execFileSync("git", ["--git-dir", origin, "log", "--format=%s", "main"], { encoding: "utf8" }).trim().split("\n");
    expect(subjects.slice(0, 2)).toEqual(["dados", "code"]);
  });
});

describe("deploy credentials", () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    // a local port that accepts and drops connections: the https push fails right away
    server = createServer((s) => s.destroy());
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("takes the token from GITHUB_TOKEN or GH_TOKEN", () => {
    expect(tokenFromEnv({ GITHUB_TOKEN: "a", GH_TOKEN: "b" })).toBe("a");
    expect(tokenFromEnv({ GH_TOKEN: "b" })).toBe("b");
    expect(tokenFromEnv({})).toBeNull();
  });

  it("gives git the token as an Authorization header in its environment, only for https, never in the URL", () => {
    const env = gitAuthEnv("https://github.com/o/r.git", "ghs_x");
    expect(env).toEqual({
      GIT_CONFIG_COUNT: "1",
      GIT_CONFIG_KEY_0: "http.https://github.com/.extraheader",
      GIT_CONFIG_VALUE_0: `AUTHORIZATION: basic ${Buffer.from("x-access-token:ghs_x").toString("base64")}`,
    });
    expect(gitAuthEnv("git@github.com:o/r.git", "ghs_x")).toEqual({});
    expect(gitAuthEnv("/tmp/bare.git", "ghs_x")).toEqual({});
    expect(gitAuthEnv("https://github.com/o/r.git", null)).toEqual({});
  });

  it("masks the token and URL credentials", () => {
    expect(maskSecrets("fatal: https://x-access-token:ghs_abc@github.com/o/r.git ghs_abc", ["ghs_abc"])).toBe("fatal: https://***@github.com/o/r.git ***");
  });

  it("a failed push never prints the token", async () => {
    const token = "ghs_NaoDeveAparecer123";
    const err = await deploy({ dir: site, cwd: work, env: { ...ID, GITHUB_TOKEN: token }, repo: `https://127.0.0.1:${port}/o/r.git` }).then(
      () => null,
      (e: Error) => e,
    );
    expect(err).toBeInstanceOf(Error);
    expect(err!.message).toMatch(/^\[publish\] deploy: falha ao publicar em https:\/\/127\.0\.0\.1:\d+\/o\/r\.git \(gh-pages\)/);
    expect(err!.message).not.toContain(token);
    expect(err!.stack ?? "").not.toContain(token);
  });
});
