/**
 * Audit 8: a number `npm run desfazer` took off the site came back the next day.
 *
 * The undo restored the series, but the source usually still shows the wrong number: the
 * scheduled update read the same page hours later and published it again (the README only said
 * to turn the source off first, which nobody does before the next scheduled run). Now the undo
 * records each value it took out in desfeitos.json, at the top of the data's repository, and the
 * update and the backfill hold a page (a file) that brings exactly one of them back for that day
 * of that series, saying why in status.json; a different value (the source's correction) goes
 * through as usual, and taking the entry out of the file lets the value in.
 *
 * A temp git repository; the real pipeline (recorded pages, runUpdate, runDesfazer, runBackfill).
 */
import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatDateBR } from "../../pipeline/domain/dates.ts";
import { formatDecimalBR } from "../../pipeline/domain/money.ts";
import type { SerieFile } from "../../pipeline/domain/publicados.ts";
import { seriesJsonPath } from "../../pipeline/domain/series.ts";
import { EVENTOS_PATH, type Evento } from "../../pipeline/events/model.ts";
import { runBackfill } from "../../pipeline/run/backfill.ts";
import { runDesfazer } from "../../pipeline/run/desfazer.ts";
import { SERIES_CEPEA } from "../../pipeline/sources/cepea-series.ts";
import { serieDef } from "../../pipeline/sources/index.ts";
import { cleanup, FIXTURES, replay, testConfig } from "../helpers/pipeline.ts";
import { gitIn } from "../helpers/repos.ts";
import { diasUteis, historia, planilha, type LinhaSerie } from "../backfill/planilhas.ts";
import { boi0409, dadosEm, type Edicao, gravadas, iniciarRepo, milho0309, repoDeUmaPagina, semBoi0409, semLinha, sojaEm } from "./desfazer-helpers.ts";

const T1 = "2026-09-27T12:00:00-03:00";
const T2 = "2026-09-28T12:00:00-03:00";
const T_DESFAZER = "2026-09-29T12:00:00-03:00";
const T3 = "2026-09-30T12:00:00-03:00";
const T4 = "2026-10-01T12:00:00-03:00";
const T5 = "2026-10-02T12:00:00-03:00";
const T6 = "2026-10-05T12:00:00-03:00";

const BOI = seriesJsonPath(serieDef("boi_gordo")!);
const MILHO = seriesJsonPath(serieDef("milho")!);

describe("audit 8: a value npm run desfazer took off the site does not come back", () => {
  let repo: string;
  let site: string;
  const dirs: string[] = [];
  let W = "";
  let U = "";
  const { git, commit, ler, dia, pagina, eventos } = dadosEm(() => repo);
  /** pages recorded with these edits */
  const paginas = (...edits: Array<[string, Edicao]>) => gravadas(dirs, ...edits);

  beforeAll(async () => {
    repo = mkdtempSync(join(tmpdir(), "cotacao-desfeitos-"));
    dirs.push(repo);
    site = join(repo, "public");
    await iniciarRepo(repo);
    // before: boi gordo up to 03/09, milho's 03/09 at 71,06
    expect((await replay(await paginas(["cepea/boi-gordo.html", semBoi0409]), site, T1)).exitCode).toBe(0);
    commit("dados de 27/09");
    // the wrong commit: boi gordo's 04/09 at 347,70 (a new day), milho's 03/09 revised to 71,16
    const r = await replay(await paginas(["cepea/milho.html", milho0309("71,16")]), site, T2);
    expect(r.changes.map((c) => c.id).sort()).toEqual(["boi_gordo", "milho"]);
    W = commit("dados de 28/09 (errados)");
  }, 300_000);
  afterAll(() => cleanup(...dirs));

  it("in a shallow clone without the commit's parent, the undo says so and how to get it (not 'the first commit')", async () => {
    const clone = mkdtempSync(join(tmpdir(), "cotacao-desfeitos-raso-"));
    dirs.push(clone);
    gitIn(clone, "clone", "-q", "--depth", "1", `file://${repo}`, ".");
    await expect(runDesfazer({ config: testConfig(join(clone, "public")), commit: W, now: new Date(T_DESFAZER), env: {} })).rejects.toThrow(
      `[merge] desfazer ${W}: ${W.slice(0, 12)} ("dados de 28/09 (errados)") é o commit mais antigo deste clone raso (shallow): o pai dele não foi baixado, ` +
        "e sem ele não há o estado de antes. Baixe o histórico (git fetch --unshallow) e tente de novo. Nada foi mudado",
    );
    expect(gitIn(clone, "status", "--porcelain", "--untracked-files=all")).toBe("");
  }, 60_000);

  it("the undo records what it took out in desfeitos.json, at the top of the repository, deterministic and sorted", async () => {
    const r = await runDesfazer({ config: testConfig(site), commit: W, now: new Date(T_DESFAZER), env: {} });
    const esperado =
      "{\n" +
      '  "desfeitos": [\n' +
      `    {"serie":"boi_gordo","data":"2026-09-04","campo":"valor","valor":347.7,"commit":"${W}"},\n` +
      `    {"serie":"milho","data":"2026-09-03","campo":"valor","valor":71.16,"commit":"${W}"}\n` +
      "  ]\n" +
      "}\n";
    expect(await readFile(join(repo, "desfeitos.json"), "utf8")).toBe(esperado);
    expect(r.desfeitos.map((d) => [d.serie, d.data, d.campo, d.valor])).toEqual([
      ["boi_gordo", "2026-09-04", "valor", 347.7],
      ["milho", "2026-09-03", "valor", 71.16],
    ]);
    expect(r.commitSugerido).toContain("git add --all -- public desfeitos.json && git commit");
    expect((await dia(MILHO, "2026-09-03"))!.valor).toBe(71.06);
    expect(await dia(BOI, "2026-09-04")).toBeUndefined();
    U = commit("desfaz W");
  }, 120_000);

  it("undoing the undo brings the values back and takes their entries out of desfeitos.json (a clone)", async () => {
    const clone = mkdtempSync(join(tmpdir(), "cotacao-desfeitos-clone-"));
    dirs.push(clone);
    gitIn(clone, "clone", "-q", repo, ".");
    const outro = join(clone, "public");
    const r = await runDesfazer({ config: testConfig(outro), commit: U, now: new Date(T_DESFAZER), env: {} });
    expect(r.liberados.map((d) => [d.serie, d.data, d.valor])).toEqual([
      ["boi_gordo", "2026-09-04", 347.7],
      ["milho", "2026-09-03", 71.16],
    ]);
    expect(JSON.parse(await readFile(join(outro, MILHO), "utf8")).historico.find((e: { data: string }) => e.data === "2026-09-03").valor).toBe(71.16);
    // what it took out now is the value the first undo had brought back
    expect(await readFile(join(clone, "desfeitos.json"), "utf8")).toBe(
      `{\n  "desfeitos": [\n    {"serie":"milho","data":"2026-09-03","campo":"valor","valor":71.06,"commit":"${U}"}\n  ]\n}\n`,
    );
  }, 120_000);

  it("a damaged desfeitos.json stops the update before anything is published, naming the file", async () => {
    const file = join(repo, "desfeitos.json");
    const texto = await readFile(file, "utf8");
    try {
      await writeFile(file, texto.replace('"valor":71.16', '"valor":"71,16"'));
      await expect(replay(await paginas(), site, T3)).rejects.toThrow(`[config] ${file}: desfeitos.1.valor:`);
      expect(git("status", "--porcelain", "--", "public")).toBe("");
    } finally {
      await writeFile(file, texto);
    }
  }, 120_000);

  it("an update that brings nothing new after the undo changes no byte", async () => {
    const r = await replay(await paginas(["cepea/boi-gordo.html", semBoi0409]), site, T3);
    expect(r.exitCode).toBe(0);
    expect(r.written).toEqual([]);
    expect(git("status", "--porcelain", "--untracked-files=all")).toBe("");
  }, 120_000);

  it("a page that still shows the undone value: that day stays as published, the rest of the page is merged, and status.json says why and what to do (not a failure)", async () => {
    const antes = { boi: await ler(BOI), milho: await ler(MILHO), eventos: await ler(EVENTOS_PATH) };
    // the pages exactly as the wrong commit read them
    const r = await replay(await paginas(["cepea/milho.html", milho0309("71,16")]), site, T4);
    // refusing the page whole would stop every series of it for as long as the source shows the
    // day (CEPEA: 15 business days), and fail the run every time
    expect(r.exitCode).toBe(0);
    expect(r.outcomes.filter((o) => !o.ok)).toEqual([]);
    // nothing else on those pages is new: the series, and what subscribers were told, stay
    expect(await ler(BOI)).toBe(antes.boi);
    expect(await ler(MILHO)).toBe(antes.milho);
    expect(await ler(EVENTOS_PATH)).toBe(antes.eventos);
    expect(await dia(BOI, "2026-09-04")).toBeUndefined();
    expect((await dia(MILHO, "2026-09-03"))!.valor).toBe(71.06);
    // the day kept out is on the page: not a day the source withdrew
    expect(r.log.filter((l) => l.includes("retirou o dia"))).toEqual([]);
    const curto = W.slice(0, 12);
    const boi = await pagina("cepea", "boi-gordo");
    expect(boi.estado).toBe("ok");
    expect(boi.motivo).toBeNull();
    const aviso =
      `boi_gordo em 04/09/2026: a fonte ainda traz 347,70, o valor que npm run desfazer -- ${curto} tirou do site como errado (desfeitos.json); ` +
      "esse dia de boi_gordo foi pulado e fica como está publicado até a fonte corrigi-lo (um valor diferente entra normalmente); o resto da página foi mesclado. " +
      'Se 347,70 estava certo, apague de desfeitos.json, na raiz do repositório, a entrada {"serie": "boi_gordo", "data": "2026-09-04", "campo": "valor", ...} ' +
      "e faça commit de desfeitos.json; a próxima atualização (ou importação) o publica";
    expect(boi.valores_desfeitos).toEqual([
      { serie: "boi_gordo", data: "2026-09-04", desfeito: { serie: "boi_gordo", data: "2026-09-04", campo: "valor", valor: 347.7, commit: W }, aviso },
    ]);
    expect((await pagina("cepea", "milho")).valores_desfeitos!.map((v) => v.aviso)).toEqual([
      expect.stringContaining(`milho em 03/09/2026: a fonte ainda traz 71,16, o valor que npm run desfazer -- ${curto} tirou do site como errado`),
    ]);
    // the run's log says it too
    expect(r.log).toContain(`  aviso: cepea/boi-gordo: ${aviso}`);
    commit("tentativa de 01/10");
    // the same pages again: the same notices, no byte changes
    const r2 = await replay(await paginas(["cepea/milho.html", milho0309("71,16")]), site, "2026-10-01T18:00:00-03:00");
    expect(r2.exitCode).toBe(0);
    expect(r2.written).toEqual([]);
    expect(git("status", "--porcelain", "--untracked-files=all")).toBe("");
  }, 120_000);

  it("a page with a corrected value is merged, with the events that tell it", async () => {
    const antes = await eventos();
    const r = await replay(await paginas(["cepea/boi-gordo.html", boi0409("347,90")], ["cepea/milho.html", milho0309("71,10")]), site, T5);
    expect(r.exitCode).toBe(0);
    expect((await dia(BOI, "2026-09-04"))!.valor).toBe(347.9);
    expect((await dia(MILHO, "2026-09-03"))!.valor).toBe(71.1);
    const depois = await eventos();
    const novos = depois.eventos.filter((e) => e.seq > antes.eventos[0]!.seq);
    const boi = novos.find((e): e is Extract<Evento, { tipo: "price_changed" }> => e.tipo === "price_changed" && e.dados.serie === "boi_gordo")!;
    expect(boi.dados.anterior).toEqual({ data: "2026-09-03", valor: 347.6 });
    expect(boi.dados.atual).toEqual({ data: "2026-09-04", valor: 347.9 });
    expect(boi.dados.dias_novos).toEqual(["2026-09-04"]);
    const milho = novos.find((e): e is Extract<Evento, { tipo: "historico_revisado" }> => e.tipo === "historico_revisado" && e.dados.serie === "milho")!;
    expect(milho.dados.revisoes).toEqual([{ data: "2026-09-03", anterior: 71.06, atual: 71.1 }]);
    expect((await pagina("cepea", "boi-gordo")).estado).toBe("ok");
    // corrected: the notice is gone
    expect((await pagina("cepea", "boi-gordo")).valores_desfeitos).toBeUndefined();
    expect((await pagina("cepea", "milho")).valores_desfeitos).toBeUndefined();
    commit("dados de 02/10");
  }, 120_000);

  it("with its entry taken out of desfeitos.json, the value is accepted again; the other entry still holds", async () => {
    const file = join(repo, "desfeitos.json");
    const texto = await readFile(file, "utf8");
    await writeFile(file, texto.replace(/\n {4}\{"serie":"milho".*\}/, "").replace(/,\n {2}\]/, "\n  ]"));
    expect(JSON.parse(await readFile(file, "utf8")).desfeitos.map((d: { serie: string }) => d.serie)).toEqual(["boi_gordo"]);
    commit("71,16 estava certo");
    const r = await replay(await paginas(["cepea/milho.html", milho0309("71,16")]), site, T6);
    expect((await dia(MILHO, "2026-09-03"))!.valor).toBe(71.16);
    expect((await pagina("cepea", "milho")).valores_desfeitos).toBeUndefined();
    // boi gordo's 04/09 is back at 347,70 on the page: kept out, the corrected 347,90 stays
    expect(r.exitCode).toBe(0);
    expect((await dia(BOI, "2026-09-04"))!.valor).toBe(347.9);
    expect((await pagina("cepea", "boi-gordo")).valores_desfeitos!.map((v) => [v.serie, v.data, v.desfeito.valor])).toEqual([["boi_gordo", "2026-09-04", 347.7]]);
  }, 120_000);
});

describe("audit 8: npm run backfill respects desfeitos.json", () => {
  const NOW = new Date("2026-09-07T12:00:00-03:00");
  const BOI_CEPEA = SERIES_CEPEA.find((s) => s.serie === "boi_gordo")!;
  const dirs: string[] = [];
  afterAll(() => cleanup(...dirs));

  it("a file with an undone value is imported but that day, saying which and what to do; a corrected one brings the day in", async () => {
    const repo = mkdtempSync(join(tmpdir(), "cotacao-desfeitos-bf-"));
    dirs.push(repo);
    gitIn(repo, "init", "-q", "-b", "main");
    const site = join(repo, "public");
    const pages = mkdtempSync(join(tmpdir(), "cotacao-desfeitos-bf-pages-"));
    dirs.push(pages);
    await mkdir(join(pages, "cepea"));
    await copyFile(join(FIXTURES, "cepea/boi-gordo.html"), join(pages, "cepea/boi-gordo.html"));
    await copyFile(join(FIXTURES, "capturas.json"), join(pages, "capturas.json"));
    await replay(pages, site, NOW.toISOString());
    const golden = (JSON.parse(await readFile(join(FIXTURES, "cepea/boi-gordo.expected.json"), "utf8")) as { rows: Array<{ data: string; valor: number; extras: { valor_usd: number } }> }).rows.map(
      (r) => ({ data: r.data, brl: r.valor, usd: r.extras.valor_usd }),
    );
    const walk = historia(diasUteis("2026-05-04", "2026-08-14"), { brl: 344.9, usd: 66.3 }, 330, 21);
    const arquivo = async (linhas: LinhaSerie[], nome: string) => {
      const p = join(pages, nome);
      await writeFile(p, planilha(linhas, "biff8"));
      return p;
    };
    const errado = walk[10]!;
    const commit = "c".repeat(40);
    await writeFile(
      join(repo, "desfeitos.json"),
      `{\n  "desfeitos": [\n    {"serie":"boi_gordo","data":"${errado.data}","campo":"valor","valor":${errado.brl},"commit":"${commit}"}\n  ]\n}\n`,
    );
    const log: string[] = [];
    const run = async (caminho: string) =>
      runBackfill({ config: testConfig(site), now: NOW, serie: BOI_CEPEA, origem: { tipo: "arquivo", caminho }, env: {}, log: (l) => log.push(l) });
    const pulado = await run(await arquivo([...walk, ...golden], "boi-errado.xls"));
    // refusing the file whole would leave the whole history out for one known-bad day
    expect(pulado).toMatchObject({ estado: "importado", exitCode: 0, motivo: null, novos: walk.length - 1 });
    expect(pulado.pulados).toEqual([{ serie: "boi_gordo", data: errado.data, desfeito: { serie: "boi_gordo", data: errado.data, campo: "valor", valor: errado.brl, commit } }]);
    const depois = JSON.parse(await readFile(join(site, BOI), "utf8")) as SerieFile;
    expect(depois.historico.find((e) => e.data === errado.data)).toBeUndefined();
    expect(depois.historico.find((e) => e.data === walk[9]!.data)!.valor).toBe(walk[9]!.brl);
    expect(depois.historico.find((e) => e.data === walk[11]!.data)!.valor).toBe(walk[11]!.brl);
    expect(log).toContain(
      `aviso: boi_gordo em ${formatDateBR(errado.data)}: a fonte ainda traz ${formatDecimalBR(errado.brl)}, o valor que npm run desfazer -- ${commit.slice(0, 12)} tirou do site como errado (desfeitos.json); ` +
        "esse dia de boi_gordo foi pulado e fica como está publicado até a fonte corrigi-lo (um valor diferente entra normalmente); o resto do arquivo foi mesclado. " +
        `Se ${formatDecimalBR(errado.brl)} estava certo, apague de desfeitos.json, na raiz do repositório, a entrada {"serie": "boi_gordo", "data": "${errado.data}", "campo": "valor", ...} ` +
        "e faça commit de desfeitos.json; a próxima atualização (ou importação) o publica",
    );
    expect(log.at(-1)).toMatch(/, 1 dia com valor desfeito \(desfeitos\.json\)$/);
    expect(pulado.mensagem).toContain(`- pulados, por trazerem um valor desfeito (desfeitos.json): ${errado.data} (valor ${formatDecimalBR(errado.brl)}, desfeito em ${commit.slice(0, 12)})`);
    // the same file with that day corrected: the day comes in
    const certo = walk.map((d) => (d === errado ? { ...d, brl: Math.round((d.brl + 0.5) * 100) / 100 } : d));
    const importado = await run(await arquivo([...certo, ...golden], "boi-certo.xls"));
    expect(importado.motivo).toBeNull();
    expect(importado.estado).toBe("importado");
    expect(importado.pulados).toEqual([]);
    expect(importado.novos).toBe(1);
  }, 120_000);
});

describe("audit 8: undoing a commit whose newest day goes away while a later commit revised the day before", () => {
  // soja/PR (CEPEA's Paraná table) names its state's one praça, quoted at the newest day's value
  const SOJA_PR = seriesJsonPath(serieDef("soja/PR")!);
  const sem2509 = semLinha("da soja", "25/09/2026", "154,38");
  const revisa2409 = sojaEm("24/09/2026", "155,11", "155,30");
  const dirs: string[] = [];
  afterAll(() => cleanup(...dirs));

  it("is refused, naming the later commit: the day that becomes the newest again is not the one its praças were quoted at", async () => {
    const { site, git, commit, pags } = await repoDeUmaPagina("cotacao-desfeitos-soja-", dirs, "cepea/soja.html");
    expect((await replay(await pags(sem2509), site, "2026-09-25T12:00:00-03:00")).exitCode).toBe(0);
    commit("até 24/09");
    expect((await replay(await pags(), site, "2026-09-26T12:00:00-03:00")).changes.map((c) => c.id)).toContain("soja/PR");
    const W = commit("25/09");
    const r = await replay(await pags(revisa2409), site, "2026-09-27T12:00:00-03:00");
    expect(r.changes.map((c) => c.id)).toEqual(["soja/PR"]);
    const L = commit("24/09 revisado");
    const antes = await readFile(join(site, SOJA_PR), "utf8");
    await expect(runDesfazer({ config: testConfig(site), commit: W, now: new Date("2026-09-28T12:00:00-03:00"), env: {} })).rejects.toThrow(
      `o commit posterior ${L.slice(0, 12)} ("24/09 revisado") mudou de novo as praças de soja/PR (o dia que volta a ser o último, 2026-09-24, foi revisado depois)`,
    );
    expect(await readFile(join(site, SOJA_PR), "utf8")).toBe(antes);
    expect(git("status", "--porcelain", "--untracked-files=all")).toBe("");
  }, 180_000);
});
