/**
 * The command itself: `npm run backfill -- ...` as an operator types it (exit codes 0, 1, 2, the
 * printed commit message and --mensagem), and the memory a 30-year file needs once read.
 */
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { cleanup, listFiles, readJson } from "../helpers/pipeline.ts";
import { diasUteis, historia, planilha } from "./planilhas.ts";
import { SERIES_CEPEA } from "../../pipeline/sources/cepea-series.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const dirs: string[] = [];
afterAll(() => cleanup(...dirs));

async function tmp(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), "cotacao-bf-cli-"));
  dirs.push(d);
  return d;
}

function backfill(args: string[], site: string) {
  const r = spawnSync(process.execPath, ["--import", "tsx", "pipeline/cli/backfill.ts", ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, COTACAO_PUBLIC_DIR: site, COTACAO_NOW: "2026-09-07T12:00:00-03:00", NO_COLOR: "1" },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe("npm run backfill (the command)", () => {
  it("usage errors exit 2 and say what is wrong", async () => {
    const site = await tmp();
    const casos: Array<[string[], string]> = [
      [[], "falta --pagina"],
      [["--pagina", "cepea/leite"], `página desconhecida: cepea/leite; páginas com série histórica: ${[...new Set(SERIES_CEPEA.map((x) => `cepea/${x.pagina}`))].join(", ")}`],
      [["--pagina", "scot/boi-gordo"], "só o CEPEA oferece a série histórica para download"],
      [["--pagina", "cepea/soja"], "a página cepea/soja tem 2 séries (soja, soja/PR): escolha uma com --serie"],
      [["--pagina", "cepea/boi-gordo", "--aceitar-revisao", "boi_gordo=3"], 'revisão aceita inválida: "boi_gordo=3"'],
      [["--pagina", "cepea/boi-gordo", "--arquivo"], "valor inválido ou ausente para a opção --arquivo"],
    ];
    for (const [args, msg] of casos) {
      const r = backfill(args, site);
      expect([args, r.code]).toEqual([args, 2]);
      expect(r.err).toContain(msg);
      expect(r.err).toContain("uso: npm run backfill");
    }
    expect(await listFiles(site)).toEqual([]);
  });

  it("imports a file (exit 0), prints the commit message and writes it with --mensagem; a refused file exits 1", async () => {
    const site = await tmp();
    const files = await tmp();
    const h = historia(diasUteis("2026-01-05", "2026-08-14"), { brl: 344.9, usd: 66.3 }, 320, 21);
    const xls = join(files, "boi.xls");
    await writeFile(xls, planilha(h.map((d) => ({ data: d.data, brl: d.brl, usd: d.usd })), "biff8"));
    const msgFile = join(files, "msg.txt");
    const ok = backfill(["--pagina", "cepea/boi-gordo", "--arquivo", xls, "--mensagem", msgFile], site);
    expect(ok.err).toBe("");
    expect(ok.code).toBe(0);
    const msg = await readFile(msgFile, "utf8");
    expect(msg.split("\n")[0]).toBe(`histórico boi_gordo: ${h.length} dias importados (2026-01-05 a 2026-08-14)`);
    expect(ok.out).toContain(`mensagem de commit (gravada em ${msgFile}: git commit -F ${msgFile}):\n\n${msg}`);
    expect(ok.out).toContain(`resumo boi_gordo: importado; ${h.length} dias lidos, ${h.length} novos`);
    expect((await readJson(site, "api/v1/cotacao/boi_gordo.json")).historico).toHaveLength(h.length);

    const milho = join(files, "milho.xls");
    await writeFile(milho, planilha(h.map((d) => ({ data: d.data, brl: d.brl, usd: d.usd })), "biff8", { titulo: "Indicador do Milho ESALQ/BM&FBovespa" }));
    const bad = backfill(["--pagina", "cepea/boi-gordo", "--arquivo", milho], site);
    expect(bad.code).toBe(1);
    expect(bad.out).toContain("RECUSADO: milho.xls: a planilha é de outro indicador");
    expect(bad.out).not.toContain("mensagem de commit");
  });

  it("a 30-year .xls needs, once read, a few times its size (SheetJS sparse cells, the days)", async () => {
    const files = await tmp();
    const h = historia(diasUteis("1994-07-01", "2026-08-14"), { brl: 345.05, usd: 66.38 }, 22, 17);
    const xls = join(files, "30anos.xls");
    const bytes = planilha(h.map((d) => ({ data: d.data, brl: d.brl, usd: d.usd })), "biff8");
    await writeFile(xls, bytes);
    const script = join(files, "mem.mts");
    await writeFile(
      script,
      `import { readFileSync } from "node:fs";
import { abrirPlanilha } from ${JSON.stringify(join(ROOT, "pipeline/sources/planilha.ts"))};
import { lerSerieCepea, SERIES_CEPEA } from ${JSON.stringify(join(ROOT, "pipeline/sources/cepea-series.ts"))};
const f = ${JSON.stringify(xls)};
lerSerieCepea(abrirPlanilha(readFileSync(f)), SERIES_CEPEA[0]); // the library's own tables, loaded once
const buf = readFileSync(f);
const gc = globalThis.gc;
gc(); gc();
const m = () => { const u = process.memoryUsage(); return u.heapUsed + u.external; };
const before = m();
const p = abrirPlanilha(buf);
const r = lerSerieCepea(p, SERIES_CEPEA[0]);
gc(); gc();
console.log(JSON.stringify({ retido: m() - before, dias: r.dias.length, linhas: p.linhas }));
`,
    );
    const r = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", script], { cwd: ROOT, encoding: "utf8" });
    expect(r.stderr).toBe("");
    const out = JSON.parse(r.stdout) as { retido: number; dias: number };
    expect(out.dias).toBe(h.length);
    expect(out.retido).toBeLessThan(4 * bytes.length);
  });
});
