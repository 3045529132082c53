/**
 * The one way the pipeline runs git (publish/changelog.ts reads what changed; publish/deploy.ts
 * pushes). Never prompts: a run in Actions or cron has nobody to answer, so a missing
 * credential fails at once instead of hanging. Failures are execFile's errors, stderr included;
 * callers that handle a token mask it before printing (publish/deploy.ts).
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/** git's stdout, as is (a -z listing keeps its NULs and final newline). */
export async function git(cwd: string, args: readonly string[], env?: NodeJS.ProcessEnv): Promise<string> {
  const { stdout } = await run("git", [...args], {
    cwd,
    env: { ...process.env, ...env, GIT_TERMINAL_PROMPT: "0" },
    encoding: "utf8",
    // a changelog over a whole year of history diffs tens of megabytes
    maxBuffer: 256 * 1024 * 1024,
  });
  return stdout;
}

/** git's stdout without surrounding whitespace: one value (a hash, a branch, a config entry). */
export async function gitValue(cwd: string, args: readonly string[], env?: NodeJS.ProcessEnv): Promise<string> {
  return (await git(cwd, args, env)).trim();
}

/** gitValue, or null when git fails (an unset config key, a missing ref). */
export async function gitValueOrNull(cwd: string, args: readonly string[]): Promise<string | null> {
  try {
    return await gitValue(cwd, args);
  } catch {
    return null;
  }
}
