/**
 * Audit: "à vista" and "30 D" swapped in one group of Scot's "Descontados" only (Funrural, or
 * Senar). The cross-column checks tied each discounted price to the gross one and Funrural to
 * Senar, but never a group's 30-day price to its own cash price: with Funrural's two columns
 * swapped every ratio stayed in range (Funrural à vista / à vista 0,997, Funrural 30 dias /
 * 30 dias 0,971), and Barretos' Funrural à vista was published at 344,50 instead of 340,00 (and
 * its 30 dias at 340,00 instead of 344,50), in every praça. A group's 30-day price is never below
 * its cash price (1,008–1,014 on every recorded praça, Funrural and Senar alike). Replays into
 * temp dirs only.
 */
import { describe, expect, it } from "vitest";
import { editPage, readJson, replay } from "../helpers/pipeline.ts";
import { publicadoEPaginasDoDescribe } from "../helpers/publicado.ts";

/** Scot's Mercado Físico header with Funrural's "à vista" and "30 D" swapped (Preços Brutos and Senar as they are). */
function funruralTrocado(h: string): string {
  const at = h.indexOf("Mercado F&iacute;sico");
  const vista = 'padding-right: 20px"> &agrave; vista<';
  const d30 = 'border-right: 1px solid #000000;"> 30 D<';
  const resto = h.slice(at);
  if (!resto.includes(vista) || !resto.includes(d30)) throw new Error("cabeçalho do Funrural não encontrado");
  return h.slice(0, at) + resto.replace(vista, 'padding-right: 20px"> 30 D<').replace(d30, 'border-right: 1px solid #000000;"> &agrave; vista<');
}

/**
 * A day when RS Pelotas' Senar à vista equals its gross price (12,50/kg; 12,45 on the recorded
 * day, whose kg rounding happens to make the swapped Funrural equal Senar and trip another ratio).
 */
function pelotasSenarIgualAoBruto(h: string): string {
  const m = /(RS Pelotas \(kg\)<\/td>[\s\S]*?12,45[\s\S]*?)12,45/.exec(h);
  if (!m) throw new Error("linha de RS Pelotas não encontrada");
  return h.replace(m[0], `${m[1]}12,50`);
}

describe("audit: Scot's Funrural à vista and 30 D swapped", () => {
  const par = publicadoEPaginasDoDescribe((pages) => editPage(pages, "scot/boi-gordo.html", (h) => funruralTrocado(pelotasSenarIgualAoBruto(h.replaceAll("05/08/2026", "06/08/2026")))));

  it("rejects the page, and no Funrural price is published under the other's name", async () => {
    const { site, pages } = par();
    const r = await replay(pages, site, "2026-09-27T13:00:00-03:00");
    const o = r.outcomes.find((x) => x.source === "scot" && x.page === "boi-gordo")!;
    expect(o).toMatchObject({ ok: false, kind: "rejected" });
    expect(!o.ok && o.reason).toMatch(/boi_gordo\/SP, praça Barretos em 06\/08\/2026: Funrural 30 dias \/ Funrural à vista = 340,00 \/ 344,50 = 0,987, fora da relação esperada \(1–1,08\)/);
    const sp = await readJson(site, "api/v1/cotacao/boi_gordo/SP.json");
    expect(sp.historico.map((e: { data: string }) => e.data)).toEqual(["2026-08-05"]);
    expect(sp.pracas[0]).toMatchObject({ praca: "Barretos", funrural_avista: 340, funrural_30d: 344.5 });
  });
});
