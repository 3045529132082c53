import type { FailureKind } from "../domain/errors.ts";

/**
 * Markers of a Cloudflare challenge page ("Just a moment...", the managed/JS challenge and its
 * orchestration scripts). Not the bare "/cdn-cgi/challenge-platform/scripts/jsd/main.js": CEPEA's
 * normal pages load that bot-detection script too, next to a perfectly good table.
 */
const CHALLENGE_MARKERS: readonly RegExp[] = [
  /<title>\s*Just a moment\.\.\.\s*<\/title>/i,
  /<title>\s*Attention Required! \| Cloudflare\s*<\/title>/i,
  /window\._cf_chl_opt\b/,
  /\/cdn-cgi\/challenge-platform\/(?:h\/[a-z]\/)?orchestrate\//,
  /\bcf_chl_[a-z_]*\b/i,
  /id=["']challenge-(?:form|running|stage)["']/i,
];

/**
 * Why a response is a Cloudflare challenge, or null when it is not one. The header
 * `cf-mitigated: challenge` is authoritative; the page markers catch proxies that drop it.
 */
export function cloudflareChallenge(status: number, headers: Pick<Headers, "get">, body: string): string | null {
  if ((headers.get("cf-mitigated") ?? "").toLowerCase().includes("challenge")) {
    return `desafio Cloudflare (HTTP ${status}, cf-mitigated: challenge)`;
  }
  const head = body.length > 200_000 ? body.slice(0, 200_000) : body;
  if (CHALLENGE_MARKERS.some((re) => re.test(head))) {
    const title = pageTitle(body);
    return `desafio Cloudflare (HTTP ${status}${title ? `, página "${title}"` : ""})`;
  }
  return null;
}

/** The page's <title>, whitespace collapsed, at most 80 characters; null when there is none. */
export function pageTitle(html: string): string | null {
  const m = html.match(/<title[^>]*>([\s\S]*?)<\/title>/i);
  if (!m) return null;
  const t = m[1]!.replace(/\s+/g, " ").trim();
  if (!t) return null;
  return t.length > 80 ? `${t.slice(0, 77)}...` : t;
}

export type Verdict = { ok: true } | { ok: false; kind: FailureKind; reason: string };

/**
 * What a complete HTTP response means for a page: the table is there (ok), a challenge
 * (blocked), an HTTP error, or a 200 without the table (soft_block). None of these is a parse
 * error: that is reserved for a page that has the table but cannot be read.
 */
export function classifyResponse(
  res: { status: number; headers: Pick<Headers, "get">; body: string; bytes: number },
  hasTable: (html: string) => boolean,
): Verdict {
  const ok2xx = res.status >= 200 && res.status < 300;
  if (ok2xx && hasTable(res.body)) return { ok: true };
  const challenge = cloudflareChallenge(res.status, res.headers, res.body);
  if (challenge) return { ok: false, kind: "blocked", reason: challenge };
  if (!ok2xx) {
    const ra = res.headers.get("retry-after");
    const extra = ra ? `, Retry-After: ${ra}` : "";
    return { ok: false, kind: "http_error", reason: `HTTP ${res.status}${extra}` };
  }
  return { ok: false, kind: "soft_block", reason: softBlockReason(res.status, res.bytes, res.body) };
}

export function softBlockReason(status: number, bytes: number, html: string): string {
  const title = pageTitle(html);
  return `HTTP ${status} sem a tabela esperada (${bytes} bytes recebidos, título ${title ? `"${title}"` : "ausente"})`;
}
