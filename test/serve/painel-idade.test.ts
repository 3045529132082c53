import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildAssets } from "../../pipeline/serve/assets.ts";
import { ancoraSerie, diasUteis, frescor, hojeBrasilia, hrefDoIndice, idadeBR } from "../../pipeline/serve/web/dom.ts";

describe("the dashboard's dates, ages and anchors", () => {
  it("counts business days and calls a price fresh up to 3 of them", () => {
    // Friday 2026-09-25 -> Monday 09-28 is 1 business day; -> Thursday 10-01 is 4
    expect(diasUteis("2026-09-25", "2026-09-28")).toBe(1);
    expect(diasUteis("2026-09-25", "2026-10-01")).toBe(4);
    expect(frescor("2026-09-25", "2026-09-30", { maxIdadeDias: 5 })).toBe("em_dia");
    expect(frescor("2026-09-25", "2026-10-01", { maxIdadeDias: 10 })).toBe("envelhecendo");
    expect(frescor("2026-09-25", "2026-10-01", { maxIdadeDias: 5 })).toBe("atrasado");
    // status.json's verdict wins even on the same day
    expect(frescor("2026-09-25", "2026-09-25", { atrasadaNoStatus: true })).toBe("atrasado");
    expect([0, 1, 58].map(idadeBR)).toEqual(["hoje", "há 1 dia", "há 58 dias"]);
  });

  it("reads today in Brasília, not UTC", () => {
    // 01:30 UTC on the 23rd is still the 22nd in Brasília (UTC-3)
    expect(hojeBrasilia(new Date("2026-11-23T01:30:00Z"))).toBe("2026-11-22");
  });

  it("resolves index.json paths in both forms and writes the anchors the feed links to", () => {
    expect(hrefDoIndice("cotacao/boi_gordo/MS.json")).toBe("api/v1/cotacao/boi_gordo/MS.json");
    expect(hrefDoIndice("api/v1/cotacao/boi_gordo/MS.json")).toBe("api/v1/cotacao/boi_gordo/MS.json");
    expect(ancoraSerie("boi_gordo/MS")).toBe("serie-boi_gordo-MS");
    expect(ancoraSerie("vaca_gorda")).toBe("serie-vaca_gorda");
  });

  it("a second build of the same sources and data writes nothing", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cotacao-assets-"));
    try {
      expect(await buildAssets(dir)).toContain("assets/painel.js");
      expect(await buildAssets(dir)).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
