/**
 * npm run backfill (issue 12 item 3), end to end: files built in CEPEA's layout with the same
 * library (planilhas.ts) imported into a temp site through runBackfill, the published files
 * read back and validated. No real CEPEA download can be recorded here.
 */
import { createHash } from "node:crypto";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAceite } from "../../pipeline/check/revisions.ts";
import type { HistoricoEntry, SerieFile, StatusFile } from "../../pipeline/domain/publicados.ts";
import { HostGate } from "../../pipeline/fetch/http.ts";
import { runBackfill, type BackfillOptions } from "../../pipeline/run/backfill.ts";
import { SERIES_CEPEA } from "../../pipeline/sources/cepea-series.ts";
import { validateFiles } from "../../pipeline/validate/ajv.ts";
import { startFakeSite, status as httpStatus, endlessChallenge, type FakeSite } from "../fetch/server.ts";
import { cleanup, FIXTURES, listFiles, readJson, siteComBoiCepea, tempSite, testConfig } from "../helpers/pipeline.ts";
import { CABECALHO, csv, diasUteis, historia, planilha, type LinhaSerie } from "./planilhas.ts";

const NOW = new Date("2026-09-07T12:00:00-03:00");
const BOI = SERIES_CEPEA.find((s) => s.serie === "boi_gordo")!;
/** the 15 days the recorded CEPEA page holds (test/fixtures/cepea/boi-gordo.expected.json) */
const GOLDEN = (JSON.parse(await readFile(join(FIXTURES, "cepea/boi-gordo.expected.json"), "utf8")) as { rows: Array<{ data: string; valor: number; extras: { valor_usd: number } }> }).rows.map(
  (r) => ({ data: r.data, brl: r.valor, usd: r.extras.valor_usd }),
);

const dirs: string[] = [];
async function tmp(prefix: string): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}
afterAll(() => cleanup(...dirs));

/** A site holding what an update of the recorded CEPEA boi gordo page publishes (15 days). */
async function siteComBoi(): Promise<string> {
  const site = await siteComBoiCepea(NOW, dirs);
  const boi = await readJson<SerieFile>(site, "api/v1/cotacao/boi_gordo.json");
  expect(boi.historico).toHaveLength(15);
  return site;
}

async function arquivo(bytes: Buffer | string, nome: string): Promise<string> {
  const d = await tmp("cotacao-bf-file-");
  const p = join(d, nome);
  await writeFile(p, bytes);
  return p;
}

async function backfill(site: string, caminho: string, extra: Partial<BackfillOptions> = {}) {
  const log: string[] = [];
  const report = await runBackfill({
    config: testConfig(site),
    now: NOW,
    serie: BOI,
    origem: { tipo: "arquivo", caminho },
    env: {},
    log: (l) => log.push(l),
    ...extra,
  });
  return { report, log };
}

/** Every file of a site and its bytes' hash, to prove a refused import wrote nothing. */
async function snapshot(site: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const f of await listFiles(site)) out[relative(site, f)] = createHash("sha256").update(await readFile(f)).digest("hex");
  return out;
}

async function validar(site: string): Promise<string[]> {
  const files = new Map<string, Buffer>();
  for (const f of await listFiles(site)) {
    const rel = relative(site, f);
    if (!rel.startsWith(".")) files.set(rel, await readFile(f));
  }
  // the set of one run (only some series published): not checked as the whole tree
  return validateFiles(files).erros;
}

const brText = (v: number) => v.toFixed(2).replace(".", ",");

/**
 * 2019-01-02 to 2026-09-04, business days: a generated walk up to 14/08/2026, then the 15 days
 * the recorded page holds, with their values. Cells mix numbers and Brazilian text; five days
 * have no R$ value (empty, "0,00", -1) and one has no US$.
 */
function multiAnual(): { linhas: LinhaSerie[]; esperado: HistoricoEntry[]; semValor: number } {
  const antes = diasUteis("2019-01-02", "2026-08-14");
  const walk = historia(antes, { brl: 344.9, usd: 66.3 }, 150);
  const todos = [...walk, ...GOLDEN];
  const semBrl = new Map<number, number | string | null>([
    [10, null],
    [500, null],
    [1000, "0,00"],
    [1500, -1],
    [1700, "   "],
  ]);
  const semUsd = 1234;
  const linhas: LinhaSerie[] = [];
  const esperado: HistoricoEntry[] = [];
  todos.forEach((d, i) => {
    const brl = semBrl.has(i) ? semBrl.get(i)! : i % 3 === 0 ? brText(d.brl) : d.brl;
    const usd = i === semUsd ? null : i % 5 === 0 ? brText(d.usd) : d.usd;
    linhas.push({ data: d.data, brl, usd });
    if (semBrl.has(i)) return;
    esperado.push(i === semUsd ? { data: d.data, valor: d.brl } : { data: d.data, valor: d.brl, valor_usd: d.usd });
  });
  return { linhas, esperado, semValor: semBrl.size };
}

describe("backfill of a multi-year CEPEA file (.xls, 2019–2026)", () => {
  let site: string;
  let file: string;
  let bytes: Buffer;
  const { linhas, esperado, semValor } = multiAnual();
  let run: Awaited<ReturnType<typeof backfill>>;

  beforeAll(async () => {
    site = await siteComBoi();
    bytes = planilha(linhas, "biff8");
    file = await arquivo(bytes, "boi-gordo.xls");
    run = await backfill(site, file);
  });

  it("imports every day, exactly, beside the 15 days already published", async () => {
    const { report } = run;
    expect(report.motivo).toBeNull();
    expect(report).toMatchObject({ estado: "importado", exitCode: 0, lidos: linhas.length, novos: esperado.length - 15, revisados: 0, iguais: 15, recusados: 0, semValor, anterioresAoReal: 0 });
    const boi = await readJson<SerieFile>(site, "api/v1/cotacao/boi_gordo.json");
    // every generated day, value and US$ to the centavo, in date order; the 15 stored days untouched
    expect(boi.historico).toEqual(esperado);
    expect(boi.historico.length).toBeGreaterThan(1950);
    expect(boi.data_cotacao).toBe("2026-09-04");
    expect(boi.valor).toBe(347.7);
    expect(boi.proveniencia).toMatchObject({ url: "https://www.cepea.org.br/br/indicador/series/boi-gordo.aspx?id=2", via: "arquivo", via_url: null });
    const csvText = await readFile(join(site, "api/v1/historico/boi_gordo.csv"), "utf8");
    const lines = csvText.trim().split("\n");
    expect(lines).toHaveLength(esperado.length + 1);
    expect(lines[1]!.startsWith(`${esperado[0]!.data},${esperado[0]!.valor},`)).toBe(true);
  });

  it("lists the series in index.json with its whole span, and the published set validates", async () => {
    const index = await readJson(site, "api/v1/index.json");
    const e = index.series.find((s: { id: string }) => s.id === "boi_gordo");
    expect(e).toMatchObject({ primeira_data: "2019-01-02", ultima_data: "2026-09-04", pontos: esperado.length, valor: 347.7 });
    expect(await validar(site)).toEqual([]);
  });

  it("records the import as a capture: the file's SHA-256, via arquivo, every day it added", async () => {
    const log = await readJson(site, "api/v1/capturas/2026.json");
    const c = log.capturas[log.capturas.length - 1];
    const sha = createHash("sha256").update(bytes).digest("hex");
    expect(c.id).toMatch(new RegExp(`^cepea/boi-gordo/${sha.slice(0, 16)}/\\d{8}T\\d{6}$`));
    expect(c).toMatchObject({ fonte: "cepea", pagina: "boi-gordo", via: "arquivo", via_url: null, sha256: sha, bytes: bytes.length, revisoes: [] });
    expect(c.url).toBe("https://www.cepea.org.br/br/indicador/series/boi-gordo.aspx?id=2");
    expect(c.dias).toEqual(esperado.map((e) => e.data));
    expect(c.novos.boi_gordo).toEqual(esperado.slice(0, -15).map((e) => e.data));
  });

  it("shows progress, a summary and the commit message of what was imported", () => {
    const { log, report } = run;
    const progresso = log.filter((l) => /^ {2}lendo: \d+%/.test(l)).map((l) => /(\d+)%/.exec(l)![1]);
    expect(progresso).toEqual(["10", "20", "30", "40", "50", "60", "70", "80", "90", "100"]);
    const n = (x: number) => x.toLocaleString("pt-BR");
    expect(log.at(-1)).toBe(
      `resumo boi_gordo: importado; ${n(linhas.length)} dias lidos, ${n(esperado.length - 15)} novos, 0 revisados, 15 iguais ao publicado, 0 recusados pelos portões; ` +
        `não importados: ${semValor} dias sem valor em R$, 0 dias anteriores ao Real`,
    );
    const msg = report.mensagem!;
    expect(msg.split("\n")[0]).toBe(`histórico boi_gordo: ${n(esperado.length - 15)} dias importados (2019-01-02 a 2026-08-14)`);
    expect(msg).toContain(`agora ${n(esperado.length)} dias, de 2019-01-02 a 2026-09-04`);
    expect(msg).toContain("arquivo boi-gordo.xls, da série https://www.cepea.org.br/br/indicador/series/boi-gordo.aspx?id=2");
    expect(msg).toContain(`- não importados: ${semValor} dias sem valor em R$; 0 dias anteriores ao Real`);
  });

  it("imports the same file again as nothing new, writing nothing", async () => {
    const before = await snapshot(site);
    const again = await backfill(site, file);
    expect(again.report).toMatchObject({ estado: "nada_novo", exitCode: 0, novos: 0, revisados: 0, iguais: esperado.length, mensagem: null, written: [] });
    expect(await snapshot(site)).toEqual(before);
  });
});

describe("the three formats", () => {
  it(".xlsx and .csv (;, decimal comma, dd/mm/yyyy) give the very history the .xls gives", async () => {
    const dias = diasUteis("2025-01-02", "2026-08-14");
    const h = historia(dias, { brl: 344.9, usd: 66.3 }, 300, 11);
    const linhas: LinhaSerie[] = h.map((d, i) => ({ data: d.data, brl: i % 2 ? d.brl : brText(d.brl), usd: d.usd }));
    const historicos: HistoricoEntry[][] = [];
    for (const [bytes, nome] of [
      [planilha(linhas, "biff8"), "serie.xls"],
      [planilha(linhas, "xlsx"), "serie.xlsx"],
      [csv(linhas), "serie.csv"],
      // a .csv in Windows-1252 (Excel's "CSV" on Windows): "À vista" in one byte
      [Buffer.from(csv(linhas), "latin1"), "serie-1252.csv"],
    ] as const) {
      const site = await tempSite();
      dirs.push(site);
      const { report } = await backfill(site, await arquivo(bytes as Buffer | string, nome));
      expect([nome, report.motivo, report.exitCode]).toEqual([nome, null, 0]);
      historicos.push((await readJson<SerieFile>(site, "api/v1/cotacao/boi_gordo.json")).historico);
    }
    expect(historicos[0]).toHaveLength(dias.length);
    expect(historicos[0]).toEqual(h.map((d) => ({ data: d.data, valor: d.brl, valor_usd: d.usd })));
    for (const hh of historicos.slice(1)) expect(hh).toEqual(historicos[0]);
  });
});

describe("a file that is not what it should be is refused loudly, and nothing is written", () => {
  const dias = diasUteis("2026-06-01", "2026-08-14");
  const h = historia(dias, { brl: 344.9, usd: 66.3 }, 320, 5);
  const base: LinhaSerie[] = h.map((d) => ({ data: d.data, brl: d.brl, usd: d.usd }));
  let site: string;
  beforeAll(async () => {
    site = await siteComBoi();
  });

  async function recusa(bytes: Buffer | string, nome: string) {
    const before = await snapshot(site);
    const { report, log } = await backfill(site, await arquivo(bytes, nome));
    expect(report.estado).toBe("recusado");
    expect(report.exitCode).toBe(1);
    expect(report.written).toEqual([]);
    expect(await snapshot(site)).toEqual(before);
    expect(log).toContain("nada foi gravado");
    return report.motivo!;
  }

  it("a renamed header column names what was expected and what was found", async () => {
    const motivo = await recusa(planilha(base, "biff8", { cabecalho: ["Data", "Preço R$", "À vista US$"] }), "renomeada.xls");
    expect(motivo).toContain('coluna "À vista R$" não encontrada');
    expect(motivo).toContain('coluna desconhecida "Preço R$" em B4');
    expect(motivo).toContain('esperado "Data | À vista R$ | À vista US$", encontrado "Data | Preço R$ | À vista US$"');
  });

  it("a missing column", async () => {
    const semUsd = base.map((l) => ({ ...l, usd: null }));
    const motivo = await recusa(planilha(semUsd, "xlsx", { cabecalho: ["Data", "À vista R$"] }), "sem-usd.xlsx");
    expect(motivo).toContain('coluna "À vista US$" não encontrada');
    expect(motivo).toContain('encontrado "Data | À vista R$"');
  });

  it("the title of another indicator", async () => {
    const motivo = await recusa(planilha(base, "biff8", { titulo: "Indicador do Milho ESALQ/BM&FBovespa" }), "milho.xls");
    expect(motivo).toContain('a planilha é de outro indicador: título "Indicador do Milho ESALQ/BM&FBovespa" na célula A1, esperado um título com "BOI GORDO"');
  });

  it("no header row at all (a sheet of another layout)", async () => {
    const motivo = await recusa(planilha(base, "biff8", { cabecalho: ["Dia", "Preço", "Dólar"] }), "outro.xls");
    expect(motivo).toContain('layout desconhecido: nenhuma linha de cabeçalho "Data | À vista R$ | À vista US$"');
    expect(motivo).toContain('linha 4: "Dia | Preço | Dólar"');
  });

  it("an extra column beside the expected ones", async () => {
    const motivo = await recusa(csv(base, { cabecalho: [...CABECALHO, "Prazo R$"] }), "extra.csv");
    expect(motivo).toContain('coluna desconhecida "Prazo R$" em D4');
  });

  it("a truncated download: fewer rows than the sheet declares", async () => {
    const motivo = await recusa(planilha(base, "biff8", { declararAMais: 20 }), "cortada.xls");
    expect(motivo).toContain(`download incompleto: a planilha declara ${base.length + 4 + 20} linhas e traz só ${base.length + 4}`);
  });

  it("a download cut in the middle of its bytes", async () => {
    const full = planilha(base, "biff8");
    const motivo = await recusa(full.subarray(0, Math.floor(full.length * 0.6)), "metade.xls");
    expect(motivo).toMatch(/ilegível|download incompleto/);
  });

  it("a .csv cut in the middle of its last line", async () => {
    const text = csv(base);
    const motivo = await recusa(text.slice(0, text.length - 9), "cortado.csv");
    expect(motivo).toContain("download incompleto: o CSV não termina com quebra de linha");
  });

  it("a value with more than two decimals is never rounded", async () => {
    const linhas = base.map((l, i) => (i === 7 ? { ...l, brl: 343.456 } : l));
    const motivo = await recusa(planilha(linhas, "biff8"), "decimais.xls");
    expect(motivo).toContain('1 valor(es) com mais de duas casas decimais (B12 ("À vista R$") = 343.456)');
  });

  it("a date that is not dd/mm/yyyy text, and a day listed twice", async () => {
    const linhas = [...base.slice(0, 5), { ...base[5]!, data: "2026-13-01" }, ...base.slice(6), base[3]!];
    const motivo = await recusa(planilha(linhas, "biff8"), "datas.xls");
    expect(motivo).toContain('linha 10: data inválida "01/13/2026" em A10');
    expect(motivo).toContain(`o dia ${base[3]!.data.split("-").reverse().join("/")} já apareceu na linha 8`);
  });

  it("an HTML page saved as .xls (the site answered with a page)", async () => {
    const motivo = await recusa("<!DOCTYPE html><html><head><title>Just a moment...</title></head><body></body></html>", "pagina.xls");
    expect(motivo).toContain("o arquivo é uma página HTML, não uma planilha");
  });
});

describe("the gates over a whole history", () => {
  it("before the Real nothing is imported; 1994–1995 values in reais pass the era's range", async () => {
    const preReal = diasUteis("1994-06-27", "1994-06-30").map((data) => ({ data, brl: "12.345,67", usd: "13,50" }));
    const dias = diasUteis("1994-07-01", "1995-12-29");
    const h = historia(dias, { brl: 24.1, usd: 25.1 }, 22, 3);
    const linhas: LinhaSerie[] = [...preReal, ...h.map((d) => ({ data: d.data, brl: d.brl, usd: d.usd }))];
    const site = await tempSite();
    dirs.push(site);
    const { report, log } = await backfill(site, await arquivo(planilha(linhas, "biff8"), "boi-1994.xls"));
    expect(report.motivo).toBeNull();
    expect(report).toMatchObject({ estado: "importado", lidos: linhas.length, novos: dias.length, anterioresAoReal: 4 });
    const boi = await readJson<SerieFile>(site, "api/v1/cotacao/boi_gordo.json");
    expect(boi.historico[0]).toEqual({ data: "1994-07-01", valor: h[0]!.brl, valor_usd: h[0]!.usd });
    expect(boi.historico).toHaveLength(dias.length);
    expect(report.mensagem).toContain("4 dias anteriores ao Real (1994-06-27 a 1994-06-30)");
    expect(log.at(-1)).toContain("4 dias anteriores ao Real");
    expect(await validar(site)).toEqual([]);
  });

  it("a value off by a factor of ten in 1995 is refused by the era's range (today's range deflated by the IPCA)", async () => {
    const dias = diasUteis("1995-01-02", "1995-06-30");
    const h = historia(dias, { brl: 24.1, usd: 26.5 }, 22, 4);
    const linhas: LinhaSerie[] = h.map((d, i) => ({ data: d.data, brl: i === 50 ? Math.round(d.brl * 1000) / 100 : d.brl, usd: i === 50 ? null : d.usd }));
    const site = await tempSite();
    dirs.push(site);
    const { report } = await backfill(site, await arquivo(planilha(linhas, "biff8"), "boi-1995.xls"));
    expect(report).toMatchObject({ estado: "recusado", exitCode: 1, written: [] });
    const dia = h[50]!.data.split("-").reverse().join("/");
    expect(report.motivo).toMatch(new RegExp(`boi_gordo em ${dia}: R\\$ [\\d.,]+/@ fora da faixa plausível da época \\([\\d,]+–[\\d,]+: a de hoje, 100–1000, deflacionada pelo IPCA\\)`));
    // and the jump into it and out of it, judged day to day
    expect(report.motivo).toContain(`salto de`);
    expect(report.recusados).toBeGreaterThanOrEqual(3);
    expect(await listFiles(site)).toEqual([]);
  });
});

describe("days already published: the revision rule", () => {
  const dias = diasUteis("2026-05-04", "2026-08-14");
  const h = historia(dias, { brl: 344.9, usd: 66.3 }, 330, 9);
  const com = (muda: Record<string, number>): LinhaSerie[] =>
    [...h, ...GOLDEN].map((d) => ({ data: d.data, brl: muda[d.data] ?? d.brl, usd: d.usd }));

  it("a revision within the bound is merged and recorded", async () => {
    const site = await siteComBoi();
    const { report } = await backfill(site, await arquivo(planilha(com({ "2026-09-04": 347.9 }), "biff8"), "rev.xls"));
    expect(report).toMatchObject({ estado: "importado", exitCode: 0, revisados: 1, iguais: 14, novos: dias.length });
    const boi = await readJson<SerieFile>(site, "api/v1/cotacao/boi_gordo.json");
    expect(boi.historico.find((e) => e.data === "2026-09-04")!.valor).toBe(347.9);
    expect(report.mensagem).toContain("revisão: boi_gordo em 04/09/2026, valor: 347,70 → 347,90");
    const log = await readJson(site, "api/v1/capturas/2026.json");
    expect(log.capturas.at(-1).revisoes).toEqual([{ serie: "boi_gordo", data: "2026-09-04", campo: "valor", antes: 347.7, depois: 347.9, aceita: false }]);
  });

  it("a revision beyond the bound holds the whole import (exit 1, status.json says what and how to accept it); accepted, it is merged", async () => {
    const site = await siteComBoi();
    const file = await arquivo(planilha(com({ "2026-09-02": 357.4 }), "biff8"), "rev-grande.xls");
    const antes = await readJson<SerieFile>(site, "api/v1/cotacao/boi_gordo.json");
    const held = await backfill(site, file);
    expect(held.report).toMatchObject({ estado: "retido", exitCode: 1 });
    expect(held.report.motivo).toContain("o arquivo mudaria 1 valor(es) já publicado(s) além do limite de revisão; nada dele foi mesclado: boi_gordo em 02/09/2026, valor: 347,40 → 357,40");
    expect(held.report.motivo).toContain(`npm run backfill -- --pagina cepea/boi-gordo --arquivo ${file} --aceitar-revisao boi_gordo@2026-09-02=357.4`);
    expect(await readJson<SerieFile>(site, "api/v1/cotacao/boi_gordo.json")).toEqual(antes);
    const st = await readJson<StatusFile>(site, "api/v1/status.json");
    const page = st.fontes.find((f) => f.id === "cepea")!.paginas.find((p) => p.id === "boi-gordo")!;
    expect(page.estado).toBe("revisao_suspeita");
    expect(page.revisoes_suspeitas).toEqual([{ serie: "boi_gordo", data: "2026-09-02", campo: "valor", antes: 347.4, depois: 357.4, aceitar: "boi_gordo@2026-09-02=357.4" }]);

    const ok = await backfill(site, file, { aceitar: [parseAceite("boi_gordo@2026-09-02=357.4")] });
    expect(ok.report).toMatchObject({ estado: "importado", exitCode: 0, revisados: 1 });
    const boi = await readJson<SerieFile>(site, "api/v1/cotacao/boi_gordo.json");
    expect(boi.historico.find((e) => e.data === "2026-09-02")!.valor).toBe(357.4);
    expect(boi.historico).toHaveLength(15 + dias.length);
    const log = await readJson(site, "api/v1/capturas/2026.json");
    expect(log.capturas.at(-1).revisoes).toEqual([{ serie: "boi_gordo", data: "2026-09-02", campo: "valor", antes: 347.4, depois: 357.4, aceita: true }]);
    expect(await validar(site)).toEqual([]);
  });
});

describe("the live path: the series download through the polite fetcher, against a local server", () => {
  let cepea: FakeSite;
  const dias = diasUteis("2024-01-02", "2026-08-14");
  const h = historia(dias, { brl: 344.9, usd: 66.3 }, 250, 13);
  const xls = planilha(h.map((d) => ({ data: d.data, brl: d.brl, usd: d.usd })), "biff8");
  const ids: Array<string | null> = [];
  beforeAll(async () => {
    cepea = await startFakeSite({
      "/br/indicador/series/boi-gordo.aspx": (req, res) => {
        ids.push(new URL(req.url ?? "/", "http://x").searchParams.get("id"));
        res.writeHead(200, { "content-type": "application/vnd.ms-excel", "content-disposition": 'attachment; filename="CEPEA_20260905.xls"' });
        res.end(xls);
      },
    });
  });
  afterAll(() => cepea.close());

  const live = (site: string) => {
    const env = { COTACAO_CEPEA_URL: cepea.url };
    return backfill(site, "", { config: testConfig(site, env), env, origem: { tipo: "ao_vivo", http: { gate: new HostGate(0), retries: 0 } } });
  };

  it("downloads /br/indicador/series/boi-gordo.aspx?id=2 and imports it, recorded as read from the source itself", async () => {
    const site = await siteComBoi();
    const { report, log } = await live(site);
    expect(report.motivo).toBeNull();
    expect(report).toMatchObject({ estado: "importado", exitCode: 0, novos: dias.length });
    expect(ids).toEqual(["2"]);
    expect(cepea.requests[0]!.userAgent).toMatch(/^CotacaoAberta\//);
    expect(log[0]).toBe(`baixando ${cepea.url}/br/indicador/series/boi-gordo.aspx?id=2`);
    const capturas = await readJson(site, "api/v1/capturas/2026.json");
    expect(capturas.capturas.at(-1)).toMatchObject({
      url: `${cepea.url}/br/indicador/series/boi-gordo.aspx?id=2`,
      via: null,
      sha256: createHash("sha256").update(xls).digest("hex"),
      bytes: xls.length,
    });
    expect(report.mensagem).toContain(`- origem: baixado de ${cepea.url}/br/indicador/series/boi-gordo.aspx?id=2`);
  });

  it("a Cloudflare challenge in place of the file is refused once, without retrying it, and nothing is written", async () => {
    cepea.route("/br/indicador/series/boi-gordo.aspx", endlessChallenge({ status: 403 }));
    const site = await siteComBoi();
    const before = await snapshot(site);
    const hits = cepea.hits("/br/indicador/series/boi-gordo.aspx");
    const { report } = await live(site);
    expect(report).toMatchObject({ estado: "recusado", exitCode: 1 });
    expect(report.motivo).toContain("desafio Cloudflare");
    expect(report.motivo).toContain("baixe-a num navegador e use --arquivo");
    expect(cepea.hits("/br/indicador/series/boi-gordo.aspx") - hits).toBe(1);
    expect(await snapshot(site)).toEqual(before);
  });

  it("an HTTP error is refused naming it", async () => {
    cepea.route("/br/indicador/series/boi-gordo.aspx", httpStatus(404));
    const site = await siteComBoi();
    const { report } = await live(site);
    expect(report).toMatchObject({ estado: "recusado", exitCode: 1 });
    expect(report.motivo).toContain("HTTP 404 ao baixar a série");
  });
});
