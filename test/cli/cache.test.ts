/** The CLI's loaded-catalog cache: same output from a hit, off switches honoured, a broken cache no error. */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { DEMO, run } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'toolsearch-cli-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = (): string => join(dir, `c${n++}`);

describe.concurrent('catalog cache', () => {
  test('a second run answers from the cache: same output, one entry', async () => {
    const cacheDir = fresh();
    const args = ['search', '-c', DEMO, '--explain', 'create', 'issue', '--json'];
    const first = await run(args, { env: { TOOLSEARCH_CACHE_DIR: cacheDir } });
    expect(first.code).toBe(0);
    expect(readdirSync(cacheDir).filter((f) => f.startsWith('catalog-'))).toHaveLength(1);
    expect(await run(args, { env: { TOOLSEARCH_CACHE_DIR: cacheDir } })).toEqual(first);
  });

  test('--no-cache writes no catalog entry; TOOLSEARCH_CACHE=off writes nothing at all', async () => {
    for (const [extra, env] of [
      [['--no-cache'], {}],
      [[], { TOOLSEARCH_CACHE: 'off' }],
    ] as const) {
      const cacheDir = fresh();
      const r = await run(['search', '-c', DEMO, 'slack', ...extra], {
        env: { TOOLSEARCH_CACHE_DIR: cacheDir, ...env },
      });
      expect(r.code).toBe(0);
      // --no-cache is the catalog cache's switch: compiled code may still be kept, by Node's compile cache in
      // compiled/ (Node >= 22.1) or as V8's code cache (code-*.v8, Node 20).
      const files = existsSync(cacheDir) ? readdirSync(cacheDir) : [];
      expect(files.filter((f) => f !== 'compiled' && f !== 'CACHEDIR.TAG' && !/^code-.*\.v8$/.test(f))).toEqual([]);
      if (extra.length === 0) expect(existsSync(cacheDir)).toBe(false);
    }
  });

  test('a broken cache is no error: same output, nothing on stderr', async () => {
    const cacheDir = fresh();
    const args = ['select', '-c', DEMO, 'mcp__slack__send_message', '--json'];
    const first = await run(args, { env: { TOOLSEARCH_CACHE_DIR: cacheDir } });
    for (const f of readdirSync(cacheDir)) rmSync(join(cacheDir, f), { recursive: true }); // compiled/ on Node >= 22.1
    const { writeFileSync } = await import('node:fs');
    const blocked = join(cacheDir, 'file');
    writeFileSync(blocked, 'x');
    const second = await run(args, { env: { TOOLSEARCH_CACHE_DIR: blocked } });
    expect(second).toEqual(first);
    expect(second.stderr).toBe('');
  });
});
