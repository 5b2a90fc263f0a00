/**
 * Issue 14, finding 7, on every Node (the compile-cache test of
 * test/cli/start.test.ts runs only on a Node that has one; CI runs Node 20):
 * whatever files the CLI keeps in its cache directory, damaged in place,
 * never crash a later run — it answers exactly as before. On c63dd70 (Node
 * 20) the CLI's own V8 code cache (`code-…-search-….bin`) damaged this way
 * ended every later `search` with SIGTRAP (exit 133) or SIGSEGV (139).
 * Through the built CLI (`npm run build` first).
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO, spawnCli, tempDir } from './helpers.js';

const tmp = tempDir('toolsearch-damaged-cache-');
afterAll(() => tmp.cleanup());

function filesUnder(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((n) => {
      const p = join(dir, n);
      return statSync(p).isDirectory() ? filesUnder(p) : [p];
    });
}

/** Damage that V8 did not survive on c63dd70: a bit flipped every 997 bytes, or the second half garbled. */
const DAMAGE: ReadonlyArray<readonly [string, (b: Buffer) => void]> = [
  [
    'a bit every 997 bytes',
    (b) => {
      for (let i = 64; i < b.length; i += 997) b[i]! ^= 0x01;
    },
  ],
  [
    'the second half garbled',
    (b) => {
      for (let i = b.length >> 1; i < b.length; i++) b[i]! ^= 0x55;
    },
  ],
];

describe('finding 7: a damaged cache file is only ever a miss', () => {
  it('every file of the cache directory damaged in place: the next runs answer exactly alike', async () => {
    const env = { TOOLSEARCH_CACHE_DIR: join(tmp.dir, 'cache') };
    const args = ['search', '-c', DEMO, '--explain', 'create', 'issue'];
    const first = await spawnCli(args, { env });
    expect(first.code).toBe(0);
    expect(await spawnCli(args, { env })).toEqual(first); // from the cache
    const files = filesUnder(env.TOOLSEARCH_CACHE_DIR);
    expect(files.length).toBeGreaterThan(0);
    for (const [what, damage] of DAMAGE) {
      for (const f of filesUnder(env.TOOLSEARCH_CACHE_DIR)) {
        const bytes = readFileSync(f);
        damage(bytes);
        writeFileSync(f, bytes);
      }
      expect(await spawnCli(args, { env }), what).toEqual(first);
      expect(await spawnCli(args, { env }), `${what}, then rebuilt`).toEqual(first);
    }
  });
});
