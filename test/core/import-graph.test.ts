/**
 * The layers of src/ (README "Architecture"): each top-level folder is a layer, and an import goes
 * only to its own folder or to a layer before it:
 *
 *   core < io < formats < jobs (and adapters) < render < report < tui < cli
 *
 * Type-only imports and `import()` count too (each is a dependency a reader must follow). There is
 * no import cycle anywhere, and only cli/ and the write path of io/ write files: jobs return data.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cycles, importGraph, SRC } from './import-graph.js';

const graph = importGraph();
const edges = (keep: (e: { typeOnly: boolean }) => boolean) =>
  new Map([...graph].map(([k, es]) => [k, es.filter(keep).map((e) => e.to)]));

/** Each layer's rank; a module may import its own folder or a folder of a lower rank. */
const LAYERS: Readonly<Record<string, number>> = {
  core: 0,
  io: 1,
  formats: 2,
  jobs: 3,
  adapters: 3,
  render: 4,
  report: 5,
  tui: 6,
  cli: 7,
  // src/index.ts, the library's entry: what a library user may import (nothing of the CLI or TUI)
  'index.ts': 5,
};

const layerOf = (module: string): string => module.split('/')[0]!;

/** The imports that go against the layer order: `from → to`. */
function againstTheFlow(g: ReadonlyMap<string, ReadonlyArray<{ to: string }>>): string[] {
  const bad: string[] = [];
  for (const [from, es] of g) {
    const a = layerOf(from);
    for (const e of es) {
      const b = layerOf(e.to);
      if (a === b) continue;
      const ra = LAYERS[a];
      const rb = LAYERS[b];
      if (ra === undefined || rb === undefined || !(rb < ra)) bad.push(`${from} → ${e.to}`);
    }
  }
  return bad.sort();
}

/** Modules allowed to write files: the CLI, and io's one write path (outputs, atomic writes, the cache directory). */
const WRITERS = /^(cli\/|io\/(atomic|output|cache-dir)\.ts$|build\/)/;

const WRITES = new RegExp(
  '\\b(writeFile(Sync)?|appendFile(Sync)?|renameSync|unlinkSync|fs\\.rename|writeFileAtomic|writeOutput|' +
    'createWriteStream|mkdirSync)\\b\\s*\\(',
);

describe('the import graph of src/', () => {
  it('every folder of src/ is a layer the order knows (a new folder must be placed in it)', () => {
    const folders = new Set([...graph.keys()].map(layerOf).filter((f) => f !== 'build'));
    expect([...folders].filter((f) => LAYERS[f] === undefined)).toEqual([]);
  });

  it('flows one way: core < io < formats < jobs < render < report < tui < cli', () => {
    expect(againstTheFlow(graph)).toEqual([]);
  });

  it('has no cycle', () => {
    expect(cycles(edges(() => true))).toEqual([]);
  });

  it('only the CLI and io/ write files', () => {
    const writers: string[] = [];
    for (const file of graph.keys()) {
      if (WRITERS.test(file)) continue;
      const text = readFileSync(path.join(SRC, file), 'utf8');
      if (WRITES.test(text)) writers.push(file);
    }
    expect(writers).toEqual([]);
  });

  it('the checks see the graph (not vacuous): modules, edges, a back edge and a cycle found when there is one', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('cli/main.ts')!.some((e) => e.to === 'cli/context.ts')).toBe(true);
    expect(WRITES.test(readFileSync(path.join(SRC, 'io/atomic.ts'), 'utf8'))).toBe(true);
    expect(againstTheFlow(new Map([['formats/x.ts', [{ to: 'jobs/y.ts' }]]]))).toEqual(['formats/x.ts → jobs/y.ts']);
    expect(againstTheFlow(new Map([['jobs/x.ts', [{ to: 'adapters/y.ts' }]]]))).toEqual(['jobs/x.ts → adapters/y.ts']);
    expect(againstTheFlow(new Map([['report/x.ts', [{ to: 'formats/y.ts' }, { to: 'report/z.ts' }]]]))).toEqual([]);
    expect(
      cycles(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', ['a']],
          ['d', ['d']],
          ['e', []],
        ]),
      ),
    ).toEqual([['a', 'b', 'c'], ['d']]);
  });
});
