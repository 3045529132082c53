import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const FIXTURES = new URL("./fixtures/api/", import.meta.url).pathname;
const dirs: string[] = [];

function tree(): string {
  const d = mkdtempSync(join(tmpdir(), "cotacao-validate-"));
  dirs.push(d);
  return d;
}

function run(dir: string): { code: number | null; out: string } {
  const r = spawnSync("npx", ["tsx", "pipeline/cli/validate.ts", dir], { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("npm run validate", () => {
  it("one good and one bad file: prints every error of the bad one, a summary, exits 1", () => {
    const dir = tree();
    mkdirSync(join(dir, "api", "v1", "cotacao"), { recursive: true });
    cpSync(join(FIXTURES, "v1", "cotacao.json"), join(dir, "api", "v1", "cotacao.json"));
    const soja = JSON.parse(readFileSync(join(FIXTURES, "v1", "cotacao", "soja.json"), "utf8"));
    soja.historico[3].valor = "161,00";
    // the national soja is CEPEA's Paranaguá indicator: its file says PR, not another UF
    soja.uf = "SP";
    delete soja.bordao;
    writeFileSync(join(dir, "api", "v1", "cotacao", "soja.json"), JSON.stringify(soja, null, 2));

    const { code, out } = run(dir);
    expect(code).toBe(1);
    expect(out).toContain("✗ api/v1/cotacao/soja.json (");
    expect(out).toContain('api/v1/cotacao/soja.json: /historico/3/valor: deve ser número (recebido "161,00")');
    expect(out).toContain('api/v1/cotacao/soja.json: /uf: não corresponde ao caminho do arquivo: deve ser "PR" (o lugar da referência nacional) (recebido "SP")');
    expect(out).toContain('api/v1/cotacao/soja.json: /: falta o campo obrigatório "bordao"');
    expect(out).toContain("✗ api/v1/cotacao/soja.json (3 erros)");
    expect(out).not.toContain("api/v1/cotacao.json:");
    expect(out).toMatch(/^1 arquivo válido, 1 com erros em /m);
  });

  it("the sample tree plus schema copies and a page: all valid, exit 0", () => {
    const dir = tree();
    cpSync(FIXTURES, join(dir, "api"), { recursive: true });
    cpSync(new URL("../schemas/", import.meta.url).pathname, join(dir, "schemas"), { recursive: true });
    writeFileSync(join(dir, "index.html"), "<!doctype html><title>Cotação Aberta</title>");

    const { code, out } = run(dir);
    expect(out).not.toContain("✗");
    expect(out).toMatch(/^\d+ arquivos válidos, 0 com erros \(1 sem verificação: index\.html\) em /m);
    expect(code).toBe(0);
  });

  it("a public/ without the API says so and exits 1", () => {
    const dir = tree();
    writeFileSync(join(dir, "index.html"), "<!doctype html>");
    const { code, out } = run(dir);
    expect(code).toBe(1);
    expect(out).toContain("ainda não tem a API (nenhum arquivo em api/v1/)");

    const missing = run(join(dir, "nao-existe"));
    expect(missing.code).toBe(1);
    expect(missing.out).toContain("não existe");
  });
});

describe("npm run validate across files", () => {
  it("a mixed tree (series files newer than the aggregates, index, status and CSV) fails, naming both files of each pair", async () => {
    const { replay, replayDir, editPage, FIXTURES: PAGES } = await import("./helpers/pipeline.ts");
    const old = tree();
    const next = tree();
    const pages = await replayDir();
    dirs.push(pages);
    await editPage(pages, "cepea/boi-gordo.html", (h) =>
      h.replace(/(<tr>\s*)(<td>04\/09\/2026<\/td>)/, "$1<td>08/09/2026</td><td>349,10</td><td>0,40%</td><td>1,36%</td><td>68,05</td></tr><tr>$2"),
    );
    await replay(PAGES, old, "2026-09-27T22:00:00-03:00");
    cpSync(old, next, { recursive: true });
    await replay(pages, next, "2026-09-28T21:00:00-03:00");
    // both trees are valid on their own
    expect(run(old).code).toBe(0);
    expect(run(next).code).toBe(0);

    // the newer series file (and, separately, the older CSV) in the old tree: what a kill midway used to leave
    cpSync(join(next, "api/v1/cotacao/boi_gordo.json"), join(old, "api/v1/cotacao/boi_gordo.json"));
    const { code, out } = run(old);
    expect(code).toBe(1);
    expect(out).toContain(
      'api/v1/cotacao.json: /boi_gordo_cepea_sp: 347.7 de "2026-09-04" não confere com api/v1/cotacao/boi_gordo.json, cujo último dia é "2026-09-08" (349.1); ' +
        "os arquivos são de versões diferentes dos dados (publicação misturada?); rode npm run build",
    );
    expect(out).toMatch(/api\/v1\/cotacao\/uf\/SP\.json: \/boi_gordo_cepea_sp: 347\.7 de "2026-09-04" não confere com api\/v1\/cotacao\/boi_gordo\.json/);
    expect(out).toMatch(/api\/v1\/index\.json: \/series\/0\/ultima_data: "2026-09-04" não confere com api\/v1\/cotacao\/boi_gordo\.json \("2026-09-08"\)/);
    expect(out).toMatch(/api\/v1\/status\.json: \/series\/0\/ultima_data: "2026-09-04" não confere com api\/v1\/cotacao\/boi_gordo\.json \(último dia "2026-09-08"\)/);
    expect(out).toMatch(/api\/v1\/historico\/boi_gordo\.csv: tem \d+ linhas de dados, mas api\/v1\/cotacao\/boi_gordo\.json tem \d+ entradas/);
  }, 120_000);

  it("a CSV that agrees on data and valor but not on another column fails, naming the line and the JSON", () => {
    const dir = tree();
    cpSync(FIXTURES, join(dir, "api"), { recursive: true });
    const csv = join(dir, "api/v1/historico/boi_gordo.csv");
    const lines = readFileSync(csv, "utf8").split("\n");
    expect(lines[0]).toBe("data,valor,unidade,valor_usd");
    const [d, v, u] = lines[2]!.split(",");
    lines[2] = `${d},${v},${u},1.23`;
    writeFileSync(csv, lines.join("\n"));
    const { code, out } = run(dir);
    expect(code).toBe(1);
    expect(out).toMatch(new RegExp(`api/v1/historico/boi_gordo\\.csv: linha 3: "${d},${v},${u},1\\.23" difere do que api/v1/cotacao/boi_gordo\\.json dá para essa linha \\("${d},${v},${u},[\\d.]+"\\)`));
  });

  it("the lock, an interrupted publish's staging and journal, and temp files are not site files; an interrupted publish is recovered first", () => {
    const dir = tree();
    cpSync(FIXTURES, join(dir, "api"), { recursive: true });
    mkdirSync(join(dir, ".cotacao-staging", "api", "v1"), { recursive: true });
    writeFileSync(join(dir, ".cotacao-staging", "api", "v1", "cotacao.json"), "{ metade");
    writeFileSync(join(dir, ".cotacao-journal.json.tmp"), "{ metade");
    writeFileSync(join(dir, "api", "v1", "cotacao.json.tmp-999999999"), "{ metade");
    const { code, out } = run(dir);
    expect(out).toContain("validate: recuperação: publicação interrompida antes de confirmada descartada (1 arquivo(s) preparado(s) removido(s)); o site ficou como estava");
    expect(out).toContain("1 arquivo(s) temporário(s) de execuções mortas removido(s) (api/v1/cotacao.json.tmp-999999999)");
    expect(out).not.toContain("✗");
    expect(out).not.toContain("sem verificação");
    expect(code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(["api"]);
  });
});
