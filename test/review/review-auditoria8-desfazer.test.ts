/**
 * Audit 8: undoing a published wrong number was neither safe nor announced.
 *
 * Every event has a contiguous `seq`; a `git revert` of a published data commit reverted
 * eventos.json too, so the next update handed out `seq` numbers already read (a consumer keeping
 * the highest one never saw the new events), and nothing ever told consumers that the value went
 * back: events come from an update's merge, and a series file going back makes none. The README
 * only documented a manual workaround. `npm run desfazer -- COMMIT` takes the commit's days back
 * (its parent's values, later days kept), moves eventos.json forward with events telling each value
 * that went back, and publishes the site rendered from the restored histories, all or nothing.
 *
 * A temp git repository; the real pipeline (recorded pages, runUpdate, publishFiles).
 */
import { spawnSync } from "node:child_process";
import { readFile, rm, writeFile } from "node:fs/promises";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../pipeline/config.ts";
import { seriesJsonPath } from "../../pipeline/domain/series.ts";
import { EVENTOS_PATH, FEED_PATH, type Evento, type EventosFile } from "../../pipeline/events/model.ts";
import { entregarEventos, loadEstado } from "../../pipeline/events/webhooks.ts";
import { setFalhasDePublicacao, STAGING_DIR } from "../../pipeline/publish/journal.ts";
import { runBuild } from "../../pipeline/run/build.ts";
import { formatDesfazer, runDesfazer } from "../../pipeline/run/desfazer.ts";
import { serieDef } from "../../pipeline/sources/index.ts";
import { arvore, cleanup, copiarEntradas, diferencas, editPage, milhoComDiaNovo, replay, replayDir, tempSite, testConfig } from "../helpers/pipeline.ts";
import { gitIn } from "../helpers/repos.ts";
import { assinaturaNoTeste } from "../events/helpers.ts";
import { dadosEm, gravadas, iniciarRepo, milho0309, semBoi0409 } from "./desfazer-helpers.ts";

const T1 = "2026-09-27T12:00:00-03:00";
const T2 = "2026-09-28T12:00:00-03:00";
const T3 = "2026-09-29T12:00:00-03:00";
const T_DESFAZER = "2026-09-30T12:00:00-03:00";
const T4 = "2026-10-01T12:00:00-03:00";

/** milho's 03/09 within the revision bound: a value that is wrong. */
const milhoErrado = milho0309("71,16");

const BOI = seriesJsonPath(serieDef("boi_gordo")!);
const MILHO = seriesJsonPath(serieDef("milho")!);

describe("audit 8: npm run desfazer undoes a published commit's data, safely and announced", () => {
  let repo: string;
  let site: string;
  const paginas: string[] = [];
  let W = ""; // the wrong commit: boi gordo's 04/09 (new latest day) and milho's 03/09 revised to 71,16
  let L = ""; // a later commit: milho's 08/09 (a new day of the same series, other values)
  const { git, commit, ler, eventos } = dadosEm(() => repo);
  const config = () => testConfig(site);
  const desfazer = (c: string, now = T_DESFAZER) => runDesfazer({ config: config(), commit: c, now: new Date(now), env: {} });
  /** the tree as git has it: nothing changed, nothing left behind */
  const intacta = async (eventosAntes: string) => {
    expect(git("status", "--porcelain", "--untracked-files=all")).toBe("");
    expect(await ler(EVENTOS_PATH)).toBe(eventosAntes);
    expect(existsSync(join(site, STAGING_DIR))).toBe(false);
  };

  beforeAll(async () => {
    repo = mkdtempSync(join(tmpdir(), "cotacao-desfazer-"));
    site = join(repo, "public");
    await iniciarRepo(repo, { "LEIAME.md": "dados\n" });

    const p1 = await gravadas(paginas, ["cepea/boi-gordo.html", semBoi0409]);
    const p2 = await gravadas(paginas, ["cepea/milho.html", milhoErrado]);
    const p3 = await gravadas(paginas, ["cepea/milho.html", milhoErrado]);
    await milhoComDiaNovo(p3);

    expect((await replay(p1, site, T1)).exitCode).toBe(0);
    commit("dados de 27/09");
    const r2 = await replay(p2, site, T2);
    expect(r2.changes.map((c) => c.id).sort()).toEqual(["boi_gordo", "milho"]);
    W = commit("dados de 28/09 (milho errado)");
    const r3 = await replay(p3, site, T3);
    expect(r3.changes.map((c) => c.id)).toEqual(["milho"]);
    L = commit("dados de 29/09");
  }, 300_000);
  afterAll(() => cleanup(repo, ...paginas));

  it("refuses, naming the stage and what was wrong, and changes nothing: unknown commit, no data, merge, dirty tree", async () => {
    const antes = await ler(EVENTOS_PATH);
    await expect(desfazer("0123456789abcdef")).rejects.toThrow(
      "[merge] desfazer 0123456789abcdef: o commit 0123456789abcdef não existe neste repositório (confira o hash com git log -- public). Nada foi mudado",
    );
    await intacta(antes);
    const inicio = git("rev-list", "--max-parents=0", "HEAD");
    await expect(desfazer(inicio)).rejects.toThrow(/é o primeiro commit do repositório: não há estado anterior/);

    // a commit of code only
    await writeFile(join(repo, "LEIAME.md"), "dados e código\n");
    git("commit", "-q", "-m", "docs", "--", "LEIAME.md");
    const docs = git("rev-parse", "HEAD");
    await expect(desfazer(docs)).rejects.toThrow(
      `[merge] desfazer ${docs}: ${docs.slice(0, 12)} ("docs") não mudou nenhum dado: nenhum histórico de série (api/v1/cotacao/...) nem registro de capturas (api/v1/capturas/); nada a desfazer`,
    );
    // a merge
    git("checkout", "-q", "-b", "lado", `${docs}~1`);
    await writeFile(join(repo, "outro.md"), "x\n");
    git("add", "outro.md");
    git("commit", "-q", "-m", "lado");
    git("checkout", "-q", "main");
    git("merge", "-q", "--no-ff", "-m", "junta lado", "lado");
    const merge = git("rev-parse", "HEAD");
    await expect(desfazer(merge)).rejects.toThrow(/\[merge\] desfazer [0-9a-f]{40}: [0-9a-f]{12} \("junta lado"\) é um merge \(2 pais\): .*desfaça o commit de dados errado, não o merge/);
    // uncommitted data in the site
    await writeFile(join(site, "api/v1/cotacao/rascunho.json"), "{}");
    await expect(desfazer(W)).rejects.toThrow(/\[merge\] desfazer [0-9a-f]{40}: há mudanças não commitadas em public\/ \(public\/api\/v1\/cotacao\/rascunho\.json\); faça commit delas ou descarte-as/);
    await rm(join(site, "api/v1/cotacao/rascunho.json"));
    await intacta(antes);
  });

  it("refuses a commit whose values a later commit changed again, naming that commit and what to do", async () => {
    // a clone, so the main repository keeps its history
    const clone = mkdtempSync(join(tmpdir(), "cotacao-desfazer-clone-"));
    try {
      gitIn(clone, "clone", "-q", repo, ".");
      const pages = await gravadas(paginas, ["cepea/milho.html", milho0309("71,20")]);
      await milhoComDiaNovo(pages);
      const outro = join(clone, "public");
      expect((await replay(pages, outro, T3)).changes.map((c) => c.id)).toEqual(["milho"]);
      gitIn(clone, "add", "--all", "--", "public");
      gitIn(clone, "commit", "-q", "-m", "milho revisado de novo");
      const X = gitIn(clone, "rev-parse", "HEAD");
      const antes = await readFile(join(outro, EVENTOS_PATH), "utf8");
      await expect(runDesfazer({ config: testConfig(outro), commit: W, now: new Date(T_DESFAZER), env: {} })).rejects.toThrow(
        `[merge] desfazer ${W}: o commit posterior ${X.slice(0, 12)} ("milho revisado de novo") mudou de novo milho em 2026-09-03, que ${W.slice(0, 12)} tinha mudado: ` +
          `desfazer só ${W.slice(0, 12)} jogaria fora esse commit. Desfaça primeiro o posterior (npm run desfazer -- ${X.slice(0, 12)}) e depois ${W.slice(0, 12)}, ou corrija o valor com uma nova atualização. Nada foi mudado`,
      );
      expect(gitIn(clone, "status", "--porcelain", "--untracked-files=all")).toBe("");
      expect(await readFile(join(outro, EVENTOS_PATH), "utf8")).toBe(antes);
    } finally {
      await rm(clone, { recursive: true, force: true });
    }
  }, 120_000);

  it("a failure mid-publish leaves the tree as it was", async () => {
    const antes = await ler(EVENTOS_PATH);
    setFalhasDePublicacao({
      antes: (p, k) => {
        if (k === 5) throw new Error(`disco cheio (simulado) em ${p.tipo}`);
      },
    });
    try {
      await expect(desfazer(W)).rejects.toThrow(/disco cheio \(simulado\)/);
    } finally {
      setFalhasDePublicacao({});
    }
    await intacta(antes);
  }, 120_000);

  describe("the undo", () => {
    let antes: EventosFile;
    let boiAntes: { data_cotacao: string; valor: number };
    let report: Awaited<ReturnType<typeof desfazer>>;
    beforeAll(async () => {
      antes = await eventos();
      boiAntes = JSON.parse(await ler(BOI));
      report = await desfazer(W);
    }, 120_000);

    it("restores the days the commit changed, from its parent; a later day of the same series stays", async () => {
      expect(report.series).toEqual(["boi_gordo", "milho"]);
      // boi gordo was not touched since: its parent's file, byte for byte
      expect(await ler(BOI)).toBe(git("show", `${W}~1:public/${BOI}`) + "\n");
      const milho = JSON.parse(await ler(MILHO));
      expect(milho.historico.find((e: { data: string }) => e.data === "2026-09-03").valor).toBe(71.06);
      expect(milho.data_cotacao).toBe("2026-09-08");
      expect(milho.valor).toBe(71.1);
      // the commit's capture records left the log; the later one stayed
      const ids = (t: string) => (JSON.parse(t) as { capturas: Array<{ id: string }> }).capturas.map((c) => c.id);
      const log = ids(await ler("api/v1/capturas/2026.json"));
      expect(log).toEqual(ids(git("show", `${W}~1:public/api/v1/capturas/2026.json`)).concat(ids(git("show", `${L}:public/api/v1/capturas/2026.json`)).filter((id) => !ids(git("show", `${W}:public/api/v1/capturas/2026.json`)).includes(id))));
      expect(report.capturas).toBeGreaterThan(0);
      expect(formatDesfazer(report, site).join("\n")).toContain(
        `git add --all -- public desfeitos.json && git commit -m "Undo the data of ${W.slice(0, 12)} (dados de 28/09 (milho errado))" -- public desfeitos.json`,
      );
    });

    it("events numbered after the top seq, telling each value that went back from what consumers were last told", async () => {
      const depois = await eventos();
      const topo = antes.eventos[0]!.seq;
      const novos = depois.eventos.slice(0, depois.eventos.length - antes.eventos.length);
      expect(depois.eventos.slice(novos.length)).toEqual(antes.eventos);
      expect(novos.map((e) => e.seq)).toEqual(novos.map((_, i) => topo + novos.length - i));
      expect(report.eventos).toEqual(novos);
      const ids = new Set(antes.eventos.map((e) => e.id));
      expect(novos.every((e) => !ids.has(e.id))).toBe(true);
      expect(novos.map((e) => [e.tipo, e.tipo === "cotacao_atualizada" ? null : e.dados.serie])).toEqual([
        ["cotacao_atualizada", null],
        ["price_changed", "boi_gordo"],
        ["historico_revisado", "milho"],
      ]);
      // boi gordo's latest day went back: anterior is the 04/09 consumers were told (the latest
      // price_changed they got), atual the day before, now the latest
      const ultimoAviso = antes.eventos.find((e): e is Extract<Evento, { tipo: "price_changed" }> => e.tipo === "price_changed" && e.dados.serie === "boi_gordo")!;
      const boi = novos[1] as Extract<Evento, { tipo: "price_changed" }>;
      const boiAgora = JSON.parse(await ler(BOI));
      expect(boi.dados.anterior).toEqual({ data: boiAntes.data_cotacao, valor: boiAntes.valor });
      expect(boi.dados.anterior).toEqual(ultimoAviso.dados.atual);
      expect(boi.dados.anterior.data).toBe("2026-09-04");
      expect(boi.dados.atual).toEqual({ data: boiAgora.data_cotacao, valor: boiAgora.valor });
      expect(boi.dados.atual.data < boi.dados.anterior.data).toBe(true);
      expect(boi.dados.dias).toBe(1);
      expect(boi.dados.dias_novos).toEqual([]);
      const milho = novos[2] as Extract<Evento, { tipo: "historico_revisado" }>;
      expect(milho.dados.revisoes).toEqual([{ data: "2026-09-03", anterior: 71.16, atual: 71.06 }]);
      const resumo = novos[0] as Extract<Evento, { tipo: "cotacao_atualizada" }>;
      expect(resumo.dados).toMatchObject({ dias_novos: 0, revisoes: 2 });
      expect(resumo.criado_em).toBe(T_DESFAZER);
      // the feed has them too
      const feed = await ler(FEED_PATH);
      for (const e of novos) expect(feed).toContain(`eventos.json#${e.id}`);
      expect(feed).toContain("de 04/09/2026 para 03/09/2026");
    });

    const assinatura = assinaturaNoTeste("cotacao-desfazer-hook-", 204);
    it("a webhook subscriber that got everything before gets exactly the undo's events, and no loss", async () => {
      const entregar = async (f: EventosFile) =>
        entregarEventos(f, [assinatura.assinante()], await loadEstado(assinatura.estadoFile), { ...assinatura.rapido, estadoFile: assinatura.estadoFile });
      expect((await entregar(antes)).ok).toBe(true);
      assinatura.rx.recebidos = [];
      const r = await entregar(await eventos());
      expect(r.ok).toBe(true);
      expect(r.resumo[0]).toMatchObject({ perdidos: [], aviso: null });
      expect(assinatura.rx.recebidos.map((x) => JSON.parse(x.body).seq).sort()).toEqual(report.eventos.map((e) => e.seq).sort());
    });

    it("the site is what a full build of the restored histories renders", async () => {
      git("add", "--all", "--", "public");
      const r = await runBuild(config(), new Date(T_DESFAZER));
      expect(r.written).toEqual([]);
      // and from the inputs alone, in an empty directory
      const vazio = await tempSite();
      try {
        await copiarEntradas(site, vazio);
        await runBuild(testConfig(vazio), new Date(T_DESFAZER));
        expect(diferencas(await arvore(site), await arvore(vazio))).toEqual([]);
      } finally {
        await cleanup(vazio);
      }
      expect(git("status", "--porcelain", "--", "public").split("\n").every((l) => l.startsWith("M "))).toBe(true);
    }, 120_000);

    it("committed, the next update numbers on: no seq is ever handed out twice", async () => {
      git("add", "--", "desfeitos.json");
      git("commit", "-q", "-m", "Undo", "--", "public", "desfeitos.json");
      // its data is undone already: a second undo is refused, nothing changes
      const antesDeNovo = await ler(EVENTOS_PATH);
      await expect(desfazer(W)).rejects.toThrow(
        `[merge] desfazer ${W}: os dados de ${W.slice(0, 12)} ("dados de 28/09 (milho errado)") já foram desfeitos (nenhum histórico nem registro de capturas dele está publicado agora). Nada foi mudado`,
      );
      await intacta(antesDeNovo);
      const pages = await replayDir();
      paginas.push(pages);
      await milhoComDiaNovo(pages);
      await editPage(pages, "cepea/milho.html", (h) => h.replace("<td>08/09/2026</td><td>71,10</td>", "<td>08/09/2026</td><td>71,40</td>"));
      // boi gordo's 04/09 is still on the page, at the value undone: that day is kept out
      // (desfeitos.json), the rest of the run goes on
      const r4 = await replay(pages, site, T4);
      expect(r4.exitCode).toBe(0);
      expect(r4.changes.map((c) => c.id)).toEqual(["milho"]);
      commit("dados de 01/10");
      // every eventos.json ever committed: one id per seq, one seq per id
      const porSeq = new Map<number, string>();
      for (const c of git("rev-list", "HEAD", "--", `public/${EVENTOS_PATH}`).split("\n")) {
        const f = JSON.parse(git("show", `${c}:public/${EVENTOS_PATH}`)) as EventosFile;
        for (const e of f.eventos) {
          expect(porSeq.get(e.seq) ?? e.id).toBe(e.id);
          porSeq.set(e.seq, e.id);
        }
      }
      expect(new Set(porSeq.values()).size).toBe(porSeq.size);
      const ultimo = await eventos();
      expect(ultimo.eventos[0]!.seq).toBe(Math.max(...porSeq.keys()));
      expect(ultimo.eventos.at(-1)!.seq).toBe(1);
      // not brought back: boi gordo's latest news is still the undo's
      const boi = ultimo.eventos.find((e) => e.tipo === "price_changed" && e.dados.serie === "boi_gordo")!;
      expect(report.eventos.map((e) => e.id)).toContain(boi.id);
    }, 120_000);

    it("a commit whose new day the next update revised is refused, naming that update", async () => {
      const antes2 = await ler(EVENTOS_PATH);
      const depois = git("rev-parse", "HEAD");
      await expect(desfazer(L)).rejects.toThrow(
        `[merge] desfazer ${L}: o commit posterior ${depois.slice(0, 12)} ("dados de 01/10") mudou de novo milho em 2026-09-08, que ${L.slice(0, 12)} tinha mudado`,
      );
      await intacta(antes2);
    });
  });
});

describe("audit 8: the command line", () => {
  const cli = (cwd: string, ...args: string[]) =>
    spawnSync(join(REPO_ROOT, "node_modules", ".bin", "tsx"), [join(REPO_ROOT, "pipeline/cli/desfazer.ts"), ...args], {
      cwd,
      encoding: "utf8",
      env: { ...process.env, COTACAO_PUBLIC_DIR: join(cwd, "public") },
    });

  it("npm run desfazer is the command; no COMMIT is a usage error; a refusal exits 1 with its message", async () => {
    const pkg = JSON.parse(await readFile(join(REPO_ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> };
    expect(pkg.scripts.desfazer).toBe("tsx pipeline/cli/desfazer.ts");
    const dir = mkdtempSync(join(tmpdir(), "cotacao-desfazer-cli-"));
    try {
      await iniciarRepo(dir);
      const semArg = cli(dir);
      expect(semArg.status).toBe(2);
      expect(semArg.stderr).toContain("falta o COMMIT a desfazer\nuso: npm run desfazer -- COMMIT");
      const r = cli(dir, "cafe1234");
      expect(r.status).toBe(1);
      expect(r.stderr).toContain("[merge] desfazer cafe1234: o commit cafe1234 não existe neste repositório");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
