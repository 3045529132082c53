import { stringifyDoc } from "../render/json.ts";
import { renderFeed } from "./feed.ts";
import { EVENTOS_PATH, FEED_PATH, type EventosFile } from "./model.ts";

/** api/v1/eventos.json (one event per line) and api/v1/feed.xml. */
export function eventosFiles(file: EventosFile): Map<string, string> {
  return new Map([
    [EVENTOS_PATH, stringifyDoc(file)],
    [FEED_PATH, renderFeed(file)],
  ]);
}
