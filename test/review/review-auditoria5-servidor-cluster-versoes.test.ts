/**
 * What was wrong: with `npm start -- --workers N` each worker keeps its own cache of public/ and
 * checks a file on disk at most once a second. After a publish, the worker whose second had run
 * out answered the new soja price while the other still answered the old one for up to a second:
 * a client whose connections landed on both (every new connection goes to the next worker) saw
 * the price go new, old, new; and milho's old file after soja's new one, a mix of two publishes.
 * An If-None-Match with the new ETag got a 200 with the old bytes from the other worker.
 *
 * Now a worker about to hand out a version of a file the cluster has not seen asks the primary,
 * which has every other worker drop its entries (each checked on disk again before its next use)
 * before that worker answers.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../pipeline/config.ts";
import { buildTestSite } from "../serve/site.ts";

let site: Awaited<ReturnType<typeof buildTestSite>>;
let child: ChildProcess | undefined;

beforeAll(async () => {
  site = await buildTestSite();
}, 120_000);

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    const saiu = new Promise((r) => child!.once("exit", r));
    child.kill("SIGTERM");
    await saiu;
  }
  await site?.cleanup();
});

function iniciar(): Promise<string> {
  // node itself (not the tsx wrapper, which would leave the primary behind when killed)
  child = spawn(process.execPath, ["--import", "tsx", "test/serve/cluster-child.ts", site.publicDir, "--workers", "2"], {
    cwd: REPO_ROOT,
    env: { ...process.env, COTACAO_REDIS_URL: "", COTACAO_WORKERS: "", COTACAO_COTA_DIARIA: "100000" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  return new Promise((resolve, reject) => {
    child!.stdout!.on("data", (d: Buffer) => {
      out += String(d);
      const u = /\{"url":"([^"]+)"\}/.exec(out);
      if (u) resolve(u[1]!);
    });
    child!.stderr!.on("data", (d: Buffer) => (out += String(d)));
    child!.once("exit", (code) => reject(new Error(`o cluster saiu com ${code} antes de servir:\n${out}`)));
  });
}

const dormir = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("--workers 2 across a publish", () => {
  it("never answers a client the old soja or milho after it got a new one, whichever worker answers", async () => {
    const url = await iniciar();
    // a new connection per request: the primary hands them to the workers in turn
    const pedir = async (caminho: string, headers: Record<string, string> = {}) => {
      const r = await fetch(url + caminho.slice(1), { headers: { Connection: "close", ...headers } });
      const texto = await r.text();
      return { status: r.status, etag: r.headers.get("etag"), valor: r.status === 200 && texto.startsWith("{") ? (JSON.parse(texto).valor as number) : null };
    };
    const SOJA = "/api/v1/cotacao?produto=soja";
    const MILHO = "/api/v1/cotacao/milho.json";
    const OUTRO = "/favicon.svg";
    const arquivos = { soja: join(site.publicDir, "api/v1/cotacao/soja.json"), milho: join(site.publicDir, "api/v1/cotacao/milho.json") };
    for (let vez = 0; vez < 2; vez++) {
      const antes = { soja: (await pedir(SOJA)).valor!, milho: (await pedir(MILHO)).valor! };
      await dormir(1100);
      // one worker reads both files now, the other half a second later: their seconds run out apart
      await pedir(SOJA);
      await pedir(OUTRO);
      await pedir(MILHO);
      await dormir(500);
      await pedir(SOJA);
      await pedir(OUTRO);
      await pedir(MILHO);
      await dormir(100);
      // the publish: each file renamed over the old one, as publishFiles does
      const novo = { soja: Math.round((antes.soja + 1.11) * 100) / 100, milho: Math.round((antes.milho + 2.22) * 100) / 100 };
      for (const k of ["soja", "milho"] as const) {
        const doc = JSON.parse(await readFile(arquivos[k], "utf8"));
        doc.valor = novo[k];
        await writeFile(`${arquivos[k]}.novo`, JSON.stringify(doc));
      }
      await rename(`${arquivos.soja}.novo`, arquivos.soja);
      await rename(`${arquivos.milho}.novo`, arquivos.milho);
      const vistos: string[] = [];
      let viuNovo = false;
      let etagNova: string | null = null;
      const fim = Date.now() + 1600;
      while (Date.now() < fim) {
        for (const [nome, caminho] of [["soja", SOJA], ["soja", SOJA], ["milho", MILHO], ["milho", MILHO]] as const) {
          const r = await pedir(caminho);
          const ehNovo = r.valor === novo[nome];
          if (!ehNovo) expect(r.valor, `vez ${vez}: ${nome}`).toBe(antes[nome]);
          vistos.push(`${nome} ${ehNovo ? "novo" : "antigo"}`);
          if (ehNovo && nome === "soja") etagNova = r.etag;
          // never the old one of either file once the client got a new one
          if (!ehNovo && viuNovo) expect.fail(`vez ${vez}: ${vistos.join(", ")}`);
          viuNovo ||= ehNovo;
        }
        // a client holding the new ETag is never handed the old bytes for it
        if (etagNova) {
          const r = await pedir(SOJA, { "If-None-Match": etagNova });
          expect(r.status, `vez ${vez}: ${vistos.join(", ")}`).toBe(304);
        }
        await dormir(20);
      }
      expect(vistos.slice(-4)).toEqual(["soja novo", "soja novo", "milho novo", "milho novo"]);
    }
  }, 60_000);
});
