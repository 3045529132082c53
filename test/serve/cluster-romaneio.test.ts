/**
 * The romaneio quota in a cluster without Redis (`npm start -- --workers 2`): the limit travels
 * with each question over IPC to the primary's one count (so it is not the key limit of 10,000),
 * units are given back over IPC, and readings racing through both workers for the last units stop
 * exactly at the limit, the refused ones never reaching the engine.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../pipeline/config.ts";
import { buildTestSite } from "./site.ts";

const CHAVE = "chave-romaneio-cluster-0123456789";
let site: Awaited<ReturnType<typeof buildTestSite>>;
const filhos: ChildProcess[] = [];

beforeAll(async () => {
  site = await buildTestSite();
}, 120_000);

afterAll(async () => {
  for (const c of filhos) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  await site?.cleanup();
});

/** the child (node itself, not the tsx wrapper), its output so far, and a wait for a line matching `fim` */
function iniciar(args: string[], fim: RegExp): { child: ChildProcess; out: () => string; pronto: Promise<RegExpExecArray> } {
  const child = spawn(process.execPath, ["--import", "tsx", "test/serve/cluster-romaneio-child.ts", ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, COTACAO_REDIS_URL: "", COTACAO_WORKERS: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  filhos.push(child);
  let out = "";
  const pronto = new Promise<RegExpExecArray>((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => {
      out += String(d);
      const m = fim.exec(out);
      if (m) resolve(m);
    });
    child.stderr!.on("data", (d: Buffer) => (out += String(d)));
    child.once("exit", (code) => reject(new Error(`o cluster saiu com ${code}:\n${out}`)));
  });
  return { child, out: () => out, pronto };
}

function parar(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

describe("the quota over the cluster's IPC", () => {
  it("two workers asking at once: a limit per question (20,000 lets 10,002 through), 17 of 60 under 17, refunds never below zero", async () => {
    const c = iniciar(["loja"], /\{"fim":true\}/);
    await c.pronto;
    const relatos = c
      .out()
      .split("\n")
      .filter((l) => l.startsWith('{"worker"'))
      .map((l) => JSON.parse(l) as { grandes: number; corrida: number; devolve: boolean[]; depois: number; limiteGrande: number });
    expect(relatos).toHaveLength(2);
    expect(relatos.map((r) => r.grandes)).toEqual([5_001, 5_001]);
    expect(relatos[0]!.corrida + relatos[1]!.corrida).toBe(17);
    for (const r of relatos) {
      expect(r.devolve).toEqual([true, false, true]);
      expect(r.depois).toBe(0);
      expect(r.limiteGrande).toBe(20_000);
    }
  }, 60_000);
});

describe("POST /api/v1/romaneio in a cluster of two workers", () => {
  it("8 readings at once for 3 units: 3 reach an engine and answer 200, 5 get 429; a failed reading gives its unit back", async () => {
    const c = iniciar(["rota", site.publicDir, "3"], /\{"url":"([^"]+)"\}/);
    try {
      const url = (await c.pronto)[1]!;
      const png = (nono = 7) => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, nono)]);
      // a new connection per request, so the primary hands them to both workers
      const post = (corpo: Buffer) =>
        fetch(new URL("api/v1/romaneio", url), { method: "POST", body: new Uint8Array(corpo), headers: { "Content-Type": "image/png", "X-API-Key": CHAVE, Connection: "close" } });
      // the workers' lines reach this process through a pipe, maybe after the answer: waited for, up to 2 s
      const ocr = async (n: number) => {
        const contar = () => c.out().split("\n").filter((l) => l.startsWith('{"ocr"')).length;
        for (let i = 0; i < 100 && contar() < n; i++) await new Promise((r) => setTimeout(r, 20));
        return contar();
      };
      // a failure first: its unit comes back
      const falha = await post(png(0xee));
      expect(falha.status).toBe(422);
      expect(falha.headers.get("x-ratelimit-remaining")).toBe("3");
      expect(await ocr(1)).toBe(1);
      const rs = await Promise.all(Array.from({ length: 8 }, () => post(png())));
      expect(rs.map((r) => r.status).sort()).toEqual([200, 200, 200, 429, 429, 429, 429, 429]);
      const restantes = await Promise.all(rs.filter((r) => r.status === 200).map(async (r) => ((await r.json()) as { rate_limit: { restante: number } }).rate_limit.restante));
      expect(restantes.sort()).toEqual([0, 1, 2]);
      expect(await ocr(4)).toBe(4);
      expect((await post(png())).status).toBe(429);
      expect(await ocr(4)).toBe(4);
    } finally {
      await parar(c.child);
    }
  }, 90_000);
});
