/**
 * Audit 8: a page that brings back a value `npm run desfazer` took off the site was refused
 * whole. CEPEA's pages show 15 business days (Notícias Agrícolas' 10): a source that never
 * corrects the day refused the page, every series on it (a Scot table feeds 44) and failed the
 * workflow's run for three weeks, for one known-bad cell. Now that day of that series is kept out
 * (it stays as published: the restored value, or no day), the rest of the page is merged, and
 * status.json notices it on the page without failing the run.
 *
 * What must stay right around a day kept out: the next day's event is told from the restored
 * value; the series' `variacao` and the aggregates describe the days published; the praças are
 * the newest published day's; a Scot national series (its UF's reference praça) and its UF's
 * series keep the same day out together; a mirror bringing the day is held as the page is; a
 * day the source corrects later comes in although another day of the series is still kept out.
 *
 * A temp git repository; the real pipeline (recorded pages, runUpdate, runDesfazer, runValidate).
 */
import { copyFile, cp, readFile, writeFile } from "node:fs/promises";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runValidate } from "../../pipeline/cli/validate.ts";
import type { AggregateFile, SerieFile, StatusFile } from "../../pipeline/domain/publicados.ts";
import { seriesJsonPath } from "../../pipeline/domain/series.ts";
import { EVENTOS_PATH, loadEventos, type Evento } from "../../pipeline/events/model.ts";
import { conferirSeq, eventosPublicados } from "../../pipeline/publish/deploy.ts";
import { runDesfazer } from "../../pipeline/run/desfazer.ts";
import { serieDef } from "../../pipeline/sources/index.ts";
import { cleanup, editPage, FIXTURES, replay, replayDir, testConfig } from "../helpers/pipeline.ts";
import { gitIn } from "../helpers/repos.ts";
import { boiEm, dadosEm, gravadasDe, iniciarRepo, repoDeUmaPagina, semBoi0409, sojaEm } from "./desfazer-helpers.ts";

const BOI = seriesJsonPath(serieDef("boi_gordo")!);

/** A new newest day, 08/09/2026 at 348,00, on top of the boi_gordo table. */
const boi0809 = (h: string) => {
  const out = h.replace(/(<tr>\s*<td>04\/09\/2026<\/td>\s*<td>347,)/, "<tr><td>08/09/2026</td><td>348,00</td><td>0,09%</td><td>1,05%</td><td>67,82</td></tr>$1");
  if (out === h) throw new Error("edição de teste: 04/09/2026 não está na página do boi");
  return out;
};

describe("audit 8: a page that still shows an undone value is merged but that day", () => {
  let repo: string;
  let site: string;
  const dirs: string[] = [];
  let W = "";
  let publicadoAntes = "";
  const { commit, ler, serie, dia, pagina } = dadosEm(() => repo);
  const paginas = gravadasDe(dirs, "cepea/boi-gordo.html");

  beforeAll(async () => {
    repo = mkdtempSync(join(tmpdir(), "cotacao-desfeitos-pula-"));
    dirs.push(repo);
    site = join(repo, "public");
    await iniciarRepo(repo);
    // before: boi gordo up to 03/09 (347,60)
    expect((await replay(await paginas(semBoi0409), site, "2026-09-27T12:00:00-03:00")).exitCode).toBe(0);
    commit("até 03/09");
    // the wrong commit: 03/09 revised to 347,80 and 04/09 new at 347,70
    const r = await replay(await paginas(boiEm("03/09/2026", "347,60", "347,80")), site, "2026-09-28T12:00:00-03:00");
    expect(r.changes.map((c) => c.id)).toEqual(["boi_gordo"]);
    W = commit("28/09 (errado)");
    publicadoAntes = await ler(EVENTOS_PATH);
    await runDesfazer({ config: testConfig(site), commit: W, now: new Date("2026-09-29T12:00:00-03:00"), env: {} });
    expect((await dia(BOI, "2026-09-03"))!.valor).toBe(347.6);
    expect(await dia(BOI, "2026-09-04")).toBeUndefined();
    commit("desfaz 28/09");
  }, 300_000);
  afterAll(() => cleanup(...dirs));

  it("the next update, the page still wrong and a new day: the new day comes in, told from the restored value; nothing undone comes back", async () => {
    const antes = (await loadEventos(site))!;
    const r = await replay(await paginas(boiEm("03/09/2026", "347,60", "347,80"), boi0809), site, "2026-09-30T12:00:00-03:00");
    expect(r.exitCode).toBe(0);
    expect(r.outcomes.filter((o) => !o.ok)).toEqual([]);
    const f = await serie(BOI);
    expect(f.historico.slice(-2).map((e) => [e.data, e.valor])).toEqual([
      ["2026-09-03", 347.6],
      ["2026-09-08", 348],
    ]);
    // the series' own variation is from the restored day, not from the undone one
    expect(f.variacao).toMatchObject({ data_anterior: "2026-09-03", anterior: 347.6, absoluta: 0.4 });
    const novos = (await loadEventos(site))!.eventos.filter((e) => e.seq > antes.eventos[0]!.seq);
    const preco = novos.find((e): e is Extract<Evento, { tipo: "price_changed" }> => e.tipo === "price_changed" && e.dados.serie === "boi_gordo")!;
    expect(preco.dados.anterior).toEqual({ data: "2026-09-03", valor: 347.6 });
    expect(preco.dados.atual).toEqual({ data: "2026-09-08", valor: 348 });
    expect(preco.dados.dias_novos).toEqual(["2026-09-08"]);
    expect(novos.some((e) => e.tipo === "historico_revisado")).toBe(false);
    // the cotacao.json headline is the series' newest published day
    const cotacao = JSON.parse(await ler("api/v1/cotacao.json")) as AggregateFile;
    expect([cotacao.boi_gordo_cepea_sp, cotacao.datas.boi_gordo_cepea_sp]).toEqual([348, "2026-09-08"]);
    expect((await pagina("cepea", "boi-gordo")).valores_desfeitos!.map((v) => [v.serie, v.data, v.desfeito.valor])).toEqual([
      ["boi_gordo", "2026-09-03", 347.8],
      ["boi_gordo", "2026-09-04", 347.7],
    ]);
    // npm run validate passes, and the deploy's seq check against what was published before the undo
    expect(runValidate(site)).toBe(0);
    expect(conferirSeq(eventosPublicados(await ler(EVENTOS_PATH))!, eventosPublicados(publicadoAntes)!)).toBeNull();
    commit("30/09");
  }, 120_000);

  it("the source corrects one undone day and not the other: the corrected day comes in (not taken for a retyped date)", async () => {
    const r = await replay(await paginas(boiEm("03/09/2026", "347,60", "347,80"), boi0809, boiEm("04/09/2026", "347,70", "347,90")), site, "2026-10-01T12:00:00-03:00");
    expect(r.outcomes.filter((o) => !o.ok)).toEqual([]);
    expect(r.exitCode).toBe(0);
    expect((await dia(BOI, "2026-09-04"))!.valor).toBe(347.9);
    expect((await dia(BOI, "2026-09-03"))!.valor).toBe(347.6);
    expect((await pagina("cepea", "boi-gordo")).valores_desfeitos!.map((v) => [v.serie, v.data])).toEqual([["boi_gordo", "2026-09-03"]]);
    expect(runValidate(site)).toBe(0);
  }, 120_000);
});

describe("audit 8: a Scot table with an undone value: that day of the UF's series and of the national series it is, the rest of the table merged", () => {
  const dirs: string[] = [];
  afterAll(() => cleanup(...dirs));
  const VACA = seriesJsonPath(serieDef("vaca_gorda")!);
  const VACA_SP = seriesJsonPath(serieDef("vaca_gorda/SP")!);
  const VACA_MG = seriesJsonPath(serieDef("vaca_gorda/MG")!);
  const novoRepo = async () => {
    const repo = mkdtempSync(join(tmpdir(), "cotacao-desfeitos-scot-"));
    dirs.push(repo);
    gitIn(repo, "init", "-q", "-b", "main");
    return repo;
  };
  const desfeito = (repo: string, serie: string, data: string, campo: string, valor: number) =>
    writeFile(join(repo, "desfeitos.json"), `{\n  "desfeitos": [\n    {"serie":"${serie}","data":"${data}","campo":"${campo}","valor":${valor},"commit":"${"a".repeat(40)}"}\n  ]\n}\n`);
  const ler = async <T,>(site: string, rel: string) => JSON.parse(await readFile(join(site, rel), "utf8")) as T;

  it("the UF's entry keeps the national series' day out too; praças, aggregates and status stay those of the day published", async () => {
    const repo = await novoRepo();
    const site = join(repo, "public");
    const ontem = await replayDir();
    dirs.push(ontem);
    await editPage(ontem, "scot/vaca-gorda.html", (h) => h.replace("Mercado F&iacute;sico - 05/08/2026", "Mercado F&iacute;sico - 04/08/2026"));
    // (every recorded page is of a day before this run's: none is in the future)
    expect((await replay(ontem, site, "2026-09-30T20:00:00-03:00")).exitCode).toBe(0);
    const antes = { sp: await readFile(join(site, VACA_SP), "utf8"), nacional: await readFile(join(site, VACA), "utf8") };
    // Barretos (SP's reference praça) on 05/08 was undone for vaca_gorda/SP only
    await desfeito(repo, "vaca_gorda/SP", "2026-08-05", "valor", 318);
    const hoje = await replayDir();
    dirs.push(hoje);
    const r = await replay(hoje, site, "2026-10-01T20:00:00-03:00");
    expect(r.exitCode).toBe(0);
    expect(r.outcomes.filter((o) => !o.ok)).toEqual([]);
    // both series are the same cell: both stay on 04/08, whole (praças included)
    expect(await readFile(join(site, VACA_SP), "utf8")).toBe(antes.sp);
    expect(await readFile(join(site, VACA), "utf8")).toBe(antes.nacional);
    // every other UF of the table moved on
    expect((await ler<SerieFile>(site, VACA_MG)).data_cotacao).toBe("2026-08-05");
    const sp = await ler<AggregateFile>(site, "api/v1/cotacao/uf/SP.json");
    expect(sp.vaca_gorda_uf).toMatchObject({ data: "2026-08-04", preco: (await ler<SerieFile>(site, VACA_SP)).valor });
    expect([sp.vaca_gorda, sp.datas.vaca_gorda]).toEqual([(await ler<SerieFile>(site, VACA)).valor, "2026-08-04"]);
    const cotacao = await ler<AggregateFile>(site, "api/v1/cotacao.json");
    expect(cotacao.datas.vaca_gorda).toBe("2026-08-04");
    const status = await ler<StatusFile>(site, "api/v1/status.json");
    const pagina = status.fontes.find((f) => f.id === "scot")!.paginas.find((p) => p.id === "vaca-gorda")!;
    expect(pagina.estado).toBe("ok");
    expect(pagina.valores_desfeitos!.map((v) => [v.serie, v.data, v.desfeito.serie])).toEqual([
      ["vaca_gorda", "2026-08-05", "vaca_gorda/SP"],
      ["vaca_gorda/SP", "2026-08-05", "vaca_gorda/SP"],
    ]);
    expect(pagina.valores_desfeitos![0]!.aviso).toMatch(
      /^vaca_gorda em 05\/08\/2026: pulado com vaca_gorda\/SP, que segue a mesma praça de referência e em que a fonte ainda traz 318,00 nesse dia, o valor que npm run desfazer -- a{12} tirou/,
    );
    expect(status.series.find((s) => s.id === "vaca_gorda/SP")!.ultima_data).toBe("2026-08-04");
    expect(runValidate(site)).toBe(0);
  }, 180_000);

  it("a non-reference praça undone keeps that UF's day out, and the mirror bringing the same day is held as the page is", async () => {
    const repo = await novoRepo();
    const site = join(repo, "public");
    // Notícias Agrícolas' recorded copy of the table is of 05/02/2026; Araçatuba at 308,50
    await desfeito(repo, "vaca_gorda/SP", "2026-02-05", "pracas.Araçatuba", 308.5);
    const d = await replayDir();
    dirs.push(d);
    // Scot's own page without its table (recorded): the run reads the mirror's copy
    await copyFile(join(FIXTURES, "scot/sem-dados-vaca-gorda.html"), join(d, "scot/vaca-gorda.html"));
    await cp(join(FIXTURES, "noticias-agricolas"), join(d, "noticias-agricolas"), { recursive: true });
    const r = await replay(d, site, "2026-09-30T20:00:00-03:00");
    const o = r.outcomes.find((x) => x.source === "scot" && x.page === "vaca-gorda")!;
    expect(o.ok ? o : o.reason).toMatchObject({ ok: true, via: "noticias-agricolas" });
    expect(existsSync(join(site, VACA_SP))).toBe(false);
    expect(existsSync(join(site, VACA))).toBe(false);
    expect((await ler<SerieFile>(site, VACA_MG)).data_cotacao).toBe("2026-02-05");
    const status = await ler<StatusFile>(site, "api/v1/status.json");
    const pagina = status.fontes.find((f) => f.id === "scot")!.paginas.find((p) => p.id === "vaca-gorda")!;
    expect(pagina.via).toBe("noticias-agricolas");
    expect(pagina.valores_desfeitos!.map((v) => [v.serie, v.desfeito.campo])).toEqual([
      ["vaca_gorda", "pracas.Araçatuba"],
      ["vaca_gorda/SP", "pracas.Araçatuba"],
    ]);
  }, 180_000);
});

describe("audit 8: the newest day kept out of a state series, the day already published (restored)", () => {
  const SOJA_PR = seriesJsonPath(serieDef("soja/PR")!);
  const revisa2509 = sojaEm("25/09/2026", "154,38", "154,60");
  const dirs: string[] = [];
  afterAll(() => cleanup(...dirs));

  it("its praças stay the restored day's: the page's quote of the day kept out never comes in beside it", async () => {
    const { repo, site, git, commit, pags } = await repoDeUmaPagina("cotacao-desfeitos-soja-pula-", dirs, "cepea/soja.html");
    expect((await replay(await pags(), site, "2026-09-26T12:00:00-03:00")).exitCode).toBe(0);
    commit("25/09");
    expect((await replay(await pags(revisa2509), site, "2026-09-27T12:00:00-03:00")).changes.map((c) => c.id)).toEqual(["soja/PR"]);
    const W = commit("25/09 revisado (errado)");
    await runDesfazer({ config: testConfig(site), commit: W, now: new Date("2026-09-28T12:00:00-03:00"), env: {} });
    commit("desfaz");
    const antes = await readFile(join(site, SOJA_PR), "utf8");
    expect((JSON.parse(antes) as SerieFile).pracas!.map((q) => q.valor)).toEqual([154.38]);
    const r = await replay(await pags(revisa2509), site, "2026-09-29T12:00:00-03:00");
    expect(r.exitCode).toBe(0);
    expect(await readFile(join(site, SOJA_PR), "utf8")).toBe(antes);
    expect(runValidate(site)).toBe(0);
  }, 180_000);
});

describe("audit 8: undoing a same-day re-read that changed only a praça's quote column", () => {
  const VACA_SP = seriesJsonPath(serieDef("vaca_gorda/SP")!);
  /** Scot's Araçatuba (SP) vaca gorda 30-day price: only in the series' praça quotes, in no history line. */
  const aracatuba30 = (h: string) => {
    const out = h.replace(/(SP Araçatuba<\/td>\s*<td>318,00<\/td>\s*<td>)322,00(<\/td>)/, "$1325,00$2");
    if (out === h) throw new Error("edição de teste: Araçatuba 322,00 não está na página da vaca");
    return out;
  };
  const dirs: string[] = [];
  afterAll(() => cleanup(...dirs));

  it("records the column in desfeitos.json, and the page showing it again leaves the quotes restored", async () => {
    const { repo, site, git, commit, pags } = await repoDeUmaPagina("cotacao-desfeitos-cotacao-", dirs, "scot/vaca-gorda.html");
    const araca = async () => (JSON.parse(await readFile(join(site, VACA_SP), "utf8")) as SerieFile).pracas!.find((q) => q.praca === "Araçatuba")!;
    expect((await replay(await pags(), site, "2026-09-30T12:00:00-03:00")).exitCode).toBe(0);
    commit("05/08");
    const r = await replay(await pags(aracatuba30), site, "2026-09-30T20:00:00-03:00");
    expect(r.changes.map((c) => c.id)).toEqual(["vaca_gorda/SP"]);
    expect((await araca()).valor_30d).toBe(325);
    const W = commit("05/08 relido (errado)");
    const u = await runDesfazer({ config: testConfig(site), commit: W, now: new Date("2026-10-01T12:00:00-03:00"), env: {} });
    expect((await araca()).valor_30d).toBe(322);
    expect(u.desfeitos.map((d) => [d.serie, d.data, d.campo, d.valor])).toEqual([["vaca_gorda/SP", "2026-08-05", "pracas.Araçatuba.valor_30d", 325]]);
    const antes = await readFile(join(site, VACA_SP), "utf8");
    const U = commit("desfaz");
    const r2 = await replay(await pags(aracatuba30), site, "2026-10-01T20:00:00-03:00");
    expect(r2.exitCode).toBe(0);
    expect(await readFile(join(site, VACA_SP), "utf8")).toBe(antes);
    expect(r2.log.some((l) => l.includes("vaca_gorda/SP em 05/08/2026: a fonte ainda traz 325,00 (pracas.Araçatuba.valor_30d)"))).toBe(true);
    commit("01/10");
    // the undo of the undo brings the column back and takes its entry out
    const u2 = await runDesfazer({ config: testConfig(site), commit: U, now: new Date("2026-10-02T12:00:00-03:00"), env: {} });
    expect(u2.liberados.map((d) => d.campo)).toEqual(["pracas.Araçatuba.valor_30d"]);
    expect((await araca()).valor_30d).toBe(325);
    // what it took out now is the 322 the first undo had brought back
    expect(JSON.parse(await readFile(join(repo, "desfeitos.json"), "utf8")).desfeitos.map((d: { campo: string; valor: number }) => [d.campo, d.valor])).toEqual([["pracas.Araçatuba.valor_30d", 322]]);
  }, 180_000);
});
