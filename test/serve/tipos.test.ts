import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FileCache } from "../../pipeline/serve/files.ts";

describe("content types of what the site publishes", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "cotacao-tipos-"));
    await mkdir(join(dir, "api", "v1"), { recursive: true });
    for (const f of ["LICENSE", "CITATION.cff", "favicon.svg", "api/v1/historico.csv", "api/v1/outro/LICENSE.bin", "SEMNOME"]) {
      await mkdir(join(dir, f, ".."), { recursive: true });
      await writeFile(join(dir, f), "x");
    }
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("LICENSE is text and CITATION.cff is YAML; an unknown name stays octet-stream", async () => {
    const files = new FileCache(dir);
    const tipo = async (rel: string) => {
      const r = await files.resolve(rel);
      if (r.kind !== "file") throw new Error(`${rel}: ${r.kind}`);
      return r.entry.type;
    };
    expect(await tipo("LICENSE")).toBe("text/plain; charset=utf-8");
    expect(await tipo("CITATION.cff")).toBe("text/yaml; charset=utf-8");
    expect(await tipo("favicon.svg")).toBe("image/svg+xml");
    expect(await tipo("api/v1/historico.csv")).toBe("text/csv; charset=utf-8");
    expect(await tipo("SEMNOME")).toBe("application/octet-stream");
    expect(await tipo("api/v1/outro/LICENSE.bin")).toBe("application/octet-stream");
  });
});
