import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { escapeXml, renderFeed } from "../../pipeline/events/feed.ts";
import { EVENTOS_LIMITE, emptyEventos, eventoId, nextEventos, type EventosFile } from "../../pipeline/events/model.ts";
import type { SeriesChange } from "../../pipeline/history/changes.ts";
import { FIXTURES, cleanup, editPage, readJson, replay, replayDir, tempSite } from "../helpers/pipeline.ts";
import { schemaErrors } from "./helpers.ts";
import { allSeries } from "../../pipeline/sources/index.ts";

// The recorded pages end on 25/09/2026; the clock is pinned after them (COTACAO_NOW in the CLI).
const NOW1 = "2026-09-27T12:00:00-03:00";
const NOW2 = "2026-09-28T12:00:00-03:00";
const NOW3 = "2026-09-29T12:00:00-03:00";

/**
 * "Before" pages: the real pages one day earlier and with two values the sources later revised.
 * CEPEA boi gordo without its latest day (04/09/2026) and with 20/08/2026 at 345,20 instead of
 * 345,70; Scot's MT reference praça (Cuiabá) at 322,00 instead of 326,00 on 05/08/2026 (each column R$ 4 lower, its base along).
 */
async function beforePages(): Promise<string> {
  const dir = await replayDir();
  await editPage(dir, "cepea/boi-gordo.html", (h) =>
    h.replace(/<tr>\s*<td>04\/09\/2026<\/td>[\s\S]*?<\/tr>/, "").replace(/(<td>20\/08\/2026<\/td>\s*<td>)345,70/, "$1345,20"),
  );
  // every column of the row moves with the cash price, as Scot's own correction would
  await editPage(dir, "scot/boi-gordo.html", (h) =>
    h.replace(/MT Cuiabá\*<\/td>[\s\S]*?329,50/, (row) => {
      const shift: Record<string, string> = { "326,00": "322,00", "330,00": "326,00", "320,50": "316,50", "324,50": "320,50", "325,50": "321,50", "329,50": "325,50" };
      // and its "# base" against SP follows the price (322 ÷ 346,03 − 1 = −6,94 %)
      return row.replace(/\d{3},\d{2}/g, (v) => shift[v] ?? v).replace(">-5,81<", ">-6,94<");
    }),
  );
  return dir;
}

async function text(dir: string, rel: string): Promise<string> {
  return readFile(join(dir, rel), "utf8");
}

describe("events of two updates on real pages", () => {
  let site: string;
  let before: string;
  let first: EventosFile;
  let second: EventosFile;
  let feed: string;
  let rerun: Awaited<ReturnType<typeof replay>>;

  beforeAll(async () => {
    site = await tempSite();
    before = await beforePages();
    const r1 = await replay(before, site, NOW1);
    expect(r1.exitCode).toBe(0);
    first = await readJson(site, "api/v1/eventos.json");
    const r2 = await replay(FIXTURES, site, NOW2);
    expect(r2.exitCode).toBe(0);
    second = await readJson(site, "api/v1/eventos.json");
    feed = await text(site, "api/v1/feed.xml");
    rerun = await replay(FIXTURES, site, NOW3);
  });
  afterAll(() => cleanup(site, before));

  it("the first run (empty history) records one cotacao_atualizada and no price change", () => {
    expect(first.eventos.map((e) => e.tipo)).toEqual(["cotacao_atualizada"]);
    const e = first.eventos[0]!;
    expect(e.criado_em).toBe(NOW1);
    if (e.tipo !== "cotacao_atualizada") throw new Error("tipo");
    expect(e.dados.series).toHaveLength(allSeries().length);
    expect(e.dados.series.find((s) => s.serie === "boi_gordo")).toEqual({
      serie: "boi_gordo",
      path: "api/v1/cotacao/boi_gordo.json",
      unidade: "@",
      data: "2026-09-03",
      valor: 347.6,
      dias_novos: 14,
      revisoes: 0,
    });
  });

  it("the second run records the new day, the revised latest day and the revised past day", () => {
    const novos = second.eventos.filter((e) => e.criado_em === NOW2);
    expect(novos.map((e) => [e.tipo, "serie" in e.dados ? e.dados.serie : null])).toEqual([
      ["cotacao_atualizada", null],
      ["price_changed", "boi_gordo"],
      ["price_changed", "boi_gordo/MT"],
      ["historico_revisado", "boi_gordo"],
    ]);
    const [resumo, boi, mt, revisado] = novos;
    expect(resumo!.dados).toEqual({
      series: [
        { serie: "boi_gordo", path: "api/v1/cotacao/boi_gordo.json", unidade: "@", data: "2026-09-04", valor: 347.7, dias_novos: 1, revisoes: 1 },
        { serie: "boi_gordo/MT", path: "api/v1/cotacao/boi_gordo/MT.json", unidade: "@", data: "2026-08-05", valor: 326, dias_novos: 0, revisoes: 1 },
      ],
      dias_novos: 1,
      revisoes: 2,
    });
    expect(boi!.dados).toEqual({
      serie: "boi_gordo",
      produto: "boi_gordo",
      nome: "Boi gordo",
      uf: null,
      unidade: "@",
      fonte: "cepea",
      path: "api/v1/cotacao/boi_gordo.json",
      anterior: { data: "2026-09-03", valor: 347.6 },
      atual: { data: "2026-09-04", valor: 347.7 },
      variacao: { absoluta: 0.1, percentual: 0.03 },
      dias: 1,
      dias_novos: ["2026-09-04"],
    });
    expect(mt!.dados).toMatchObject({
      serie: "boi_gordo/MT",
      uf: "MT",
      fonte: "scot",
      anterior: { data: "2026-08-05", valor: 322 },
      atual: { data: "2026-08-05", valor: 326 },
      variacao: { absoluta: 4, percentual: 1.24 },
      dias: 0,
      dias_novos: [],
    });
    expect(revisado!.dados).toMatchObject({ serie: "boi_gordo", revisoes: [{ data: "2026-08-20", anterior: 345.2, atual: 345.7 }] });
  });

  it("keeps older events below the new ones (newest first) with unique ids", () => {
    expect(second.eventos.at(-1)).toEqual(first.eventos[0]);
    expect(second.atualizado).toBe(NOW2);
    const ids = second.eventos.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^evt_[0-9a-f]{20}$/);
  });

  it("writes one event per line and validates against schemas/eventos.schema.json", async () => {
    const raw = await text(site, "api/v1/eventos.json");
    const lines = raw.split("\n").filter((l) => l.trimStart().startsWith('{"id":'));
    expect(lines).toHaveLength(second.eventos.length);
    expect(schemaErrors("eventos.schema.json", second)).toEqual([]);
    expect(schemaErrors("eventos.schema.json", { ...second, eventos: [{ ...second.eventos[1], dados: { serie: "boi_gordo" } }] })).not.toEqual([]);
  });

  it("a third run with the same pages adds no event and changes no byte of the data or the description", () => {
    expect(rerun.exitCode).toBe(0);
    expect(rerun.changes).toEqual([]);
    // status.json records the run's attempt (its own rules); nothing else may change
    expect(rerun.written.filter((p) => p !== "api/v1/status.json")).toEqual([]);
  });

  it("the feed is well-formed Atom with one entry per event, in pt-BR", () => {
    expect(XMLValidator.validate(feed)).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@", isArray: (name) => name === "entry" || name === "link" }).parse(feed);
    const f = doc.feed;
    expect(f["@xmlns"]).toBe("http://www.w3.org/2005/Atom");
    expect(f["@xml:lang"]).toBe("pt-BR");
    for (const k of ["id", "title", "updated", "author"]) expect(f[k], k).toBeTruthy();
    expect(f.author.name).toBe("Cotação Aberta");
    expect(f.updated).toBe(NOW2);
    expect(f.link.some((l: any) => l["@rel"] === "self" && String(l["@href"]).endsWith("api/v1/feed.xml"))).toBe(true);
    expect(f.entry).toHaveLength(second.eventos.length);
    const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2})$/;
    const ids = new Set<string>();
    for (const [i, entry] of (f.entry as any[]).entries()) {
      const e = second.eventos[i]!;
      expect(entry.id).toContain(e.id);
      ids.add(entry.id);
      expect(entry.updated).toMatch(rfc3339);
      expect(entry.updated).toBe(e.criado_em);
      expect(typeof entry.title).toBe("string");
      expect(entry.summary["#text"].length).toBeGreaterThan(10);
      // a human page first: the series' row on the dashboard; the JSON beside it
      const links = entry.link as any[];
      const html = links.find((l) => l["@rel"] === "alternate");
      const json = links.find((l) => l["@rel"] === "related");
      expect(html["@type"]).toBe("text/html");
      expect(json["@type"]).toBe("application/json");
      expect(json["@href"]).toMatch(/^https:\/\/.+\/api\/v1\/cotacao.*\.json$/);
      const site = String(f.link.find((l: any) => l["@rel"] === "alternate")["@href"]);
      if (e.tipo === "cotacao_atualizada") expect(html["@href"]).toBe(site);
      else {
        const serie = e.dados.serie;
        expect(html["@href"]).toBe(`${site}#serie-${serie.replace("/", "-")}`);
        expect(json["@href"]).toBe(`${site}api/v1/cotacao/${serie}.json`);
      }
      expect(entry.category["@term"]).toBe(e.tipo);
    }
    expect(ids.size).toBe(second.eventos.length);
    const titles = (f.entry as any[]).map((e) => e.title);
    expect(titles[0]).toBe("Cotações atualizadas: 1 dia novo e 2 revisões em 2 séries");
    // series and sources by name, dates in the Brazilian format
    expect(titles[1]).toBe("Boi gordo (CEPEA/ESALQ-USP): R$ 347,70/@ em 04/09/2026, alta de 0,03%");
    expect(titles[2]).toBe("Boi gordo (MT, Scot Consultoria): R$ 326,00/@ em 05/08/2026, alta de 1,24%");
    expect(titles[3]).toBe("Boi gordo (CEPEA/ESALQ-USP): 1 dia revisado no histórico");
    const entries = f.entry as any[];
    expect(entries[0].summary["#text"]).toMatch(/^Séries com dados novos: Boi gordo \(CEPEA\/ESALQ-USP\), R\$ 347,70\/@ em 04\/09\/2026; Boi gordo \(MT, Scot Consultoria\), R\$ 326,00\/@ em 05\/08\/2026\.$/);
    expect(entries[2].summary["#text"]).toBe(
      "Boi gordo em Mato Grosso passou de R$ 322,00/@ para R$ 326,00/@ (o valor de 05/08/2026 foi revisado): +R$ 4,00 (+1,24%). Fonte: Scot Consultoria.",
    );
    expect(entries[2].link.find((l: any) => l["@rel"] === "alternate")["@href"]).toMatch(/^https:\/\/.+\/#serie-boi_gordo-MT$/);
    expect(entries[3].link.find((l: any) => l["@rel"] === "alternate")["@href"]).toMatch(/^https:\/\/.+\/#serie-boi_gordo$/);
    expect(entries[3].summary["#text"]).toBe("CEPEA/ESALQ-USP revisou um dia passado de Boi gordo (CEPEA/ESALQ-USP): 20/08/2026 de R$ 345,20/@ para R$ 345,70/@.");
    // no id nor ISO date reaches a reader
    for (const e of entries) expect(`${e.title} ${e.summary["#text"]}`).not.toMatch(/boi_gordo|\bscot\b|\bcepea\b|\d{4}-\d{2}-\d{2}/);
  });
});

describe("events model", () => {
  const change = (over: Partial<SeriesChange>): SeriesChange => ({
    id: "milho",
    added: ["2026-09-05"],
    revised: [],
    campos: [],
    rebase: [],
    pracasChanged: false,
    antes: { data: "2026-09-04", valor: 70.93 },
    depois: { data: "2026-09-05", valor: 70.1 },
    ...over,
  });

  it("no change, no event: the file is the previous one", () => {
    const prev = nextEventos(null, [change({})], new Date(NOW1));
    expect(nextEventos(prev, [], new Date(NOW2))).toEqual(prev);
    expect(nextEventos(null, [], new Date(NOW2))).toEqual(emptyEventos());
  });

  it("a new day with the same price is an update but not a price change", () => {
    const f = nextEventos(null, [change({ depois: { data: "2026-09-05", valor: 70.93 } })], new Date(NOW1));
    expect(f.eventos.map((e) => e.tipo)).toEqual(["cotacao_atualizada"]);
  });

  it("a falling price: negative variation computed on centavos", () => {
    const f = nextEventos(null, [change({})], new Date(NOW1));
    const e = f.eventos.find((x) => x.tipo === "price_changed")!;
    expect(e.dados).toMatchObject({ variacao: { absoluta: -0.83, percentual: -1.17 }, dias: 1 });
    expect(renderFeed(f)).toContain("queda de 1,17%");
  });

  it("ids depend on content, not on the clock; replaying the same change adds nothing", () => {
    const a = nextEventos(null, [change({})], new Date(NOW1));
    const b = nextEventos(null, [change({})], new Date(NOW3));
    expect(a.eventos.map((e) => e.id)).toEqual(b.eventos.map((e) => e.id));
    expect(nextEventos(a, [change({})], new Date(NOW3))).toEqual(a);
    expect(eventoId("price_changed", [1])).not.toBe(eventoId("historico_revisado", [1]));
  });

  it("is bounded to the newest events", () => {
    let f: EventosFile | null = null;
    for (let d = 1; d <= 30; d++) {
      const dia = `2026-10-${String(d).padStart(2, "0")}`;
      f = nextEventos(f, [change({ added: [dia], antes: { data: "2026-09-30", valor: 70 + d / 100 }, depois: { data: dia, valor: 71 + d / 100 } })], new Date(NOW1), 25);
    }
    expect(f!.eventos).toHaveLength(25);
    expect(f!.limite).toBe(25);
    expect(EVENTOS_LIMITE).toBeGreaterThanOrEqual(100);
    const newest = f!.eventos.find((e) => e.tipo === "price_changed")!;
    expect(newest.dados).toMatchObject({ atual: { data: "2026-10-30" } });
  });

  it("escapes XML in feed text", () => {
    expect(escapeXml(`a & b <c> "d" 'e'`)).toBe("a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos;");
  });
});
