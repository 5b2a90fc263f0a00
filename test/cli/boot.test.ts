/** The CLI's loader (src/cli/boot.ts): the bundle run as `require` would, through V8's code cache. */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_CODE_CACHES, codeCachePath, loadBundle } from '../../src/cli/boot.js';

const root = mkdtempSync(join(tmpdir(), 'toolsearch-boot-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

/** A bundle-like CommonJS file (and a sibling it requires) in a fresh directory, and a fresh cache directory. */
function fixture(body = ''): { file: string; env: Record<string, string> } {
  const dir = join(root, `b${n++}`);
  mkdirSync(dir);
  writeFileSync(join(dir, 'sibling.cjs'), 'module.exports = 41;\n');
  const file = join(dir, 'main.cjs');
  writeFileSync(
    file,
    `'use strict';
const sibling = require('./sibling.cjs');
exports.main = async (argv) => sibling + argv.length;
exports.where = () => [__filename, __dirname, this === exports];
exports.fail = () => { throw new Error('line 5'); };
${body}`,
  );
  return { file, env: { TOOLSEARCH_CACHE_DIR: join(dir, 'cache') } };
}

/** loadBundle + saveCodeCache in a process of its own (V8 also caches compiled code in memory, per process), from tsc's output. */
function loadInChild(file: string, env: Record<string, string>): void {
  const boot = fileURLToPath(new URL('../../dist/cli/boot.js', import.meta.url));
  const code = `const { loadBundle } = await import(${JSON.stringify(boot)}); loadBundle(${JSON.stringify(file)}, [], process.env).saveCodeCache();`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { env: { ...process.env, ...env }, encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
}

const caches = (env: Record<string, string>): string[] => {
  try {
    return readdirSync(env.TOOLSEARCH_CACHE_DIR!).filter((f) => f.startsWith('code-'));
  } catch {
    return [];
  }
};

describe('codeCachePath', () => {
  const env = { TOOLSEARCH_CACHE_DIR: '/c' };
  it('names the build, the command, the bundle size and time, Node and the architecture, in the cache directory', () => {
    expect(codeCachePath('/x/main.cjs', 123, 456.7, env, ['search'])).toBe(`/c/code-dev-search-123-456-${process.version}-${process.arch}.bin`);
    expect(codeCachePath('/x/main.cjs', 123, 456.7, env, ['--no-color', 'simulate', 't.json'])).toContain('/c/code-dev-simulate-123-');
    // No command, or a word that is not one (a typo, a path): one shared name.
    expect(codeCachePath('/x/main.cjs', 123, 456.7, env, ['--help'])).toContain('/c/code-dev-other-123-');
    expect(codeCachePath('/x/main.cjs', 123, 456.7, env, ['../../etc/x'])).toContain('/c/code-dev-other-123-');
  });
  it('is off with TOOLSEARCH_CACHE=off and with --no-cache before a `--`', () => {
    expect(codeCachePath('/x', 1, 1, { ...env, TOOLSEARCH_CACHE: 'off' }, [])).toBeNull();
    expect(codeCachePath('/x', 1, 1, env, ['search', '--no-cache', 'q'])).toBeNull();
    expect(codeCachePath('/x', 1, 1, env, ['search', '--', '--no-cache'])).not.toBeNull();
  });
});

describe('loadBundle', () => {
  it('runs the file as require would: exports, require relative to it, __filename, __dirname, this, line numbers', async () => {
    const { file, env } = fixture();
    const { bundle } = loadBundle(file, [], env);
    expect(await bundle.main(['a', 'b'])).toBe(43);
    const b = bundle as unknown as { where(): unknown[]; fail(): void };
    expect(b.where()).toEqual([file, join(file, '..'), true]);
    let stack = '';
    try {
      b.fail();
    } catch (err) {
      stack = (err as Error).stack ?? '';
    }
    expect(stack).toContain(`${file}:5:`);
  });

  it('writes the code cache once, private to the user, and uses it on the next load', () => {
    const { file, env } = fixture();
    const first = loadBundle(file, [], env);
    expect(caches(env)).toEqual([]);
    first.saveCodeCache();
    const [name] = caches(env);
    expect(caches(env)).toHaveLength(1);
    const path = join(env.TOOLSEARCH_CACHE_DIR!, name!);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(env.TOOLSEARCH_CACHE_DIR!).mode & 0o777).toBe(0o700);
    const before = readFileSync(path);
    const old = new Date(Date.now() - 60_000);
    utimesSync(path, old, old);
    loadBundle(file, [], env).saveCodeCache(); // accepted by V8: nothing to write
    expect(Math.abs(statSync(path).mtimeMs - old.getTime())).toBeLessThan(1);
    expect(readFileSync(path)).toEqual(before);
  });

  it('rewrites a cache V8 rejects, and ignores (then replaces) one that others can write', () => {
    const { file, env } = fixture();
    loadInChild(file, env);
    const path = join(env.TOOLSEARCH_CACHE_DIR!, caches(env)[0]!);
    const size = statSync(path).size;
    expect(size).toBeGreaterThan(100);
    writeFileSync(path, Buffer.from('not V8 code at all'));
    loadInChild(file, env);
    expect(statSync(path).size).toBe(size); // V8's code for the same source again (its bytes vary from process to process)
    chmodSync(path, 0o666);
    const old = new Date(Date.now() - 60_000);
    utimesSync(path, old, old);
    loadInChild(file, env);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(path).mtimeMs - old.getTime()).toBeGreaterThan(1000);
    // Control: a private, valid cache is left alone.
    utimesSync(path, old, old);
    loadInChild(file, env);
    expect(Math.abs(statSync(path).mtimeMs - old.getTime())).toBeLessThan(1);
  });

  it('a changed bundle gets a cache of its own; the oldest are removed beyond MAX_CODE_CACHES', () => {
    const { file, env } = fixture();
    for (let i = 0; i < MAX_CODE_CACHES + 2; i++) {
      writeFileSync(file, `${readFileSync(file, 'utf8')}\n// edit ${i}\n`);
      loadBundle(file, [], env).saveCodeCache();
    }
    expect(caches(env)).toHaveLength(MAX_CODE_CACHES);
  });

  it('leaves a cache directory that others can write alone: nothing read, nothing written', () => {
    const { file, env } = fixture();
    loadBundle(file, [], env).saveCodeCache();
    const [name] = caches(env);
    chmodSync(env.TOOLSEARCH_CACHE_DIR!, 0o777);
    const path = join(env.TOOLSEARCH_CACHE_DIR!, name!);
    const old = new Date(Date.now() - 60_000);
    utimesSync(path, old, old);
    loadInChild(file, env);
    expect(caches(env)).toEqual([name]);
    expect(Math.abs(statSync(path).mtimeMs - old.getTime())).toBeLessThan(1);
    // Control: private again, the stale entry is checked (V8 accepts it, so it stays) and used.
    chmodSync(env.TOOLSEARCH_CACHE_DIR!, 0o700);
    loadInChild(file, env);
    expect(Math.abs(statSync(path).mtimeMs - old.getTime())).toBeLessThan(1);
  });

  it('writes nothing with TOOLSEARCH_CACHE=off or --no-cache, and a cache directory it cannot create is no error', async () => {
    const { file, env } = fixture();
    loadBundle(file, [], { ...env, TOOLSEARCH_CACHE: 'off' }).saveCodeCache();
    loadBundle(file, ['search', '--no-cache'], env).saveCodeCache();
    expect(caches(env)).toEqual([]);
    const blocked = join(root, `blocked${n++}`);
    writeFileSync(blocked, 'a file, not a directory');
    const { bundle, saveCodeCache } = loadBundle(file, [], { TOOLSEARCH_CACHE_DIR: join(blocked, 'cache') });
    saveCodeCache();
    expect(await bundle.main([])).toBe(41);
  });
});
