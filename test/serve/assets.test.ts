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
      // uPlot (a file of its own) builds its own markup, never with data
      if (rel.endsWith(".js") && rel !== "assets/painel-uplot.js") expect(text, rel).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML/);
    }
    const src = await readFile(join(REPO_ROOT, "pipeline/serve/web/painel.ts"), "utf8");
    expect(src).not.toMatch(/innerHTML|insertAdjacentHTML|document\.write/);
  });

  it("carries the licence of every package it takes code from (minification drops uPlot's own notice)", async () => {
    const assets = await renderAssets();
    const uplot = (await readFile(join(REPO_ROOT, "node_modules/uplot/LICENSE"), "utf8")).trim();
    for (const rel of ["assets/painel-uplot.js", "assets/vendor/uPlot.min.css"]) {
      expect(assets.get(rel), rel).toContain(`/*! uplot ${JSON.parse(await readFile(join(REPO_ROOT, "node_modules/uplot/package.json"), "utf8")).version}\n${uplot}\n*/`);
    }
    const dateFns = (await readFile(join(REPO_ROOT, "node_modules/date-fns/LICENSE.md"), "utf8")).trim();
    // the dashboard's script formats dates with date-fns: its notice goes with it, once
    expect(assets.get("assets/painel.js")!.split(dateFns).length - 1).toBe(1);
    // the simulator module is our code only
    expect(assets.get("assets/simulador.js")).not.toContain("/*! ");
  });
});
