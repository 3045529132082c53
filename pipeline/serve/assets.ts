import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { build, type Plugin } from "esbuild";
import { REPO_ROOT } from "../config.ts";
import { PipelineError } from "../domain/errors.ts";
import { copiarVendorRomaneio } from "../publish/deploy.ts";
import { PRODUTO_INFO, PRODUTOS, TIPOS_PRODUTO, UNIDADE_INFO, type Produto } from "../domain/products.ts";

/**
 * The dashboard's scripts, generated into public/assets/ from TypeScript: the simulator module
 * (pipeline/simulator/simulator.ts, the very file the server runs) as a plain ES module, the two
 * pages' scripts (with uPlot bundled in, no CDN) and uPlot's stylesheet. Output is deterministic,
 * so a rebuild of unchanged sources writes nothing; test/serve/assets.test.ts fails when the
 * committed files are stale.
 */
const BANNER = "/* Gerado por pipeline/serve/assets.ts a partir de pipeline/; não edite. */";
const WEB = join(REPO_ROOT, "pipeline", "serve", "web");

/** The pages import the simulator from ./simulador.js instead of bundling a second copy. */
const simulatorExternal: Plugin = {
  name: "simulador-externo",
  setup(b) {
    b.onResolve({ filter: /simulator\/simulator\.ts$/ }, () => ({ path: "./simulador.js", external: true }));
  },
};

/**
 * The dashboard imports uPlot with import() (pipeline/serve/web/painel.ts): it stays a file of its
 * own, assets/painel-uplot.js, so the prices do not wait for the chart's library.
 */
const uplotExternal: Plugin = {
  name: "uplot-externo",
  setup(b) {
    b.onResolve({ filter: /^uplot$/ }, (args) => (args.kind === "dynamic-import" ? { path: "./painel-uplot.js", external: true } : undefined));
  },
};

/**
 * @date-fns/tz does not declare itself free of side effects, so importing domain/dates.ts for
 * formatDateBR would ship its TZDate classes (~5 KB) that the pages never call. It has none
 * beyond defining them: let esbuild drop it when unused.
 */
const tzWithoutSideEffects: Plugin = {
  name: "date-fns-tz-sem-efeitos",
  setup(b) {
    b.onResolve({ filter: /^@date-fns\/tz$/ }, async (args) => {
      if (args.pluginData === "resolvido") return undefined;
      const r = await b.resolve(args.path, { resolveDir: args.resolveDir, kind: args.kind, importer: args.importer, pluginData: "resolvido" });
      if (r.errors.length > 0) return { errors: r.errors };
      return { path: r.path, sideEffects: false };
    });
  },
};

/**
 * The licence of every package a bundle takes code from (MIT and the like ask for their notice in
 * every copy), as a comment at its end: uPlot's notice is a plain comment that minification drops.
 */
async function licencasDosPacotes(entradas: Iterable<string>): Promise<string> {
  const pacotes = new Set<string>();
  for (const e of entradas) {
    const m = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(e);
    if (m) pacotes.add(m[1]!);
  }
  const textos: string[] = [];
  for (const nome of [...pacotes].sort()) {
    const dir = join(REPO_ROOT, "node_modules", nome);
    const versao = (JSON.parse(await readFile(join(dir, "package.json"), "utf8")) as { version?: string }).version ?? "";
    let licenca: string | null = null;
    for (const arquivo of ["LICENSE", "LICENSE.md", "LICENSE.txt", "license", "LICENCE"]) {
      licenca = await readFile(join(dir, arquivo), "utf8").catch(() => null);
      if (licenca !== null) break;
    }
    if (licenca === null) throw new PipelineError({ stage: "render", reason: `assets: o pacote ${nome} entra num script do site, mas não tem arquivo LICENSE em node_modules/${nome}` });
    textos.push(`/*! ${nome} ${versao}\n${licenca.trim().replaceAll("*/", "* /")}\n*/`);
  }
  return textos.length ? `\n${textos.join("\n")}\n` : "";
}

async function bundle(entry: string, opts: { minify: boolean; external: boolean; plugins?: Plugin[] }): Promise<string> {
  const r = await build({
    metafile: true,
    entryPoints: [entry],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: ["es2020"],
    minify: opts.minify,
    legalComments: "inline",
    charset: "utf8",
    write: false,
    banner: { js: BANNER },
    plugins: [...(opts.plugins ?? []), ...(opts.external ? [simulatorExternal, tzWithoutSideEffects] : [tzWithoutSideEffects])],
    logLevel: "silent",
  });
  return r.outputFiles[0]!.text + (await licencasDosPacotes(Object.keys(r.metafile.inputs)));
}

/**
 * Every generated asset: path under public/ -> content. (The dashboard's index.html is data: site
 * assembly writes it with the other files of a run, pipeline/site/painel.ts.)
 */
export async function renderAssets(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  out.set("assets/simulador.js", await bundle(join(REPO_ROOT, "pipeline", "simulator", "simulator.ts"), { minify: false, external: false }));
  out.set("assets/painel.js", await bundle(join(WEB, "painel.ts"), { minify: true, external: true, plugins: [uplotExternal] }));
  out.set("assets/painel-uplot.js", await bundle(join(REPO_ROOT, "node_modules", "uplot", "dist", "uPlot.esm.js"), { minify: true, external: false }));
  out.set("assets/simulador-pagina.js", await bundle(join(WEB, "simulador-pagina.ts"), { minify: true, external: true }));
  // tesseract.js and pdf.js are not bundled: the page imports them from romaneio/vendor/ when a
  // file is chosen (copied from node_modules by buildAssets, see VENDOR_ROMANEIO)
  out.set("assets/romaneio-pagina.js", await bundle(join(WEB, "romaneio-pagina.ts"), { minify: true, external: true }));
  out.set("assets/vendor/uPlot.min.css", (await readFile(join(REPO_ROOT, "node_modules", "uplot", "dist", "uPlot.min.css"), "utf8")) + (await licencasDosPacotes(["node_modules/uplot/dist/uPlot.min.css"])));
  // the simulator's form offers the catalogue's products, grouped by how each is sold
  const simulador = await readFile(join(REPO_ROOT, "public", "simulador", "index.html"), "utf8");
  out.set("simulador/index.html", comProdutosDoCatalogo(simulador));
  return out;
}

/** The page with its product <select> written from the catalogue (the rest of the page as it is). */
export function comProdutosDoCatalogo(html: string): string {
  const re = /(<select id="produto" name="produto">\n)([\s\S]*?)(\n(\s*)<\/select>)/;
  const m = re.exec(html);
  if (!m) throw new PipelineError({ stage: "render", reason: 'public/simulador/index.html: falta o <select id="produto" name="produto"> do formulário' });
  const recuo = `${m[4]}  `;
  const ordem = (p: Produto) => TIPOS_PRODUTO.indexOf(PRODUTO_INFO[p].tipo);
  const produtos = PRODUTOS.filter((p) => PRODUTO_INFO[p].tipo !== "sem_simulacao").map((p, i) => [p, i] as const).sort(([a, i], [b, j]) => ordem(a) - ordem(b) || i - j).map(([p]) => p);
  const opcoes = produtos.map((p) => `${recuo}<option value="${p}">${PRODUTO_INFO[p].nome} (${UNIDADE_INFO[PRODUTO_INFO[p].unidade].por})</option>`);
  return html.replace(re, (_all, a: string, _b: string, c: string) => `${a}${opcoes.join("\n")}${c}`);
}

/**
 * Writes the generated assets under publicDir (only those whose bytes changed) and returns the
 * paths written. The lead calls this from runBuild; `npm start` calls it before serving. A site
 * with the romaneio page also gets its third-party files (OCR engine, language data, pdf.js)
 * copied from node_modules into the gitignored romaneio/vendor/.
 */
export async function buildAssets(publicDir: string): Promise<string[]> {
  const written: string[] = [];
  for (const [rel, text] of await renderAssets()) {
    const full = join(publicDir, rel);
    const old = await readFile(full, "utf8").catch(() => null);
    if (old === text) continue;
    await mkdir(dirname(full), { recursive: true });
    await writeFile(full, text);
    written.push(rel);
  }
  if ((await stat(join(publicDir, "romaneio", "index.html")).catch(() => null))?.isFile()) written.push(...(await copiarVendorRomaneio(publicDir)));
  return written;
}
