/**
 * What was wrong: a published series' history (api/v1/cotacao/milho.json) deleted by mistake and
 * committed was, at the next `npm run update`, started afresh from the page's days (15, where the
 * history had decades) and published as the series; nothing refused it. The backfill did the same
 * with the file's days. Now a series that index.json lists (it was published) and whose history is
 * missing stops the update before anything is fetched (refusing only its page still published the
 * rest of the set, which dropped the series from index.json, so the next run started it afresh),
 * and the backfill of it is refused; both name the series, the missing file and the two ways out
 * (restore it from git, or `npm run build` first to drop the series on purpose). A series never
 * published (not in index.json) starts as before.
 */
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PipelineError } from "../../pipeline/domain/errors.ts";
import type { IndexFile, SerieFile } from "../../pipeline/domain/publicados.ts";
import { runBackfill } from "../../pipeline/run/backfill.ts";
import { runBuild } from "../../pipeline/run/build.ts";
import { SERIES_CEPEA } from "../../pipeline/sources/cepea-series.ts";
import { diasUteis, historia, planilha } from "../backfill/planilhas.ts";
import { arvore, cleanup, diferencas, FIXTURES, readJson, replay, replayDir, tempSite, testConfig } from "../helpers/pipeline.ts";

const NOW = "2026-09-28T20:00:00-03:00";
const DEPOIS = "2026-09-29T20:00:00-03:00";
const MILHO = "api/v1/cotacao/milho.json";

const noIndice = async (dir: string) => (await readJson<IndexFile>(dir, "api/v1/index.json")).series.map((s) => s.id);

describe("a published series whose history was deleted is not started afresh by the update", () => {
  let pages: string;
  let base: string;
  const dirs: string[] = [];

  beforeAll(async () => {
    // published: every page but trigo's, whose series (trigo/PR, trigo/RS) are still to start
    pages = await replayDir();
    await rm(join(pages, "cepea/trigo.html"));
    base = await tempSite();
    await replay(pages, base, NOW);
    await cp(join(FIXTURES, "cepea/trigo.html"), join(pages, "cepea/trigo.html"));
    expect(await noIndice(base)).toContain("milho");
    expect(await noIndice(base)).not.toContain("trigo/PR");
  }, 60_000);

  afterAll(() => cleanup(pages, base, ...dirs));

  async function semMilho(): Promise<string> {
    const dir = await tempSite();
    dirs.push(dir);
    await cp(base, dir, { recursive: true });
    await rm(join(dir, MILHO));
    return dir;
  }

  it("the whole run is refused before fetching, naming the file and the ways out; nothing changes, the next run too (the series is still listed)", async () => {
    const dir = await semMilho();
    const antes = await arvore(dir);
    const p = join(dir, MILHO);
    for (const agora of [DEPOIS, "2026-09-30T20:00:00-03:00"]) {
      const erro = await replay(pages, dir, agora).then(
        () => null,
        (e: unknown) => e as Error,
      );
      expect(erro).toBeInstanceOf(PipelineError);
      const motivo = erro!.message;
      expect(motivo).toContain("[merge]");
      expect(motivo).toContain("nada foi buscado nem publicado");
      expect(motivo).toContain(`a série milho já foi publicada (api/v1/index.json a lista, até 04/09/2026), mas o histórico dela, ${p}, não existe`);
      expect(motivo).toContain(`git log --diff-filter=D -- ${p}`);
      expect(motivo).toContain(`git checkout HEAD~N -- ${p}`);
      expect(motivo).toContain("npm run build republica a série inteira");
      expect(motivo).toContain("rode npm run build antes (ele a tira do index.json) e depois npm run update");
      // nothing published: milho's derived files and its index entry stay, no history started afresh
      expect(diferencas(await arvore(dir), antes)).toEqual([]);
      expect(await noIndice(dir)).toContain("milho");
    }
  }, 60_000);

  it("a series never published (not in index.json) starts as before", async () => {
    const dir = await tempSite();
    dirs.push(dir);
    await cp(base, dir, { recursive: true });
    const r = await replay(pages, dir, DEPOIS);
    expect(r.outcomes.find((o) => o.page === "trigo")).toMatchObject({ ok: true, changed: true });
    expect((await readJson<SerieFile>(dir, "api/v1/cotacao/trigo/PR.json")).historico.length).toBeGreaterThan(0);
  }, 60_000);

  it("after npm run build drops it from index.json, the update starts it from the page", async () => {
    const dir = await semMilho();
    await runBuild(testConfig(dir), new Date(DEPOIS));
    expect(await noIndice(dir)).not.toContain("milho");
    const r = await replay(pages, dir, DEPOIS);
    expect(r.outcomes.find((o) => o.page === "milho")).toMatchObject({ ok: true, changed: true, diasNovos: 15 });
    expect((await readJson<SerieFile>(dir, MILHO)).historico).toHaveLength(15);
  }, 60_000);

  it("a backfill of such a series is refused, nothing written; after npm run build it imports the file", async () => {
    const site = await tempSite();
    dirs.push(site);
    await cp(base, site, { recursive: true });
    const BOI = SERIES_CEPEA.find((s) => s.serie === "boi_gordo")!;
    const d = await mkdtemp(join(tmpdir(), "cotacao-sumido-"));
    dirs.push(d);
    const file = join(d, "boi.xls");
    await writeFile(file, planilha(historia(diasUteis("2026-05-04", "2026-08-14"), { brl: 344.9, usd: 66.3 }, 330, 22).map((x) => ({ data: x.data, brl: x.brl, usd: x.usd })), "biff8"));
    const json = join(site, "api/v1/cotacao/boi_gordo.json");
    await rm(json);
    const antes = await arvore(site);
    const now = new Date(DEPOIS);
    const run = () => runBackfill({ config: testConfig(site), now, serie: BOI, origem: { tipo: "arquivo", caminho: file }, env: {} });
    const recusado = await run();
    expect(recusado).toMatchObject({ estado: "recusado", exitCode: 1, written: [] });
    expect(recusado.motivo).toContain(`a série boi_gordo já foi publicada (api/v1/index.json a lista, até 04/09/2026), mas o histórico dela, ${json}, não existe`);
    expect(recusado.motivo).toContain("rode npm run build antes (ele a tira do index.json) e depois importe o arquivo de novo");
    expect(diferencas(await arvore(site), antes)).toEqual([]);

    await runBuild(testConfig(site), now);
    const importado = await run();
    expect(importado).toMatchObject({ estado: "importado", exitCode: 0 });
    expect((await readJson<SerieFile>(site, "api/v1/cotacao/boi_gordo.json")).historico.length).toBe(importado.novos);
  }, 60_000);
});
