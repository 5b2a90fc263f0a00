/**
 * Process behaviour of the built CLI (`npm run build` first): a closed
 * output pipe ends quietly, SIGINT and SIGTERM end cleanly, input files are
 * never written, and output files (`test --output`, `test --update`,
 * `import -o`) are written atomically — a temporary file in the same
 * directory renamed over the target (`src/io/atomic.ts`,
 * `src/formats/mcp/catalog-file.ts`) — so a failing or interrupted run leaves the
 * target as it was.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeEval, serverCommand } from '../formats/mcp/helpers.js';
import { BIN, expectCleanError, HOSTILE, ROOT, shell, spawnCli, STACK, tempDir } from './helpers.js';

// The demo catalog as JSON: the same tools, read faster than the YAML (these tests start many processes).
/** An earlier JUnit report of ours: an output replaces it without --force (issue 27). */
const OLD_JUNIT = '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="toolsearch" tests="0"></testsuites>\n';
const DEMO = join(ROOT, 'fixtures/catalogs/demo.mcp.json');

const tmp = tempDir();
afterAll(() => tmp.cleanup());

/** sha256 of every file under `dir`, by relative path. */
function hashes(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string): void => {
    for (const n of readdirSync(d).sort()) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else
        out.set(
          relative(dir, p),
          `${createHash('sha256').update(readFileSync(p)).digest('hex')}:${statSync(p).mtimeMs}`,
        );
    }
  };
  walk(dir);
  return out;
}

describe.concurrent('a closed output pipe ends quietly', () => {
  const big = (): string => {
    const lines = Array.from({ length: 5_000 }, (_, i) => JSON.stringify({ query: `create issue ${i}` }));
    return tmp.file('many.jsonl', `${lines.join('\n')}\n`);
  };

  it.each([
    ['search --batch (5,000 lines, 500 kB out)', (): string => `$TS search -c ${DEMO} --batch ${big()}`],
    ['search --explain (human)', (): string => `$TS search -c ${DEMO} -n 130 --explain create issue file message`],
    ['lint', (): string => `$TS lint fixtures/lint/problems.yaml --all`],
    [
      'simulate',
      (): string => `$TS simulate fixtures/transcripts/keyword-search-then-call.json -c ${DEMO} --no-tokens`,
    ],
  ])('%s | head -1: exit 0, one line, nothing on stderr', async (_label, command) => {
    const r = await shell(`${command()} | head -1; echo "exit=\${PIPESTATUS[0]}" >&2`);
    expect(r.stdout.split('\n').filter((l) => l !== '')).toHaveLength(1);
    expect(r.stderr).toBe('exit=0\n');
  });
});

describe.concurrent('SIGINT and SIGTERM end cleanly', () => {
  /** Spawns the CLI, waits for `ready` to hold for its stdout, sends `signal`, resolves when it has ended. */
  function interrupt(
    args: readonly string[],
    signal: NodeJS.Signals,
    ready: (out: string) => boolean,
    feed?: string,
  ): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, ...args], {
        cwd: ROOT,
        env: { ...process.env, NO_COLOR: '1' },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      let sent = false;
      const send = (): void => {
        if (!sent) {
          sent = true;
          child.kill(signal);
        }
      };
      child.stdout.on('data', (b: Buffer) => {
        out += b.toString();
        if (ready(out)) send();
      });
      child.stderr.on('data', (b: Buffer) => (err += b.toString()));
      child.on('error', reject);
      child.on('close', (code, sig) => resolve({ code, signal: sig, stdout: out, stderr: err }));
      child.stdin.on('error', () => {});
      if (feed !== undefined) child.stdin.write(feed); // stdin stays open: the batch waits for more
      if (ready('')) setTimeout(send, 400);
    });
  }

  it.each(['SIGINT', 'SIGTERM'] as const)(
    'search --batch - waiting on stdin, %s after the first answer',
    async (signal) => {
      const r = await interrupt(
        ['search', '-c', DEMO, '--batch', '-'],
        signal,
        (out) => out.includes('\n'),
        '{"query":"create issue"}\n',
      );
      expect(r.stdout).toMatch(/^\{"schema_version":1,"matches":\["mcp__atlassian__createJiraIssue"/);
      expect(r.signal ?? r.code).toSatisfy((v: unknown) => v === signal || v === (signal === 'SIGINT' ? 130 : 143));
      expect(r.stderr).toBe('');
    },
  );

  it.each(['SIGINT', 'SIGTERM'] as const)('simulate of a long transcript, %s while it runs', async (signal) => {
    const lines = Array.from({ length: 60_000 }, (_, i) =>
      JSON.stringify(i % 2 ? { role: 'assistant', content: `a${i}` } : { role: 'user', content: `u${i}` }),
    );
    const file = tmp.file(`long-${signal}.jsonl`, lines.join('\n'));
    const r = await interrupt(['simulate', file, '-c', DEMO, '--no-tokens'], signal, () => true);
    expect(STACK.test(r.stderr)).toBe(false);
    expect(r.stderr).toBe('');
    // Ended by the signal, or (a fast machine) finished before it came.
    expect([signal, 0, signal === 'SIGINT' ? 130 : 143]).toContain(r.signal ?? r.code);
  });
});

describe('input files are never written', () => {
  // The input fixtures (fixtures/bench holds benchmark output, written by `npm run bench`).
  const inputs = (): Array<Map<string, string>> =>
    ['catalogs', 'transcripts', 'suites', 'eval', 'hostile', 'lint', 'formats'].map((d) =>
      hashes(join(ROOT, 'fixtures', d)),
    );

  it('every command over the fixtures leaves every fixture as it was (content and mtime)', async () => {
    const before = inputs();
    const runs = [
      [
        'search',
        '-c',
        'fixtures/catalogs/demo.mcp.json',
        '--prefix',
        'x',
        '--batch',
        'fixtures/eval/demo-queries.jsonl',
      ],
      ['simulate', 'fixtures/transcripts/keyword-search-then-call.anthropic.json', '--replay'],
      ['lint', 'fixtures/catalogs/demo.eino.json', '--json'],
      ['test', 'fixtures/suites/', '--reporter', 'junit'],
      ['eval', join(HOSTILE, 'escapes.queries.jsonl'), '-c', join(HOSTILE, 'escapes.catalog.json')],
      ['test', join(HOSTILE, 'escapes.suite.yaml')],
    ];
    const results = await Promise.all(runs.map((argv) => spawnCli(argv)));
    for (const r of results) expect([0, 1, 2], r.stderr).toContain(r.code);
    expect(inputs()).toEqual(before);
  }, 120_000);
});

describe('output files are written atomically', () => {
  let dir: string;
  let suite: string;
  let passing: string;
  let invalid: string;

  beforeAll(() => {
    dir = join(tmp.dir, 'suites');
    mkdirSync(dir);
    cpSync(join(ROOT, 'fixtures/catalogs/demo.yaml'), join(tmp.dir, 'demo.yaml'));
    suite = join(dir, 'record.yaml');
    writeFileSync(
      suite,
      `catalog: ../demo.yaml\ncases:\n  - name: recorded\n    query: create issue\n    record: true\n`,
    );
    passing = join(dir, 'passing.yaml');
    writeFileSync(
      passing,
      `catalog: ../demo.yaml\ncases:\n  - name: passes\n` +
        `    query: create issue\n    includes: [mcp__github__create_issue]\n`,
    );
    invalid = join(dir, 'invalid.yaml');
    writeFileSync(invalid, `catalog: ../demo.yaml\ncases:\n  - name: bad\n    query: create issue\n    exactt: []\n`);
  });

  const leftovers = (d: string): string[] => readdirSync(d).filter((n) => n.endsWith('.tmp'));

  it('test --output replaces the file by a rename (a new inode), never in place', async () => {
    const out = join(tmp.dir, 'report.xml');
    writeFileSync(out, OLD_JUNIT);
    const ino = statSync(out).ino;
    const r = await spawnCli(['test', passing, '--reporter', 'junit', '--output', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toMatch(/^<\?xml/);
    expect(statSync(out).ino).not.toBe(ino);
    expect(leftovers(tmp.dir)).toEqual([]);
  });

  it(
    'an invalid suite replaces the old report (atomically) with one that says why, never a stale or partial ' + 'one',
    async () => {
      const out = join(tmp.dir, 'kept.xml');
      writeFileSync(out, OLD_JUNIT);
      const r = await spawnCli(['test', invalid, '--reporter', 'junit', '--output', out]);
      expectCleanError(r, invalid);
      const xml = readFileSync(out, 'utf8');
      expect(
        xml.startsWith(
          '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="toolsearch" tests="1" failures="0" errors="1"',
        ),
      ).toBe(true);
      expect(xml).toContain('<error message="');
      expect(leftovers(tmp.dir)).toEqual([]);
    },
  );

  it('a target that cannot be written: a clean error, no temporary file left', async () => {
    const asDir = join(tmp.dir, 'is-a-dir.xml');
    mkdirSync(asDir);
    const r = await spawnCli(['test', passing, '--reporter', 'junit', '--output', asDir]);
    expect(expectCleanError(r)).toBe(`error: ${asDir}: cannot write file: it is a directory`);
    expect(leftovers(tmp.dir)).toEqual([]);
    // A missing directory is made (issue 13: `--output reports/junit.xml` in a fresh checkout).
    const missing = join(tmp.dir, 'no-such-dir', 'r.xml');
    const made = await spawnCli(['test', passing, '--output', missing]);
    expect(made.code, made.stderr).toBe(0);
    expect(readFileSync(missing, 'utf8')).toMatch(/passed/);
    expect(leftovers(join(tmp.dir, 'no-such-dir'))).toEqual([]);
  });

  it('test --update: an invalid suite is left as it was; a valid one is replaced by a rename', async () => {
    const before = readFileSync(invalid);
    expectCleanError(await spawnCli(['test', invalid, '--update']), invalid);
    expect(readFileSync(invalid)).toEqual(before);
    const ino = statSync(suite).ino;
    const r = await spawnCli(['test', suite, '--update']);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(suite, 'utf8')).toContain('exact:');
    expect(statSync(suite).ino).not.toBe(ino);
    expect(leftovers(dir)).toEqual([]);
  });

  it('killed at any moment, test --output leaves the old report or the new one, never a part', async () => {
    const out = join(tmp.dir, 'killed.json');
    const old = '{\n  "schema_version": 1,\n  "old": true\n}\n'; // an earlier report of ours
    for (const delay of [100, 300, 500, 800]) {
      writeFileSync(out, old);
      const child = spawn(
        process.execPath,
        [
          BIN,
          'test',
          'fixtures/suites/demo.yaml',
          'fixtures/suites/conversations.yaml',
          '--reporter',
          'json',
          '--output',
          out,
        ],
        { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, stdio: 'ignore' },
      );
      const closed = new Promise((r) => child.on('close', r));
      await new Promise((r) => setTimeout(r, delay));
      child.kill('SIGKILL');
      await closed;
      const text = readFileSync(out, 'utf8');
      if (text !== old) expect(() => JSON.parse(text)).not.toThrow();
    }
  }, 60_000);

  it('import -o: written by a rename; a server that fails or is interrupted leaves the old file', async () => {
    const out = join(tmp.dir, 'catalog.yaml');
    writeFileSync(out, '# Generated by toolsearch import from live MCP servers:\nold: catalog\n');
    const ino = statSync(out).ino;
    const ok = await spawnCli(['import', '--mcp', serverCommand(), '--name', 'test', '-o', out]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('mcp__test__create_issue');
    expect(statSync(out).ino).not.toBe(ino);

    writeFileSync(out, '# Generated by toolsearch import from live MCP servers:\nold: catalog\n');
    const hang = nodeEval('setInterval(() => {}, 1000)');
    const failed = await spawnCli(['import', '--mcp', hang, '--timeout', '1', '-o', out]);
    expect(failed.code).toBe(2);
    expect(readFileSync(out, 'utf8')).toBe('# Generated by toolsearch import from live MCP servers:\nold: catalog\n');

    const child = spawn(process.execPath, [BIN, 'import', '--mcp', hang, '--timeout', '30', '-o', out], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const closed = new Promise((r) => child.on('close', r));
    let err = '';
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    await new Promise((r) => setTimeout(r, 800));
    child.kill('SIGINT');
    await closed;
    expect(STACK.test(err)).toBe(false);
    expect(readFileSync(out, 'utf8')).toBe('# Generated by toolsearch import from live MCP servers:\nold: catalog\n');
    expect(leftovers(tmp.dir)).toEqual([]);
    expect(existsSync(out)).toBe(true);
  }, 60_000);
});
