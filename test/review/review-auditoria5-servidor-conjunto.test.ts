/**
 * What was wrong: the server's file cache checks each file on disk at most once a second, each on
 * its own clock. After a publish, a request whose file's second had run out got the new soja
 * price while the next one, for milho, still got milho's old file from the same process for up
 * to a second (its second had not run out): a client that had seen the new publish was handed the
 * publish before it, a mix of two publishes in answers that follow each other.
 *
 * Now handing out a new version of a file (a publish) has every other entry checked on disk again
 * before its next use.
 */
import { mkdir, mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FileCache } from "../../pipeline/serve/files.ts";

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

describe("the file cache across a publish of two files", () => {
  it("never hands out milho's old file after soja's new one", async () => {
    const root = await mkdtemp(join(tmpdir(), "cotacao-conjunto-"));
    dirs.push(root);
    await mkdir(join(root, "api/v1/cotacao"), { recursive: true });
    const soja = "api/v1/cotacao/soja.json";
    const milho = "api/v1/cotacao/milho.json";
    await writeFile(join(root, soja), '{"produto":"soja","valor":161,"data_cotacao":"2026-09-24"}');
    await writeFile(join(root, milho), '{"produto":"milho","valor":70.93,"data_cotacao":"2026-09-24"}');
    let agora = 0;
    const files = new FileCache(root, { now: () => agora });
    const texto = async (rel: string) => {
      const r = await files.resolve(rel);
      return r.kind === "file" ? JSON.parse(r.entry.body.toString("utf8")) : null;
    };
    expect((await texto(soja)).valor).toBe(161);
    agora = 500;
    expect((await texto(milho)).valor).toBe(70.93);
    // the publish: both files renamed over the old ones
    agora = 600;
    await writeFile(join(root, `${soja}.novo`), '{"produto":"soja","valor":162.5,"data_cotacao":"2026-09-25"}');
    await writeFile(join(root, `${milho}.novo`), '{"produto":"milho","valor":71.2,"data_cotacao":"2026-09-25"}');
    await rename(join(root, `${soja}.novo`), join(root, soja));
    await rename(join(root, `${milho}.novo`), join(root, milho));
    // soja's second has run out: the new day
    agora = 1100;
    expect(await texto(soja)).toEqual({ produto: "soja", valor: 162.5, data_cotacao: "2026-09-25" });
    // milho's has not: still the new day, not the publish before
    agora = 1200;
    expect(await texto(milho)).toEqual({ produto: "milho", valor: 71.2, data_cotacao: "2026-09-25" });
  });
});
