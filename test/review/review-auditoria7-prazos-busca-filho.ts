/**
 * A run that has Chromium open when it is stopped: Ctrl-C (SIGINT), or a process.exit() from
 * elsewhere in the run. Prints "aberto" once the page was read, then waits.
 * Usage: tsx test/review/review-auditoria7-prazos-busca-filho.ts PERFIS [exit]
 */
import { createBrowserFetcher, DEBIAN_CHROMIUM } from "../../pipeline/fetch/browser.ts";

const perfis = process.argv[2]!;
const b = createBrowserFetcher({ executablePath: DEBIAN_CHROMIUM, tmpDir: perfis });
const r = await b.fetch("data:text/html,<table><tr><td>1</td></tr></table>", (html) => html.includes("<table>"), 60_000);
process.stdout.write(r.ok ? "aberto\n" : `falhou: ${r.reason}\n`);
if (process.argv[3] === "exit") process.exit(3);
setInterval(() => {}, 60_000);
