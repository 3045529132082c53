import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, stat, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { gzipSync } from "node:zlib";
import { REPO_ROOT } from "../../pipeline/config.ts";
import { SOURCES } from "../../pipeline/sources/index.ts";
import { writeSyntheticSite } from "./synthetic.ts";
import { listFiles } from "../helpers/pipeline.ts";

const TSX = join(REPO_ROOT, "node_modules/.bin/tsx");
const FIXTURES = join(REPO_ROOT, "test/fixtures");

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}


/** The old-generation cap (MB) the bench tries when the build script sets none. */
const HEAP_LIMITADO = 192;

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

export async function benchParse(): Promise<void> {
  console.log("\n## Parse time per recorded page (median of 50 runs)");
  for (const source of SOURCES) {
    for (const page of source.pages) {
      const html = await readFile(join(FIXTURES, source.id, `${page.id}.html`), "utf8");
      for (let i = 0; i < 5; i++) page.parse(html); // warm-up
      const times: number[] = [];
      let rows = 0;
      for (let i = 0; i < 50; i++) {
        const t = performance.now();
        rows = page.parse(html).rows.length;
        times.push(performance.now() - t);
      }
      console.log(`  ${source.id}/${page.id}: ${median(times).toFixed(2)} ms (${rows} linhas, ${kb(html.length)})`);
    }
  }
}

export async function benchReplay(): Promise<void> {
  console.log("\n## Full `npm run update -- --replay test/fixtures` (fresh site, new process)");
  const site = await mkdtemp(join(tmpdir(), "bench-replay-"));
  try {
    const run = () => {
      const t = performance.now();
      const r = spawnSync(TSX, ["pipeline/cli/update.ts", "--replay", FIXTURES], {
        cwd: REPO_ROOT,
        env: { ...process.env, COTACAO_PUBLIC_DIR: site, COTACAO_NOW: "2026-09-27T12:00:00-03:00" },
        encoding: "utf8",
      });
      if (r.status !== 0) throw new Error(`update falhou (${r.status}): ${r.stderr}`);
      return performance.now() - t;
    };
    console.log(`  primeira execução (escreve tudo): ${run().toFixed(0)} ms`);
    console.log(`  segunda execução (nada novo):     ${run().toFixed(0)} ms`);
  } finally {
    await rm(site, { recursive: true, force: true });
  }
}

export async function benchBuild(): Promise<void> {
  console.log("\n## Build from a synthetic history of 30 years of business days, every series");
  const site = await mkdtemp(join(tmpdir(), "bench-site-"));
  const floor = await mkdtemp(join(tmpdir(), "bench-floor-"));
  const pages = await mkdtemp(join(tmpdir(), "bench-pages-"));
  try {
    const points = await writeSyntheticSite(site, 30, new Date("2026-11-20T12:00:00-03:00"));
    // keep only the store (series files) and the status: the build must write every derived file
    const soEntradas = async () => {
      for (const f of await listFiles(site)) {
        const rel = relative(site, f);
        const serie = /^api\/v1\/cotacao\/[a-z_]+(\/[A-Z]{2})?\.json$/.test(rel) && !rel.startsWith("api/v1/cotacao/uf/");
        if (!serie && rel !== "api/v1/status.json") await unlink(f);
      }
    };
    await soEntradas();
    // the build as `npm run build` runs it: with the Node options its script sets, if any
    const script = (JSON.parse(await readFile(join(REPO_ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts["build"] ?? "";
    const opcoes = /NODE_OPTIONS=("[^"]*"|\S+)/.exec(script)?.[1]?.replace(/"/g, "") ?? "";
    const filho = <T>(args: string[], nodeOptions = "") => {
      const r = spawnSync(TSX, ["test/bench/build-child.ts", ...args], {
        cwd: REPO_ROOT,
        env: { ...process.env, NODE_OPTIONS: [process.env.NODE_OPTIONS ?? "", nodeOptions].join(" ").trim() },
        encoding: "utf8",
        maxBuffer: 1 << 26,
      });
      if (r.status !== 0) throw new Error(`${args[0]} falhou: ${r.stderr}`);
      return JSON.parse(r.stdout.trim().split("\n").pop()!) as T;
    };
    const construir = (nodeOptions: string) => filho<{ buildMs: number; maxRssMb: number }>(["build", site], nodeOptions);
    const m = { ...construir(opcoes), ...filho<{ floorMs: number; files: number; bytes: number; inputBytes: number }>(["piso", site, floor]) };
    console.log(`  ${points.toLocaleString("pt-BR")} pontos diários; entrada ${(m.inputBytes / 1e6).toFixed(1)} MB de séries; saída ${m.files} arquivos, ${(m.bytes / 1e6).toFixed(1)} MB`);
    console.log(`  build completo${opcoes ? ` (${opcoes}, como no script build)` : ""}: ${m.buildMs.toFixed(0)} ms; pico de RSS ${m.maxRssMb.toFixed(0)} MB (meta < 300 MB)`);
    console.log(`  piso (ler e interpretar as mesmas séries, escrever os mesmos bytes): ${m.floorMs.toFixed(0)} ms; razão build/piso = ${(m.buildMs / m.floorMs).toFixed(2)}× (meta ≤ 2×)`);
    if (!/max-old-space-size/.test(opcoes)) {
      // most of the peak is garbage V8 has not collected yet (the live heap stays under 80 MB):
      // the same build with the old generation capped, for the choice of the script's options
      await soEntradas();
      const limitado = construir(`${opcoes} --max-old-space-size=${HEAP_LIMITADO}`.trim());
      console.log(`    o mesmo build com --max-old-space-size=${HEAP_LIMITADO}: ${limitado.buildMs.toFixed(0)} ms; pico de RSS ${limitado.maxRssMb.toFixed(0)} MB`);
    }

    // a one-day update of that history: one new CEPEA day of milho, every other source off
    const doc = JSON.parse(await readFile(join(site, "api/v1/cotacao/milho.json"), "utf8")) as { valor: number; historico: Array<{ data: string; valor: number; valor_usd?: number }> };
    const last = doc.historico[doc.historico.length - 1]!;
    const next = new Date(`${last.data}T12:00:00Z`);
    do next.setUTCDate(next.getUTCDate() + 1); while ([0, 6].includes(next.getUTCDay()));
    const dia = next.toISOString().slice(0, 10);
    const br = `${dia.slice(8, 10)}/${dia.slice(5, 7)}/${dia.slice(0, 4)}`;
    const virgula = (n: number) => n.toFixed(2).replace(".", ",");
    const html = await readFile(join(FIXTURES, "cepea/milho.html"), "utf8");
    await mkdir(join(pages, "cepea"), { recursive: true });
    await writeFile(
      join(pages, "cepea/milho.html"),
      html.replace(/(<table id="imagenet-indicador1"[\s\S]*?<tbody>)[\s\S]*?(<\/tbody>)/, `$1<tr><td>${br}</td><td>${virgula(doc.valor)}</td><td>0,00%</td><td>0,00%</td><td>${virgula(last.valor_usd ?? doc.valor / 5.2)}</td></tr>$2`),
    );
    const desligadas = SOURCES.map((s) => s.id).filter((id) => id !== "cepea").join(",");
    const update = () => {
      // as the build's measurements: nothing of the build or the floor still being flushed
      spawnSync("sync");
      const before = performance.now();
      const u = spawnSync(TSX, ["test/bench/update-child.ts", site, pages, `${dia}T20:00:00-03:00`], {
        cwd: REPO_ROOT,
        env: { ...process.env, COTACAO_FONTES_DESATIVADAS: desligadas },
        encoding: "utf8",
        maxBuffer: 1 << 26,
      });
      const total = performance.now() - before;
      if (u.status !== 0) throw new Error(`update falhou (${u.status}): ${u.stderr}`);
      return { total, ...(JSON.parse(u.stdout.trim().split("\n").pop()!) as { ms: number; maxRssMb: number; written: string[]; log: string[] }) };
    };
    const u1 = update();
    console.log(`  atualização de um dia (milho ${br}): ${u1.ms.toFixed(0)} ms (meta < 500 ms; o processo inteiro, com o tsx carregando o código, ${u1.total.toFixed(0)} ms), pico de RSS ${u1.maxRssMb.toFixed(0)} MB`);
    console.log(`    ${u1.written.length} arquivos reescritos: ${u1.written.join(", ")}`);
    if (!u1.written.some((f) => f.includes("milho"))) console.log(`  ATENÇÃO: a atualização não mudou o milho:\n    ${u1.log.join("\n    ")}`);
    const u2 = update();
    // the recording has only milho's page: the other CEPEA pages fail on every run, and a failure
    // counted again (falhas_consecutivas) is a change of status.json, the only one
    console.log(
      `  a mesma atualização de novo (nada novo): ${u2.ms.toFixed(0)} ms, ${u2.written.length} arquivo(s) reescrito(s)${u2.written.length ? `: ${u2.written.join(", ")}` : ""}` +
        (u2.written.length === 1 && u2.written[0] === "api/v1/status.json" ? " (só a contagem de falhas das outras páginas do CEPEA, que a gravação não tem)" : ""),
    );
    // npm run validate of that tree, the whole process (tsx included); its peak RSS from GNU time
    spawnSync("sync");
    const antesDoValidate = performance.now();
    const val = spawnSync(existsSync("/usr/bin/time") ? "/usr/bin/time" : TSX, [...(existsSync("/usr/bin/time") ? ["-f", "pico %M", TSX] : []), "pipeline/cli/validate.ts"], { cwd: REPO_ROOT, env: { ...process.env, COTACAO_PUBLIC_DIR: site }, encoding: "utf8", maxBuffer: 1 << 26 });
    const picoDoValidate = /pico (\d+)\s*$/.exec(val.stderr)?.[1];
    console.log(`  npm run validate da árvore inteira: ${(performance.now() - antesDoValidate).toFixed(0)} ms${picoDoValidate ? `, pico de RSS ${(Number(picoDoValidate) / 1024).toFixed(0)} MB` : ""}${val.status === 0 ? "" : ` (FALHOU, saída ${val.status}: ${val.stdout.trim().split("\n").pop()})`}`);

    // what a browser downloads to draw one year of a state series (gzip, as GitHub Pages serves it)
    const estadual = "boi_gordo/SP";
    const inteiro = await readFile(join(site, `api/v1/cotacao/${estadual}.json`));
    console.log(`  gráfico de 1 ano de ${estadual}: o histórico inteiro tem ${kb(inteiro.length)} (${kb(gzipSync(inteiro).length)} com gzip)`);
    const recente = await readFile(join(site, `api/v1/recente/${estadual}.json`)).catch(() => null);
    if (recente) console.log(`    o arquivo recente (o que o painel baixa para 30 d e 1 a): ${kb(recente.length)}, ${kb(gzipSync(recente).length)} com gzip (meta < 50 KB)`);
  } finally {
    await rm(site, { recursive: true, force: true });
    await rm(floor, { recursive: true, force: true });
    await rm(pages, { recursive: true, force: true });
  }
}

export async function benchSizes(): Promise<void> {
  console.log("\n## Sizes of the committed site (public/)");
  const pub = join(REPO_ROOT, "public");
  const agg = await stat(join(pub, "api/v1/cotacao.json"));
  console.log(`  cotacao.json: ${agg.size} bytes (meta < 1024)`);
  const files = await listFiles(join(pub, "api"));
  const sized = await Promise.all(files.map(async (f) => ({ f: relative(pub, f), raw: (await stat(f)).size, gz: gzipSync(await readFile(f)).length })));
  sized.sort((a, b) => b.raw - a.raw);
  for (const s of sized.slice(0, 5)) console.log(`  ${s.f}: ${s.raw} bytes, gzip ${s.gz} bytes`);
  const total = sized.reduce((a, s) => a + s.raw, 0);
  console.log(`  total api/: ${files.length} arquivos, ${kb(total)}`);
  // the docs page as a visitor downloads it: GitHub Pages gzips HTML, JavaScript and JSON on the fly
  const docs = ["docs/index.html", "docs/init.js", "docs/redoc.standalone.js", "api/v1/openapi.json"];
  const pesos = await Promise.all(docs.map(async (f) => ({ f, raw: (await stat(join(pub, f))).size, gz: gzipSync(await readFile(join(pub, f))).length })));
  for (const p of pesos) console.log(`  ${p.f}: ${p.raw} bytes, gzip ${p.gz} bytes`);
  const gz = pesos.reduce((a, p) => a + p.gz, 0);
  console.log(`  página docs/ transferida (gzip): ${kb(gz)} (limite 400 KB)`);
  void execFileSync;
}
