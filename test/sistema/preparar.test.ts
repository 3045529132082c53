import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../pipeline/config.ts";
import { DEBIAN_CHROMIUM } from "../../pipeline/fetch/browser.ts";
import { executavel, prepararSistema, REQUISITOS, type Ambiente, type Requisito } from "./preparar.ts";

const FALTA = "/nao/existe/chromium";
const chromiumEm = (path: string): Requisito => ({ pacote: "chromium", para: "os testes de navegador", caminhos: () => [path] });

function ambiente(over: Partial<Ambiente> = {}) {
  const log: string[] = [];
  const erro: string[] = [];
  const apt: string[][] = [];
  const amb: Ambiente = {
    env: {},
    root: false,
    existe: executavel,
    aptGet: (args) => (apt.push(args), true),
    log: (l) => log.push(l),
    erro: (l) => erro.push(l),
    ...over,
  };
  return { amb, log, erro, apt };
}

describe("the system check before npm test", () => {
  it("a missing binary, not root: exit 1 and one line saying exactly what to install; no apt-get", () => {
    const a = ambiente();
    expect(prepararSistema(a.amb, [chromiumEm(FALTA)])).toBe(1);
    expect(a.erro).toHaveLength(1);
    expect(a.erro[0]).toMatch(/^preparar: faltam pacotes do sistema para os testes: chromium /);
    expect(a.erro[0]).toContain(FALTA);
    expect(a.erro[0]).toMatch(/Instale com: sudo apt-get install chromium$/);
    expect(a.log).toEqual([]);
    expect(a.apt).toEqual([]);
  });

  it("a present binary: exit 0, silent", () => {
    const a = ambiente({ root: true });
    expect(prepararSistema(a.amb, [chromiumEm(process.execPath)])).toBe(0);
    expect([...a.log, ...a.erro, ...a.apt.flat()]).toEqual([]);
  });

  it("a missing binary as root: apt-get update and a quiet install of exactly the missing packages, with progress lines", () => {
    let instalado = false;
    const a = ambiente({
      root: true,
      existe: (p) => (p === FALTA ? instalado : executavel(p)),
      aptGet: (args) => {
        a.apt.push(args);
        if (args[0] === "install") instalado = true;
        return true;
      },
    });
    const outro: Requisito = { pacote: "tesseract-ocr", para: "o OCR", caminhos: () => [process.execPath] };
    expect(prepararSistema(a.amb, [chromiumEm(FALTA), outro])).toBe(0);
    expect(a.apt).toEqual([["update", "-qq"], ["install", "-y", "-qq", "--no-install-recommends", "chromium"]]);
    expect(a.log[0]).toContain("instalando com apt-get");
    expect(a.log.at(-1)).toBe("preparar: chromium instalado(s)");
    expect(a.erro).toEqual([]);
  });

  it("as root, when apt-get fails: exit 1 and the one line", () => {
    const a = ambiente({ root: true });
    a.amb.aptGet = (args) => (a.apt.push(args), false);
    expect(prepararSistema(a.amb, [chromiumEm(FALTA)])).toBe(1);
    expect(a.apt).toEqual([["update", "-qq"]]);
    expect(a.erro).toHaveLength(1);
    expect(a.erro[0]).toMatch(/apt-get install chromium$/);
  });

  it("Chromium is looked for where the tests will launch it", () => {
    const chromium = REQUISITOS.find((r) => r.pacote === "chromium")!;
    expect(chromium.caminhos({})[0]).toBe(DEBIAN_CHROMIUM);
    // an explicit path is the only one the browser tests use, so it alone counts
    expect(chromium.caminhos({ PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH: FALTA })).toEqual([FALTA]);
  });

  // the override never triggers apt-get (it would not install there), so this is safe as root
  const cli = (path: string) =>
    spawnSync(join(REPO_ROOT, "node_modules", ".bin", "tsx"), [join(REPO_ROOT, "test/sistema/preparar.ts")], {
      cwd: REPO_ROOT,
      encoding: "utf8",
      env: { ...process.env, PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH: path },
    });

  it("the command: a missing Chromium stops with exit 1 and one line on stderr", () => {
    const r = cli(FALTA);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("sudo apt-get install chromium");
  }, 60_000);

  it("the command: a present Chromium passes silently", () => {
    const r = cli(process.execPath);
    expect(r.status).toBe(0);
    expect(r.stdout + r.stderr).toBe("");
  }, 60_000);

  it("runs before the suite (npm's pretest), and .ci/run uses the README's command without apt logic of its own", () => {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> };
    expect(pkg.scripts.pretest).toBe("tsx test/sistema/preparar.ts");
    const ci = readFileSync(join(REPO_ROOT, ".ci", "run"), "utf8");
    const code = ci.split("\n").filter((l) => l.trim() && !l.trim().startsWith("#"));
    expect(code.join("\n")).not.toMatch(/apt-get|chromium/);
    const cmds = code.filter((l) => !/^(set|cd) /.test(l.trim()));
    expect(cmds).toEqual(["npm ci --no-audit --no-fund", "npm test"]);
  });
});
