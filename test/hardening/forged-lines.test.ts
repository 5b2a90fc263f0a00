/**
 * Issue 14, finding 14: a value quoted in a one-line message (a case name,
 * a `--static` name, a key) cannot start a line of its own. Both ways in
 * that the review found, through the built CLI (`npm run build` first).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { quote } from '../../src/io/errors.js';
import { DEMO, spawnCli, tempDir } from './helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

describe('forged lines in error messages', () => {
  it('a case name with a line feed is shown escaped, on the one error line', async () => {
    const suite = tmp.file(
      'forged.yaml',
      `catalog: ${JSON.stringify(DEMO)}\ncases:\n  - name: "x\\nerror: forged line"\n    query: create issue\n`,
    );
    const r = await spawnCli(['test', suite]);
    expect(r.code).toBe(2);
    // No suite could run: the human report is left out, stderr says why (below).
    expect(r.stdout).toBe('');
    // A machine report still names the invalid suite, the name escaped on its one line.
    const tap = await spawnCli(['test', suite, '--reporter', 'tap']);
    expect(tap.code).toBe(2);
    expect(tap.stdout).toContain('message: "case \\"x\\\\nerror: forged line\\" checks nothing');
    expect(tap.stdout.split('\n').some((l) => l.startsWith('error: forged'))).toBe(false);
    expect(r.stderr.split('\n')).toEqual([
      `error: ${suite}:3:5: case "x\\nerror: forged line" checks nothing: add includes, ` +
        `excludes, exact, first, rank_at_most, none or error (or record: true)`,
      '    - name: "x\\nerror: forged line"',
      '      ^',
      '',
    ]);
  });

  it('a tool name quoted inside a case message is escaped too', async () => {
    const suite = tmp.file(
      'forged-first.yaml',
      `catalog: ${JSON.stringify(DEMO)}\ncases:\n  - name: a\n    ` +
        `query: create issue\n    first: "y\\nerror: forged"\n`,
    );
    const r = await spawnCli(['test', suite]);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      `error: ${suite}:5:12: case "a": "y\\nerror: forged" is not a tool of the catalog`,
    );
    expect(r.stderr.split('\n').filter((l) => l.startsWith('error:'))).toHaveLength(1);
  });

  it('--static with a line feed: one line, the value quoted and escaped', async () => {
    const r = await spawnCli([
      'simulate',
      'fixtures/transcripts/deferred-tool-called-too-early.json',
      '-c',
      DEMO,
      '--static',
      'x\nerror: forged',
    ]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('error: --static names a tool that is not in the catalog: "x\\nerror: forged"\n');
  });

  it('quote() escapes every control and keeps other text as it is', () => {
    expect(quote('plain name')).toBe('"plain name"');
    expect(quote('a\nb\r\tc\u001b[31m\u202e')).toBe('"a\\nb\\r\\tc\\x1b[31m\\u202e"');
  });
});
