/**
 * POST /api/v1/romaneio with the real engine (tesseract.js, pdf.js) in a server process of its own:
 * a corpus PNG read end to end under strace, which proves the server opens no file for writing
 * (the upload is never on disk) and never logs the file's text; a PDF with a text layer; and the
 * cluster path, where the workers share one romaneio quota through the primary.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../pipeline/config.ts";
import { validateDocument } from "../../pipeline/contract/schemas.ts";
import type { Romaneio } from "../../pipeline/domain/publicados.gerados.ts";
import { lerRomaneio } from "../../pipeline/romaneio/ler.ts";
import { criarLeitorOcr } from "../../pipeline/romaneio/ocr.ts";
import { gerarCorpus, type DocumentoCorpus } from "../romaneio/corpus.ts";
import { buildTestSite } from "./site.ts";

const CHAVE = "chave-romaneio-real-0123456789";
let site: Awaited<ReturnType<typeof buildTestSite>>;
let docs: DocumentoCorpus[];
let tmp: string;
const filhos: ChildProcess[] = [];
/** the servers' own pids (under strace, the child is strace) */
const servidores: number[] = [];

beforeAll(async () => {
  [site, docs, tmp] = await Promise.all([buildTestSite(), gerarCorpus(), mkdtemp(join(tmpdir(), "cotacao-romaneio-strace-"))]);
}, 300_000);
afterAll(async () => {
  for (const pid of servidores) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  for (const c of filhos) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  await site?.cleanup();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

interface Filho {
  child: ChildProcess;
  url: string;
  saida: () => string;
  parar(): Promise<void>;
}

/** the server in a child process: node itself (not the tsx wrapper), optionally under strace */
function iniciar(args: string[], env: Record<string, string>, strace?: string): Promise<Filho> {
  const node = [process.execPath, "--import", "tsx", "test/serve/romaneio-filho.ts", site.publicDir, ...args];
  // every call that could create, write, rename or delete a file, in every thread (tesseract.js runs in worker threads)
  // (--seccomp-bpf: only those calls stop the process; tracing every futex of the OCR threads takes minutes)
  const cmd = strace ? ["strace", "-f", "-qq", "--seccomp-bpf", "-e", "trace=open,openat,openat2,creat,rename,renameat,renameat2,unlink,unlinkat,truncate,ftruncate", "-o", strace, ...node] : node;
  const child = spawn(cmd[0]!, cmd.slice(1), {
    cwd: REPO_ROOT,
    // tsx's own transform cache would be a write of the test's making, not the server's
    env: { ...process.env, COTACAO_WORKERS: "", COTACAO_REDIS_URL: "", COTACAO_COTA_DIARIA: "", TSX_DISABLE_CACHE: "1", COTACAO_ROMANEIO_KEYS: CHAVE, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  filhos.push(child);
  let out = "";
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => {
      out += String(d);
      const u = /\{"url":"([^"]+)","pid":(\d+)\}/.exec(out);
      if (u) {
        const pid = Number(u[2]);
        servidores.push(pid);
        resolve({
          child,
          url: u[1]!,
          saida: () => out,
          // the server itself: a signal to strace would only detach it
          parar: () =>
            new Promise<void>((r) => {
              if (child.exitCode !== null || child.signalCode !== null) return r();
              child.once("exit", () => r());
              process.kill(pid, "SIGTERM");
            }),
        });
      }
    });
    child.stderr!.on("data", (d: Buffer) => (out += String(d)));
    child.once("exit", (code) => reject(new Error(`o servidor saiu com ${code} antes de servir:\n${out}`)));
  });
}

/** The strace lines that create, write, rename or delete a file outside /dev and /proc. */
function escritas(log: string, ignorar: string[] = []): string[] {
  const fora = (path: string) => !path.startsWith("/dev/") && !path.startsWith("/proc/") && !ignorar.includes(path);
  const out: string[] = [];
  for (const linha of log.split("\n")) {
    const m = /^\d+\s+(?:<\.\.\. )?(\w+)\((.*)$/.exec(linha.trim());
    if (!m) continue;
    const [, chamada, resto] = m as unknown as [string, string, string];
    const caminhos = [...resto.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((x) => x[1]!);
    if (/^open(at2?)?$/.test(chamada)) {
      if (/O_WRONLY|O_RDWR|O_CREAT|O_TRUNC/.test(resto) && caminhos.some(fora)) out.push(linha);
    } else if (/^(creat|rename(at2?)?|unlink(at)?|truncate)$/.test(chamada)) {
      if (caminhos.length === 0 || caminhos.some(fora)) out.push(linha);
    } else if (chamada === "ftruncate") {
      out.push(linha);
    }
  }
  return out;
}

function post(url: string, body: BodyInit, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(new URL("api/v1/romaneio", url), { method: "POST", body, headers: { "X-API-Key": CHAVE, ...headers } });
}

describe("POST /api/v1/romaneio with the real engine", () => {
  it("reads a corpus PNG end to end as the engine and the reader read it; under strace: no file written, renamed or deleted; nothing of the file in the logs", async () => {
    const doc = docs.find((d) => d.tipo === "abate")!;
    const png = await readFile(doc.arquivos.png);
    const log = join(tmp, "strace.log");
    const s = await iniciar([], {}, log);
    let corpo: Romaneio;
    try {
      const res = await post(s.url, png, { "Content-Type": "image/png" });
      expect(res.status).toBe(200);
      corpo = (await res.json()) as Romaneio;
      // a corrupt image and a named file in a form: the failure paths log nothing of them either
      const corrompido = Buffer.concat([png.subarray(0, 64), Buffer.alloc(4096, 0x41)]);
      const form = new FormData();
      form.append("arquivo", new Blob([corrompido], { type: "image/png" }), "romaneio-do-fulano-secreto.png");
      const ruim = await post(s.url, form);
      expect(ruim.status).toBe(422);
      expect(await ruim.json()).toMatchObject({ erro: "arquivo_invalido" });
    } finally {
      await s.parar();
    }
    expect(validateDocument("api/v1/romaneio.json", corpo)).toEqual([]);
    expect(corpo.arquivo).toMatchObject({ tipo: "image/png", paginas: 1, origem: "ocr" });
    expect(corpo.arquivo.segundos).toBeGreaterThan(0);
    expect(corpo.rate_limit).toEqual({ diario: 50, restante: 49 });
    const { tipo, data, produto, uf, totais } = doc.esperado;
    expect(corpo.leitura).toMatchObject({ tipo, data, produto, uf, totais });
    // the same engine and reader in this process read the same fields
    const leitor = criarLeitorOcr();
    try {
      const aqui = await leitor.ler(png, "image/png");
      expect(corpo.leitura).toEqual(lerRomaneio(aqui));
    } finally {
      await leitor.fechar();
    }

    // the checker itself sees a write, a rename and a delete
    const pid = "4242 ";
    expect(escritas([`${pid}openat(AT_FDCWD, "/tmp/romaneio.png", O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC, 0666) = 21`, `${pid}rename("/tmp/a", "/tmp/b") = 0`, `${pid}unlinkat(AT_FDCWD, "/tmp/b", 0) = 0`, `${pid}openat(AT_FDCWD, "/dev/null", O_RDWR|O_CLOEXEC) = 3`].join("\n"))).toHaveLength(3);
    const straceLog = await readFile(log, "utf8");
    expect(straceLog).toMatch(/openat\(.*por\.traineddata/); // strace did watch the engine's threads
    expect(escritas(straceLog, [log])).toEqual([]);
    const saida = s.saida();
    for (const texto of [doc.esperado.vendedor?.nome, doc.esperado.comprador?.nome, doc.esperado.municipio, "romaneio-do-fulano-secreto"]) {
      expect(texto).toBeTruthy();
      expect(saida).not.toContain(texto!);
    }
  }, 180_000);

  it("reads a PDF's text layer (multipart) and, in a cluster of two workers, counts one romaneio quota for the key", async () => {
    const doc = docs.find((d) => d.tipo === "carga")!;
    const pdf = await readFile(doc.arquivos.pdf);
    const s = await iniciar(["--workers", "2"], { COTACAO_ROMANEIO_COTA_DIARIA: "2" });
    try {
      const respostas: Response[] = [];
      for (let i = 0; i < 3; i++) {
        const form = new FormData();
        form.append("arquivo", new Blob([pdf], { type: "application/pdf" }), "romaneio.pdf");
        respostas.push(await post(s.url, form));
      }
      expect(respostas.map((r) => r.status)).toEqual([200, 200, 429]);
      const corpo = (await respostas[1]!.json()) as Romaneio;
      expect(corpo.arquivo).toMatchObject({ tipo: "application/pdf", origem: "pdf_texto" });
      expect(corpo.rate_limit).toEqual({ diario: 2, restante: 0 });
      expect(validateDocument("api/v1/romaneio.json", corpo)).toEqual([]);
      // the key's queries are counted apart
      const q = await fetch(new URL("api/v1/cotacao", s.url), { headers: { "X-API-Key": CHAVE } });
      expect(((await q.json()) as { rate_limit: unknown }).rate_limit).toEqual({ diario: 10_000, restante: 9_999 });
    } finally {
      await s.parar();
    }
  }, 180_000);
});
