/**
 * Issue 27, finding 9: bulk inputs. Symbolic links to session files and directories are followed (each file once,
 * each directory entered once, a link that leads nowhere is a counted failure): before, they were skipped without
 * being counted. An existing path with glob characters (`run[1].json`) is that file: before, it was a pattern, and
 * also replayed `run1.json`. An empty `.jsonl`, empty standard input, or `simulate - -c -` is an error: before, 0
 * sessions and exit 0, even with `--fail-on-violation`.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expandSessionPaths } from '../../src/formats/sessions.js';
import { expandSuitePaths, globFiles } from '../../src/io/glob.js';
import { DEMO, expectCleanError, shell, spawnCli, tempDir } from './helpers.js';

const tmp = tempDir('toolsearch-bulk-inputs-');
afterAll(() => tmp.cleanup());
let n = 0;

function dir(): string {
  const d = join(tmp.dir, `d${n++}`);
  mkdirSync(d);
  return d;
}

/** A session whose user says `text` (so that sessions differ). */
const session = (text: string) =>
  JSON.stringify([
    { role: 'user', content: text },
    { role: 'assistant', content: 'ok' },
  ]);

type Agg = { sessions: { replayed: number; failed: number }; failures: Array<{ error: string }> };

async function bulk(args: string[], stdin?: string): Promise<{ code: number | null; agg: Agg | null; stderr: string }> {
  const r = await spawnCli(['simulate', ...args, '-c', DEMO, '--no-tokens', '--json', '--jobs', '1'], {
    ...(stdin !== undefined ? { stdin } : {}),
  });
  return { code: r.code, agg: r.stdout === '' ? null : (JSON.parse(r.stdout) as Agg), stderr: r.stderr };
}

describe.concurrent('finding 9: symbolic links are followed, and counted', () => {
  it('links to a file and to a directory are replayed; a link that leads nowhere is a failed session', async () => {
    const root = dir();
    const d = join(root, 'sessions');
    mkdirSync(join(d, 'sub'), { recursive: true });
    mkdirSync(join(root, 'elsewhere'));
    writeFileSync(join(d, 'a.json'), session('a'));
    writeFileSync(join(d, 'sub', 'b.json'), session('b'));
    writeFileSync(join(root, 'outside.json'), session('c'));
    writeFileSync(join(root, 'elsewhere', 'd.json'), session('d'));
    symlinkSync('../outside.json', join(d, 'link.json'));
    symlinkSync('../elsewhere', join(d, 'linked-dir'));
    symlinkSync('../nowhere.json', join(d, 'broken.json'));
    // The same file twice (a link to a file already listed) and a loop: each once.
    symlinkSync('a.json', join(d, 'z-again.json'));
    symlinkSync('..', join(d, 'sub', 'up'));
    const want = ['a.json', 'broken.json', 'link.json', 'linked-dir/d.json', 'sub/b.json'].map((f) => join(d, f));
    expect(expandSessionPaths([d])).toEqual(want);
    expect(globFiles(`${d}/**/*.json`)).toEqual(want);
    for (const arg of [d, `${d}/**/*.json`]) {
      const r = await bulk([arg]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.agg?.sessions).toMatchObject({ replayed: 4, failed: 1 });
      expect(r.agg?.failures.map((f) => f.error)).toEqual([`${join(d, 'broken.json')}: no such file`]);
    }
  });

  it('suites and aggregate parts: links followed the same way', async () => {
    const d = dir();
    const elsewhere = dir();
    writeFileSync(
      join(elsewhere, 's.yaml'),
      `catalog: ${DEMO}\ncases:\n  - name: a\n    query: slack send\n    includes: [mcp__slack__send_message]\n`,
    );
    symlinkSync(join(elsewhere, 's.yaml'), join(d, 'linked.yaml'));
    expect(expandSuitePaths([d])).toEqual([join(d, 'linked.yaml')]);
    const t = await spawnCli(['test', d, '-r', 'json']);
    expect(t.code, t.stderr).toBe(0);
    const part = await spawnCli(['simulate', join(elsewhere, 's.yaml'), '-c', DEMO, '--jobs', '1', '--json']);
    expect(part.code).toBe(2); // a suite is not a session: one failed session, and its aggregate all the same
    writeFileSync(join(elsewhere, 'p.json'), part.stdout);
    const parts = dir();
    symlinkSync(join(elsewhere, 'p.json'), join(parts, 'p.json'));
    const a = await spawnCli(['aggregate', parts, '--json']);
    expect(a.code).toBe(2);
    expect(JSON.parse(a.stdout).sessions.failed).toBe(1);
  });

  it('links that fan out (two to the next directory, 40 levels down) end at once: each directory entered once', () => {
    const d = dir();
    let at = d;
    for (let i = 0; i < 40; i++) {
      const next = join(d, `level${i}`);
      mkdirSync(next);
      writeFileSync(join(next, `s${i}.json`), session(String(i)));
      symlinkSync(next, join(at, 'x'));
      symlinkSync(next, join(at, 'y'));
      at = next;
    }
    const start = performance.now();
    const files = expandSessionPaths([d]);
    expect(performance.now() - start).toBeLessThan(5000);
    expect(files).toHaveLength(40);
    expect(new Set(files).size).toBe(40);
  });
});

describe.concurrent('finding 9: an existing path is itself', () => {
  it('run[1].json is that file, not a pattern matching run1.json', async () => {
    const d = dir();
    writeFileSync(join(d, 'run[1].json'), session('bracket'));
    writeFileSync(join(d, 'run1.json'), session('plain'));
    writeFileSync(join(d, 'other.json'), session('other'));
    expect(expandSessionPaths([join(d, 'run[1].json')])).toEqual([join(d, 'run[1].json')]);
    const r = await bulk([join(d, 'run[1].json'), join(d, 'other.json')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.agg?.sessions.replayed).toBe(2);
    // One path: one recording's report, not bulk.
    const one = await spawnCli(['simulate', join(d, 'run[1].json'), '-c', DEMO, '--no-tokens', '--json']);
    expect(one.code, one.stderr).toBe(0);
    expect(JSON.parse(one.stdout).transcript.file).toBe(join(d, 'run[1].json'));
    // A pattern that names no existing file is still a pattern.
    const glob = await bulk([join(d, 'run?.json')]);
    expect(glob.agg?.sessions.replayed).toBe(1);
  });
});

describe.concurrent('finding 9: empty input is an error', () => {
  it.each([
    ['an empty .jsonl', ''],
    ['a .jsonl of blank lines', '\n  \r\n\t\n'],
    ['a byte-order mark and a line feed', '\uFEFF\n'],
  ])('%s (--jsonl-input sessions): exit 2, one failed session', async (_l, text) => {
    const d = dir();
    const f = join(d, 'sessions.jsonl');
    writeFileSync(f, text);
    for (const extra of [[], ['--fail-on-violation']]) {
      const r = await bulk([f, '--jsonl-input', 'sessions', ...extra]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.agg?.sessions).toMatchObject({ replayed: 0, failed: 1 });
      expect(r.agg?.failures[0]?.error).toBe(`${f}: no session: the file is empty`);
    }
  });

  it('empty standard input: exit 2', async () => {
    const r = await bulk(['-'], '');
    expect(r.code).toBe(2);
    expect(r.agg?.failures[0]?.error).toBe('<stdin>: no session: standard input is empty');
    const blank = await shell(`printf '\\n\\n' | $TS simulate - -c ${JSON.stringify(DEMO)} --no-tokens`);
    expect(blank.code).toBe(2);
    expect(blank.stderr).toContain('<stdin>: no session: standard input is empty');
  });

  it('simulate - -c -: a usage error before anything is read', async () => {
    const r = await shell(`cat ${JSON.stringify(DEMO)} | $TS simulate - -c -`);
    expect(expectCleanError(r)).toBe(
      'error: standard input (-) is given twice, for the sessions and for the catalog (-c -): ' +
        'give one of them as a file',
    );
  });
});
