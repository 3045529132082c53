/**
 * A new block of the long file is read by blocoRapido (validate/dados.ts) when it is regular,
 * and by lerCsvLongo otherwise. The fast reading must never take a block that lerCsvLongo would
 * refuse, and what it says of the series (columns, hash of days and values, count) must be what
 * lerCsvLongo says and what the series' JSON says (longoDaSerie).
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { SerieFile } from "../../pipeline/domain/publicados.ts";
import { blocoLongo, COLUNAS_LONGO } from "../../pipeline/render/longo.ts";
import { serieDef } from "../../pipeline/sources/index.ts";
import { blocoRapido, lerCsvLongo, longoDaSerie } from "../../pipeline/validate/dados.ts";
import { aleatorio } from "../helpers/aleatorio.ts";

const sha = (s: string) => createHash("sha256").update(s).digest("hex");

function lento(bloco: string) {
  const lido = lerCsvLongo(`${COLUNAS_LONGO.join(",")}\n${bloco}`);
  return { problemas: lido.problemas, series: new Map([...lido.series].map(([id, r]) => [id, { fixos: r.fixos, hash: sha(r.dias.join("")), pontos: r.pontos }])) };
}

function serie(id: string, valores: number[]): SerieFile {
  const def = serieDef(id)!;
  return {
    produto: def.produto,
    uf: def.uf,
    praca: def.uf ? "Dourados" : null,
    fonte: def.fonte,
    unidade: def.unidade,
    moeda: "BRL",
    historico: valores.map((valor, i) => ({ data: new Date(Date.UTC(2024, 1, 26) + i * 86400000).toISOString().slice(0, 10), valor })),
  } as unknown as SerieFile;
}

describe("blocoRapido", () => {
  it("reads a rendered block as lerCsvLongo and the series' JSON do", () => {
    for (const [id, valores] of [["boi_gordo/MS", [330, 331.5, 0.05, 12345.67, 1, 2.1]], ["soja", [161, 160.5]]] as const) {
      const f = serie(id, [...valores]);
      const bloco = blocoLongo(serieDef(id)!, f);
      const r = blocoRapido(id, bloco);
      expect(r).toEqual(longoDaSerie(id, f));
      const l = lento(bloco);
      expect(l.problemas).toEqual([]);
      expect(r).toEqual(l.series.get(id));
    }
  });

  it("never takes a block lerCsvLongo refuses, and says what it says of those it takes", () => {
    const id = "boi_gordo/MS";
    const bloco = blocoLongo(serieDef(id)!, serie(id, [330, 331.5, 0.05, 12345.67, 1, 2.1, 100.1, 7]));
    const linhas = bloco.split("\n").slice(0, -1);
    const sorteio = aleatorio(15);
    const int = (n: number) => Math.floor(sorteio() * n);
    const trocas = ["", "-", ".", ",", "0", "9", "1.234", "1.", ".5", "1e5", "x", '"', "\r", " ", "2024-02-30", "2024-13-01", "2024-9-01", "00", ",1"];
    const casos = [
      bloco,
      bloco.replace(",330\n", ",330.\n"),
      bloco.replace(",330\n", ",-330\n"),
      bloco.replace(",330\n", ",330.123\n"),
      bloco.replace(",330\n", ",03\n"),
      bloco.replace("2024-02-26,", "2024-02-30,"),
      bloco.replace("2024-02-27,", "2024-02-26,"),
      bloco.replace("2024-02-26,", "2024-2-26,,"),
      `${linhas[0]}\n${linhas[0]}\n`,
    ];
    for (let k = 0; k < 3000; k++) {
      const l = [...linhas];
      for (let d = 1 + int(2); d > 0; d--) {
        const i = int(l.length);
        const s = l[i]!;
        const a = int(s.length + 1);
        const b = Math.min(s.length, a + int(4));
        l[i] = s.slice(0, a) + trocas[int(trocas.length)]! + s.slice(b);
      }
      casos.push(`${l.join("\n")}\n`);
    }
    let tomados = 0;
    let recusados = 0;
    for (const c of casos) {
      const r = blocoRapido(id, c);
      const l = lento(c);
      if (l.problemas.length > 0 || [...l.series.keys()].some((k) => k !== id)) recusados++;
      if (r === null) continue;
      tomados++;
      expect(l.problemas, JSON.stringify(c)).toEqual([]);
      expect(r, JSON.stringify(c)).toEqual(l.series.get(id));
    }
    // both kinds occur, or the comparison proves little
    expect(tomados).toBeGreaterThan(20);
    expect(recusados).toBeGreaterThan(casos.length / 2);
  });
});
