/**
 * Run by adiante.test.ts under a low `ulimit -n`: publishes 2000 small files into argv[2], then the
 * same set with every other file changed, so each file is compared with its published bytes.
 * Prints the second result as JSON; exits 1 with the error's message on failure.
 */
import { publishFiles } from "../../pipeline/publish/write.ts";

const dir = process.argv[2]!;
const files = Array.from({ length: 2000 }, (_, i) => ({ path: `d/f${String(i).padStart(4, "0")}.txt`, text: `praça ${i}\n`.repeat(50) }));
try {
  await publishFiles(dir, files);
  const r = await publishFiles(dir, files.map((f, i) => (i % 2 ? { ...f, text: `${f.text}71.06\n` } : f)));
  console.log(JSON.stringify({ written: r.written.length, unchanged: r.unchanged, erros: r.erros }));
} catch (e) {
  console.error((e as Error).message);
  process.exitCode = 1;
}
