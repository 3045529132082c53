import { cp, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAceite } from "../../pipeline/check/revisions.ts";
import { createReplayLoader } from "../../pipeline/fetch/replay.ts";
import { capturasPath, traceDay, type CapturasFile } from "../../pipeline/history/capturas.ts";
import { runUpdate } from "../../pipeline/run/update.ts";
import { SOURCES } from "../../pipeline/sources/index.ts";
import { FIXTURES, cleanup, editPage, listFiles, readJson, replay, replayDir, tempSite, testConfig } from "../helpers/pipeline.ts";

const NOW1 = "2026-09-27T12:00:00-03:00";
const NOW2 = "2026-09-28T12:00:00-03:00";

async function snapshot(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const f of await listFiles(dir)) out.set(f.slice(dir.length), await readFile(f, "utf8"));
  return out;
}

// The dashboard's index.html renders status.json's sources in its warning banner, so a page's
// new state shows there too; everything else in it (prices, days, previews) must not move.
const semAvisos = (html: string) => html.replace(/<details id="avisos"[\s\S]*?<\/details>/, "<details id=\"avisos\"></details>");

/** Only status.json and the dashboard's banner of it may differ between the two snapshots. */
function soStatusMudou(before: Map<string, string>, after: Map<string, string>): void {
  for (const [f, text] of before) {
    if (f === "/api/v1/status.json") continue;
    if (f === "/index.html") expect(semAvisos(after.get(f) ?? ""), f).toBe(semAvisos(text));
    else expect(after.get(f), f).toBe(text);
  }
  expect([...after.keys()]).toEqual([...before.keys()]);
}

async function update(pages: string, site: string, now: string, aceitar: string[] = []) {
  const at = new Date(now);
  return runUpdate({ loader: createReplayLoader(pages, () => at, {}), config: testConfig(site), now: at, env: {}, aceitar: aceitar.map(parseAceite), log: () => {} });
}

const pageStatus = async (site: string, fonte: string, pagina: string) =>
  (await readJson(site, "api/v1/status.json")).fontes.find((f: { id: string }) => f.id === fonte).paginas.find((p: { id: string }) => p.id === pagina);

describe("a published number changes only within its bound, or by an operator's word", () => {
  let base: string;
  beforeAll(async () => {
    base = await tempSite();
    expect((await replay(FIXTURES, base, NOW1)).exitCode).toBe(0);
  });
  afterAll(() => cleanup(base));

  async function fresh(): Promise<string> {
    const site = await tempSite();
    await cp(base, site, { recursive: true });
    return site;
  }

  it("every stored day is traced to the capture that brought it; a rerun adds no record and changes no byte", async () => {
    const site = await fresh();
    try {
      const log: CapturasFile = await readJson(site, capturasPath(2026));
      // one record per page of the catalogue, in the order runs visit them
      expect(log.capturas.map((c) => c.id.split("/").slice(0, 2).join("/"))).toEqual(SOURCES.flatMap((src) => src.pages.map((p) => `${src.id}/${p.id}`)));
      const boi = log.capturas[0]!;
      const page = await readFile(join(FIXTURES, "cepea/boi-gordo.html"));
      const { createHash } = await import("node:crypto");
      expect(boi).toMatchObject({ fonte: "cepea", pagina: "boi-gordo", url: "https://www.cepea.org.br/br/indicador/boi-gordo.aspx", via: null, coletado_em: "2026-09-05T22:39:00-03:00", registrado_em: NOW1 });
      expect(boi.sha256).toBe(createHash("sha256").update(page).digest("hex"));
      expect(boi.bytes).toBe(page.length);
      expect(boi.dias).toHaveLength(15);
      const index = await readJson(site, "api/v1/index.json");
      let days = 0;
      for (const s of index.series) {
        // index.json's paths are relative to its own directory
        const f = await readJson(site, `api/v1/${s.path}`);
        for (const e of f.historico) {
          const t = traceDay([log], s.id, e.data);
          expect(t.origem, `${s.id} ${e.data}`).not.toBeNull();
          expect(t.origem!.dias).toContain(e.data);
          days++;
        }
      }
      expect(days).toBeGreaterThan(60);
      const before = await snapshot(site);
      const r = await replay(FIXTURES, site, NOW2);
      expect(r.exitCode).toBe(0);
      expect(await snapshot(site)).toEqual(before);
    } finally {
      await cleanup(site);
    }
  });

  it("Barretos at 863,75 on the published 05/08/2026 is refused whole: no byte changes but status.json, exit 1", async () => {
    const site = await fresh();
    const pages = await replayDir();
    try {
      await editPage(pages, "scot/boi-gordo.html", (h) => h.replace(/(SP Barretos<\/td>\s*<td>)345,50/, "$1863,75"));
      const before = await snapshot(site);
      const r = await update(pages, site, NOW2);
      expect(r.exitCode).toBe(1);
      const o = r.outcomes.find((x) => x.source === "scot" && x.page === "boi-gordo")!;
      // its own columns (Funrural, Senar, 30 days) contradict it: refused, never offered for acceptance
      expect(o).toMatchObject({ ok: false, kind: "rejected" });
      expect(!o.ok && o.reason).toMatch(/praça Barretos em 05\/08\/2026: Senar à vista \/ à vista = 345,00 \/ 863,75/);
      expect(!o.ok && o.reason).toMatch(/além do limite de revisão: boi_gordo\/SP em 05\/08\/2026, valor: 345,50 → 863,75/);
      expect(!o.ok && o.reason).not.toMatch(/aceitar-revisao/);
      const after = await snapshot(site);
      soStatusMudou(before, after);
      const p = await pageStatus(site, "scot", "boi-gordo");
      expect(p.estado).toBe("rejected");
      expect(p.revisoes_suspeitas).toBeUndefined();
      // the other page of the same source still updates (nothing new here) and stays ok
      expect(r.outcomes.find((x) => x.page === "vaca-gorda")).toMatchObject({ ok: true });
    } finally {
      await cleanup(site, pages);
    }
  });

  it("a self-consistent Scot revision beyond the bound (MS C. Grande +5 %, every column and the base along) is held as a suspicious revision", async () => {
    const site = await fresh();
    const pages = await replayDir();
    try {
      await editPage(pages, "scot/boi-gordo.html", (h) =>
        h.replace(/MS C\. Grande<\/td>[\s\S]*?341,50/, (row) => {
          const x: Record<string, string> = { "338,00": "355,00", "342,00": "359,00", "-2,32": "2,59", "332,50": "349,50", "336,50": "353,50", "337,50": "354,50", "341,50": "358,50" };
          return row.replace(/-?\d{1,3},\d{2}/g, (v) => x[v] ?? v);
        }),
      );
      const before = await snapshot(site);
      const r = await update(pages, site, NOW2);
      expect(r.exitCode).toBe(1);
      const o = r.outcomes.find((x) => x.source === "scot" && x.page === "boi-gordo")!;
      expect(o).toMatchObject({ ok: false, kind: "revisao_suspeita" });
      expect(!o.ok && o.reason).toMatch(/nada dela foi mesclado: boi_gordo\/MS em 05\/08\/2026, valor: 338,00 → 355,00/);
      expect(!o.ok && o.reason).toMatch(/npm run update -- --aceitar-revisao boi_gordo\/MS@2026-08-05=355/);
      const after = await snapshot(site);
      soStatusMudou(before, after);
      const p = await pageStatus(site, "scot", "boi-gordo");
      expect(p.estado).toBe("revisao_suspeita");
      expect(p.revisoes_suspeitas).toContainEqual({ serie: "boi_gordo/MS", data: "2026-08-05", campo: "valor", antes: 338, depois: 355, aceitar: "boi_gordo/MS@2026-08-05=355" });
      // accepting valor covers the reference praça's own copy of the same number, not the other columns
      expect(p.revisoes_suspeitas.map((c: { campo: string }) => c.campo)).toEqual(
        expect.arrayContaining(["valor", "valor_30d", "funrural_avista", "senar_avista", "pracas.C. Grande"]),
      );
    } finally {
      await cleanup(site, pages);
    }
  });

  it("a CEPEA revision beyond the bound is held, then applied when the operator accepts exactly it, and recorded as accepted", async () => {
    const site = await fresh();
    const pages = await replayDir();
    try {
      // 03/09/2026: 347,60 (US$ 68,10) revised to 357,60 (US$ 70,06), +2,9 %: beyond boi gordo's 1,5 %
      await editPage(pages, "cepea/boi-gordo.html", (h) => h.replace(/<td>347,60<\/td>([\s\S]*?)<td>68,10<\/td>/, "<td>357,60</td>$1<td>70,06</td>"));
      const held = await update(pages, site, NOW2);
      expect(held.exitCode).toBe(1);
      expect((await pageStatus(site, "cepea", "boi-gordo")).revisoes_suspeitas.map((c: { aceitar: string }) => c.aceitar)).toEqual([
        "boi_gordo@2026-09-03=357.6",
        "boi_gordo@2026-09-03:valor_usd=70.06",
      ]);
      expect((await readJson(site, "api/v1/cotacao/boi_gordo.json")).historico.find((e: { data: string }) => e.data === "2026-09-03").valor).toBe(347.6);

      // accepting only the R$ value is not enough: the US$ value is a published number too
      expect((await update(pages, site, NOW2, ["boi_gordo@2026-09-03=357.6"])).exitCode).toBe(1);

      const ok = await update(pages, site, NOW2, ["boi_gordo@2026-09-03=357.6", "boi_gordo@2026-09-03:valor_usd=70,06"]);
      expect(ok.exitCode).toBe(0);
      expect((await readJson(site, "api/v1/cotacao/boi_gordo.json")).historico.find((e: { data: string }) => e.data === "2026-09-03")).toEqual({ data: "2026-09-03", valor: 357.6, valor_usd: 70.06 });
      expect((await pageStatus(site, "cepea", "boi-gordo")).estado).toBe("ok");
      const log: CapturasFile = await readJson(site, capturasPath(2026));
      const t = traceDay([log], "boi_gordo", "2026-09-03");
      expect(t.origem!.registrado_em).toBe(NOW1);
      expect(t.revisoes.map((x) => [x.captura.registrado_em, x.revisao])).toEqual([
        [NOW2, { serie: "boi_gordo", data: "2026-09-03", campo: "valor", antes: 347.6, depois: 357.6, aceita: true }],
        [NOW2, { serie: "boi_gordo", data: "2026-09-03", campo: "valor_usd", antes: 68.1, depois: 70.06, aceita: true }],
      ]);
      const ev = await readJson(site, "api/v1/eventos.json");
      expect(ev.eventos.filter((e: { criado_em: string }) => e.criado_em === NOW2).map((e: { tipo: string }) => e.tipo)).toEqual(["cotacao_atualizada", "historico_revisado"]);
    } finally {
      await cleanup(site, pages);
    }
  });

  it("a revisoesAceitas entry in cotacao.config.json accepts the same way; a bad entry is a clear configuration error", async () => {
    const { mkdtemp, writeFile } = await import("node:fs/promises");
    const { tmpdir } = await import("node:os");
    const { loadConfig } = await import("../../pipeline/config.ts");
    const site = await fresh();
    const pages = await replayDir();
    const root = await mkdtemp(join(tmpdir(), "cotacao-config-"));
    try {
      await editPage(pages, "cepea/milho.html", (h) => h.replace(/<td>70,93<\/td>([\s\S]*?)<td>13,83<\/td>/, "<td>72,93</td>$1<td>14,22</td>"));
      await writeFile(
        join(root, "cotacao.config.json"),
        JSON.stringify({ revisoesAceitas: [{ serie: "milho", data: "2026-09-04", valor: 72.93 }, { serie: "milho", data: "2026-09-04", campo: "valor_usd", valor: 14.22 }] }),
      );
      const at = new Date(NOW2);
      const r = await runUpdate({ loader: createReplayLoader(pages, () => at, {}), config: loadConfig({ root, publicDir: site, env: {} }), now: at, env: {}, log: () => {} });
      expect(r.exitCode).toBe(0);
      expect((await readJson(site, "api/v1/cotacao/milho.json")).valor).toBe(72.93);
      await writeFile(join(root, "cotacao.config.json"), JSON.stringify({ revisoesAceitas: [{ serie: "milho", data: "04/09/2026", valor: "72,93" }] }));
      expect(() => loadConfig({ root, publicDir: site, env: {} })).toThrow(/cotacao.config.json: revisoesAceitas\.0\.data: .*; revisoesAceitas\.0\.valor: /);
    } finally {
      await cleanup(site, pages, root);
    }
  });

  it("a day's praças are exactly the page's: a praça gone from a later page of the same day is removed only when accepted", async () => {
    const site = await fresh();
    const pages = await replayDir();
    try {
      await editPage(pages, "scot/boi-gordo.html", (h) => h.replace(/<tr class='conteudo'>\s*<td[^>]*>SP Araçatuba<\/td>[\s\S]*?<\/tr>/, ""));
      const held = await update(pages, site, NOW2);
      expect(held.exitCode).toBe(1);
      const p = await pageStatus(site, "scot", "boi-gordo");
      expect(p.revisoes_suspeitas).toEqual([
        { serie: "boi_gordo/SP", data: "2026-08-05", campo: "pracas.Araçatuba", antes: 345.5, depois: null, aceitar: "boi_gordo/SP@2026-08-05:pracas.Araçatuba=nenhum" },
      ]);
      const ok = await update(pages, site, NOW2, ["boi_gordo/SP@2026-08-05:pracas.Araçatuba=nenhum"]);
      expect(ok.exitCode).toBe(0);
      const sp = await readJson(site, "api/v1/cotacao/boi_gordo/SP.json");
      expect(Object.keys(sp.historico[0].pracas)).not.toContain("Araçatuba");
      expect(sp.pracas.map((q: { praca: string }) => q.praca)).not.toContain("Araçatuba");
      expect(sp.valor).toBe(345.5);
    } finally {
      await cleanup(site, pages);
    }
  });

  it("a Scot page 12 days after the last stored day with Barretos at 999,00 is rejected as a jump", async () => {
    const site = await fresh();
    const pages = await replayDir();
    try {
      await editPage(pages, "scot/boi-gordo.html", (h) =>
        h.replaceAll("05/08/2026", "17/08/2026").replace(/(SP Barretos<\/td>\s*<td>)345,50/, "$1999,00"),
      );
      const before = await snapshot(site);
      const r = await update(pages, site, NOW2);
      expect(r.exitCode).toBe(1);
      const o = r.outcomes.find((x) => x.source === "scot" && x.page === "boi-gordo")!;
      expect(o).toMatchObject({ ok: false, kind: "rejected" });
      expect(!o.ok && o.reason).toMatch(/boi_gordo\/SP: salto de 189,15% de 05\/08\/2026 \(R\$ 345,50\) para 17\/08\/2026 \(R\$ 999,00\), acima do limite de 13,09%/);
      const after = await snapshot(site);
      soStatusMudou(before, after);
    } finally {
      await cleanup(site, pages);
    }
  });

  it("the bezerro page with its R$ and US$ labels swapped changes nothing", async () => {
    const site = await fresh();
    const pages = await replayDir();
    try {
      await editPage(pages, "cepea/bezerro.html", (h) => {
        const a = h.indexOf("Valor R$");
        const b = h.indexOf("Valor US$");
        expect(a).toBeGreaterThan(0);
        expect(b).toBeGreaterThan(a);
        return h.slice(0, a) + "Valor US$" + h.slice(a + "Valor R$".length, b) + "Valor R$" + h.slice(b + "Valor US$".length);
      });
      const before = await readFile(join(site, "api/v1/cotacao/bezerro.json"), "utf8");
      const r = await update(pages, site, NOW2);
      expect(r.exitCode).toBe(1);
      const o = r.outcomes.find((x) => x.page === "bezerro")!;
      expect(o.ok).toBe(false);
      expect(await readFile(join(site, "api/v1/cotacao/bezerro.json"), "utf8")).toBe(before);
    } finally {
      await cleanup(site, pages);
    }
  });
});
