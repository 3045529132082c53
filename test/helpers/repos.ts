/**
 * The repositories of a data push, on disk only: a bare `origin` (GitHub), the workflow's clone
 * (`runner`, where `npm run changelog -- --commit --push` runs) and a developer's clone (`dev`,
 * pushing to main while the run goes on). `main` starts with a small site under public/ and one
 * code file.
 */
import { execFileSync, spawnSync, type SpawnSyncReturns } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import { REPO_ROOT } from "../../pipeline/config.ts";

const ID = { GIT_AUTHOR_NAME: "teste", GIT_AUTHOR_EMAIL: "teste@example.invalid", GIT_COMMITTER_NAME: "teste", GIT_COMMITTER_EMAIL: "teste@example.invalid" };

export const gitIn = (cwd: string, ...args: string[]): string => execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, ...ID } }).trim();

export function put(root: string, rel: string, text: string): void {
  mkdirSync(join(root, rel, ".."), { recursive: true });
  writeFileSync(join(root, rel), text);
}

export interface ReposDeDados {
  origin: string;
  runner: string;
  dev: string;
  /** `npm run changelog -- ARGS` in the runner's clone, without a token */
  changelog(...args: string[]): SpawnSyncReturns<string>;
  /** a developer commits these files and pushes them to main while the run is going */
  devPushes(files: Record<string, string>, msg: string): void;
  /** git in the bare origin ("log", "show main:path", ...) */
  originMain(...args: string[]): string;
  remover(): void;
}

export function reposDeDados(opts: {
  /** more files in main's first commit */
  primeiro?: Record<string, string>;
  /** commits after it, oldest first */
  depois?: Array<{ arquivos: Record<string, string>; mensagem: string }>;
  /** the runner's clone of depth 1, as actions/checkout makes by default */
  raso?: boolean;
} = {}): ReposDeDados {
  const tmp = mkdtempSync(join(tmpdir(), "cotacao-repos-"));
  const origin = join(tmp, "origin.git");
  const runner = join(tmp, "runner");
  const dev = join(tmp, "dev");
  execFileSync("git", ["init", "-q", "--bare", "-b", "main", origin]);
  const seed = join(tmp, "seed");
  execFileSync("git", ["init", "-q", "-b", "main", seed]);
  execFileSync("cp", [join(REPO_ROOT, ".gitignore"), join(seed, ".gitignore")]);
  const commits = [
    {
      arquivos: {
        "pipeline/x.ts": "export {};\n",
        "public/index.html": "<!doctype html>\n",
        "public/api/v1/cotacao.json": '{"soja":161}\n',
        "public/api/v1/index.json": '{"data":"2026-09-07"}\n',
        ...opts.primeiro,
      },
      mensagem: "início",
    },
    ...(opts.depois ?? []),
  ];
  for (const c of commits) {
    for (const [rel, text] of Object.entries(c.arquivos)) put(seed, rel, text);
    gitIn(seed, "add", "--all");
    gitIn(seed, "commit", "-q", "-m", c.mensagem);
  }
  gitIn(seed, "remote", "add", "origin", origin);
  gitIn(seed, "push", "-q", "origin", "main");
  // --depth needs a file:// URL for a local repository
  execFileSync("git", opts.raso ? ["clone", "-q", "--depth", "1", `file://${origin}`, runner] : ["clone", "-q", origin, runner]);
  execFileSync("git", ["clone", "-q", origin, dev]);
  return {
    origin,
    runner,
    dev,
    changelog: (...args) =>
      spawnSync(join(REPO_ROOT, "node_modules", ".bin", "tsx"), [join(REPO_ROOT, "pipeline/cli/changelog.ts"), ...args], {
        cwd: runner,
        encoding: "utf8",
        env: { ...process.env, ...ID, COTACAO_PUBLIC_DIR: join(runner, "public"), GITHUB_TOKEN: "", GH_TOKEN: "" },
      }),
    devPushes: (files, msg) => {
      for (const [rel, text] of Object.entries(files)) put(dev, rel, text);
      gitIn(dev, "add", "--all");
      gitIn(dev, "commit", "-q", "-m", msg);
      gitIn(dev, "push", "-q", "origin", "main");
    },
    originMain: (...args) => execFileSync("git", ["--git-dir", origin, ...args], { encoding: "utf8" }).trim(),
    remover: () => rmSync(tmp, { recursive: true, force: true }),
  };
}

/** For a describe block (or a file): fresh repositories before each test, removed after it. */
export function reposNoTeste(opts: Parameters<typeof reposDeDados>[0] = {}): ReposDeDados {
  const r = {} as ReposDeDados;
  beforeEach(() => {
    Object.assign(r, reposDeDados(opts));
  });
  afterEach(() => r.remover());
  return r;
}
