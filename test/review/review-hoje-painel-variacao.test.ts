/**
 * The dashboard's cards take the price and its day from cotacao.json, fetched by the script, and
 * the day's change from the part of index.json written into index.html at build. The page can be
 * older than cotacao.json (a reload revalidates the page and keeps fresh subresources, a cache in
 * between): a card then showed the new price beside the change of the day before it, "sobre" a
 * day that is not the one before the price shown. The change must be the shown day's own.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AggregateFile, IndexFile } from "../../pipeline/domain/publicados.ts";
import { cartaoDoBoiCom, siteNoNavegador } from "../browser/site-no-navegador.ts";

const t = siteNoNavegador();

const br = (iso: string) => iso.split("-").reverse().join("/");

describe("a card's change belongs to the day of the price it shows", () => {
  it("with cotacao.json newer than the page, the change is index.json's for the new day, not the page's for the old one", async () => {
    const agg = JSON.parse(await readFile(join(t.site.publicDir, "api/v1/cotacao.json"), "utf8")) as AggregateFile;
    const index = JSON.parse(await readFile(join(t.site.publicDir, "api/v1/index.json"), "utf8")) as IndexFile;
    const boi = index.series.find((s) => s.id === "boi_gordo")!;
    const antigo = agg.datas.boi_gordo_cepea_sp!;
    expect(boi.ultima_data).toBe(antigo);
    expect(boi.variacao).not.toBeNull();
    // the update published after the page was cached: one more day, 5,00 above
    const novoDia = "2026-09-08";
    const novoValor = Math.round((boi.valor! + 5) * 100) / 100;
    const aggNovo: AggregateFile = { ...agg, boi_gordo_cepea_sp: novoValor, datas: { ...agg.datas, boi_gordo_cepea_sp: novoDia } };
    const variacao = { anterior: boi.valor!, absoluta: 5, percentual: Math.round((5 / boi.valor!) * 10000) / 100, data_anterior: antigo };
    const indexNovo: IndexFile = { ...index, series: index.series.map((s) => (s.id === "boi_gordo" ? { ...s, ultima_data: novoDia, valor: novoValor, variacao } : s)) };

    const card = await cartaoDoBoiCom(t, aggNovo, indexNovo);
    expect(await card.locator('[data-campo="data"]').innerText()).toContain(br(novoDia));
    const texto = await card.locator('[data-campo="variacao"]').innerText();
    // the change of 08/09 over 04/09, never the page's change of 04/09 over the day before it
    expect(texto).not.toContain(`sobre ${br(boi.variacao!.data_anterior)}`);
    expect(texto).toContain(`sobre ${br(antigo)}`);
    expect(texto).toContain("5,00");
    await card.page().close();
  });
});
