/**
 * `npm run bench -- faults`: every case of the fault catalogue (test/faults/catalogue.ts, the
 * same cases and the same judge as the vitest suite), one after the other, as a table: the
 * fault, what the run did (exit code, the page's state in status.json, figures the case took),
 * the values it changed, the files it left behind, its time, and whether it conforms to issue 10.
 */
import { CASES, Lab, judge, type Outcome } from "../faults/catalogue.ts";

const cell = (s: string, max = 110) => {
  const t = s.replace(/\|/g, "\\|").replace(/\s+/g, " ").trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
};

function outcome(o: Outcome, pageId: string | undefined): string {
  const parts = [`saída ${o.exit ?? "nenhuma (morto)"}`];
  if (pageId) parts.push(`${pageId}: ${o.pages[pageId]?.estado ?? "sem status"}`);
  // figures the case measured (bytes read, the step killed at, ...); raw values and failures are shown elsewhere
  parts.push(...o.notes.filter((n) => !n.startsWith("bytes:") && !n.startsWith("✗ ")));
  return parts.join(" · ");
}

function list(items: readonly string[], shown = 3): string {
  if (items.length === 0) return "nenhum";
  return items.slice(0, shown).join("; ") + (items.length > shown ? ` (+${items.length - shown})` : "");
}

export async function benchFaults(): Promise<void> {
  console.log("\n## Faults (issue 10): every fault kind, refused whole or recovered, nothing silently changed");
  console.log("");
  console.log("| falha | resultado | valores alterados | arquivos deixados | tempo | conforme |");
  console.log("|---|---|---|---|---:|---|");
  const lab = new Lab();
  let conforming = 0;
  const failures: string[] = [];
  try {
    for (const c of CASES) {
      const t0 = performance.now();
      let row: string[];
      try {
        const o = await c.run(lab);
        const ms = performance.now() - t0;
        const bad = judge(c, o);
        if (bad.length === 0) conforming++;
        else failures.push(`${c.id}: ${bad.join("; ")}`);
        row = [c.fault, outcome(o, c.expect.page?.id), list(o.values), list(o.leftovers), `${(ms / 1000).toFixed(1)} s`, bad.length === 0 ? "sim" : `NÃO: ${bad[0]}`];
      } catch (err) {
        const ms = performance.now() - t0;
        failures.push(`${c.id}: o caso lançou ${(err as Error).message}`);
        row = [c.fault, "o caso não pôde rodar", "—", "—", `${(ms / 1000).toFixed(1)} s`, `NÃO: ${(err as Error).message}`];
      }
      console.log(`| ${row.map((x) => cell(x)).join(" | ")} |`);
    }
  } finally {
    await lab.close();
  }
  console.log("");
  console.log(`  ${conforming} de ${CASES.length} casos conformes`);
  for (const f of failures) console.log(`  ✗ ${cell(f, 600)}`);
}
