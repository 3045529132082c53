/**
 * POST /api/v1/romaneio with a fake engine (the route's own paths: keys, quota, bodies, caps,
 * types, the engine's failures, CORS, CSP, logs). The real engine's end-to-end answer and the
 * proof that nothing is written to disk are in romaneio-real.test.ts.
 */
import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { join } from "node:path";
import { REPO_ROOT } from "../../pipeline/config.ts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { validateDocument } from "../../pipeline/contract/schemas.ts";
import type { ComparacaoRomaneio, LeituraRomaneio, Serie } from "../../pipeline/domain/publicados.gerados.ts";
import { buildOpenApi } from "../../pipeline/openapi/build.ts";
import { startServer, tempoRequisicaoMs, type RunningServer, type TemposServidor } from "../../pipeline/serve/app.ts";
import { lerConfigRomaneio, linhaRomaneio, servirUmProcesso } from "../../pipeline/serve/cluster.ts";
import { Quota } from "../../pipeline/serve/quota.ts";
import { idRomaneio, type Etapas, type Leitor, type ResultadoLeitor } from "../../pipeline/serve/romaneio.ts";
import { buildTestSite } from "./site.ts";

const CHAVE = "chave-romaneio-0123456789";
const CHAVE_CONSULTA = "chave-so-consulta-0123456789";
const MAX = 64 * 1024;
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
/** a PNG's signature and IHDR (the size the route checks before the engine), then filler */
const png = (largura = 800, altura = 600) => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), Buffer.from("IHDR"), u32(largura), u32(altura), Buffer.alloc(200, 7)]);
const PNG = png();
// SOI, then a SOF0 of 600 × 800 (height, width)
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x02, 0x58, 0x03, 0x20]), Buffer.alloc(200, 3)]);
const PDF = Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");

let site: Awaited<ReturnType<typeof buildTestSite>>;
let srv: RunningServer;
let clock = Date.parse("2026-09-27T12:00:00Z");

/** what the fake engine does with the next file (tests swap it) */
let comportamento: (bytes: Uint8Array, tipo: string) => Promise<ResultadoLeitor>;
const lidos: { bytes: number; tipo: string }[] = [];
const leitor: Leitor = {
  ler: (bytes, tipo) => {
    lidos.push({ bytes: bytes.byteLength, tipo });
    return comportamento(bytes, tipo);
  },
  fechar: async () => undefined,
};
const normal = async (_b: Uint8Array, tipo: string): Promise<ResultadoLeitor> => ({
  texto: "ROMANEIO DE ABATE\nData: 05/08/2026",
  origem: "ocr",
  tipo: tipo as ResultadoLeitor["tipo"],
  paginas: 1,
  segundos: 0.8123,
});
const erroOcr = (codigo: string) => Object.assign(new Error(`falha do OCR: ${codigo}`), { name: "ErroOcr", codigo });

const LEITURA: LeituraRomaneio = {
  tipo: "abate",
  data: "2026-08-05",
  produto: "boi_gordo",
  uf: "MS",
  municipio: "Campo Grande",
  comprador: null,
  vendedor: null,
  linhas: [],
  totais: null,
  confianca: { data: 0.93 },
  avisos: [],
};
/** the series the route handed to the comparison, per request */
const recebidas: { estadual: Serie | null; nacional: Serie | null }[] = [];
/** the day in Brasília the route handed to the comparison */
const dias: (string | undefined)[] = [];
let lerFalha: string | null = null;
const etapas: Etapas = {
  ler: (t) => {
    if (lerFalha) throw new Error(lerFalha);
    expect(t.texto).toContain("ROMANEIO");
    return LEITURA;
  },
  series: () => ({ estadual: "boi_gordo/MS", nacional: "boi_gordo" }),
  comparar: (_l, series, opts): ComparacaoRomaneio => {
    recebidas.push(series);
    dias.push(opts?.hoje);
    return { referencias: [], simulacao: null, deducoes: [], avisos: ["sem preço no dia"] };
  },
};

let n = 0;
function ip(): string {
  n += 1;
  return `10.1.${Math.floor(n / 250)}.${n % 250}`;
}

/** every "status erro" the route answered in this file, checked against the OpenAPI at the end */
const vistos = new Set<string>();

async function post(body: BodyInit | null, headers: Record<string, string> = {}, base = srv): Promise<Response> {
  const r = await fetch(new URL("api/v1/romaneio", base.url), { method: "POST", body, headers: { "X-Forwarded-For": ip(), ...headers } });
  if (!r.ok) vistos.add(`${r.status} ${((await r.clone().json()) as { erro: string }).erro}`);
  return r;
}

beforeAll(async () => {
  site = await buildTestSite();
  await mkdir(join(site.publicDir, "romaneio"), { recursive: true });
  await writeFile(join(site.publicDir, "romaneio", "index.html"), "<!doctype html><title>romaneio</title>");
  srv = await startServer({
    publicDir: site.publicDir,
    apiKeys: [CHAVE_CONSULTA],
    trustedProxies: 1,
    now: () => clock,
    romaneio: { chaves: [CHAVE], leitor, etapas, maxBytes: MAX, tempoS: 60 },
  });
}, 120_000);
afterAll(async () => {
  await srv?.close();
  await site?.cleanup();
});

describe("POST /api/v1/romaneio: access", () => {
  it("refuses without a key (401), an unknown key (401) and a key without the permission (403), as JSON, before reading the file", async () => {
    comportamento = normal;
    lidos.length = 0;
    const sem = await post(PNG, { "Content-Type": "image/png" });
    expect(sem.status).toBe(401);
    expect(sem.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await sem.json()).toMatchObject({ erro: "chave_ausente" });
    const desconhecida = await post(PNG, { "Content-Type": "image/png", "X-API-Key": "nao-existe" });
    expect(desconhecida.status).toBe(401);
    expect(await desconhecida.json()).toMatchObject({ erro: "chave_invalida", mensagem: expect.stringContaining("romaneio") });
    const consulta = await post(PNG, { "Content-Type": "image/png", "X-API-Key": CHAVE_CONSULTA });
    expect(consulta.status).toBe(403);
    expect(await consulta.json()).toMatchObject({ erro: "sem_permissao", mensagem: expect.stringContaining("romaneio") });
    expect(lidos).toEqual([]);
  });

  it("reads with a romaneio key: the reading, the comparison with the series of the served tree, the file's facts, no-store", async () => {
    comportamento = normal;
    recebidas.length = 0;
    const res = await post(PNG, { "Content-Type": "image/png", "X-API-Key": CHAVE });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ leitura: LEITURA, arquivo: { tipo: "image/png", paginas: 1, origem: "ocr", segundos: 0.81 } });
    expect(body.comparacao).toMatchObject({ avisos: ["sem preço no dia"] });
    expect(validateDocument("api/v1/romaneio.json", body)).toEqual([]);
    expect(recebidas).toHaveLength(1);
    expect(dias.at(-1)).toBe("2026-09-27");
    expect(recebidas[0]!.estadual).toMatchObject({ produto: "boi_gordo", uf: "MS" });
    expect(recebidas[0]!.nacional).toMatchObject({ produto: "boi_gordo" });
    expect(recebidas[0]!.nacional!.historico.length).toBeGreaterThan(1);
  });

  it("a romaneio key is also a key of the query routes", async () => {
    const res = await fetch(new URL("api/v1/cotacao?uf=MS", srv.url), { headers: { "X-API-Key": CHAVE } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { rate_limit: { diario: number } }).rate_limit.diario).toBe(10_000);
  });

  it("GET on the path is 405 naming POST; POST elsewhere stays 405 naming GET", async () => {
    const get = await fetch(new URL("api/v1/romaneio", srv.url));
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST, OPTIONS");
    const put = await fetch(new URL("api/v1/romaneio", srv.url), { method: "PUT", body: "x" });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("POST, OPTIONS");
    const outro = await fetch(new URL("api/v1/cotacao", srv.url), { method: "POST", body: PNG, headers: { "X-API-Key": CHAVE } });
    expect(outro.status).toBe(405);
    expect(outro.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });
});

describe("POST /api/v1/romaneio: bodies", () => {
  it("takes multipart/form-data's field arquivo, with or without the part's type", async () => {
    comportamento = normal;
    lidos.length = 0;
    const com = new FormData();
    com.append("arquivo", new Blob([JPEG], { type: "image/jpeg" }), "foto.jpg");
    const r1 = await post(com, { "X-API-Key": CHAVE });
    expect(r1.status).toBe(200);
    expect(((await r1.json()) as { arquivo: { tipo: string } }).arquivo.tipo).toBe("image/jpeg");
    const sem = new FormData();
    sem.append("arquivo", new Blob([PDF]), "romaneio");
    const r2 = await post(sem, { "X-API-Key": CHAVE });
    expect(r2.status).toBe(200);
    expect(lidos).toEqual([
      { bytes: JPEG.length, tipo: "image/jpeg" },
      { bytes: PDF.length, tipo: "application/pdf" },
    ]);
  });

  it("400: an empty body, a form without arquivo, a malformed form", async () => {
    const vazio = await post(new Uint8Array(0), { "Content-Type": "image/png", "X-API-Key": CHAVE });
    expect(vazio.status).toBe(400);
    expect(await vazio.json()).toMatchObject({ erro: "corpo_vazio" });
    const form = new FormData();
    form.append("foto", new Blob([PNG], { type: "image/png" }));
    const semCampo = await post(form, { "X-API-Key": CHAVE });
    expect(semCampo.status).toBe(400);
    expect(await semCampo.json()).toMatchObject({ erro: "campo_ausente" });
    const mal = await post("não é multipart", { "Content-Type": "multipart/form-data; boundary=xyz", "X-API-Key": CHAVE });
    expect(mal.status).toBe(400);
    expect(await mal.json()).toMatchObject({ erro: "multipart_invalido" });
  });

  it("multipart read by its own scan: a preamble, a quoted boundary, other fields first; a text field named arquivo, too many parts (400)", async () => {
    comportamento = normal;
    lidos.length = 0;
    // built by hand: a preamble, a quoted boundary with a space, a text field before the file
    const b = "limite com espaco";
    const manual = Buffer.concat([
      Buffer.from(`preâmbulo ignorado\r\n--${b}\r\nContent-Disposition: form-data; name="nota"\r\n\r\nolá\r\n`),
      Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="arquivo"; filename="r.png"\r\nContent-Type: image/png\r\n\r\n`),
      PNG,
      Buffer.from(`\r\n--${b}--\r\n`),
    ]);
    const r1 = await post(manual, { "Content-Type": `multipart/form-data; boundary="${b}"`, "X-API-Key": CHAVE });
    expect(r1.status).toBe(200);
    expect(lidos).toEqual([{ bytes: PNG.length, tipo: "image/png" }]);
    // "arquivo" as a text field is not a file
    const texto = new FormData();
    texto.append("arquivo", "não é um arquivo");
    const r2 = await post(texto, { "X-API-Key": CHAVE });
    expect(r2.status).toBe(400);
    expect(await r2.json()).toMatchObject({ erro: "campo_ausente", mensagem: expect.stringContaining("texto") });
    // 16 parts are read, 17 are refused before any is looked at
    const muitos = (n: number) => {
      const f = new FormData();
      for (let i = 0; i < n - 1; i++) f.append(`x${i}`, "1");
      f.append("arquivo", new Blob([PNG], { type: "image/png" }), "r.png");
      return f;
    };
    expect((await post(muitos(16), { "X-API-Key": CHAVE })).status).toBe(200);
    const demais = await post(muitos(17), { "X-API-Key": CHAVE });
    expect(demais.status).toBe(400);
    expect(await demais.json()).toMatchObject({ erro: "multipart_partes_demais", partes_maximas: 16 });
    // no boundary, a part never closed
    expect(await (await post(manual, { "Content-Type": "multipart/form-data", "X-API-Key": CHAVE })).json()).toMatchObject({ erro: "multipart_invalido" });
    const aberto = manual.subarray(0, manual.length - `\r\n--${b}--\r\n`.length);
    expect(await (await post(aberto, { "Content-Type": `multipart/form-data; boundary="${b}"`, "X-API-Key": CHAVE })).json()).toMatchObject({ erro: "multipart_invalido" });
    expect(lidos).toHaveLength(2);
  });

  it("415: the bytes are not what the Content-Type says, an unaccepted type, no type, a text file in a form", async () => {
    lidos.length = 0;
    const casos: [BodyInit, Record<string, string>][] = [
      [PNG, { "Content-Type": "image/jpeg" }],
      [Buffer.from("ROMANEIO DE ABATE 320,00"), { "Content-Type": "image/png" }],
      [PNG, { "Content-Type": "text/plain" }],
      [PNG, { "Content-Type": "" }],
    ];
    for (const [body, headers] of casos) {
      const res = await post(body, { ...headers, "X-API-Key": CHAVE });
      expect(res.status, JSON.stringify(headers)).toBe(415);
      expect(await res.json()).toMatchObject({ erro: "tipo_nao_aceito", aceitos: ["image/png", "image/jpeg", "image/webp", "application/pdf"] });
    }
    const form = new FormData();
    form.append("arquivo", new Blob([PNG], { type: "text/plain" }));
    expect((await post(form, { "X-API-Key": CHAVE })).status).toBe(415);
    const trocado = new FormData();
    trocado.append("arquivo", new Blob([PNG], { type: "application/pdf" }));
    const r = await post(trocado, { "X-API-Key": CHAVE });
    expect(r.status).toBe(415);
    expect(((await r.json()) as { mensagem: string }).mensagem).toContain("image/png");
    expect(lidos).toEqual([]);
  });

  it("413 on a Content-Length past the cap, without reading the body", async () => {
    lidos.length = 0;
    const res = await post(Buffer.alloc(MAX + 1, 1), { "Content-Type": "image/png", "X-API-Key": CHAVE });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ erro: "arquivo_grande_demais", limite_bytes: MAX });
    const exato = await post(Buffer.concat([PNG, Buffer.alloc(MAX - PNG.length)]), { "Content-Type": "image/png", "X-API-Key": CHAVE });
    expect(exato.status).toBe(200);
    expect(lidos).toEqual([{ bytes: MAX, tipo: "image/png" }]);
  });

  it("413 on a chunked body that never ends: cut off at the cap, answered while the client is still sending", async () => {
    lidos.length = 0;
    const { status, body, enviados } = await new Promise<{ status: number; body: string; enviados: number }>((resolve, reject) => {
      const req = request(new URL("api/v1/romaneio", srv.url), {
        method: "POST",
        headers: { "Content-Type": "image/png", "X-API-Key": CHAVE, "Transfer-Encoding": "chunked", "X-Forwarded-For": ip() },
      });
      let enviados = 0;
      let respondido = false;
      const escrever = () => {
        // an endless upload: only the server's answer stops it
        while (!respondido && req.write(enviados === 0 ? PNG : Buffer.alloc(8192, 1))) enviados += 8192;
        if (!respondido) req.once("drain", escrever);
      };
      req.on("response", (res) => {
        respondido = true;
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (d) => (body += d));
        res.on("end", () => {
          req.destroy();
          resolve({ status: res.statusCode!, body, enviados });
        });
      });
      req.on("error", (err) => (respondido ? undefined : reject(err)));
      escrever();
    });
    expect(status).toBe(413);
    expect(JSON.parse(body)).toMatchObject({ erro: "arquivo_grande_demais" });
    expect(enviados).toBeGreaterThan(MAX);
    expect(lidos).toEqual([]);
  });
});

describe("POST /api/v1/romaneio: the engine's failures", () => {
  it("422 for a corrupt image or PDF and 504 past the time limit are charged (the engine worked); 503 when busy is not", async () => {
    const restante = async (r: Response) => Number(r.headers.get("x-ratelimit-remaining"));
    comportamento = normal;
    let antes = await restante(await post(PNG, { "Content-Type": "image/png", "X-API-Key": CHAVE }));
    const casos: [string, number, boolean][] = [
      ["arquivo_invalido", 422, true],
      ["pdf_invalido", 422, true],
      ["tempo_esgotado", 504, true],
      ["ocupado", 503, false],
    ];
    for (const [codigo, status, cobrado] of casos) {
      // a slow engine that gives up, as the real one does past its limit
      comportamento = () => new Promise((_r, reject) => setTimeout(() => reject(erroOcr(codigo)), 20));
      const res = await post(PNG, { "Content-Type": "image/png", "X-API-Key": CHAVE });
      expect(res.status, codigo).toBe(status);
      const body = (await res.json()) as { erro: string; mensagem: string };
      expect(body.erro).toBe(codigo);
      if (status === 504) expect(body.mensagem).toContain("60 s");
      if (status === 503) expect(res.headers.get("retry-after")).toBe("5");
      expect(await restante(res), codigo).toBe(cobrado ? antes - 1 : antes);
      antes = await restante(res);
    }
    // an engine that could not start (its language data missing) did no work: 503, the unit given
    // back, and the operator hears the cause in the log, never anything of the file
    const erros = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      comportamento = () => Promise.reject(Object.assign(erroOcr("indisponivel"), { cause: new Error("por.traineddata.gz: ENOENT") }));
      const fora = await post(PNG, { "Content-Type": "image/png", "X-API-Key": CHAVE });
      expect(fora.status).toBe(503);
      expect(((await fora.json()) as { erro: string }).erro).toBe("ocr_indisponivel");
      expect(fora.headers.get("retry-after")).toBe("60");
      expect(await restante(fora)).toBe(antes);
      expect(erros.mock.calls.flat().join("\n")).toContain("o motor de OCR não iniciou: por.traineddata.gz: ENOENT");
    } finally {
      erros.mockRestore();
    }
    // the engine's own reason reaches the user
    const motivo = "o PDF está protegido por senha";
    comportamento = () => Promise.reject(Object.assign(erroOcr("pdf_invalido"), { motivo }));
    const res = await post(PNG, { "Content-Type": "image/png", "X-API-Key": CHAVE });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { mensagem: string }).mensagem).toBe(motivo);
    comportamento = normal;
  });

  it("an image past the pixel cap or with an unreadable header is a 422 before the engine and the quota (nothing charged, nothing given back)", async () => {
    comportamento = normal;
    const { s, store } = await servidor(leitor, 5);
    try {
      lidos.length = 0;
      const grande = await post(png(10_000, 6_000), H, s);
      expect(grande.status).toBe(422);
      expect(await grande.json()).toMatchObject({
        erro: "imagem_grande_demais",
        mensagem: expect.stringContaining("10000 × 6000 pixels; o máximo é 50 megapixels"),
        largura: 10_000,
        altura: 6_000,
        pixels_maximos: 50_000_000,
      });
      expect(grande.headers.get("x-ratelimit-remaining")).toBe("5");
      // the same in a form, and a JPEG with no frame header
      const form = new FormData();
      form.append("arquivo", new Blob([png(8_000, 8_000)], { type: "image/png" }), "foto.png");
      expect(await (await post(form, { "X-API-Key": CHAVE }, s)).json()).toMatchObject({ erro: "imagem_grande_demais" });
      const semQuadro = await post(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 3)]), { ...H, "Content-Type": "image/jpeg" }, s);
      expect(semQuadro.status).toBe(422);
      expect(await semQuadro.json()).toMatchObject({ erro: "arquivo_invalido", mensagem: expect.stringContaining("cabeçalho ilegível") });
      expect(lidos).toEqual([]);
      expect(store.peek("key", ID_ROMANEIO, clock, 5).used).toBe(0);
      // just under the cap goes through
      expect((await post(png(10_000, 5_000), H, s)).status).toBe(200);
      expect(store.peek("key", ID_ROMANEIO, clock, 5).used).toBe(1);
    } finally {
      await s.close();
    }
  });

  it("an unexpected failure is a 500 whose log names the request line and never the error's message (it may quote the file)", async () => {
    const erros = vi.spyOn(console, "error").mockImplementation(() => undefined);
    lerFalha = "linha inesperada: VENDEDOR FULANO DE TAL CPF 123.456.789-09";
    try {
      const res = await post(PNG, { "Content-Type": "image/png", "X-API-Key": CHAVE });
      expect(res.status).toBe(500);
      expect(await res.json()).toMatchObject({ erro: "erro_interno" });
      const log = erros.mock.calls.flat().join("\n");
      expect(log).toContain("POST /api/v1/romaneio");
      expect(log).not.toContain("FULANO");
      expect(log).not.toContain("123.456");
    } finally {
      lerFalha = null;
      erros.mockRestore();
    }
  });
});

describe("POST /api/v1/romaneio: quota", () => {
  it("has its own daily quota per key: its X-RateLimit-*, 429 past it, failures not counted, the key's query quota untouched", async () => {
    comportamento = normal;
    const s = await startServer({
      publicDir: site.publicDir,
      trustedProxies: 1,
      now: () => clock,
      romaneio: { chaves: [CHAVE], leitor, etapas, maxBytes: MAX, cotaDiaria: 2 },
    });
    try {
      const h = { "Content-Type": "image/png", "X-API-Key": CHAVE };
      const r1 = await post(PNG, h, s);
      expect(r1.status).toBe(200);
      expect(r1.headers.get("x-ratelimit-limit")).toBe("2");
      expect(r1.headers.get("x-ratelimit-remaining")).toBe("1");
      expect(((await r1.json()) as { rate_limit: unknown }).rate_limit).toEqual({ diario: 2, restante: 1 });
      // a refused file costs nothing
      expect((await post(JPEG, h, s)).status).toBe(415);
      const r2 = await post(PNG, h, s);
      expect(r2.status).toBe(200);
      expect(((await r2.json()) as { rate_limit: unknown }).rate_limit).toEqual({ diario: 2, restante: 0 });
      lidos.length = 0;
      const r3 = await post(PNG, h, s);
      expect(r3.status).toBe(429);
      expect(r3.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(r3.headers.get("x-ratelimit-remaining")).toBe("0");
      expect(await r3.json()).toMatchObject({ erro: "limite_excedido", limite: 2 });
      expect(lidos).toEqual([]);
      // the key's queries have their own count
      const q = await fetch(new URL("api/v1/cotacao", s.url), { headers: { "X-API-Key": CHAVE } });
      expect(q.status).toBe(200);
      expect(((await q.json()) as { rate_limit: unknown }).rate_limit).toEqual({ diario: 10_000, restante: 9_999 });
      // a new UTC day, a new quota
      clock += 86_400_000;
      const amanha = await post(PNG, h, s);
      expect(amanha.status).toBe(200);
      expect(amanha.headers.get("x-ratelimit-remaining")).toBe("1");
    } finally {
      clock = Date.parse("2026-09-27T12:00:00Z");
      await s.close();
    }
  });
});

describe("POST /api/v1/romaneio: CORS and CSP", () => {
  it("answers the preflight with POST and Content-Type allowed; other paths keep GET/HEAD/OPTIONS", async () => {
    const pre = await fetch(new URL("api/v1/romaneio", srv.url), {
      method: "OPTIONS",
      headers: { Origin: "https://exemplo.org", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type,x-api-key" },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("*");
    expect(pre.headers.get("access-control-allow-methods")!.split(",")).toContain("POST");
    expect(pre.headers.get("access-control-allow-headers")!.toLowerCase().split(",")).toEqual(expect.arrayContaining(["content-type", "x-api-key"]));
    const outro = await fetch(new URL("api/v1/cotacao", srv.url), { method: "OPTIONS" });
    expect(outro.headers.get("access-control-allow-methods")).toBe("GET,HEAD,OPTIONS");
  });

  it("romaneio/ may compile WebAssembly and start workers from this origin; other pages may not compile it", async () => {
    const pagina = await fetch(new URL("romaneio/", srv.url));
    expect(pagina.status).toBe(200);
    const csp = pagina.headers.get("content-security-policy")!;
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval';");
    expect(csp).toContain("worker-src 'self' blob:;");
    expect(csp).not.toMatch(/'unsafe-eval'/);
    const painel = await fetch(new URL("index.html", srv.url));
    const outra = painel.headers.get("content-security-policy")!;
    expect(outra).toContain("script-src 'self';");
    expect(outra).not.toContain("wasm");
  });
});

describe("npm start's romaneio settings", () => {
  it("reads COTACAO_ROMANEIO_*: off without keys, defaults, and a bad value stops with a Portuguese message naming the variable", () => {
    expect(lerConfigRomaneio({})).toBeUndefined();
    expect(linhaRomaneio(undefined)).toContain("desligado");
    const c = lerConfigRomaneio({ COTACAO_ROMANEIO_KEYS: " k1, k2 ,," })!;
    expect(c).toEqual({ chaves: ["k1", "k2"], cotaDiaria: 50, maxBytes: 10 * 1024 * 1024, tempoS: 60, workers: 1, simultaneas: 2 });
    expect(linhaRomaneio(c)).toBe(
      "romaneio (beta): 2 chave(s) com permissão; cota de 50 leitura(s) por dia por chave; até 10 MB e 60 s por arquivo; 2 leitura(s) simultânea(s) por chave; 1 leitor(es) de OCR por processo",
    );
    expect(lerConfigRomaneio({ COTACAO_ROMANEIO_KEYS: "k", COTACAO_ROMANEIO_COTA_DIARIA: "5", COTACAO_ROMANEIO_MAX_MB: "2", COTACAO_ROMANEIO_TEMPO_S: "9", COTACAO_ROMANEIO_WORKERS: "3", COTACAO_ROMANEIO_SIMULTANEAS: "4" })).toEqual({
      chaves: ["k"],
      cotaDiaria: 5,
      maxBytes: 2 * 1024 * 1024,
      tempoS: 9,
      workers: 3,
      simultaneas: 4,
    });
    // the romaneio quota has its own limit in the store, so it may pass the 10,000 of a key's queries
    expect(lerConfigRomaneio({ COTACAO_ROMANEIO_KEYS: "k", COTACAO_ROMANEIO_COTA_DIARIA: "20000" })!.cotaDiaria).toBe(20_000);
    for (const [nome, valor] of [
      ["COTACAO_ROMANEIO_COTA_DIARIA", "abc"],
      ["COTACAO_ROMANEIO_COTA_DIARIA", "0"],
      ["COTACAO_ROMANEIO_COTA_DIARIA", "1000000001"],
      ["COTACAO_ROMANEIO_MAX_MB", "1.5"],
      ["COTACAO_ROMANEIO_TEMPO_S", "-1"],
      ["COTACAO_ROMANEIO_WORKERS", "17"],
      ["COTACAO_ROMANEIO_SIMULTANEAS", "0"],
    ]) {
      // checked even while the route is off: a typo does not wait for the day keys are added
      expect(() => lerConfigRomaneio({ [nome!]: valor }), `${nome}=${valor}`).toThrow(new RegExp(`${nome} inválido: "${valor!.replace(".", "\\.")}"`));
    }
  });

  it("one engine per process, made from the settings and closed with the server", async () => {
    const feitos: unknown[] = [];
    let fechado = 0;
    const s = await servirUmProcesso({
      serve: { publicDir: site.publicDir, port: 0, host: "127.0.0.1" },
      quota: {},
      romaneio: lerConfigRomaneio({ COTACAO_ROMANEIO_KEYS: CHAVE, COTACAO_ROMANEIO_WORKERS: "2", COTACAO_ROMANEIO_MAX_MB: "1" }),
      criarLeitor: (c) => {
        feitos.push(c);
        return { ler: leitor.ler, fechar: async () => void fechado++ };
      },
    });
    try {
      comportamento = normal;
      expect(feitos).toEqual([expect.objectContaining({ workers: 2, maxBytes: 1024 * 1024 })]);
      expect((await post(PNG, { "Content-Type": "image/png", "X-API-Key": CHAVE }, { url: s.url } as RunningServer)).status).toBe(200);
      expect((await post(Buffer.alloc(1024 * 1024 + 1), { "Content-Type": "image/png", "X-API-Key": CHAVE }, { url: s.url } as RunningServer)).status).toBe(413);
    } finally {
      await s.close();
    }
    expect(fechado).toBe(1);
  });
});

/** the store's id of CHAVE's readings */
const ID_ROMANEIO = idRomaneio(createHash("sha256").update(CHAVE).digest("hex"));

/** an engine that holds every file until `quantos` have arrived (so they overlap for sure), then reads each as `depois` says */
function leitorComPortao(quantos: number, depois: (i: number) => Promise<ResultadoLeitor> = (i) => normal(PNG, "image/png").then((r) => ({ ...r, segundos: i }))) {
  let abrir!: () => void;
  const portao = new Promise<void>((r) => (abrir = r));
  const estado = { chegadas: 0 };
  const l: Leitor = {
    ler: async () => {
      const i = ++estado.chegadas;
      if (i >= quantos) abrir();
      await portao;
      return depois(i);
    },
    fechar: async () => undefined,
  };
  return { leitor: l, estado };
}

async function servidor(leitorX: Leitor, cotaDiaria: number, store = new Quota(), tempos?: TemposServidor, simultaneas = 8) {
  const s = await startServer({
    publicDir: site.publicDir,
    trustedProxies: 1,
    now: () => clock,
    quotaStore: store,
    romaneio: { chaves: [CHAVE], leitor: leitorX, etapas, maxBytes: MAX, cotaDiaria, simultaneas },
    ...(tempos ? { tempos } : {}),
  });
  return { s, store };
}

const H = { "Content-Type": "image/png", "X-API-Key": CHAVE };

describe("POST /api/v1/romaneio: readings racing for the last units", () => {
  it("8 readings at once for 3 units: 3 reach the engine and answer 200, 5 are refused (429) before any OCR, the count stops at 3", async () => {
    const { leitor: lento, estado } = leitorComPortao(3);
    const { s, store } = await servidor(lento, 3);
    try {
      const rs = await Promise.all(Array.from({ length: 8 }, () => post(PNG, H, s)));
      const st = rs.map((r) => r.status).sort();
      expect(st).toEqual([200, 200, 200, 429, 429, 429, 429, 429]);
      expect(estado.chegadas).toBe(3);
      const restantes = await Promise.all(rs.filter((r) => r.status === 200).map(async (r) => ((await r.json()) as { rate_limit: { restante: number } }).rate_limit.restante));
      expect(restantes.sort()).toEqual([0, 1, 2]);
      for (const r of rs.filter((x) => x.status === 429)) expect(await r.json()).toMatchObject({ erro: "limite_excedido", limite: 3 });
      expect(store.peek("key", ID_ROMANEIO, clock, 3)).toMatchObject({ used: 3, remaining: 0 });
    } finally {
      await s.close();
    }
  });

  it("only a reading the engine refused unread (ocupado) gives its unit back: the one racing it is refused while it runs, the next one after it reads", async () => {
    // the first reading holds the last unit, then the engine says it is busy; the second arrives while it is held
    let ocupar!: () => void;
    const ocupado = new Promise<void>((r) => (ocupar = r));
    let chamadas = 0;
    const l: Leitor = {
      ler: async (b, tipo) => {
        chamadas++;
        if (chamadas === 1) {
          await ocupado;
          throw erroOcr("ocupado");
        }
        return normal(b, tipo);
      },
      fechar: async () => undefined,
    };
    const { s, store } = await servidor(l, 1);
    try {
      const primeira = post(PNG, H, s);
      for (let i = 0; i < 200 && chamadas === 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect(chamadas).toBe(1);
      const durante = await post(PNG, H, s);
      expect(durante.status).toBe(429);
      expect(await durante.json()).toMatchObject({ erro: "limite_excedido" });
      ocupar();
      const r1 = await primeira;
      expect(r1.status).toBe(503);
      expect(r1.headers.get("x-ratelimit-remaining")).toBe("1");
      expect(store.peek("key", ID_ROMANEIO, clock, 1).used).toBe(0);
      const depois = await post(PNG, H, s);
      expect(depois.status).toBe(200);
      expect(((await depois.json()) as { rate_limit: unknown }).rate_limit).toEqual({ diario: 1, restante: 0 });
      expect((await post(PNG, H, s)).status).toBe(429);
      expect(chamadas).toBe(2);
    } finally {
      await s.close();
    }
  });

  it("a failure after the engine began is charged: 422 from decoding, 504, and a 500 after the OCR; a key cannot read for free by failing", async () => {
    let falha: unknown = null;
    const l: Leitor = {
      ler: async (b, tipo) => {
        if (falha) throw falha;
        return normal(b, tipo);
      },
      fechar: async () => undefined,
    };
    const { s, store } = await servidor(l, 4);
    const erros = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      falha = erroOcr("tempo_esgotado");
      expect((await post(PNG, H, s)).status).toBe(504);
      falha = erroOcr("arquivo_invalido");
      const r = await post(PNG, H, s);
      expect(r.status).toBe(422);
      expect(r.headers.get("x-ratelimit-remaining")).toBe("2");
      falha = null;
      lerFalha = "quebrou depois do OCR";
      expect((await post(PNG, H, s)).status).toBe(500);
      lerFalha = null;
      expect(store.peek("key", ID_ROMANEIO, clock, 4).used).toBe(3);
      const ultima = await post(PNG, H, s);
      expect(((await ultima.json()) as { rate_limit: unknown }).rate_limit).toEqual({ diario: 4, restante: 0 });
      // timeouts forever are not free: the quota ends them
      falha = erroOcr("tempo_esgotado");
      const fim = await post(PNG, H, s);
      expect(fim.status).toBe(429);
      expect(await fim.json()).toMatchObject({ erro: "limite_excedido" });
    } finally {
      lerFalha = null;
      erros.mockRestore();
      await s.close();
    }
  });

  it("at most `simultaneas` readings of a key in flight (upload included): past it 429 leituras_simultaneas with Retry-After, no unit used; another key is not affected", async () => {
    const OUTRA = "chave-romaneio-outra-0123456789";
    let abrir!: () => void;
    const portao = new Promise<void>((r) => (abrir = r));
    let chegadas = 0;
    const l: Leitor = {
      ler: async (b, tipo) => {
        chegadas++;
        await portao;
        return normal(b, tipo);
      },
      fechar: async () => undefined,
    };
    const store = new Quota();
    const s = await startServer({
      publicDir: site.publicDir,
      trustedProxies: 1,
      now: () => clock,
      quotaStore: store,
      romaneio: { chaves: [CHAVE, OUTRA], leitor: l, etapas, maxBytes: MAX, cotaDiaria: 10, simultaneas: 2 },
    });
    try {
      const presas = [post(PNG, H, s), post(PNG, H, s)];
      for (let i = 0; i < 200 && chegadas < 2; i++) await new Promise((r) => setTimeout(r, 10));
      expect(chegadas).toBe(2);
      const terceira = await post(PNG, H, s);
      expect(terceira.status).toBe(429);
      expect(terceira.headers.get("retry-after")).toBe("5");
      expect(terceira.headers.get("x-ratelimit-remaining")).toBe("8");
      expect(await terceira.json()).toMatchObject({ erro: "leituras_simultaneas", simultaneas: 2, mensagem: expect.stringContaining("COTACAO_ROMANEIO_SIMULTANEAS") });
      // another key has its own two
      const outra = post(PNG, { ...H, "X-API-Key": OUTRA }, s);
      for (let i = 0; i < 200 && chegadas < 3; i++) await new Promise((r) => setTimeout(r, 10));
      expect(chegadas).toBe(3);
      abrir();
      expect((await Promise.all([...presas, outra])).map((r) => r.status)).toEqual([200, 200, 200]);
      expect(store.peek("key", ID_ROMANEIO, clock, 10).used).toBe(2);
      // the places are free again, whatever the outcome (a 415, a 422 before the engine, an engine failure)
      expect((await post(JPEG, H, s)).status).toBe(415);
      expect((await post(png(20_000, 20_000), H, s)).status).toBe(422);
      expect((await post(PNG, H, s)).status).toBe(200);
      expect((await post(PNG, H, s)).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it("a slow upload holds its key's place: with simultaneas 1, a second reading is refused while the first is still sending", async () => {
    comportamento = normal;
    const { s } = await servidor(leitor, 10, new Quota(), undefined, 1);
    try {
      let soltar!: () => void;
      const fim = new Promise<void>((r) => (soltar = r));
      // the route takes its place in the same turn as the request event (after microtasks only)
      const chegou = new Promise<void>((r) => s.server.once("request", () => setImmediate(r)));
      const primeira = new Promise<number>((resolve, reject) => {
        const req = request(new URL("api/v1/romaneio", s.url), { method: "POST", headers: { ...H, "Transfer-Encoding": "chunked", "X-Forwarded-For": ip() } });
        req.on("response", (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode!));
        });
        req.on("error", reject);
        req.write(PNG);
        void fim.then(() => req.end());
      });
      await chegou;
      const segunda = await post(PNG, H, s);
      expect(segunda.status).toBe(429);
      expect(await segunda.json()).toMatchObject({ erro: "leituras_simultaneas", simultaneas: 1 });
      soltar();
      expect(await primeira).toBe(200);
      expect((await post(PNG, H, s)).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it("a daily quota above 10,000 (the query keys' limit) is the romaneio's own: reading 10,001 of 20,000 is allowed", async () => {
    comportamento = normal;
    const store = new Quota();
    for (let i = 0; i < 10_000; i++) expect(store.consume("key", ID_ROMANEIO, clock, 20_000).allowed).toBe(true);
    const { s } = await servidor(leitor, 20_000, store);
    try {
      const r = await post(PNG, H, s);
      expect(r.status).toBe(200);
      expect(r.headers.get("x-ratelimit-limit")).toBe("20000");
      expect(((await r.json()) as { rate_limit: unknown }).rate_limit).toEqual({ diario: 20_000, restante: 9_999 });
      // the key's queries still have the 10,000 of a key
      const q = await fetch(new URL("api/v1/cotacao", s.url), { headers: { "X-API-Key": CHAVE } });
      expect(((await q.json()) as { rate_limit: unknown }).rate_limit).toEqual({ diario: 10_000, restante: 9_999 });
    } finally {
      await s.close();
    }
  });
});

/** a chunked upload of `partes` pieces, one every `intervaloMs` (a slow but steady link); the answer's status and body */
function envioLento(base: { url: string }, partes: number, intervaloMs: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL("api/v1/romaneio", base.url), { method: "POST", headers: { ...H, "Transfer-Encoding": "chunked", "X-Forwarded-For": ip() } });
    let enviadas = 0;
    let timer: NodeJS.Timeout | undefined;
    const proxima = () => {
      if (enviadas === partes) return void req.end();
      req.write(enviadas === 0 ? PNG : Buffer.alloc(1024, enviadas));
      enviadas++;
      timer = setTimeout(proxima, intervaloMs);
    };
    req.on("response", (res) => {
      clearTimeout(timer);
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode!, body }));
    });
    req.on("error", reject);
    proxima();
  });
}

describe("POST /api/v1/romaneio: slow uploads", () => {
  it("the server gives a body 120 s (more for a larger cap: 100 kB/s), 30 s without the route; slow headers are still cut at 10 s", () => {
    expect(tempoRequisicaoMs(undefined)).toBe(30_000);
    expect(tempoRequisicaoMs({ chaves: [], leitor })).toBe(120_000);
    expect(tempoRequisicaoMs({ chaves: [], leitor, maxBytes: 100 * 1024 * 1024 })).toBe(1_049_000);
    expect(srv.server.requestTimeout).toBe(120_000);
    expect(srv.server.headersTimeout).toBe(10_000);
  });

  it("a slow but steady upload within the request time is read (past the headers' time); one past it is cut with a 408 in JSON", async () => {
    comportamento = normal;
    // the same clocks, shrunk: headers 0.5 s, a request 4 s, checked every 50 ms
    const { s } = await servidor(leitor, 50, new Quota(), { requisicaoMs: 4000, cabecalhosMs: 500, verificacaoMs: 50 });
    try {
      lidos.length = 0;
      const ok = await envioLento(s, 12, 100);
      expect(ok.status).toBe(200);
      expect(lidos).toEqual([{ bytes: PNG.length + 11 * 1024, tipo: "image/png" }]);
    } finally {
      await s.close();
    }
    const { s: curto } = await servidor(leitor, 50, new Quota(), { requisicaoMs: 600, cabecalhosMs: 300, verificacaoMs: 50 });
    const erros = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      lidos.length = 0;
      const cortado = await envioLento(curto, 40, 100);
      expect(cortado.status).toBe(408);
      expect(JSON.parse(cortado.body)).toMatchObject({ erro: "tempo_de_envio_esgotado", mensagem: expect.stringContaining("o corpo em até 1 s") });
      expect(lidos).toEqual([]);
      // the route, still reading when the body was cut, sees the stream end in an error: a client's
      // failure, not the server's (no "erro interno" logged); give it a moment to get there
      await new Promise((r) => setTimeout(r, 300));
      expect(erros).not.toHaveBeenCalled();
    } finally {
      erros.mockRestore();
      await curto.close();
    }
  });
});

describe("POST /api/v1/romaneio: the OpenAPI describes what the route answers", () => {
  it("every error code answered above is named under its status, and each status says whether it costs the unit", async () => {
    const files = new Map<string, string>();
    for (const f of await readdir(join(REPO_ROOT, "public", "schemas"))) files.set(`schemas/${f}`, await readFile(join(REPO_ROOT, "public", "schemas", f), "utf8"));
    const op = (buildOpenApi(files) as { paths: Record<string, { post: { description: string; responses: Record<string, { description: string }> } }> }).paths["/api/v1/romaneio"]!.post;
    // the failures this file provoked, at least these (a test that stops provoking one is seen here)
    expect([...vistos]).toEqual(
      expect.arrayContaining([
        "400 corpo_vazio", "400 multipart_invalido", "400 multipart_partes_demais", "400 campo_ausente", "401 chave_ausente", "401 chave_invalida",
        "403 sem_permissao", "413 arquivo_grande_demais", "415 tipo_nao_aceito", "422 arquivo_invalido", "422 imagem_grande_demais", "422 pdf_invalido",
        "429 limite_excedido", "429 leituras_simultaneas", "500 erro_interno", "503 ocupado", "504 tempo_esgotado",
      ]),
    );
    for (const v of vistos) {
      const [status, erro] = v.split(" ") as [string, string];
      const r = op.responses[status];
      expect(r, v).toBeDefined();
      // 401/403/405/500 name their case in words, the others by code
      if (!["401", "403", "405", "500"].includes(status)) expect(r!.description, v).toContain(`\`${erro}\``);
    }
    expect(op.responses["500"]!.description).toContain("Consome a unidade");
    expect(op.responses["504"]!.description).toContain("Consome a unidade");
    expect(op.responses["503"]!.description).toContain("devolvida");
    expect(op.responses["422"]!.description).toMatch(/Antes do OCR, sem consumir a cota.*imagem_grande_demais.*Pelo motor.*consumindo a unidade/s);
    expect(op.description).toContain("COTACAO_ROMANEIO_SIMULTANEAS");
  });
});
