/**
 * `npm run validate` reads the long file (api/v1/historico.csv) in parts from disk
 * (lerLongoEmPartes, validate/dados.ts) instead of whole: for every malformed long file the
 * whole-text reading (lerCsvLongo, which the build still uses for its new blocks) refuses, the
 * reading in parts must say exactly the same (messages, absolute line numbers, the cap of
 * problems) and the same of each series, whatever the size of the parts.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { HistoricoEntry, SerieFile } from "../../pipeline/domain/publicados.ts";
import { primeiraLinha } from "../../pipeline/domain/texto.ts";
import { HISTORICO_LONGO_PATH } from "../../pipeline/render/csv.ts";
import { COLUNAS_LONGO, historicoLongoCsv } from "../../pipeline/render/longo.ts";
import { serieDef } from "../../pipeline/sources/index.ts";
import { ChecagemDados, fonteDeBytes, lerCsvLongo, lerLongoEmPartes, longoDaSerie, setBytesPorParteDoLongo, type FonteDoLongo } from "../../pipeline/validate/dados.ts";
import { aleatorio } from "../helpers/aleatorio.ts";

const sha = (s: string) => createHash("sha256").update(s).digest("hex");
const CABECALHO = `${COLUNAS_LONGO.join(",")}\n`;

afterEach(() => setBytesPorParteDoLongo(null));

function historico(n: number, semente: number): HistoricoEntry[] {
  const r = aleatorio(semente);
  let cents = 30000;
  return Array.from({ length: n }, (_, i) => {
    cents = Math.max(100, cents + Math.round((r() - 0.5) * 600));
    return { data: new Date(Date.UTC(2020, 0, 1) + i * 86400000).toISOString().slice(0, 10), valor: cents / 100 };
  });
}

const serie = (id: string, over: Partial<SerieFile>, n: number, semente: number): SerieFile => {
  const def = serieDef(id)!;
  return { produto: def.produto, uf: def.uf, fonte: def.fonte, moeda: "BRL", unidade: def.unidade, praca: null, historico: historico(n, semente), ...over } as SerieFile;
};

/** A long file as the renderer writes it: a national series, state series (one with a praça of non-ASCII letters), grains. */
const SERIES = new Map<string, SerieFile>([
  ["boi_gordo", serie("boi_gordo", {}, 120, 1)],
  ["boi_gordo/MS", serie("boi_gordo/MS", { praca: "Três Lagoas" }, 150, 2)],
  ["boi_gordo/SP", serie("boi_gordo/SP", { praca: "Araçatuba" }, 90, 3)],
  ["milho", serie("milho", {}, 130, 4)],
  ["soja", serie("soja", {}, 110, 5)],
]);
const BOM = historicoLongoCsv(SERIES);
const LINHAS = BOM.split("\n").slice(0, -1);
/** the lines of one series, without the header */
const bloco = (id: string) => LINHAS.slice(1).filter((l) => l.startsWith(`${id},`));
const arquivo = (linhas: string[]) => `${linhas.join("\n")}\n`;
const SEM = (id: string) => LINHAS.filter((l) => !l.startsWith(`${id},`));

/** What ChecagemDados.historicoLongo makes of the whole text: its problems, the series digested, the header it keeps. */
function inteiro(b: Buffer) {
  const text = b.toString("utf8");
  const lido = lerCsvLongo(text);
  const series = new Map([...lido.series].map(([id, r]) => [id, { fixos: r.fixos, hash: sha(r.dias.join("")), pontos: r.pontos }]));
  return { problemas: lido.problemas, series, cabecalho: primeiraLinha(text).replace(/^\ufeff/, "") };
}

/** Each malformed file the whole-text reading refuses (its tests: test/dados/csv.test.ts, bloco-rapido.test.ts, site.test.ts). */
const CASOS: Array<[string, string | Buffer]> = [
  ["cabeçalho errado", BOM.replace("serie,produto", "série,produto")],
  ["cabeçalho com colunas trocadas", BOM.replace("data,valor\n", "valor,data\n")],
  ["arquivo vazio", ""],
  ["só uma quebra de linha", "\n"],
  ["só o cabeçalho", CABECALHO],
  ["só o cabeçalho, sem \\n", CABECALHO.slice(0, -1)],
  ["com BOM", `\ufeff${BOM}`],
  ["só o BOM", "\ufeff"],
  ["quebras CRLF", BOM.replace(/\n/g, "\r\n")],
  ["um CR solto no meio", BOM.replace(",Três Lagoas,", ",Três\rLagoas,")],
  ["um CR no fim", `${BOM}\r`],
  ["sem \\n no fim", BOM.slice(0, -1)],
  ["cortado no meio de uma linha", BOM.slice(0, BOM.indexOf("\nmilho,") + 30)],
  ["cortado no meio de um caractere", Buffer.from(BOM).subarray(0, Buffer.from(BOM).indexOf("Três") + 2)],
  ["bytes que não são UTF-8", Buffer.concat([Buffer.from(BOM.slice(0, 5000)), Buffer.from([0xff, 0xc3]), Buffer.from(BOM.slice(5000))])],
  ["blocos fora de ordem", arquivo([LINHAS[0]!, ...bloco("milho"), ...bloco("boi_gordo"), ...bloco("soja")])],
  ["blocos intercalados", arquivo([LINHAS[0]!, ...bloco("boi_gordo").slice(0, 60), ...bloco("boi_gordo/MS"), ...bloco("boi_gordo").slice(60), ...bloco("milho")])],
  ["bloco repetido", arquivo([...SEM("soja"), ...bloco("milho"), ...bloco("soja")])],
  ["bloco repetido logo depois", arquivo([...LINHAS, ...bloco("soja")])],
  ["linha repetida", arquivo([...LINHAS.slice(0, 200), LINHAS[199]!, ...LINHAS.slice(200)])],
  ["dias trocados", arquivo([...LINHAS.slice(0, 300), LINHAS[301]!, LINHAS[300]!, ...LINHAS.slice(302)])],
  ["nacional errado", BOM.replace("boi_gordo,boi_gordo,SP,true,", "boi_gordo,boi_gordo,SP,false,")],
  ["nacional errado numa série estadual", BOM.replace(/^(boi_gordo\/SP,boi_gordo,SP,)false,/m, "$1true,")],
  ["valor zero", BOM.replace(/^(milho,[^\n]*,2020-02-0[1-9]),[\d.]+$/m, "$1,0")],
  ["valor negativo", BOM.replace(/^(milho,[^\n]*,2020-02-0[1-9]),[\d.]+$/m, "$1,-3")],
  ["valor com três casas", BOM.replace(/^(soja,[^\n]*,2020-03-0[1-9]),[\d.]+$/m, "$1,1.234")],
  ["valor com vírgula decimal", BOM.replace(/^(soja,[^\n]*,2020-03-0[1-9]),([\d]+)\.?[\d]*$/m, '$1,"$2,5"')],
  ["data impossível", BOM.replace(/^(boi_gordo\/MS,[^\n]*,)2020-02-28,/m, "$12020-02-30,")],
  ["data em outro formato", BOM.replace(/^(boi_gordo\/MS,[^\n]*,)2020-02-28,/m, "$128/02/2020,")],
  ["unidade desconhecida", BOM.replace(/^(milho,milho,[^,]*,true,,cepea,)sc60kg,/m, "$1saca,")],
  ["série com nome inválido", BOM.replace(/^soja,/m, "Soja,")],
  ["colunas que mudam no meio da série", BOM.replace(/^(boi_gordo\/MS,boi_gordo,MS,false,)Três Lagoas(,[^\n]*,2020-03-0[1-9],)/m, "$1Dourados$2")],
  ["campos entre aspas (válidos)", BOM.replace(/^milho,milho,/m, '"milho","milho",')],
  ["bloco inteiro entre aspas (válido)", BOM.replace(/^soja,soja,/gm, '"soja",soja,')],
  ["aspas malformadas", BOM.replace(/^(soja,soja,)/m, '$1"x')],
  ["campo a mais", BOM.replace(/^(boi_gordo\/SP,[^\n]*)$/m, "$1,extra")],
  ["campo a menos", BOM.replace(/^(boi_gordo\/SP,[^\n]*),[\d.]+$/m, "$1")],
  ["linha em branco no meio", arquivo([...LINHAS.slice(0, 250), "", ...LINHAS.slice(250)])],
  ["linha em branco no fim", `${BOM}\n`],
  ["linha sem vírgula", arquivo([...LINHAS.slice(0, 250), "boi_gordo/MS", ...LINHAS.slice(250)])],
  ["linha que começa com vírgula", arquivo([...LINHAS.slice(0, 250), ",,,,,,,,,", ...LINHAS.slice(250)])],
  ["mais de 20 problemas (o teto)", BOM.replace(/^(boi_gordo\/MS,[^\n]*),[\d.]+$/gm, "$1,x")],
  ["o teto alcançado em várias séries", BOM.replace(/^((?:boi_gordo\/SP|milho),[^\n]*,2020-01-0[1-8]),[\d.]+$/gm, "$1,0").replace(/^(soja,[^\n]*,2020-01-1\d),[\d.]+$/gm, "$1,x")],
  ["uma série a menos", arquivo(SEM("boi_gordo/SP"))],
];

const TAMANHOS = [1, 2, 3, 7, 64, 1000, 4096, null];

describe("the long file read in parts (npm run validate)", () => {
  it("the well-formed file: no problems, and each series as the whole-text reading and its JSON say", () => {
    for (const t of TAMANHOS) {
      setBytesPorParteDoLongo(t);
      const lido = lerLongoEmPartes(fonteDeBytes(Buffer.from(BOM)));
      expect(lido).toEqual(inteiro(Buffer.from(BOM)));
      expect(lido.problemas).toEqual([]);
      expect(lido.cabecalho).toBe(COLUNAS_LONGO.join(","));
      for (const [id, f] of SERIES) expect(lido.series.get(id), id).toEqual(longoDaSerie(id, f));
    }
  });

  it.each(CASOS)("%s: the same problems, line numbers and series as reading it whole", (_nome, caso) => {
    const b = Buffer.isBuffer(caso) ? caso : Buffer.from(caso);
    const esperado = inteiro(b);
    for (const t of TAMANHOS) {
      setBytesPorParteDoLongo(t);
      expect(lerLongoEmPartes(fonteDeBytes(b)), `partes de ${t ?? "padrão"} bytes`).toEqual(esperado);
    }
  });

  it("every malformed case is one: the whole-text reading finds something wrong, except in the valid ones", () => {
    for (const [nome, caso] of CASOS) {
      const { problemas, series } = inteiro(Buffer.isBuffer(caso) ? caso : Buffer.from(caso));
      const vale = nome.includes("(válido") || nome === "uma série a menos";
      expect(problemas.length === 0, nome).toBe(vale);
      // a file that changed something the lines' checks cannot see still says different things of its series
      if (vale) expect(series.size, nome).toBe(nome === "uma série a menos" ? SERIES.size - 1 : SERIES.size);
    }
  });

  it("stops where the whole-text reading stops: the cap of problems, and nothing of the series after it", () => {
    const caso = CASOS.find(([n]) => n === "mais de 20 problemas (o teto)")![1] as string;
    setBytesPorParteDoLongo(100);
    const lido = lerLongoEmPartes(fonteDeBytes(Buffer.from(caso)));
    expect(lido.problemas).toHaveLength(20);
    expect(lido.series.has("milho")).toBe(false);
    expect(lido.series.has("boi_gordo")).toBe(true);
  });

  it("a file larger than a part is read in several parts, and a fault in a late part has its line number in the file", () => {
    // the 541st line: the 21st of milho's block (after the header, 120 + 150 + 90 lines and 20 of milho)
    const n = 1 + 120 + 150 + 90 + 21;
    const linhas = [...LINHAS];
    expect(linhas[n - 1]!.startsWith("milho,")).toBe(true);
    const dia = linhas[n - 1]!.split(",")[8]!;
    linhas[n - 1] = linhas[n - 1]!.replace(/,[\d.]+$/, ",12,5");
    linhas[n + 9] = linhas[n + 9]!.replace(`,${linhas[n + 9]!.split(",")[8]},`, ",2020-13-01,");
    const b = Buffer.from(arquivo(linhas));
    const lidas: number[] = [];
    const fonte: FonteDoLongo = { bytes: b.length, ler: (destino, posicao) => (lidas.push(posicao), fonteDeBytes(b).ler(destino, posicao)) };
    setBytesPorParteDoLongo(4096);
    const lido = lerLongoEmPartes(fonte);
    // milho's block is far past the first part; a 13th month is a later day as text, so the next line is the one out of order
    expect(b.indexOf("\nmilho,")).toBeGreaterThan(5 * 4096);
    expect(lidas.filter((p) => p > 0).length).toBeGreaterThan(5);
    expect(lido.problemas).toEqual([
      { ponteiro: `linha ${n}`, mensagem: `deve ter 10 campos como o cabeçalho (recebido 11: ${JSON.stringify(linhas[n - 1])})` },
      { ponteiro: `linha ${n + 10}`, mensagem: 'data deve ser AAAA-MM-DD válida (recebido "2020-13-01")' },
      { ponteiro: `linha ${n + 11}`, mensagem: `fora de ordem ou repetida: milho ${linhas[n + 10]!.split(",")[8]} depois de milho 2020-13-01 (ordene por serie e data, um dia por série)` },
    ]);
    expect(dia).toMatch(/^2020-/);
    expect(lido).toEqual(inteiro(b));
  });

  it("ChecagemDados: the long file on disk says what the same text read whole says, across files too", () => {
    const dir = mkdtempSync(join(tmpdir(), "longo-em-partes-"));
    try {
      setBytesPorParteDoLongo(512);
      const mudado = BOM.replace(/^(boi_gordo\/MS,[^\n]*,2020-02-1\d),[\d.]+$/m, "$1,1").replace(/^soja,/gm, "Soja,");
      for (const text of [BOM, mudado, arquivo(SEM("milho")), `\ufeff${BOM.replace(/\n/g, "\r\n")}`]) {
        const p = join(dir, "historico.csv");
        writeFileSync(p, text);
        const [a, b] = [new ChecagemDados(), new ChecagemDados()];
        for (const c of [a, b]) for (const [id, f] of SERIES) c.serieReusada(id, longoDaSerie(id, f));
        const pa = a.historicoLongo(text);
        const pb = b.historicoLongoEmDisco(p);
        expect(pb).toEqual(pa);
        const arvore = new Set([HISTORICO_LONGO_PATH]);
        expect(b.problemas(arvore)).toEqual(a.problemas(arvore));
      }
      // the comparison has something to compare: the changed file is refused across files
      const c = new ChecagemDados();
      for (const [id, f] of SERIES) c.serieReusada(id, longoDaSerie(id, f));
      writeFileSync(join(dir, "historico.csv"), BOM.replace(/^(boi_gordo\/MS,[^\n]*,2020-02-1\d),[\d.]+$/m, "$1,1"));
      expect(c.historicoLongoEmDisco(join(dir, "historico.csv"))).toEqual([]);
      expect([...c.problemas().values()].flat()).toEqual([expect.stringContaining("boi_gordo/MS: 150 linhas que não conferem com os 150 dias")]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
