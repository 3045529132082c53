import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import type { HistoricoEntry, SerieFile } from "../../pipeline/domain/publicados.ts";
import { seriesRecentePath } from "../../pipeline/domain/series.ts";
import { stringifyDoc } from "../../pipeline/render/json.ts";
import { janelaRecente, renderSerie } from "../../pipeline/render/serie.ts";
import { renderSerieFiles } from "../../pipeline/site/assemble.ts";
import { allSeries, getSource } from "../../pipeline/sources/index.ts";
import { schemaFor, validateDocument, validateFiles } from "../../pipeline/validate/ajv.ts";

const MS = allSeries().find((d) => d.id === "boi_gordo/MS")!;
const MILHO = allSeries().find((d) => d.id === "milho")!;

/** Business days from `de` to `ate` (UTC calendar), values that change every day. */
function diasUteis(de: string, ate: string): HistoricoEntry[] {
  const out: HistoricoEntry[] = [];
  for (let t = Date.parse(`${de}T00:00:00Z`); t <= Date.parse(`${ate}T00:00:00Z`); t += 86_400_000) {
    const d = new Date(t);
    if (d.getUTCDay() === 0 || d.getUTCDay() === 6) continue;
    out.push({ data: d.toISOString().slice(0, 10), valor: 300 + (out.length % 97) / 4 });
  }
  return out;
}

function serie(def: typeof MS, historico: HistoricoEntry[]): SerieFile {
  const source = getSource(def.fonte);
  const momento = "2026-09-04T18:00:00-03:00";
  const ultimo = historico[historico.length - 1]!;
  return renderSerie({
    def,
    source,
    historico,
    praca: def.uf ? "C. Grande" : null,
    pracas: def.uf ? [{ praca: "C. Grande", valor: ultimo.valor, unidade: def.unidade }] : null,
    proveniencia: { fonte: source.id, nome: source.nome, url: source.site, coletado_em: momento, via: null, via_url: null, licenca: source.termos.licenca, citacao: source.termos.citacao, termos: source.termos.texto },
    atualizado: momento,
  });
}

/** The files of one series as a run renders them (JSON, recent window, CSVs), by path. */
function arquivos(f: SerieFile, def = MS): Map<string, string> {
  return new Map(renderSerieFiles(def, f).arquivos.map((a) => [a.path, a.text]));
}

const LONGA = serie(MS, diasUteis("2023-06-01", "2026-09-04"));
const RECENTE = "api/v1/recente/boi_gordo/MS.json";

describe("the recent file: a series' last year", () => {
  it("keeps the headline and the days from 366 days before the last one, written like the series file", () => {
    const files = arquivos(LONGA);
    expect(seriesRecentePath(MS)).toBe(RECENTE);
    const text = files.get(RECENTE)!;
    const r = JSON.parse(text) as SerieFile;
    expect(text).toBe(stringifyDoc(r));
    // 2026-09-04 minus 366 days, counted by hand: 2025-09-03 (a Wednesday) is the first day kept
    expect(r.historico[0]!.data).toBe("2025-09-03");
    const corte = LONGA.historico.findIndex((h) => h.data === "2025-09-03");
    expect(LONGA.historico[corte - 1]!.data).toBe("2025-09-02");
    expect(r.historico).toEqual(LONGA.historico.slice(corte));
    const { historico: _a, ...cabeca } = r;
    const { historico: _b, ...cabecaCompleta } = LONGA;
    expect(cabeca).toEqual(cabecaCompleta);
    expect(Object.keys(r)).toEqual(Object.keys(LONGA));
    // a year of business days: a small file next to the three years of the whole one
    expect(text.length).toBeLessThan(files.get("api/v1/cotacao/boi_gordo/MS.json")!.length / 2.5);
    expect(validateFiles(files).erros).toEqual([]);
  });

  it("is the series file itself when the history is shorter than a year, and keeps the last two days across a gap", () => {
    const curta = serie(MILHO, diasUteis("2026-01-02", "2026-09-04"));
    const files = arquivos(curta, MILHO);
    expect(files.get("api/v1/recente/milho.json")).toBe(files.get("api/v1/cotacao/milho.json"));
    // a series back after two years without quotes: its day change still has its previous day
    const volta = serie(MILHO, [...diasUteis("2024-01-02", "2024-01-05"), { data: "2026-09-04", valor: 71 }]);
    const j = janelaRecente(volta);
    expect(j.historico.map((h) => h.data)).toEqual(["2024-01-05", "2026-09-04"]);
    expect(validateDocument("api/v1/recente/milho.json", j)).toEqual([]);
    expect(validateFiles(arquivos(volta, MILHO)).erros).toEqual([]);
  });

  it("is validated by the series schema and the series-of-its-path checks", () => {
    expect(schemaFor(RECENTE)).toMatchObject({ kind: "serie", schema: "serie.schema.json", produto: "boi_gordo", uf: "MS", recente: true });
    expect(schemaFor("api/v1/recente/milho.json")).toMatchObject({ kind: "serie", produto: "milho", uf: null });
    expect(schemaFor("api/v1/recente/nada.json")).toBeNull();
    // a state file under a national path is refused like under cotacao/
    expect(validateDocument("api/v1/recente/boi_gordo.json", janelaRecente(LONGA)).join("\n")).toMatch(/praca/);
  });
});

describe("the recent file must be exactly the window of its series file", () => {
  const comRecente = (edit: (r: SerieFile) => SerieFile, base = LONGA): string[] => {
    const files = arquivos(base);
    files.set(RECENTE, stringifyDoc(edit(JSON.parse(files.get(RECENTE)!) as SerieFile)));
    return validateFiles(files).erros;
  };

  it("refuses a window that drops its first day, a day in the middle, or holds a day before the cut", () => {
    const primeiro = comRecente((r) => ({ ...r, historico: r.historico.slice(1) }));
    expect(primeiro).toEqual([expect.stringMatching(/^api\/v1\/recente\/boi_gordo\/MS\.json: \/historico: falta o dia 2025-09-03 \(\/0\).*a partir de 2025-09-03/)]);
    const meio = comRecente((r) => ({ ...r, historico: r.historico.filter((h) => h.data !== "2026-01-05") }));
    expect(meio).toEqual([expect.stringContaining("falta o dia 2026-01-05")]);
    const antes = comRecente((r) => ({ ...r, historico: [LONGA.historico.find((h) => h.data === "2025-09-02")!, ...r.historico] }));
    expect(antes).toEqual([expect.stringContaining("o dia 2025-09-02 (/0) não é da janela da série completa")]);
  });

  it("refuses a day whose entry differs, and a headline that is not the series file's", () => {
    const valor = comRecente((r) => ({ ...r, historico: r.historico.map((h) => (h.data === "2026-03-02" ? { ...h, valor: h.valor + 1 } : h)) }));
    expect(valor).toEqual([expect.stringMatching(/\/historico: \/\d+ \(2026-03-02\) difere do mesmo dia na série completa/)]);
    const cabeca = comRecente((r) => ({ ...r, atualizado: "2026-09-05T18:00:00-03:00", bordao: `${r.bordao}!` }));
    expect(cabeca).toHaveLength(2);
    expect(cabeca[0]).toMatch(/recente\/boi_gordo\/MS\.json: \/bordao: .* difere de api\/v1\/cotacao\/boi_gordo\/MS\.json/);
    expect(cabeca[1]).toMatch(/\/atualizado: "2026-09-05T18:00:00-03:00" difere de api\/v1\/cotacao\/boi_gordo\/MS\.json \("2026-09-04T18:00:00-03:00"\)/);
    // the same entries with their keys in another order are the same days
    const ordem = comRecente((r) => ({ ...r, historico: r.historico.map((h) => ({ valor: h.valor, data: h.data })) }));
    expect(ordem).toEqual([]);
  });

  it("in a whole tree, a recent file needs its series file, and index.json's recente must exist", () => {
    const FIXTURES = new URL("../fixtures/api/", import.meta.url).pathname;
    const arvore = new Map<string, string>();
    const walk = (dir: string) => {
      for (const f of readdirSync(dir).sort()) {
        const p = join(dir, f);
        if (statSync(p).isDirectory()) walk(p);
        else arvore.set(`api/${relative(FIXTURES, p)}`, readFileSync(p, "utf8"));
      }
    };
    walk(FIXTURES);
    expect(validateFiles(arvore, { arvoreCompleta: true }).erros).toEqual([]);

    const semRecente = new Map(arvore);
    semRecente.delete("api/v1/recente/soja.json");
    expect(validateFiles(semRecente, { arvoreCompleta: true }).erros).toEqual([
      'api/v1/index.json: /series/1/recente: aponta para um arquivo que não existe ("recente/soja.json")',
    ]);

    const orfao = new Map(arvore);
    orfao.set("api/v1/recente/milho.json", stringifyDoc(janelaRecente(serie(MILHO, diasUteis("2026-08-03", "2026-09-04")))));
    expect(validateFiles(orfao, { arvoreCompleta: true }).erros).toEqual([
      "api/v1/recente/milho.json: não há api/v1/cotacao/milho.json, a série completa de que este arquivo deve ser o último ano",
    ]);
    // one run's files are not the whole tree: a series it did not render keeps its published files
    expect(validateFiles(orfao).erros).toEqual([]);
  });
});
