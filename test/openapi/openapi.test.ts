import { execFile } from "node:child_process";
import { readFile, readdir } from "node:fs/promises";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../pipeline/config.ts";
import { JSDELIVR_URL, LOCAL_URL, SITE_URL } from "../../pipeline/openapi/servers.ts";
import { docsFiles, REDOC_BUNDLE, REDOC_LOGO_URL } from "../../pipeline/openapi/docs.ts";
import { renderOpenApi } from "../../pipeline/openapi/build.ts";
import { lerAmostra } from "../../pipeline/openapi/exemplos.ts";
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
/**
 * A path template as a regex: each parameter matches only its enum when it has one (so
 * "historico/boi_gordo/MS.excel.csv" is not taken for the UF "MS.excel"), else a segment.
 */
function templateRegex(path: string, params: Array<{ name: string; schema?: { enum?: string[] } }> = []): RegExp {
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const partes = path.split(/(\{[^}]+\})/);
  return new RegExp(
    `^${partes
      .map((p) => {
        const m = /^\{([^}]+)\}$/.exec(p);
        if (!m) return esc(p);
        const valores = params.find((x) => x.name === m[1])?.schema?.enum;
        return valores ? `(?:${valores.map(esc).join("|")})` : "[^/]+";
      })
      .join("")}$`,
  );
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
    // recommended rules: no error and no warning either
    expect(report.problems.map((p: { ruleId: string; severity: string; message: string }) => `${p.severity} ${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals.errors).toBe(0);
    expect(report.totals.warnings).toBe(0);
  }, 120_000);

  it("is OpenAPI 3.1 with the GitHub Pages, jsDelivr and local servers", () => {
    expect(spec.openapi).toBe("3.1.0");
    expect(spec.servers.map((s: { url: string }) => s.url + "/")).toEqual([SITE_URL, JSDELIVR_URL, LOCAL_URL]);
    expect(spec.info.license.identifier).toBe("CC-BY-4.0");
  });

  it("describes every published file, and every static path exists", () => {
    const published = files.filter((f) => /^(api\/v1\/.+\.(json|csv|xml)|schemas\/.+\.schema\.json)$/.test(f));
    const resolver = (x: any): any => (x?.$ref ? x.$ref.split("/").slice(1).reduce((o: any, k: string) => o[k], spec) : x);
    const templates = Object.entries(spec.paths).map(([p, item]: [string, any]) => [p, templateRegex(p.slice(1), (item.get?.parameters ?? []).map(resolver))] as const);
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

  it("bundles the published JSON Schemas into components (no external $ref) and every reference resolves", async () => {
    const refs = new Set<string>();
    JSON.stringify(spec, (k, v) => {
      if (k === "$ref" && typeof v === "string") refs.add(v);
      return v;
    });
    expect([...refs].filter((r) => !r.startsWith("#/"))).toEqual([]);
    for (const r of refs) {
      const target = r
        .slice(2)
        .split("/")
        .reduce((o: any, k) => (o === undefined ? undefined : o[k.replace(/~1/g, "/").replace(/~0/g, "~")]), spec);
      expect(target, r).toBeDefined();
    }
    const ok = (p: string) => spec.paths[p].get.responses["200"].content["application/json"].schema.$ref;
    expect(ok("/api/v1/cotacao.json")).toBe("#/components/schemas/Cotacao");
    expect(ok("/api/v1/cotacao/{produto}/{uf}.json")).toBe("#/components/schemas/Serie");
    expect(ok("/api/v1/eventos.json")).toBe("#/components/schemas/Eventos");
    // the component is the published schema, with its refs rewritten and nothing else changed
    const serie = JSON.parse(await readFile(join(site, "schemas/serie.schema.json"), "utf8"));
    const { $schema: _s, $id: _i, ...resto } = serie;
    const reescrito = JSON.parse(
      JSON.stringify(resto).replace(/"\$ref":"common\.schema\.json#\/\$defs\/([a-zA-Z]+)"/g, (_m, k: string) => `"$ref":"#/components/schemas/${k[0]!.toUpperCase()}${k.slice(1)}"`),
    );
    expect(spec.components.schemas.Serie).toEqual(reescrito);
    expect(spec.components.schemas.HistoricoEntrada.properties.data.$ref).toBe("#/components/schemas/Data");
    expect(JSON.stringify(spec)).not.toContain('"$defs"');
    expect(JSON.stringify(spec)).not.toContain('"$id"');
  });

  it("takes its examples from the fixed sample (not the run's data), and they validate against the schemas", async () => {
    const amostra = lerAmostra();
    const ex = (p: string) => spec.paths[p].get.responses["200"].content["application/json"].examples.amostra.value;
    expect(ex("/api/v1/cotacao.json")).toEqual(amostra["api/v1/cotacao.json"]);
    const checks: Array<[string, string]> = [
      ["/api/v1/cotacao.json", "cotacao.schema.json"],
      ["/api/v1/cotacao/uf/{uf}.json", "cotacao.schema.json"],
      ["/api/v1/cotacao/{produto}.json", "serie.schema.json"],
      ["/api/v1/cotacao/{produto}/{uf}.json", "serie.schema.json"],
      ["/api/v1/index.json", "index.schema.json"],
      ["/api/v1/eventos.json", "eventos.schema.json"],
    ];
    // a schema change that the sample does not follow fails here: refresh it (pipeline/openapi/exemplos.ts)
    for (const [p, schema] of checks) expect(schemaErrors(schema, ex(p)), `${p}: amostra desatualizada? rode npx tsx pipeline/openapi/exemplos.ts`).toEqual([]);
    expect(ex("/api/v1/cotacao/{produto}.json").historico.length).toBeLessThanOrEqual(3);
    const csv = spec.paths["/api/v1/historico/{produto}.csv"].get.responses["200"].content["text/csv"].examples.amostra.value;
    // the sample CSV has the columns the site's CSV has
    expect(csv.split("\n")[0]).toBe((await readFile(join(site, "api/v1/historico/boi_gordo.csv"), "utf8")).split("\n")[0]);
  });

  it("is byte-identical after a run that changes only data", async () => {
    const outro = await tempSite();
    try {
      await replay(FIXTURES, outro, "2026-10-15T08:30:00-03:00");
      expect(await readFile(join(outro, "api/v1/cotacao.json"), "utf8")).not.toBe(await readFile(join(site, "api/v1/cotacao.json"), "utf8"));
      expect(await readFile(join(outro, "api/v1/openapi.json"), "utf8")).toBe(await readFile(join(site, "api/v1/openapi.json"), "utf8"));
    } finally {
      await cleanup(outro);
    }
    // and it reads nothing but schemas/ from the site's files
    const soSchemas = new Map<string, string>();
    for (const f of files.filter((f) => f.startsWith("schemas/"))) soSchemas.set(f, await readFile(join(site, f), "utf8"));
    expect(renderOpenApi(soSchemas)).toBe(await readFile(join(site, "api/v1/openapi.json"), "utf8"));
  }, 120_000);

  it("gives every operation code samples in curl, JavaScript fetch and Python requests, against its own server", () => {
    for (const [p, item] of Object.entries<any>(spec.paths)) {
      // every path has one operation: GET, or POST for the romaneio upload
      const samples = (item.get ?? item.post)["x-codeSamples"];
      expect(samples.map((x: { label: string }) => x.label), p).toEqual(["curl", "fetch", "requests"]);
      expect(samples.map((x: { lang: string }) => x.lang)).toEqual(["Shell", "JavaScript", "Python"]);
      const base = item.servers ? LOCAL_URL : SITE_URL;
      for (const x of samples) {
        const url = /"(https?:\/\/[^"]+)"/.exec(x.source)?.[1];
        expect(url, `${p} ${x.label}`).toBeDefined();
        expect(url!.startsWith(base), `${p} ${x.label}: ${url}`).toBe(true);
        // the concrete URL matches the operation's path template
        expect(templateRegex(p.slice(1)).test(new URL(url!).pathname.slice(new URL(base).pathname.length)), `${p}: ${url}`).toBe(true);
      }
    }
    const py = spec.paths["/api/v1/cotacao.json"].get["x-codeSamples"][2].source;
    expect(py).toContain("import requests");
    expect(py).toContain("r.json()");
    expect(spec.paths["/api/v1/cotacao"].get["x-codeSamples"][0].source).toContain("X-API-Key");
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
    expect(consulta.properties.valor.$ref).toBe("#/components/schemas/Serie/properties/valor");
    // the query interface's issue-13 behaviours
    const cot = spec.paths["/api/v1/cotacao"].get;
    expect(cot.responses["200"].headers["X-Cotacao-Aviso"].description).toContain("sem-serie-estadual");
    expect(cot.responses["200"].headers["X-Cotacao-Parametros-Ignorados"]).toBeDefined();
    expect(cot.description).toContain("`boi_gordo_uf: null`");
    expect(cot.description).toContain("?produto=bezerro&uf=MS");
    expect(cot.responses["401"].description).toMatch(/só nas rotas de consulta.*Não consome a cota/);
    expect(spec.info.description).toContain("os arquivos estáticos não contam na cota");
  });

  it("describes POST /api/v1/romaneio: both request bodies, the romaneio key, every status, the schema of the answer", () => {
    const op = spec.paths["/api/v1/romaneio"].post;
    expect(spec.paths["/api/v1/romaneio"].get).toBeUndefined();
    expect(spec.paths["/api/v1/romaneio"].servers.map((s: { url: string }) => s.url + "/")).toEqual([LOCAL_URL]);
    expect(Object.keys(op.requestBody.content)).toEqual(["image/png", "image/jpeg", "image/webp", "application/pdf", "multipart/form-data"]);
    expect(op.requestBody.content["multipart/form-data"].schema.required).toEqual(["arquivo"]);
    expect(op.security).toEqual([{ apiKeyRomaneio: [] }]);
    expect(spec.components.securitySchemes.apiKeyRomaneio).toMatchObject({ type: "apiKey", in: "header", name: "X-API-Key" });
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["200", "400", "401", "403", "413", "415", "422", "429", "503", "504"]));
    for (const [code, r] of Object.entries<any>(op.responses)) expect(r.description, code).toMatch(/[ãçéêíóõú]/);
    expect(op.responses["200"].content["application/json"].schema.$ref).toBe("#/components/schemas/Romaneio");
    expect(spec.components.schemas.Romaneio.properties.leitura.$ref).toMatch(/^#\/components\/schemas\//);
    expect(op.responses["503"].headers["Retry-After"]).toBeDefined();
    expect(op["x-codeSamples"][0].source).toContain("--data-binary @romaneio.png");
  });

  it("renders docs/ with the redoc package's standalone bundle (no CDN, no inline script), labels in Portuguese", async () => {
    const html = await readFile(join(site, "docs/index.html"), "utf8");
    // the server sends script-src 'self': an inline script would never run
    expect(html).toContain('<script src="redoc.standalone.js" defer></script>');
    expect(html).toContain('<script src="init.js" defer></script>');
    expect(html).toContain('<html lang="pt-BR">');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).toMatch(/script-src 'self';/);
    expect(html).not.toMatch(/script-src[^;"]*unsafe-inline/);
    expect(html).not.toMatch(/<script[^>]+src=["']https?:/);
    expect(html).not.toMatch(/https?:\/\/(cdn|unpkg|cdn\.jsdelivr)/);
    expect(html).toContain(`content="default-src 'self';`);
    const init = await readFile(join(site, "docs/init.js"), "utf8");
    expect(init).toContain('Redoc.init("../api/v1/openapi.json"');
    expect(init).toContain('"requestSamples":"Exemplos de requisição"');
    expect(init).toContain('"query Parameters":"Parâmetros de consulta"');
    const bundle = await readFile(join(site, "docs/redoc.standalone.js"), "utf8");
    expect(REDOC_BUNDLE).toContain(join("node_modules", "redoc", "bundles"));
    // the package's bundle, minus its source-map comment and with the CDN logo pointed at nothing
    const original = await readFile(REDOC_BUNDLE, "utf8");
    expect(original).toContain(REDOC_LOGO_URL);
    expect(bundle).toBe(original.replace(/\n?\/\/# sourceMappingURL=\S+\s*$/, "\n").replaceAll(REDOC_LOGO_URL, "data:,"));
    expect(bundle).not.toMatch(/https:\/\/cdn\.redoc\.ly/);
    expect(/\/\/# sourceMappingURL=\S+\s*$/.test(bundle)).toBe(false);
    expect(await readFile(join(site, "docs/redoc.standalone.js.LICENSE.txt"), "utf8")).toContain("MIT");
  });

  it("weighs under 400 KB on the wire (gzip, as GitHub Pages serves it)", async () => {
    const pesos: Record<string, number> = {};
    for (const f of ["docs/index.html", "docs/init.js", "docs/redoc.standalone.js", "api/v1/openapi.json"]) {
      pesos[f] = gzipSync(await readFile(join(site, f)), { level: 6 }).length;
    }
    const total = Object.values(pesos).reduce((a, b) => a + b, 0);
    expect(total, JSON.stringify(pesos)).toBeLessThan(400 * 1024);
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
    const missing = join(REPO_ROOT, "node_modules", "redoc", "bundles", "nao-existe.js");
    expect(() => docsFiles([], missing)).toThrow(/renderizador Redoc não foi encontrado em node_modules\/redoc\/bundles\/nao-existe\.js \(ENOENT\)/);
    expect(() => docsFiles([], missing)).toThrow(/pacote redoc/);
  });
});
