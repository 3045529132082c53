/**
 * The data commit leads with the news: a realistic day (CEPEA's indicators and Scot's praças
 * moving, most praças unchanged, a revision, a new series, a source failing) as before/after
 * files, and the exact message a data journalist reads in `git log`.
 */
import { describe, expect, it } from "vitest";
import type { SerieFile, StatusFile } from "../../pipeline/domain/publicados.ts";
import { buildChangelog, diffSerie, revisionLines, serieLines, tipoDaMudanca } from "../../pipeline/publish/changelog.ts";
import { ancoraSerie, nomeSerie } from "../../pipeline/publish/nomes.ts";

const NOMES: Record<string, string> = { boi_gordo: "Boi gordo", vaca_gorda: "Vaca gorda", soja: "Soja", milho: "Milho", bezerro: "Bezerro" };
const UNIDADE: Record<string, string> = { boi_gordo: "@", vaca_gorda: "@", soja: "sc60kg", milho: "sc60kg", bezerro: "cabeca" };

function serie(id: string, fonte: string, historico: Array<[string, number]>): SerieFile {
  const [produto, uf] = id.split("/") as [string, string | undefined];
  const unidade = id === "boi_gordo/RS" ? "kg" : UNIDADE[produto]!;
  return {
    produto,
    nome: NOMES[produto],
    uf: uf ?? null,
    unidade,
    fonte,
    valor: historico.at(-1)![1],
    data_cotacao: historico.at(-1)![0],
    historico: historico.map(([data, valor]) => ({ data, valor })),
  } as unknown as SerieFile;
}
const path = (id: string) => `api/v1/cotacao/${id}.json`;
type Files = Record<string, SerieFile | StatusFile | null>;
const toMap = (m: Files) => new Map(Object.entries(m).map(([k, v]) => [k, v ? JSON.stringify(v) : null]));

function status(scot: Partial<StatusFile["fontes"][number]>): StatusFile {
  const base = { ultima_tentativa: null, ultimo_sucesso: null, motivo: null, falhas_consecutivas: 0, falhando_desde: null, paginas: [] };
  return {
    api_version: "v1",
    atualizado: "2026-09-08T21:20:00-03:00",
    series: [],
    fontes: [
      { ...base, id: "cepea", nome: "CEPEA", estado: "ok", ultima_data: "2026-09-08" },
      { ...base, id: "scot", nome: "Scot", estado: "ok", ultima_data: "2026-09-08", ...scot },
    ],
  } as unknown as StatusFile;
}

// Scot's praças on 05/09 and 08/09: MS +2,3%, SP +0,4%, GO -1,2%; the other twelve unchanged
const PRACAS_IGUAIS = ["MG", "MT", "PR", "RS", "BA", "SC", "MA", "AL", "PA", "RO", "TO", "AC"];
function dia(): { before: Files; after: Files } {
  const before: Files = {};
  const after: Files = {};
  const put = (id: string, fonte: string, antes: Array<[string, number]>, depois: Array<[string, number]>) => {
    before[path(id)] = serie(id, fonte, antes);
    after[path(id)] = serie(id, fonte, depois);
  };
  // CEPEA boi gordo: a new day (+0,40%) and 03/09 revised
  put("boi_gordo", "cepea", [["2026-09-03", 347.6], ["2026-09-04", 347.7]], [["2026-09-03", 347.7], ["2026-09-04", 347.7], ["2026-09-08", 349.1]]);
  // soja falls 1,50%
  put("soja", "cepea", [["2026-09-04", 140]], [["2026-09-04", 140], ["2026-09-08", 137.9]]);
  // milho: a new day at the same price
  put("milho", "cepea", [["2026-09-04", 70.93]], [["2026-09-04", 70.93], ["2026-09-08", 70.93]]);
  put("boi_gordo/MS", "scot", [["2026-09-05", 300]], [["2026-09-05", 300], ["2026-09-08", 306.9]]);
  put("boi_gordo/SP", "scot", [["2026-09-05", 345.5]], [["2026-09-05", 345.5], ["2026-09-08", 347]]);
  put("boi_gordo/GO", "scot", [["2026-09-05", 310]], [["2026-09-05", 310], ["2026-09-08", 306.28]]);
  for (const uf of PRACAS_IGUAIS) {
    const v = uf === "RS" ? 11.5 : 320;
    put(`boi_gordo/${uf}`, "scot", [["2026-09-05", v]], [["2026-09-05", v], ["2026-09-08", v]]);
  }
  // a series the catalogue just gained
  after[path("bezerro/MS")] = serie("bezerro/MS", "datagro", [["2026-09-01", 2900], ["2026-09-08", 2950]]);
  before[path("bezerro/MS")] = null;
  return { before, after };
}

describe("the data commit leads with the news", () => {
  it("a realistic day: biggest moves first, by name, Brazilian dates, unchanged praças folded, revisions apart", () => {
    const { before, after } = dia();
    const msg = buildChangelog({ before: toMap(before), after: toMap(after) })!;
    expect(msg).toBe(
      [
        "Boi gordo (MS, Scot Consultoria) +2,3%, Soja (CEPEA/ESALQ-USP) -1,5%, Boi gordo (GO, Scot Consultoria) -1,2% e mais 2 variações; 1 revisão; 1 série nova",
        "",
        "Variações (maiores primeiro):",
        "- Boi gordo (MS, Scot Consultoria): R$ 300,00/@ → R$ 306,90/@ (+R$ 6,90; +2,30%) em 08/09/2026 (antes: 05/09/2026)",
        "- Soja (CEPEA/ESALQ-USP): R$ 140,00/sc 60 kg → R$ 137,90/sc 60 kg (-R$ 2,10; -1,50%) em 08/09/2026 (antes: 04/09/2026)",
        "- Boi gordo (GO, Scot Consultoria): R$ 310,00/@ → R$ 306,28/@ (-R$ 3,72; -1,20%) em 08/09/2026 (antes: 05/09/2026)",
        "- Boi gordo (SP, Scot Consultoria): R$ 345,50/@ → R$ 347,00/@ (+R$ 1,50; +0,43%) em 08/09/2026 (antes: 05/09/2026)",
        "- Boi gordo (CEPEA/ESALQ-USP): R$ 347,70/@ → R$ 349,10/@ (+R$ 1,40; +0,40%) em 08/09/2026 (antes: 04/09/2026)",
        "",
        "Sem mudança:",
        "- 13 séries sem mudança em 08/09/2026: Milho (CEPEA/ESALQ-USP); Boi gordo (Scot Consultoria) em AC, AL, BA, MA, MG, MT, PA, PR, RO, RS, SC e TO",
        "",
        "Revisões:",
        "- Boi gordo (CEPEA/ESALQ-USP), 03/09/2026: R$ 347,60/@ → R$ 347,70/@ (+R$ 0,10; +0,03%)",
        "",
        "Séries novas:",
        "- Bezerro (MS, Datagro): R$ 2.950,00/cabeça em 08/09/2026 (2 dias desde 01/09/2026)",
        "",
      ].join("\n"),
    );
    // no id and no ISO date reaches the reader
    expect(msg).not.toMatch(/boi_gordo|\bscot\b|\d{4}-\d{2}-\d{2}/);
  });

  it("is deterministic: the same change in any file order gives the same message", () => {
    const { before, after } = dia();
    const a = buildChangelog({ before: toMap(before), after: toMap(after) });
    const rev = (m: Files) => Object.fromEntries(Object.entries(m).reverse());
    expect(buildChangelog({ before: toMap(rev(before)), after: toMap(rev(after)) })).toBe(a);
  });

  it("only praças at the same price: one line says how many, and the subject says so", () => {
    const before: Files = {};
    const after: Files = {};
    for (const uf of PRACAS_IGUAIS) {
      before[path(`boi_gordo/${uf}`)] = serie(`boi_gordo/${uf}`, "scot", [["2026-09-05", 320]]);
      after[path(`boi_gordo/${uf}`)] = serie(`boi_gordo/${uf}`, "scot", [["2026-09-05", 320], ["2026-09-08", 320]]);
    }
    const msg = buildChangelog({ before: toMap(before), after: toMap(after) })!;
    expect(msg.split("\n")[0]).toBe("12 praças sem mudança em 08/09/2026");
    expect(msg).toContain("- 12 praças sem mudança em 08/09/2026: Boi gordo (Scot Consultoria) em AC, AL, BA, MA, MG, MT, PA, PR, RO, RS, SC e TO\n");
    expect(msg.split("\n").filter((l) => l.startsWith("- "))).toHaveLength(1);
  });

  it("only revisions: the subject names the revised series; a failing source is named by its name", () => {
    const p = path("milho");
    const msg = buildChangelog({
      before: toMap({ [p]: serie("milho", "cepea", [["2026-09-03", 70.1], ["2026-09-04", 70.93]]), "api/v1/status.json": status({}) }),
      after: toMap({
        [p]: serie("milho", "cepea", [["2026-09-03", 69.9], ["2026-09-04", 70.93]]),
        "api/v1/status.json": status({
          estado: "failed",
          motivo: "HTTP 503",
          falhas_consecutivas: 1,
          falhando_desde: "2026-09-08T21:17:00-03:00",
          ultima_data: "2026-09-05",
          paginas: [{ id: "boi-gordo", estado: "http_error", motivo: "HTTP 503 em https://www.scotconsultoria.com.br/cotacoes/boi-gordo/" }],
        } as never),
      }),
    })!;
    expect(msg).toBe(
      [
        "Revisão em Milho (CEPEA/ESALQ-USP); Scot Consultoria com falha desde 08/09/2026 21:17",
        "",
        "Revisões:",
        "- Milho (CEPEA/ESALQ-USP), 03/09/2026: R$ 70,10/sc 60 kg → R$ 69,90/sc 60 kg (-R$ 0,20; -0,29%)",
        "",
        "Fontes:",
        "- Scot Consultoria com falha desde 08/09/2026 21:17, 1 falha; dados mantidos até 05/09/2026",
        "  página scot/boi-gordo: http_error: HTTP 503 em https://www.scotconsultoria.com.br/cotacoes/boi-gordo/",
        "",
      ].join("\n"),
    );
  });

  it("a small move keeps two decimals in the subject rather than a rounded 0,0%", () => {
    const p = path("boi_gordo");
    const msg = buildChangelog({
      before: toMap({ [p]: serie("boi_gordo", "cepea", [["2026-09-04", 347.6]]) }),
      after: toMap({ [p]: serie("boi_gordo", "cepea", [["2026-09-04", 347.6], ["2026-09-08", 347.7]]) }),
    })!;
    expect(msg.split("\n")[0]).toBe("Boi gordo (CEPEA/ESALQ-USP) +0,03%");
  });

  it("a backfilled past day does not pretend the latest value moved", () => {
    const c = diffSerie("milho", serie("milho", "cepea", [["2026-09-02", 70], ["2026-09-04", 71]]), serie("milho", "cepea", [["2026-09-02", 70], ["2026-09-03", 70.5], ["2026-09-04", 71]]))!;
    expect(tipoDaMudanca(c)).toBe("outra");
    expect(serieLines(c)).toEqual(["- Milho (CEPEA/ESALQ-USP): 1 dia acrescentado ao histórico (03/09/2026); último valor mantido, R$ 71,00/sc 60 kg em 04/09/2026"]);
    expect(revisionLines(c)).toEqual([]);
  });

  it("several new days at once are counted", () => {
    const c = diffSerie("milho", serie("milho", "cepea", [["2026-09-02", 70]]), serie("milho", "cepea", [["2026-09-02", 70], ["2026-09-03", 70.5], ["2026-09-04", 69.3]]))!;
    expect(serieLines(c)).toEqual(["- Milho (CEPEA/ESALQ-USP): R$ 70,00/sc 60 kg → R$ 69,30/sc 60 kg (-R$ 0,70; -1,00%) em 04/09/2026 (antes: 02/09/2026); 2 dias novos"]);
  });

  it("names and anchors", () => {
    expect(nomeSerie("boi_gordo/MS", "scot")).toBe("Boi gordo (MS, Scot Consultoria)");
    expect(nomeSerie("vaca_gorda", "scot")).toBe("Vaca gorda (Scot Consultoria)");
    expect(nomeSerie("x/MS", "fonte_retirada", "X")).toBe("X (MS, fonte_retirada)");
    // one pair of parentheses, not "Boi China (a prazo) (SP, Scot Consultoria)"
    expect(nomeSerie("boi_china/SP", "scot")).toBe("Boi China (a prazo; SP, Scot Consultoria)");
    expect(ancoraSerie("boi_gordo/MS")).toBe("serie-boi_gordo-MS");
    expect(ancoraSerie("soja")).toBe("serie-soja");
  });
});
