import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PLACEHOLDERS, ROTULOS_REDOC, TRADUCOES_DOM } from "../../pipeline/openapi/docs.ts";
import { siteNoNavegador } from "./site-no-navegador.ts";

// the page as a visitor gets it: the server's Content-Security-Policy enforced
const t = siteNoNavegador({ bypassCSP: false });

describe("API docs page", () => {
  it("renders Redoc under the real server's Content-Security-Policy", async () => {
    const spec = JSON.parse(await readFile(join(t.site.publicDir, "api/v1/openapi.json"), "utf8")) as { info: { title: string } };
    const page = await t.browser.context.newPage();
    const erros: string[] = [];
    page.on("pageerror", (e) => erros.push(e.message));
    page.on("console", (m) => {
      if (m.type() === "error" && /Content Security Policy/i.test(m.text())) erros.push(m.text());
    });
    const res = await page.goto(new URL("docs/", t.srv.url).href);
    expect(res?.headers()["content-security-policy"]).toContain("script-src 'self'");
    const titulo = page.locator("#redoc h1", { hasText: spec.info.title });
    await titulo.first().waitFor({ timeout: 30_000 });
    expect(await titulo.first().innerText()).toContain(spec.info.title);
    // an operation of the description is rendered too, not just the header
    await page.locator("#redoc", { hasText: "/api/v1/cotacao.json" }).first().waitFor({ timeout: 10_000 });
    expect(erros.filter((e) => /script/i.test(e))).toEqual([]);
    await page.close();
  }, 60_000);

  it("renders the operations with Portuguese labels and code samples, requesting nothing off-origin", async () => {
    const page = await t.browser.context.newPage();
    const pedidos: string[] = [];
    const erros: string[] = [];
    page.on("request", (r) => pedidos.push(r.url()));
    page.on("pageerror", (e) => erros.push(e.message));
    await page.goto(new URL("docs/", t.srv.url).href);
    const redoc = page.locator("#redoc");
    // an operation of the description, its code samples and Redoc's own labels, translated
    await page.locator("#redoc", { hasText: "/api/v1/cotacao.json" }).first().waitFor({ timeout: 30_000 });
    await page.locator("#redoc", { hasText: ROTULOS_REDOC.requestSamples! }).first().waitFor({ timeout: 10_000 });
    // an operation of the query interface, further down (Redoc draws it when it is reached)
    await page.goto(new URL("docs/#operation/consultarCotacao", t.srv.url).href);
    await page.locator("#redoc", { hasText: TRADUCOES_DOM["query Parameters"]! }).first().waitFor({ timeout: 30_000 });
    // the observer translates after React draws: wait until the hard-coded strings are gone
    await page.waitForFunction(() => !/query Parameters|Response Schema:/.test(document.getElementById("redoc")!.textContent ?? ""), null, { timeout: 10_000 });
    // textContent, not innerText: Redoc upper-cases some headings with CSS
    const texto = (await redoc.evaluate((el) => el.textContent)) ?? "";
    expect(texto).toContain("Exemplos de requisição");
    expect(texto).toContain("Exemplos de resposta");
    expect(texto).toContain("Respostas");
    expect(texto).toContain(TRADUCOES_DOM["query Parameters"]);
    expect(texto).toContain(TRADUCOES_DOM["Response Schema:"]);
    // the x-codeSamples tabs
    for (const aba of ["curl", "fetch", "requests"]) expect(texto).toContain(aba);
    // none of the English strings the page translates is left
    const restantes = Object.keys(TRADUCOES_DOM).filter((en) => en.length > 8 && texto.includes(en));
    expect(restantes).toEqual([]);
    for (const en of ["Request samples", "Response samples", "Download OpenAPI specification"]) expect(texto).not.toContain(en);
    const busca = await page.locator("#redoc input[placeholder]").first().getAttribute("placeholder");
    expect(busca).toBe(PLACEHOLDERS["Search..."]);
    expect(await page.getAttribute("html", "lang")).toBe("pt-BR");
    const origem = new URL(t.srv.url).origin;
    expect(pedidos.filter((u) => !u.startsWith(origem) && !u.startsWith("data:") && !u.startsWith("blob:")), pedidos.join(" ")).toEqual([]);
    expect(erros).toEqual([]);
    await page.close();
  }, 90_000);
});
