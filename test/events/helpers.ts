import { readFileSync, readdirSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import type { Assinante } from "../../pipeline/events/webhooks.ts";
import type { SeriesChange } from "../../pipeline/history/changes.ts";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { SCHEMA_DIR, isDecimal2 } from "../../pipeline/validate/ajv.ts";

type FormatsPlugin = (ajv: Ajv2020) => Ajv2020;
const addFormats = ((addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? addFormatsModule) as unknown as FormatsPlugin;

/** Validates a document against one of schemas/ with the same Ajv setup as the pipeline's gate. */
export function schemaErrors(schema: string, doc: unknown): string[] {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  ajv.addFormat("decimal2", { type: "number", validate: isDecimal2 });
  for (const f of readdirSync(SCHEMA_DIR).filter((n) => n.endsWith(".schema.json"))) {
    ajv.addSchema(JSON.parse(readFileSync(join(SCHEMA_DIR, f), "utf8")));
  }
  const validate = ajv.getSchema(schema);
  if (!validate) throw new Error(`schema ${schema} não encontrado`);
  return validate(doc) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message}`);
}

/** One request a {@link Receptor} got. */
export interface Recebido {
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
}

/** What a {@link Receptor} does with a request: a status, never answering, or writing the reply itself. */
export type Resposta = { status: number; headers?: Record<string, string> } | "pendurar" | ((res: ServerResponse) => void);

/**
 * A webhook receiver on 127.0.0.1 (random port) that records every request. It answers
 * `status` unless the test sets `responder` to choose the answer per request.
 */
export class Receptor {
  recebidos: Recebido[] = [];
  status = 204;
  responder: (req: Recebido, n: number) => Resposta = () => ({ status: this.status });
  private server!: Server;
  private sockets = new Set<Socket>();

  async start(): Promise<void> {
    this.server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const r: Recebido = { path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
        this.recebidos.push(r);
        const a = this.responder(r, this.recebidos.length);
        if (a === "pendurar") return; // never answers: the client's timeout must fire
        if (typeof a === "function") return a(res);
        res.writeHead(a.status, a.headers ?? {});
        res.end();
      });
    });
    this.server.on("connection", (s: Socket) => {
      this.sockets.add(s);
      s.on("close", () => this.sockets.delete(s));
    });
    await new Promise<void>((ok) => this.server.listen(0, "127.0.0.1", ok));
  }

  url(path = "/hook"): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  /** Stops listening; open sockets (a request left hanging, keep-alive) are destroyed so close() returns. */
  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((ok) => this.server.close(() => ok()));
  }
}

/** A series change: a new day at another price and, unless told otherwise, a past day revised. */
export function mudanca(id: string, dia: string, valor: number, revisado = true): SeriesChange {
  return {
    id,
    added: [dia],
    revised: revisado ? [{ data: "2026-09-01", antes: { data: "2026-09-01", valor: 90 }, depois: { data: "2026-09-01", valor: 91 } }] : [],
    campos: [],
    rebase: [],
    pracasChanged: false,
    antes: { data: "2026-09-02", valor: 100 },
    depois: { data: dia, valor },
  };
}

/**
 * A webhook subscriber for one describe block: a Receptor answering `status` (reset before each
 * test, with what it received), a fresh temp dir holding the delivery state, the subscriber to
 * every event type and quick delivery options. Read the fields inside tests (they change per test).
 */
export function assinaturaNoTeste(prefixo: string, status: number) {
  const rx = new Receptor();
  const t = {
    rx,
    url: "",
    dir: "",
    estadoFile: "",
    segredo: "segredo-de-teste-123",
    env: { SEGREDO_TESTE: "segredo-de-teste-123" },
    rapido: { timeoutMs: 2_000, backoffMs: 5, tentativas: 2, permitirInseguro: true, env: { SEGREDO_TESTE: "segredo-de-teste-123" } },
    assinante: (): Assinante => ({ url: t.url, eventos: ["cotacao_atualizada", "price_changed", "historico_revisado"], segredo_env: "SEGREDO_TESTE" }),
  };
  beforeAll(async () => {
    await rx.start();
    t.url = rx.url();
  });
  afterAll(() => rx.close());
  beforeEach(async () => {
    t.dir = await mkdtemp(join(tmpdir(), prefixo));
    t.estadoFile = join(t.dir, "webhooks-entregues.json");
    rx.status = status;
    rx.recebidos = [];
  });
  afterEach(() => rm(t.dir, { recursive: true, force: true }));
  return t;
}
