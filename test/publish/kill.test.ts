/**
 * A real `npm run update` killed with SIGKILL in the middle of its publish, at several instants
 * (the test-only fault hook COTACAO_TESTE_MATAR_NO_PASSO=k makes the process kill itself just
 * before step k of the publish: see pipeline/publish/journal.ts). Then `npm run validate`
 * finishes or rolls back the publish and passes, and a rerun reaches byte for byte the tree of
 * an uninterrupted run, events and feed included.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../pipeline/config.ts";
import { JOURNAL_NAME, STAGING_DIR } from "../../pipeline/publish/journal.ts";

const FIXTURES = join(REPO_ROOT, "test", "fixtures");
const NOW1 = "2026-09-27T22:00:00-03:00";
const NOW2 = "2026-09-28T21:00:00-03:00";
let tmp: string;
let pages2: string;
let base: string;
let reference: Map<string, string>;
let before: Map<string, string>;
let n: number;

function cli(script: string, args: string[], env: Record<string, string>) {
  // node itself, not the tsx wrapper: the kill is the process's own, and its status is ours
  return spawnSync(process.execPath, ["--import", "tsx", join(REPO_ROOT, "pipeline/cli", script), ...args], {
    cwd: REPO_ROOT,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", ...env },
  });
}

const update = (dir: string, pages: string, now: string, extra: Record<string, string> = {}) =>
  cli("update.ts", ["--replay", pages], { COTACAO_PUBLIC_DIR: dir, COTACAO_NOW: now, ...extra });

/** Every file of the tree (dotfiles included) with its bytes. */
function snapshot(dir: string): Map<string, string> {
  const out: Array<[string, string]> = [];
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const full = join(e.parentPath, e.name);
    out.push([relative(dir, full).split(sep).join("/"), readFileSync(full, "utf8")]);
  }
  return new Map(out.sort(([a], [b]) => (a < b ? -1 : 1)));
}

function copyOf(dir: string, name: string): string {
  const d = join(tmp, name);
  cpSync(dir, d, { recursive: true });
  return d;
}

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), "cotacao-kill-"));
  // the next day's pages: CEPEA boi gordo publishes 08/09
  pages2 = join(tmp, "pages");
  cpSync(FIXTURES, pages2, { recursive: true });
  const boi = join(pages2, "cepea", "boi-gordo.html");
  const html = readFileSync(boi, "utf8");
  const next = html.replace(/(<tr>\s*)(<td>04\/09\/2026<\/td>)/, "$1<td>08/09/2026</td><td>349,10</td><td>0,40%</td><td>1,36%</td><td>68,05</td></tr><tr>$2");
  if (next === html) throw new Error("página de teste não mudou");
  writeFileSync(boi, next);

  base = join(tmp, "base");
  const first = update(base, FIXTURES, NOW1);
  if (first.status !== 0) throw new Error(`primeira execução falhou: ${first.stdout}${first.stderr}`);
  before = snapshot(base);
  const ref = copyOf(base, "ref");
  const second = update(ref, pages2, NOW2);
  if (second.status !== 0) throw new Error(`execução de referência falhou: ${second.stdout}${second.stderr}`);
  reference = snapshot(ref);
  // the files the publish replaces: its steps are n stagings, the journal written and committed,
  // n renames, the journal and the staging directory removed
  n = [...reference].filter(([p, text]) => before.get(p) !== text).length;
}, 120_000);

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe("npm run update killed with SIGKILL while publishing", () => {
  it("the reference run changes a real set: series, aggregates, events and feed", () => {
    const changed = [...reference].filter(([p, text]) => before.get(p) !== text).map(([p]) => p);
    expect(changed).toEqual(expect.arrayContaining(["api/v1/cotacao/boi_gordo.json", "api/v1/cotacao.json", "api/v1/eventos.json", "api/v1/feed.xml", "api/v1/status.json"]));
    expect(n).toBeGreaterThan(4);
  });

  const instants: Array<[string, (n: number) => number, "antigo" | "novo"]> = [
    ["while staging", () => 2, "antigo"],
    ["with the journal written but not yet committed", (n) => n + 1, "antigo"],
    ["right after the commit point, before any rename", (n) => n + 2, "novo"],
    ["halfway through the renames", (n) => n + 2 + Math.floor(n / 2), "novo"],
    ["after every rename, with the journal still there", (n) => 2 * n + 2, "novo"],
  ];

  it.each(instants)("%s: validate recovers and passes, and a rerun writes exactly the uninterrupted run's bytes", (_name, step, expected) => {
    const k = step(n);
    const dir = copyOf(base, `kill-${k}`);
    const killed = update(dir, pages2, NOW2, { COTACAO_TESTE_MATAR_NO_PASSO: String(k) });
    expect(killed.signal, `${killed.stdout}${killed.stderr}`).toBe("SIGKILL");
    const left = snapshot(dir);
    if (expected === "novo") expect([...left.keys()]).toContain(JOURNAL_NAME);
    else expect([...left.keys()].some((p) => p.startsWith(`${STAGING_DIR}/`))).toBe(true);
    // some files new, some old: the very tree validate used to pass
    if (k === n + 2 + Math.floor(n / 2)) {
      const mixed = [...reference].filter(([p, text]) => left.get(p) === text && before.get(p) !== text);
      expect(mixed.length).toBeGreaterThan(0);
      expect(mixed.length).toBeLessThan(n);
    }

    const v = cli("validate.ts", [dir], {});
    expect(v.status, `${v.stdout}${v.stderr}`).toBe(0);
    expect(v.stderr).toMatch(expected === "novo" ? /^validate: recuperação: publicação interrompida \(PID \d+, [^)]+\) concluída a partir do diário/m : /^validate: recuperação: publicação interrompida antes de confirmada descartada/m);
    expect(snapshot(dir)).toEqual(expected === "novo" ? reference : before);

    const rerun = update(dir, pages2, NOW2);
    expect(rerun.status, `${rerun.stdout}${rerun.stderr}`).toBe(0);
    expect(snapshot(dir)).toEqual(reference);
  }, 120_000);
});
