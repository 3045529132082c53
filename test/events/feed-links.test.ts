/**
 * The feed's human links land on the dashboard's own anchors: the same id for every series of the
 * catalogue, computed by the feed (pipeline/publish/nomes.ts) and by the page (serve/web/dom.ts).
 */
import { describe, expect, it } from "vitest";
import { ancoraSerie } from "../../pipeline/publish/nomes.ts";
import { ancoraSerie as ancoraDoPainel } from "../../pipeline/serve/web/dom.ts";
import { allSeries } from "../../pipeline/sources/index.ts";

describe("feed links and dashboard anchors", () => {
  it("agree for every series", () => {
    const ids = allSeries().map((d) => d.id);
    expect(ids.length).toBeGreaterThan(5);
    for (const id of ids) expect(ancoraSerie(id), id).toBe(ancoraDoPainel(id));
    expect(ancoraSerie("boi_gordo/MS")).toBe("serie-boi_gordo-MS");
  });
});
