import { createHash } from "node:crypto";
import { mkdir, mkdtemp, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MAX_PAGE_BYTES } from "../../pipeline/fetch/http.ts";
import { createLiveLoader } from "../../pipeline/fetch/live.ts";
import { createReplayLoader } from "../../pipeline/fetch/replay.ts";
import { cepea } from "../../pipeline/sources/cepea.ts";
import { naBoiGordo } from "../../pipeline/sources/noticias-agricolas.ts";
import { scot } from "../../pipeline/sources/scot.ts";
import { fixture, huge, startFakeSite, type FakeSite } from "./server.ts";

const boi = cepea.pages.find((p) => p.id === "boi-gordo")!;
const scotBoi = scot.pages.find((p) => p.id === "boi-gordo")!;
const env = { COTACAO_CEPEA_URL: "https://cepea.test", COTACAO_SCOT_URL: "https://scot.test", COTACAO_NA_URL: "https://na.test" };
const FIFTY_MB = 50 * 1024 * 1024;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cotacao-replay-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** a file of `bytes` bytes that takes no disk (sparse): only its size is ever looked at */
async function sparse(file: string, bytes: number): Promise<void> {
  await mkdir(join(file, ".."), { recursive: true });
  await writeFile(file, "");
  await truncate(file, bytes);
}

describe("replay obeys the live page size cap", () => {
  it("refuses a 50 MB recorded page by its size, naming the file, its size and the cap", async () => {
    const file = join(dir, "cepea", "boi-gordo.html");
    await sparse(file, FIFTY_MB);
    const r = await createReplayLoader(dir, () => new Date(0), env).load(cepea, boi);
    expect(r).toEqual({
      ok: false,
      kind: "http_error",
      url: "https://cepea.test/br/indicador/boi-gordo.aspx",
      reason: `página gravada grande demais: ${file} tem ${FIFTY_MB} bytes, limite ${MAX_PAGE_BYTES} (o mesmo das páginas baixadas)`,
    });
  });

  it("takes a recorded page of exactly the cap, and refuses one byte more", async () => {
    const file = join(dir, "cepea", "boi-gordo.html");
    await mkdir(join(dir, "cepea"));
    const page = fixture("cepea/boi-gordo.html");
    const padded = page + " ".repeat(MAX_PAGE_BYTES - Buffer.byteLength(page));
    await writeFile(file, padded);
    const replay = createReplayLoader(dir, () => new Date(0), env);
    const r = await replay.load(cepea, boi);
    if (!r.ok) throw new Error(`esperava ok, veio ${r.kind}: ${r.reason}`);
    expect(boi.parse(r.html).rows).toEqual(boi.parse(page).rows);

    await writeFile(file, padded + " ");
    expect(await replay.load(cepea, boi)).toMatchObject({ ok: false, kind: "http_error", reason: expect.stringContaining(`tem ${MAX_PAGE_BYTES + 1} bytes`) });
  });

  it("refuses an oversized mirror page too, under the mirror's URL", async () => {
    // no scot/boi-gordo.html: replay reads the mirror's recording in its place
    const viaFile = join(dir, "noticias-agricolas", "boi-gordo-scot-consultoria.html");
    await sparse(viaFile, FIFTY_MB);
    const r = await createReplayLoader(dir, () => new Date(0), env).load(scot, scotBoi);
    expect(r).toMatchObject({ ok: false, kind: "http_error", url: `https://na.test${naBoiGordo.path}` });
    if (!r.ok) expect(r.reason).toBe(`página gravada grande demais: ${viaFile} tem ${FIFTY_MB} bytes, limite ${MAX_PAGE_BYTES} (o mesmo das páginas baixadas)`);
  });

  it("still says missing for a page that is not there, and reads a normal mirror recording", async () => {
    expect(await createReplayLoader(dir, () => new Date(0), env).load(cepea, boi)).toMatchObject({ ok: false, kind: "missing" });
    await mkdir(join(dir, "noticias-agricolas"));
    await writeFile(join(dir, "noticias-agricolas", "boi-gordo-scot-consultoria.html"), fixture("noticias-agricolas/boi-gordo-scot-consultoria.html"));
    const r = await createReplayLoader(dir, () => new Date(0), env).load(scot, scotBoi);
    expect(r).toMatchObject({ ok: true, mirror: naBoiGordo, method: "replay" });
    const bytes = Buffer.from(fixture("noticias-agricolas/boi-gordo-scot-consultoria.html"));
    expect(r).toMatchObject({ bytes: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") });
  });
});

describe("the same cap, the same kind, live", () => {
  let site: FakeSite;
  beforeAll(async () => {
    site = await startFakeSite({ [boi.path]: huge(MAX_PAGE_BYTES + 1) });
  });
  afterAll(() => site.close());

  it("a live page one byte over the cap fails as http_error, like its recording would", async () => {
    const live = createLiveLoader({ env: { COTACAO_CEPEA_URL: site.url }, minIntervalMs: 0, browser: false, mirrors: {}, http: { retries: 0 } });
    try {
      const r = await live.load(cepea, boi);
      expect(r).toMatchObject({ ok: false, kind: "http_error", reason: `resposta grande demais: passou de ${MAX_PAGE_BYTES} bytes` });
    } finally {
      await live.close();
    }
  });
});
