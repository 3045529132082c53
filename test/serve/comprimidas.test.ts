/**
 * Compressed query answers kept ready: a ready answer's brotli and gzip heads are made once per
 * encoding, the fast path serves them, they decode to exactly the plain answer, they go when the
 * site's file changes, and they count in the table's bound. (test/serve/rapido.test.ts checks the
 * fast path and Hono send the same bytes for each Accept-Encoding.)
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer, type ServeOptions } from "../../pipeline/serve/app.ts";
import { get, rawRequest } from "./http.ts";
import { siteDoDescribe } from "./site.ts";

const KEY = "chave-das-comprimidas-0123";
const CONSULTA = "/api/v1/cotacao?uf=MS";
const NAVEGADOR = "gzip, deflate, br";
const site = siteDoDescribe();
const abertos: RunningServer[] = [];
let clock = Date.parse("2026-09-27T12:00:00Z");

afterAll(async () => {
  for (const s of abertos) await s.close();
});

async function servidor(extra: Partial<ServeOptions> = {}): Promise<RunningServer> {
  const s = await startServer({ publicDir: site().publicDir, apiKeys: [KEY], now: () => clock, quota: { keyLimit: 100_000 }, ...extra });
  abertos.push(s);
  return s;
}

type Resposta = Awaited<ReturnType<typeof rawRequest>>;

async function pedir(s: RunningServer, accept?: string, path = CONSULTA, extra: Record<string, string> = {}): Promise<Resposta> {
  return rawRequest(s.port, get(path, { "X-API-Key": KEY, ...(accept === undefined ? {} : { "Accept-Encoding": accept }), ...extra }));
}

function decodificada(r: Resposta): Buffer {
  const enc = r.headers["content-encoding"];
  return enc === "br" ? brotliDecompressSync(r.bytes) : enc === "gzip" ? gunzipSync(r.bytes) : r.bytes;
}

/** the answer's bytes before its counter (the only part that differs between two answers) */
const RATE_LIMIT = /"rate_limit":\{"diario":\d+,"restante":\d+\}\}$/;
function semContador(r: Resposta): { antes: string; cauda: string } {
  const texto = decodificada(r).toString("utf8");
  const m = RATE_LIMIT.exec(texto);
  expect(m, texto.slice(-100)).not.toBeNull();
  // the counter the body reports is the one the headers report
  expect(m![0]).toBe(`"rate_limit":{"diario":${r.headers["x-ratelimit-limit"]},"restante":${r.headers["x-ratelimit-remaining"]}}}`);
  return { antes: texto.slice(0, m!.index), cauda: m![0] };
}

/** what the table holds for one answer kept ready, from its answers: head characters plus compressed heads' bytes */
function pesoEsperado(plana: Resposta, comprimidas: Resposta[]): number {
  const { antes } = semContador(plana);
  let peso = antes.length;
  for (const r of comprimidas) {
    const n = semContador(r).cauda.length;
    // what each body adds after the head's stream: brotli, a meta-block header and the last one; gzip, a stored block's header and the trailer
    peso += r.bytes.length - n - (r.headers["content-encoding"] === "br" ? 3 + 1 : 5 + 8);
  }
  return peso;
}

describe("compressed query answers kept ready", () => {
  it("each Accept-Encoding gets its encoding, and every compressed answer decodes to exactly the plain one", async () => {
    const s = await servidor();
    const plana = await pedir(s);
    expect(plana.status).toBe(200);
    expect(plana.headers["content-encoding"]).toBeUndefined();
    // the test site's answer is large enough to be compressed
    expect(plana.bytes.length).toBeGreaterThan(1024);
    const casos: [string | undefined, string | undefined][] = [
      [NAVEGADOR, "br"],
      ["br", "br"],
      ["gzip", "gzip"],
      ["gzip;q=0", undefined],
      ["gzip;q=0, br", "br"],
      ["br;q=0, gzip;q=0.5", "gzip"],
      ["identity", undefined],
      ["*", "br"],
      ["br;q=0, *", "gzip"],
      ["deflate", undefined],
      [undefined, undefined],
    ];
    for (const [accept, esperada] of casos) {
      // twice: the first may be Hono's, the second is the fast path's
      for (let i = 0; i < 2; i++) {
        const r = await pedir(s, accept);
        expect(r.status, String(accept)).toBe(200);
        expect(r.headers["content-encoding"], String(accept)).toBe(esperada);
        expect(r.headers.vary).toBe("Accept-Encoding, X-API-Key");
        expect(r.headers["content-length"]).toBe(String(r.bytes.length));
        // weak: the same ETag for every encoding (and every counter) is what a weak validator allows
        expect(r.headers.etag).toBe(plana.headers.etag);
        expect(r.headers.etag).toMatch(/^W\//);
        expect(semContador(r).antes, String(accept)).toBe(semContador(plana).antes);
      }
    }
    expect(s.respostasRapidas()).toBeGreaterThanOrEqual(casos.length);
  });

  it("a ready answer is compressed once per encoding, and the fast path serves the kept form", async () => {
    const s = await servidor();
    const plana = await pedir(s);
    const antes = s.memoriaPronta();
    expect(antes.compressoes).toBe(0);
    const rapidas = s.respostasRapidas();
    const rs: Resposta[] = [];
    for (let i = 0; i < 4; i++) rs.push(await pedir(s, NAVEGADOR), await pedir(s, "gzip"));
    expect(s.respostasRapidas() - rapidas).toBe(rs.length);
    expect(s.memoriaPronta().compressoes).toBe(2);
    const br = rs.filter((r) => r.headers["content-encoding"] === "br");
    const gz = rs.filter((r) => r.headers["content-encoding"] === "gzip");
    expect([br.length, gz.length]).toEqual([4, 4]);
    // a 304 with Accept-Encoding, from the fast path
    const nao = await pedir(s, NAVEGADOR, CONSULTA, { "If-None-Match": plana.headers.etag! });
    expect(nao.status).toBe(304);
    expect(nao.bytes.length).toBe(0);
    expect(nao.headers["content-encoding"]).toBeUndefined();
    expect(s.respostasRapidas() - rapidas).toBe(rs.length + 1);
    // the table holds the head and the two compressed heads, nothing else
    expect(s.memoriaPronta()).toEqual({ respostas: 1, tamanho: pesoEsperado(plana, [br[0]!, gz[0]!]), compressoes: 2 });
  });

  it("a file checked again and unchanged keeps its answer and its compressed forms (not compressed again every second)", async () => {
    const s = await servidor();
    const plana = await pedir(s);
    const br = await pedir(s, "br");
    await pedir(s, "gzip");
    expect(s.memoriaPronta().compressoes).toBe(2);
    const saved = clock;
    try {
      for (let i = 0; i < 3; i++) {
        clock += 5000; // past the files' recheck interval: the file is checked on disk, unchanged
        const de_novo = await pedir(s, "br");
        expect(de_novo.headers.etag).toBe(plana.headers.etag);
        expect(semContador(de_novo).antes).toBe(semContador(br).antes);
        await pedir(s, "gzip");
      }
      expect(s.memoriaPronta().compressoes).toBe(2);
    } finally {
      clock = saved;
    }
  });

  it("a rebuilt file drops the compressed forms with the answer: the new answer, compressed anew", async () => {
    const s = await servidor();
    const path = join(site().publicDir, "api/v1/cotacao/uf/MS.json");
    const original = await readFile(path, "utf8");
    const velha = await pedir(s);
    await pedir(s, "br");
    await pedir(s, "gzip");
    expect(s.memoriaPronta().compressoes).toBe(2);
    const doc = JSON.parse(original) as { boi_gordo_uf: { praca: string } };
    doc.boi_gordo_uf.praca = "Praça reconstruída";
    const saved = clock;
    try {
      await writeFile(path, `${JSON.stringify(doc, null, 2)}\n`);
      clock += 5000; // past the files' recheck interval
      const plana = await pedir(s);
      expect(plana.headers.etag).not.toBe(velha.headers.etag);
      expect(JSON.parse(plana.body).boi_gordo_uf.praca).toBe("Praça reconstruída");
      const br = await pedir(s, "br");
      const gz = await pedir(s, "gzip");
      for (const r of [br, gz]) {
        expect(r.headers.etag).toBe(plana.headers.etag);
        expect(semContador(r).antes).toBe(semContador(plana).antes);
      }
      expect(s.memoriaPronta()).toEqual({ respostas: 1, tamanho: pesoEsperado(plana, [br, gz]), compressoes: 4 });
    } finally {
      await writeFile(path, original);
      clock = saved + 10_000;
    }
    // and back: the original answer again, compressed again
    const de_novo = await pedir(s, "gzip");
    expect(semContador(de_novo).antes).toBe(semContador(velha).antes);
    expect(s.memoriaPronta().compressoes).toBe(5);
    clock = saved;
  });

  it("the compressed forms count in the table's bound: one that does not fit is made per request, never kept", async () => {
    // the head's size, from a server with the default bound
    const livre = await servidor();
    const cabeca = Buffer.byteLength(semContador(await pedir(livre)).antes);
    // room for the answer and its compressed heads, bounded at twice the head: gzip's fits, brotli's then does not
    const limite = 2 * cabeca + 10;
    const s = await servidor({ prontas: { tamanho: limite } });
    const plana = await pedir(s);
    const vistos: number[] = [];
    let gz: Resposta | undefined;
    for (let i = 0; i < 3; i++) {
      gz = await pedir(s, "gzip");
      const br = await pedir(s, "br");
      expect(semContador(gz).antes).toBe(semContador(plana).antes);
      expect(semContador(br).antes).toBe(semContador(plana).antes);
      const m = s.memoriaPronta();
      expect(m.tamanho).toBeLessThanOrEqual(limite);
      vistos.push(m.compressoes);
    }
    // gzip once, brotli on every request
    expect(vistos).toEqual([2, 3, 4]);
    expect(s.memoriaPronta()).toEqual({ respostas: 1, tamanho: pesoEsperado(plana, [gz!]), compressoes: 4 });
    expect(s.respostasRapidas()).toBeGreaterThanOrEqual(5);

    // a bound that holds only the plain answer: nothing compressed is kept, the answers are still right
    const justo = await servidor({ prontas: { tamanho: cabeca } });
    await pedir(justo);
    for (const accept of [NAVEGADOR, "gzip", NAVEGADOR]) {
      const r = await pedir(justo, accept);
      expect(r.headers["content-encoding"]).toBeDefined();
      expect(semContador(r).antes).toBe(semContador(plana).antes);
      expect(justo.memoriaPronta().tamanho).toBeLessThanOrEqual(cabeca);
    }
    expect(justo.memoriaPronta().compressoes).toBe(3);
  });
});
