import { expect } from "vitest";
import type { HistoricoEntry } from "../../pipeline/domain/publicados.ts";
import { csvTexto, excelTexto, historicoCsvs, historicoTabela, pracasCsvs, pracasTabela } from "../../pipeline/render/csv.ts";

/** The one-pass CSV renderers write byte for byte what csvTexto and excelTexto write of the same tables. */
export function confereCsvs(historico: HistoricoEntry[], unidade = "@"): void {
  const a = historicoCsvs(historico, unidade);
  expect(a.csv).toBe(csvTexto(historicoTabela(historico, unidade)));
  expect(a.excel).toBe(excelTexto(historicoTabela(historico, unidade)));
  const p = pracasCsvs(historico, unidade);
  const t = pracasTabela(historico, unidade);
  expect(p === null).toBe(t === null);
  if (p && t) {
    expect(p.csv).toBe(csvTexto(t));
    expect(p.excel).toBe(excelTexto(t));
  }
}
