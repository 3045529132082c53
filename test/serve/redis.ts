import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REDIS_SERVER } from "../sistema/preparar.ts";

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface RedisDeTeste {
  port: number;
  url: string;
  /** stops it (SIGKILL when `matar`: an outage, not a shutdown) */
  stop(matar?: boolean): Promise<void>;
  /** starts it again on the same port, empty (no persistence) */
  restart(): Promise<void>;
  cleanup(): Promise<void>;
  /** the running server's process id (the bench counts its CPU with the node processes it serves) */
  pid(): number | undefined;
}

/**
 * A real Redis on loopback for one test file: a random port, a temp dir, nothing saved to disk
 * (--save "" --appendonly no), stopped by the test itself.
 */
export async function startRedis(): Promise<RedisDeTeste> {
  const dir = await mkdtemp(join(tmpdir(), "cotacao-redis-"));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const up = () =>
    new Promise<void>((resolve, reject) => {
      const c = spawn(REDIS_SERVER, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir, "--daemonize", "no"], {
        stdio: ["ignore", "pipe", "pipe"],
      });
      child = c;
      let out = "";
      const onData = (d: Buffer) => {
        out += String(d);
        if (/Ready to accept connections/.test(out)) resolve();
      };
      c.stdout!.on("data", onData);
      c.stderr!.on("data", onData);
      c.once("error", reject);
      c.once("exit", (code) => reject(new Error(`redis-server saiu com ${code} antes de aceitar conexões:\n${out}`)));
    });
  const stop = (matar = false) =>
    new Promise<void>((resolve) => {
      const c = child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return resolve();
      c.once("exit", () => resolve());
      c.kill(matar ? "SIGKILL" : "SIGTERM");
    });
  await up();
  return {
    port,
    url: `redis://127.0.0.1:${port}/0`,
    stop,
    restart: up,
    pid: () => child?.pid,
    cleanup: async () => {
      await stop(true);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
