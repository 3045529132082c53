import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../pipeline/config.ts";
import { renderAssets } from "../../pipeline/serve/assets.ts";

describe("generated assets", () => {
  it("public/assets matches its sources (run the build to regenerate)", async () => {
    for (const [rel, text] of await renderAssets()) {
      const committed = await readFile(join(REPO_ROOT, "public", rel), "utf8").catch(() => null);
      expect(committed, `public/${rel} desatualizado: rode npm run build`).toBe(text);
    }
  });

  it("never writes source data through innerHTML", async () => {
    for (const [rel, text] of await renderAssets()) {
      if (rel.endsWith(".js") && !rel.includes("painel")) expect(text).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML/);
    }
    const src = await readFile(join(REPO_ROOT, "pipeline/serve/web/painel.ts"), "utf8");
    expect(src).not.toMatch(/innerHTML|insertAdjacentHTML|document\.write/);
  });
});
