import { createHmac, timingSafeEqual } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import type { ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { nextEventos, type EventosFile } from "../../pipeline/events/model.ts";
import { isPrivateAddress, lookupPublico, motivoUrlRecusada } from "../../pipeline/events/net.ts";
import {
  RESPOSTA_MAX_BYTES,
  assinatura,
  entregarEventos,
  formatarRelatorio,
  loadAssinantes,
  loadEstado,
  estadoVazio,
  type Assinante,
} from "../../pipeline/events/webhooks.ts";
import type { SeriesChange } from "../../pipeline/history/changes.ts";
import { pump } from "../fetch/server.ts";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { cabecalhosPadrao, chaveDoSegredo, segredoPadrao } from "../../pipeline/events/webhooks.ts";
import { Receptor } from "./helpers.ts";

const NOW = "2026-09-28T12:00:00-03:00";
const SEGREDO = "segredo-de-teste-123";

function eventos(): EventosFile {
  // no field-level revisions in these changes (campos, rebase): only new days
  const change = (c: Omit<SeriesChange, "campos" | "rebase">): SeriesChange => ({ campos: [], rebase: [], ...c }) as SeriesChange;
  const changes: SeriesChange[] = [
    change({ id: "boi_gordo", added: ["2026-09-04"], revised: [], pracasChanged: false, antes: { data: "2026-09-03", valor: 347.6 }, depois: { data: "2026-09-04", valor: 347.7 } }),
    change({ id: "milho", added: ["2026-09-04"], revised: [], pracasChanged: false, antes: { data: "2026-09-03", valor: 71.2 }, depois: { data: "2026-09-04", valor: 70.93 } }),
  ];
  return nextEventos(null, changes, new Date(NOW));
}

/** What a subscriber does: HMAC the raw body with its secret and compare in constant time. */
function assinaturaValida(body: string, header: string | undefined, segredo: string): boolean {
  const esperado = Buffer.from(`sha256=${createHmac("sha256", segredo).update(body).digest("hex")}`);
  const recebido = Buffer.from(header ?? "");
  return recebido.length === esperado.length && timingSafeEqual(recebido, esperado);
}

describe("webhook delivery to a local receiver", () => {
  const rx = new Receptor();
  let dir: string;
  let estadoFile: string;
  const env = { SEGREDO_TESTE: SEGREDO };
  const rapido = { timeoutMs: 2_000, backoffMs: 5, tentativas: 3, permitirInseguro: true, env };
  let assinante: Assinante;

  beforeAll(() => rx.start());
  afterAll(() => rx.close());
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "cotacao-webhooks-"));
    estadoFile = join(dir, "webhooks-entregues.json");
    rx.recebidos = [];
    rx.responder = () => ({ status: 204 });
    assinante = { url: rx.url(), eventos: ["cotacao_atualizada", "price_changed", "historico_revisado"], segredo_env: "SEGREDO_TESTE" };
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("POSTs every event, oldest first, as {id, seq, tipo, criado_em, dados} with a verifiable signature", async () => {
    const ev = eventos();
    const r = await entregarEventos(ev, [assinante], estadoVazio(), { ...rapido, estadoFile });
    expect(r.ok).toBe(true);
    expect(rx.recebidos).toHaveLength(3);
    expect(rx.recebidos.map((x) => JSON.parse(x.body).id)).toEqual([...ev.eventos].reverse().map((e) => e.id));
    for (const x of rx.recebidos) {
      const body = JSON.parse(x.body);
      expect(Object.keys(body)).toEqual(["id", "seq", "tipo", "criado_em", "dados"]);
      expect(body).toEqual(ev.eventos.find((e) => e.id === body.id));
      expect(x.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(x.headers["x-cotacao-evento"]).toBe(body.id);
      expect(assinaturaValida(x.body, x.headers["x-cotacao-signature"] as string, SEGREDO)).toBe(true);
      expect(assinaturaValida(x.body, x.headers["x-cotacao-signature"] as string, "outro-segredo")).toBe(false);
    }
    expect(assinatura("{}", "k")).toBe(`sha256=${createHmac("sha256", "k").update("{}").digest("hex")}`);
    const estado = JSON.parse(await readFile(estadoFile, "utf8"));
    const [novo] = ev.eventos;
    expect(estado).toEqual({
      versao: 1,
      ultimo_evento: { id: novo!.id, seq: novo!.seq, tipo: novo!.tipo, criado_em: novo!.criado_em },
      assinantes: [{ url: assinante.url, entregues: ev.eventos.map((e) => e.id) }],
    });
  });

  it("signs with Standard Webhooks: a receiver's Webhook.verify accepts it, and rejects a replay, a tampered body and another secret", async () => {
    const ev = eventos();
    // a receiver on 127.0.0.1 that verifies like any Standard Webhooks consumer and says so in its status
    const wh = new Webhook(segredoPadrao(SEGREDO));
    rx.responder = (req) => {
      try {
        wh.verify(req.body, req.headers as Record<string, string>);
        return { status: 204 };
      } catch {
        return { status: 401 };
      }
    };
    const r = await entregarEventos(ev, [assinante], estadoVazio(), { ...rapido, estadoFile });
    expect(r.entregas.map((e) => e.status)).toEqual([204, 204, 204]);
    expect(r.ok).toBe(true);
    for (const x of rx.recebidos) {
      const body = JSON.parse(x.body);
      expect(x.headers["webhook-id"]).toBe(body.id);
      expect(x.headers["webhook-timestamp"]).toMatch(/^\d{10}$/);
      expect(x.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(wh.verify(x.body, x.headers as Record<string, string>)).toEqual(body);
      expect(() => wh.verify(x.body.replace("}", ' }'), x.headers as Record<string, string>)).toThrow(WebhookVerificationError);
      expect(() => new Webhook(segredoPadrao("outro-segredo")).verify(x.body, x.headers as Record<string, string>)).toThrow(WebhookVerificationError);
      // the deprecated header still verifies, for receivers not yet migrated
      expect(assinaturaValida(x.body, x.headers["x-cotacao-signature"] as string, SEGREDO)).toBe(true);
    }
    // replay: the same delivery captured and sent again ten minutes later is refused by its timestamp
    const body = rx.recebidos[0]!.body;
    const antigo = cabecalhosPadrao(body, { id: JSON.parse(body).id }, SEGREDO, new Date(Date.now() - 10 * 60_000));
    expect(() => wh.verify(body, antigo)).toThrow(/timestamp/i);
    const agora = cabecalhosPadrao(body, { id: JSON.parse(body).id }, SEGREDO);
    expect(wh.verify(body, agora)).toEqual(JSON.parse(body));
  });

  it("maps secrets: whsec_ base64 is the key's bytes; a hex or plain secret keys with its own text", () => {
    const chave = Buffer.from("0123456789abcdef0123456789abcdef", "utf8");
    const whsec = `whsec_${chave.toString("base64")}`;
    expect(Buffer.from(chaveDoSegredo(whsec))).toEqual(chave);
    expect(segredoPadrao(whsec)).toBe(whsec);
    // the same key, written plainly or as whsec_, signs identically
    const plano = "0123456789abcdef0123456789abcdef";
    expect(cabecalhosPadrao("{}", { id: "x" }, plano)).toEqual(cabecalhosPadrao("{}", { id: "x" }, whsec));
    expect(segredoPadrao(plano)).toBe(whsec);
    expect(() => chaveDoSegredo("whsec_não-é-base64!")).toThrow(/base64/);
  });

  it("does not send with a whsec_ secret that is not base64, and says which variable", async () => {
    const r = await entregarEventos(eventos(), [assinante], estadoVazio(), { ...rapido, env: { SEGREDO_TESTE: "whsec_@@@" } });
    expect(rx.recebidos).toHaveLength(0);
    expect(r.ok).toBe(false);
    expect(r.resumo[0]!.erro).toMatch(/SEGREDO_TESTE.*base64/);
  });

  it("a second notify sends nothing new", async () => {
    const ev = eventos();
    await entregarEventos(ev, [assinante], await loadEstado(estadoFile), { ...rapido, estadoFile });
    expect(rx.recebidos).toHaveLength(3);
    const r2 = await entregarEventos(ev, [assinante], await loadEstado(estadoFile), { ...rapido, estadoFile });
    expect(rx.recebidos).toHaveLength(3);
    expect(r2.entregas).toEqual([]);
    expect(r2.resumo[0]).toMatchObject({ entregues: 0, ja_entregues: 3, falhas: 0 });
    expect(formatarRelatorio(r2).join("\n")).toContain("0 entregue(s) agora, 3 já entregue(s) antes");
  });

  it("retries after a 500 and delivers once it answers 2xx", async () => {
    rx.responder = (_req, n) => ({ status: n === 1 ? 500 : 200 });
    const r = await entregarEventos(eventos(), [assinante], estadoVazio(), { ...rapido, estadoFile });
    expect(r.ok).toBe(true);
    expect(r.entregas[0]).toMatchObject({ ok: true, tentativas: 2, status: 200 });
    expect(rx.recebidos).toHaveLength(4);
    expect(rx.recebidos[0]!.body).toBe(rx.recebidos[1]!.body);
    expect(rx.recebidos.map((x) => x.headers["x-cotacao-tentativa"])).toEqual(["1", "2", "1", "1"]);
  });

  it("gives up after the last attempt, keeps the rest pending and sends them on the next run", async () => {
    rx.responder = () => ({ status: 503 });
    const log: string[] = [];
    const r = await entregarEventos(eventos(), [assinante], estadoVazio(), { ...rapido, estadoFile, log: (l) => log.push(l) });
    expect(r.ok).toBe(false);
    expect(rx.recebidos).toHaveLength(3); // three attempts at the first event, nothing after it
    expect(r.resumo[0]).toMatchObject({ entregues: 0, falhas: 1, pendentes: 2 });
    expect(formatarRelatorio(r).join("\n")).toContain("HTTP 503 após 3 tentativa(s)");
    expect(log.some((l) => l.includes("nova tentativa"))).toBe(true);
    rx.responder = () => ({ status: 200 });
    const r2 = await entregarEventos(eventos(), [assinante], await loadEstado(estadoFile), { ...rapido, estadoFile });
    expect(r2.ok).toBe(true);
    expect(r2.resumo[0]).toMatchObject({ entregues: 3 });
  });

  it("follows the shared retry policy: a 429's Retry-After is waited for, one past the cap is not (no retry)", async () => {
    rx.responder = (_req, n) => (n === 1 ? { status: 429, headers: { "retry-after": "0" } } : { status: 200 });
    const r = await entregarEventos(eventos(), [assinante], estadoVazio(), { ...rapido, estadoFile });
    expect(r.entregas[0]).toMatchObject({ ok: true, tentativas: 2, status: 200 });
    rx.recebidos = [];
    // an hour is past what a run waits for: the receiver asked not to be called now
    rx.responder = () => ({ status: 503, headers: { "retry-after": "3600" } });
    const r2 = await entregarEventos(eventos(), [assinante], estadoVazio(), { ...rapido });
    expect(r2.entregas[0]).toMatchObject({ ok: false, tentativas: 1, status: 503 });
    expect(rx.recebidos).toHaveLength(1);
  });

  it("a receiver that never answers times out (and is retried)", async () => {
    rx.responder = () => "pendurar";
    const r = await entregarEventos(eventos(), [assinante], estadoVazio(), { ...rapido, timeoutMs: 300, tentativas: 2, estadoFile });
    expect(r.ok).toBe(false);
    expect(r.entregas[0]).toMatchObject({ ok: false, tentativas: 2, status: null, motivo: "sem resposta em 300 ms" });
    expect(rx.recebidos).toHaveLength(2);
    // nothing delivered: the whole queue stays pending, oldest first
    const ev = eventos();
    expect((await loadEstado(estadoFile)).assinantes).toEqual([
      { url: assinante.url, entregues: [], pendentes: [...ev.eventos].reverse().map(({ id, tipo, criado_em }) => ({ id, tipo, criado_em })) },
    ]);
  });

  describe("a receiver's reply is bounded in size and in time", () => {
    const GIGA_E_MEIO = 1.5 * 1024 * 1024 * 1024;
    /** what each reply managed to get out before the client stopped reading */
    let enviados: Promise<number>[];
    beforeEach(() => {
      enviados = [];
    });
    const inunda =
      (status: number) =>
      (res: ServerResponse): void => {
        res.writeHead(status, { "content-type": "application/octet-stream" });
        enviados.push(pump(res, GIGA_E_MEIO));
      };

    it("a 2xx with a 1.5 GB body is delivered, and the client reads only the first 64 KiB of it", async () => {
      rx.responder = () => inunda(200);
      const r = await entregarEventos(eventos(), [assinante], estadoVazio(), { ...rapido, estadoFile });
      expect(r.ok).toBe(true);
      expect(r.entregas.map((x) => [x.ok, x.tentativas, x.status])).toEqual([
        [true, 1, 200],
        [true, 1, 200],
        [true, 1, 200],
      ]);
      const sent = await Promise.all(enviados);
      expect(sent).toHaveLength(3);
      for (const n of sent) {
        // the cap, then socket buffers: far below what the receiver wanted to send
        expect(n).toBeGreaterThan(RESPOSTA_MAX_BYTES);
        expect(n).toBeLessThan(GIGA_E_MEIO / 50);
      }
    });

    it("a 503 with a huge body is retried, its body dropped the same way", async () => {
      rx.responder = (_req, n) => inunda(n === 1 ? 503 : 200);
      const r = await entregarEventos(eventos(), [assinante], estadoVazio(), { ...rapido, estadoFile });
      expect(r.ok).toBe(true);
      expect(r.entregas[0]).toMatchObject({ ok: true, tentativas: 2, status: 200 });
      for (const n of await Promise.all(enviados)) expect(n).toBeLessThan(GIGA_E_MEIO / 50);
    });

    it("a 2xx whose body trickles forever is cut by the attempt's deadline and counts as delivered", async () => {
      let fechadas = 0;
      rx.responder = () => (res) => {
        res.writeHead(200, { "content-type": "text/plain" });
        const t = setInterval(() => res.write("."), 20);
        res.once("close", () => {
          clearInterval(t);
          fechadas++;
        });
      };
      const r = await entregarEventos(eventos(), [assinante], estadoVazio(), { ...rapido, timeoutMs: 300, estadoFile });
      // the 2xx was the receiver's acknowledgement: sending again would deliver the event twice
      expect(r.ok).toBe(true);
      expect(r.entregas.map((x) => x.tentativas)).toEqual([1, 1, 1]);
      expect(rx.recebidos).toHaveLength(3);
      // every trickling reply was hung up on by the client
      await expect.poll(() => fechadas).toBe(3);
    });

    it("a receiver that trickles its headers forever is cut by the deadline: a failure, retried", async () => {
      rx.responder = () => (res) => {
        const s = res.socket!;
        s.write("HTTP/1.1 200 OK\r\n");
        let n = 0;
        const t = setInterval(() => s.write(`X-Lento-${n++}: sim\r\n`), 20);
        s.once("close", () => clearInterval(t));
      };
      const r = await entregarEventos(eventos(), [assinante], estadoVazio(), { ...rapido, timeoutMs: 300, tentativas: 2, estadoFile });
      expect(r.ok).toBe(false);
      expect(r.entregas).toHaveLength(1);
      expect(r.entregas[0]).toMatchObject({ ok: false, tentativas: 2, status: null, motivo: "sem resposta em 300 ms" });
      expect(rx.recebidos).toHaveLength(2);
      expect(r.resumo[0]).toMatchObject({ entregues: 0, falhas: 1, pendentes: 2 });
    });
  });

  it("does not follow redirects and does not retry a 4xx", async () => {
    rx.responder = (req) => (req.path === "/hook" ? { status: 302, headers: { location: rx.url("/outro") } } : { status: 200 });
    const r = await entregarEventos(eventos(), [assinante], estadoVazio(), { ...rapido, estadoFile });
    expect(r.entregas[0]).toMatchObject({ ok: false, tentativas: 1, status: 302 });
    expect(rx.recebidos.map((x) => x.path)).toEqual(["/hook"]);
    rx.recebidos = [];
    rx.responder = () => ({ status: 410 });
    const r2 = await entregarEventos(eventos(), [assinante], estadoVazio(), { ...rapido });
    expect(r2.entregas[0]).toMatchObject({ ok: false, tentativas: 1, status: 410 });
  });

  it("sends only the subscribed types, only since `desde`, and nothing without its secret", async () => {
    const ev = eventos();
    const r = await entregarEventos(ev, [{ ...assinante, eventos: ["price_changed"] }], estadoVazio(), rapido);
    expect(rx.recebidos.map((x) => JSON.parse(x.body).tipo)).toEqual(["price_changed", "price_changed"]);
    expect(r.ok).toBe(true);
    rx.recebidos = [];
    await entregarEventos(ev, [{ ...assinante, desde: "2026-09-28T12:00:01-03:00" }], estadoVazio(), rapido);
    expect(rx.recebidos).toHaveLength(0);
    const r3 = await entregarEventos(ev, [{ ...assinante, segredo_env: "NAO_DEFINIDA" }], estadoVazio(), rapido);
    expect(rx.recebidos).toHaveLength(0);
    expect(r3.ok).toBe(false);
    expect(r3.resumo[0]!.erro).toContain("NAO_DEFINIDA");
  });

  it("refuses http and loopback URLs outside tests, before sending anything", async () => {
    const r = await entregarEventos(eventos(), [assinante], estadoVazio(), { ...rapido, permitirInseguro: false });
    expect(r.ok).toBe(false);
    expect(r.resumo[0]!.erro).toContain("https");
    expect(rx.recebidos).toHaveLength(0);
  });
});

describe("subscriber list and URL safety", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "cotacao-webhooks-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("accepts the committed empty list and a well-formed https subscriber", async () => {
    expect(await loadAssinantes(new URL("../../webhooks.json", import.meta.url).pathname)).toEqual([]);
    const f = join(dir, "ok.json");
    await writeFile(f, JSON.stringify([{ url: "https://exemplo.com.br/webhooks/cotacao", eventos: ["price_changed"], segredo_env: "WEBHOOK_EXEMPLO" }]));
    expect(await loadAssinantes(f)).toHaveLength(1);
    expect(await loadAssinantes(join(dir, "nao-existe.json"))).toEqual([]);
  });

  it("names the file, entry and field of a bad subscriber", async () => {
    const f = join(dir, "ruim.json");
    await writeFile(f, JSON.stringify([{ url: "https://a.com.br/x", eventos: ["preco"], segredo_env: "S" }]));
    await expect(loadAssinantes(f)).rejects.toThrow(/ruim\.json: \[0\]\.eventos\.0/);
    await writeFile(f, JSON.stringify([{ url: "http://a.com.br/x", eventos: ["price_changed"], segredo_env: "S" }]));
    await expect(loadAssinantes(f)).rejects.toThrow(/\[0\]\.url http:\/\/a\.com\.br\/x: só URLs https/);
  });

  it.each([
    ["http://exemplo.com.br/", "https"],
    ["https://127.0.0.1/", "local"],
    ["https://10.1.2.3/", "privado"],
    ["https://169.254.169.254/latest/meta-data", "reservado"],
    ["https://[::1]/", "local"],
    ["https://[::ffff:192.168.0.1]/", "privado"],
    ["https://localhost:8443/", "não é um nome público"],
    ["https://servidor.internal/", "não é um nome público"],
    ["https://user:senha@exemplo.com.br/", "usuário ou senha"],
    ["não é url", "inválida"],
  ])("refuses %s", (url, motivo) => {
    expect(motivoUrlRecusada(url)).toContain(motivo);
  });

  it("accepts public https URLs", () => {
    expect(motivoUrlRecusada("https://hooks.exemplo.com.br/cotacao?x=1")).toBeNull();
    expect(motivoUrlRecusada("https://8.8.8.8/")).toBeNull();
    expect(isPrivateAddress("8.8.8.8")).toBe(false);
    expect(isPrivateAddress("2606:4700::1111")).toBe(false);
    expect(isPrivateAddress("fd00::1")).toBe(true);
  });

  it("refuses at connect time a name that resolves to a loopback address", async () => {
    // "localhost" resolves from /etc/hosts: no network needed
    const err = await new Promise<NodeJS.ErrnoException | null>((ok) => lookupPublico("localhost", { all: true }, (e) => ok(e)));
    expect(err?.code).toBe("EADDRNOTPUBLIC");
    expect(err?.message).toContain("não é público");
  });
});
