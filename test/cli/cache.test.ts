/** The CLI's loaded-catalog cache: same output from a hit, parsers not loaded, off switches honoured. */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { DEMO, run } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'toolsearch-cli-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = (): string => join(dir, `c${n++}`);
const TRACE = fileURLToPath(new URL('../bench/trace-modules.mjs', import.meta.url));

/**
 * The parser library files a run loaded: the bundled YAML reader (dist/bundle/js-yaml.cjs), needed only to parse YAML.
 */
function parserChunks(traceFile: string): string[] {
  return readFileSync(traceFile, 'utf8')
    .split('\n')
    .filter((u) => u.startsWith('file://') && u.endsWith('/dist/bundle/js-yaml.cjs'));
}

describe.concurrent('catalog cache', () => {
  test('a second run answers from the cache: same output, one entry, the YAML library never loaded', async () => {
    const cacheDir = fresh();
    const args = ['search', '-c', DEMO, '--explain', 'create', 'issue', '--json'];
    const first = await run(args, { env: { TOOLSEARCH_CACHE_DIR: cacheDir } });
    expect(readdirSync(cacheDir).filter((f) => f.startsWith('catalog-'))).toHaveLength(1);
    const traced = join(dir, `trace-${n++}`);
    const second = await run(args, {
      env: { TOOLSEARCH_CACHE_DIR: cacheDir, TOOLSEARCH_TRACE_MODULES: traced, NODE_OPTIONS: `--import ${TRACE}` },
    });
    expect(second).toEqual(first);
    expect(first.code).toBe(0);
    expect(parserChunks(traced)).toEqual([]);
    // Control: without the cache the same trace finds them.
    const control = join(dir, `trace-${n++}`);
    await run([...args, '--no-cache'], {
      env: { TOOLSEARCH_CACHE_DIR: cacheDir, TOOLSEARCH_TRACE_MODULES: control, NODE_OPTIONS: `--import ${TRACE}` },
    });
    expect(parserChunks(control).length).toBeGreaterThan(0);
  });

  test('--no-cache and TOOLSEARCH_CACHE=off neither read nor write it', async () => {
    for (const [extra, env] of [
      [['--no-cache'], {}],
      [[], { TOOLSEARCH_CACHE: 'off' }],
    ] as const) {
      const cacheDir = fresh();
      const r = await run(['search', '-c', DEMO, 'slack', ...extra], {
        env: { TOOLSEARCH_CACHE_DIR: cacheDir, ...env },
      });
      expect(r.code).toBe(0);
      expect(existsSync(cacheDir)).toBe(false);
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
