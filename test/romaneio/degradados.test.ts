import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LeituraRomaneio } from "../../pipeline/domain/publicados.gerados.ts";
import { lerRomaneio } from "../../pipeline/romaneio/ler.ts";
import { criarLeitorOcr, type LeitorOcr } from "../../pipeline/romaneio/ocr.ts";
import { diferencas, numerosErradosEmSilencio } from "./corpus.ts";
import { DEGRADACOES, gerarDegradados, type DocumentoDegradado } from "./degradar.ts";

/**
 * Every degraded copy of the corpus (rotated, blurred, noisy, JPEG, 100 dpi, uneven light, phone
 * photo) through the real OCR engine and lerRomaneio. The promise that holds however bad the
 * picture: no number is wrong in silence (a wrong number is null, doubtful or named in an aviso).
 * A few degrees of rotation must still read every field, 100 dpi every total that matters.
 * Slow: 77 pages, two OCR passes each (npm run bench -- romaneio prints the same per degradation).
 */

let copias: DocumentoDegradado[] = [];
const leituras = new Map<string, LeituraRomaneio | Error>();
let leitor: LeitorOcr;

beforeAll(async () => {
  copias = await gerarDegradados();
  leitor = criarLeitorOcr({ workers: 2, fila: copias.length, tempoLimiteMs: 300_000 });
  await Promise.all(
    copias.map(async (c) => {
      try {
        const r = await leitor.ler(new Uint8Array(await readFile(c.arquivo)), c.tipo);
        leituras.set(c.id, lerRomaneio(r));
      } catch (e) {
        leituras.set(c.id, e as Error);
      }
    }),
  );
}, 1_800_000);

afterAll(async () => {
  await leitor?.fechar();
});

describe("degraded corpus", () => {
  it("has every degradation of every document, each with its expected fields", () => {
    const documentos = new Set(copias.map((c) => c.documento));
    expect(documentos.size).toBeGreaterThanOrEqual(10);
    expect(copias).toHaveLength(documentos.size * DEGRADACOES.length);
    for (const c of copias) expect(c.esperado.totais).not.toBeNull();
  });

  it("no number is wrong in silence, on any copy", () => {
    const falhas: string[] = [];
    for (const c of copias) {
      const l = leituras.get(c.id);
      if (l instanceof Error) {
        falhas.push(`${c.id}: ${l.message}`);
        continue;
      }
      for (const s of numerosErradosEmSilencio(l!, c.esperado)) falhas.push(`${c.id}: ${s}`);
    }
    expect(falhas).toEqual([]);
  });

  it("reads every field of the rotated copies (rotateAuto deskews them)", () => {
    const falhas: string[] = [];
    for (const c of copias.filter((x) => x.degradacao === "rotacao")) {
      const l = leituras.get(c.id);
      if (l instanceof Error) falhas.push(`${c.id}: ${l.message}`);
      else for (const d of diferencas(l!, c.esperado)) falhas.push(`${c.id}: ${d}`);
    }
    expect(falhas).toEqual([]);
  });

  it("reads the type, date, gross and net value of every 100 dpi copy", () => {
    for (const c of copias.filter((x) => x.degradacao === "baixa_resolucao")) {
      const l = leituras.get(c.id);
      expect(l).not.toBeInstanceOf(Error);
      const lida = l as LeituraRomaneio;
      expect({ id: c.id, tipo: lida.tipo, data: lida.data, bruto: lida.totais?.valor_bruto, liquido: lida.totais?.valor_liquido }).toEqual({
        id: c.id,
        tipo: c.esperado.tipo,
        data: c.esperado.data,
        bruto: c.esperado.totais?.valor_bruto,
        liquido: c.esperado.totais?.valor_liquido,
      });
    }
  });

  it("reads the type, the date and the gross value of most copies of every degradation", () => {
    for (const g of DEGRADACOES) {
      const desta = copias.filter((c) => c.degradacao === g);
      const certas = desta.filter((c) => {
        const l = leituras.get(c.id);
        if (!l || l instanceof Error) return false;
        return l.tipo === c.esperado.tipo && l.data === c.esperado.data && l.totais?.valor_bruto === c.esperado.totais?.valor_bruto;
      });
      expect({ degradacao: g, certas: certas.length >= desta.length / 2 }).toEqual({ degradacao: g, certas: true });
    }
  });
});
