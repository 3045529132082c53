/**
 * New blocks of the long file put aside on disk (site/assemble.ts Rascunho): a full build's
 * blocks are most of the long file, so past a limit montarSite writes them to a scratch file in
 * the staging directory and the publish copies them in, each checked by sha256 as it is copied;
 * the checks read each block as it is rendered and then require the file's bytes to be those.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { cp, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBuild } from "../../pipeline/run/build.ts";
import { setLimiteDoLongoEmMemoria } from "../../pipeline/site/assemble.ts";
import { ChecagemDados, type BytesDoLongo } from "../../pipeline/validate/dados.ts";
import { COLUNAS_LONGO } from "../../pipeline/render/longo.ts";
import { setFalhasDePublicacao, STAGING_DIR } from "../../pipeline/publish/journal.ts";
import { rascunhoDoLongo } from "../../pipeline/site/store.ts";
import { arvore as tree, cleanup, copiarEntradas as soEntradas, diferencas, milhoComDiaNovo, replay, replayDir, tempSite, testConfig } from "../helpers/pipeline.ts";
import { setCopiaEmThread } from "../../pipeline/publish/write.ts";

const NOW1 = "2026-09-26T20:00:00-03:00";
const NOW2 = "2026-09-28T20:00:00-03:00";

describe("new blocks of the long file put aside on disk", () => {
  let pages: string;
  let base: string;
  const dirs: string[] = [];
  const novo = async () => {
    const d = await tempSite();
    dirs.push(d);
    return d;
  };

  beforeAll(async () => {
    pages = await replayDir();
    base = await novo();
    await replay(pages, base, NOW1);
  }, 120_000);

  afterAll(async () => {
    setLimiteDoLongoEmMemoria(null);
    await cleanup(pages, ...dirs);
  });

  it("a build with every block put aside writes the very tree of a build that holds them", async () => {
    const emMemoria = await novo();
    const deLado = await novo();
    await soEntradas(base, emMemoria);
    await soEntradas(base, deLado);
    await runBuild(testConfig(emMemoria), new Date(NOW1));
    // the scratch file is there when the long file is staged: the blocks were put aside
    let rascunhoVisto = false;
    setFalhasDePublicacao({
      antes: (p) => {
        if ("arquivo" in p && p.tipo === "preparar" && p.arquivo === "api/v1/historico.csv") rascunhoVisto = existsSync(rascunhoDoLongo(deLado));
      },
    });
    setLimiteDoLongoEmMemoria(0);
    try {
      await runBuild(testConfig(deLado), new Date(NOW1));
    } finally {
      setLimiteDoLongoEmMemoria(null);
      setFalhasDePublicacao({});
    }
    expect(rascunhoVisto).toBe(true);
    const a = await tree(emMemoria);
    expect(a.has("api/v1/historico.csv")).toBe(true);
    expect(diferencas(a, await tree(deLado))).toEqual([]);
    // the scratch file goes with the staging directory
    await expect(stat(join(deLado, STAGING_DIR))).rejects.toThrow();
  });

  /** An update with one new day of milho, its new blocks put aside, `comThread`: the long file copied in the publish's thread. */
  const atualizar = async (comThread: boolean) => {
    const inc = await novo();
    await cp(base, inc, { recursive: true });
    const paginas = await replayDir();
    dirs.push(paginas);
    await cp(pages, paginas, { recursive: true });
    await milhoComDiaNovo(paginas);
    setLimiteDoLongoEmMemoria(0);
    if (comThread) setCopiaEmThread(0);
    let r;
    try {
      r = await replay(paginas, inc, NOW2);
    } finally {
      setLimiteDoLongoEmMemoria(null);
      setCopiaEmThread(null);
    }
    expect(r.log.join("\n")).not.toContain("todas as séries serão geradas de novo");
    expect(r.written).toContain("api/v1/historico.csv");
    return inc;
  };

  it("an update with its new blocks put aside writes what a full rebuild writes", async () => {
    const inc = await atualizar(false);
    const cheia = await novo();
    await soEntradas(inc, cheia);
    await runBuild(testConfig(cheia), new Date(NOW2));
    expect(diferencas(await tree(inc), await tree(cheia))).toEqual([]);
  });

  it("copying the long file in the publish's thread (publish/copia.js), an update and a build with every block put aside write what a full rebuild writes", async () => {
    const inc = await atualizar(true);
    const cheia = await novo();
    await soEntradas(inc, cheia);
    await runBuild(testConfig(cheia), new Date(NOW2));
    const deLado = await novo();
    await soEntradas(inc, deLado);
    setCopiaEmThread(0);
    setLimiteDoLongoEmMemoria(0);
    try {
      await runBuild(testConfig(deLado), new Date(NOW2));
    } finally {
      setCopiaEmThread(null);
      setLimiteDoLongoEmMemoria(null);
    }
    const esperado = await tree(cheia);
    expect(esperado.has("api/v1/historico.csv")).toBe(true);
    expect(diferencas(await tree(inc), esperado)).toEqual([]);
    expect(diferencas(await tree(deLado), esperado)).toEqual([]);
  }, 120_000);
});

describe("the checks of a block put aside", () => {
  const cabecalho = `${COLUNAS_LONGO.join(",")}\n`;
  const bloco = "soja,soja,PR,true,,cepea,sc60kg,BRL,2026-09-04,160.87\nsoja,soja,PR,true,,cepea,sc60kg,BRL,2026-09-08,160.46\n";

  const sha = (t: string) => createHash("sha256").update(t).digest("hex");
  /** the long file as the publish shows it: the header, and the block copied with the hash it had */
  const vista = (hash: string): BytesDoLongo => {
    const b = Buffer.from(cabecalho + bloco);
    const n = Buffer.byteLength(cabecalho);
    return {
      length: b.length,
      at: (i) => (i < n || i === n || i === b.length - 1 ? b[i] : undefined),
      texto: (i, j) => (j <= n ? b.toString("utf8", i, j) : null),
      sha256De: (i, j) => (i === n && j === b.length ? hash : null),
    };
  };
  const montado = { blocos: [{ id: "soja", bytes: Buffer.byteLength(bloco) }] };

  it("accepts the block when the file holds the bytes that were read", () => {
    const d = new ChecagemDados();
    d.blocoNovo("soja", bloco);
    expect(d.longoMontado(vista(sha(bloco)), montado)).toEqual([]);
  });

  it("refuses it when the bytes in the file are not the ones read, or were never read", () => {
    const d = new ChecagemDados();
    d.blocoNovo("soja", bloco);
    const outro = bloco.replace("160.46", "160.47");
    expect(d.longoMontado(vista(sha(outro)), montado).map((p) => p.mensagem).join("\n")).toContain("o bloco novo da série soja");
    const nunca = new ChecagemDados();
    expect(nunca.longoMontado(vista(sha(bloco)), montado).map((p) => p.mensagem).join("\n")).toContain("não é o que foi conferido ao gerá-lo");
  });

  it("still reads a block put aside line by line: a bad line is reported", () => {
    const d = new ChecagemDados();
    const ruim = bloco.replace("2026-09-08", "2026-13-08");
    d.blocoNovo("soja", ruim);
    expect(d.longoMontado(vista(sha(ruim)), montado).length).toBeGreaterThan(0);
  });
});
