import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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
    soja.uf = "PR";
    writeFileSync(join(dir, "api", "v1", "cotacao", "soja.json"), JSON.stringify(soja, null, 2));

    const { code, out } = run(dir);
    expect(code).toBe(1);
    expect(out).toContain("✗ api/v1/cotacao/soja.json (");
    expect(out).toContain('api/v1/cotacao/soja.json: /historico/3/valor: deve ser número (recebido "161,00")');
    expect(out).toContain('api/v1/cotacao/soja.json: /uf: não corresponde ao caminho do arquivo: deve ser null (arquivo da referência nacional) (recebido "PR")');
    expect(out).toContain('api/v1/cotacao/soja.json: /: falta o campo obrigatório "praca"');
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
