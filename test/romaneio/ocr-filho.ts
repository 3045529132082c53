/**
 * Child of ocr.test.ts: reads the files named on the command line (path:type) with one
 * LeitorOcr, closes it, and prints one JSON line per file. It must then exit by itself: a worker
 * left running would keep the process alive. Run under strace to prove nothing is written.
 */
import { readFileSync } from "node:fs";
import { criarLeitorOcr } from "../../pipeline/romaneio/ocr.ts";

const leitor = criarLeitorOcr({ workers: 1 });
for (const arg of process.argv.slice(2)) {
  const i = arg.lastIndexOf(":");
  const bytes = new Uint8Array(readFileSync(arg.slice(0, i)));
  const r = await leitor.ler(bytes, arg.slice(i + 1) as "image/png");
  console.log(JSON.stringify({ origem: r.origem, paginas: r.paginas, caracteres: r.texto.length }));
}
await leitor.fechar();
