/**
 * Audit 7 review, where a consumer finds `seq`. The schema (the contract) told consumers "por
 * JSON, webhook ou feed" to keep the highest seq they read, but the Atom feed carries no seq:
 * a feed reader following the contract finds nothing to keep. The description names only the
 * channels that carry the number, and each of those does carry it.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { nextEventos } from "../../pipeline/events/model.ts";
import { renderFeed } from "../../pipeline/events/feed.ts";
import { corpoDoEvento } from "../../pipeline/events/webhooks.ts";
import { mudanca as novoDia } from "../events/helpers.ts";

const mudanca = (dia: string, valor: number) => novoDia("milho", dia, valor, false);

describe("audit 7 review: the channels the schema says carry seq carry it", () => {
  const schema = JSON.parse(readFileSync(new URL("../../schemas/eventos.schema.json", import.meta.url), "utf8")) as {
    $defs: { seq: { description: string } };
  };
  const descricao = schema.$defs.seq.description;
  const f = nextEventos(nextEventos(null, [mudanca("2026-10-01", 101)], new Date("2026-10-01T20:00:00-03:00")), [mudanca("2026-10-02", 102)], new Date("2026-10-02T20:00:00-03:00"));

  it("eventos.json and the webhook body carry every event's seq, and the description names them", () => {
    expect(descricao).toMatch(/JSON/);
    expect(descricao).toMatch(/webhook/);
    expect(f.eventos.map((e) => e.seq)).toEqual([4, 3, 2, 1]);
    for (const e of f.eventos) expect(JSON.parse(corpoDoEvento(e)).seq).toBe(e.seq);
  });

  it("the feed is named as a place to read seq only if its entries carry it", () => {
    const feed = renderFeed(f, "https://exemplo.org/");
    const feedTemSeq = f.eventos.every((e) => feed.includes(`>${e.seq}<`));
    // "(por JSON, webhook ou feed) guarda o maior seq": the feed has no seq to keep
    expect(/\bou feed\b|\bfeed\)? guarda/.test(descricao) && !feedTemSeq, descricao).toBe(false);
    // and the description says where a feed reader finds it
    expect(descricao).toMatch(/feed Atom não traz/);
  });
});
