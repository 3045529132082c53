/**
 * Audit 7 of `npm run deploy` (pipeline/publish/deploy.ts, pipeline/cli/deploy.ts), against local
 * bare repositories only:
 *
 * - The push replaces gh-pages only if it is still the commit the deploy looked at (a lease): a
 *   deploy that raced another never overwrites the other's site, also on the first deploy.
 * - A site older than the published one is refused: by history when the clone knows the
 *   published site's source commit (the gh-pages commit's Source-commit trailer), else by the
 *   data's `atualizado` in api/v1/index.json. A later commit that undoes data on purpose passes.
 * - The command publishes only a directory that is exactly the commit HEAD (nothing modified,
 *   deleted, untracked or gitignored) and passes validate; an interrupted publish is finished or
 *   rolled back first, and a roll-forward then leaves a tree no commit holds: refused.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../pipeline/config.ts";
import { atualizadoDoSite, deploy, fonteDoPublicado, type DeployOptions } from "../../pipeline/publish/deploy.ts";
import { gitIn, put, reposNoTeste } from "../helpers/repos.ts";

const ID = { GIT_AUTHOR_NAME: "teste", GIT_AUTHOR_EMAIL: "teste@example.invalid", GIT_COMMITTER_NAME: "teste", GIT_COMMITTER_EMAIL: "teste@example.invalid" };

const repo = reposNoTeste();

/** git in the bare origin */
const noOrigin = (...args: string[]) => gitIn(repo.origin, ...args);
const ghPages = () => noOrigin("rev-parse", "refs/heads/gh-pages");
const publicadoEm = (rel: string) => noOrigin("show", `gh-pages:${rel}`);

/** Commits these site files (paths under public/) in a clone; returns the commit. */
function commitSite(clone: string, files: Record<string, string>, msg: string): string {
  for (const [rel, text] of Object.entries(files)) put(clone, `public/${rel}`, text);
  gitIn(clone, "add", "public");
  gitIn(clone, "commit", "-q", "-m", msg);
  return gitIn(clone, "rev-parse", "HEAD");
}

const indexEm = (atualizado: string) => `{"atualizado":"${atualizado}"}\n`;

function deployDe(clone: string, extra: Partial<DeployOptions> = {}, logs: string[] = []) {
  return deploy({ dir: join(clone, "public"), cwd: clone, env: { ...ID }, log: (l) => logs.push(l), ...extra });
}

describe("auditoria 7, deploy: a race between two deploys (lease)", () => {
  it("a deploy whose view of gh-pages went stale is refused and leaves the other deploy's site", async () => {
    const a = await deployDe(repo.runner);
    expect(a.published).toBe(true);
    // the developer's newer site and the runner's, both built over A
    gitIn(repo.dev, "pull", "-q");
    const b = commitSite(repo.dev, { "api/v1/cotacao.json": '{"soja":170}\n' }, "dev data");
    commitSite(repo.runner, { "api/v1/cotacao.json": '{"soja":165}\n' }, "runner data");
    let siteB = "";
    const err = await deployDe(repo.runner, {
      // while the runner's deploy built its commit over A, the developer's deploy published B
      antesDoEnvio: async () => {
        const rb = await deployDe(repo.dev);
        expect(rb.published).toBe(true);
        siteB = rb.commit;
      },
    }).then(
      () => null,
      (e: Error) => e,
    );
    expect(err?.message).toMatch(/gh-pages mudou no remoto durante este deploy \(estava em [0-9a-f]{12} quando o site foi montado/);
    expect(err?.message).toContain("nada foi publicado e o site dele ficou como está");
    expect(err?.message).toContain("Rode npm run deploy de novo");
    expect(ghPages()).toBe(siteB);
    expect(publicadoEm("api/v1/cotacao.json")).toBe('{"soja":170}');
    expect(noOrigin("log", "-1", "--format=%B", "gh-pages")).toContain(`Source-commit: ${b}`);
  });

  it("the first deploy too: a branch created meanwhile by another deploy is not overwritten", async () => {
    commitSite(repo.runner, { "api/v1/cotacao.json": '{"soja":165}\n' }, "runner data");
    let siteB = "";
    const err = await deployDe(repo.runner, {
      antesDoEnvio: async () => {
        siteB = (await deployDe(repo.dev)).commit;
      },
    }).then(
      () => null,
      (e: Error) => e,
    );
    expect(err?.message).toMatch(/gh-pages mudou no remoto durante este deploy \(estava em nenhum commit: branch ainda inexistente/);
    expect(ghPages()).toBe(siteB);
    expect(publicadoEm("api/v1/cotacao.json")).toBe('{"soja":161}');
  });
});

describe("auditoria 7, deploy: an older site never replaces a newer one", () => {
  it("a clone that knows the published commit: its ancestor is refused, whatever the data says", async () => {
    const novo = commitSite(repo.runner, { "api/v1/cotacao.json": '{"soja":165}\n' }, "runner data");
    gitIn(repo.runner, "push", "-q", "origin", "main");
    const publicado = (await deployDe(repo.runner)).commit;
    // the developer fetched but is still on the older commit, with no index.json date to compare
    gitIn(repo.dev, "fetch", "-q");
    const velho = gitIn(repo.dev, "rev-parse", "HEAD");
    const err = await deployDe(repo.dev).then(
      () => null,
      (e: Error) => e,
    );
    expect(err?.message).toContain(`o gh-pages já tem o site do commit ${novo.slice(0, 12)}, mais novo que este (${velho.slice(0, 12)} vem antes dele no histórico)`);
    expect(err?.message).toContain("nada foi publicado. Atualize este clone (git pull)");
    expect(ghPages()).toBe(publicado);
    expect(publicadoEm("api/v1/cotacao.json")).toBe('{"soja":165}');
  });

  it("a clone that does not know the published commit: older data is refused, with what to do", async () => {
    commitSite(repo.runner, { "api/v1/index.json": indexEm("2026-09-08T19:00:00-03:00") }, "runner data");
    const publicado = (await deployDe(repo.runner)).commit;
    // the developer never fetched the runner's commit; its data is the day before
    commitSite(repo.dev, { "api/v1/index.json": indexEm("2026-09-07T19:00:00-03:00"), "index.html": "<!doctype html><p>novo\n" }, "page");
    const err = await deployDe(repo.dev).then(
      () => null,
      (e: Error) => e,
    );
    expect(err?.message).toContain("o gh-pages tem dados de 2026-09-08T19:00:00-03:00");
    expect(err?.message).toContain("mais novos que os deste site (2026-09-07T19:00:00-03:00");
    // the runner never pushed that commit: git pull cannot bring it (buscarFontePublicada looked on origin)
    expect(err?.message).toContain("não está no main do origin (foi publicado de um clone com commits não enviados, ou de outro branch): leve-o ao main (git push");
    expect(err?.message).toContain("--substituir-mais-novo");
    expect(ghPages()).toBe(publicado);
    // the maintainer's explicit way back
    const r = await deployDe(repo.dev, { substituirMaisNovo: true });
    expect(r.published).toBe(true);
    expect(publicadoEm("api/v1/index.json")).toBe(indexEm("2026-09-07T19:00:00-03:00").trim());
  });

  it("a commit after the published one that undoes its data (a revert) is published: history says it is newer", async () => {
    commitSite(repo.runner, { "api/v1/index.json": indexEm("2026-09-07T19:00:00-03:00") }, "day 1");
    const errado = commitSite(repo.runner, { "api/v1/index.json": indexEm("2026-09-08T19:00:00-03:00"), "api/v1/cotacao.json": '{"soja":999}\n' }, "day 2");
    gitIn(repo.runner, "push", "-q", "origin", "main");
    await deployDe(repo.runner);
    gitIn(repo.dev, "pull", "-q");
    gitIn(repo.dev, "revert", "--no-edit", errado);
    const logs: string[] = [];
    const r = await deployDe(repo.dev, {}, logs);
    expect(r.published).toBe(true);
    expect(publicadoEm("api/v1/cotacao.json")).toBe('{"soja":161}');
    expect(logs.join("\n")).toContain(`vem depois do que está publicado (${errado.slice(0, 12)})`);
  });

  it("the workflow's shallow clone, the published commit out of its depth: fetched from origin, history decides", async () => {
    const logs: string[] = [];
    const dia1 = commitSite(repo.dev, { "api/v1/index.json": indexEm("2026-09-07T19:00:00-03:00") }, "day 1");
    gitIn(repo.dev, "push", "-q", "origin", "main");
    await deployDe(repo.dev);
    // code pushed after that deploy: a depth-1 checkout of main lacks the deployed commit
    repo.devPushes({ "pipeline/x.ts": "export const x = 2;\n" }, "code");
    const raso = join(repo.runner, "..", "raso");
    gitIn(join(repo.runner, ".."), "clone", "-q", "--depth", "1", `file://${repo.origin}`, raso);
    commitSite(raso, { "api/v1/index.json": indexEm("2026-09-08T19:00:00-03:00") }, "day 2");
    const r = await deployDe(raso, {}, logs);
    expect(r.published).toBe(true);
    expect(publicadoEm("api/v1/index.json")).toBe(indexEm("2026-09-08T19:00:00-03:00").trim());
    const saida = logs.join("\n");
    expect(saida).toContain(`buscando o commit ${dia1.slice(0, 12)} no histórico do origin (main, 50 commits mais fundo)`);
    expect(saida).toContain(`vem depois do que está publicado (${dia1.slice(0, 12)})`);
    expect(saida).toMatch(new RegExp(`publicado: gh-pages agora em ${r.commit.slice(0, 12)}, site do commit ${r.source!.slice(0, 12)}, 3 arquivo\\(s\\) e \\.nojekyll`));
  });
});

describe("auditoria 7, deploy: what a published site says of itself", () => {
  it("its source commit: the trailer, or the subject of a site deployed before the trailer existed", () => {
    const sha = "0123456789abcdef0123456789abcdef01234567";
    expect(fonteDoPublicado(`Deploy site from 0123456789ab\n\nSource-commit: ${sha}\n`)).toBe(sha);
    expect(fonteDoPublicado("Deploy site from 0123456789ab\n")).toBe("0123456789ab");
    expect(fonteDoPublicado("manual\n")).toBeNull();
  });

  it("its data's date: index.json's atualizado, nothing when absent or unreadable", () => {
    expect(atualizadoDoSite(indexEm("2026-09-08T19:00:00-03:00"))).toBe("2026-09-08T19:00:00-03:00");
    expect(atualizadoDoSite('{"data":"2026-09-07"}')).toBeNull();
    expect(atualizadoDoSite('{"atualizado":"ontem"}')).toBeNull();
    expect(atualizadoDoSite("{ metade")).toBeNull();
    expect(atualizadoDoSite(null)).toBeNull();
  });
});

/** The sample tree that validates (test/fixtures/api, schemas/ and a page), as public/ of a fresh repository with an origin. */
function repoValido(): { origin: string; work: string; site: string; remover(): void } {
  const tmp = mkdtempSync(join(tmpdir(), "cotacao-deploy-cli-"));
  const origin = join(tmp, "origin.git");
  const work = join(tmp, "work");
  const site = join(work, "public");
  gitIn(tmp, "init", "-q", "--bare", "-b", "main", origin);
  gitIn(tmp, "init", "-q", "-b", "main", work);
  cpSync(join(REPO_ROOT, ".gitignore"), join(work, ".gitignore"));
  cpSync(join(REPO_ROOT, "test", "fixtures", "api"), join(site, "api"), { recursive: true });
  cpSync(join(REPO_ROOT, "schemas"), join(site, "schemas"), { recursive: true });
  writeFileSync(join(site, "index.html"), "<!doctype html><title>Cotação Aberta</title>\n");
  gitIn(work, "add", "--all");
  gitIn(work, "commit", "-q", "-m", "site");
  gitIn(work, "remote", "add", "origin", origin);
  gitIn(work, "push", "-q", "origin", "main");
  return { origin, work, site, remover: () => rmSync(tmp, { recursive: true, force: true }) };
}

describe("auditoria 7, npm run deploy: only the committed, validated site", () => {
  let r: ReturnType<typeof repoValido>;
  beforeEach(() => {
    r = repoValido();
  });
  afterEach(() => r.remover());

  const npmRunDeploy = (...args: string[]) =>
    spawnSync(join(REPO_ROOT, "node_modules", ".bin", "tsx"), [join(REPO_ROOT, "pipeline/cli/deploy.ts"), ...args], {
      cwd: r.work,
      encoding: "utf8",
      env: { ...process.env, ...ID, COTACAO_PUBLIC_DIR: r.site, GITHUB_TOKEN: "", GH_TOKEN: "" },
    });
  const branches = () => gitIn(r.origin, "branch", "--list", "--format=%(refname:short)");

  it("a tree equal to HEAD that validates is published, saying what it checked and what it published", () => {
    const head = gitIn(r.work, "rev-parse", "HEAD");
    // dotfiles are never published: a notes file there is no reason to refuse
    writeFileSync(join(r.site, ".anotacoes"), "x\n");
    const p = npmRunDeploy();
    expect(p.status, p.stderr + p.stdout).toBe(0);
    expect(p.stdout).toContain(`conferindo se ${r.site} é exatamente o commit ${head.slice(0, 12)}`);
    expect(p.stdout).toContain("validando (o mesmo que npm run validate)");
    expect(p.stdout).toMatch(/arquivos válidos, 0 com erros/);
    const publicado = gitIn(r.origin, "rev-parse", "gh-pages");
    expect(p.stdout).toMatch(new RegExp(`publicado: gh-pages agora em ${publicado.slice(0, 12)}, site do commit ${head.slice(0, 12)}, \\d+ arquivo\\(s\\) e \\.nojekyll`));
    expect(gitIn(r.origin, "log", "-1", "--format=%B", "gh-pages")).toContain(`Source-commit: ${head}`);
  });

  it("the workflow's path: changelog commits and pushes the update's tree, then the deploy publishes it (the romaneio page's vendor files, gitignored, allowed)", () => {
    writeFileSync(join(r.site, "index.html"), "<!doctype html><title>Cotação Aberta</title><p>novo\n");
    mkdirSync(join(r.site, "romaneio", "vendor"), { recursive: true });
    writeFileSync(join(r.site, "romaneio", "index.html"), "<!doctype html><title>Ler romaneio</title>\n");
    // left by a build in a developer's clone: the deploy takes these from node_modules instead
    writeFileSync(join(r.site, "romaneio", "vendor", "worker.min.js"), "// velho\n");
    const c = spawnSync(join(REPO_ROOT, "node_modules", ".bin", "tsx"), [join(REPO_ROOT, "pipeline/cli/changelog.ts"), "--commit", "--push"], {
      cwd: r.work,
      encoding: "utf8",
      env: { ...process.env, ...ID, COTACAO_PUBLIC_DIR: r.site, GITHUB_TOKEN: "", GH_TOKEN: "" },
    });
    expect(c.status, c.stderr).toBe(0);
    const head = gitIn(r.work, "rev-parse", "HEAD");
    expect(gitIn(r.origin, "rev-parse", "main")).toBe(head);
    const p = npmRunDeploy();
    expect(p.status, p.stderr + p.stdout).toBe(0);
    expect(gitIn(r.origin, "log", "-1", "--format=%B", "gh-pages")).toContain(`Source-commit: ${head}`);
    expect(gitIn(r.origin, "show", "gh-pages:romaneio/index.html")).toContain("Ler romaneio");
    expect(gitIn(r.origin, "show", "gh-pages:romaneio/vendor/worker.min.js")).not.toContain("velho");
  });

  it("a hand edit, a deleted file, an untracked file and a gitignored one: refused, naming each, nothing published", () => {
    writeFileSync(join(r.site, "index.html"), "<!doctype html><title>editado à mão</title>\n");
    rmSync(join(r.site, "api", "v1", "historico.csv"));
    writeFileSync(join(r.site, "rascunho.html"), "<p>rascunho\n");
    writeFileSync(join(r.site, "depuracao.log"), "log\n");
    writeFileSync(join(r.site, ".anotacoes"), "x\n");
    const p = npmRunDeploy();
    expect(p.status).toBe(1);
    expect(p.stderr).toMatch(/deploy: .*public difere do commit [0-9a-f]{12} em 4 arquivo\(s\)/);
    expect(p.stderr).toContain("public/index.html (modificado)");
    expect(p.stderr).toContain("public/api/v1/historico.csv (apagado)");
    expect(p.stderr).toContain("public/rascunho.html (novo, fora do commit)");
    expect(p.stderr).toContain("public/depuracao.log (ignorado pelo .gitignore, fora do commit)");
    expect(p.stderr).not.toContain(".anotacoes");
    expect(p.stderr).toContain("nada foi publicado");
    expect(branches()).toBe("main");
  });

  it("lists at most ten paths, then how many more", () => {
    for (let i = 0; i < 12; i++) writeFileSync(join(r.site, `extra-${String(i).padStart(2, "0")}.html`), "x\n");
    const p = npmRunDeploy();
    expect(p.status).toBe(1);
    expect(p.stderr).toContain("em 12 arquivo(s)");
    expect(p.stderr).toContain("public/extra-09.html");
    expect(p.stderr).not.toContain("public/extra-10.html");
    expect(p.stderr).toContain("... e mais 2");
  });

  it("a committed tree that does not validate: refused after validate's report, nothing published", () => {
    const soja = join(r.site, "api", "v1", "cotacao", "soja.json");
    writeFileSync(soja, readFileSync(soja, "utf8").replace(/"valor": ([0-9.]+)/, '"valor": "$1"'));
    gitIn(r.work, "commit", "-q", "-am", "broken");
    const p = npmRunDeploy();
    expect(p.status).toBe(1);
    expect(p.stdout).toContain("✗ api/v1/cotacao/soja.json");
    expect(p.stderr).toMatch(/não passa na validação \(erros acima\); nada foi publicado/);
    expect(branches()).toBe("main");
  });

  it("a committed symlink: refused, since the deploy would publish what it points to (here edited outside public/, in no commit)", () => {
    mkdirSync(join(r.work, "fora"));
    writeFileSync(join(r.work, "fora", "pagina.html"), "<!doctype html><title>Cotação Aberta</title>\n");
    rmSync(join(r.site, "index.html"));
    symlinkSync("../fora/pagina.html", join(r.site, "index.html"));
    gitIn(r.work, "add", "--all");
    gitIn(r.work, "commit", "-q", "-m", "page through a link");
    writeFileSync(join(r.work, "fora", "pagina.html"), "<!doctype html><title>editado fora do commit</title>\n");
    const p = npmRunDeploy();
    expect(p.status, p.stdout).toBe(1);
    expect(p.stderr).toContain("public/index.html (link simbólico: o deploy publicaria o arquivo para onde ele aponta");
    expect(p.stderr).toContain("nada foi publicado");
    expect(branches()).toBe("main");
  });

  it("a new file only added to the index is named as new, not as modified", () => {
    writeFileSync(join(r.site, "rascunho.html"), "<p>rascunho\n");
    gitIn(r.work, "add", "public/rascunho.html");
    const p = npmRunDeploy();
    expect(p.status).toBe(1);
    expect(p.stderr).toContain("public/rascunho.html (novo, no índice, fora do commit)");
    expect(branches()).toBe("main");
  });

  it("an interrupted publish is finished first, and the tree it leaves (no commit holds it) is refused", () => {
    const novo = "<!doctype html><title>publicação pela metade</title>\n";
    mkdirSync(join(r.site, ".cotacao-staging"));
    writeFileSync(join(r.site, ".cotacao-staging", "index.html"), novo);
    const journal = {
      versao: 2,
      pid: 999_999_999,
      criado: "2026-09-08T19:00:00-03:00",
      operacoes: [{ op: "renomear", arquivo: "index.html", sha256: createHash("sha256").update(novo).digest("hex"), tamanho: Buffer.byteLength(novo) }],
    };
    writeFileSync(join(r.site, ".cotacao-journal.json"), JSON.stringify(journal));
    const p = npmRunDeploy();
    expect(p.stdout).toContain("recuperação: publicação interrompida");
    expect(p.status).toBe(1);
    expect(p.stderr).toContain("public/index.html (modificado)");
    expect(branches()).toBe("main");
  });
});

/** A depth-1 clone of origin's main, as actions/checkout makes (init, remote, fetch --depth=1, checkout -B main). */
function cloneDoWorkflow(perto: string): string {
  const raso = join(perto, "..", `workflow-${Math.random().toString(36).slice(2, 8)}`);
  gitIn(join(perto, ".."), "init", "-q", raso);
  gitIn(raso, "remote", "add", "origin", `file://${repo.origin}`);
  gitIn(raso, "fetch", "-q", "--no-tags", "--depth=1", "origin", "+refs/heads/main:refs/remotes/origin/main");
  gitIn(raso, "checkout", "-q", "--force", "-B", "main", "refs/remotes/origin/main");
  return raso;
}

describe("auditoria 7 review, deploy: the published commit is looked for in origin's history before the dates decide", () => {
  it("a revert pushed to main is published from the workflow's depth-1 checkout, the published commit 60 commits back", async () => {
    commitSite(repo.runner, { "api/v1/index.json": indexEm("2026-09-07T19:00:00-03:00") }, "day 1");
    const errado = commitSite(repo.runner, { "api/v1/index.json": indexEm("2026-09-08T19:00:00-03:00"), "api/v1/cotacao.json": '{"soja":999}\n' }, "day 2: wrong");
    gitIn(repo.runner, "push", "-q", "origin", "main");
    expect((await deployDe(repo.runner)).published).toBe(true);
    // the maintainer undoes the wrong number on main; delivery records and code follow it
    gitIn(repo.dev, "pull", "-q");
    gitIn(repo.dev, "revert", "--no-edit", errado);
    for (let i = 0; i < 60; i++) gitIn(repo.dev, "commit", "-q", "--allow-empty", "-m", `registro ${i}`);
    gitIn(repo.dev, "push", "-q", "origin", "main");
    const raso = cloneDoWorkflow(repo.runner);
    const logs: string[] = [];
    const r = await deployDe(raso, {}, logs);
    expect(r.published, logs.join("\n")).toBe(true);
    expect(publicadoEm("api/v1/cotacao.json")).toBe('{"soja":161}');
    expect(publicadoEm("api/v1/index.json")).toBe(indexEm("2026-09-07T19:00:00-03:00").trim());
    const saida = logs.join("\n");
    expect(saida).toContain(`buscando o commit ${errado.slice(0, 12)} no histórico do origin`);
    expect(saida).toContain(`vem depois do que está publicado (${errado.slice(0, 12)})`);
  });

  it("a developer's clone that never fetched: origin's history shows the published site is newer, same data date or not: refused", async () => {
    commitSite(repo.runner, { "api/v1/index.json": indexEm("2026-09-07T19:00:00-03:00") }, "day 1");
    gitIn(repo.runner, "push", "-q", "origin", "main");
    gitIn(repo.dev, "pull", "-q");
    const velho = gitIn(repo.dev, "rev-parse", "HEAD");
    // the next run changed no price, only the status (a source failing): the data's date stays
    const novo = commitSite(repo.runner, { "api/v1/status.json": '{"cepea":"falhou"}\n' }, "status");
    gitIn(repo.runner, "push", "-q", "origin", "main");
    const publicado = (await deployDe(repo.runner)).commit;
    const err = await deployDe(repo.dev).then(
      () => null,
      (e: Error) => e,
    );
    expect(err?.message).toContain(`o gh-pages já tem o site do commit ${novo.slice(0, 12)}, mais novo que este (${velho.slice(0, 12)} vem antes dele no histórico)`);
    expect(ghPages()).toBe(publicado);
    expect(publicadoEm("api/v1/status.json")).toBe('{"cepea":"falhou"}');
  });

  it("a site published from a commit origin does not have (a developer's, not pushed): the dates decide, and the refusal says so", async () => {
    const local = commitSite(repo.runner, { "api/v1/index.json": indexEm("2026-09-08T19:00:00-03:00") }, "day 2, not pushed");
    const publicado = (await deployDe(repo.runner)).commit;
    // the workflow's checkout of main, a day behind what the developer published
    const raso = cloneDoWorkflow(repo.runner);
    commitSite(raso, { "api/v1/index.json": indexEm("2026-09-07T19:00:00-03:00") }, "day 1");
    const logs: string[] = [];
    const err = await deployDe(raso, {}, logs).then(
      () => null,
      (e: Error) => e,
    );
    expect(err?.message).toContain(`O commit ${local.slice(0, 12)} desse site não está no main do origin`);
    expect(err?.message).toContain("leve-o ao main (git push do clone que o tem, ou o merge do branch dele)");
    expect(err?.message).toContain("--substituir-mais-novo");
    expect(err?.message).not.toContain("git pull");
    expect(ghPages()).toBe(publicado);
    // the whole of main was fetched to look for it: no longer shallow
    expect(gitIn(raso, "rev-parse", "--is-shallow-repository")).toBe("false");
  });

  it("over a site from a commit origin does not have, newer data is published (the dates decide)", async () => {
    commitSite(repo.dev, { "api/v1/index.json": indexEm("2026-09-07T19:00:00-03:00") }, "day 1, not pushed");
    await deployDe(repo.dev);
    const raso = cloneDoWorkflow(repo.runner);
    commitSite(raso, { "api/v1/index.json": indexEm("2026-09-08T19:00:00-03:00") }, "day 2");
    const logs: string[] = [];
    const r = await deployDe(raso, {}, logs);
    expect(r.published, logs.join("\n")).toBe(true);
    expect(publicadoEm("api/v1/index.json")).toBe(indexEm("2026-09-08T19:00:00-03:00").trim());
    const saida = logs.join("\n");
    expect(saida).toContain("que não está no main do origin; quem decide são as datas dos dados");
    expect(saida).toContain("dados deste site de 2026-09-08T19:00:00-03:00; os publicados, de 2026-09-07T19:00:00-03:00");
  });
});
