/**
 * The query server in its own process for the bench (the load comes from another process):
 *   tsx test/bench/serve-child.ts PUBLIC_DIR KEY
 * prints one line {"url": ...} when listening. The bench key has a quota large enough for the
 * run, so the quota code path runs on every request without throttling it.
 */
import { startServer } from "../../pipeline/serve/app.ts";

const [publicDir, key] = process.argv.slice(2);
if (!publicDir || !key) throw new Error("uso: serve-child.ts PUBLIC_DIR KEY");
const s = await startServer({ publicDir, apiKeys: [key], quota: { keyLimit: 1_000_000_000 } });
console.log(JSON.stringify({ url: s.url }));
process.on("SIGTERM", () => void s.close().then(() => process.exit(0)));
