/**
 * Derived files that no input of the current set produces (site/caminhos.ts): a history deleted
 * by hand, praças a history no longer has, a state aggregate of a UF no series has, a series taken
 * out of the catalogue. The build and the update remove them with their set (publish/write.ts
 * ArquivoApagado, journaled: publish/journal.ts), never a history nor a file the pipeline does not
 * write; `npm run validate` names each leftover with a fix that works. A publish killed at any step
 * of a set that removes files ends with the old tree or the new one, never a mix.
 */
import { cp, mkdir, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as cheerio from "cheerio";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runValidate } from "../../pipeline/cli/validate.ts";
import { loadConfig } from "../../pipeline/config.ts";
import { registrarProduto, removerProduto, type Produto } from "../../pipeline/domain/products.ts";
import type { SerieFile } from "../../pipeline/domain/publicados.ts";
import type { PriceRow } from "../../pipeline/domain/row.ts";
import { createReplayLoader } from "../../pipeline/fetch/replay.ts";
import { descreverPasso, JOURNAL_NAME, QuedaSimulada, setFalhasDePublicacao, type Passo } from "../../pipeline/publish/journal.ts";
import { withDataLock } from "../../pipeline/publish/lock.ts";
import { publishFiles } from "../../pipeline/publish/write.ts";
import { stringifyDoc } from "../../pipeline/render/json.ts";
import { renderSerie } from "../../pipeline/render/serie.ts";
import { runBuild } from "../../pipeline/run/build.ts";
import { runUpdate } from "../../pipeline/run/update.ts";
import { derivadosDaSerie } from "../../pipeline/site/caminhos.ts";
import { getSource, registrarFonte, removerFonte, serieDef, SOURCES } from "../../pipeline/sources/index.ts";
import type { SourceDef } from "../../pipeline/sources/types.ts";
import { fonteDeTeste } from "../helpers/fonte.ts";
import { arvore, cleanup, copiarEntradas, diferencas, FIXTURES, replay, replayComConfig, replayDir, tempSite, testConfig } from "../helpers/pipeline.ts";

const NOW = "2026-09-28T20:00:00-03:00";

/** npm run validate on a tree, its output kept. */
function validar(dir: string): { codigo: number; linhas: string[] } {
  const linhas: string[] = [];
  const { log, error } = console;
  console.log = (...a: unknown[]) => void linhas.push(a.join(" "));
  console.error = (...a: unknown[]) => void linhas.push(a.join(" "));
  try {
    return { codigo: runValidate(dir), linhas };
  } finally {
    console.log = log;
    console.error = error;
  }
}

/** The rebuild oracle: the same inputs in a fresh directory, built whole. */
async function reconstruida(site: string): Promise<Map<string, Buffer>> {
  const dir = await tempSite();
  try {
    await copiarEntradas(site, dir);
    await runBuild(testConfig(dir), new Date(NOW));
    return await arvore(dir);
  } finally {
    await cleanup(dir);
  }
}

describe("derived files no input produces are removed by the build and the update", () => {
  let pages: string;
  let base: string;
  const dirs: string[] = [];

  beforeAll(async () => {
    pages = await replayDir();
    base = await tempSite();
    const r = await replay(pages, base, NOW);
    expect(r.exitCode).toBe(0);
    expect(validar(base).codigo).toBe(0);
  }, 60_000);

  afterAll(() => cleanup(pages, base, ...dirs));

  async function copia(): Promise<string> {
    const dir = await tempSite();
    dirs.push(dir);
    await cp(base, dir, { recursive: true });
    return dir;
  }

  it("a history deleted by hand: validate names the leftovers and a fix that works; the build removes them, and only them", async () => {
    const dir = await copia();
    await rm(join(dir, "api/v1/cotacao/milho.json"));
    const antes = await arvore(dir);
    const v = validar(dir);
    expect(v.codigo).toBe(1);
    const sobra = v.linhas.find((l) => l.startsWith("  api/v1/recente/milho.json: sobra"));
    expect(sobra).toContain("api/v1/cotacao/milho.json, o histórico de que este arquivo é derivado, não existe; rode npm run build, que apaga os arquivos derivados");
    expect(sobra).toContain(`restaure-o (git checkout -- ${dir}/api/v1/cotacao/milho.json)`);

    const b = await runBuild(testConfig(dir), new Date(NOW));
    const milho = derivadosDaSerie(serieDef("milho")!, false).sort();
    expect(milho).toEqual(["api/v1/historico/milho.csv", "api/v1/historico/milho.excel.csv", "api/v1/recente/milho.json"]);
    expect(b.removidos).toEqual(milho);
    const depois = await arvore(dir);
    for (const p of milho) expect(depois.has(p)).toBe(false);
    // nothing else went: every other file of the tree is still there
    expect([...antes.keys()].filter((p) => !depois.has(p))).toEqual(milho);
    expect(validar(dir).codigo).toBe(0);
    expect(diferencas(depois, await reconstruida(dir))).toEqual([]);
    // a build with nothing new changes no byte and removes nothing
    const de_novo = await runBuild(testConfig(dir), new Date(NOW));
    expect([de_novo.written, de_novo.removidos]).toEqual([[], []]);
    expect(diferencas(await arvore(dir), depois)).toEqual([]);
  }, 60_000);

  it("praças a history no longer has (update), a UF the aggregates no longer have (build): removed; files the pipeline does not write: kept", async () => {
    const dir = await copia();
    const json = join(dir, "api/v1/cotacao/vaca_gorda/MS.json");
    const doc = JSON.parse(await readFile(json, "utf8")) as SerieFile;
    const def = serieDef("vaca_gorda/MS")!;
    const historico = doc.historico.map(({ pracas: _p, ...e }) => e);
    await writeFile(json, stringifyDoc(renderSerie({ def, source: getSource(def.fonte), historico, praca: doc.praca ?? null, pracas: doc.pracas ?? null, proveniencia: doc.proveniencia, atualizado: doc.atualizado })));
    // (the day's praças stay in its head: a state series always names them)
    // a UF no series of the aggregates has (the 18 of Scot's tables do not include AM)
    await writeFile(join(dir, "api/v1/cotacao/uf/AM.json"), await readFile(join(dir, "api/v1/cotacao/uf/SP.json")));
    // not the pipeline's, though under its folders or beside them
    const alheios: Record<string, string> = {
      "api/v1/historico/LEIAME.txt": "notas",
      "api/v1/historico/milho.csv.bak": "cópia",
      "api/v1/recente/.gitkeep": "",
      "api/v1/cotacao/uf/notas.json": "{}",
      "docs/extra.html": "<p>",
      "romaneio/vendor/x.js": "//",
      ".outro": "x",
    };
    for (const [p, t] of Object.entries(alheios)) {
      await mkdir(join(dir, p, ".."), { recursive: true });
      await writeFile(join(dir, p), t);
    }
    // Scot off: the update reads no Scot page, so the history stays without praças
    const r = await replayComConfig(pages, dir, NOW, { fontes: { scot: { ativa: false } } });
    expect(r.exitCode).toBe(0);
    const depois = await arvore(dir);
    for (const p of ["api/v1/historico/vaca_gorda/MS.pracas.csv", "api/v1/historico/vaca_gorda/MS.pracas.excel.csv"]) expect(depois.has(p), p).toBe(false);
    expect(depois.has("api/v1/historico/vaca_gorda/MS.csv")).toBe(true);
    // the update renders a UF's aggregates too: AM's is a leftover of it
    expect(depois.has("api/v1/cotacao/uf/AM.json")).toBe(false);
    for (const [p, t] of Object.entries(alheios)) expect(depois.get(p)?.toString(), p).toBe(t);
    // the same with a build, from the aggregate put back
    await writeFile(join(dir, "api/v1/cotacao/uf/AM.json"), await readFile(join(dir, "api/v1/cotacao/uf/SP.json")));
    expect(validar(dir).linhas).toContain("  api/v1/cotacao/uf/AM.json: sobra: nenhuma série do catálogo que entra nos agregados é da UF AM; rode npm run build, que apaga os arquivos derivados que nenhum histórico gera");
    const b = await runBuild(testConfig(dir), new Date(NOW));
    expect(b.removidos).toEqual(["api/v1/cotacao/uf/AM.json"]);
    for (const [p, t] of Object.entries(alheios)) expect((await readFile(join(dir, p), "utf8"))).toBe(t);
    for (const p of Object.keys(alheios)) await rm(join(dir, p));
    expect(validar(dir).codigo).toBe(0);
    expect(diferencas(await arvore(dir), await reconstruida(dir))).toEqual([]);
  }, 90_000);

  it("the incremental update with nothing new removes nothing and changes no byte", async () => {
    const dir = await copia();
    const antes = await arvore(dir);
    const r = await replay(pages, dir, NOW);
    expect(r.exitCode).toBe(0);
    expect(diferencas(await arvore(dir), antes)).toEqual([]);
  }, 60_000);

  describe("a build killed at any step of a set that removes files", () => {
    afterEach(() => setFalhasDePublicacao({}));

    it("ends, once recovered, with the old tree or the new one (never a mix), and validate passes on the new one", async () => {
      const velha = await copia();
      await rm(join(velha, "api/v1/cotacao/milho.json"));
      const antes = await arvore(velha);
      // the steps of the uninterrupted build
      const nova = await copia();
      await rm(join(nova, "api/v1/cotacao/milho.json"));
      const passos: Passo[] = [];
      setFalhasDePublicacao({ antes: (p) => void passos.push(p) });
      await runBuild(testConfig(nova), new Date(NOW));
      setFalhasDePublicacao({});
      const depois = await arvore(nova);
      const apagar = passos.flatMap((p, k) => (p.tipo === "apagar" ? [k] : []));
      expect(apagar).toHaveLength(3);
      const commit = passos.findIndex((p) => p.tipo === "diario_confirmado");
      const renomear = passos.findIndex((p) => p.tipo === "renomear");
      // before the commit point, at the commit, among the renames, at each removal, after them
      const instantes = [...new Set([commit - 1, commit, renomear, ...apagar, apagar.at(-1)! + 1])];
      for (const k of instantes) {
        const dir = await tempSite();
        dirs.push(dir);
        await cp(velha, dir, { recursive: true });
        setFalhasDePublicacao({
          antes: (_p, i) => {
            if (i === k) throw new QuedaSimulada(i);
          },
        });
        await expect(runBuild(testConfig(dir), new Date(NOW)), `passo ${k}`).rejects.toBeInstanceOf(QuedaSimulada);
        setFalhasDePublicacao({});
        const onde = `queda no passo ${k} (${descreverPasso(passos[k]!)})`;
        if (k > commit) {
          // killed among the removals: some derived files gone, others not
          const largada = await arvore(dir);
          expect(largada.has(JOURNAL_NAME), onde).toBe(true);
        }
        const log: string[] = [];
        await withDataLock(dir, { esperar: false, log: (l) => log.push(l) }, async () => {});
        expect(diferencas(await arvore(dir), k <= commit ? antes : depois), onde).toEqual([]);
        if (k > commit) expect(log.join("\n"), onde).toMatch(/concluída a partir do diário: \d+ arquivo\(s\) no conjunto, \d+ substituído\(s\) agora, 3 arquivo\(s\) derivado\(s\) que o conjunto não tem mais apagado\(s\)/);
        // the next build finishes the job in any case
        await runBuild(testConfig(dir), new Date(NOW));
        expect(diferencas(await arvore(dir), depois), `${onde}, depois do build`).toEqual([]);
      }
      expect(validar(nova).codigo).toBe(0);
    }, 300_000);

    it("a publish removes only through its journal: a set with errors removes nothing; a path both written and removed, or outside the tree, is refused", async () => {
      const dir = await mkdtemp(join(tmpdir(), "cotacao-sobras-"));
      dirs.push(dir);
      await mkdir(join(dir, "api/v1/recente"), { recursive: true });
      await writeFile(join(dir, "api/v1/recente/x.json"), "{}");
      await writeFile(join(dir, "LEIAME"), "a");
      const r1 = await publishFiles(dir, [{ path: "LEIAME", text: "b" }, { apagar: "LEIAME" }]);
      expect(r1.erros).toEqual(["LEIAME: o conjunto escreve e apaga este arquivo (erro do pipeline)"]);
      const r2 = await publishFiles(dir, [{ apagar: "../fora" }, { apagar: ".cotacao.lock" }]);
      expect(r2.erros).toHaveLength(2);
      expect(await readFile(join(dir, "LEIAME"), "utf8")).toBe("a");
      const r3 = await publishFiles(dir, [{ path: "LEIAME", text: "b" }, { apagar: "api/v1/recente/x.json" }, { apagar: "api/v1/recente/nao-existe.json" }]);
      expect(r3).toEqual({ written: ["LEIAME"], removidos: ["api/v1/recente/x.json"], unchanged: 0, erros: [] });
      // the folder it left empty goes too (git keeps none)
      expect([...(await arvore(dir)).keys()]).toEqual(["LEIAME"]);
      await expect(readFile(join(dir, "api/v1/recente/x.json"))).rejects.toMatchObject({ code: "ENOENT" });
    });
  });
});

// ---------------------------------------------------------------- a series out of the catalogue

const PRODUTO = "novilha_sobra" as Produto;
const PAGINA = `<!DOCTYPE html><html><body><table id="novilha">
<tr><th>Data</th><th>UF</th><th>Valor</th></tr>
<tr><td>24/09/2026</td><td>GO</td><td>300,50</td></tr>
<tr><td>25/09/2026</td><td>GO</td><td>301,00</td></tr>
<tr><td>24/09/2026</td><td>-</td><td>310,00</td></tr>
<tr><td>25/09/2026</td><td>-</td><td>311,25</td></tr>
</table></body></html>`;

/** A made-up source of one page; `comGO`: whether its catalogue has the GO series. */
function fonte(comGO: boolean): SourceDef {
  return fonteDeTeste("sobra", [
    {
      id: "novilha",
      path: "/novilha",
      titulo: "Novilha de teste",
      diasUteis: true,
      hasTable: (html) => html.includes('id="novilha"'),
      parse(html) {
        const $ = cheerio.load(html);
        const rows: PriceRow[] = $("#novilha tr")
          .slice(1)
          .toArray()
          .map((tr) => {
            const [d, uf, v] = $(tr)
              .find("td")
              .toArray()
              .map((td) => $(td).text().trim());
            const [dd, mm, yyyy] = d!.split("/");
            return { fonte: "sobra" as PriceRow["fonte"], produto: PRODUTO, uf: uf === "-" ? null : (uf as PriceRow["uf"]), praca: null, data: `${yyyy}-${mm}-${dd}`, valor: Number(v!.replace(",", ".")), unidade: "@" as const, extras: {} };
          })
          .filter((r) => comGO || r.uf === null);
        return { rows, avisos: [] };
      },
      series: [
        { produto: PRODUTO, uf: null, unidade: "@", regiao: "Brasil (média de teste)" },
        ...(comGO ? [{ produto: PRODUTO, uf: "GO" as const, unidade: "@" as const, regiao: "Goiás (teste)", praca: "Goiás (média)" }] : []),
      ],
    },
  ]);
}

describe("a series taken out of the catalogue", () => {
  let raiz: string;
  let site: string;
  let paginas: string;
  const at = new Date(NOW);

  const update = async () => {
    const config = loadConfig({ publicDir: site, env: {}, root: join(FIXTURES, "no-config") });
    return runUpdate({ loader: createReplayLoader(paginas, () => at, {}), config, now: at, env: {}, log: () => {} });
  };

  beforeAll(async () => {
    registrarProduto(PRODUTO, { nome: "Novilha de sobra", tipo: "gado_arroba", unidade: "@", faixa: { "@": [100, 1000] }, saltoMaximoPct: 10, revisaoMaximaPct: 1.5 });
    registrarFonte(fonte(true));
    raiz = await mkdtemp(join(tmpdir(), "cotacao-sobra-"));
    site = join(raiz, "public");
    paginas = join(raiz, "paginas");
    for (const src of SOURCES.map((s) => s.id as string).filter((id) => id !== "sobra")) await cp(join(FIXTURES, src), join(paginas, src), { recursive: true });
    await mkdir(join(paginas, "sobra"), { recursive: true });
    await writeFile(join(paginas, "sobra", "novilha.html"), PAGINA);
    const r = await update();
    expect(r.exitCode).toBe(0);
    expect(validar(site).codigo).toBe(0);
  }, 60_000);

  afterAll(async () => {
    removerFonte("sobra");
    removerProduto(PRODUTO);
    await rm(raiz, { recursive: true, force: true });
  });

  it("build and update refuse while its history is in the site, saying how to take it out; once out, the build removes its derived files and keeps the history", async () => {
    const go = `api/v1/cotacao/${PRODUTO}/GO.json`;
    const historico = await readFile(join(site, go));
    const derivados = derivadosDaSerie({ produto: PRODUTO, uf: "GO" }, false).sort();
    removerFonte("sobra");
    registrarFonte(fonte(false));
    const antes = await arvore(site);
    const recusa = new RegExp(`${go}: histórico de uma série que o catálogo \\(pipeline/sources/\\) não tem mais; nada foi publicado\\. o pipeline nunca apaga um histórico: guarde-o fora do site`);
    await expect(runBuild(testConfig(site), at)).rejects.toThrow(recusa);
    await expect(update()).rejects.toThrow(recusa);
    expect(diferencas(await arvore(site), antes)).toEqual([]);
    const v = validar(site);
    expect(v.codigo).toBe(1);
    expect(v.linhas).toContain(`  ${go}: a série ${PRODUTO}/GO não está mais no catálogo (pipeline/sources/), e nenhuma execução publica em volta do seu histórico; o pipeline nunca apaga um histórico: guarde-o fora do site (por exemplo, mkdir -p series-retiradas && git mv ${site}/${go} series-retiradas/) ou apague-o (git rm ${site}/${go}), ou devolva a série ao catálogo; depois rode npm run build, que apaga os arquivos derivados dela`);

    // the fix the message gives: the history kept out of the site, then a build
    await mkdir(join(raiz, "series-retiradas"));
    await rename(join(site, go), join(raiz, "series-retiradas", "GO.json"));
    const b = await runBuild(testConfig(site), at);
    expect(b.removidos).toEqual(derivados);
    expect(await readFile(join(raiz, "series-retiradas", "GO.json"))).toEqual(historico);
    expect(validar(site).codigo).toBe(0);
    // and the next update goes on as usual, the series' files not coming back
    expect((await update()).exitCode).toBe(0);
    const depois = await arvore(site);
    for (const p of [go, ...derivados]) expect(depois.has(p), p).toBe(false);
    expect(validar(site).codigo).toBe(0);
  }, 90_000);
});
