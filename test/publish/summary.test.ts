import { describe, expect, it } from "vitest";
import { failedPages, stepSummary } from "../../pipeline/cli/summary.ts";
import type { StatusFile, StatusPage, StatusSource } from "../../pipeline/domain/publicados.ts";

const page = (id: string, extra: Partial<StatusPage> = {}): StatusPage => ({
  id,
  url: `https://www.cepea.org.br/br/indicador/${id}.aspx`,
  estado: "ok",
  motivo: null,
  via: null,
  ultima_tentativa: "2026-09-08T21:17:40-03:00",
  ultimo_sucesso: "2026-09-08T21:17:40-03:00",
  falhas_consecutivas: 0,
  falhando_desde: null,
  ...extra,
});
const source = (id: "cepea" | "scot", paginas: StatusPage[], extra: Partial<StatusSource> = {}): StatusSource => ({
  id,
  nome: id,
  max_idade_dias: 5,
  estado: "ok",
  motivo: null,
  ultima_tentativa: null,
  ultimo_sucesso: null,
  ultima_data: "2026-09-08",
  falhas_consecutivas: 0,
  falhando_desde: null,
  paginas,
  ...extra,
});
const status = (fontes: StatusSource[]): StatusFile => ({ api_version: "v1", atualizado: "2026-09-08T21:17:40-03:00", fontes, series: [] });

const failing = status([
  source("cepea", [page("boi-gordo", { estado: "blocked", motivo: "HTTP 403 | desafio Cloudflare", falhas_consecutivas: 2, falhando_desde: "2026-09-07T21:17:02-03:00" }), page("soja")], {
    estado: "blocked",
  }),
  source("scot", [page("boi-gordo")]),
]);

describe("step summary", () => {
  it("names each failed page with its reason, and fails the job when the update failed", () => {
    const s = stepSummary({ status: failing, outcome: "failure", commit: "dados 2026-09-08: 18 séries atualizadas" });
    expect(s.failed).toBe(true);
    expect(s.failures.map((f) => `${f.fonte}/${f.pagina}`)).toEqual(["cepea/boi-gordo"]);
    expect(s.markdown).toContain("## Atualização: falhou (1 página(s))");
    expect(s.markdown).toContain(
      "| cepea | [boi-gordo](https://www.cepea.org.br/br/indicador/boi-gordo.aspx) | blocked | HTTP 403 \\| desafio Cloudflare | 2026-09-07T21:17:02-03:00 | 2 |",
    );
    expect(s.markdown).toContain("Commit de dados: `dados 2026-09-08: 18 séries atualizadas`");
  });

  it("a good run with nothing new is green and says nothing was committed", () => {
    const s = stepSummary({ status: status([source("cepea", [page("soja")])]), outcome: "success", commit: null });
    expect(s.failed).toBe(false);
    expect(s.markdown).toContain("## Atualização: ok");
    expect(s.markdown).toContain("Nenhum dado novo nesta execução (nada commitado).");
    expect(s.markdown).not.toContain("Páginas com falha");
  });

  it("an update that crashed before writing status is still a failure, pointing at the log", () => {
    const s = stepSummary({ status: status([source("cepea", [page("soja")])]), outcome: "failure" });
    expect(s.failed).toBe(true);
    expect(s.markdown).toContain("veja o log do passo `npm run update`");
  });

  it("run by hand (no outcome), failed pages decide; disabled sources do not count", () => {
    expect(stepSummary({ status: failing }).failed).toBe(true);
    const disabled = status([source("cepea", [page("soja", { estado: "missing" })], { estado: "disabled" })]);
    expect(failedPages(disabled)).toEqual([]);
    expect(stepSummary({ status: disabled }).failed).toBe(false);
  });
});

describe("step summary after an invalid tree", () => {
  it("fails the job and says the data was restored, even when the update step itself succeeded", () => {
    const ok = status([source("cepea", [page("soja")])]);
    const s = stepSummary({ status: ok, outcome: "success", commit: null, validacao: "failure" });
    expect(s.failed).toBe(true);
    expect(s.markdown).toContain("## Atualização: falhou");
    expect(s.markdown).toContain("não passou em `npm run validate`: os dados foram restaurados ao último commit");
    expect(stepSummary({ status: ok, outcome: "success", commit: null, validacao: "success" }).failed).toBe(false);
  });
});
