/**
 * Preloaded through NODE_OPTIONS (so into npm, the shell's children and the update alike) by
 * review-auditoria8-cancelamento.test.ts: in the `npm run update` process only, the event loop is
 * kept busy 200 ms out of every 250 ms, as rendering or parsing a big page keeps it, so a signal
 * waits up to 200 ms for its handler. Plain JavaScript: npm's own node has no TypeScript loader.
 */
if (/pipeline[\\/]cli[\\/]update\.ts$/.test(process.argv[1] ?? "")) {
  setInterval(() => {
    const t = Date.now();
    while (Date.now() - t < 200);
  }, 250).unref();
}
