/**
 * The README's pandas one-liner is a real call with its real output: run with Debian's python3
 * and pandas (npm test's pretest installs python3-pandas) against the site built from the recorded
 * pages, served on 127.0.0.1, its printed table must be the README's "Saída real" block.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../pipeline/config.ts";
import { SITE_URL } from "../../pipeline/domain/site.ts";
import { startServer } from "../../pipeline/serve/app.ts";
import { buildTestSite } from "../serve/site.ts";
import { PANDAS_DEBIAN, executavel } from "../sistema/preparar.ts";

const readme = readFileSync(`${REPO_ROOT}/README.md`, "utf8");
const secao = readme.slice(readme.indexOf("### Carregar os dados em uma linha"));
const comando = /```python\n([^\n]+)\n```/.exec(secao)?.[1];
const saida = /Saída real[\s\S]*?```text\n([\s\S]*?)```/.exec(secao)?.[1];

describe("README: the pandas one-liner", () => {
  let site: Awaited<ReturnType<typeof buildTestSite>>;
  let srv: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    site = await buildTestSite();
    srv = await startServer({ publicDir: site.publicDir });
  }, 120_000);
  afterAll(async () => {
    await srv?.close();
    await site?.cleanup();
  });

  it("reads the published long CSV and prints exactly the README's output", async () => {
    expect(comando, "README sem o bloco ```python de uma linha").toBeDefined();
    expect(saida, "README sem o bloco ```text da saída real").toBeDefined();
    expect(comando).toContain(`${SITE_URL}api/v1/historico.csv`);
    expect(executavel(PANDAS_DEBIAN, true), "pandas do Debian ausente: apt-get install python3-pandas (o pretest do npm test instala)").toBe(true);
    const local = comando!.split(SITE_URL).join(srv.url.endsWith("/") ? srv.url : `${srv.url}/`);
    // -i: as typed at the prompt, the last expression is printed (the prompts go to stderr)
    // (asynchronously: the server answering python runs in this process)
    const r = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const p = spawn("/usr/bin/python3", ["-q", "-i"], { stdio: ["pipe", "pipe", "pipe"], timeout: 60_000 });
      let stdout = "";
      let stderr = "";
      p.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
      p.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
      p.on("error", reject);
      p.on("close", (status) => resolve({ status, stdout, stderr }));
      p.stdin.end(`${local}\n`);
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/Traceback|Error/);
    expect(r.stdout).toBe(saida);
  });
});
