/**
 * The rooms of src/ (DESIGN.md): no import cycle anywhere (type-only imports
 * and import() included: each is a dependency a reader must follow), and data
 * flows one way — renderers and engines never import the CLI or the TUI, and
 * engines write no files (they return data; the CLI writes).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cycles, importGraph, SRC } from './import-graph.js';

const graph = importGraph();
const edges = (keep: (e: { typeOnly: boolean }) => boolean) =>
  new Map([...graph].map(([k, es]) => [k, es.filter(keep).map((e) => e.to)]));

/** Rooms that come before cli/ and tui/ in the flow: nothing in them may import those two. */
const UPSTREAM = /^(core|formats|simulate|suite|eval|lint|tokens|search|mcp|render|report|adapters)\//;
/** Engines: they compute reports and write nothing. */
const ENGINES = /^(core|simulate|suite|eval|lint|tokens|search)\//;

describe('the import graph of src/', () => {
  it('has no cycle', () => {
    expect(cycles(edges(() => true))).toEqual([]);
  });

  it('has no back-flow: nothing upstream of the CLI and the TUI imports them', () => {
    const back: string[] = [];
    for (const [from, es] of graph) {
      if (!UPSTREAM.test(from)) continue;
      for (const e of es) if (/^(cli|tui)\//.test(e.to)) back.push(`${from} → ${e.to}`);
    }
    expect(back).toEqual([]);
  });

  it('render/ is a toolkit that knows no report: it imports only core/ and itself', () => {
    const out: string[] = [];
    for (const [from, es] of graph) {
      if (!from.startsWith('render/')) continue;
      for (const e of es) if (!/^(render|core)\//.test(e.to)) out.push(`${from} → ${e.to}`);
    }
    expect(out).toEqual([]);
  });

  it('engines write no files', () => {
    const writers: string[] = [];
    for (const file of graph.keys()) {
      if (!ENGINES.test(file)) continue;
      const text = readFileSync(path.join(SRC, file), 'utf8');
      if (/\b(writeFile(Sync)?|appendFile(Sync)?|renameSync|unlinkSync|writeFileAtomic|createWriteStream)\b/.test(text)) writers.push(file);
    }
    expect(writers).toEqual([]);
  });

  it('the checks see the graph (not vacuous): modules, edges, and a cycle found when there is one', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('cli/main.ts')!.some((e) => e.to === 'cli/context.ts')).toBe(true);
    expect(graph.get('formats/catalog-cache.ts')!.some((e) => e.to === 'formats/catalog.ts' && e.dynamic && !e.typeOnly)).toBe(true);
    expect(cycles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['d']], ['e', []]]))).toEqual([['a', 'b', 'c'], ['d']]);
  });
});
