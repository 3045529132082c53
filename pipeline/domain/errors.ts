/**
 * Every failure of the pipeline names its stage, source and page, so the run's report reads
 * like a diagnosis: "[parse] [cepea/boi-gordo] tabela "INDICADOR DO BOI GORDO" não encontrada".
 */
export const FAILURE_KINDS = [
  "blocked", // Cloudflare (or similar) challenge that did not clear
  "soft_block", // HTTP 200 but a short page without the expected table
  "timeout",
  "http_error",
  "network_error",
  "parse_error", // the page has the table but it could not be read
  "rejected", // read fine, but the values failed the plausibility gates
  "revisao_suspeita", // would change a published day beyond the product's revision bound: held for an operator
  "missing", // replay: the recorded page is not there
] as const;
export type FailureKind = (typeof FAILURE_KINDS)[number];

/**
 * Where a failure happened: a stage of the line, or "config" (configuration and environment,
 * read before any stage runs) and "notify" (webhook delivery, after publishing).
 */
export type Stage = "config" | "fetch" | "parse" | "check" | "merge" | "render" | "validate" | "write" | "publish" | "notify";

/**
 * The one shape of a pipeline error: "[stage] [source/page] message (url)", the original error
 * as `cause`. A page's failure is not thrown but recorded with its FailureKind (run/status.ts);
 * this is for what stops a command.
 */
export class PipelineError extends Error {
  readonly stage: Stage;
  readonly source: string | undefined;
  readonly page: string | undefined;
  readonly url: string | undefined;
  readonly reason: string;

  constructor(opts: {
    stage: Stage;
    source?: string;
    page?: string;
    url?: string;
    reason: string;
    cause?: unknown;
  }) {
    const where = opts.source ? ` [${opts.source}${opts.page ? `/${opts.page}` : ""}]` : "";
    const url = opts.url ? ` (${opts.url})` : "";
    super(`[${opts.stage}]${where} ${opts.reason}${url}`, opts.cause ? { cause: opts.cause } : undefined);
    this.name = "PipelineError";
    this.stage = opts.stage;
    this.source = opts.source;
    this.page = opts.page;
    this.url = opts.url;
    this.reason = opts.reason;
  }
}

/** What a parser throws: the page is not what we expected. The caller adds source, page and URL. */
export class ParseError extends Error {
  readonly kind: "parse_error" | "soft_block";
  constructor(message: string, kind: "parse_error" | "soft_block" = "parse_error") {
    super(message);
    this.name = "ParseError";
    this.kind = kind;
  }
}
