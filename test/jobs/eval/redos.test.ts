/**
 * Issue 14, finding 6: eval's regex scorer (on by default) ran `(a|a)*b`
 * against a 34-character description at 100% CPU past 120 s. Through the
 * built CLI (`npm run build` first): it finishes, and a pattern RE2 rejects
 * is a counted invalid pattern, not a crash. The test timeout is the hang guard.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { spawnCli, tempDir } from '../../hardening/helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

describe('eval regex scorer on hostile patterns', () => {
  it('(a|a)*b against 34 a: finishes; (?<=x)y is an invalid pattern', { timeout: 20_000 }, async () => {
    const catalog = tmp.file(
      'c.json',
      JSON.stringify({
        tools: [
          { name: 'x', description: 'a'.repeat(34) },
          { name: 'create_issue', description: 'Create an issue' },
        ],
      }),
    );
    const queries = tmp.file(
      'q.jsonl',
      [
        '{"query":"(a|a)*b","relevant":["x"]}',
        '{"query":"(?<=x)y","relevant":["x"]}',
        '{"query":"create issue","relevant":["create_issue"]}',
        '',
      ].join('\n'),
    );
    const json = await spawnCli(['eval', '-c', catalog, queries, '--json']);
    expect(json.stderr).toBe('');
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout) as { scorers: Array<{ name: string; invalid: unknown[] }> };
    expect(report.scorers.map((s) => [s.name, s.invalid])).toEqual([
      ['spec', []],
      ['fuse', []],
      ['bm25', []],
      ['regex', [{ line: 2, query: '(?<=x)y', reason: 'error parsing regexp: invalid named capture: `(?<=x)y`' }]],
    ]);
    const text = await spawnCli(['eval', '-c', catalog, queries, '--scorers', 'regex']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(
      'regex: 1 invalid pattern (no result):\n' +
        '  line 2  "(?<=x)y": error parsing regexp: invalid named capture: `(?<=x)y`\n',
    );
  });
});
