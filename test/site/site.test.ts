import { readFileSync } from "node:fs";
import { cp, readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { REPO_ROOT } from "../../pipeline/config.ts";
import * as site from "../../pipeline/domain/site.ts";
import { parseRepository, siteUrls, type SiteUrls } from "../../pipeline/domain/site.ts";
import { GERADOS, manifestoDoPacote } from "../../pipeline/gerar/arquivos.ts";
import { CLIENT_PATH, CLIENT_TEMPLATE, renderClient } from "../../pipeline/openapi/client.ts";
import { cleanup, tempSite, testConfig } from "../helpers/pipeline.ts";
import { listFiles } from "../helpers/pipeline.ts";

const SITE_MODULE = "../../pipeline/domain/site.ts";
const PUBLIC = join(REPO_ROOT, "public");
const NOW = new Date("2026-09-27T12:00:00-03:00");

/**
 * The site files rendered with package.json's `repository` (domain/site.ts): the only ones that
 * may name it, and exactly the ones a fork's build rewrites.
 */
const RENDERED_WITH_URLS = [
  "CITATION.cff",
  "LICENSE",
  "api/v1/client.js",
  "api/v1/datapackage.json",
  "api/v1/feed.xml",
  "api/v1/openapi.json",
  "index.html",
] as const;

/** A fork whose name and owner share nothing with the original (mixed case: Pages hosts are lower case). */
const FORK = siteUrls({ owner: "Garimpo-Dados", name: "precos-do-campo" });


async function readTree(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const f of await listFiles(dir)) files.set(relative(dir, f), await readFile(f, "utf8"));
  return files;
}

/** Ways of writing the current owner/repo into a file, each one a hard-coding. */
function hardCodings(urls: SiteUrls): RegExp {
  const [owner, name] = urls.REPOSITORY.split("/") as [string, string];
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(
    [`${esc(owner)}/${esc(name)}`, `${esc(owner)}\\.github\\.io`, `github\\.com[/:]${esc(owner)}\\b`, `gh/${esc(owner)}\\b`].join("|"),
    "i",
  );
}

describe("package.json's repository", () => {
  it("accepts the forms npm writes for GitHub and names the package.json on anything else", () => {
    const want = { owner: "dono", name: "repo.api" };
    for (const form of [
      "dono/repo.api",
      "github:dono/repo.api",
      "https://github.com/dono/repo.api",
      "https://github.com/dono/repo.api.git",
      "https://github.com/dono/repo.api/",
      { type: "git", url: "git+https://github.com/dono/repo.api.git" },
      { type: "git", url: "git+ssh://git@github.com/dono/repo.api.git" },
      { type: "git", url: "git@github.com:dono/repo.api.git" },
    ]) {
      expect(parseRepository(form), JSON.stringify(form)).toEqual(want);
    }
    expect(() => parseRepository(undefined, "/x/package.json")).toThrow(/\/x\/package\.json: campo "repository" ausente/);
    expect(() => parseRepository({ type: "git" })).toThrow(/ausente ou sem "url"/);
    expect(() => parseRepository("https://gitlab.com/dono/repo")).toThrow(/não é um repositório do GitHub: "https:\/\/gitlab\.com\/dono\/repo"/);
    expect(() => parseRepository("https://github.com/dono")).toThrow(/não é um repositório do GitHub/);
    expect(() => parseRepository("-dono/repo")).toThrow(/dono inválido/);
  });

  it("derives the Pages site, the jsDelivr mirror of gh-pages and the project page", () => {
    expect(FORK).toEqual({
      REPOSITORY: "Garimpo-Dados/precos-do-campo",
      PROJECT_URL: "https://github.com/Garimpo-Dados/precos-do-campo",
      SITE_URL: "https://garimpo-dados.github.io/precos-do-campo/",
      JSDELIVR_URL: "https://cdn.jsdelivr.net/gh/Garimpo-Dados/precos-do-campo@gh-pages/",
    });
    // a <owner>.github.io repository is the owner's user site, served at the root
    expect(siteUrls({ owner: "Dono", name: "dono.github.io" }).SITE_URL).toBe("https://dono.github.io/");
  });

  it("is what the project's constants come from", async () => {
    const pkg = JSON.parse(await readFile(join(REPO_ROOT, "package.json"), "utf8"));
    const { REPOSITORY, PROJECT_URL, SITE_URL, JSDELIVR_URL } = site;
    expect({ REPOSITORY, PROJECT_URL, SITE_URL, JSDELIVR_URL }).toEqual(siteUrls(parseRepository(pkg.repository)));
  });
});

describe("a different repository setting", () => {
  let real: string;
  let fork: string;
  let before: Map<string, string>;
  let after: Map<string, string>;

  async function build(dir: string): Promise<void> {
    const { runBuild } = await import("../../pipeline/run/build.ts");
    await runBuild(testConfig(dir), NOW);
  }

  beforeAll(async () => {
    [real, fork] = await Promise.all([tempSite(), tempSite()]);
    await Promise.all([cp(PUBLIC, real, { recursive: true }), cp(PUBLIC, fork, { recursive: true })]);
    await build(real);
    vi.resetModules();
    vi.doMock(SITE_MODULE, async (importOriginal) => ({ ...(await importOriginal<typeof site>()), ...FORK }));
    await build(fork);
    [before, after] = await Promise.all([readTree(real), readTree(fork)]);
  }, 120_000);
  afterAll(async () => {
    vi.doUnmock(SITE_MODULE);
    vi.resetModules();
    await cleanup(real, fork);
  });

  it("changes every published URL, the same way in the feed, the OpenAPI servers and the client", () => {
    const swap = (text: string) =>
      text
        .replaceAll(site.SITE_URL.replace(/\/$/, ""), FORK.SITE_URL.replace(/\/$/, ""))
        .replaceAll(site.JSDELIVR_URL.replace(/\/$/, ""), FORK.JSDELIVR_URL.replace(/\/$/, ""))
        .replaceAll(site.PROJECT_URL, FORK.PROJECT_URL);
    expect([...after.keys()]).toEqual([...before.keys()]);
    const changed = [...before.keys()].filter((p) => before.get(p) !== after.get(p));
    expect(RENDERED_WITH_URLS).toContain(CLIENT_PATH);
    expect(changed.sort()).toEqual([...RENDERED_WITH_URLS]);
    // nothing but the URLs changed, and nothing of the original repository is left
    for (const p of changed) expect(after.get(p), p).toBe(swap(before.get(p)!));
    const old = hardCodings(site);
    for (const [p, text] of after) expect(old.test(text) ? p : null, p).toBeNull();

    const openapi = JSON.parse(after.get("api/v1/openapi.json")!) as { servers: Array<{ url: string }> };
    expect(openapi.servers.map((s) => s.url).slice(0, 2)).toEqual([FORK.SITE_URL.replace(/\/$/, ""), FORK.JSDELIVR_URL.replace(/\/$/, "")]);
    const feed = after.get("api/v1/feed.xml")!;
    expect(feed).toContain(`<id>${FORK.SITE_URL}api/v1/feed.xml</id>`);
    expect(feed).toContain(`<link rel="alternate" type="text/html" href="${FORK.SITE_URL}"/>`);
    const client = after.get(CLIENT_PATH)!;
    expect(client).toContain(`export const DEFAULT_MIRRORS = Object.freeze([\n  "${FORK.SITE_URL}",\n  "${FORK.JSDELIVR_URL}",\n]);`);
    expect(client).toContain(`import { createClient } from "${FORK.SITE_URL}api/v1/client.js";`);
  });

  it("changes the User-Agents of the fetcher and of the webhooks", async () => {
    const { USER_AGENT } = await import("../../pipeline/fetch/http.ts");
    const { WEBHOOK_USER_AGENT } = await import("../../pipeline/events/webhooks.ts");
    expect(USER_AGENT).toBe(`CotacaoAberta/1.0 (+${FORK.PROJECT_URL})`);
    expect(WEBHOOK_USER_AGENT).toBe(`CotacaoAberta-Webhooks/1.0 (+${FORK.PROJECT_URL})`);
  });
});

describe("nothing else hard-codes the repository", () => {
  it("pipeline/ never names it; elsewhere only package.json and the files rendered from it do", async () => {
    const pattern = hardCodings(site);
    const hits: string[] = [];
    const rootFiles = (await readdir(REPO_ROOT, { withFileTypes: true })).filter((e) => e.isFile()).map((e) => join(REPO_ROOT, e.name));
    for (const f of [...rootFiles, ...(await Promise.all(["pipeline", "public", "cliente"].map((d) => listFiles(join(REPO_ROOT, d))))).flat()]) {
      if (pattern.test(await readFile(f, "utf8"))) hits.push(relative(REPO_ROOT, f));
    }
    // every file rendered with the setting names it (else a list is stale), and no other does:
    // the site's (build), npm run gerar's (LICENSE, CITATION.cff, the npm package's code and
    // manifest), the setting itself, and the two READMEs, prose about this instance
    const rendered = [...RENDERED_WITH_URLS.map((p) => `public/${p}`), GERADOS.licenca, GERADOS.citacao, GERADOS.pacoteJs, GERADOS.pacoteManifesto];
    expect(hits.sort()).toEqual([...rendered, "package.json", "README.md", "cliente/README.md"].sort());
  });

  it("npm run gerar gives the npm package a fork's repository, site and mirrors", () => {
    const manifesto = JSON.parse(manifestoDoPacote(readFileSync(join(REPO_ROOT, GERADOS.pacoteManifesto), "utf8"), FORK));
    expect(manifesto).toMatchObject({
      name: "@cotacao-aberta/cliente",
      repository: { type: "git", url: `git+${FORK.PROJECT_URL}.git`, directory: "cliente" },
      homepage: FORK.SITE_URL,
      bugs: `${FORK.PROJECT_URL}/issues`,
    });
    const codigo = renderClient(readFileSync(CLIENT_TEMPLATE, "utf8"), FORK);
    expect(codigo).toContain(`"${FORK.JSDELIVR_URL}"`);
    for (const texto of [JSON.stringify(manifesto), codigo]) expect(hardCodings(site).test(texto)).toBe(false);
  });

  it("the published client.js is its template with this repository's mirrors (npm run build after editing either)", async () => {
    const [template, published] = await Promise.all([readFile(CLIENT_TEMPLATE, "utf8"), readFile(join(PUBLIC, CLIENT_PATH), "utf8")]);
    expect(hardCodings(site).test(template)).toBe(false);
    expect(published).toBe(renderClient(template));
    expect(() => renderClient(template.replaceAll("__JSDELIVR_URL__", "x"))).toThrow(/o modelo não contém __JSDELIVR_URL__/);
    expect(() => renderClient(`${template}\n// __OUTRO__\n`)).toThrow(/marcador desconhecido __OUTRO__/);
  });
});
