/**
 * Audit 6 of the history import (npm run backfill): ways a wrong price or date entered the
 * history in silence.
 *
 * 1. A value in a column whose header cell is empty was ignored, and the columns were still read
 *    by their labels. A header "Data | (vazia) | À vista R$ | À vista US$" over rows "data | R$ |
 *    US$" (a header cell shifted, a column inserted and left without a label) read the US$ value
 *    as the R$ one, and no US$: for the calf (R$ ~3 400, US$ ~650 per head) every day passed the
 *    range (500–15 000), the jumps and, without a US$, the exchange-rate check, and was imported
 *    at the dollar price. The README promised that a column "a mais" refuses the file; only one
 *    beyond the header's last column did.
 * 2. A year typed wrong on the oldest row (a year earlier) or on the newest row (a year later,
 *    in a file that ends before today) keeps the file's one order, so the order check of audit
 *    4 let it through: the row became a lone day a year away from the rest, with the price of
 *    the day it really was (the jump rule allows 3× the limit after such a gap), and the real day
 *    was missing. The known gap "backfill year typo on the first or last row".
 *
 * Checked and not a defect (kept as guards): a date stored as an Excel serial — in a workbook of
 * the 1904 date system (a Mac's), whose serials are 1 462 days smaller, or serial 60, Excel's
 * nonexistent 29/02/1900 — is refused, never converted: CEPEA writes dates as text.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as XLSX from "@e965/xlsx";
import { afterAll, describe, expect, it } from "vitest";
import { runBackfill } from "../../pipeline/run/backfill.ts";
import { lerSerieCepea, SERIES_CEPEA } from "../../pipeline/sources/cepea-series.ts";
import { abrirPlanilha } from "../../pipeline/sources/planilha.ts";
import { cleanup, listFiles, tempSite, testConfig } from "../helpers/pipeline.ts";
import { CABECALHO, csv, diasUteis, historia, planilha, TITULO_BOI, type LinhaSerie } from "../backfill/planilhas.ts";

const NOW = new Date("2026-09-07T12:00:00-03:00");
const BOI = SERIES_CEPEA.find((s) => s.serie === "boi_gordo")!;
const BEZERRO = SERIES_CEPEA.find((s) => s.serie === "bezerro")!;
const TITULO_BEZERRO = "Indicador do Bezerro CEPEA/ESALQ - Mato Grosso do Sul";
const dirs: string[] = [];
afterAll(() => cleanup(...dirs));

async function importar(bytes: Buffer | string, nome: string, serie = BOI) {
  const site = await tempSite();
  dirs.push(site);
  const d = await mkdtemp(join(tmpdir(), "cotacao-bf6-"));
  dirs.push(d);
  const file = join(d, nome);
  await writeFile(file, bytes);
  const report = await runBackfill({ config: testConfig(site), now: NOW, serie, origem: { tipo: "arquivo", caminho: file }, env: {} });
  return { report, files: await listFiles(site) };
}

const linhas = (h: ReturnType<typeof historia>): LinhaSerie[] => h.map((d) => ({ data: d.data, brl: d.brl, usd: d.usd }));

describe("a value under a header cell without a label", () => {
  const dias = diasUteis("2026-06-01", "2026-08-14");
  const bezerro = linhas(historia(dias, { brl: 3426.02, usd: 660.12 }, 3300, 41));

  it("refuses the file instead of reading the US$ value as the R$ one (header shifted by an empty cell)", async () => {
    const xls = planilha(bezerro, "biff8", { titulo: TITULO_BEZERRO, cabecalho: ["Data", null, "À vista R$", "À vista US$"] });
    const { report, files } = await importar(xls, "bezerro.xls", BEZERRO);
    expect(report).toMatchObject({ estado: "recusado", exitCode: 1, written: [] });
    expect(files).toEqual([]);
    // the first data row is row 5; its R$ value sits in B5, under no label
    expect(report.motivo).toContain(`linha 5: valor ${bezerro[0]!.brl} em B5, coluna sem rótulo no cabeçalho (linha 4: "Data |  | À vista R$ | À vista US$")`);
  });

  it("a column left of the date, without a label, is refused too; an empty unlabelled column is not", () => {
    const aoa = [[TITULO_BOI], [], [], [null, ...CABECALHO], ...linhas(historia(dias, { brl: 344.9, usd: 66.3 }, 330, 3)).map((l) => [7, `${l.data.slice(8)}/${l.data.slice(5, 7)}/${l.data.slice(0, 4)}`, l.brl, l.usd])];
    const ws = XLSX.utils.aoa_to_sheet(aoa);
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, "Plan1");
    const bytes = XLSX.write(wb, { type: "buffer", bookType: "xlsx" }) as Buffer;
    expect(() => lerSerieCepea(abrirPlanilha(bytes), BOI)).toThrow("linha 5: valor 7 em A5, coluna sem rótulo no cabeçalho");
    // the same header gap with nothing under it reads as before
    const vazia = [TITULO_BEZERRO, "", "", "Data;;À vista R$;À vista US$", ...bezerro.map((l) => `${l.data.slice(8)}/${l.data.slice(5, 7)}/${l.data.slice(0, 4)};;${String(l.brl).replace(".", ",")};${String(l.usd).replace(".", ",")}`)].join("\r\n") + "\r\n";
    const lida = lerSerieCepea(abrirPlanilha(Buffer.from(vazia)), BEZERRO);
    expect(lida.dias).toHaveLength(bezerro.length);
    expect(lida.dias[0]).toEqual({ data: bezerro[0]!.data, valor: bezerro[0]!.brl, valor_usd: bezerro[0]!.usd });
  });
});

describe("a year typed wrong on the oldest or the newest row", () => {
  const dias = diasUteis("2021-03-02", "2026-08-14");
  const base = linhas(historia(dias, { brl: 344.9, usd: 66.3 }, 300, 17));

  it("the oldest row a year early (file oldest first) is refused, not imported as a lone day of 2020", async () => {
    const ruim = base.map((l, i) => (i === 0 ? { ...l, data: "2020-03-02" } : l));
    const { report, files } = await importar(planilha(ruim, "biff8"), "boi.xls");
    expect(report).toMatchObject({ estado: "recusado", exitCode: 1, written: [] });
    expect(files).toEqual([]);
    expect(report.motivo).toContain(
      "linha 5: 02/03/2020, o dia mais antigo do arquivo, fica a 366 dias do seguinte (03/03/2021, linha 6), mais que o dobro do maior intervalo entre as outras linhas (",
    );
    expect(report.motivo).toContain("ano ou mês digitado errado nessa linha?");
  });

  it("the oldest row a year early in a file newest first (its last row) is refused too", () => {
    const desc = [...base].reverse();
    const ruim = desc.map((l, i) => (i === desc.length - 1 ? { ...l, data: "2020-03-02" } : l));
    expect(() => lerSerieCepea(abrirPlanilha(Buffer.from(csv(ruim))), BOI)).toThrow(`linha ${desc.length + 4}: 02/03/2020, o dia mais antigo do arquivo, fica a 366 dias`);
  });

  it("the newest row a year late in a file that ends before today (2024 typed 2025) is refused", async () => {
    const ate2024 = base.filter((l) => l.data <= "2024-08-14");
    const ruim = ate2024.map((l, i) => (i === ate2024.length - 1 ? { ...l, data: "2025-08-14" } : l));
    const { report } = await importar(planilha(ruim, "xlsx"), "boi.xlsx");
    expect(report).toMatchObject({ estado: "recusado", exitCode: 1 });
    expect(report.motivo).toContain(`linha ${ruim.length + 4}: 14/08/2025, o dia mais novo do arquivo, fica a 366 dias do anterior (13/08/2024, linha ${ruim.length + 3})`);
  });

  it("a month typed wrong on the oldest row (03 typed 01) is refused; a year typo before the Real is only not imported", () => {
    const mes = base.map((l, i) => (i === 0 ? { ...l, data: "2021-01-02" } : l));
    expect(() => lerSerieCepea(abrirPlanilha(Buffer.from(csv(mes))), BOI)).toThrow("linha 5: 02/01/2021, o dia mais antigo do arquivo, fica a 60 dias do seguinte");
    // a row of 1993 is never imported (before the Real): nothing to refuse
    const antes = base.map((l, i) => (i === 0 ? { ...l, data: "1993-03-02" } : l));
    const r = lerSerieCepea(abrirPlanilha(Buffer.from(csv(antes))), BOI);
    expect(r.anterioresAoReal.n).toBe(1);
    expect(r.dias).toHaveLength(base.length - 1);
  });

  it("a series whose own steps are long (a file with a pause) is not refused for a long first step", () => {
    // a daily series with a 200-day pause in the middle: a 90-day first step is no typo
    const d1 = ["2021-01-04", ...diasUteis("2021-04-05", "2021-06-30"), ...diasUteis("2022-01-17", "2022-03-31")];
    const h = linhas(historia(d1, { brl: 320, usd: 60 }, 300, 9));
    expect(lerSerieCepea(abrirPlanilha(Buffer.from(csv(h))), BOI).dias).toHaveLength(d1.length);
  });
});

describe("guards: a date stored as an Excel serial is refused, never converted", () => {
  function comSerial(serial: number, date1904: boolean): Buffer {
    const ws = XLSX.utils.aoa_to_sheet([[TITULO_BOI], [], [], CABECALHO, ["02/01/2019", 150.1, 40.2], [serial, 150.3, 40.3]]);
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, "Plan1");
    if (date1904) wb.Workbook = { WBProps: { date1904: true } };
    return XLSX.write(wb, { type: "buffer", bookType: "biff8" }) as Buffer;
  }

  it("in a workbook of the 1904 date system (a Mac's), whose serials are 1 462 days smaller", () => {
    // 42 007 is 03/01/2019 in the 1904 system and 04/01/2015 in the 1900 one
    expect(() => lerSerieCepea(abrirPlanilha(comSerial(42007, true)), BOI)).toThrow("linha 6: data 42007 em A6, esperado texto dd/mm/aaaa (é um número: data do Excel?");
  });

  it("serial 60, Excel's nonexistent 29/02/1900", () => {
    expect(() => lerSerieCepea(abrirPlanilha(comSerial(60, false)), BOI)).toThrow("linha 6: data 60 em A6");
  });
});

describe("guards: a CSV saved by Excel (BOM, CRLF, Windows-1252)", () => {
  it("reads the same days with a UTF-8 BOM and CRLF, and in Windows-1252", () => {
    const h = linhas(historia(diasUteis("2026-06-01", "2026-08-14"), { brl: 344.9, usd: 66.3 }, 330, 23));
    const texto = csv(h);
    const esperado = lerSerieCepea(abrirPlanilha(Buffer.from(texto)), BOI).dias;
    expect(esperado).toHaveLength(h.length);
    expect(lerSerieCepea(abrirPlanilha(Buffer.from("\uFEFF" + texto)), BOI).dias).toEqual(esperado);
    expect(lerSerieCepea(abrirPlanilha(Buffer.from(texto, "latin1")), BOI).dias).toEqual(esperado);
  });
});
