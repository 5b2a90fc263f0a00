/** simulate on real recordings (issue 12): exit codes of the nothing-silent rules, --lenient, stdin for catalogs. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'vitest';
import { lines, run } from './helpers.js';

const DEMO = 'fixtures/catalogs/demo.yaml';
const T = 'fixtures/transcripts';

describe.concurrent('simulate: recordings', () => {
  it('a recording with keys no rule reads exits 2 at the first; --lenient replays it and counts them', async ({
    expect,
  }) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsearch-rec-'));
    const file = path.join(dir, 'x.json');
    fs.writeFileSync(file, '[{"role":"user","blob":{"x":1}},{"role":"assistant","blob":{"tool":"y"}}]');
    const [strict, lenient] = await Promise.all([
      run(['simulate', '--no-tokens', '-c', DEMO, file]),
      run(['simulate', '--no-tokens', '-c', DEMO, file, '--lenient', '--json']),
    ]);
    fs.rmSync(dir, { recursive: true });
    expect(strict.code).toBe(2);
    expect(strict.stdout).toBe('');
    expect(lines(strict.stderr)[0]).toMatch(
      new RegExp(
        String.raw`^error: .*x\.json:1:17: unknown key "blob" in an Eino message \(no rule reads it; .*` +
          String.raw`\(and 1 more; --lenient replays the rest and counts them\)$`,
      ),
    );
    expect(lenient.code).toBe(0);
    expect(JSON.parse(lenient.stdout).coverage.unexplained).toHaveLength(2);
    expect(lines(lenient.stderr)).toHaveLength(2);
  });

  it(
    'a Claude Code log: ToolSearch and its tool_reference results, --sidechains gives one report per ' + 'conversation',
    async ({ expect }) => {
      const file = `${T}/toolsearch-references.claude-code.jsonl`;
      const [dflt, side] = await Promise.all([
        run(['simulate', '--no-tokens', '-c', DEMO, file, '--fail-on-violation']),
        run(['simulate', '--no-tokens', '-c', DEMO, file, '--sidechains', '--mode', 'native', '--json']),
      ]);
      expect(dflt.code).toBe(1);
      expect(lines(dflt.stderr)).toEqual([
        'fail: 2 violations (--fail-on-violation)',
        '  call 2: not-loaded: mcp__linear__create_issue was called before ' +
          'any tool_search result named it (not visible at call 2)',
        '  call 3: unknown: Task exists nowhere: not a static tool, not a dynamic tool, not tool_search',
      ]);
      expect(dflt.stdout).toContain('! reference-result: the search result is tool_reference blocks');
      const reports = JSON.parse(side.stdout) as Array<{ coverage: { conversation: string } }>;
      expect(reports.map((r) => r.coverage.conversation)).toEqual(['main', 'a7c1e9f0']);
    },
  );

  it('a recording with no model call exits 2', async ({ expect }) => {
    const r = await run([
      'simulate',
      '--no-tokens',
      '-c',
      DEMO,
      `${T}/../formats/transcripts/unknown-role.json`,
      '--format',
      'openai',
    ]);
    expect(r.code).toBe(2);
  });

  it('-c - reads the catalog from standard input, <stdin> in errors', async ({ expect }) => {
    const yaml = fs.readFileSync(DEMO, 'utf8');
    const [ok, bad] = await Promise.all([
      run(['search', '-c', '-', 'slack send', '--json'], { input: yaml }),
      run(['search', '-c', '-', 'x'], { input: '{"tools": [' }),
    ]);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout).matches[0]).toBe('mcp__slack__send_message');
    expect(bad.code).toBe(2);
    expect(lines(bad.stderr)[0]).toBe('error: <stdin>:1:12: invalid JSON: unexpected end of input');
  });
});

describe('simulate: one recording on standard input', () => {
  it('simulate - --jsonl-input recording reads one recording from stdin, <stdin> in its report', async ({ expect }) => {
    const text = fs.readFileSync(`${T}/stream-json.claude-code.jsonl`, 'utf8');
    const r = await run(['simulate', '-', '--jsonl-input', 'recording', '-c', DEMO, '--no-tokens', '--json'], {
      input: text,
    });
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect([j.transcript.file, j.coverage.format, j.summary.calls]).toEqual(['<stdin>', 'claude-code', 3]);
  });
});
