/**
 * Live path against local fake sources (one per real host: CEPEA, Scot, Notícias Agrícolas),
 * with the production politeness (1 s between requests to the same host) and timeouts.
 */
import { performance } from "node:perf_hooks";
import { createLiveLoader } from "../../pipeline/fetch/live.ts";
import { SOURCES } from "../../pipeline/sources/index.ts";
import { fixture, jsChallenge, ok, startSources } from "../fetch/server.ts";

type Sites = Awaited<ReturnType<typeof startSources>>;

async function loadAll(s: Sites, label: string): Promise<void> {
  const loader = createLiveLoader({ env: s.env });
  const t0 = performance.now();
  const lines: string[] = [];
  try {
    for (const source of SOURCES) {
      for (const page of source.pages) {
        const t = performance.now();
        const r = await loader.load(source, page);
        const what = r.ok ? r.method : `FALHA ${r.kind}: ${r.reason}`;
        lines.push(`    ${source.id}/${page.id}: ${what}, ${(performance.now() - t).toFixed(0)} ms`);
      }
    }
  } finally {
    const total = performance.now() - t0;
    const launch = loader.browserLaunchMs();
    const tc = performance.now();
    await loader.close();
    const closeMs = performance.now() - tc;
    console.log(`  ${label}: ${total.toFixed(0)} ms${launch === null ? " (meta < 5000 ms sem navegador)" : ""}`);
    for (const l of lines) console.log(l);
    if (launch !== null) console.log(`    navegador: lançado uma vez, ${launch.toFixed(0)} ms para iniciar, ${closeMs.toFixed(0)} ms para fechar`);
    const hosts = { ...loader.requestsPerHost() };
    const name: Record<string, string> = { [s.cepea.host]: "cepea", [s.scot.host]: "scot", [s.na.host]: "noticias-agricolas" };
    console.log(`    requisições por host: ${Object.entries(hosts).map(([h, n]) => `${name[h] ?? h} (${h})=${n}`).join(", ")}`);
  }
}

export async function benchLive(): Promise<void> {
  console.log("\n## Live path: every page from local sources (1 s between requests to a host)");
  const s = await startSources();
  try {
    await loadAll(s, "todas as páginas saudáveis, só HTTP");
    s.cepea.route("/br/indicador/boi-gordo.aspx", jsChallenge(ok(fixture("cepea/boi-gordo.html"))));
    await loadAll(s, "uma página com desafio JavaScript (cepea/boi-gordo), resolvido no Chromium");
  } finally {
    await s.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchLive();
