/**
 * `npm test`'s pretest: the system packages the tests need, checked before the suite runs. A
 * missing one is installed with apt-get when running as root (CI containers, fresh Debian
 * machines), or else the run stops at once with one Portuguese line naming exactly what to
 * install: never a page of Chromium launch stack traces from the browser tests.
 *
 * Tesseract is not here: the OCR of the romaneio is tesseract.js with its Portuguese data from the
 * npm registry (the same engine in the server and in the browser page), installed by `npm ci`.
 */
import { spawnSync } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { DEBIAN_CHROMIUM } from "../../pipeline/fetch/browser.ts";

export interface Requisito {
  /** Debian package that provides it */
  pacote: string;
  /** what needs it, in words */
  para: string;
  /** the executables any one of which satisfies it, in order; env decides (e.g. an override) */
  caminhos(env: NodeJS.ProcessEnv): string[];
  /** the paths are files to read (a Python module), not executables */
  arquivo?: boolean;
}

/** Playwright's own Chromium build, when the package is there (GitHub Actions installs it). */
function chromiumDoPlaywright(): string[] {
  try {
    const pw = createRequire(import.meta.url)("playwright") as typeof import("playwright");
    return [pw.chromium.executablePath()];
  } catch {
    return [];
  }
}

export const REQUISITOS: readonly Requisito[] = [
  {
    pacote: "chromium",
    para: "os testes de navegador, em test/browser",
    // the same choice as pipeline/fetch/browser.ts: an explicit path is the only one the tests
    // will use, so it alone counts; otherwise Debian's, or Playwright's own build
    caminhos: (env) => (env.PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH ? [env.PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH] : [DEBIAN_CHROMIUM, ...chromiumDoPlaywright()]),
  },
  {
    pacote: "python3-pandas",
    para: "rodar o exemplo de pandas do README, em test/dados/readme-pandas.test.ts",
    // Debian's module for Debian's python3 (the test runs /usr/bin/python3)
    caminhos: () => [PANDAS_DEBIAN],
    arquivo: true,
  },
  {
    pacote: "redis-server",
    para: "a cota compartilhada contra um Redis de verdade, em test/serve/quota-redis.test.ts e test/serve/cluster.test.ts",
    caminhos: () => [REDIS_SERVER],
  },
  {
    pacote: "strace",
    para: "provar que um romaneio enviado nunca é gravado em disco, em test/serve/romaneio*.test.ts e test/romaneio/ocr.test.ts",
    caminhos: () => [STRACE],
  },
];

/** Debian's strace: the romaneio tests trace the server's file opens */
export const STRACE = "/usr/bin/strace";

/** Debian's redis-server (test/serve/redis.ts starts one per test file on a random port) */
export const REDIS_SERVER = "/usr/bin/redis-server";

/** Debian's pandas for Debian's /usr/bin/python3 (package python3-pandas). */
export const PANDAS_DEBIAN = "/usr/lib/python3/dist-packages/pandas/__init__.py";

export function executavel(path: string, arquivo = false): boolean {
  try {
    accessSync(path, arquivo ? constants.R_OK : constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export interface Ambiente {
  env: NodeJS.ProcessEnv;
  /** running as root (may install with apt-get) */
  root: boolean;
  existe: (path: string, arquivo?: boolean) => boolean;
  /** runs apt-get with these arguments; true on success */
  aptGet: (args: string[]) => boolean;
  log: (linha: string) => void;
  erro: (linha: string) => void;
}

function aptGetReal(args: string[]): boolean {
  const r = spawnSync("apt-get", args, {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  return r.status === 0;
}

export function ambienteReal(): Ambiente {
  return {
    env: process.env,
    root: typeof process.getuid === "function" && process.getuid() === 0,
    existe: executavel,
    aptGet: aptGetReal,
    log: (l) => console.log(l),
    erro: (l) => console.error(l),
  };
}

function faltando(requisitos: readonly Requisito[], amb: Ambiente): Requisito[] {
  return requisitos.filter((r) => !r.caminhos(amb.env).some((p) => amb.existe(p, r.arquivo)));
}

/**
 * Checks (and, as root, installs) the system packages; returns the exit code. Silent when
 * everything is there.
 */
export function prepararSistema(amb: Ambiente, requisitos: readonly Requisito[] = REQUISITOS): number {
  let falta = faltando(requisitos, amb);
  if (falta.length === 0) return 0;
  const pacotes = falta.map((r) => r.pacote);
  // an explicit Chromium path is the user's choice: apt-get would not put anything there
  if (amb.root && !amb.env.PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH) {
    amb.log(`preparar: faltam pacotes do sistema para os testes: ${pacotes.join(", ")}; instalando com apt-get (root)`);
    amb.log("preparar: apt-get update");
    let ok = amb.aptGet(["update", "-qq"]);
    if (ok) {
      amb.log(`preparar: apt-get install ${pacotes.join(" ")}`);
      ok = amb.aptGet(["install", "-y", "-qq", "--no-install-recommends", ...pacotes]);
    }
    falta = faltando(requisitos, amb);
    if (ok && falta.length === 0) {
      amb.log(`preparar: ${pacotes.join(", ")} instalado(s)`);
      return 0;
    }
    amb.erro(
      `preparar: a instalação com apt-get não deu certo; faltam ${falta.map((r) => r.pacote).join(", ")} ` +
        `(para ${falta.map((r) => r.para).join("; ")}). Instale com: apt-get install ${falta.map((r) => r.pacote).join(" ")}`,
    );
    return 1;
  }
  const onde = falta.map((r) => `${r.pacote} (para ${r.para}; procurado em ${r.caminhos(amb.env).join(", ")})`).join("; ");
  amb.erro(`preparar: faltam pacotes do sistema para os testes: ${onde}. Instale com: sudo apt-get install ${pacotes.join(" ")}`);
  return 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = prepararSistema(ambienteReal());
}
