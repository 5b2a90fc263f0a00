/**
 * Regression tests for what the fuzzer (`npm run fuzz`) and these tests
 * found, each reproduced in process with the input that showed it. (Bounds
 * fixes — the `--batch` line buffer, YAML nesting before parsing, tag
 * positions, 20 MB argument strings — are in `bounds.test.ts`.)
 */
import { describe, expect, it } from 'vitest';
import { clipLines, MAX_MESSAGE_LINE } from '../../src/io/escape.js';
import { loadTokenizer, MAX_COUNTED_RUN } from '../../src/jobs/tokens/tokenizer.js';
import { DEMO, expectTerminalSafe, inproc, tempDir } from './helpers.js';

const tmp = tempDir('toolsearch-regressions-');
const LONG = 'long words '.repeat(27_273); // 300,000 characters, as the fuzzer's longLine mutator writes
const X = 'x'.repeat(100_000);

function longestLine(text: string): number {
  return Math.max(0, ...text.split('\n').map((l) => l.length));
}

describe('very long text is cut in errors, warnings, failure details and human output (fuzz seeds 3, 4, 5)', () => {
  it('seed 4 #32: an error quoting a 100,000-character relevant tool', async () => {
    const q = tmp.file('q.jsonl', `${JSON.stringify({ query: 'create issue', relevant: [X] })}\n`);
    const r = await inproc(['eval', q, '-c', DEMO]);
    expect(r.code).toBe(2);
    expect(longestLine(r.stderr)).toBeLessThanOrEqual(MAX_MESSAGE_LINE + 'error: '.length);
    expect(r.stderr.split('\n')[0]).toMatch(
      /^error: .*q\.jsonl:1:\d+: relevant tool "x+…x+" is not a tool of the catalog/,
    );
  });

  it('seed 4 #429: a warning quoting a 300,000-character call id', async () => {
    const t = tmp.file(
      't.json',
      JSON.stringify([
        { role: 'user', content: 'x' },
        { role: 'tool', tool_call_id: LONG, content: 'r' },
        { role: 'assistant', content: 'ok' },
      ]),
    );
    const r = await inproc(['simulate', t, '-c', DEMO, '--format', 'openai', '--lenient']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^warning: .*tool result for unknown call id "long words .*….* long words "\n$/);
    expect(longestLine(r.stderr)).toBeLessThanOrEqual(MAX_MESSAGE_LINE + 'warning: '.length);
  });

  it('seed 5 #322: lint of a catalog with a 300,000-character name and description', async () => {
    const c = tmp.file(
      'c.json',
      JSON.stringify({
        tools: [
          { name: `a_${X}`, description: LONG },
          { name: 'b', description: 'create issue' },
        ],
      }),
    );
    for (const argv of [
      ['lint', c, '--all'],
      ['search', '-c', c, '--explain', '--', 'long', 'words', 'x'],
      ['select', '-c', c, `a_${X}`, 'b'],
    ]) {
      const r = await inproc(argv);
      expect(r.code, r.stderr).toBe(0);
      expectTerminalSafe(r.stdout);
      expect(longestLine(r.stdout)).toBeLessThanOrEqual(MAX_MESSAGE_LINE);
    }
    // --json keeps it whole.
    const j = await inproc(['select', '-c', c, '--json', `a_${X}`]);
    expect(JSON.parse(j.stdout)).toEqual({
      schema_version: 1,
      engine: 'eino',
      matches: [`a_${X}`],
      unknown: [],
    });
  });

  it('seed 5 #351: --fail-on-violation details naming a 300,000-character tool', async () => {
    const t = tmp.file(
      'v.json',
      JSON.stringify([
        { role: 'user', content: 'x' },
        {
          role: 'assistant',
          content: '',
          tool_calls: [{ id: 'c1', type: 'function', function: { name: X, arguments: '{}' } }],
        },
      ]),
    );
    const r = await inproc(['simulate', t, '-c', DEMO, '--fail-on-violation']);
    expect(r.code).toBe(1);
    expect(longestLine(r.stdout)).toBeLessThanOrEqual(MAX_MESSAGE_LINE);
    expect(longestLine(r.stderr)).toBeLessThanOrEqual(MAX_MESSAGE_LINE);
    expect(r.stderr).toMatch(/^fail: 1 violation/);
  });

  it('seed 5 #1340: the human test report with a 300,000-character case name', async () => {
    const s = tmp.file(
      's.yaml',
      `catalog: ${DEMO}\ncases:\n  - name: ${JSON.stringify(LONG)}\n    query: ` +
        `create issue\n    includes: [mcp__github__create_issue]\n`,
    );
    const r = await inproc(['test', s]);
    expect(r.code, r.stderr).toBe(0);
    expect(longestLine(r.stdout)).toBeLessThanOrEqual(MAX_MESSAGE_LINE);
    expect(r.stdout).toContain('✓ long words long words');
  });

  it('clipLines keeps the start and the end, and never splits a surrogate pair or a color sequence', () => {
    expect(clipLines('short\nlines')).toBe('short\nlines');
    const cut = clipLines(`${'a'.repeat(2000)}END`, 100);
    expect(cut).toHaveLength(100);
    expect(cut.startsWith('a'.repeat(70))).toBe(true);
    expect(cut.endsWith('END')).toBe(true);
    // A pair at either cut point stays whole.
    for (let shift = 0; shift < 4; shift++) {
      const s = `${'b'.repeat(shift)}${'😀'.repeat(200)}`;
      expect(clipLines(s, 50)).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
    }
    // A color sequence at a cut point stays whole, and a reset follows the cut when one is dropped.
    const colored = `${'c'.repeat(68)}\u001b[31m${'r'.repeat(500)}\u001b[39m${'d'.repeat(100)}`;
    const c = clipLines(colored, 100);
    expect(c.replace(/\u001b\[[0-9;]*m/g, '')).not.toMatch(/\u001b/);
    expect(c).toContain('\u001b[0m…');
  });
});

describe('token counting of a 100,000-letter word is quick (fuzz seed 9 #1797: 20 s per run)', () => {
  it('counts in bounded time; ordinary text (compact JSON included) is counted as before', async () => {
    const tok = await loadTokenizer();
    const n = tok.count(`42 ${X}`);
    expect(n).toBeGreaterThan(100_000 / 20);
    const json = JSON.stringify({
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`field_${i}`, { type: 'string' }])),
    });
    expect(json.length).toBeGreaterThan(MAX_COUNTED_RUN * 5);
    const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
    expect(tok.count(json)).toBe(countTokens(json));
    expect(tok.count(LONG)).toBe(countTokens(LONG));
  });

  it('simulate over a catalog with such a name finishes quickly', async () => {
    const c = tmp.file('n.yaml', `tools:\n  - name: ok\n  - name: 42 ${X}\n    description: a numeric name\n`);
    const r = await inproc(['simulate', 'fixtures/transcripts/select-search.json', '-c', c, '--json']);
    expect(r.code, r.stderr).toBe(0);
    // A control character in --prefix is refused before anything loads (it used to reach tool names).
    const bad = await inproc([
      'simulate',
      'fixtures/transcripts/select-search.json',
      '-c',
      c,
      '--prefix',
      '\u001b[31m',
      '--json',
    ]);
    expect([bad.code, bad.stderr]).toEqual([
      2,
      'error: --prefix must be a server name without spaces or control characters, got "\\u001b[31m"\n',
    ]);
  });
});

describe('machine output stays intact yet never carries raw C1, DEL, separators or bidi controls', () => {
  const hostile = `a\u009b31m\u0085\u007f\u2028\u202e\u2066b\rc`;
  const UNSAFE_RAW = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

  it('--json of search, select and simulate (they used JSON.stringify as it is)', async () => {
    const c = tmp.file(
      'j.json',
      JSON.stringify({ tools: [{ name: `t${hostile}`, description: `create issue ${hostile}` }] }),
    );
    const search = await inproc(['search', '-c', c, '--json', 'create']);
    expect(search.stdout).not.toMatch(UNSAFE_RAW);
    expect(search.stdout).toContain('\\u009b31m\\u0085\\u007f\\u2028\\u202e\\u2066b\\rc');
    expect((JSON.parse(search.stdout) as { matches: string[] }).matches).toEqual([`t${hostile}`]);
    const select = await inproc(['select', '-c', c, '--json', `t${hostile}`]);
    expect(select.stdout).not.toMatch(UNSAFE_RAW);
    expect(JSON.parse(select.stdout)).toEqual({
      schema_version: 1,
      engine: 'eino',
      matches: [`t${hostile}`],
      unknown: [],
    });
    const t = tmp.file(
      'jt.json',
      JSON.stringify([
        { role: 'user', content: hostile },
        {
          role: 'assistant',
          content: '',
          tool_calls: [{ id: 'c', type: 'function', function: { name: `t${hostile}`, arguments: '{}' } }],
        },
      ]),
    );
    const sim = await inproc(['simulate', t, '-c', c, '--json']);
    expect(sim.stdout).not.toMatch(UNSAFE_RAW);
    expect(sim.stdout).toContain(
      JSON.stringify(`t${hostile}`).replace(
        /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
        (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
      ),
    );
  });

  it('--batch lines', async () => {
    const c = tmp.file('b.json', JSON.stringify({ tools: [{ name: `t${hostile}`, description: 'create issue' }] }));
    const r = await inproc(['search', '-c', c, '--batch', '-'], { stdin: '{"query":"create"}\n' });
    expect(r.stdout).not.toMatch(UNSAFE_RAW);
    expect(JSON.parse(r.stdout)).toEqual({ schema_version: 1, matches: [`t${hostile}`] });
  });

  it('JUnit: CR, C1 and bidi controls as character references (a raw CR would also read back as LF)', async () => {
    const { xmlAttr, xmlText } = await import('../../src/report/xml.js');
    expect(xmlText('a\rb\u009b\u202e<')).toBe('a&#xd;b&#x9b;&#x202e;&lt;');
    expect(xmlAttr('a\r\n\t\u2028')).toBe('a&#xd;&#10;&#9;&#x2028;');
  });

  it('import: catalog YAML writes such text double-quoted, as \\u escapes that read back the same', async () => {
    const { catalogYaml } = await import('../../src/formats/mcp/catalog-file.js');
    const { parse } = await import('yaml');
    const tools = [
      {
        name: 'a',
        description: `plain ${hostile}`,
        parameters: { type: 'object', properties: { [`k\u202e`]: { description: `v\u0085` } } },
      },
    ];
    const text = await catalogYaml(tools);
    expect(text).not.toMatch(UNSAFE_RAW);
    expect(text).not.toMatch(/\r/);
    expect(parse(text)).toEqual({ tools });
  });
});
