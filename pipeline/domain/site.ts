/**
 * Where this instance lives and is published, from ONE setting: the `repository` field of
 * package.json (a fork edits that field and nothing else). Every public URL derives from it: the
 * GitHub Pages site (which serves the gh-pages branch, that is public/), the jsDelivr mirror of
 * that same branch and the project page named in User-Agents. The field is read from the file,
 * never from the environment, so every machine renders the same bytes.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { PipelineError } from "./errors.ts";

export interface Repository {
  owner: string;
  name: string;
}

export interface SiteUrls {
  /** "owner/name" */
  REPOSITORY: string;
  /** the repository on GitHub, no trailing slash (User-Agents point here) */
  PROJECT_URL: string;
  /** site root on GitHub Pages, with a trailing slash */
  SITE_URL: string;
  /** the same gh-pages tree through jsDelivr's GitHub mirror, with a trailing slash */
  JSDELIVR_URL: string;
}

export const PACKAGE_JSON = fileURLToPath(new URL("../../package.json", import.meta.url));

/** The branch `npm run deploy` publishes public/ to, served by Pages and mirrored by jsDelivr. */
export const PAGES_BRANCH = "gh-pages";

const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;
const NAME = /^[A-Za-z0-9._-]{1,100}$/;

const EXEMPLO = '"repository": {"type": "git", "url": "https://github.com/DONO/REPOSITORIO"}';

/**
 * Owner and name from package.json's `repository`, in the forms npm accepts for GitHub:
 * "owner/name", "github:owner/name", "https://github.com/owner/name(.git)",
 * "git+https://…", "git+ssh://git@github.com/…", "git@github.com:owner/name.git",
 * or an object whose `url` is one of those.
 */
export function parseRepository(field: unknown, origem = "package.json"): Repository {
  const raw = typeof field === "string" ? field : field !== null && typeof field === "object" ? (field as { url?: unknown }).url : undefined;
  if (typeof raw !== "string" || raw.trim() === "") {
    throw new PipelineError({ stage: "config", reason: `${origem}: campo "repository" ausente ou sem "url"; use ${EXEMPLO}` });
  }
  const s = raw.trim();
  const m =
    /^(?:github:)?([^/:@\s]+)\/([^/\s]+)$/.exec(s) ??
    /^(?:git\+)?(?:https?|ssh|git):\/\/(?:[^@/]+@)?github\.com[:/]([^/]+)\/([^/]+?)\/?$/i.exec(s) ??
    /^git@github\.com:([^/]+)\/([^/]+)$/i.exec(s);
  if (!m) {
    throw new PipelineError({ stage: "config", reason: `${origem}: "repository" não é um repositório do GitHub: ${JSON.stringify(s)}; use ${EXEMPLO}` });
  }
  const owner = m[1]!;
  const name = m[2]!.replace(/\.git$/i, "");
  if (!OWNER.test(owner)) throw new PipelineError({ stage: "config", reason: `${origem}: dono inválido em "repository": ${JSON.stringify(owner)}` });
  if (!NAME.test(name) || name === "." || name === "..") {
    throw new PipelineError({ stage: "config", reason: `${origem}: nome de repositório inválido em "repository": ${JSON.stringify(name)}` });
  }
  return { owner, name };
}

/** Every public URL of a repository's instance. */
export function siteUrls({ owner, name }: Repository): SiteUrls {
  const host = `${owner.toLowerCase()}.github.io`;
  // a repository named <owner>.github.io is the owner's user site, served at the root
  const SITE_URL = name.toLowerCase() === host ? `https://${host}/` : `https://${host}/${name}/`;
  return {
    REPOSITORY: `${owner}/${name}`,
    PROJECT_URL: `https://github.com/${owner}/${name}`,
    SITE_URL,
    JSDELIVR_URL: `https://cdn.jsdelivr.net/gh/${owner}/${name}@${PAGES_BRANCH}/`,
  };
}

function readRepository(): Repository {
  let pkg: unknown;
  try {
    pkg = JSON.parse(readFileSync(PACKAGE_JSON, "utf8"));
  } catch (err) {
    throw new PipelineError({ stage: "config", reason: `${PACKAGE_JSON}: não foi possível ler o package.json (${(err as Error).message})`, cause: err });
  }
  return parseRepository((pkg as { repository?: unknown }).repository, PACKAGE_JSON);
}

export const { REPOSITORY, PROJECT_URL, SITE_URL, JSDELIVR_URL }: SiteUrls = siteUrls(readRepository());
