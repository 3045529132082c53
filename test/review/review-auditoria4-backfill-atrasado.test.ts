/**
 * What was wrong: a backfill file older than the published history (its newest day before the
 * series' last published day: a spreadsheet downloaded in the browser days ago, a cached copy)
 * changed published days within the revision bound. Those are CEPEA's superseded numbers, not
 * revisions: the daily pages published the newer ones since. Example: boi gordo published by
 * the daily page up to 04/09/2026, 28/08/2026 at R$ 346,40; a file that ends on 31/08/2026 and
 * still carries 28/08/2026 at R$ 345,00 (-0,40 %, inside the 1,5 % bound) was imported and
 * 28/08 went back to 345,00. An update holds such a stale page (judgeRevisions' `atrasada`);
 * the backfill did not. Now the import is held the same way (nothing merged, status.json lists
 * the value and the argument that accepts it); its new days come in once it is accepted or
 * the file is downloaded again.
 */
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseAceite } from "../../pipeline/check/revisions.ts";
import type { SerieFile, StatusFile } from "../../pipeline/domain/publicados.ts";
import { runBackfill } from "../../pipeline/run/backfill.ts";
import { SERIES_CEPEA } from "../../pipeline/sources/cepea-series.ts";
import { cleanup, FIXTURES, readJson, siteComBoiCepea, testConfig } from "../helpers/pipeline.ts";
import { diasUteis, historia, planilha, type LinhaSerie } from "../backfill/planilhas.ts";

const NOW = new Date("2026-09-07T12:00:00-03:00");
const BOI = SERIES_CEPEA.find((s) => s.serie === "boi_gordo")!;
const GOLDEN = (JSON.parse(await readFile(join(FIXTURES, "cepea/boi-gordo.expected.json"), "utf8")) as { rows: Array<{ data: string; valor: number; extras: { valor_usd: number } }> }).rows.map(
  (r) => ({ data: r.data, brl: r.valor, usd: r.extras.valor_usd }),
);

const dirs: string[] = [];
afterAll(() => cleanup(...dirs));

const siteComBoi = () => siteComBoiCepea(NOW, dirs);

async function arquivo(bytes: Buffer, nome: string): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), "cotacao-bf4-file-"));
  dirs.push(d);
  const p = join(d, nome);
  await writeFile(p, bytes);
  return p;
}

describe("a backfill file older than the published history (a stale download)", () => {
  it("never takes a published day back to the superseded value: the import is held, as an update holds a stale page", async () => {
    const site = await siteComBoi();
    const antes = await readJson<SerieFile>(site, "api/v1/cotacao/boi_gordo.json");
    expect(antes.historico.at(-1)!.data).toBe("2026-09-04");
    const publicado = antes.historico.find((e) => e.data === "2026-08-28")!;
    // the file: a walk up to 14/08, then the recorded page's days up to 31/08 only, 28/08 at an
    // older value within the revision bound
    const velho = Math.round(publicado.valor * 0.996 * 100) / 100;
    const ate = GOLDEN.filter((d) => d.data <= "2026-08-31");
    const walk = historia(diasUteis("2026-05-04", "2026-08-14"), { brl: 344.9, usd: 66.3 }, 330, 21);
    const linhas: LinhaSerie[] = [...walk, ...ate].map((d) => ({ data: d.data, brl: d.data === "2026-08-28" ? velho : d.brl, usd: d.usd }));
    const file = await arquivo(planilha(linhas, "biff8"), "boi-antigo.xls");
    const log: string[] = [];
    const run = () => runBackfill({ config: testConfig(site), now: NOW, serie: BOI, origem: { tipo: "arquivo", caminho: file }, env: {}, log: (l) => log.push(l) });

    const report = await run();
    expect(report).toMatchObject({ estado: "retido", exitCode: 1 });
    expect(report.motivo).toContain(`boi_gordo em 28/08/2026, valor: ${String(publicado.valor).replace(".", ",")}`);
    expect(report.motivo).toContain("o arquivo vai até 31/08/2026 e o histórico publicado até 04/09/2026");
    // superseded values: the message sends the operator to a fresh download, not to accepting them
    expect(report.motivo).toMatch(/Baixe a série de novo e importe o arquivo novo \(.*\)$/);
    expect(report.motivo).not.toContain("aceite-a");
    const depois = await readJson<SerieFile>(site, "api/v1/cotacao/boi_gordo.json");
    expect(depois.historico).toEqual(antes.historico);
    const st = await readJson<StatusFile>(site, "api/v1/status.json");
    const page = st.fontes.find((f) => f.id === "cepea")!.paginas.find((p) => p.id === "boi-gordo")!;
    expect(page.estado).toBe("revisao_suspeita");
    expect(page.revisoes_suspeitas).toEqual([{ serie: "boi_gordo", data: "2026-08-28", campo: "valor", antes: publicado.valor, depois: velho, aceitar: `boi_gordo@2026-08-28=${velho}` }]);

    // an operator who accepts that exact value anyway (status.json lists how) gets it, with the file's new days
    const aceito = await runBackfill({ config: testConfig(site), now: NOW, serie: BOI, origem: { tipo: "arquivo", caminho: file }, env: {}, aceitar: [parseAceite(`boi_gordo@2026-08-28=${velho}`)] });
    expect(aceito).toMatchObject({ estado: "importado", exitCode: 0, revisados: 1, novos: walk.length });
  });

  it("a stale file that agrees with every published day still fills the days the history lacks", async () => {
    const site = await siteComBoi();
    const ate = GOLDEN.filter((d) => d.data <= "2026-08-31");
    const walk = historia(diasUteis("2026-05-04", "2026-08-14"), { brl: 344.9, usd: 66.3 }, 330, 22);
    const linhas: LinhaSerie[] = [...walk, ...ate].map((d) => ({ data: d.data, brl: d.brl, usd: d.usd }));
    const report = await runBackfill({ config: testConfig(site), now: NOW, serie: BOI, origem: { tipo: "arquivo", caminho: await arquivo(planilha(linhas, "biff8"), "boi-igual.xls") }, env: {} });
    expect(report).toMatchObject({ estado: "importado", exitCode: 0, revisados: 0, novos: walk.length, iguais: ate.length });
  });
});
