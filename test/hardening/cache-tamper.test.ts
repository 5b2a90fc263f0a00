/**
 * Issue 14, finding 17: a catalog-cache entry is trusted only through its
 * checksum and the checks a parse makes (src/cli/catalog-cache.ts); no
 * home means no cache, not one in the working directory
 * (src/io/cache-dir.ts); a UTF-16 file is named as such
 * (src/io/read.ts). Through the built CLI (`npm run build` first).
 *
 * The entries are tampered the way someone who can write the cache could:
 * the JSON edited and its checksum made again — so what is tested is the
 * decoder's own checks, not only the checksum. On c63dd70: exit 70 (stack overflow) for the deep
 * entry, duplicate and empty names taken as they were, `./.cache/toolsearch`
 * created under `HOME=`, and `invalid UTF-8: byte 0xff` for UTF-16.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checksum, decodeEntry, encodeEntry } from '../../src/cli/catalog-cache.js';
import { spawnCli, tempDir } from './helpers.js';

const tmp = tempDir('toolsearch-tamper-');
afterAll(() => tmp.cleanup());
let n = 0;

const CATALOG =
  'tools:\n  - name: alpha_tool\n    description: reads alpha files\n' +
  '    parameters: {type: object}\n  - name: beta_tool\n    description: writes beta files\n';

/** A catalog file and a cache directory holding its entry (after one search). */
async function cached(): Promise<{ catalog: string; cacheDir: string; entry: string; args: string[] }> {
  const dir = join(tmp.dir, `t${n++}`);
  mkdirSync(dir);
  const catalog = join(dir, 'c.yaml');
  writeFileSync(catalog, CATALOG);
  const cacheDir = join(dir, 'cache');
  const args = ['search', '-c', catalog, 'alpha', '--json'];
  const first = await spawnCli(args, { env: { TOOLSEARCH_CACHE_DIR: cacheDir } });
  expect(first.code, first.stderr).toBe(0);
  const [name] = readdirSync(cacheDir).filter((f) => f.startsWith('catalog-'));
  return { catalog, cacheDir, entry: join(cacheDir, name!), args };
}

/** Rewrites the entry's stored result with `edit`, its checksum made again (as the cache writes it). */
function tamper(entry: string, edit: (result: { tools: Array<Record<string, unknown>> }) => void): void {
  const e = JSON.parse(readFileSync(entry, 'utf8'));
  edit(e.result);
  // DEEP in a value stands for JSON nested 200,000 levels (JSON.stringify itself would overflow the stack).
  const body = Buffer.from(
    `"v":${JSON.stringify(e.v)},"settings":${JSON.stringify(e.settings)},"result":${JSON.stringify(e.result)}`.replace(
      '"DEEP"',
      `${'['.repeat(200_000)}${']'.repeat(200_000)}`,
    ),
  );
  writeFileSync(
    entry,
    Buffer.concat([
      Buffer.from(`{"sum":"${checksum(body)}",`),
      body,
      Buffer.from(`,"text":${JSON.stringify(e.text)}}`),
    ]),
    { mode: 0o600 },
  );
}

describe.concurrent('finding 17: tampered catalog-cache entries', () => {
  it.each([
    [
      'parameters nested 200,000 levels',
      (r: { tools: Array<Record<string, unknown>> }) => {
        r.tools[0]!.parameters = 'DEEP';
      },
    ],
    [
      'a tool stored as a list (an older entry shape)',
      (r: { tools: unknown[] }) => {
        r.tools[0] = ['alpha_tool', 'reads alpha files', 0, 2, 5];
      },
    ],
    // (The CLI already parsed again on a name defined twice in a hit: a control here; the decoder test above is the
    // regression.)
    [
      'a name defined twice',
      (r: { tools: Array<Record<string, unknown>> }) => {
        r.tools[1]!.name = r.tools[0]!.name;
      },
    ],
    [
      'an empty name',
      (r: { tools: Array<Record<string, unknown>> }) => {
        r.tools[0]!.name = '';
      },
    ],
  ])(
    '%s: the entry is not taken; the catalog is parsed again (same output) and the entry rebuilt',
    async (_label, edit) => {
      const c = await cached();
      const expected = await spawnCli([...c.args, '--no-cache']);
      tamper(c.entry, edit);
      const r = await spawnCli(c.args, { env: { TOOLSEARCH_CACHE_DIR: c.cacheDir } });
      expect(r).toEqual(expected);
      expect(r.code).toBe(0);
      // Rebuilt: the next run reads an intact entry (and answers the same).
      expect(readFileSync(c.entry, 'utf8')).not.toContain('[[[[');
      expect(JSON.parse(readFileSync(c.entry, 'utf8')).result.tools.map((t: { name: string }) => t.name)).toEqual([
        'alpha_tool',
        'beta_tool',
      ]);
      expect(await spawnCli(c.args, { env: { TOOLSEARCH_CACHE_DIR: c.cacheDir } })).toEqual(expected);
    },
  );

  it('a flipped byte in the stored result: not taken, and rewritten', async () => {
    const c = await cached();
    const expected = await spawnCli([...c.args, '--no-cache']);
    const data = readFileSync(c.entry);
    data[data.indexOf('reads alpha')] = 'R'.charCodeAt(0);
    writeFileSync(c.entry, data);
    const r = await spawnCli(c.args, { env: { TOOLSEARCH_CACHE_DIR: c.cacheDir } });
    expect(r).toEqual(expected);
    // Written again, whole: the damage is gone.
    const rewritten = readFileSync(c.entry, 'utf8');
    expect(rewritten).not.toContain('Reads alpha');
    expect(JSON.parse(rewritten).result.tools[0].description).toBe('reads alpha files');
  });
});

describe('finding 17: the decoder refuses what a parse refuses (even with its checksum made again)', () => {
  const file = 'c.yaml';
  const tool = (name: string, parameters?: unknown) => ({
    name,
    description: 'd',
    static: false,
    source: { file, line: 2, column: 5 },
    ...(parameters === undefined ? {} : { parameters }),
  });
  const entry = (tools: ReturnType<typeof tool>[]) =>
    encodeEntry({ tools: tools as never, format: 'toolsearch', warnings: [] }, CATALOG, 's')!;
  it.each([
    ['a name defined twice', [tool('a'), tool('a')]],
    ['an empty name', [tool('')]],
    ['a lone surrogate in a name (the loaders replace it)', [tool('a\ud800')]],
    ['parameters nested deeper than maxDepth', [tool('a', JSON.parse(`${'['.repeat(1001)}${']'.repeat(1001)}`))]],
  ])('%s', (_label, tools) => {
    expect(decodeEntry(entry(tools), file, CATALOG, 's', 1000)).toBeUndefined();
  });
  it('control: the same entry with distinct, non-empty names and shallow parameters is taken', () => {
    expect(
      decodeEntry(entry([tool('a', [[1]]), tool('b')]), file, CATALOG, 's', 1000)?.tools.map((t) => t.name),
    ).toEqual(['a', 'b']);
  });
});

describe.concurrent('finding 17: no home, no cache', () => {
  it('HOME= (empty): no ./.cache in the working directory; --verbose says why', async () => {
    const cwd = join(tmp.dir, `home${n++}`);
    mkdirSync(cwd);
    const env = { HOME: '', XDG_CACHE_HOME: undefined, TOOLSEARCH_CACHE_DIR: undefined };
    const r = await spawnCli(['search', '-c', join(process.cwd(), 'fixtures/catalogs/demo.mcp.json'), 'slack'], {
      cwd,
      env,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(readdirSync(cwd)).toEqual([]);
    const v = await spawnCli(
      ['--verbose', 'search', '-c', join(process.cwd(), 'fixtures/catalogs/demo.mcp.json'), 'slack'],
      { cwd, env },
    );
    expect(v.code).toBe(0);
    expect(v.stderr).toBe('note: no cache: HOME is empty or relative (set TOOLSEARCH_CACHE_DIR to use one)\n');
    expect(existsSync(join(cwd, '.cache'))).toBe(false);
  });

  it('a relative XDG_CACHE_HOME is ignored (XDG spec), the home is used instead', async () => {
    const cwd = join(tmp.dir, `xdg${n++}`);
    const home = join(tmp.dir, `h${n++}`);
    mkdirSync(cwd);
    mkdirSync(home, { mode: 0o700 });
    const r = await spawnCli(['search', '-c', join(process.cwd(), 'fixtures/catalogs/demo.mcp.json'), 'slack'], {
      cwd,
      env: { HOME: home, XDG_CACHE_HOME: 'rel', TOOLSEARCH_CACHE_DIR: undefined },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(cwd)).toEqual([]);
    expect(readdirSync(join(home, '.cache', 'toolsearch')).some((f) => f.startsWith('catalog-'))).toBe(true);
  });
});

describe.concurrent('finding 17: UTF-16 files', () => {
  it.each([
    ['little-endian', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(CATALOG, 'utf16le')])],
    ['big-endian', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(CATALOG, 'utf16le').swap16()])],
  ])(
    'a UTF-16 %s catalog with its byte-order mark: "UTF-16 is not supported; save as UTF-8", exit 2',
    async (order, bytes) => {
      const file = join(tmp.dir, `u16-${order}.yaml`);
      writeFileSync(file, bytes);
      const r = await spawnCli(['search', '-c', file, 'alpha', '--no-cache']);
      expect(r).toEqual({
        code: 2,
        signal: null,
        stdout: '',
        stderr:
          `error: ${file}: UTF-16 is not supported; save as UTF-8 (the file ` +
          `starts with a UTF-16 ${order} byte-order mark)\n`,
      });
    },
  );
});
