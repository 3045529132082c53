/**
 * Audit 8, "a new source is one module and one line in SOURCES": the live-path tests' fake sites
 * (test/fetch/server.ts) knew three hosts by their base URL variables and served every page of
 * any other variable on Notícias Agrícolas' host, with that variable unset: a source added to the
 * catalogue was fetched from its real site, and the live tests failed on "exit code 1" with no
 * word of why. The fake sites now follow the catalogue: one more site per base URL variable.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registrarFonte, removerFonte } from "../../pipeline/sources/index.ts";
import { startSources } from "../fetch/server.ts";
import { fonteDeTeste } from "../helpers/fonte.ts";

// A made-up source whose one page is recorded at test/fixtures/{id}/{page}.html, as every
// source's is: its id names a folder that holds a recorded page (Notícias Agrícolas' milho), so
// the test adds no file to the fixtures. Its site is a closed local port: never the internet.
const ID = "noticias-agricolas";
const PAGINA = "indicador-cepea-esalq-milho";
const fonte = fonteDeTeste(
  ID,
  [{ id: PAGINA, path: "/fonte-nova/milho", titulo: "Milho (fonte nova)", diasUteis: true, hasTable: () => true, parse: () => ({ rows: [], avisos: [] }), series: [] }],
  { site: "http://127.0.0.1:9", baseUrlEnv: "COTACAO_FONTE_NOVA_URL" },
);

describe("the fake sites serve a source added to the catalogue on a site of its own", () => {
  let s: Awaited<ReturnType<typeof startSources>>;
  beforeAll(async () => {
    registrarFonte(fonte);
    s = await startSources();
  });
  afterAll(async () => {
    await s?.close();
    removerFonte(ID);
  });

  it("sets its base URL variable to a local site that answers its recorded page", async () => {
    const base = s.env["COTACAO_FONTE_NOVA_URL"];
    expect(base, "a variável da URL base da fonte nova não foi definida pelos sites falsos").toMatch(/^http:\/\/127\.0\.0\.1:\d+/);
    const r = await fetch(new URL("/fonte-nova/milho", base));
    expect(r.status).toBe(200);
    expect(await r.text()).toBe(readFileSync(new URL(`../fixtures/${ID}/${PAGINA}.html`, import.meta.url), "utf8"));
  });
});
