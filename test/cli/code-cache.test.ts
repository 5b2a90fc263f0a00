/**
 * V8's code cache of the CLI's first file on Node 20 (src/cli/code-cache.ts): the same exports and output as
 * compiling from source, a damaged, truncated or foreign file never handed to V8 (issue 14, finding 7: a damaged
 * code cache crashed every later run), and the cache directory's rules. The function is tested on every Node;
 * the CLI uses it only on a Node without a compile cache, where the spawned runs below check it end to end.
 */
import {
  chmodSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runWithCodeCache, storedData } from '../../src/cli/code-cache.js';
import { DEMO, run } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'toolsearch-code-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = (): string => join(dir, `c${n++}`);

/** The code cache files in `root`. */
const codeFiles = (root: string): string[] => readdirSync(root).filter((f) => /^code-[0-9a-f]{16}\.v8$/.test(f));

/** Whether the file holds V8's data twice, the same bytes. */
const intact = (file: string): boolean => storedData(readFileSync(file)) !== undefined;

/** Damages every code cache file in `root` as `how` says. */
function damage(root: string, how: 'flip' | 'truncate' | 'both'): void {
  for (const f of codeFiles(root)) {
    const bytes = readFileSync(join(root, f));
    const half = bytes.length / 2;
    if (how === 'truncate') writeFileSync(join(root, f), bytes.subarray(0, half + (half >> 1)));
    else {
      // bytes flipped in V8's header, in the middle and near the end of the first copy (and of both copies)
      for (const at of [40, half >> 1, half - 3]) {
        bytes[at]! ^= 0xff;
        if (how === 'both') bytes[half + at]! ^= 0xff;
      }
      writeFileSync(join(root, f), bytes);
    }
  }
}

describe('storedData', () => {
  it('is the data when both halves are the same bytes, else undefined', () => {
    const data = Buffer.from('v8 code cache bytes');
    expect(storedData(Buffer.concat([data, data]))).toEqual(data);
    expect(storedData(Buffer.concat([data, data.subarray(0, data.length - 1), Buffer.from('!')]))).toBeUndefined();
    expect(storedData(Buffer.concat([data, data]).subarray(1))).toBeUndefined(); // odd length: truncated
    expect(storedData(Buffer.alloc(0))).toBeUndefined();
    expect(storedData(undefined)).toBeUndefined();
  });
});

describe('runWithCodeCache', () => {
  const mod = join(dir, 'mod.cjs');
  writeFileSync(
    mod,
    [
      "'use strict';",
      'exports.sum = (a, b) => a + b;',
      'exports.where = __filename;',
      "exports.path = require('node:path').sep;",
      'exports.self = module.exports === exports;',
    ].join('\n'),
  );
  const sum = (m: unknown, a: number, b: number): number =>
    ((m as Record<string, unknown>).sum as (a: number, b: number) => number)(a, b);

  it('runs a CommonJS file as require would, then from the code it saved', () => {
    const root = fresh();
    const saves: Array<() => void> = [];
    const first = runWithCodeCache(mod, root, 'build-1', (save) => saves.push(save)) as Record<string, unknown>;
    expect(sum(first, 2, 3)).toBe(5);
    expect([first.where, first.path, first.self]).toEqual([mod, '/', true]);
    expect(saves).toHaveLength(1); // nothing cached yet: the code is saved at exit
    saves[0]!();
    const files = codeFiles(root);
    expect(files).toHaveLength(1);
    expect(statSync(join(root, files[0]!)).mode & 0o777).toBe(0o600);
    expect(intact(join(root, files[0]!))).toBe(true);

    const again: Array<() => void> = [];
    expect(
      sum(
        runWithCodeCache(mod, root, 'build-1', (save) => again.push(save)),
        4,
        5,
      ),
    ).toBe(9);
    expect(again).toHaveLength(0); // V8 took the saved code: nothing to save
    // another build never reads this one's code: it saves its own, and two are kept
    const other: Array<() => void> = [];
    runWithCodeCache(mod, root, 'build-2', (save) => other.push(save));
    expect(other).toHaveLength(1);
    other[0]!();
    expect(codeFiles(root)).toHaveLength(2);
  });

  it('never hands a damaged, truncated or writable file to V8: compiles and saves again', () => {
    for (const how of ['flip', 'truncate', 'writable'] as const) {
      const root = fresh();
      const saves: Array<() => void> = [];
      runWithCodeCache(mod, root, 'b', (save) => saves.push(save));
      saves[0]!();
      const [file] = codeFiles(root);
      if (how === 'writable') chmodSync(join(root, file!), 0o666);
      else damage(root, how);
      const again: Array<() => void> = [];
      expect(
        sum(
          runWithCodeCache(mod, root, 'b', (save) => again.push(save)),
          1,
          1,
        ),
        how,
      ).toBe(2);
      expect(again, how).toHaveLength(1);
      again[0]!();
      expect(intact(join(root, file!)), how).toBe(true);
      expect(statSync(join(root, file!)).mode & 0o777, how).toBe(0o600);
    }
  });

  it('never runs the code of a file as it was before an edit, even of the same length', () => {
    const root = fresh();
    const edited = join(dir, 'edited.cjs');
    writeFileSync(edited, 'exports.sum = (a, b) => a + b;');
    const saves: Array<() => void> = [];
    expect(
      sum(
        runWithCodeCache(edited, root, 'b', (save) => saves.push(save)),
        5,
        3,
      ),
    ).toBe(8);
    saves[0]!();
    writeFileSync(edited, 'exports.sum = (a, b) => a - b;'); // V8 compares only the length of the source
    utimesSync(edited, new Date(2000, 0, 1), new Date(2000, 0, 1));
    const again: Array<() => void> = [];
    expect(
      sum(
        runWithCodeCache(edited, root, 'b', (save) => again.push(save)),
        5,
        3,
      ),
    ).toBe(2);
    expect(again).toHaveLength(1);
  });

  it('is no cache in a directory others can write: null, nothing written there', () => {
    const shared = mkdtempSync(join(dir, 'shared-'));
    chmodSync(shared, 0o777);
    expect(runWithCodeCache(mod, shared, 'x', () => {})).toBeNull();
    expect(readdirSync(shared)).toEqual([]);
  });
});

// The CLI takes this path only where Node has no compile cache of its own (Node 20).
const node20 = typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache !== 'function';

describe.runIf(node20)('the CLI on a Node without a compile cache', { timeout: 120_000 }, () => {
  const search = ['search', '-c', DEMO, '--explain', 'create', 'issue'];
  // A command of the bundle's second file, which the first hands its modules (commander among them).
  const lint = ['lint', '-c', DEMO];

  it('writes the code cache on the first run; a damaged or truncated one is compiled again: same output', async () => {
    const root = fresh();
    const env = { TOOLSEARCH_CACHE_DIR: root };
    const first = await run(search, { env });
    expect(first.code).toBe(0);
    expect(codeFiles(root)).toHaveLength(1);
    const file = join(root, codeFiles(root)[0]!);
    expect(intact(file)).toBe(true);
    expect(await run(search, { env })).toEqual(first);
    const linted = await run(lint, { env });
    expect(linted.code, linted.stderr).toBe(0);
    expect(await run(lint, { env: { TOOLSEARCH_CACHE: 'off' } })).toEqual(linted);
    for (const how of ['flip', 'truncate'] as const) {
      damage(root, how);
      expect(await run(search, { env }), how).toEqual(first);
      expect(intact(file), how).toBe(true);
    }
  });

  it('is neither read nor written with TOOLSEARCH_CACHE=off', async () => {
    const off = fresh();
    const r = await run(search, { env: { TOOLSEARCH_CACHE_DIR: off, TOOLSEARCH_CACHE: 'off' } });
    expect(r.code).toBe(0);
    expect(() => readdirSync(off)).toThrow();
  });
});
