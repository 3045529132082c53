import { mkdtemp, readFile, rm, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { listFiles } from "./helpers/pipeline.ts";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { publishFiles } from "../pipeline/publish/write.ts";
import { FileValidator } from "../pipeline/validate/ajv.ts";

async function tree(dir: string): Promise<string[]> {
  return (await listFiles(dir)).map((f) => relative(dir, f));
}

describe("publishFiles", () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "cotacao-write-"));
    await mkdir(join(root, "api/v1/historico"), { recursive: true });
    await writeFile(join(root, "api/v1/historico/milho.csv"), "data,valor\n2026-09-03,71.06\n");
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it("writes only what changed and reports it", async () => {
    const r = await publishFiles(root, [
      { path: "api/v1/historico/milho.csv", text: "data,valor\n2026-09-03,71.06\n" },
      { path: "api/v1/historico/soja.csv", text: "data,valor\n2026-09-25,161\n" },
    ]);
    expect(r).toEqual({ written: ["api/v1/historico/soja.csv"], unchanged: 1, erros: [] });
    expect(await tree(root)).toEqual(["api/v1/historico/milho.csv", "api/v1/historico/soja.csv"]);
  });

  it("removes the temp files a killed run left behind", async () => {
    await writeFile(join(root, "api/v1/historico/soja.csv.tmp-4242"), "metade de um arq");
    await publishFiles(root, [{ path: "api/v1/historico/milho.csv", text: "data,valor\n2026-09-03,71.06\n" }]);
    expect(await tree(root)).toEqual(["api/v1/historico/milho.csv"]);
  });

  it("replaces nothing and leaves no temp file when any file of the set is invalid", async () => {
    const r = await publishFiles(root, [
      { path: "api/v1/historico/milho.csv", text: "data,valor\n2026-09-04,70.93\n" },
      { path: "api/v1/historico/soja.csv", text: "data,valor\n2026-09-25,161,00\n" },
    ]);
    expect(r.written).toEqual([]);
    expect(r.erros.join("\n")).toMatch(/api\/v1\/historico\/soja\.csv: linha 2/);
    expect(await readFile(join(root, "api/v1/historico/milho.csv"), "utf8")).toBe("data,valor\n2026-09-03,71.06\n");
    expect(await tree(root)).toEqual(["api/v1/historico/milho.csv"]);
  });
});

describe("FileValidator", () => {
  it("compares a CSV with its series JSON whichever comes first", () => {
    const doc = { historico: [{ data: "2026-09-04", valor: 70.93 }] };
    for (const order of [0, 1]) {
      const v = new FileValidator();
      const csv = () => v.add("api/v1/historico/milho.csv", "data,valor\n2026-09-04,70.94\n");
      const json = () => v.add("api/v1/cotacao/milho.json", "", doc);
      if (order === 0) { csv(); json(); } else { json(); csv(); }
      expect(v.report().erros.filter((e) => e.startsWith("api/v1/historico/milho.csv"))).toEqual([
        "api/v1/historico/milho.csv: linha 2: 2026-09-04,70.94 difere de api/v1/cotacao/milho.json /historico/0 (\"2026-09-04\", 70.93)",
      ]);
    }
  });
});

describe("publishFiles' gate across files", () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "cotacao-write-"));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it("refuses a set whose aggregate does not quote its series' last day, naming both files, and writes nothing", async () => {
    const { renderSite } = await import("../pipeline/site/assemble.ts");
    const { replay, tempSite, testConfig, cleanup, FIXTURES } = await import("./helpers/pipeline.ts");
    const site = await tempSite();
    try {
      await replay(FIXTURES, site, "2026-09-27T22:00:00-03:00");
      const { loadStore } = await import("../pipeline/history/store.ts");
      const store = await loadStore(site);
      const files = renderSite(store.series, store.status!, testConfig(root));
      const agg = JSON.parse(files.get("api/v1/cotacao.json")!);
      agg.soja = 999.99;
      files.set("api/v1/cotacao.json", `${JSON.stringify(agg, null, 2)}\n`);
      const r = await publishFiles(root, [...files].map(([path, text]) => ({ path, text })));
      expect(r.written).toEqual([]);
      expect(r.erros).toContainEqual(expect.stringMatching(/^api\/v1\/cotacao\.json: \/soja: 999\.99 de "2026-09-25" não confere com api\/v1\/cotacao\/soja\.json, cujo último dia é "2026-09-25" \(161\)/));
      expect(await tree(root)).toEqual([]);
    } finally {
      await cleanup(site);
    }
  }, 60_000);
});
