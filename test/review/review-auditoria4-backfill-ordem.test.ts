/**
 * What was wrong: a backfill file's rows were sorted by date after reading, so a row whose day
 * and month were swapped (or whose year was mistyped) became a day of its own wherever it fell,
 * with the price of the day it really was. Example: the row of 02/07/2026 (a Thursday) typed
 * "07/02/2026" among rows running 01/06/2026 to 14/08/2026 was imported as 07/02/2026 — a
 * Saturday, 114 days before the file's first day, so the jump rule allowed 30 % — at July's
 * price, and 02/07/2026 was simply missing. In a decades-long file the swapped date lands inside
 * the series (02/01/2020 typed "01/02/2020" is Saturday 01/02/2020) just the same. The update
 * path refuses dates out of order on a page; the backfill now refuses a file whose dates are
 * not in one order (oldest first or newest first) from its first row to its last, naming both rows.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runBackfill } from "../../pipeline/run/backfill.ts";
import { lerSerieCepea, SERIES_CEPEA } from "../../pipeline/sources/cepea-series.ts";
import { abrirPlanilha } from "../../pipeline/sources/planilha.ts";
import { cleanup, listFiles, tempSite, testConfig } from "../helpers/pipeline.ts";
import { csv, diasUteis, historia, planilha, type LinhaSerie } from "../backfill/planilhas.ts";

const NOW = new Date("2026-09-07T12:00:00-03:00");
const BOI = SERIES_CEPEA.find((s) => s.serie === "boi_gordo")!;
const dirs: string[] = [];
afterAll(() => cleanup(...dirs));

const dias = diasUteis("2026-06-01", "2026-08-14");
const h = historia(dias, { brl: 344.9, usd: 66.3 }, 330, 31);
const base: LinhaSerie[] = h.map((d) => ({ data: d.data, brl: d.brl, usd: d.usd }));

describe("a backfill file whose dates are out of order", () => {
  it("a row with day and month swapped is refused, not imported as another day", async () => {
    const i = base.findIndex((l) => l.data === "2026-07-02");
    const linhas = base.map((l, k) => (k === i ? { ...l, data: "2026-02-07" } : l));
    const site = await tempSite();
    dirs.push(site);
    const d = await mkdtemp(join(tmpdir(), "cotacao-bf4-ordem-"));
    dirs.push(d);
    const file = join(d, "boi.xls");
    await writeFile(file, planilha(linhas, "biff8"));
    const report = await runBackfill({ config: testConfig(site), now: NOW, serie: BOI, origem: { tipo: "arquivo", caminho: file }, env: {} });
    expect(report).toMatchObject({ estado: "recusado", exitCode: 1, written: [] });
    // base[i] is row 5 + i of the sheet (title, two empty rows, header)
    expect(report.motivo).toContain(`linhas ${i + 4} e ${i + 5} fora de ordem: 01/07/2026 seguido de 07/02/2026 (o arquivo vai do mais antigo ao mais novo); dia e mês trocados ou ano errado numa delas?`);
    expect(await listFiles(site)).toEqual([]);
  });

  it("a file newest first is read as well, and a row out of that order is refused too", () => {
    const desc = [...base].reverse();
    const r = lerSerieCepea(abrirPlanilha(Buffer.from(csv(desc))), BOI);
    expect(r.dias).toHaveLength(base.length);
    const j = desc.findIndex((l) => l.data === "2026-07-02");
    const ruim = desc.map((l, k) => (k === j ? { ...l, data: "2026-02-07" } : l));
    expect(() => lerSerieCepea(abrirPlanilha(Buffer.from(csv(ruim))), BOI)).toThrow(`linhas ${j + 5} e ${j + 6} fora de ordem: 07/02/2026 seguido de 01/07/2026 (o arquivo vai do mais novo ao mais antigo)`);
  });
});
