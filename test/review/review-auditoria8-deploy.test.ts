/**
 * Audit 8 of `npm run deploy` (pipeline/publish/deploy.ts), against local bare repositories and a
 * git server on 127.0.0.1 that never answers:
 *
 * - A site whose api/v1/eventos.json gives a published `seq` to another event, or lacks published
 *   events (what a plain `git revert` of a data commit leaves), is refused: a consumer keeping the
 *   highest seq it read would never see the events numbered again. Also over
 *   --substituir-mais-novo, also against a published file from before `seq`.
 * - When the dates decide (the published commit not findable), an equal `atualizado` in
 *   index.json no longer lets an older site through: status.json's `atualizado` breaks the tie.
 * - The fetch of origin's history has a time bound of its own.
 * - A file of the site git was told not to look at (assume-unchanged, skip-worktree) is refused.
 */
import { execFileSync, execSync, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../pipeline/config.ts";
import { conferirArvoreDoDeploy, conferirSeq, deploy, eventosPublicados, type DeployOptions } from "../../pipeline/publish/deploy.ts";
import { gitIn, put, reposNoTeste } from "../helpers/repos.ts";

const ID = { GIT_AUTHOR_NAME: "teste", GIT_AUTHOR_EMAIL: "teste@example.invalid", GIT_COMMITTER_NAME: "teste", GIT_COMMITTER_EMAIL: "teste@example.invalid" };

const repo = reposNoTeste();

const noOrigin = (...args: string[]) => gitIn(repo.origin, ...args);
const ghPages = () => noOrigin("rev-parse", "refs/heads/gh-pages");
const publicadoEm = (rel: string) => noOrigin("show", `gh-pages:${rel}`);

function commitSite(clone: string, files: Record<string, string>, msg: string): string {
  for (const [rel, text] of Object.entries(files)) put(clone, `public/${rel}`, text);
  gitIn(clone, "add", "public");
  gitIn(clone, "commit", "-q", "-m", msg);
  return gitIn(clone, "rev-parse", "HEAD");
}

function deployDe(clone: string, extra: Partial<DeployOptions> = {}, logs: string[] = []) {
  return deploy({ dir: join(clone, "public"), cwd: clone, env: { ...ID }, log: (l) => logs.push(l), ...extra });
}

const falha = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: Error) => e,
  );

/** An event id: "evt_" and 20 hex digits (a test's own, not a hash of anything). */
const evt = (n: number) => `evt_${n.toString(16).padStart(20, "0")}`;

/**
 * An eventos.json (schema-valid) with these events, newest first: [id number, seq], or just the id
 * number for a file from before `seq`.
 */
function eventos(lista: Array<readonly [number, number] | number>): string {
  const linhas = lista.map((item) => {
    const [n, seq] = typeof item === "number" ? [item, null] : item;
    const e = {
      id: evt(n),
      ...(seq === null ? {} : { seq }),
      tipo: "cotacao_atualizada",
      criado_em: "2026-09-08T19:00:00-03:00",
      dados: {
        series: [{ serie: "boi_gordo", path: "api/v1/cotacao/boi_gordo.json", unidade: "@", data: "2026-09-08", valor: 300 + n, dias_novos: 1, revisoes: 0 }],
        dias_novos: 1,
        revisoes: 0,
      },
    };
    return `    ${JSON.stringify(e)}`;
  });
  return `{\n  "api_version": "v1",\n  "atualizado": "2026-09-08T19:00:00-03:00",\n  "limite": 200,\n  "feed": "api/v1/feed.xml",\n  "eventos": [\n${linhas.join(",\n")}\n  ]\n}\n`;
}

const feed = (n: number) => `<?xml version="1.0" encoding="utf-8"?>\n<feed><!-- ${n} --></feed>\n`;
const indexEm = (atualizado: string) => `{"atualizado":"${atualizado}"}\n`;
const statusEm = (atualizado: string) => `{"api_version":"v1","atualizado":"${atualizado}","fontes":[],"series":[]}\n`;

describe("auditoria 8, deploy: a published event's seq is never given to another event", () => {
  it("a plain git revert of a published data commit (eventos.json goes back too) is refused, naming the revert: undone, the published events are back (then npm run desfazer)", async () => {
    commitSite(repo.runner, { "api/v1/eventos.json": eventos([[2, 2], [1, 1]]), "api/v1/feed.xml": feed(2) }, "day 1");
    const errado = commitSite(
      repo.runner,
      { "api/v1/cotacao.json": '{"soja":999}\n', "api/v1/eventos.json": eventos([[4, 4], [3, 3], [2, 2], [1, 1]]), "api/v1/feed.xml": feed(4) },
      "day 2: wrong",
    );
    gitIn(repo.runner, "push", "-q", "origin", "main");
    expect((await deployDe(repo.runner)).published).toBe(true);
    const publicado = ghPages();
    gitIn(repo.dev, "pull", "-q");
    gitIn(repo.dev, "revert", "--no-edit", errado);
    const revert = gitIn(repo.dev, "rev-parse", "HEAD");
    const logs: string[] = [];
    const err = await falha(deployDe(repo.dev, {}, logs));
    // history alone lets the revert through: it comes after the published commit
    expect(logs.join("\n")).toContain(`vem depois do que está publicado (${errado.slice(0, 12)})`);
    expect(err?.message).toContain(`o eventos.json deste site (commit ${revert.slice(0, 12)}) não tem eventos já publicados no gh-pages`);
    expect(err?.message).toContain(`seq 4: publicado ${evt(4)}, ausente deste site`);
    expect(err?.message).toContain(`seq 3: publicado ${evt(3)}, ausente deste site`);
    expect(err?.message).toContain("o mais novo daqui é o seq 2");
    expect(err?.message).toContain("nada foi publicado");
    expect(ghPages()).toBe(publicado);
    // restoring the two files alone would publish soja 161 under events whose latest says 999, and
    // nothing would tell subscribers it went back: the refusal names the revert and the way that does
    expect(err?.message).toContain(`o commit ${revert.slice(0, 12)} ("Revert "day 2: wrong"") é um git revert do ${errado.slice(0, 12)}, já publicado`);
    const caminho = /pelo caminho que avisa os assinantes: (.+?) \(ele volta os dados/.exec(err!.message)?.[1];
    expect(caminho).toBe(`git revert --no-edit ${revert.slice(0, 12)} && npm run desfazer -- ${errado.slice(0, 12)}`);
    expect(err?.message).toContain("deixaria um valor que o site não tem como a última notícia dos eventos");
    // its git part, as given: the published events are back (npm run desfazer then moves them forward)
    execSync(caminho!.split(" && npm run")[0]!, { cwd: repo.dev, env: { ...process.env, ...ID }, stdio: "pipe" });
    const logs2: string[] = [];
    const r = await deployDe(repo.dev, {}, logs2);
    expect(r.published).toBe(false);
    expect(logs2.join("\n")).toContain("já tem este site");
    expect(ghPages()).toBe(publicado);
  });

  it("an eventos.json gone back alone (data unchanged, no revert): the restore command, as given, brings the published events back and the site goes", async () => {
    commitSite(repo.runner, { "api/v1/eventos.json": eventos([[2, 2], [1, 1]]), "api/v1/feed.xml": feed(2) }, "day 1");
    commitSite(repo.runner, { "api/v1/index.json": indexEm("2026-09-08T19:00:00-03:00"), "api/v1/eventos.json": eventos([[3, 3], [2, 2], [1, 1]]), "api/v1/feed.xml": feed(3) }, "day 2");
    gitIn(repo.runner, "push", "-q", "origin", "main");
    expect((await deployDe(repo.runner)).published).toBe(true);
    gitIn(repo.dev, "pull", "-q");
    // a merge resolved with an old side of the two files
    gitIn(repo.dev, "checkout", "HEAD~1", "--", "public/api/v1/eventos.json", "public/api/v1/feed.xml");
    commitSite(repo.dev, { "index.html": "<!doctype html><p>nova página\n" }, "page, over an old eventos.json");
    const err = await falha(deployDe(repo.dev));
    expect(err?.message).toContain(`seq 3: publicado ${evt(3)}, ausente deste site`);
    expect(err?.message).not.toContain("é um git revert");
    const comando = /restaure os dois arquivos do site publicado: (git fetch .+?) e commite/.exec(err!.message)?.[1];
    expect(comando).toBe(
      "git fetch origin gh-pages && git show FETCH_HEAD:api/v1/eventos.json > public/api/v1/eventos.json && git show FETCH_HEAD:api/v1/feed.xml > public/api/v1/feed.xml",
    );
    execSync(comando!, { cwd: repo.dev, env: { ...process.env, ...ID }, stdio: "pipe" });
    gitIn(repo.dev, "commit", "-q", "-m", "events restored", "--", "public/api/v1/eventos.json", "public/api/v1/feed.xml");
    expect((await deployDe(repo.dev)).published).toBe(true);
    expect(publicadoEm("index.html")).toContain("nova página");
    expect(publicadoEm("api/v1/eventos.json")).toContain(evt(3));
  });

  it("a published seq given to another event by a site that lacks the published commit (published from a clone never pushed): the refusal says to bring that commit over, not just its events", async () => {
    commitSite(repo.runner, { "api/v1/index.json": indexEm("2026-09-07T19:00:00-03:00"), "api/v1/eventos.json": eventos([[2, 2], [1, 1]]) }, "runner's run, not pushed");
    const naoEnviado = (await deployDe(repo.runner)).source!;
    commitSite(repo.dev, { "api/v1/index.json": indexEm("2026-09-08T19:00:00-03:00"), "api/v1/eventos.json": eventos([[20, 2], [1, 1]]) }, "dev's run");
    const err = await falha(deployDe(repo.dev));
    expect(err?.message).toContain(`seq 2: publicado ${evt(2)}, neste site ${evt(20)}`);
    expect(err?.message).toContain(`O site publicado veio do commit ${naoEnviado.slice(0, 12)}, que este clone não tem: os eventos publicados contam os dados dele. Leve-o ao main`);
  });

  it("a published seq given to another event is refused, naming the seq and both ids, also over --substituir-mais-novo", async () => {
    commitSite(repo.runner, { "api/v1/eventos.json": eventos([[3, 3], [2, 2], [1, 1]]) }, "runner's run");
    gitIn(repo.runner, "push", "-q", "origin", "main");
    await deployDe(repo.runner);
    const publicado = ghPages();
    gitIn(repo.dev, "pull", "-q");
    // the next run numbered its event from a list that had lost seq 3
    commitSite(repo.dev, { "api/v1/eventos.json": eventos([[30, 4], [31, 3], [2, 2], [1, 1]]) }, "dev's run over an older list");
    const err = await falha(deployDe(repo.dev));
    expect(err?.message).toContain(`seq 3: publicado ${evt(3)}, neste site ${evt(31)}`);
    expect(err?.message).not.toContain("seq 4:");
    expect(err?.message).toContain("quem guarda o maior seq já lido");
    expect(ghPages()).toBe(publicado);
    const err2 = await falha(deployDe(repo.dev, { substituirMaisNovo: true }));
    expect(err2?.message).toContain(`seq 3: publicado ${evt(3)}, neste site ${evt(31)}`);
    expect(ghPages()).toBe(publicado);
  });

  it("a published eventos.json from before seq published no number: main's first numbered list passes even when its copy was trimmed past the published one", async () => {
    // the last runs before seq: published [3, 2, 1]; then a deploy failed while main's copy, at its
    // bound, took in 4 and 5 and trimmed 1 and 2
    commitSite(repo.runner, { "api/v1/eventos.json": eventos([3, 2, 1]) }, "events before seq");
    gitIn(repo.runner, "push", "-q", "origin", "main");
    await deployDe(repo.runner);
    gitIn(repo.dev, "pull", "-q");
    // the first run with seq numbers main's copy as it stands (the oldest listed is 1), and webhooks
    // carry those numbers: the published file's own order (3 for evt 3) was never anyone's
    commitSite(repo.dev, { "api/v1/eventos.json": eventos([[6, 4], [5, 3], [4, 2], [3, 1]]) }, "the first run with seq");
    const logs: string[] = [];
    expect((await deployDe(repo.dev, {}, logs)).published).toBe(true);
    expect(logs.join("\n")).toContain("não tem evento numerado (vazio, ou de antes do seq): nenhum seq publicado a conferir");
    expect(publicadoEm("api/v1/eventos.json")).toContain(`"seq":4`);
    // from now on the numbers are published, and held
    commitSite(repo.dev, { "api/v1/eventos.json": eventos([[9, 4], [5, 3], [4, 2], [3, 1]]) }, "seq 4 to another event");
    const err = await falha(deployDe(repo.dev));
    expect(err?.message).toContain(`seq 4: publicado ${evt(6)}, neste site ${evt(9)}`);
  });

  it("no published eventos.json, the same events, or new events on top: published", async () => {
    commitSite(repo.runner, { "api/v1/eventos.json": eventos([[1, 1]]) }, "first events");
    expect((await deployDe(repo.runner)).published).toBe(true);
    commitSite(repo.runner, { "index.html": "<!doctype html><p>outra página\n" }, "page only");
    expect((await deployDe(repo.runner)).published).toBe(true);
    commitSite(repo.runner, { "api/v1/eventos.json": eventos([[3, 3], [2, 2], [1, 1]]) }, "two more");
    expect((await deployDe(repo.runner)).published).toBe(true);
    expect(publicadoEm("api/v1/eventos.json")).toContain(evt(3));
  });
});

describe("auditoria 8, deploy: the published events as a consumer numbers them", () => {
  it("reads the published file leniently (only seq and id); one from before seq published no number", () => {
    expect(eventosPublicados(null)).toBeNull();
    expect(eventosPublicados("{ metade")).toBeNull();
    expect(eventosPublicados('{"eventos":"nada"}')).toBeNull();
    expect(eventosPublicados(eventos([2, 1]))).toEqual([]);
    expect(eventosPublicados(eventos([[2, 2], [1, 1]]))).toEqual([
      { seq: 2, id: evt(2) },
      { seq: 1, id: evt(1) },
    ]);
    // an event today's schema would refuse (a series since taken out) still holds its number
    expect(eventosPublicados('{"eventos":[{"id":"evt_00000000000000000007","seq":7,"tipo":"extinto"}]}')).toEqual([{ seq: 7, id: evt(7) }]);
  });

  it("a site without events under a published list lacks them all; a list above the published one with no overlap lacks none", () => {
    const publicados = [
      { seq: 2, id: evt(2) },
      { seq: 1, id: evt(1) },
    ];
    expect(conferirSeq([], publicados)).toEqual({ trocados: [], ausentes: publicados, topo: 0, topoPublicado: 2 });
    // a run bigger than the bound: the older runs left the list, the numbers go on
    expect(conferirSeq([{ seq: 5, id: evt(5) }], publicados)).toBeNull();
    expect(conferirSeq([], [])).toBeNull();
  });
});

describe("auditoria 8, deploy: when the dates decide, an equal atualizado is not a pass", () => {
  it("equal index.json dates: an older status.json is refused, naming both; a newer one passes", async () => {
    // published from a commit origin never got: the dates decide
    commitSite(repo.runner, { "api/v1/index.json": indexEm("2026-09-08T19:00:00-03:00"), "api/v1/status.json": statusEm("2026-09-09T07:37:00-03:00") }, "status: a source failed");
    const publicado = (await deployDe(repo.runner)).commit;
    commitSite(
      repo.dev,
      { "api/v1/index.json": indexEm("2026-09-08T19:00:00-03:00"), "api/v1/status.json": statusEm("2026-09-08T19:00:00-03:00"), "index.html": "<!doctype html><p>novo\n" },
      "page",
    );
    const err = await falha(deployDe(repo.dev));
    expect(err?.message).toContain("os dados têm a mesma data (2026-09-08T19:00:00-03:00)");
    expect(err?.message).toContain("o status.json publicado é de 2026-09-09T07:37:00-03:00, mais novo que o deste site (2026-09-08T19:00:00-03:00)");
    expect(err?.message).toContain("nada foi publicado");
    expect(ghPages()).toBe(publicado);
    commitSite(repo.dev, { "api/v1/status.json": statusEm("2026-09-09T10:37:00-03:00") }, "status: the source back");
    const logs: string[] = [];
    expect((await deployDe(repo.dev, {}, logs)).published).toBe(true);
    expect(logs.join("\n")).toContain("status.json deste site de 2026-09-09T10:37:00-03:00; o publicado, de 2026-09-09T07:37:00-03:00");
  });

  it("equal dates and equal status (a page change from another clone): published", async () => {
    const comum = { "api/v1/index.json": indexEm("2026-09-08T19:00:00-03:00"), "api/v1/status.json": statusEm("2026-09-08T19:00:00-03:00") };
    commitSite(repo.runner, comum, "data");
    await deployDe(repo.runner);
    commitSite(repo.dev, { ...comum, "index.html": "<!doctype html><p>novo\n" }, "same data, new page");
    expect((await deployDe(repo.dev)).published).toBe(true);
  });
});

describe("auditoria 8, deploy: the fetch of origin's history has a bound", () => {
  let servidor: Server;
  let porta = 0;
  const conexoes = new Set<Socket>();
  let fechadas = 0;
  beforeEach(async () => {
    fechadas = 0;
    // accepts and never answers: git's own protocol has no timeout of its own
    servidor = createServer((s) => {
      conexoes.add(s);
      // reads (and drops) what git sends, so the end of its connection is seen
      s.resume();
      s.on("close", () => {
        conexoes.delete(s);
        fechadas++;
      });
    });
    await new Promise<void>((ok) => servidor.listen(0, "127.0.0.1", ok));
    porta = (servidor.address() as { port: number }).port;
  });
  afterEach(async () => {
    for (const s of conexoes) s.destroy();
    await new Promise<void>((ok) => servidor.close(() => ok()));
  });

  it("an origin that never answers: the fetch is stopped at the bound, the dates decide, no git left running", async () => {
    commitSite(repo.runner, { "api/v1/index.json": indexEm("2026-09-07T19:00:00-03:00") }, "day 1, not pushed");
    await deployDe(repo.runner);
    // the clone reaches origin through a server that hangs; the deploy itself pushes to the bare repository
    gitIn(repo.dev, "remote", "set-url", "origin", `git://127.0.0.1:${porta}/origin.git`);
    commitSite(repo.dev, { "api/v1/index.json": indexEm("2026-09-08T19:00:00-03:00") }, "day 2");
    const logs: string[] = [];
    const inicio = Date.now();
    const r = await deployDe(repo.dev, { repo: repo.origin, prazoDaBuscaMs: 1500 } as Partial<DeployOptions>, logs);
    expect(Date.now() - inicio).toBeLessThan(15_000);
    expect(r.published).toBe(true);
    const saida = logs.join("\n");
    expect(saida).toContain("não respondeu em 1,5 s (rede ou servidor parado); a busca foi interrompida e quem decide são as datas dos dados");
    expect(saida).toContain("dados deste site de 2026-09-08T19:00:00-03:00; os publicados, de 2026-09-07T19:00:00-03:00");
    // the git that hung was ended: its connection is closed
    await expect.poll(() => fechadas, { timeout: 5000 }).toBeGreaterThan(0);
    expect(conexoes.size).toBe(0);
    // a later fetch in the clone is not blocked by a lock file the stopped one left
    gitIn(repo.dev, "remote", "set-url", "origin", repo.origin);
    gitIn(repo.dev, "fetch", "-q", "origin");
  }, 30_000);

  it("a deploy stopped during the fetch (Ctrl-C, a cancelled job) ends the git it started, which runs in a group of its own", async () => {
    commitSite(repo.runner, { "api/v1/index.json": indexEm("2026-09-07T19:00:00-03:00") }, "day 1, not pushed");
    await deployDe(repo.runner);
    gitIn(repo.dev, "remote", "set-url", "origin", `git://127.0.0.1:${porta}/origin.git`);
    // .mts: outside the project (no package.json of type module) an ESM script needs the extension
    const script = join(repo.dev, "..", "deploy-parado.mts");
    writeFileSync(
      script,
      `import { deploy } from ${JSON.stringify(join(REPO_ROOT, "pipeline/publish/deploy.ts"))};\n` +
        `await deploy({ dir: ${JSON.stringify(join(repo.dev, "public"))}, cwd: ${JSON.stringify(repo.dev)}, repo: ${JSON.stringify(repo.origin)}, ` +
        `env: ${JSON.stringify(ID)}, prazoDaBuscaMs: 60_000, log: (l: string) => console.log(l) });\n`,
    );
    const filho = spawn(process.execPath, ["--import", "tsx", script], { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let saida = "";
    filho.stdout.on("data", (d: Buffer) => (saida += d.toString()));
    let erros = "";
    filho.stderr.on("data", (d: Buffer) => (erros += d.toString()));
    const fim = new Promise<NodeJS.Signals | number | null>((ok) => filho.on("exit", (code, signal) => ok(signal ?? code)));
    await expect.poll(() => conexoes.size + fechadas, { timeout: 15_000 }).toBe(1);
    expect(saida, erros).toContain("buscando o commit");
    expect(fechadas).toBe(0);
    filho.kill("SIGINT");
    expect(await fim).toBe("SIGINT");
    await expect.poll(() => fechadas, { timeout: 5000 }).toBe(1);
    expect(conexoes.size).toBe(0);
  }, 30_000);
});

describe("auditoria 8, deploy: a file git was told not to look at", () => {
  const site = () => join(repo.runner, "public");

  it("an edit hidden by assume-unchanged is refused, naming the file and the flag", async () => {
    put(repo.runner, "public/index.html", "<!doctype html><p>editado à mão\n");
    gitIn(repo.runner, "update-index", "--assume-unchanged", "public/index.html");
    expect(gitIn(repo.runner, "status", "--porcelain")).toBe("");
    const err = await falha(conferirArvoreDoDeploy(site(), repo.runner));
    expect(err?.message).toContain("public/index.html (marcado assume-unchanged: o git não confere se ele mudou)");
    expect(err?.message).toContain("git update-index --no-assume-unchanged -- public/index.html;");
  });

  it("skip-worktree, an edited file and a deleted one (as a sparse checkout leaves them): refused, naming both", async () => {
    put(repo.runner, "public/api/v1/cotacao.json", '{"soja":1}\n');
    gitIn(repo.runner, "update-index", "--skip-worktree", "public/api/v1/cotacao.json", "public/api/v1/index.json");
    execFileSync("rm", [join(site(), "api", "v1", "index.json")]);
    expect(gitIn(repo.runner, "status", "--porcelain")).toBe("");
    const err = await falha(conferirArvoreDoDeploy(site(), repo.runner));
    expect(err?.message).toContain("em 2 arquivo(s)");
    expect(err?.message).toContain("public/api/v1/cotacao.json (marcado skip-worktree: o git não confere se ele mudou)");
    expect(err?.message).toContain("public/api/v1/index.json (marcado skip-worktree");
  });

  it("the command that clears the marks clears both, as printed (git update-index given both flags clears only the first)", async () => {
    put(repo.runner, "public/index.html", "<!doctype html><p>editado à mão\n");
    put(repo.runner, "public/api/v1/cotacao.json", '{"soja":1}\n');
    gitIn(repo.runner, "update-index", "--assume-unchanged", "public/index.html", "public/api/v1/cotacao.json");
    gitIn(repo.runner, "update-index", "--skip-worktree", "public/api/v1/cotacao.json", "public/api/v1/index.json");
    expect(gitIn(repo.runner, "ls-files", "-v", "--", "public")).toBe("s public/api/v1/cotacao.json\nS public/api/v1/index.json\nh public/index.html");
    const err = await falha(conferirArvoreDoDeploy(site(), repo.runner));
    expect(err?.message).toContain("public/api/v1/cotacao.json (marcado assume-unchanged e skip-worktree");
    const comando = /Tire a marca dos arquivos marcados \((.+?); numa cópia esparsa/.exec(err!.message)?.[1];
    expect(comando).toBe(
      "git update-index --no-assume-unchanged -- public/api/v1/cotacao.json public/index.html && git update-index --no-skip-worktree -- public/api/v1/cotacao.json public/api/v1/index.json",
    );
    execSync(comando!, { cwd: repo.runner });
    expect(gitIn(repo.runner, "ls-files", "-v", "--", "public")).toBe("H public/api/v1/cotacao.json\nH public/api/v1/index.json\nH public/index.html");
    // unmarked, the edits are what git status shows, and what the deploy then names
    expect(gitIn(repo.runner, "status", "--porcelain")).toBe("M public/api/v1/cotacao.json\n M public/index.html");
  });

  it("many marked files (a sparse checkout leaving the series out): the command that clears the marks does not name them one by one, and it works as printed", async () => {
    const series = Array.from({ length: 400 }, (_, i) => `api/v1/cotacao/serie_${String(i).padStart(3, "0")}_com_um_nome_comprido.json`);
    commitSite(repo.runner, Object.fromEntries(series.map((rel) => [rel, "{}\n"])), "400 series");
    execSync("git ls-files -z -- public/api/v1/cotacao | xargs -0 git update-index --skip-worktree --", { cwd: repo.runner });
    for (const rel of series) execFileSync("rm", [join(site(), ...rel.split("/"))]);
    expect(gitIn(repo.runner, "status", "--porcelain")).toBe("");
    const err = await falha(conferirArvoreDoDeploy(site(), repo.runner));
    expect(err?.message).toContain("em 400 arquivo(s)");
    expect(err?.message).toContain("... e mais 390");
    expect(err!.message.length).toBeLessThan(4000);
    const comando = /Tire a marca dos arquivos marcados \((.+?); numa cópia esparsa/.exec(err!.message)?.[1];
    expect(comando).toBe("git ls-files -z -- public/ | xargs -0 git update-index --no-skip-worktree --");
    execSync(comando!, { cwd: repo.runner });
    // unmarked, the deleted files are what git status shows
    expect(gitIn(repo.runner, "ls-files", "-v", "--", "public").split("\n").filter((l) => /^[a-zS]/.test(l))).toEqual([]);
    expect(gitIn(repo.runner, "status", "--porcelain").split("\n")).toHaveLength(400);
  });

  it("a flag on a file outside the site, or a dotfile of it, is no reason to refuse", async () => {
    put(repo.runner, "public/.anotacoes", "x\n");
    gitIn(repo.runner, "add", "public/.anotacoes");
    gitIn(repo.runner, "commit", "-q", "-m", "notes");
    put(repo.runner, "public/.anotacoes", "editado\n");
    gitIn(repo.runner, "update-index", "--assume-unchanged", "pipeline/x.ts", "public/.anotacoes");
    expect(await conferirArvoreDoDeploy(site(), repo.runner)).toBe(gitIn(repo.runner, "rev-parse", "HEAD"));
  });
});
