/**
 * Audit 6 of events, second part: ways a number went missing without anyone being told.
 *
 * 1. One run can bring 1 + 2 × 128 = 257 events (the summary, a price_changed and a
 *    historico_revisado per series); eventos.json kept the newest 200, so the run's own last 57
 *    never reached the file, the feed or any webhook.
 * 2. The schema said "o mesmo dado nunca gera dois ids", untrue since content that comes back
 *    (a value revised, undone, redone) is a new event with another id.
 * 3. A webhook subscriber that keeps failing: its undelivered events "ficam para a próxima
 *    execução" until they leave eventos.json, and then nothing said they were lost.
 * 4. The data commit message measured a new day from the superseded value of the day before
 *    when the same run revised it (the defect 9a66034 fixed in the events).
 */
import { readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { XMLParser } from "fast-xml-parser";
import { renderFeed } from "../../pipeline/events/feed.ts";
import { EVENTOS_LIMITE, nextEventos, type EventosFile } from "../../pipeline/events/model.ts";
import { entregarEventos, formatarRelatorio, loadEstado, estadoVazio } from "../../pipeline/events/webhooks.ts";
import type { SerieFile } from "../../pipeline/domain/publicados.ts";
import { buildChangelog } from "../../pipeline/publish/changelog.ts";
import { applyUpdate } from "../../pipeline/run/apply.ts";
import { allSeries, getSource, serieDef } from "../../pipeline/sources/index.ts";
import { REPO_ROOT } from "../../pipeline/config.ts";
import { assinaturaNoTeste, mudanca, schemaErrors } from "../events/helpers.ts";

describe("audit 6 (2): a run never cuts its own events", () => {
  // a file already full of older runs' events
  let cheio: EventosFile | null = null;
  for (let d = 1; d <= 120; d++) {
    const dia = `2026-08-${String((d % 28) + 1).padStart(2, "0")}`;
    cheio = nextEventos(cheio, [mudanca("milho", dia, 100 + d / 100, false)], new Date(Date.parse("2026-08-01T12:00:00-03:00") + d * 3_600_000));
  }

  it("every series moving and revised in one run: all 257 events are in eventos.json and the feed", () => {
    expect(cheio!.eventos).toHaveLength(EVENTOS_LIMITE);
    const series = allSeries();
    expect(series.length * 2 + 1).toBeGreaterThan(EVENTOS_LIMITE);
    const agora = new Date("2026-09-03T12:00:00-03:00");
    const f = nextEventos(cheio, series.map((s) => mudanca(s.id, "2026-09-03", 101)), agora);
    const daExecucao = f.eventos.filter((e) => e.criado_em === "2026-09-03T12:00:00-03:00");
    expect(daExecucao).toHaveLength(series.length * 2 + 1);
    expect(f.eventos).toHaveLength(series.length * 2 + 1); // the older runs' events make room
    expect(daExecucao.filter((e) => e.tipo === "historico_revisado").map((e) => e.tipo === "historico_revisado" && e.dados.serie)).toEqual(series.map((s) => s.id));
    expect(schemaErrors("eventos.schema.json", f)).toEqual([]);
    const feed = new XMLParser({ ignoreAttributes: false }).parse(renderFeed(f)) as { feed: { entry: unknown[] } };
    expect(feed.feed.entry).toHaveLength(series.length * 2 + 1);
    // the next, smaller run is on top of it, and the bound trims the big run's oldest events
    const depois = nextEventos(f, [mudanca("soja", "2026-09-04", 102, false)], new Date("2026-09-04T12:00:00-03:00"));
    expect(depois.eventos).toHaveLength(EVENTOS_LIMITE);
    expect(depois.eventos.slice(0, 2).map((e) => e.tipo)).toEqual(["cotacao_atualizada", "price_changed"]);
    expect(depois.eventos.slice(2)).toEqual(f.eventos.slice(0, EVENTOS_LIMITE - 2));
  });

  it("a usual run keeps the bound: its events on top, the oldest ones trimmed", () => {
    const f = nextEventos(cheio, [mudanca("soja", "2026-09-03", 101), mudanca("milho", "2026-09-03", 101)], new Date("2026-09-03T12:00:00-03:00"));
    expect(f.eventos).toHaveLength(EVENTOS_LIMITE);
    expect(f.eventos.slice(5)).toEqual(cheio!.eventos.slice(0, EVENTOS_LIMITE - 5));
  });
});

describe("audit 6 (2): the published description of eventos.json says what is true", () => {
  const schema = JSON.parse(readFileSync(join(REPO_ROOT, "schemas", "eventos.schema.json"), "utf8")) as {
    description: string;
    properties: { limite: { description: string } };
  };

  it("content that comes back gets another id; a run is kept whole past `limite`", () => {
    expect(schema.description).not.toMatch(/nunca gera dois ids/);
    expect(schema.description).toMatch(/volta depois .* é um evento novo, com outro id/);
    expect(schema.description).toMatch(/repetir uma execução com os mesmos dados não acrescenta nada/);
    expect(schema.description).toMatch(/passa de `limite`/);
    expect(schema.properties.limite.description).toMatch(/os da última execução ficam todos/);
  });
});

describe("audit 6 (2): the data commit measures from the day before as the series now publishes it", () => {
  const NOW = new Date("2026-09-05T12:00:00-03:00");
  const origin = { url: "https://example.invalid/", via: null, viaUrl: null, fetchedAt: NOW };
  const aplicar = (existing: SerieFile | undefined, entries: Array<{ data: string; valor: number }>) => {
    const def = serieDef("boi_gordo")!;
    const r = applyUpdate(def, getSource(def.fonte)!, existing, { def, entries, pracas: null }, origin, NOW);
    if (!r) throw new Error("nada mudou");
    return r.file;
  };
  const base = aplicar(undefined, [
    { data: "2026-09-02", valor: 340 },
    { data: "2026-09-03", valor: 347.6 },
  ]);
  const mensagem = (depois: SerieFile) =>
    buildChangelog({
      before: new Map([["api/v1/cotacao/boi_gordo.json", JSON.stringify(base)]]),
      after: new Map([["api/v1/cotacao/boi_gordo.json", JSON.stringify(depois)]]),
    })!;

  it("the day before revised along with a new day: the message's move is the series' variacao", () => {
    const depois = aplicar(base, [
      { data: "2026-09-03", valor: 347 },
      { data: "2026-09-04", valor: 347.7 },
    ]);
    expect(depois.variacao).toMatchObject({ anterior: 347, absoluta: 0.7, percentual: 0.2 });
    const msg = mensagem(depois);
    expect(msg.split("\n")[0]).toBe("Boi gordo (CEPEA/ESALQ-USP) +0,2%; 1 revisão");
    expect(msg).toContain("- Boi gordo (CEPEA/ESALQ-USP): R$ 347,00/@ → R$ 347,70/@ (+R$ 0,70; +0,20%) em 04/09/2026 (antes: 03/09/2026)");
    // the correction itself, from the number published before
    expect(msg).toContain("- Boi gordo (CEPEA/ESALQ-USP), 03/09/2026: R$ 347,60/@ → R$ 347,00/@");
  });

  it("the day before revised above the new day: a fall, as the series says", () => {
    const depois = aplicar(base, [
      { data: "2026-09-03", valor: 348 },
      { data: "2026-09-04", valor: 347.7 },
    ]);
    expect(depois.variacao?.percentual).toBe(-0.09);
    const msg = mensagem(depois);
    expect(msg.split("\n")[0]).toBe("Boi gordo (CEPEA/ESALQ-USP) -0,1%; 1 revisão") // the subject rounds to one decimal;
    expect(msg).toContain("R$ 348,00/@ → R$ 347,70/@ (-R$ 0,30; -0,09%) em 04/09/2026");
  });

  it("a new day at the revised price of the day before is no move", () => {
    const depois = aplicar(base, [
      { data: "2026-09-03", valor: 347.7 },
      { data: "2026-09-04", valor: 347.7 },
    ]);
    const msg = mensagem(depois);
    expect(msg.split("\n")[0]).toBe("1 série sem mudança em 04/09/2026; 1 revisão");
    expect(msg).not.toContain("Variações");
  });
});

describe("audit 6 (2): a webhook subscriber that keeps failing is told to have lost events", () => {
  const t = assinaturaNoTeste("cotacao-perdidos-", 503);
  const { rx, rapido, assinante, env } = t;

  /** eventos.json after `n` more runs of two events each, bounded to 6 (the real bound is 200) */
  const mais = (f: EventosFile | null, de: number, n: number): EventosFile => {
    for (let d = de; d < de + n; d++) {
      f = nextEventos(f, [mudanca("milho", `2026-10-${String(d).padStart(2, "0")}`, 100 + d, false)], new Date(`2026-10-${String(d).padStart(2, "0")}T20:00:00-03:00`), 6);
    }
    return f!;
  };

  it("the events it never got leave eventos.json: logged by URL and id, recorded, and notify fails", async () => {
    const log: string[] = [];
    const f1 = mais(null, 1, 1);
    const r1 = await entregarEventos(f1, [assinante()], estadoVazio(), { ...rapido, estadoFile: t.estadoFile, log: (l) => log.push(l) });
    expect(r1.ok).toBe(false);
    expect(r1.resumo[0]).toMatchObject({ falhas: 1, perdidos: [] });
    const primeiros = [...f1.eventos].reverse();
    // the receiver stays down for three more runs; the first run's two events leave the list
    const f4 = mais(f1, 2, 3);
    expect(f4.eventos.map((e) => e.id)).not.toContain(primeiros[0]!.id);
    log.length = 0;
    const r4 = await entregarEventos(f4, [assinante()], await loadEstado(t.estadoFile), { ...rapido, estadoFile: t.estadoFile, log: (l) => log.push(l) });
    expect(r4.ok).toBe(false);
    expect(r4.resumo[0]!.perdidos.map((e) => e.id)).toEqual(primeiros.map((e) => e.id));
    const linha = log.find((l) => l.includes("PERDIDO"))!;
    expect(linha).toContain(`${t.url}: 2 evento(s) PERDIDO(S): saíram de eventos.json sem ser entregues`);
    for (const e of primeiros) expect(linha).toContain(`${e.id} (${e.tipo} de 01/10/2026 20:00)`);
    expect(linha).not.toContain(env.SEGREDO_TESTE);
    expect(formatarRelatorio(r4).join("\n")).toContain("2 PERDIDO(S)");
    // recorded in the committed state, and not told twice
    const estado = JSON.parse(await readFile(t.estadoFile, "utf8"));
    expect(estado.assinantes[0].perdidos).toEqual(primeiros.map((e) => ({ id: e.id, tipo: e.tipo, criado_em: e.criado_em })));
    expect(estado.assinantes[0].pendentes.map((e: { id: string }) => e.id)).toEqual([...f4.eventos].reverse().map((e) => e.id));
    // the receiver is back: what is still listed is delivered, nothing more is lost
    rx.status = 204;
    const r5 = await entregarEventos(f4, [assinante()], await loadEstado(t.estadoFile), { ...rapido, estadoFile: t.estadoFile });
    expect(r5.ok).toBe(true);
    expect(r5.resumo[0]).toMatchObject({ entregues: 6, perdidos: [] });
    const depois = JSON.parse(await readFile(t.estadoFile, "utf8"));
    expect(depois.assinantes[0].pendentes).toBeUndefined();
    expect(depois.assinantes[0].perdidos).toHaveLength(2);
  });

  it("a subscriber whose secret is missing loses events the same way", async () => {
    const sem = { ...assinante(), segredo_env: "NAO_DEFINIDA" };
    const f1 = mais(null, 1, 1);
    await entregarEventos(f1, [sem], estadoVazio(), { ...rapido, estadoFile: t.estadoFile });
    const r = await entregarEventos(mais(f1, 2, 3), [sem], await loadEstado(t.estadoFile), { ...rapido, estadoFile: t.estadoFile });
    expect(rx.recebidos).toEqual([]);
    expect(r.resumo[0]!.perdidos).toHaveLength(2);
    expect(r.resumo[0]!.erro).toContain("NAO_DEFINIDA");
  });

  it("a healthy subscriber loses nothing as the list moves on, and its state stays as before", async () => {
    rx.status = 204;
    let f = mais(null, 1, 1);
    for (let d = 2; d <= 6; d++) {
      const r = await entregarEventos(f, [assinante()], await loadEstado(t.estadoFile), { ...rapido, estadoFile: t.estadoFile });
      expect(r.ok).toBe(true);
      expect(r.resumo[0]).toMatchObject({ perdidos: [], aviso: null });
      f = mais(f, d, 1);
    }
    const estado = JSON.parse(await readFile(t.estadoFile, "utf8"));
    expect(Object.keys(estado.assinantes[0])).toEqual(["url", "entregues"]);
  });

  it("a state file written before losses were tracked still reads, and tells no loss it cannot know", async () => {
    rx.status = 204;
    const f = mais(null, 1, 4);
    await writeFile(t.estadoFile, JSON.stringify({ versao: 1, assinantes: [{ url: t.url, entregues: [f.eventos[5]!.id] }] }));
    const r = await entregarEventos(f, [assinante()], await loadEstado(t.estadoFile), { ...rapido, estadoFile: t.estadoFile });
    expect(r.ok).toBe(true);
    expect(r.resumo[0]).toMatchObject({ entregues: 5, ja_entregues: 1, perdidos: [], aviso: null });
  });

  it("runs whose notify never happened pushed events out unseen: counted by seq, said", async () => {
    rx.status = 204;
    const log: string[] = [];
    const f1 = mais(null, 1, 2);
    expect((await entregarEventos(f1, [assinante()], estadoVazio(), { ...rapido, estadoFile: t.estadoFile })).ok).toBe(true);
    // three runs (six events, the whole bound) without a notify push out everything it saw, but
    // nothing it did not: the list merely rolled past it (audit 7 made this no alarm)
    const f3 = mais(f1, 3, 3);
    const antes = await loadEstado(t.estadoFile);
    expect((await entregarEventos(f3, [assinante()], antes, { ...rapido })).resumo[0]!.aviso).toBeNull();
    // a fourth run pushes out two events no notify ever saw: a failed deploy skips it
    const f4 = mais(f3, 6, 1);
    expect(f1.eventos[0]!.seq).toBe(4);
    expect(f4.eventos.at(-1)!.seq).toBe(7);
    const r = await entregarEventos(f4, [assinante()], antes, { ...rapido, estadoFile: t.estadoFile, log: (l) => log.push(l) });
    expect(r.ok).toBe(false);
    expect(r.resumo[0]!.aviso).toContain("perda de eventos: 2 evento(s) (seq 5 a 6) saíram de eventos.json sem passar por nenhuma entrega");
    expect(r.resumo[0]!.aviso).toContain(`o notify anterior viu até ${f1.eventos[0]!.id} (cotacao_atualizada de 02/10/2026 20:00), seq 4`);
    expect(log.some((l) => l.startsWith(`${t.url}: perda de eventos: 2 evento(s)`))).toBe(true);
    expect(formatarRelatorio(r).join("\n")).toContain("AVISO, perda de eventos: 2 evento(s)");
    // a subscriber listed only now missed nothing
    const novo = { ...assinante(), url: t.url.replace("/hook", "/novo") };
    const r2 = await entregarEventos(f4, [assinante(), novo], antes, { ...rapido });
    expect(r2.resumo.map((l) => l.aviso !== null)).toEqual([true, false]);
    // and once notify has seen the list, the next run says nothing more
    const r3 = await entregarEventos(f4, [assinante()], await loadEstado(t.estadoFile), { ...rapido, estadoFile: t.estadoFile });
    expect(r3.ok).toBe(true);
  });
});
