/**
 * The changelog on real before/after data: the pipeline runs on the recorded pages into a temp
 * git repository (commit = "before"), then on a copy of the pages with a new CEPEA day, a
 * revised past day, a new Scot day and a missing page (working tree = "after").
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, REPO_ROOT } from "../../pipeline/config.ts";
import { createReplayLoader } from "../../pipeline/fetch/replay.ts";
import { buildChangelog, readSiteChange, seriesIdOfPath } from "../../pipeline/publish/changelog.ts";
import type { SerieFile } from "../../pipeline/domain/publicados.ts";
import { runUpdate } from "../../pipeline/run/update.ts";
import { allSeries } from "../../pipeline/sources/index.ts";

const FIXTURES = join(REPO_ROOT, "test", "fixtures");
let tmp: string;
let repo: string;
let publicDir: string;
let modified: string;

const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, encoding: "utf8", env: { ...process.env, ...ID } }).trim();
const ID = { GIT_AUTHOR_NAME: "teste", GIT_AUTHOR_EMAIL: "teste@example.invalid", GIT_COMMITTER_NAME: "teste", GIT_COMMITTER_EMAIL: "teste@example.invalid" };

async function update(pages: string, nowIso: string): Promise<number> {
  const now = new Date(nowIso);
  const config = loadConfig({ root: repo, publicDir, env: {} });
  const r = await runUpdate({ loader: createReplayLoader(pages, () => now), config, now, env: {} });
  return r.exitCode;
}

/** Replaces the first match (the recorded pages mix CRLF and LF, so the pattern spans whitespace). */
function replaceOnce(file: string, from: RegExp, to: string): void {
  const text = readFileSync(file, "utf8");
  if (!from.test(text)) throw new Error(`${file}: trecho não encontrado: ${from}`);
  writeFileSync(file, text.replace(from, to));
}

/** the CLI as the workflow runs it, in the temp repository */
function cli(...args: string[]) {
  return spawnSync(join(REPO_ROOT, "node_modules", ".bin", "tsx"), [join(REPO_ROOT, "pipeline/cli/changelog.ts"), ...args], {
    cwd: repo,
    encoding: "utf8",
    env: { ...process.env, ...ID, COTACAO_PUBLIC_DIR: publicDir, GITHUB_TOKEN: "", GH_TOKEN: "" },
  });
}

const NOW1 = "2026-09-27T22:00:00-03:00";
const NOW2 = "2026-09-28T21:00:00-03:00";

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), "cotacao-changelog-"));
  repo = join(tmp, "repo");
  publicDir = join(repo, "public");
  execFileSync("git", ["init", "-q", "-b", "main", repo]);
  // pages of the next run: CEPEA boi gordo publishes 08/09 and revises 03/09 (347,60 -> 347,70);
  // Scot moves to 06/08 with Barretos up R$ 1,50; Scot's vaca gorda page is missing
  modified = join(tmp, "pages");
  cpSync(FIXTURES, modified, { recursive: true });
  const boi = join(modified, "cepea", "boi-gordo.html");
  replaceOnce(boi, /(<td>03\/09\/2026<\/td>\s*)<td>347,60<\/td>/, "$1<td>347,70</td>");
  replaceOnce(
    boi,
    /(<tr>\s*)(<td>04\/09\/2026<\/td>)/,
    "$1<td>08/09/2026</td><td>349,10</td><td>0,40%</td><td>1,36%</td><td>68,05</td></tr><tr>$2",
  );
  const scot = join(modified, "scot", "boi-gordo.html");
  replaceOnce(scot, /Mercado F&iacute;sico - 05\/08\/2026/, "Mercado F&iacute;sico - 06/08/2026");
  replaceOnce(scot, /(SP Barretos<\/td>\s*)<td>345,50<\/td>/, "$1<td>347,00</td>");
  unlinkSync(join(modified, "scot", "vaca-gorda.html"));
  // and no recording of the mirror to fall back on: the page is simply missing
  rmSync(join(modified, "noticias-agricolas"), { recursive: true, force: true });
}, 120_000);

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe("changelog on real pipeline output", () => {
  let first: string | null;
  let second: string | null;

  it("first run: every series is new; title names the newest data day", async () => {
    expect(await update(FIXTURES, NOW1)).toBe(0);
    first = buildChangelog(await readSiteChange(repo, publicDir));
    expect(first).not.toBeNull();
    const lines = first!.split("\n");
    // every series of the catalogue; the sources whose recorded pages are months old are stale
    expect(lines[0]).toBe(`${allSeries().length} séries novas (dados até 25/09/2026); Scot Consultoria desatualizada; Datagro desatualizada`);
    expect(first).toMatch(/^- Scot Consultoria desatualizada \(último dado de 05\/08\/2026, mais de \d+ dias úteis atrás\)$/m);
    expect(lines[1]).toBe("");
    expect(lines[2]).toBe("Séries novas:");
    expect(first).toContain("\n- Boi gordo (CEPEA/ESALQ-USP): R$ 347,70/@ em 04/09/2026 (15 dias desde 17/08/2026)\n");
    expect(first).toContain("\n- Bezerro (CEPEA/ESALQ-USP): R$ 3.426,02/cabeça em 25/09/2026 (15 dias desde 04/09/2026)\n");
    expect(first).toMatch(/^- Boi gordo \(RS, Scot Consultoria\): R\$ \d+,\d\d\/kg em 05\/08\/2026 \(1 dia\)$/m);
    // catalogue order: national series first
    expect(lines.slice(3, 8).map((l) => l.split(" (")[0])).toEqual(["- Boi gordo", "- Vaca gorda", "- Soja", "- Milho", "- Bezerro"]);
    expect(first).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    git("add", "-A");
    git("commit", "-q", "-m", lines[0]!);
  }, 120_000);

  it("a rerun of the same pages changes nothing: no message; the CLI prints nothing and exits 0", async () => {
    expect(await update(FIXTURES, NOW1)).toBe(0);
    expect(buildChangelog(await readSiteChange(repo, publicDir))).toBeNull();
    const r = cli();
    expect(r.status).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("nenhuma mudança");
    const c = cli("--commit");
    expect(c.status).toBe(0);
    expect(git("rev-list", "--count", "HEAD")).toBe("1");
  }, 120_000);

  it("next run: new day with variation, a revised past day, Scot's new day, the failed page", async () => {
    expect(await update(modified, NOW2)).toBe(1); // vaca-gorda page missing
    second = buildChangelog(await readSiteChange(repo, publicDir));
    expect(second).not.toBeNull();
    const lines = second!.split("\n");
    // the news first: the two moves, biggest first (Barretos +0,43%, CEPEA +0,40%), then the
    // revision and the failing source
    expect(lines[0]).toBe(
      "Boi gordo (SP, Scot Consultoria) +0,4% e Boi gordo (CEPEA/ESALQ-USP) +0,4%; 1 revisão; Scot Consultoria com falha desde 28/09/2026 21:00",
    );
    expect(lines.slice(1, 5)).toEqual([
      "",
      "Variações (maiores primeiro):",
      "- Boi gordo (SP, Scot Consultoria): R$ 345,50/@ → R$ 347,00/@ (+R$ 1,50; +0,43%) em 06/08/2026 (antes: 05/08/2026)",
      "- Boi gordo (CEPEA/ESALQ-USP): R$ 347,70/@ → R$ 349,10/@ (+R$ 1,40; +0,40%) em 08/09/2026 (antes: 04/09/2026)",
    ]);
    expect(second).toContain("\n\nRevisões:\n- Boi gordo (CEPEA/ESALQ-USP), 03/09/2026: R$ 347,60/@ → R$ 347,70/@ (+R$ 0,10; +0,03%)\n");
    // the other Scot praças got a new day at the same price: one line for all of them
    const iguais = lines.filter((l) => l.includes("sem mudança"));
    expect(iguais).toHaveLength(1);
    expect(iguais[0]).toMatch(/^- \d+ praças sem mudança em 06\/08\/2026: Boi gordo \(Scot Consultoria\) em AC, AL, BA, ES, GO, MA, MG, MS, MT, PA, PR, RJ, RO, RR, RS, SC e TO(;|$)/);
    expect(second).not.toMatch(/^- Boi gordo \((MT|RS), Scot Consultoria\)/m);
    // the failed page is named, and the series it feeds keep their data (no vaca gorda line)
    expect(second).toMatch(/^- Scot Consultoria com falha desde 28\/09\/2026 21:00, 1 falha; dados mantidos até 06\/08\/2026$/m);
    expect(second).toMatch(/^ {2}página scot\/vaca-gorda: missing: página gravada não encontrada: .*vaca-gorda\.html$/m);
    expect(second).not.toMatch(/^- Vaca gorda/m);
    // CEPEA's other pages brought nothing new
    expect(second).not.toMatch(/^- (Soja|Milho|Bezerro)/m);
  }, 120_000);

  it("the CLI commits the change with that message and pushes it to origin", () => {
    const bare = join(tmp, "origin.git");
    execFileSync("git", ["init", "-q", "--bare", bare]);
    git("remote", "add", "origin", bare);
    git("push", "-q", "origin", "main");
    const r = cli("--commit", "--push");
    expect(r.stderr).not.toMatch(/falha/);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(second);
    expect(git("log", "-1", "--format=%B")).toBe(second!.trimEnd());
    expect(git("status", "--porcelain", "--", "public")).toBe("");
    expect(execFileSync("git", ["--git-dir", bare, "rev-parse", "main"], { encoding: "utf8" }).trim()).toBe(git("rev-parse", "HEAD"));
  }, 120_000);

  it("the webhook delivery record is committed on its own after notify", () => {
    writeFileSync(join(repo, "webhooks-entregues.json"), '{"https://exemplo.invalid/gancho":["evt-1"]}\n');
    const r = cli("--commit", "--extra", "webhooks-entregues.json");
    expect(r.status).toBe(0);
    expect(r.stdout).toBe("registro atualizado: webhooks-entregues.json\n");
    expect(git("log", "-1", "--format=%s")).toBe("registro atualizado: webhooks-entregues.json");
    expect(git("show", "--name-only", "--format=", "HEAD")).toBe("webhooks-entregues.json");
    // nothing left: the second call is a no-op
    const again = cli("--commit", "--extra", "webhooks-entregues.json");
    expect(again.status).toBe(0);
    expect(again.stdout).toBe("");
  });

  it("a run that only changes the status is summarized as such", async () => {
    expect(await update(modified, "2026-09-29T21:00:00-03:00")).toBe(1);
    const msg = buildChangelog(await readSiteChange(repo, publicDir))!;
    expect(msg.split("\n")[0]).toBe("Scot Consultoria com falha desde 28/09/2026 21:00");
    expect(msg).toContain("\nFontes:\n- Scot Consultoria com falha desde 28/09/2026 21:00, 2 falhas seguidas; dados mantidos até 06/08/2026\n");
    expect(msg).not.toMatch(/^- Boi gordo/m);
  }, 120_000);
});

describe("changelog, pure cases", () => {
  const serie = (historico: Array<[string, number]>, extra: Partial<SerieFile> = {}): SerieFile =>
    ({
      produto: "milho",
      uf: null,
      unidade: "sc60kg",
      fonte: "cepea",
      valor: historico.at(-1)![1],
      data_cotacao: historico.at(-1)![0],
      historico: historico.map(([data, valor]) => ({ data, valor })),
      ...extra,
    }) as SerieFile;
  const files = (m: Record<string, SerieFile | null>) => new Map(Object.entries(m).map(([k, v]) => [k, v ? JSON.stringify(v) : null]));

  it("recognizes series paths and nothing else", () => {
    expect(seriesIdOfPath("api/v1/cotacao/boi_gordo/MT.json")).toBe("boi_gordo/MT");
    expect(seriesIdOfPath("api/v1/cotacao/soja.json")).toBe("soja");
    expect(seriesIdOfPath("api/v1/cotacao/uf/MT.json")).toBeNull();
    expect(seriesIdOfPath("api/v1/cotacao.json")).toBeNull();
    expect(seriesIdOfPath("api/v1/historico/soja.csv")).toBeNull();
  });

  it("only revisions: the subject names the revised series", () => {
    const p = "api/v1/cotacao/milho.json";
    const msg = buildChangelog({
      before: files({ [p]: serie([["2026-09-03", 70.1], ["2026-09-04", 70.93]]) }),
      after: files({ [p]: serie([["2026-09-03", 69.9], ["2026-09-04", 70.93]]) }),
    });
    expect(msg).toBe("Revisão em Milho (CEPEA/ESALQ-USP)\n\nRevisões:\n- Milho (CEPEA/ESALQ-USP), 03/09/2026: R$ 70,10/sc 60 kg → R$ 69,90/sc 60 kg (-R$ 0,20; -0,29%)\n");
  });

  it("a file that changed without any change of data is reported as regenerated", () => {
    const p = "api/v1/cotacao/milho.json";
    const s = serie([["2026-09-04", 70.93]]);
    const msg = buildChangelog({ before: files({ [p]: s }), after: files({ [p]: { ...s, bordao: "novo" } as SerieFile }) });
    expect(msg).toBe("Site regenerado: 1 arquivo alterado, sem dados novos\n\nArquivos:\n- api/v1/cotacao/milho.json\n");
  });

  it("a source still stale one more day: a detail line, not news for the title", () => {
    const st = (motivo: string) =>
      JSON.stringify({
        api_version: "v1",
        atualizado: "x",
        series: [],
        fontes: [{ id: "scot", nome: "Scot", estado: "stale", motivo, ultima_tentativa: null, ultimo_sucesso: null, ultima_data: "2026-08-05", falhas_consecutivas: 0, falhando_desde: null, paginas: [] }],
      });
    const msg = buildChangelog({
      before: new Map([["api/v1/status.json", st("último dado de 05/08/2026, há 53 dias (limite 5)")]]),
      after: new Map([["api/v1/status.json", st("último dado de 05/08/2026, há 54 dias (limite 5)")]]),
    });
    expect(msg).toBe("Status: atualizado, sem dados novos\n\nFontes:\n- Scot Consultoria desatualizada (último dado de 05/08/2026, há 54 dias (limite 5))\n");
  });

  it("nothing changed: null", () => {
    const p = "api/v1/cotacao/milho.json";
    const s = files({ [p]: serie([["2026-09-04", 70.93]]) });
    expect(buildChangelog({ before: s, after: s })).toBeNull();
  });

  it("says which file is not JSON", () => {
    const p = "api/v1/cotacao/milho.json";
    expect(() => buildChangelog({ before: new Map([[p, "{"]]), after: new Map([[p, "{}"]]) })).toThrow(/milho\.json \(antes\) não é JSON válido/);
  });
});
