/**
 * A cluster for the romaneio quota tests (test/serve/cluster-romaneio.test.ts), in two modes:
 * - `rota PUBLIC_DIR COTA`: `npm start -- --workers 2` without the build, romaneio on for the key
 *   CHAVE with COTA readings a day (set directly: no ceiling of the environment's parsing), and a
 *   fake engine in each worker that prints {"ocr": pid} per file and then, by the PNG's 31st byte
 *   (the first after its IHDR): 0xEE answers at once that it is busy ("ocupado", refunded), 0xDD
 *   fails after its work as an unreadable image (charged), 0xCC waits until the file PORTAO exists
 *   (so readings overlap for sure); anything else takes 300 ms. The primary prints {"url": ...}.
 * - `loja`: the primary answers the quota over IPC and forks two workers that each ask it, at the
 *   same time, for units under limits of their own (one above 10,000) and give some back; each
 *   prints {"worker": pid, ...} with what it was granted, and the primary {"fim": true} once both
 *   exit.
 */
import cluster from "node:cluster";
import { existsSync } from "node:fs";
import { servirCluster } from "../../pipeline/serve/cluster.ts";
import { Quota } from "../../pipeline/serve/quota.ts";
import { PrimaryQuota, servirCotaNoPrimario } from "../../pipeline/serve/quota-cluster.ts";
import type { Leitor } from "../../pipeline/serve/romaneio.ts";

const CHAVE = "chave-romaneio-cluster-0123456789";
const T = Date.parse("2026-09-27T12:00:00Z");
const [modo, publicDir, cota, portao] = process.argv.slice(2);

const espera = (ms: number) => new Promise((r) => setTimeout(r, ms));

if (modo === "rota") {
  if (!publicDir || !cota) throw new Error("uso: cluster-romaneio-child.ts rota PUBLIC_DIR COTA [PORTAO]");
  const leitor: Leitor = {
    ler: async (bytes, tipo) => {
      console.log(JSON.stringify({ ocr: process.pid }));
      const erro = (codigo: string) => Object.assign(new Error(codigo), { name: "ErroOcr", codigo });
      if (bytes[30] === 0xee) throw erro("ocupado");
      if (bytes[30] === 0xcc) {
        while (!(portao && existsSync(portao))) await espera(20);
      } else await espera(300);
      if (bytes[30] === 0xdd) throw erro("arquivo_invalido");
      return { texto: "ROMANEIO DE ABATE", origem: "ocr", tipo: tipo as "image/png", paginas: 1, segundos: 0.3 };
    },
    fechar: async () => undefined,
  };
  const s = await servirCluster(
    {
      serve: { publicDir, port: 0, host: "127.0.0.1" },
      quota: {},
      romaneio: { chaves: [CHAVE], cotaDiaria: Number(cota), maxBytes: 1024 * 1024, tempoS: 60, workers: 1, simultaneas: 2 },
      criarLeitor: () => leitor,
    },
    2,
  );
  if (cluster.isPrimary) console.log(JSON.stringify({ url: s.url }));
} else if (modo === "loja") {
  if (cluster.isPrimary) {
    const parar = servirCotaNoPrimario(new Quota());
    let vivos = 2;
    cluster.on("exit", () => {
      if (--vivos > 0) return;
      parar();
      console.log(JSON.stringify({ fim: true }));
    });
    cluster.fork();
    cluster.fork();
  } else {
    const q = new PrimaryQuota();
    const vezes = async (n: number, f: () => Promise<{ allowed: boolean }>) => (await Promise.all(Array.from({ length: n }, f))).filter((r) => r.allowed).length;
    // both workers at once: 5,001 each under a limit of 20,000 (10,002 in all, past the key limit), 30 each under 17
    const grandes = await vezes(5_001, () => q.consume("key", "romaneio:grande", T, 20_000));
    const corrida = await vezes(30, () => q.consume("key", "romaneio:corrida", T, 17));
    // a unit of its own, given back and taken again
    const id = `romaneio:devolve:${process.pid}`;
    const devolve: boolean[] = [];
    devolve.push((await q.consume("key", id, T, 1)).allowed);
    devolve.push((await q.consume("key", id, T, 1)).allowed);
    await q.refund("key", id, T);
    await q.refund("key", id, T);
    const depois = (await q.peek("key", id, T, 1)).used;
    devolve.push((await q.consume("key", id, T, 1)).allowed);
    // after both are done, the counts the primary holds (a worker may finish first: asked again at the end)
    const grande = await q.peek("key", "romaneio:grande", T, 20_000);
    console.log(JSON.stringify({ worker: process.pid, grandes, corrida, devolve, depois, limiteGrande: grande.limit }));
    await q.close();
    process.disconnect();
  }
} else {
  throw new Error("uso: cluster-romaneio-child.ts rota PUBLIC_DIR COTA [PORTAO] | loja");
}
