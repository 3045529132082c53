/**
 * Review of 6791417 (facts carry `fonte`, site/assemble.ts fonteDoCodigo): a run whose source
 * hash equals the facts' takes their `codigo` instead of rendering the catalogue. fonteDoCodigo
 * hashes the files on disk when it is first called, not the code the process loaded; a facts
 * file that pairs one source's hash with another code's renderer hash is then trusted, and the
 * series an update does not render keep files written by the other code. Temp dirs only.
 */
import { execFileSync } from "node:child_process";
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { REPO_ROOT } from "../../pipeline/config.ts";
import type { SerieFile } from "../../pipeline/domain/publicados.ts";
import type { SourceDef } from "../../pipeline/sources/types.ts";
import { fonteDeTeste } from "../helpers/fonte.ts";

const TSX = join(REPO_ROOT, "node_modules", "tsx", "dist", "cli.mjs");

describe("review: the source hash in the facts (fonteDoCodigo) vouches for a renderer hash it did not compute", () => {
  let copia: string;
  let site: string;

  beforeAll(async () => {
    // a copy of the repository's source, so its files can change under a running process
    copia = await mkdtemp(join(tmpdir(), "cotacao-review-fonte-"));
    for (const d of ["pipeline", "schemas"]) await cp(join(REPO_ROOT, d), join(copia, d), { recursive: true });
    for (const f of ["package.json", "package-lock.json", "tsconfig.json"]) await cp(join(REPO_ROOT, f), join(copia, f));
    await symlink(join(REPO_ROOT, "node_modules"), join(copia, "node_modules"), "dir");
    site = join(copia, "site");
  }, 60_000);

  afterAll(async () => {
    await rm(copia, { recursive: true, force: true });
  });

  // the runs as the CLI runs them: outside vitest (under it, runs vouch for nothing by their source)
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("VITEST")));
  const rodar = (script: string): string => execFileSync(process.execPath, [TSX, join(copia, script)], { cwd: copia, encoding: "utf8", env: { ...env, NODE_OPTIONS: "" } }).trim();

  it("a run that loaded the old renderer while the tree changed under it (git pull / checkout during a build) writes facts the next run of the new code trusts", async () => {
    // run 1 (a build: fonteDoCodigo is first called at the end, when montarSite writes the facts):
    // its code is loaded, then the tree changes (the recent window, as the existing
    // versaoDoCodigo test changes it), then it writes its facts as montarSite does
    await writeFile(
      join(copia, "run1.ts"),
      `import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fonteDoCodigo, versaoDoCodigo } from "./pipeline/site/assemble.ts";
import { FATOS_PATH, textoDosFatos } from "./pipeline/site/fatos.ts";
const serie = join(import.meta.dirname, "pipeline/render/serie.ts");
const antes = readFileSync(serie, "utf8");
const depois = antes.replace("export const DIAS_RECENTE = 366;", "export const DIAS_RECENTE = 30;");
if (depois === antes) throw new Error("edição não aplicada");
writeFileSync(serie, depois);
const site = join(import.meta.dirname, "site");
mkdirSync(site, { recursive: true });
writeFileSync(join(site, FATOS_PATH), textoDosFatos({ versao: 1, codigo: versaoDoCodigo(), fonte: fonteDoCodigo(), series: {} }));
console.log("ok");
`,
    );
    // run 2: the new code (30-day window) opening the store, as abrirStore does
    await writeFile(
      join(copia, "run2.ts"),
      `import { versaoDoCodigo } from "./pipeline/site/assemble.ts";
import { lerFatos } from "./pipeline/site/fatos.ts";
import { join } from "node:path";
const f = await lerFatos(join(import.meta.dirname, "site"), versaoDoCodigo);
console.log(JSON.stringify({ confiados: f !== null }));
`,
    );
    // what the new code's renderer hash really is (a process without facts computes it)
    await writeFile(join(copia, "proprio.ts"), `import { versaoDoCodigo } from "./pipeline/site/assemble.ts";\nconsole.log(versaoDoCodigo());\n`);

    expect(rodar("run1.ts")).toBe("ok");
    const fatos = JSON.parse(await readFile(join(site, ".fatos.json"), "utf8")) as { codigo: string; fonte: string };
    const proprio = rodar("proprio.ts");
    // precondition: the facts were written by another renderer than the one now on disk
    expect(fatos.codigo).not.toBe(proprio);
    // the new code must not take those facts as its own: every series would be rendered again
    // (before 6791417 lerFatos compared fatos.codigo with versaoDoCodigo() and refused them)
    expect(JSON.parse(rodar("run2.ts"))).toEqual({ confiados: false });
  }, 180_000);

  it("a process whose renderer differs from the files (a test mocking janelaRecente) takes the real renderer's hash from the facts", async () => {
    vi.resetModules();
    const real = await import("../../pipeline/site/assemble.ts");
    const fatos = { codigo: real.versaoDoCodigo(), fonte: real.fonteDoCodigo() };
    const mock = () =>
      vi.doMock("../../pipeline/render/serie.ts", async (orig) => {
        const o = (await orig()) as typeof import("../../pipeline/render/serie.ts");
        return { ...o, janelaRecente: (f: SerieFile) => (f.historico.length > 30 ? { ...f, historico: f.historico.slice(-30) } : f) };
      });
    try {
      vi.resetModules();
      mock();
      const proprio = (await import("../../pipeline/site/assemble.ts")).versaoDoCodigo();
      expect(proprio).not.toBe(fatos.codigo);
      vi.resetModules();
      mock();
      const comFatos = (await import("../../pipeline/site/assemble.ts")).versaoDoCodigo(fatos);
      expect(comFatos).toBe(proprio);
    } finally {
      vi.doUnmock("../../pipeline/render/serie.ts");
      vi.resetModules();
    }
  }, 120_000);

  it("two catalogues with a source registered at run time hash the same (the edition is a counter, not the catalogue)", async () => {
    const fonteCom = (regiao: string): SourceDef =>
      fonteDeTeste("teste", [{ id: "novilha", path: "/novilha", titulo: "Novilha", diasUteis: true, hasTable: () => true, parse: () => ({ rows: [], avisos: [] }), series: [{ produto: "novilha_revisao" as never, uf: "GO", unidade: "@", regiao, praca: "Goiás (média)" }] }]);
    const com = async (regiao: string) => {
      vi.resetModules();
      const prod = await import("../../pipeline/domain/products.ts");
      prod.registrarProduto("novilha_revisao", { nome: "Novilha", tipo: "gado_arroba", unidade: "@", faixa: { "@": [100, 1000] }, saltoMaximoPct: 10, revisaoMaximaPct: 1.5 } as never);
      (await import("../../pipeline/sources/index.ts")).registrarFonte(fonteCom(regiao));
      return import("../../pipeline/site/assemble.ts");
    };
    try {
      const a = await com("Goiás (região A)");
      const fatos = { codigo: a.versaoDoCodigo(), fonte: a.fonteDoCodigo() };
      const proprio = (await com("Goiás (região B)")).versaoDoCodigo();
      expect(proprio).not.toBe(fatos.codigo);
      expect((await com("Goiás (região B)")).versaoDoCodigo(fatos)).toBe(proprio);
    } finally {
      vi.resetModules();
    }
  }, 120_000);
});
