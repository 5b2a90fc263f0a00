/**
 * bin/toolsearch.js and src/cli/start.ts: a program that leaves the environment as the user set it,
 * answers `--version`, and Node's compile cache (Node ≥ 22.1), which a damaged file never breaks.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { enableCompileCache } from '../../src/cli/start.js';
import { BIN, DEMO, ROOT, baseEnv, collect, run } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'toolsearch-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = (): string => join(dir, `c${n++}`);
const version = `${(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version}\n`;
/** Whether the Node running the tests has a compile cache (22.1 and later). */
const hasCompileCache = typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === 'function';

/** Every file under `d`. */
function filesUnder(d: string): string[] {
  try {
    return readdirSync(d, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name));
  } catch {
    return [];
  }
}

// These spawn several CLI processes in a row: on a loaded machine that is past vitest's default 30 s.
const SPAWNS = { timeout: 120_000 };

describe('bin/toolsearch.js', SPAWNS, () => {
  it('runs as a program (its #! line) with the same output and exit code as `node bin/toolsearch.js`', async () => {
    for (const args of [
      ['--version'],
      ['search', '-c', DEMO, 'create', 'issue'],
      ['search', '-c', 'missing.yaml', 'x'],
    ]) {
      const asProgram = await collect(
        spawn(BIN, args, { cwd: ROOT, env: baseEnv(), stdio: ['ignore', 'pipe', 'pipe'] }),
      );
      expect(asProgram).toEqual(await run(args));
    }
    // A bare --version or -V is answered at once; inside a longer command line commander answers it alike.
    for (const args of [['--version'], ['-V'], ['--no-color', '--version'], ['--version', '--no-color']])
      expect(await run(args), args.join(' ')).toEqual({ code: 0, stdout: version, stderr: '' });
  });

  it('leaves NODE_EXTRA_CA_CERTS to the process and its children as the user set it', async () => {
    const ca = join(dir, 'extra-ca.pem');
    writeFileSync(ca, '');
    const server = 'node test/formats/mcp/fixtures/test-server.mjs --tools 1 --env-name NODE_EXTRA_CA_CERTS';
    for (const args of [
      ['import', '--mcp', server],
      ['search', '-c', `mcp:${server}`, '--json', 'x'],
    ]) {
      const r = await run(args, { env: { NODE_EXTRA_CA_CERTS: ca } });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      if (args[0] === 'import') expect(r.stdout).toContain(`(NODE_EXTRA_CA_CERTS=${ca} 1.2.3, 1 tool)`);
    }
    const unset = await run(['import', '--mcp', server], { env: { NODE_EXTRA_CA_CERTS: undefined } });
    expect(unset.stdout).toContain('(NODE_EXTRA_CA_CERTS unset 1.2.3, 1 tool)');
  });
});

describe('the end of a run', SPAWNS, () => {
  it("writes all of a long stderr to a pipe read late, then exits with the run's code", async () => {
    // 8,000 warnings (~390 kB: more than the pipe and the reader's buffer hold) on stderr, a pipe: Node writes
    // them asynchronously, and the process must not end before the reader, who starts after 1 s, has them all.
    const names = Array.from({ length: 8000 }, (_, i) => `nope_${i}`);
    const child = spawn(process.execPath, [BIN, 'search', '-c', DEMO, `select:${names.join(',')}`], {
      cwd: ROOT,
      env: baseEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stderr!.pause();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    child.stderr!.resume();
    const r = await collect(child);
    expect(r.code).toBe(0);
    const warnings = r.stderr.split('\n').filter((l) => l.startsWith('warning: skipped nope_'));
    expect(warnings.length).toBe(8000);
    expect(warnings[7999]).toMatch(/^warning: skipped nope_7999: not a dynamic tool/);
    expect(r.stdout).toContain('select:');
  });
});

describe('start.ts', () => {
  it('enableCompileCache: makes the directory private (0700), hands it to Node; refuses one others can write', () => {
    const calls: (string | undefined)[] = [];
    const api = { enableCompileCache: (d?: string) => (calls.push(d), { status: 1, directory: d }) };
    const root = fresh();
    expect(enableCompileCache({ TOOLSEARCH_CACHE_DIR: root }, api)).toBe(join(root, 'compiled'));
    expect(statSync(join(root, 'compiled')).mode & 0o777).toBe(0o700);
    expect(readFileSync(join(root, 'CACHEDIR.TAG'), 'latin1')).toMatch(/^Signature: 8a477f597d28d172789f06886806bc55/);
    expect(calls).toEqual([join(root, 'compiled')]);

    const open = fresh();
    mkdirSync(open, { mode: 0o777 });
    chmodSync(open, 0o777);
    expect(enableCompileCache({ TOOLSEARCH_CACHE_DIR: open }, api)).toBeNull();
    expect(readdirSync(open)).toEqual([]); // nothing made inside it
    chmodSync(join(root, 'compiled'), 0o777);
    expect(enableCompileCache({ TOOLSEARCH_CACHE_DIR: root }, api)).toBeNull();
    expect(calls).toHaveLength(1);
  });

  it('enableCompileCache: nothing on a Node without a compile cache, with the cache off, or when Node throws', () => {
    const root = fresh();
    expect(enableCompileCache({ TOOLSEARCH_CACHE_DIR: root }, {})).toBeNull();
    const api = { enableCompileCache: () => ({ status: 1 }) };
    expect(enableCompileCache({ TOOLSEARCH_CACHE_DIR: root, TOOLSEARCH_CACHE: '0' }, api)).toBeNull();
    const throwing = {
      enableCompileCache: () => {
        throw new Error('no');
      },
    };
    expect(enableCompileCache({ TOOLSEARCH_CACHE_DIR: root }, throwing)).toBeNull();
  });
});

// Issue 14, finding 7: a damaged code cache crashed every later run (SIGSEGV). The CLI now keeps no
// code cache of its own; Node's compile cache checks a checksum of each entry before V8 sees it.
describe.runIf(hasCompileCache)('Node compile cache (this Node has one)', SPAWNS, () => {
  const args = ['search', '-c', DEMO, '--explain', 'create', 'issue'];

  it('is written on the first run; a damaged or truncated entry is compiled again: exit 0, same output', async () => {
    const cacheDir = fresh();
    const env = { TOOLSEARCH_CACHE_DIR: cacheDir };
    const first = await run(args, { env });
    expect(first.code).toBe(0);
    const entries = filesUnder(join(cacheDir, 'compiled'));
    expect(entries.length).toBeGreaterThan(0);
    for (const [i, f] of entries.entries()) {
      const bytes = readFileSync(f);
      if (i % 2 === 0) {
        // one byte flipped in the header, the middle and the end
        for (const at of [20, bytes.length >> 1, bytes.length - 3])
          if (at >= 0 && at < bytes.length) bytes[at]! ^= 0xff;
        writeFileSync(f, bytes);
      } else writeFileSync(f, bytes.subarray(0, bytes.length >> 1));
    }
    for (let i = 0; i < 3; i++) expect(await run(args, { env })).toEqual(first);
  });

  it('is neither read nor written with TOOLSEARCH_CACHE=off; --no-cache leaves it on (catalogs only)', async () => {
    const off = fresh();
    expect((await run(args, { env: { TOOLSEARCH_CACHE_DIR: off, TOOLSEARCH_CACHE: 'off' } })).code).toBe(0);
    expect(filesUnder(off)).toEqual([]);
    const noCache = fresh();
    expect((await run([...args, '--no-cache'], { env: { TOOLSEARCH_CACHE_DIR: noCache } })).code).toBe(0);
    const files = filesUnder(noCache).map((f) => f.slice(noCache.length + 1));
    expect(files.some((f) => f.startsWith('compiled/'))).toBe(true);
    expect(files.some((f) => f.startsWith('catalog-'))).toBe(false);
  });
});
