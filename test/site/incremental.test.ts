/**
 * Incremental runs (site/assemble.ts montarSite, site/store.ts, site/fatos.ts): an update renders
 * only the series it changed and copies the rest of the long file, and the tree it leaves is
 * byte for byte the tree a full rebuild writes from the same histories. The facts it starts from
 * are trusted only when they describe the tree, and `npm run validate` checks every one of them.
 */
import { cp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { HistoricoEntry, SerieFile } from "../../pipeline/domain/publicados.ts";
import { runValidate } from "../../pipeline/cli/validate.ts";
import { runBuild } from "../../pipeline/run/build.ts";
import { setBytesPorParteDoLongo } from "../../pipeline/validate/dados.ts";
import { abrirStore } from "../../pipeline/site/store.ts";
import { FATOS_PATH } from "../../pipeline/site/fatos.ts";
import { fonteDoCodigo, setFonteNosFatos } from "../../pipeline/site/assemble.ts";
import { registrarFonte, removerFonte, SOURCES } from "../../pipeline/sources/index.ts";
import { arvore as tree, cleanup, copiarEntradas, diferencas, editPage, replay, replayDir, tempSite, testConfig } from "../helpers/pipeline.ts";

const NOW1 = "2026-09-26T20:00:00-03:00";
const NOW2 = "2026-09-28T20:00:00-03:00";
/** `fn` on a copy of the incrementally updated site (each case damages its own copy), removed after. */
let naCopia: (fn: (dir: string) => Promise<void>) => Promise<void>;

/** A run with nothing to print (the console stays quiet in tests). */
async function quieto<T>(fn: () => T | Promise<T>): Promise<T> {
  const { log, error } = console;
  console.log = () => {};
  console.error = () => {};
  try {
    return await fn();
  } finally {
    console.log = log;
    console.error = error;
  }
}

describe("an update renders only what changed, and leaves the tree a full rebuild writes", () => {
  let pages: string;
  let incremental: string;
  let semFatos: string;
  let rebuilt: string;
  let antes: Map<string, Buffer>;
  let depois: Map<string, Buffer>;
  let segunda: Awaited<ReturnType<typeof replay>>;

  beforeAll(async () => {
    pages = await replayDir();
    incremental = await tempSite();
    semFatos = await tempSite();
    rebuilt = await tempSite();
    const primeira = await replay(pages, incremental, NOW1);
    expect(primeira.log.join("\n")).toContain("todas as séries serão geradas de novo");
    antes = await tree(incremental);
    expect(antes.has(FATOS_PATH)).toBe(true);
    await cp(incremental, semFatos, { recursive: true });
    await rm(join(semFatos, FATOS_PATH));

    // a new day of milho and a revision within bounds of boi gordo's 03/09
    await editPage(pages, "cepea/milho.html", (h) =>
      h.replace(/(<table id="imagenet-indicador1"[\s\S]*?<tbody>)/, "$1<tr><td>08/09/2026</td><td>71,10</td><td>0,24%</td><td>1,24%</td><td>13,86</td></tr>"),
    );
    await editPage(pages, "cepea/boi-gordo.html", (h) => h.replace("<td>347,60</td>", "<td>347,55</td>"));
    segunda = await replay(pages, incremental, NOW2);
    depois = await tree(incremental);

    // the same histories, every derived file deleted, rebuilt whole
    await copiarEntradas(incremental, rebuilt);
    await runBuild(testConfig(rebuilt), new Date(NOW2));
  }, 120_000);

  afterAll(() => cleanup(pages, incremental, semFatos, rebuilt));

  naCopia = async (fn) => {
    const dir = await tempSite();
    try {
      await cp(incremental, dir, { recursive: true });
      await fn(dir);
    } finally {
      await cleanup(dir);
    }
  };

  it("reads the facts and renders only the series it changed", () => {
    expect(segunda.exitCode).toBe(0);
    expect(segunda.log.join("\n")).not.toContain("todas as séries serão geradas de novo");
    const mudaram = diferencas(antes, depois);
    expect(mudaram).toContain("api/v1/cotacao/milho.json");
    expect(mudaram).toContain("api/v1/historico/milho.csv");
    expect(mudaram).toContain("api/v1/cotacao/boi_gordo.json");
    expect(mudaram).toContain("api/v1/historico.csv");
    expect(mudaram).toContain(FATOS_PATH);
    // the other series' files are not even rewritten
    for (const f of mudaram) {
      if (/^api\/v1\/(cotacao|historico)\/[a-z_]+(\/[A-Z]{2})?(\.pracas)?(\.excel)?\.(json|csv)$/.test(f) && !f.startsWith("api/v1/cotacao/uf/")) {
        expect(f, "só milho e boi gordo mudaram").toMatch(/\/(milho|boi_gordo)\.(json|csv|excel\.csv)$/);
      }
    }
    expect(segunda.written.filter((f) => f.includes("soja"))).toEqual([]);
  });

  it("writes byte for byte the tree a full rebuild of the same histories writes", async () => {
    const cheia = await tree(rebuilt);
    expect(diferencas(depois, cheia)).toEqual([]);
  });

  it("writes the same tree when it has no facts to start from (every series rendered)", async () => {
    const r = await replay(pages, semFatos, NOW2);
    expect(r.log.join("\n")).toContain("todas as séries serão geradas de novo");
    expect(diferencas(depois, await tree(semFatos))).toEqual([]);
  });

  it("is valid as a whole tree, facts included", async () => {
    expect(await quieto(() => runValidate(incremental))).toBe(0);
  });

  it("does not trust facts a file no longer matches: a changed size renders everything again", async () => {
    await naCopia(async (dir) => {
      const p = join(dir, "api/v1/cotacao/soja.json");
      await writeFile(p, `${await readFile(p, "utf8")}\n`);
      const s = await abrirStore(dir);
      expect(s.fatos).toBeNull();
      expect(s.motivo).toContain("api/v1/cotacao/soja.json");
    });
  });

  it("a build refuses a stored history that breaks the schema, naming the file, and writes nothing", async () => {
    await naCopia(async (dir) => {
      const antesDoBuild = await tree(dir);
      const p = join(dir, "api/v1/cotacao/soja.json");
      const texto = await readFile(p, "utf8");
      const linha = /\{"data":"[^"]+","valor":\d+(\.\d+)?/.exec(texto)![0];
      await writeFile(p, texto.replace(linha, linha.replace(/"valor":[\d.]+/, '"valor":-1')));
      const danificada = await readFile(p);
      await expect(runBuild(testConfig(dir), new Date(NOW2))).rejects.toThrow(/^\[merge\] api\/v1\/cotacao\/soja\.json não segue schemas\/serie\.schema\.json: \/historico\/0\/valor/);
      antesDoBuild.set("api/v1/cotacao/soja.json", danificada);
      expect(diferencas(antesDoBuild, await tree(dir))).toEqual([]);
    });
  });

  it("does not copy a long file edited keeping its size: every block is checked, everything rendered again", async () => {
    await naCopia(async (dir) => {
      const paginas = await replayDir();
      try {
        await cp(pages, paginas, { recursive: true });
        const p = join(dir, "api/v1/historico.csv");
        const linhas = (await readFile(p, "utf8")).split("\n");
        // one digit more on a line before milho's block, one less after it: same size, boundaries moved
        const a = linhas.findLastIndex((l) => l.split(",")[0]! < "milho" && /\.\d$/.test(l));
        const b = linhas.findIndex((l) => l.split(",")[0]! > "milho" && /\.\d\d$/.test(l));
        linhas[a] = `${linhas[a]}5`;
        linhas[b] = linhas[b]!.slice(0, -1);
        await writeFile(p, linhas.join("\n"));
        // sizes and header match: the blocks are checked as they are copied, by the publish
        const s = await abrirStore(dir);
        expect(s.fatos).not.toBeNull();
        await editPage(paginas, "cepea/milho.html", (h) => h.replace("<td>08/09/2026</td><td>71,10</td>", "<td>09/09/2026</td><td>71,20</td></tr><tr><td>08/09/2026</td><td>71,10</td>"));
        const r = await replay(paginas, dir, "2026-09-29T20:00:00-03:00");
        const log = r.log.join("\n");
        expect(log).toMatch(/o bloco de .* em api\/v1\/historico\.csv não é o que a última publicação escreveu.*todas as séries serão geradas de novo/);
        expect(await quieto(() => runValidate(dir))).toBe(0);
        // the edited lines are gone: the long file is the one the histories give
        const publicado = await readFile(p, "utf8");
        expect(publicado).not.toContain(`${linhas[a]}\n`);
        const rebuilt = await tempSite();
        try {
          await copiarEntradas(dir, rebuilt);
          await runBuild(testConfig(rebuilt), new Date("2026-09-29T20:00:00-03:00"));
          expect(diferencas(await tree(dir), await tree(rebuilt))).toEqual([]);
        } finally {
          await cleanup(rebuilt);
        }
      } finally {
        await cleanup(paginas);
      }
    });
  });

  it("a run with nothing new rewrites nothing, the long file included (its copied blocks still checked)", async () => {
    await naCopia(async (dir) => {
      const antesDaRodada = await tree(dir);
      const r = await replay(pages, dir, NOW2);
      expect(r.log.join("\n")).not.toContain("todas as séries serão geradas de novo");
      expect(r.written.filter((f) => f.startsWith("api/v1/historico"))).toEqual([]);
      const depoisDaRodada = await tree(dir);
      expect(depoisDaRodada.get("api/v1/historico.csv")!.equals(antesDaRodada.get("api/v1/historico.csv")!)).toBe(true);
    });
  });

  it("a run with nothing new still refuses a copied block edited keeping the file's size, and renders everything", async () => {
    await naCopia(async (dir) => {
      const p = join(dir, "api/v1/historico.csv");
      const texto = await readFile(p, "utf8");
      // one digit of a soja line, same size: nothing else tells it apart
      const linha = /\nsoja,[^\n]*\d\n/.exec(texto)!;
      const fim = linha.index + linha[0].length - 1;
      const d = texto[fim - 1]!;
      const editado = `${texto.slice(0, fim - 1)}${d === "9" ? "8" : "9"}${texto.slice(fim)}`;
      expect(editado.length).toBe(texto.length);
      await writeFile(p, editado);
      const r = await replay(pages, dir, NOW2);
      expect(r.log.join("\n")).toMatch(/o bloco de soja em api\/v1\/historico\.csv não é o que a última publicação escreveu/);
      expect(r.written).toContain("api/v1/historico.csv");
      expect(await readFile(p, "utf8")).toBe(texto);
    });
  });

  it("a build refuses a series file copied over another series' path (it would publish one's prices under the other's name)", async () => {
    await naCopia(async (dir) => {
      await writeFile(join(dir, "api/v1/cotacao/cafe_robusta.json"), await readFile(join(dir, "api/v1/cotacao/cafe_arabica.json")));
      await expect(runBuild(testConfig(dir), new Date(NOW2))).rejects.toThrow(/cafe_robusta\.json não segue schemas\/serie\.schema\.json: \/produto/);
    });
  });

  it("npm run validate finds a series file changed behind the pipeline's back, even keeping its size", async () => {
    await naCopia(async (dir) => {
      const p = join(dir, "api/v1/cotacao/soja.json");
      const texto = await readFile(p, "utf8");
      const ultimo = /"historico": \[\n(?:.*\n)*?.*"valor":(\d+\.\d)\d/.exec(texto)!;
      // one digit of an old day, same size: the sizes an update checks still match
      const trocado = texto.replace(ultimo[0], ultimo[0].slice(0, -1) + (ultimo[0].endsWith("9") ? "8" : "9"));
      expect(trocado.length).toBe(texto.length);
      await writeFile(p, trocado);
      expect((await stat(p)).size).toBe(Buffer.byteLength(texto));
      const linhas: string[] = [];
      const { log, error } = console;
      console.log = (...a: unknown[]) => void linhas.push(a.join(" "));
      console.error = () => {};
      try {
        expect(runValidate(dir)).toBe(1);
      } finally {
        console.log = log;
        console.error = error;
      }
      expect(linhas.join("\n")).toContain(`${FATOS_PATH}: api/v1/cotacao/soja.json mudou desde a publicação que registrou os fatos`);
    });
  });

  describe("npm run validate checks the long file against the facts in parts (site/conferir.ts)", () => {
    afterEach(() => setBytesPorParteDoLongo(null));

    /** runValidate's printed lines about the facts file, and its exit code */
    function validarFatos(dir: string): { codigo: number; fatos: string[] } {
      const linhas: string[] = [];
      const { log, error } = console;
      console.log = (...a: unknown[]) => void linhas.push(a.join(" "));
      console.error = () => {};
      try {
        const codigo = runValidate(dir);
        return { codigo, fatos: linhas.filter((l) => l.includes(`${FATOS_PATH}:`)).map((l) => l.trim()) };
      } finally {
        console.log = log;
        console.error = error;
      }
    }

    for (const parte of [5, 97, null]) {
      it(`an untouched tree agrees with its facts, read ${parte ?? "4 MiB"} bytes at a time`, async () => {
        await naCopia(async (dir) => {
          setBytesPorParteDoLongo(parte);
          expect(validarFatos(dir)).toEqual({ codigo: 0, fatos: [] });
        });
      });

      it(`a price changed in one series' block of the long file, keeping its size, is found (${parte ?? "4 MiB"} bytes at a time)`, async () => {
        await naCopia(async (dir) => {
          setBytesPorParteDoLongo(parte);
          const p = join(dir, "api/v1/historico.csv");
          const texto = await readFile(p, "utf8");
          const linha = /^soja,.*,(\d+\.\d+)$/m.exec(texto)!;
          const trocada = linha[0].slice(0, -1) + (linha[0].endsWith("9") ? "8" : "9");
          await writeFile(p, texto.replace(linha[0], trocada));
          expect((await stat(p)).size).toBe(Buffer.byteLength(texto));
          const r = validarFatos(dir);
          expect(r.codigo).toBe(1);
          expect(r.fatos).toContain(`${FATOS_PATH}: o bloco da série soja em api/v1/historico.csv não é o registrado; rode npm run build`);
        });
      });
    }

    it("a long file with a line the facts do not record is found, by its size", async () => {
      await naCopia(async (dir) => {
        setBytesPorParteDoLongo(11);
        const p = join(dir, "api/v1/historico.csv");
        const texto = await readFile(p, "utf8");
        const ultima = texto.slice(texto.lastIndexOf("\n", texto.length - 2) + 1);
        await writeFile(p, texto + ultima);
        const r = validarFatos(dir);
        expect(r.codigo).toBe(1);
        expect(r.fatos).toContain(`${FATOS_PATH}: api/v1/historico.csv tem ${Buffer.byteLength(texto + ultima)} bytes, os fatos registram ${Buffer.byteLength(texto)}; rode npm run build`);
      });
    });
  });
});

describe("the renderer's hash the facts carry (versaoDoCodigo)", () => {
  it("changes when the recent window or a Scot column is written differently, so old facts are not trusted", async () => {
    const antes = (await import("../../pipeline/site/assemble.ts")).versaoDoCodigo();
    vi.resetModules();
    vi.doMock("../../pipeline/render/serie.ts", async (orig) => {
      const o = (await orig()) as typeof import("../../pipeline/render/serie.ts");
      return { ...o, janelaRecente: (f: SerieFile) => (f.historico.length > 30 ? { ...f, historico: f.historico.slice(-30) } : f) };
    });
    const janela = (await import("../../pipeline/site/assemble.ts")).versaoDoCodigo();
    vi.doUnmock("../../pipeline/render/serie.ts");
    vi.resetModules();
    vi.doMock("../../pipeline/render/csv.ts", async (orig) => {
      const o = (await orig()) as typeof import("../../pipeline/render/csv.ts");
      return { ...o, historicoCsvs: (h: HistoricoEntry[], u: string) => o.historicoCsvs(h.map((e) => (e.funrural_avista ? { ...e, funrural_avista: e.funrural_avista * 10 } : e)), u) };
    });
    const funrural = (await import("../../pipeline/site/assemble.ts")).versaoDoCodigo();
    vi.doUnmock("../../pipeline/render/csv.ts");
    vi.resetModules();
    const depois = (await import("../../pipeline/site/assemble.ts")).versaoDoCodigo();
    expect(janela).not.toBe(antes);
    expect(funrural).not.toBe(antes);
    expect(depois).toBe(antes);
  });
});

describe("the source hash the facts carry (fonteDoCodigo)", () => {
  it("lets a run of the same source take the renderer's hash from the facts, and makes any other source compute it", async () => {
    vi.resetModules();
    const a = await import("../../pipeline/site/assemble.ts");
    const real = a.versaoDoCodigo();
    a.setFonteNosFatos(true);
    const fonte = a.fonteDoCodigo()!;
    expect(fonte).toMatch(/^[0-9a-f]{16}$/);
    const outra = fonte.replace(/^./, (c) => (c === "0" ? "1" : "0"));
    const novo = async () => {
      vi.resetModules();
      const m = await import("../../pipeline/site/assemble.ts");
      m.setFonteNosFatos(true);
      return m;
    };
    expect((await novo()).versaoDoCodigo({ codigo: "dos-fatos", fonte: outra })).toBe(real);
    expect((await novo()).versaoDoCodigo({ codigo: "dos-fatos" })).toBe(real);
    expect((await novo()).versaoDoCodigo({ codigo: "dos-fatos", fonte })).toBe("dos-fatos");
    // under tests (a renderer may be mocked) it vouches for nothing unless asked to
    vi.resetModules();
    const padrao = await import("../../pipeline/site/assemble.ts");
    expect(padrao.fonteDoCodigo()).toBeUndefined();
    expect(padrao.versaoDoCodigo({ codigo: "dos-fatos", fonte })).toBe(real);
    vi.resetModules();
  });

  it("is written in the facts of every publish, unless the catalogue has a source registered at run time", async () => {
    const site = await tempSite();
    const paginas = await replayDir();
    setFonteNosFatos(true);
    try {
      await replay(paginas, site, "2026-09-26T20:00:00-03:00");
      const f = JSON.parse(await readFile(join(site, FATOS_PATH), "utf8")) as { fonte?: string };
      expect(f.fonte).toMatch(/^[0-9a-f]{16}$/);
      expect(f.fonte).toBe(fonteDoCodigo());
      registrarFonte({ ...SOURCES[0]!, id: "fonte_de_teste" as never, pages: [] });
      try {
        expect(fonteDoCodigo()).toBeUndefined();
      } finally {
        removerFonte("fonte_de_teste");
      }
    } finally {
      setFonteNosFatos(null);
      await cleanup(site, paginas);
    }
  }, 60_000);
});
