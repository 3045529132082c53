import { execFile } from "node:child_process";
import { readFile, readdir } from "node:fs/promises";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../pipeline/config.ts";
import { JSDELIVR_URL, LOCAL_URL, SITE_URL } from "../../pipeline/openapi/servers.ts";
import { docsFiles, REDOC_BUNDLE } from "../../pipeline/openapi/docs.ts";
import { FIXTURES, cleanup, replay, tempSite } from "../helpers/pipeline.ts";
import { schemaErrors } from "../events/helpers.ts";

const run = promisify(execFile);
const NOW = "2026-09-27T12:00:00-03:00";
const REDOCLY = join(REPO_ROOT, "node_modules", "@redocly", "cli", "bin", "cli.js");

async function walk(dir: string, root = dir, out: string[] = []): Promise<string[]> {
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) await walk(p, root, out);
    else out.push(relative(root, p));
  }
  return out;
}

/** "/api/v1/cotacao/{produto}/{uf}.json" -> a regex matching the concrete paths. */
function templateRegex(path: string): RegExp {
  return new RegExp(`^${path.replace(/[.]/g, "\\.").replace(/\{[^}]+\}/g, "[^/]+")}$`);
}

describe("api/v1/openapi.json", () => {
  let site: string;
  let spec: any;
  let files: string[];

  beforeAll(async () => {
    site = await tempSite();
    await replay(FIXTURES, site, NOW);
    spec = JSON.parse(await readFile(join(site, "api/v1/openapi.json"), "utf8"));
    files = await walk(site);
  });
  afterAll(() => cleanup(site));

  it("passes Redocly's lint (recommended rules, offline) with no error", async () => {
    // telemetry and the update check are Redocly's only network calls; both are off
    const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" };
    const args = [REDOCLY, "lint", "api/v1/openapi.json", "--config", join(REPO_ROOT, "pipeline/openapi/redocly.yaml"), "--format=json"];
    const r = await run(process.execPath, args, { cwd: site, env, maxBuffer: 16 * 1024 * 1024 }).catch((e: { stdout: string; stderr: string }) => e);
    const report = JSON.parse(r.stdout.slice(r.stdout.indexOf("{")));
    const errors = report.problems.filter((p: { severity: string }) => p.severity === "error");
    expect(errors.map((p: { ruleId: string; message: string }) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals.errors).toBe(0);
  }, 120_000);

  it("is OpenAPI 3.1 with the GitHub Pages, jsDelivr and local servers", () => {
    expect(spec.openapi).toBe("3.1.0");
    expect(spec.servers.map((s: { url: string }) => s.url + "/")).toEqual([SITE_URL, JSDELIVR_URL, LOCAL_URL]);
    expect(spec.info.license.identifier).toBe("CC-BY-4.0");
  });

  it("describes every published file, and every static path exists", () => {
    const published = files.filter((f) => /^(api\/v1\/.+\.(json|csv|xml)|schemas\/.+\.schema\.json)$/.test(f));
    const templates = Object.keys(spec.paths).map((p) => [p, templateRegex(p.slice(1))] as const);
    for (const f of published) expect(templates.some(([, re]) => re.test(f)), `${f} sem caminho na descrição`).toBe(true);
    for (const [p, re] of templates) {
      if (!p.includes(".")) continue; // query interface
      if (p.startsWith("/api/v1/client.")) continue; // committed in public/, not rendered
      expect(files.some((f) => re.test(f)), `${p} não existe no site`).toBe(true);
    }
    // single-parameter templates: every listed value is a real file
    for (const produto of spec.components.parameters.produtoPath.schema.enum) expect(files).toContain(`api/v1/cotacao/${produto}.json`);
    for (const uf of spec.components.parameters.ufScotPath.schema.enum) expect(files).toContain(`api/v1/cotacao/uf/${uf}.json`);
    for (const s of spec.paths["/schemas/{schema}"].get.parameters[0].schema.enum) expect(files).toContain(`schemas/${s}`);
  });

  it("references the published JSON Schemas (no copies) and every reference resolves", async () => {
    const refs = new Set<string>();
    JSON.stringify(spec, (k, v) => {
      if (k === "$ref" && typeof v === "string" && !v.startsWith("#")) refs.add(v);
      return v;
    });
    expect([...refs].filter((r) => !r.startsWith("../../schemas/"))).toEqual([]);
    for (const r of refs) {
      const [file, pointer = ""] = r.split("#");
      const doc = JSON.parse(await readFile(join(site, "api/v1", file!), "utf8"));
      const target = pointer
        .split("/")
        .slice(1)
        .reduce((o: any, k) => (o === undefined ? undefined : o[k.replace(/~1/g, "/").replace(/~0/g, "~")]), doc);
      expect(target, r).toBeDefined();
    }
    const ok = (p: string) => spec.paths[p].get.responses["200"].content["application/json"].schema.$ref;
    expect(ok("/api/v1/cotacao.json")).toBe("../../schemas/cotacao.schema.json");
    expect(ok("/api/v1/cotacao/{produto}/{uf}.json")).toBe("../../schemas/serie.schema.json");
    expect(ok("/api/v1/eventos.json")).toBe("../../schemas/eventos.schema.json");
    expect(JSON.stringify(spec)).not.toContain('"$defs"');
  });

  it("takes its examples from the real files, and they validate against the schemas", async () => {
    const agg = JSON.parse(await readFile(join(site, "api/v1/cotacao.json"), "utf8"));
    const ex = (p: string) => spec.paths[p].get.responses["200"].content["application/json"].examples.real.value;
    expect(ex("/api/v1/cotacao.json")).toEqual(agg);
    const checks: Array<[string, string]> = [
      ["/api/v1/cotacao.json", "cotacao.schema.json"],
      ["/api/v1/cotacao/uf/{uf}.json", "cotacao.schema.json"],
      ["/api/v1/cotacao/{produto}.json", "serie.schema.json"],
      ["/api/v1/cotacao/{produto}/{uf}.json", "serie.schema.json"],
      ["/api/v1/index.json", "index.schema.json"],
      ["/api/v1/eventos.json", "eventos.schema.json"],
    ];
    for (const [p, schema] of checks) expect(schemaErrors(schema, ex(p)), p).toEqual([]);
    const boi = JSON.parse(await readFile(join(site, "api/v1/cotacao/boi_gordo.json"), "utf8"));
    expect(ex("/api/v1/cotacao/{produto}.json").historico).toEqual(boi.historico.slice(-3));
    const csv = spec.paths["/api/v1/historico/{produto}.csv"].get.responses["200"].content["text/csv"].examples.real.value;
    expect((await readFile(join(site, "api/v1/historico/boi_gordo.csv"), "utf8")).startsWith(csv)).toBe(true);
  });

  it("describes the query interface of API.md on the local server only", () => {
    const params = (p: string) => spec.paths[p].get.parameters.map((x: any) => (x.$ref ? spec.components.parameters[x.$ref.split("/").pop()].name : x.name));
    expect(params("/api/v1/cotacao")).toEqual(["uf", "produto"]);
    expect(params("/api/v1/historico")).toEqual(["produto", "uf", "de", "ate"]);
    expect(params("/api/v1/simulador")).toContain("peso_vivo_kg");
    for (const p of ["/api/v1/cotacao", "/api/v1/historico", "/api/v1/simulador"]) {
      expect(spec.paths[p].servers.map((s: { url: string }) => s.url + "/")).toEqual([LOCAL_URL]);
      const codes = Object.keys(spec.paths[p].get.responses);
      for (const c of ["200", "400", "401", "404", "405", "429"]) expect(codes, `${p} ${c}`).toContain(c);
      expect(spec.paths[p].get.responses["200"].headers["X-RateLimit-Remaining"]).toBeDefined();
    }
    const consulta = spec.components.schemas.SerieConsulta;
    expect(consulta.required).toContain("rate_limit");
    expect(consulta.properties.historico).toBeUndefined();
    expect(consulta.properties.valor.$ref).toBe("../../schemas/serie.schema.json#/properties/valor");
  });

  it("renders docs/ with the Redoc bundle copied from node_modules (no CDN, no inline script)", async () => {
    const html = await readFile(join(site, "docs/index.html"), "utf8");
    // the server sends script-src 'self': an inline script would never run
    expect(html).toContain('<script type="module" src="init.js"></script>');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).toMatch(/script-src 'self';/);
    expect(html).not.toMatch(/script-src[^;"]*unsafe-inline/);
    expect(html).not.toMatch(/<script[^>]+src=["']https?:/);
    expect(html).not.toMatch(/https?:\/\/(cdn|unpkg|cdn\.jsdelivr)/);
    // the page may load nothing from elsewhere (Redoc's badge image and telemetry are blocked)
    expect(html).toContain(`content="default-src 'self';`);
    const init = await readFile(join(site, "docs/init.js"), "utf8");
    expect(init).toContain('import { init } from "./redoc.standalone.js"');
    expect(init).toContain('init("../api/v1/openapi.json"');
    expect(init).toContain("disableTelemetry: true");
    const bundle = await readFile(join(site, "docs/redoc.standalone.js"), "utf8");
    expect(bundle).toBe(await readFile(REDOC_BUNDLE, "utf8"));
    expect(bundle).toContain("export{RedocStandalone,hydrate,init}");
  });

  it("links every published JSON Schema from docs/, each of which exists", async () => {
    const html = await readFile(join(site, "docs/index.html"), "utf8");
    const links = [...html.matchAll(/href="\.\.\/(schemas\/[^"]*)"/g)].map((m) => m[1]!);
    const published = files.filter((f) => /^schemas\/.+\.schema\.json$/.test(f)).sort();
    expect(published.length).toBeGreaterThan(0);
    expect(links.sort()).toEqual(published);
    expect(html).not.toContain('href="../schemas/"');
  });

  it("fails with a clear message naming the Redoc bundle's path when it is missing", () => {
    const missing = join(REPO_ROOT, "node_modules", "@redocly", "cli", "lib", "chunks", "nao-existe.js");
    expect(() => docsFiles([], missing)).toThrow(/renderizador Redoc não foi encontrado em node_modules\/@redocly\/cli\/lib\/chunks\/nao-existe\.js \(ENOENT\)/);
    expect(() => docsFiles([], missing)).toThrow(/versão exata no package\.json/);
  });
});
