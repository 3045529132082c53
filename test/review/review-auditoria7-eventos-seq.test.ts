/**
 * Audit 7 of events: a consumer could not tell whether it missed events.
 *
 * eventos.json is bounded and an event id is a hash, so nothing in the file said how many events
 * came before the oldest one listed. `npm run notify` guessed: when the newest event it had seen
 * was no longer listed it warned "possível perda de eventos" and failed, also after a single run
 * of 200+ events (more than 71 series revising the day before) whose events were all delivered:
 * the list had only rolled past what it saw. Every event now has a sequence number (`seq`), one
 * more than the newest of the previous file: a consumer missed events iff the oldest seq listed is
 * past the last seq it saw + 1.
 */
import { mkdtemp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { EVENTOS_LIMITE, EVENTOS_PATH, FEED_PATH, loadEventos, nextEventos, numerarLegado, type EventosFile } from "../../pipeline/events/model.ts";
import { validateDocument } from "../../pipeline/contract/schemas.ts";
import { eventosFiles } from "../../pipeline/events/render.ts";
import { entregarEventos, estadoVazio, formatarRelatorio, loadEstado, segredoPadrao } from "../../pipeline/events/webhooks.ts";
import { allSeries } from "../../pipeline/sources/index.ts";
import { FIXTURES, cleanup, replay, replayDir, tempSite, editPage } from "../helpers/pipeline.ts";
import { assinaturaNoTeste, mudanca, schemaErrors } from "../events/helpers.ts";

const seqs = (f: EventosFile) => f.eventos.map((e) => e.seq);
/** What eventos.json looked like before seq: the same file, every event without it. */
const semSeq = (f: EventosFile) => ({ ...f, eventos: f.eventos.map(({ seq: _, ...e }) => e) });

/** `n` runs of two events each (milho's new day and the summary), from day `de` of October 2026. */
function corridas(f: EventosFile | null, de: number, n: number, limite = EVENTOS_LIMITE): EventosFile {
  for (let d = de; d < de + n; d++) {
    const dia = `2026-10-${String((d % 28) + 1).padStart(2, "0")}`;
    f = nextEventos(f, [mudanca("milho", dia, 101 + d / 100, false)], new Date(Date.parse("2026-10-01T20:00:00-03:00") + d * 3_600_000), limite);
  }
  return f!;
}

/** One run in which every series moves and revises the day before: 1 + 2 × series events. */
function corridaGrande(f: EventosFile, dia: string, quando: string): EventosFile {
  return nextEventos(f, allSeries().map((s) => mudanca(s.id, dia, 101)), new Date(quando));
}

describe("audit 7: every event has a sequence number", () => {
  const T1 = new Date("2026-10-01T20:00:00-03:00");
  const T2 = new Date("2026-10-02T20:00:00-03:00");
  const f1 = nextEventos(null, [mudanca("milho", "2026-10-01", 101), mudanca("soja", "2026-10-01", 99, false)], T1);
  const f2 = nextEventos(f1, [mudanca("milho", "2026-10-02", 102, false)], T2);

  it("the first event ever is 1; a run's oldest (the list's last) gets the lowest; the next run goes on from the newest", () => {
    expect(f1.eventos.map((e) => [e.tipo, e.seq])).toEqual([
      ["cotacao_atualizada", 4],
      ["price_changed", 3],
      ["price_changed", 2],
      ["historico_revisado", 1],
    ]);
    expect(seqs(f2)).toEqual([6, 5, 4, 3, 2, 1]);
    // right after the id, in the file and in every consumer's copy
    expect(Object.keys(f2.eventos[0]!)).toEqual(["id", "seq", "tipo", "criado_em", "dados"]);
    expect(eventosFiles(f2).get(EVENTOS_PATH)).toContain('{"id":"evt_952532d0d87c5b6c4343","seq":6,"tipo":"cotacao_atualizada"');
    expect(schemaErrors("eventos.schema.json", f2)).toEqual([]);
    expect(schemaErrors("eventos.schema.json", semSeq(f2))).not.toEqual([]);
  });

  it("ids are what they were before seq existed (seq is not hashed: the chain to the previous head already makes ids unique)", () => {
    // computed with the code before this change
    expect(f2.eventos.map((e) => e.id)).toEqual([
      "evt_952532d0d87c5b6c4343",
      "evt_3d8149968482b2a5521c",
      "evt_c069e7755c9708e94a6e",
      "evt_13ccb697454ddaabbfbe",
      "evt_6577f298cc7a3dcdebb5",
      "evt_cb6ec994e91b3c1fa3e2",
    ]);
  });

  it("a rerun of the same run adds nothing and changes no byte; a run with nothing new neither", () => {
    const antes = eventosFiles(f2);
    const rerun = nextEventos(f2, [mudanca("milho", "2026-10-02", 102, false)], new Date("2026-10-02T21:00:00-03:00"));
    expect(rerun).toEqual(f2);
    expect(eventosFiles(rerun)).toEqual(antes);
    expect(eventosFiles(nextEventos(f2, [], new Date("2026-10-03T20:00:00-03:00")))).toEqual(antes);
  });

  it("seq keeps counting while the bound trims, and a run of 200+ is numbered whole", () => {
    const cheio = corridas(null, 0, 120);
    expect(cheio.eventos).toHaveLength(EVENTOS_LIMITE);
    expect(cheio.eventos[0]!.seq).toBe(240);
    expect(cheio.eventos.at(-1)!.seq).toBe(41);
    const grande = corridaGrande(cheio, "2026-11-03", "2026-11-03T20:00:00-03:00");
    const n = allSeries().length * 2 + 1;
    expect(grande.eventos).toHaveLength(n);
    expect(seqs(grande)).toEqual(Array.from({ length: n }, (_, i) => 240 + n - i));
    expect(schemaErrors("eventos.schema.json", grande)).toEqual([]);
  });
});

describe("audit 7: an eventos.json written before seq is numbered once, as it stands", () => {
  let dir: string;
  const f2 = corridas(null, 0, 3);
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "cotacao-seq-"));
    await mkdir(join(dir, "api/v1"), { recursive: true });
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));
  const gravar = (doc: unknown) => writeFile(join(dir, EVENTOS_PATH), typeof doc === "string" ? doc : JSON.stringify(doc));

  it("oldest listed = 1 .. newest = n; ids and everything else untouched; rendered, it is the file seq would have made", async () => {
    expect(numerarLegado(semSeq(f2))).toEqual(f2);
    await gravar(semSeq(f2));
    const lido = (await loadEventos(dir))!;
    expect(seqs(lido)).toEqual([6, 5, 4, 3, 2, 1]);
    expect(eventosFiles(lido)).toEqual(eventosFiles(f2));
    // the next run goes on from it
    expect(seqs(corridas(lido, 3, 1)).slice(0, 3)).toEqual([8, 7, 6]);
    // a file already numbered is read as it is
    const adiante = corridas(f2, 3, 200);
    await gravar(eventosFiles(adiante).get(EVENTOS_PATH));
    expect(await loadEventos(dir)).toEqual(adiante);
  });

  it("a file where only some events have seq, or whose seq jumps, stops the run naming the file", async () => {
    const parcial = semSeq(f2) as { eventos: Array<Record<string, unknown>> };
    parcial.eventos[0]!.seq = 6;
    await gravar(parcial);
    await expect(loadEventos(dir)).rejects.toThrow(/api\/v1\/eventos\.json não segue schemas\/eventos\.schema\.json: .*seq/);
    const furado = structuredClone(f2);
    furado.eventos[2]!.seq = 2;
    await gravar(furado);
    await expect(loadEventos(dir)).rejects.toThrow(
      `${EVENTOS_PATH} não segue schemas/eventos.schema.json: /eventos/2/seq: a sequência dos eventos está quebrada: ${f2.eventos[1]!.id} tem seq 5 e o seguinte, mais antigo, ${f2.eventos[2]!.id}, tem seq 2 (esperado 4)`,
    );
  });

  it("npm run validate holds a published eventos.json to the same rule: a hole in seq or a repeated id is an error", () => {
    expect(validateDocument(EVENTOS_PATH, f2)).toEqual([]);
    const furado = structuredClone(f2);
    furado.eventos[2]!.seq = 2;
    expect(validateDocument(EVENTOS_PATH, furado)).toEqual([
      `${EVENTOS_PATH}: /eventos/2/seq: a sequência dos eventos está quebrada: ${f2.eventos[1]!.id} tem seq 5 e o seguinte, mais antigo, ${f2.eventos[2]!.id}, tem seq 2 (esperado 4)`,
    ]);
    const repetido = structuredClone(f2);
    repetido.eventos[1]!.id = repetido.eventos[0]!.id;
    expect(validateDocument(EVENTOS_PATH, repetido)).toEqual([`${EVENTOS_PATH}: /eventos/1/id: o id ${f2.eventos[0]!.id} repete o do evento 0`]);
  });
});

describe("audit 7: an update over a published eventos.json without seq", () => {
  let site: string;
  let antes: string;
  afterAll(() => cleanup(site, antes));

  it("numbers it once, exactly as a site that always had seq; after that nothing new changes no byte", async () => {
    site = await tempSite();
    antes = await replayDir();
    // the first run publishes CEPEA boi gordo without its latest day, the second brings it
    await editPage(antes, "cepea/boi-gordo.html", (h) => h.replace(/<tr>\s*<td>04\/09\/2026<\/td>[\s\S]*?<\/tr>/, ""));
    expect((await replay(antes, site, "2026-09-27T12:00:00-03:00")).exitCode).toBe(0);
    expect((await replay(FIXTURES, site, "2026-09-28T12:00:00-03:00")).exitCode).toBe(0);
    const ler = (rel: string) => readFile(join(site, rel), "utf8");
    const comSeq = await ler(EVENTOS_PATH);
    const feed = await ler(FEED_PATH);
    const publicado = JSON.parse(comSeq) as EventosFile;
    expect(publicado.eventos.length).toBeGreaterThan(1);
    expect(seqs(publicado)).toEqual(publicado.eventos.map((_, i) => publicado.eventos.length - i));
    // the same site as published before seq existed
    await writeFile(join(site, EVENTOS_PATH), eventosFiles(semSeq(publicado) as unknown as EventosFile).get(EVENTOS_PATH)!);
    expect(await ler(EVENTOS_PATH)).not.toContain('"seq"');
    expect((await replay(FIXTURES, site, "2026-09-29T12:00:00-03:00")).exitCode).toBe(0);
    expect(await ler(EVENTOS_PATH)).toBe(comSeq);
    expect(await ler(FEED_PATH)).toBe(feed);
    expect((await replay(FIXTURES, site, "2026-09-30T12:00:00-03:00")).exitCode).toBe(0);
    expect(await ler(EVENTOS_PATH)).toBe(comSeq);
  });
});

describe("audit 7: notify tells a loss by seq, exactly", () => {
  const t = assinaturaNoTeste("cotacao-seq-notify-", 204);
  const { rx, rapido, assinante, env } = t;
  const SEGREDO = t.segredo;

  // a full list (seq 1..200) that notify delivered whole
  const cheio = corridas(null, 0, 100);
  const entregar = async (f: EventosFile, log?: string[]) =>
    entregarEventos(f, [assinante()], await loadEstado(t.estadoFile), { ...rapido, estadoFile: t.estadoFile, ...(log ? { log: (l: string) => log.push(l) } : {}) });

  it("no false alarm after a single run of 200+ events whose events were all delivered", async () => {
    expect((await entregar(cheio)).ok).toBe(true);
    const grande = corridaGrande(cheio, "2026-11-03", "2026-11-03T20:00:00-03:00");
    // nothing notify saw is listed any more, and nothing it did not see is missing
    expect(grande.eventos.some((e) => cheio.eventos.some((x) => x.id === e.id))).toBe(false);
    expect(grande.eventos.at(-1)!.seq).toBe(201);
    const log: string[] = [];
    const r = await entregar(grande, log);
    expect(r.resumo[0]).toMatchObject({ entregues: grande.eventos.length, perdidos: [], aviso: null });
    expect(r.ok).toBe(true);
    expect(log.filter((l) => /perda|PERDIDO/.test(l))).toEqual([]);
    expect(JSON.parse(await readFile(t.estadoFile, "utf8")).ultimo_evento.seq).toBe(grande.eventos[0]!.seq);
  });

  it("a subscriber failing while a 200+ run pushes its queue out: those events are lost, by id, and no gap is made up", async () => {
    expect((await entregar(cheio)).ok).toBe(true);
    rx.status = 503;
    const pequeno = corridas(cheio, 100, 1); // seq 201, 202: the receiver is down
    expect((await entregar(pequeno)).resumo[0]).toMatchObject({ falhas: 1, pendentes: 1 });
    const grande = corridaGrande(pequeno, "2026-11-03", "2026-11-03T20:00:00-03:00");
    expect(grande.eventos.at(-1)!.seq).toBe(203);
    const log: string[] = [];
    const r = await entregar(grande, log);
    expect(r.ok).toBe(false);
    expect(r.resumo[0]!.perdidos.map((e) => e.id)).toEqual([pequeno.eventos[1]!.id, pequeno.eventos[0]!.id]);
    expect(r.resumo[0]!.aviso).toBeNull();
    expect(log.some((l) => l.startsWith(`${t.url}: 2 evento(s) PERDIDO(S)`))).toBe(true);
  });

  it("runs whose notify never happened pushed events out unseen: exactly which seq, and notify fails", async () => {
    expect((await entregar(cheio)).ok).toBe(true);
    const pequeno = corridas(cheio, 100, 1); // seq 201, 202: no notify (a failed deploy skips it)
    const grande = corridaGrande(pequeno, "2026-11-03", "2026-11-03T20:00:00-03:00");
    const log: string[] = [];
    const r = await entregar(grande, log);
    expect(r.ok).toBe(false);
    expect(r.resumo[0]!.aviso).toMatch(/^perda de eventos: 2 evento\(s\) \(seq 201 a 202\) saíram de eventos\.json sem passar por nenhuma entrega/);
    expect(r.resumo[0]!.aviso).toContain(`seq 200; o mais antigo listado agora é ${grande.eventos.at(-1)!.id}`);
    expect(log.some((l) => l.startsWith(`${t.url}: perda de eventos: 2 evento(s) (seq 201 a 202)`))).toBe(true);
    expect(formatarRelatorio(r).join("\n")).toContain("AVISO, perda de eventos: 2 evento(s)");
  });

  it("a list numbered again under what notify saw (the file replaced, or reverted) is said, not taken as no loss", async () => {
    const f = corridas(null, 0, 3);
    expect((await entregar(f)).ok).toBe(true);
    // the same events, renumbered: seq 6 is no longer the event notify saw as 6
    const renumerado = { ...f, eventos: f.eventos.map((e) => ({ ...e, seq: e.seq + 10 })) };
    const r = await entregarEventos(renumerado, [assinante()], await loadEstado(t.estadoFile), { ...rapido });
    expect(r.resumo[0]!.aviso).toMatch(/^possível perda de eventos: .*a numeração não continua a dele/);
  });

  it("the webhook body carries seq, signed: webhook-id is still the event id, and a changed seq fails verification", async () => {
    const f = corridas(null, 0, 2);
    expect((await entregar(f)).ok).toBe(true);
    const wh = new Webhook(segredoPadrao(SEGREDO));
    expect(rx.recebidos.map((x) => JSON.parse(x.body).seq)).toEqual([1, 2, 3, 4]);
    for (const x of rx.recebidos) {
      const headers = x.headers as Record<string, string>;
      const body = JSON.parse(x.body);
      expect(Object.keys(body)).toEqual(["id", "seq", "tipo", "criado_em", "dados"]);
      expect(body).toEqual(f.eventos.find((e) => e.id === body.id));
      expect(x.headers["webhook-id"]).toBe(body.id);
      expect(wh.verify(x.body, headers)).toEqual(body);
      expect(() => wh.verify(x.body.replace(`"seq":${body.seq},`, `"seq":${body.seq + 1},`), headers)).toThrow();
    }
  });

  it("a state written before seq still reads: its event still listed gives the number; gone, the loss is only possible", async () => {
    const f = corridas(null, 0, 3);
    const [novo] = f.eventos;
    const legado = { versao: 1, ultimo_evento: { id: novo!.id, tipo: novo!.tipo, criado_em: novo!.criado_em }, assinantes: [{ url: t.url, entregues: f.eventos.map((e) => e.id) }] };
    await writeFile(t.estadoFile, JSON.stringify(legado));
    // still listed: its number is the list's, and nothing is missing
    const f2 = corridas(f, 3, 1, 6);
    const r = await entregar(f2);
    expect(r.resumo[0]).toMatchObject({ entregues: 2, aviso: null });
    expect(r.ok).toBe(true);
    expect(JSON.parse(await readFile(t.estadoFile, "utf8")).ultimo_evento).toEqual({ id: f2.eventos[0]!.id, seq: 8, tipo: "cotacao_atualizada", criado_em: f2.eventos[0]!.criado_em });
    // the event it names is gone and it has no number: nothing can be counted
    await writeFile(t.estadoFile, JSON.stringify(legado));
    const f4 = corridas(f, 3, 3, 4);
    const r2 = await entregar(f4);
    expect(r2.resumo[0]!.aviso).toMatch(/^possível perda de eventos: .*já saiu de eventos\.json.*o registro é anterior ao seq/);
    expect(r2.ok).toBe(false);
  });
});
