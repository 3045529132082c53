/**
 * The pipeline is a straight line (issue 11 item 3): the folders of pipeline/ are its stages in
 * order, a module may import its own stage or an earlier one, never a later one, and there is
 * no import cycle. Every import counts, type-only ones too: a type that lives in a later stage
 * is a record travelling back up the line.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const PIPELINE = join(ROOT, "pipeline");

/**
 * The stages, in pipeline order: fetch -> parse -> assemble -> check -> merge -> render ->
 * validate -> publish, then what is built on the published set. Entries are folders of
 * pipeline/ or files at its root.
 */
export const STAGES: readonly string[] = [
  "domain", // vocabulary: products, UFs, money, dates, rows, series, errors, published types
  "io", // plumbing to the outside: atomic file writes, the one outbound HTTP client, git
  "sources", // source declarations, pure parsers, the catalogue
  "config.ts", // cotacao.config.json, checked against the catalogue
  "contract", // the public contract in code: schemas, the reader of published files, checks in code
  "fetch", // live / replay / record of source pages
  "history", // rows -> entries, the stored history, merge, capture log
  "check", // gates, revisions and coherence over the assembled candidate
  "render", // pure renderers: series JSON, CSV, serialization
  "validate", // the gate before publishing: every file against its schema, CSVs, files against each other
  "publish", // lock, journal, all-or-nothing write, changelog, deploy
  "events", // changes -> events, feed, webhooks
  "openapi", // OpenAPI document, docs page, client.js
  "site", // site assembly: every file of one published set
  "run", // update / build: the line, end to end
  "simulator", // consumers of the published set
  "romaneio", // reading a sale receipt (OCR text -> fields), compared with the published prices
  "serve",
  "gerar", // generators of committed files (types from the schemas)
  "cli", // commands
];

export interface Edge {
  from: string;
  to: string;
}

/**
 * Module specifiers a TypeScript file imports: static imports and re-exports (type-only too,
 * over several lines), side-effect imports, dynamic `import("...")` and `import("...").Type`.
 * Statements must start a line (so a JSDoc line quoting an import is not one); a dynamic import
 * is found anywhere, since a false positive is only a stricter check.
 */
export function importSpecifiers(source: string): string[] {
  const out: string[] = [];
  const statement = /^[ \t]*(?:import|export)\b(?:[^;'"`]|\n)*?\bfrom\s*(["'])([^"'\n]+)\1/gm;
  const sideEffect = /^[ \t]*import\s*(["'])([^"'\n]+)\1/gm;
  const dynamic = /\bimport\s*\(\s*(["'])([^"'\n]+)\1\s*\)/g;
  for (const re of [statement, sideEffect, dynamic]) {
    for (const m of source.matchAll(re)) out.push(m[2]!);
  }
  return out;
}

function listTs(dir: string): string[] {
  const out: string[] = [];
  for (const ent of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, ent.name);
    if (ent.isDirectory()) out.push(...listTs(p));
    else if (ent.name.endsWith(".ts") && !ent.name.endsWith(".d.ts")) out.push(p);
  }
  return out.sort();
}

/** Relative imports between files of pipeline/, as paths relative to pipeline/. */
export function pipelineGraph(): { files: string[]; edges: Edge[]; unresolved: string[] } {
  const files = listTs(PIPELINE);
  const edges: Edge[] = [];
  const unresolved: string[] = [];
  for (const file of files) {
    const from = relative(PIPELINE, file).replace(/\\/g, "/");
    for (const spec of importSpecifiers(readFileSync(file, "utf8"))) {
      if (!spec.startsWith(".")) continue;
      const target = resolve(dirname(file), spec);
      const rel = relative(PIPELINE, target).replace(/\\/g, "/");
      if (rel.startsWith("..")) continue; // schemas/, package.json: outside the line
      const candidates = [target, target.replace(/\.js$/, ".ts")];
      const found = candidates.find((c) => existsSync(c));
      if (!found) {
        // pipeline modules import each other as "./x.ts"; a "./x.js" that is not here is
        // browser code inside a template string (openapi/docs.ts writes docs/init.js)
        if (spec.endsWith(".ts")) unresolved.push(`${from} -> ${spec}`);
        continue;
      }
      if (!found.endsWith(".ts")) continue; // a template or JSON read as a module
      edges.push({ from, to: relative(PIPELINE, found).replace(/\\/g, "/") });
    }
  }
  return { files: files.map((f) => relative(PIPELINE, f).replace(/\\/g, "/")), edges, unresolved };
}

/** The stage of a file (its folder, or its own name at the root of pipeline/), or null. */
export function stageOf(file: string, stages: readonly string[] = STAGES): number | null {
  const first = file.split("/")[0]!;
  const i = stages.indexOf(first);
  return i < 0 ? null : i;
}

/** Imports of a later stage, as readable lines. */
export function backwardImports(edges: readonly Edge[], stages: readonly string[] = STAGES): string[] {
  const out: string[] = [];
  for (const { from, to } of edges) {
    const a = stageOf(from, stages);
    const b = stageOf(to, stages);
    if (a === null || b === null) continue;
    if (b > a) out.push(`${from} (${stages[a]}) importa ${to} (${stages[b]}, etapa posterior)`);
  }
  return out;
}

/** Every elementary cycle found by a depth-first search, each as "a -> b -> a" (deduplicated by rotation). */
export function importCycles(edges: readonly Edge[]): string[] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) {
    const list = next.get(from) ?? [];
    if (!list.includes(to)) list.push(to);
    next.set(from, list);
  }
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const found = new Set<string>();
  const visit = (node: string): void => {
    state.set(node, "open");
    path.push(node);
    for (const to of [...(next.get(node) ?? [])].sort()) {
      const s = state.get(to);
      if (s === "open") {
        const cycle = path.slice(path.indexOf(to));
        // rotate so the smallest name comes first: one line per cycle however it is reached
        const k = cycle.indexOf([...cycle].sort()[0]!);
        const rotated = [...cycle.slice(k), ...cycle.slice(0, k)];
        found.add([...rotated, rotated[0]].join(" -> "));
      } else if (s === undefined) visit(to);
    }
    path.pop();
    state.set(node, "done");
  };
  for (const node of [...next.keys()].sort()) if (!state.has(node)) visit(node);
  return [...found].sort();
}

describe("the checker itself", () => {
  it("finds every kind of import, including type-only, multi-line, re-exports and dynamic ones", () => {
    const src = [
      `import { a } from "./a.ts";`,
      `import type { B } from '../b.ts';`,
      `import {`,
      `  c,`,
      `  type D,`,
      `} from "./c.ts";`,
      `export { e } from "./e.ts";`,
      `export * from "./f.ts";`,
      `export type { G } from "./g.ts";`,
      `import "./side.ts";`,
      `const h = await import("./h.ts");`,
      `let i: import("./i.ts").I;`,
      ` * import { not } from "./jsdoc.ts";`,
      `export const x = 1; // from "./comment.ts"`,
    ].join("\n");
    expect(importSpecifiers(src).sort()).toEqual(
      ["./a.ts", "../b.ts", "./c.ts", "./e.ts", "./f.ts", "./g.ts", "./side.ts", "./h.ts", "./i.ts"].sort(),
    );
  });

  it("reports an import of a later stage and a cycle as a path", () => {
    const stages = ["domain", "render", "run"];
    const edges: Edge[] = [
      { from: "domain/a.ts", to: "render/b.ts" },
      { from: "render/b.ts", to: "domain/c.ts" },
      { from: "run/x.ts", to: "run/y.ts" },
      { from: "run/y.ts", to: "run/x.ts" },
      { from: "run/y.ts", to: "domain/a.ts" },
    ];
    expect(backwardImports(edges, stages)).toEqual([
      "domain/a.ts (domain) importa render/b.ts (render, etapa posterior)",
    ]);
    expect(importCycles(edges)).toEqual(["run/x.ts -> run/y.ts -> run/x.ts"]);
    expect(importCycles([...edges, { from: "domain/c.ts", to: "domain/a.ts" }])).toContain(
      "domain/a.ts -> render/b.ts -> domain/c.ts -> domain/a.ts",
    );
  });
});

describe("pipeline/ is a straight line", () => {
  const graph = pipelineGraph();

  it("sees the whole pipeline (every file parsed, every relative import resolved)", () => {
    expect(graph.files.length).toBeGreaterThan(50);
    expect(graph.edges.length).toBeGreaterThan(200);
    expect(graph.unresolved).toEqual([]);
  });

  it("every folder and root file of pipeline/ is a stage of the line", () => {
    const outside = [...new Set(graph.files.filter((f) => stageOf(f) === null).map((f) => f.split("/")[0]!))];
    expect(outside, `pastas/arquivos fora de STAGES em test/linha.test.ts: ${outside.join(", ")}`).toEqual([]);
  });

  it("no module imports a later stage", () => {
    const back = backwardImports(graph.edges);
    expect(back, back.join("\n")).toEqual([]);
  });

  it("there is no import cycle", () => {
    const cycles = importCycles(graph.edges);
    expect(cycles, cycles.join("\n")).toEqual([]);
  });
});
