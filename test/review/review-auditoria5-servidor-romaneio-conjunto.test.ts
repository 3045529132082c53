/**
 * What was wrong: the romaneio answer compares a receipt's price with two published files, the
 * state series and the national one, read one beside the other from the server's file cache. Each
 * file is checked on disk on its own clock (once a second), so just after a publish one could come
 * from the cache (the publish before) while the other's second had run out (the new publish): the
 * comparison set MS's old price beside the national new one, a mix of two publishes in one answer.
 *
 * Now both are read again when a new version handed out meanwhile left the other stale.
 */
import { mkdir, mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ComparacaoRomaneio, LeituraRomaneio, Serie } from "../../pipeline/domain/publicados.gerados.ts";
import { FileCache } from "../../pipeline/serve/files.ts";
import { lerEComparar, type Etapas } from "../../pipeline/serve/romaneio.ts";

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

const LEITURA = { tipo: "abate", data: "2026-09-25", produto: "boi_gordo", uf: "MS" } as unknown as LeituraRomaneio;

describe("the romaneio's references just after a publish", () => {
  it("are the state and national prices of one publish, never of two", async () => {
    const root = await mkdtemp(join(tmpdir(), "cotacao-romaneio-conjunto-"));
    dirs.push(root);
    await mkdir(join(root, "api/v1/cotacao/boi_gordo"), { recursive: true });
    const nacional = "api/v1/cotacao/boi_gordo.json";
    const estadual = "api/v1/cotacao/boi_gordo/MS.json";
    const escrever = async (rel: string, valor: number, data: string) => {
      await writeFile(join(root, `${rel}.novo`), JSON.stringify({ produto: "boi_gordo", valor, data_cotacao: data }));
      await rename(join(root, `${rel}.novo`), join(root, rel));
    };
    await escrever(nacional, 347.7, "2026-09-24");
    await escrever(estadual, 338, "2026-09-24");
    let agora = 0;
    const files = new FileCache(root, { now: () => agora });
    await files.resolve(nacional);
    agora = 500;
    await files.resolve(estadual);
    // the publish
    agora = 600;
    await escrever(nacional, 350.1, "2026-09-25");
    await escrever(estadual, 341, "2026-09-25");
    // the national file's second has run out, the state file's has not
    agora = 1100;
    const recebidas: { estadual: Serie | null; nacional: Serie | null }[] = [];
    const etapas: Etapas = {
      ler: () => LEITURA,
      series: () => ({ estadual: "boi_gordo/MS", nacional: "boi_gordo" }),
      comparar: (_l, series) => {
        recebidas.push(series);
        return {} as ComparacaoRomaneio;
      },
    };
    const leitor = { ler: async () => ({ texto: "ROMANEIO", origem: "ocr", tipo: "png", paginas: 1, segundos: 0.1 }), fechar: async () => undefined };
    await lerEComparar({ leitor: leitor as never, etapas, files, hoje: "2026-09-25", tempoS: 60 }, { bytes: new Uint8Array(1), tipo: "png" as never });
    const [r] = recebidas;
    expect({ estadual: [r!.estadual?.valor, r!.estadual?.data_cotacao], nacional: [r!.nacional?.valor, r!.nacional?.data_cotacao] }).toEqual({
      estadual: [341, "2026-09-25"],
      nacional: [350.1, "2026-09-25"],
    });
  });
});
