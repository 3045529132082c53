import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { tmpdir } from "node:os";
import { join, normalize } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../pipeline/config.ts";
import { GERADOS, gerarArquivos, lerEntradas } from "../../pipeline/gerar/arquivos.ts";
import { FIXTURES, cleanup, readJson, replay, tempSite } from "../helpers/pipeline.ts";

const run = promisify(execFile);
const NOW = "2026-09-27T12:00:00-03:00";
const PACOTE = join(REPO_ROOT, "cliente");
const TSC = join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");
// offline: the tarball has no dependencies, so npm must not need the registry
const NPM_ENV = { ...process.env, npm_config_audit: "false", npm_config_fund: "false", npm_config_update_notifier: "false", npm_config_offline: "true" };

describe("the npm package @cotacao-aberta/cliente", () => {
  let site: string;
  let projeto: string;
  let server: Server;
  let url: string;
  const sockets = new Set<Socket>();

  beforeAll(async () => {
    site = await tempSite();
    await replay(FIXTURES, site, NOW);
    server = createServer((req, res) => {
      const rel = normalize(decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname)).replace(/^\/+/, "");
      readFile(join(site, rel))
        .then((body) => {
          res.writeHead(200, { "content-type": "application/json" });
          res.end(body);
        })
        .catch(() => {
          res.writeHead(404, { "content-type": "text/html" });
          res.end("<html>404</html>");
        });
    });
    server.on("connection", (s: Socket) => {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
    });
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

    projeto = await mkdtemp(join(tmpdir(), "cotacao-pacote-"));
    const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", projeto], { cwd: PACOTE, env: NPM_ENV });
    const [info] = JSON.parse(stdout.slice(stdout.indexOf("["))) as Array<{ filename: string; files: Array<{ path: string }> }>;
    expect(info!.files.map((f) => f.path).sort()).toEqual(["README.md", "index.d.ts", "index.js", "package.json"]);
    await writeFile(join(projeto, "package.json"), JSON.stringify({ name: "teste-do-pacote", private: true, type: "module" }));
    await run("npm", ["install", "--offline", "--no-audit", "--no-fund", join(projeto, info!.filename)], { cwd: projeto, env: NPM_ENV });
  }, 180_000);
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((ok) => (server ? server.close(() => ok()) : ok()));
    await cleanup(site, projeto);
  });

  it("is what npm run gerar writes: index.js from the template of client.js, index.d.ts the same types as client.d.ts", async () => {
    const gerados = await gerarArquivos(lerEntradas());
    expect(await readFile(join(REPO_ROOT, GERADOS.pacoteJs), "utf8")).toBe(gerados.get(GERADOS.pacoteJs));
    expect(await readFile(join(REPO_ROOT, GERADOS.pacoteTipos), "utf8")).toBe(gerados.get(GERADOS.pacoteTipos));
    // one source: the bodies (below each banner) are the same text
    const corpo = (t: string) => t.slice(t.indexOf("\n// Cotação Aberta: client"));
    expect(corpo(gerados.get(GERADOS.pacoteJs)!)).toBe(corpo(await readFile(join(REPO_ROOT, "public/api/v1/client.js"), "utf8")));
    const semBanner = (t: string) => t.slice(t.indexOf("\n\n"));
    expect(semBanner(gerados.get(GERADOS.pacoteTipos)!)).toBe(semBanner(gerados.get(GERADOS.client)!));
    const pkg = JSON.parse(await readFile(join(PACOTE, "package.json"), "utf8"));
    expect(pkg.name).not.toBe(JSON.parse(await readFile(join(REPO_ROOT, "package.json"), "utf8")).name);
    expect(pkg).toMatchObject({ type: "module", license: "CC-BY-4.0", exports: { ".": { types: "./index.d.ts", default: "./index.js" } } });
    expect(pkg.dependencies ?? {}).toEqual({});
  });

  it("installs from its tarball offline, imports in Node and answers from a local site", async () => {
    await writeFile(
      join(projeto, "usa.mjs"),
      `import { createClient, PRODUTOS, resolverCaminho } from "@cotacao-aberta/cliente";
const api = createClient({ mirrors: [process.argv[2]] });
const cotacao = await api.cotacao({ uf: "MS" });
const indice = await api.index();
const status = await api.status();
const eventos = await api.eventos();
const serie = await api.serie("boi_gordo", "MT");
console.log(JSON.stringify({ cotacao, series: indice.series.length, status: status.api_version, eventos: eventos.eventos.length, praca: serie.praca, produtos: PRODUTOS.length, espelho: cotacao.espelho, url: resolverCaminho(indice.series[0].path, new URL("api/v1/index.json", process.argv[2])) }));
`,
    );
    const { stdout } = await run(process.execPath, ["usa.mjs", url], { cwd: projeto });
    const r = JSON.parse(stdout);
    expect(r.cotacao).toEqual(await readJson(site, "api/v1/cotacao/uf/MS.json"));
    expect(r.series).toBe((await readJson(site, "api/v1/index.json")).series.length);
    expect(r).toMatchObject({ status: "v1", praca: "Cuiabá", espelho: 0 });
    expect(r.eventos).toBeGreaterThan(0);
    expect(r.url.startsWith(`${url}api/v1/`)).toBe(true);
  });

  it("its types resolve for tsc (exports.types) and reject misuse", async () => {
    const ok = `import { createClient, type Cotacao, type Serie, type Index, type Aviso } from "@cotacao-aberta/cliente";
const api = createClient({ onAviso: (a: Aviso) => console.warn(a.url, a.atualizado) });
export async function f(): Promise<[number | null, string, Index["series"], boolean]> {
  const c: Cotacao = await api.cotacao({ uf: "MS" });
  const s: Serie = await api.serie("soja");
  const i = await api.index();
  const d = await api.cotacao();
  return [c.boi_gordo_cepea_sp, s.data_cotacao, i.series, d.defasado];
}
`;
    await writeFile(join(projeto, "ok.ts"), ok);
    const args = ["--noEmit", "--strict", "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022", "--lib", "es2022,dom", "--skipLibCheck", "false"];
    await run(process.execPath, [TSC, ...args, "ok.ts"], { cwd: projeto });
    await writeFile(join(projeto, "errado.ts"), `import { createClient } from "@cotacao-aberta/cliente";\nexport const x = createClient().serie("frango");\n`);
    const erro = await run(process.execPath, [TSC, ...args, "errado.ts"], { cwd: projeto }).then(
      () => "",
      (e: { stdout: string }) => e.stdout,
    );
    expect(erro).toMatch(/errado\.ts.*"frango"/);
    expect(await readdir(join(projeto, "node_modules", "@cotacao-aberta", "cliente"))).toEqual(expect.arrayContaining(["index.js", "index.d.ts"]));
  }, 60_000);
});
