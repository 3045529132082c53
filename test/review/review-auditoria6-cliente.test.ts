/**
 * Audit 6, the JavaScript client (cliente/index.js, the same template as api/v1/client.js).
 *
 * historico() returned a new array (the filtered days) without the marks every other result
 * carries: after the primary mirror had given this client a series, a fallback mirror (jsDelivr
 * lags GitHub Pages) answering with an older file made historico() hand over the older days with
 * no `defasado`, no `origem`: older data passing for current unless the caller had set onAviso.
 * The README promises "Todo resultado diz de onde veio ... dados mais velhos nunca passam por
 * atuais em silêncio".
 *
 * And `defasado` was only ever set on a fallback mirror's answer. The first mirror can answer
 * older than it did a moment before: GitHub Pages is served by a CDN whose edges each keep a
 * file up to 10 minutes (max-age=600), so the next request, on another edge, gets the previous
 * publish. That older file came back as current, `defasado: false`, no onAviso.
 */
import { describe, expect, it } from "vitest";
import { createClient } from "../../cliente/index.js";

const PRIMARIO = "https://primario.test/";
const RESERVA = "https://reserva.test/";

/** A national series file as published, with its `atualizado` and days. */
function serie(atualizado: string, dias: Array<[string, number]>) {
  const ultimo = dias[dias.length - 1]!;
  return {
    produto: "boi_gordo",
    uf: "SP",
    valor: ultimo[1],
    data_cotacao: ultimo[0],
    atualizado,
    api_version: "v1",
    historico: dias.map(([data, valor]) => ({ data, valor })),
  };
}

const NOVO = serie("2026-09-08T19:00:00-03:00", [
  ["2026-09-04", 347.7],
  ["2026-09-08", 352.7],
]);
const VELHO = serie("2026-09-04T19:00:00-03:00", [
  ["2026-09-03", 345],
  ["2026-09-04", 347.7],
]);

describe("historico() says where its days came from, as every other result does", () => {
  it("a fallback mirror's older file: historico() is marked defasado (and with its origem), not handed over as current", async () => {
    let primarioFora = false;
    const fetch = (async (url: string) => {
      if (url.startsWith(PRIMARIO)) {
        if (primarioFora) return new Response("indisponível", { status: 503 });
        return new Response(JSON.stringify(NOVO), { status: 200 });
      }
      return new Response(JSON.stringify(VELHO), { status: 200 });
    }) as typeof globalThis.fetch;
    const api = createClient({ mirrors: [PRIMARIO, RESERVA], fetch });
    const antes = await api.historico("boi_gordo", { de: "2026-09-01" });
    expect(antes.map((d) => d.data)).toEqual(["2026-09-04", "2026-09-08"]);
    expect(antes).toMatchObject({ origem: PRIMARIO, espelho: 0, defasado: false });
    primarioFora = true;
    const depois = await api.historico("boi_gordo", { de: "2026-09-01" });
    // the reserve's file ends on 04/09: the caller must be told it is older than 08/09 it had
    expect(depois.map((d) => d.data)).toEqual(["2026-09-03", "2026-09-04"]);
    expect(depois.defasado).toBe(true);
    expect(depois.origem).toBe(RESERVA);
    expect(depois.espelho).toBe(1);
    // the marks are not data: the days still serialise as published
    expect(JSON.parse(JSON.stringify(depois))).toEqual(VELHO.historico);
  });
});

describe("any mirror, the first too, answering older than this client already received is defasado", () => {
  it("GitHub Pages' edge serving the previous publish after the new one: defasado and onAviso", async () => {
    const respostas = [NOVO, VELHO];
    const fetch = (async () => new Response(JSON.stringify(respostas.shift()), { status: 200 })) as typeof globalThis.fetch;
    const avisos: Array<{ atualizado: string | null; anterior: string | null }> = [];
    const api = createClient({ mirrors: [PRIMARIO], fetch, onAviso: (a) => avisos.push(a) });
    expect(await api.serie("boi_gordo")).toMatchObject({ espelho: 0, defasado: false });
    const depois = await api.serie("boi_gordo");
    expect(depois.data_cotacao).toBe("2026-09-04");
    expect(depois).toMatchObject({ origem: PRIMARIO, espelho: 0, defasado: true });
    expect(avisos).toMatchObject([{ atualizado: VELHO.atualizado, anterior: NOVO.atualizado }]);
  });
});
