import { describe, expect, it } from "vitest";
import { classifyResponse, cloudflareChallenge, pageTitle } from "../../pipeline/fetch/challenge.ts";
import { cepea } from "../../pipeline/sources/cepea.ts";
import { fixture } from "./server.ts";

const headers = (h: Record<string, string> = {}) => new Headers(h);
const CHALLENGE = `<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>
<script>window._cf_chl_opt={cvId:'3'};</script><div id="challenge-running"></div></body></html>`;

describe("challenge and soft-block detection", () => {
  it("recognises a challenge by the cf-mitigated header", () => {
    const reason = cloudflareChallenge(403, headers({ "cf-mitigated": "challenge" }), "<html></html>");
    expect(reason).toBe("desafio Cloudflare (HTTP 403, cf-mitigated: challenge)");
  });

  it("recognises a challenge by the page when the header is missing", () => {
    expect(cloudflareChallenge(403, headers(), CHALLENGE)).toBe('desafio Cloudflare (HTTP 403, página "Just a moment...")');
    expect(cloudflareChallenge(200, headers(), '<html><form id="challenge-form" action="/?__cf_chl_f_tk=x"></form></html>')).not.toBeNull();
    expect(cloudflareChallenge(503, headers(), '<script src="/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1?ray=1"></script>')).not.toBeNull();
  });

  it("does not take CEPEA's normal pages (which load Cloudflare's jsd script) for a challenge", () => {
    for (const page of cepea.pages) {
      const html = fixture(`cepea/${page.id}.html`);
      expect(cloudflareChallenge(200, headers(), html)).toBeNull();
      expect(classifyResponse({ status: 200, headers: headers(), body: html, bytes: html.length }, page.hasTable)).toEqual({ ok: true });
    }
  });

  it("classifies blocked, HTTP error and soft block apart from parse errors", () => {
    const hasTable = cepea.pages[0]!.hasTable;
    expect(classifyResponse({ status: 403, headers: headers({ "cf-mitigated": "challenge" }), body: CHALLENGE, bytes: 180 }, hasTable)).toMatchObject({
      ok: false,
      kind: "blocked",
    });
    expect(classifyResponse({ status: 503, headers: headers({ "retry-after": "120" }), body: "<html></html>", bytes: 13 }, hasTable)).toEqual({
      ok: false,
      kind: "http_error",
      reason: "HTTP 503, Retry-After: 120",
    });
    const short = "<html><head><title>Acesso limitado</title></head><body>tente mais tarde</body></html>";
    expect(classifyResponse({ status: 200, headers: headers(), body: short, bytes: 84 }, hasTable)).toEqual({
      ok: false,
      kind: "soft_block",
      reason: 'HTTP 200 sem a tabela esperada (84 bytes recebidos, título "Acesso limitado")',
    });
    // a 200 challenge page is blocked, not soft-blocked
    expect(classifyResponse({ status: 200, headers: headers(), body: CHALLENGE, bytes: 180 }, hasTable)).toMatchObject({ kind: "blocked" });
  });

  it("reads and shortens the title", () => {
    expect(pageTitle("<title>\n  Indicador   do boi\n</title>")).toBe("Indicador do boi");
    expect(pageTitle("<html></html>")).toBeNull();
    expect(pageTitle(`<title>${"x".repeat(200)}</title>`)).toHaveLength(80);
  });
});
