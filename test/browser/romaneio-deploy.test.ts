/**
 * The romaneio page's third-party files are not committed (gitignored public/romaneio/vendor/):
 * the deploy must put them in the published tree itself, since the daily workflow runs
 * npm ci, update and deploy, never a build. Against a local bare repository.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../pipeline/config.ts";
import { deploy, VENDOR_ROMANEIO, VENDOR_ROMANEIO_DIR } from "../../pipeline/publish/deploy.ts";

const ID = { GIT_AUTHOR_NAME: "teste", GIT_AUTHOR_EMAIL: "teste@example.invalid", GIT_COMMITTER_NAME: "teste", GIT_COMMITTER_EMAIL: "teste@example.invalid" };
let tmp: string;
let bare: string;
let work: string;
let site: string;

const inBare = (...args: string[]) => execFileSync("git", ["--git-dir", bare, ...args], { encoding: "utf8" }).trim();
const write = (rel: string, text: string) => {
  mkdirSync(join(site, rel, ".."), { recursive: true });
  writeFileSync(join(site, rel), text);
};
/** git's blob id of a file, as the published tree would hold it */
const blob = (path: string) => execFileSync("git", ["hash-object", path], { encoding: "utf8" }).trim();

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), "cotacao-romaneio-deploy-"));
  bare = join(tmp, "origin.git");
  work = join(tmp, "work");
  execFileSync("git", ["init", "-q", "--bare", bare]);
  execFileSync("git", ["init", "-q", "-b", "main", work]);
  site = join(work, "public");
  write("index.html", "<!doctype html><title>Cotação Aberta</title>\n");
  write("romaneio/index.html", "<!doctype html><title>Ler romaneio</title>\n");
  // a stale copy a build left behind: the deploy publishes node_modules' bytes, not these
  write(`${VENDOR_ROMANEIO_DIR}/worker.min.js`, "// velho\n");
  const g = (...a: string[]) => execFileSync("git", a, { cwd: work, env: { ...process.env, ...ID } });
  g("add", "public/index.html", "public/romaneio/index.html");
  g("commit", "-q", "-m", "site");
  g("remote", "add", "origin", bare);
});

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe("deploy of the romaneio page", () => {
  it("publishes the vendor files from node_modules with the page", async () => {
    const r = await deploy({ dir: site, cwd: work, env: { ...ID } });
    expect(r.published).toBe(true);
    const arvore = inBare("ls-tree", "-r", "gh-pages").split("\n");
    const publicados = new Map(arvore.map((l) => [l.split("\t")[1]!, l.split(/\s+/)[2]!]));
    for (const [destino, origem] of VENDOR_ROMANEIO) {
      expect(publicados.get(`${VENDOR_ROMANEIO_DIR}/${destino}`), destino).toBe(blob(join(REPO_ROOT, "node_modules", origem)));
    }
    expect(r.files).toBe(2 + VENDOR_ROMANEIO.length);
    expect(publicados.size).toBe(2 + VENDOR_ROMANEIO.length + 1); // and .nojekyll
    // the site directory itself is left as it was
    expect(execFileSync("cat", [join(site, VENDOR_ROMANEIO_DIR, "worker.min.js")], { encoding: "utf8" })).toBe("// velho\n");
  });
});
