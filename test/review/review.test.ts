/**
 * Adversarial review of issue 10 ("Never publish a wrong number"). One `it` per finding, each
 * asserting the CORRECT behaviour: a failing test here is a real hole. Recorded pages only, no
 * network, no timing.
 */
import { cp, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseAceite } from "../../pipeline/check/revisions.ts";
import { createReplayLoader } from "../../pipeline/fetch/replay.ts";
import { QuedaSimulada, recoverInterrupted, setFalhasDePublicacao, STAGING_DIR } from "../../pipeline/publish/journal.ts";
import { runUpdate } from "../../pipeline/run/update.ts";
import { FIXTURES, cleanup, editPage, readJson, replay, replayDir, tempSite, testConfig } from "../helpers/pipeline.ts";

const NOW1 = "2026-09-27T12:00:00-03:00";

async function update(pages: string, site: string, now: string, aceitar: string[] = []) {
  const at = new Date(now);
  return runUpdate({ loader: createReplayLoader(pages, () => at, {}), config: testConfig(site), now: at, env: {}, aceitar: aceitar.map(parseAceite), log: () => {} });
}

/** Replaces the numeric cells of one Scot "Mercado Físico" row (cell 0 = à vista, 1 = 30 dias, 3 = base, 4/5 = Funrural, 6/8 = Senar). */
function scotRow(html: string, label: string, cells: Record<number, string>, newLabel = label): string {
  const pos = html.indexOf(`padding-left: 10px'>${label}</td>`);
  if (pos < 0) throw new Error(`praça ${label} não está na página`);
  const end = html.indexOf("</tr>", pos);
  let seg = html.slice(pos, end).replace(`>${label}</td>`, `>${newLabel}</td>`);
  const found = [...seg.matchAll(/(<td[^>]*>)([\s\S]*?)(<\/td>)/g)];
  for (const i of Object.keys(cells).map(Number).sort((a, b) => b - a)) {
    const m = found[i]!;
    const start = m.index! + m[1]!.length;
    seg = seg.slice(0, start) + cells[i] + seg.slice(start + m[2]!.length);
  }
  return html.slice(0, pos) + seg + html.slice(end);
}

function dropScotRow(html: string, label: string): string {
  const pos = html.indexOf(`padding-left: 10px'>${label}</td>`);
  const start = html.lastIndexOf("<tr", pos);
  const end = html.indexOf("</tr>", pos) + "</tr>".length;
  return html.slice(0, start) + html.slice(end);
}

const scotDay = (html: string, ddmmyyyy: string) => html.replaceAll("05/08/2026", ddmmyyyy);

/** The CEPEA indicator table with every day moved `days` later and each R$ / US$ multiplied. */
function cepeaShift(html: string, days: number, brl: number, usd: number): string {
  const start = html.indexOf("imagenet-indicador1");
  const end = html.indexOf("</table>", start);
  const fmt = (x: number) => x.toFixed(2).replace(".", ",");
  const num = (s: string) => Number(s.replace(/\./g, "").replace(",", "."));
  const seg = html
    .slice(start, end)
    .replace(
      /<td>(\d\d)\/(\d\d)\/(\d{4})<\/td>(\s*)<td>([\d.,]+)<\/td>(\s*<td>[^<]*<\/td>\s*<td>[^<]*<\/td>\s*)<td>([\d.,]+)<\/td>/g,
      (_m, d, mo, y, s1, v, mid, u) => {
        const dt = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d) + days));
        const dd = `${String(dt.getUTCDate()).padStart(2, "0")}/${String(dt.getUTCMonth() + 1).padStart(2, "0")}/${dt.getUTCFullYear()}`;
        return `<td>${dd}</td>${s1}<td>${fmt(num(v) * brl)}</td>${mid}<td>${fmt(num(u) * usd)}</td>`;
      },
    );
  return html.slice(0, start) + seg + html.slice(end);
}

const quote = (f: { pracas: Array<{ praca: string; valor?: number; base_sp?: number }> }, praca: string) => f.pracas.find((q) => q.praca === praca);

describe("review of issue 10: holes in the gates", () => {
  let base: string;
  beforeAll(async () => {
    base = await tempSite();
    expect((await replay(FIXTURES, base, NOW1)).exitCode).toBe(0);
  });
  afterAll(() => cleanup(base));
  const dirs: string[] = [];
  afterEach(async () => {
    setFalhasDePublicacao({});
    await cleanup(...dirs.splice(0));
  });
  async function fresh(): Promise<{ site: string; pages: string }> {
    const site = await tempSite();
    await cp(base, site, { recursive: true });
    const pages = await replayDir();
    dirs.push(site, pages);
    return { site, pages };
  }

  it("F1: a praça that switches unit (@ -> '(kg)') is still jump-checked: Araçatuba 345,50/@ then 59,00/kg (+156 %) is refused", async () => {
    const { site, pages } = await fresh();
    await editPage(pages, "scot/boi-gordo.html", (h) =>
      scotRow(scotDay(h, "06/08/2026"), "SP Araçatuba", { 0: "59,00", 1: "59,50", 4: "58,00", 5: " 58,50", 6: " 58,90 ", 8: " 59,40 " }, "SP Araçatuba (kg)"),
    );
    const r = await update(pages, site, NOW1);
    const sp = await readJson(site, "api/v1/cotacao/boi_gordo/SP.json");
    expect(quote(sp, "Araçatuba")?.valor).not.toBe(59);
    expect(r.exitCode).toBe(1);
  });

  it("F2: Scot's '# base' (base_sp) must agree with the praça's price: base 80,00 % for a praça quoted at the SP price is refused", async () => {
    const { site, pages } = await fresh();
    await editPage(pages, "scot/boi-gordo.html", (h) => scotRow(scotDay(h, "06/08/2026"), "SP Araçatuba", { 3: "80,00" }));
    const r = await update(pages, site, NOW1);
    const sp = await readJson(site, "api/v1/cotacao/boi_gordo/SP.json");
    expect(quote(sp, "Araçatuba")?.base_sp).not.toBe(80);
    expect(r.exitCode).toBe(1);
  });

  it("F3: a praça absent on the previous day is judged against its last quote: Araçatuba 345,50 (05/08), absent (06/08), 899,00 (07/08) is refused", async () => {
    const { site, pages } = await fresh();
    const original = await (await import("node:fs/promises")).readFile(join(pages, "scot/boi-gordo.html"), "utf8");
    await editPage(pages, "scot/boi-gordo.html", (h) => dropScotRow(scotDay(h, "06/08/2026"), "SP Araçatuba"));
    expect((await update(pages, site, NOW1)).exitCode).toBe(0);
    await editPage(pages, "scot/boi-gordo.html", () =>
      scotRow(scotDay(original, "07/08/2026"), "SP Araçatuba", { 0: "899,00", 1: "905,00", 4: "885,00", 5: " 891,00", 6: " 897,00 ", 8: " 903,00 " }),
    );
    const r = await update(pages, site, NOW1);
    const sp = await readJson(site, "api/v1/cotacao/boi_gordo/SP.json");
    expect(sp.historico.at(-1).pracas?.["Araçatuba"]).not.toBe(899);
    expect(r.exitCode).toBe(1);
  });

  it("F4: CEPEA's US$ column is judged against the last stored day: US$ 67,78 (04/09) then 92,93 (07/09, +37 %) is refused", async () => {
    const { site, pages } = await fresh();
    await editPage(pages, "cepea/boi-gordo.html", (h) => cepeaShift(h, 21, 1, 1.4));
    const r = await update(pages, site, "2026-10-05T12:00:00-03:00");
    const boi = await readJson(site, "api/v1/cotacao/boi_gordo.json");
    const e = boi.historico.find((x: { data: string }) => x.data === "2026-09-07");
    expect(e?.valor_usd ?? null).not.toBe(92.93);
    expect(r.exitCode).toBe(1);
  });

  it("F5: bounded revisions do not ratchet: three pages each +1,4 % on the same days cannot move 04/09 more than 1,5 % from what was first published", async () => {
    const { site, pages } = await fresh();
    const original = await (await import("node:fs/promises")).readFile(join(pages, "cepea/boi-gordo.html"), "utf8");
    for (const k of [1, 2, 3]) {
      const f = 1.014 ** k;
      await editPage(pages, "cepea/boi-gordo.html", () => cepeaShift(original, 0, f, f));
      await update(pages, site, `2026-09-27T1${k}:00:00-03:00`);
    }
    const boi = await readJson(site, "api/v1/cotacao/boi_gordo.json");
    const last = boi.historico.find((x: { data: string }) => x.data === "2026-09-04");
    expect(Math.abs(last.valor / 347.7 - 1)).toBeLessThanOrEqual(0.015);
  });

  it("F6: a journal whose staged files are gone is not reported as a finished publish (the tree would be a mix)", async () => {
    const { site, pages } = await fresh();
    await editPage(pages, "scot/boi-gordo.html", (h) => scotDay(h, "06/08/2026"));
    let renames = 0;
    setFalhasDePublicacao({
      antes: (p, k) => {
        if (p.tipo === "renomear" && ++renames === 6) throw new QuedaSimulada(k);
      },
    });
    await expect(update(pages, site, NOW1)).rejects.toBeInstanceOf(QuedaSimulada);
    setFalhasDePublicacao({});
    // the staging directory is lost (cleaned by hand, or its entries not durable after a power cut)
    await rm(join(site, STAGING_DIR), { recursive: true, force: true });
    await expect(recoverInterrupted(site)).rejects.toThrow();
  });

  it("F7: an acceptance that matched a field of a page that was nevertheless held is reported as not used", async () => {
    const { site, pages } = await fresh();
    await editPage(pages, "scot/boi-gordo.html", (h) =>
      scotRow(h, "SP Barretos", { 0: "362,50", 1: "367,00", 4: "356,50", 5: " 361,00", 6: " 362,00 ", 8: " 366,50 " }),
    );
    const r = await update(pages, site, NOW1, ["boi_gordo/SP@2026-08-05=362.5"]);
    expect(r.outcomes.find((o) => o.source === "scot" && o.page === "boi-gordo")?.ok).toBe(false);
    expect(r.avisos.some((a) => a.includes("não usada") && a.includes("boi_gordo/SP"))).toBe(true);
  });

  it("F8 (cosmetic): a page that only revises published days is not reported as 'dados novos'", async () => {
    const { site, pages } = await fresh();
    await editPage(pages, "cepea/boi-gordo.html", (h) => cepeaShift(h, 0, 1.01, 1.01));
    const at = new Date(NOW1);
    const log: string[] = [];
    const r = await runUpdate({ loader: createReplayLoader(pages, () => at, {}), config: testConfig(site), now: at, env: {}, log: (l) => log.push(l) });
    const change = r.changes.find((c) => c.id === "boi_gordo")!;
    expect(change.added).toEqual([]);
    expect(change.revised.length).toBeGreaterThan(0);
    expect(log.find((l) => l.startsWith("cepea/boi-gordo:"))).not.toMatch(/dados novos/);
  });
});
