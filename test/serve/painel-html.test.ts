import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../pipeline/config.ts";
import { PipelineError } from "../../pipeline/domain/errors.ts";
import { renderSite } from "../../pipeline/site/assemble.ts";
import { dadosIniciais, dadosPublicados, PAINEL_TEMPLATE as TEMPLATE, paginaDoSite, paginaPainel, type DadosIniciais, type DadosPainel } from "../../pipeline/site/painel.ts";
import { loadConfig } from "../../pipeline/config.ts";
import type { SerieFile } from "../../pipeline/domain/publicados.ts";

async function dados(): Promise<DadosPainel> {
  return dadosPublicados(join(REPO_ROOT, "public"));
}

describe("the dashboard's index.html, written at build", () => {
  it("is the same bytes for the same data, and changes with a price or a day", async () => {
    const t = await readFile(TEMPLATE, "utf8");
    const d = await dados();
    expect(d.agg).not.toBeNull();
    const a = paginaPainel(t, d);
    expect(paginaPainel(t, structuredClone(d))).toBe(a);
    const maisCaro = structuredClone(d);
    maisCaro.agg!.soja = d.agg!.soja! + 1;
    expect(paginaPainel(t, maisCaro)).not.toBe(a);
    const outroDia = structuredClone(d);
    outroDia.agg!.datas.milho = "2026-12-01";
    const b = paginaPainel(t, outroDia);
    expect(b).not.toBe(a);
    expect(b).toContain("01/12/2026");
  });

  it("writes the prices, their days and the link previews from the aggregate", async () => {
    const t = await readFile(TEMPLATE, "utf8");
    const d = await dados();
    const html = paginaPainel(t, d);
    const agg = d.agg!;
    const [y, m, dia] = agg.datas.boi_gordo_cepea_sp!.split("-");
    const boi = `R$ ${agg.boi_gordo_cepea_sp!.toFixed(2).replace(".", ",")}/@`;
    expect(html).toContain(`<meta property="og:description" content="Boi gordo ${boi} (${dia}/${m}/${y})`);
    expect(html).toContain(`<time datetime="${agg.datas.boi_gordo_cepea_sp}">${dia}/${m}/${y}</time>`);
    expect(html).toMatch(/<meta name="twitter:description" content="[^"]+">/);
    // no marker left behind
    expect(html).not.toMatch(/<!--(meta|json-ld|dados|avisos|precos|atualizado)-->/);
  });

  it("carries the first paint's part of index.json, not the whole catalogue", async () => {
    const t = await readFile(TEMPLATE, "utf8");
    const d = await dados();
    const html = paginaPainel(t, d);
    const dadosPagina = JSON.parse(/<script type="application\/json" id="dados-painel">(.*?)<\/script>/.exec(html)![1]!) as DadosIniciais;
    expect(dadosPagina).toEqual(dadosIniciais(d.index!));
    expect(dadosPagina.total).toBe(d.index!.series.length);
    // the cards' series (the chart opens on the first of index.json), in index.json's order
    expect(dadosPagina.series.map((s) => s.id)).toEqual(["boi_gordo", "vaca_gorda", "soja", "milho", "bezerro"]);
    expect(d.index!.series[0]!.id).toBe("boi_gordo");
    const boi = d.index!.series.find((s) => s.id === "boi_gordo")!;
    expect(dadosPagina.series[0]).toEqual({ ...boi, license: undefined, csv_excel: undefined, pracas_csv: undefined, nacional: undefined });
    // the per-state table's: boi gordo and vaca gorda in each state, with what the table shows
    const estados = dadosPagina.estados.map((s) => s.id);
    expect(estados.sort()).toEqual(d.index!.ufs.flatMap((u) => [`boi_gordo/${u.uf}`, `vaca_gorda/${u.uf}`]).sort());
    const ms = d.index!.series.find((s) => s.id === "boi_gordo/MS")!;
    expect(dadosPagina.estados.find((s) => s.id === "boi_gordo/MS")).toEqual({
      id: ms.id, path: ms.path, recente: ms.recente, csv: ms.csv, produto: ms.produto, uf: ms.uf, praca: ms.praca, fonte: ms.fonte, unidade: ms.unidade, ultima_data: ms.ultima_data, valor: ms.valor,
    });
    expect([...dadosPagina.series, ...dadosPagina.estados].some((s) => s.id === "novilha_gorda/MS")).toBe(false);
    // data inside a <script>: no "<" that could close it
    const mau = structuredClone(d);
    mau.index!.fontes[0]!.termos = "</script><script>alert(1)</script>";
    const pagina = paginaPainel(t, mau);
    expect(pagina).not.toContain("<script>alert");
    expect(JSON.parse(/<script type="application\/json" id="dados-painel">(.*?)<\/script>/.exec(pagina)![1]!).fontes[0].termos).toBe("</script><script>alert(1)</script>");
  });

  it("escapes what comes from the data, in attributes, text and the JSON-LD", async () => {
    const t = await readFile(TEMPLATE, "utf8");
    const d = await dados();
    const mau = structuredClone(d);
    const s = mau.index!.series.find((x) => x.id === "boi_gordo")!;
    s.regiao = `</script><script>alert("x")</script> & "aspas"`;
    mau.index!.fontes[0]!.nome = "</script><img src=x onerror=alert(1)>";
    const html = paginaPainel(t, mau);
    expect(html).not.toContain("<script>alert");
    expect(html).not.toContain("<img src=x");
    expect(html).toContain("&lt;/script&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &quot;aspas&quot;");
    const ld = /<script type="application\/ld\+json">\n([\s\S]*?)\n\s*<\/script>/.exec(html)![1]!;
    expect(JSON.parse(ld).isBasedOn[0].name).toBe("</script><img src=x onerror=alert(1)>");
  });

  it("builds without published data (a fresh clone before the first build)", async () => {
    const t = await readFile(TEMPLATE, "utf8");
    const vazio = await mkdtemp(join(tmpdir(), "cotacao-painel-"));
    try {
      const d = await dadosPublicados(vazio);
      expect(d).toEqual({ agg: null, index: null, status: null, distribuicao: [] });
      const html = paginaPainel(t, d);
      expect(html).toContain("Carregando preços…");
      expect(html).not.toContain("application/ld+json");
    } finally {
      await rm(vazio, { recursive: true, force: true });
    }
  });

  it("names the template and the marker when one is missing", () => {
    expect(() => paginaPainel("<html><!--meta--></html>", { agg: null, index: null, status: null, distribuicao: [] })).toThrow(PipelineError);
    expect(() => paginaPainel("<html><!--meta--></html>", { agg: null, index: null, status: null, distribuicao: [] })).toThrow(/pipeline\/site\/painel\.html.*<!--json-ld-->/);
  });

  it("lists in the Dataset's distribution only files that exist", async () => {
    const d = await dados();
    const t = await readFile(TEMPLATE, "utf8");
    const sem = paginaPainel(t, { ...d, distribuicao: ["index.json"] });
    const ld = JSON.parse(/<script type="application\/ld\+json">\n([\s\S]*?)\n\s*<\/script>/.exec(sem)![1]!);
    expect(ld.distribution.map((x: { contentUrl: string }) => x.contentUrl.replace(/^.*\/api\/v1\//, ""))).toEqual(["index.json"]);
  });

  it("is part of the site: assembly writes it from the run's own files, as committed", async () => {
    const d = await dados();
    expect(await readFile(join(REPO_ROOT, "public", "index.html"), "utf8")).toBe(paginaDoSite({ agg: d.agg, index: d.index, status: d.status }));
    const boi = JSON.parse(await readFile(join(REPO_ROOT, "public", "api", "v1", "cotacao", "boi_gordo.json"), "utf8")) as SerieFile;
    const mais = { ...boi, valor: boi.valor + 10, historico: [...boi.historico.slice(0, -1), { ...boi.historico[boi.historico.length - 1]!, valor: boi.valor + 10 }] };
    const site = renderSite(new Map([["boi_gordo", mais]]), d.status!, loadConfig({}));
    const html = site.get("index.html")!;
    expect(html).toContain(`<p class="valor" data-campo="valor"><span class="preco"><span class="sem-quebra">R$ ${(boi.valor + 10).toFixed(2).replace(".", ",")}</span>`);
  });
});
