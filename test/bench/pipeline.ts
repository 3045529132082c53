import { execFileSync, spawnSync } from "node:child_process";
import { cp, mkdtemp, readFile, rm, stat, unlink } from "node:fs/promises";
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
  try {
    const points = await writeSyntheticSite(site, 30, new Date("2026-11-20T12:00:00-03:00"));
    // keep only the store (series files): the build must write every derived file
    for (const f of await listFiles(site)) {
      const rel = relative(site, f);
      if (!/^api\/v1\/cotacao\/[a-z_]+(\/[A-Z]{2})?\.json$/.test(rel) || rel.startsWith("api/v1/cotacao/uf/")) await unlink(f);
    }
    const r = spawnSync(TSX, ["test/bench/build-child.ts", site, floor], { cwd: REPO_ROOT, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`build falhou: ${r.stderr}`);
    const m = JSON.parse(r.stdout.trim().split("\n").pop()!) as { buildMs: number; floorMs: number; maxRssMb: number; files: number; bytes: number };
    console.log(`  ${points.toLocaleString("pt-BR")} pontos diários em ${m.files} arquivos, ${(m.bytes / 1e6).toFixed(1)} MB`);
    console.log(`  build completo: ${m.buildMs.toFixed(0)} ms (meta < 3000 ms); pico de RSS ${m.maxRssMb.toFixed(0)} MB (meta < 300 MB)`);
    console.log(`  só escrever os mesmos bytes: ${m.floorMs.toFixed(0)} ms; razão build/piso = ${(m.buildMs / m.floorMs).toFixed(2)}× (meta ≤ 3×)`);

    // a one-day update of that history rewrites only the files that changed
    const before = new Map<string, number>();
    for (const f of await listFiles(site)) before.set(f, (await stat(f)).mtimeMs);
    const pages = await mkdtemp(join(tmpdir(), "bench-pages-"));
    await cp(join(FIXTURES, "cepea"), join(pages, "cepea"), { recursive: true });
    const milho = join(pages, "cepea/milho.html");
    const html = await readFile(milho, "utf8");
    // one new business day after the synthetic history's last day, at a plausible value
    const { readFile: rf } = await import("node:fs/promises");
    const doc = JSON.parse(await rf(join(site, "api/v1/cotacao/milho.json"), "utf8"));
    const lastDay: string = doc.historico[doc.historico.length - 1].data;
    const next = new Date(`${lastDay}T12:00:00Z`);
    do next.setUTCDate(next.getUTCDate() + 1); while ([0, 6].includes(next.getUTCDay()));
    const br = `${String(next.getUTCDate()).padStart(2, "0")}/${String(next.getUTCMonth() + 1).padStart(2, "0")}/${next.getUTCFullYear()}`;
    const value = (doc.valor as number).toFixed(2).replace(".", ",");
    const onlyOneRow = html.replace(/(<table id="imagenet-indicador1"[\s\S]*?<tbody>)[\s\S]*?(<\/tbody>)/, `$1<tr><td>${br}</td><td>${value}</td><td>0,00%</td><td>0,00%</td><td>13,00</td></tr>$2`);
    await (await import("node:fs/promises")).writeFile(milho, onlyOneRow);
    for (const p of ["boi-gordo", "bezerro", "soja"]) await rm(join(pages, "cepea", `${p}.html`));
    const t = performance.now();
    const u = spawnSync(TSX, ["pipeline/cli/update.ts", "--replay", pages], {
      cwd: REPO_ROOT,
      env: { ...process.env, COTACAO_PUBLIC_DIR: site, COTACAO_NOW: `${next.toISOString().slice(0, 10)}T20:00:00-03:00`, COTACAO_FONTES_DESATIVADAS: "scot" },
      encoding: "utf8",
    });
    const ms = performance.now() - t;
    const changed: string[] = [];
    for (const f of await listFiles(site)) if ((await stat(f)).mtimeMs !== before.get(f)) changed.push(relative(site, f));
    console.log(`  atualização de um dia (milho ${br}): ${ms.toFixed(0)} ms, ${changed.length} arquivos reescritos de ${before.size}: ${changed.sort().join(", ")}`);
    if (!/milho/.test(changed.join(" "))) console.log(`  ATENÇÃO: a atualização não mudou o milho:\n${u.stdout}\n${u.stderr}`);
    await rm(pages, { recursive: true, force: true });
  } finally {
    await rm(site, { recursive: true, force: true });
    await rm(floor, { recursive: true, force: true });
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
