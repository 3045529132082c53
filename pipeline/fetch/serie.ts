/**
 * The live download of a source's whole history (npm run backfill without --arquivo), through
 * the same polite HTTP client as the pages (fetch/http.ts: User-Agent pointing at the project,
 * one request per second per host, timeouts, retries with backoff, Retry-After honoured, body
 * size capped, cut bodies refused). A series file is bigger than a page and binary: it gets a
 * larger size cap and a longer request budget, and is handed on as bytes. A Cloudflare challenge,
 * an HTTP error or an HTML page in its place is a failure that says so; there is no browser or
 * mirror fallback for a download (the operator downloads the file and uses --arquivo).
 */
import { PipelineError } from "../domain/errors.ts";
import { cloudflareChallenge, pageTitle } from "./challenge.ts";
import { createHttpClient, FetchError, type HttpOptions } from "./http.ts";

/** A 30-year daily series is well under 2 MB as .xls; this only stops an endless body. */
export const MAX_SERIE_BYTES = 64 * 1024 * 1024;

export interface SerieBaixada {
  bytes: Uint8Array;
  /** the URL the bytes came from, after same-host redirects */
  url: string;
  fetchedAt: Date;
  requestsPerHost: Record<string, number>;
}

export async function baixarSerie(
  url: string,
  opts: { http?: Partial<HttpOptions>; now?: () => Date; log?: (line: string) => void } = {},
): Promise<SerieBaixada> {
  const now = opts.now ?? (() => new Date());
  const client = createHttpClient({ maxBytes: MAX_SERIE_BYTES, requestTimeoutMs: 180_000, ...opts.http });
  const fail = (reason: string, cause?: unknown) => new PipelineError({ stage: "fetch", reason, url, cause });
  try {
    opts.log?.(`baixando ${url}`);
    let res;
    try {
      res = await client.get(url, { deadline: Date.now() + 10 * 60_000 });
    } catch (err) {
      if (err instanceof FetchError) throw fail(`download falhou (${err.kind}): ${err.reason}`, err);
      throw err;
    }
    const challenge = cloudflareChallenge(res.status, res.headers, res.body);
    if (challenge) throw fail(`${challenge}: o site não entregou a planilha; baixe-a num navegador e use --arquivo`);
    if (res.status < 200 || res.status >= 300) throw fail(`HTTP ${res.status} ao baixar a série`);
    const type = (res.headers.get("content-type") ?? "").toLowerCase();
    if (type.startsWith("text/html")) {
      const title = pageTitle(res.body);
      throw fail(`a resposta é uma página HTML (${res.bytes} bytes${title ? `, título "${title}"` : ""}), não a planilha da série`);
    }
    if (!res.raw) throw fail("o cliente HTTP não entregou os bytes da resposta");
    opts.log?.(`recebidos ${res.bytes} bytes (HTTP ${res.status}${type ? `, ${type}` : ""})`);
    return { bytes: res.raw, url: res.url, fetchedAt: now(), requestsPerHost: client.requestsPerHost() };
  } finally {
    await client.close();
  }
}
