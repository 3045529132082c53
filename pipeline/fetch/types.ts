import type { FailureKind } from "../domain/errors.ts";
import type { MirrorDef, PageDef, SourceDef } from "../sources/types.ts";

export interface LoadOk {
  ok: true;
  html: string;
  /** the URL the HTML was read from (after redirects), or the replay file */
  url: string;
  /** set when the page came through a mirror: parse with mirror.parse, record via */
  mirror: MirrorDef | null;
  /** the mirror's real address (also in --replay, where `url` is the recorded file) */
  mirrorUrl: string | null;
  /** with a mirror: how the source's own page failed first (status.json keeps it visible) */
  origem?: { kind: FailureKind; reason: string };
  fetchedAt: Date;
  /** how it was obtained, for the report: "http", "browser", "mirror", "replay" */
  method: string;
  /** SHA-256 (hex) and size of the bytes as received, before decoding; when absent, of the text as UTF-8 */
  sha256?: string;
  bytes?: number;
}

export interface LoadFail {
  ok: false;
  kind: FailureKind;
  url: string;
  reason: string;
}

export type LoadResult = LoadOk | LoadFail;

/** Everything between a page of a source and its HTML. */
export interface PageLoader {
  load(source: SourceDef, page: PageDef): Promise<LoadResult>;
  /** releases what the loader holds (a browser, sockets) */
  close(): Promise<void>;
  /** requests sent per host during the run (politeness report) */
  requestsPerHost(): Record<string, number>;
}

export function pageUrl(source: SourceDef, page: PageDef, env: NodeJS.ProcessEnv = process.env): string {
  const base = (env[source.baseUrlEnv] || source.site).replace(/\/+$/, "");
  return base + page.path;
}

/** A mirror's address: its base URL (COTACAO_*_URL, else its site) and its path. */
export function mirrorUrl(mirror: MirrorDef, env: NodeJS.ProcessEnv = process.env): string {
  return (env[mirror.baseUrlEnv] || mirror.site).replace(/\/+$/, "") + mirror.path;
}

/**
 * Failures after which a page's mirrors are worth trying: the source did not give us its page
 * (in --replay also a page never recorded, "missing"). A page that came but cannot be read
 * (parse_error) is not one: its mirror would hide a change of layout.
 */
export const MIRROR_ON: ReadonlySet<FailureKind> = new Set(["blocked", "soft_block", "timeout", "http_error", "network_error", "missing"]);
