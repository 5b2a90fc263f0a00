/**
 * Issue 27, finding 4: stack overflows (exit 70) inside the documented limits, from spreading input-sized arrays
 * into `push(...)` (test/core/spreads.test.ts holds src/ to none) and from `JSON.parse` of a string of deeply
 * nested JSON, whose value was then walked recursively (and which bypassed `TOOLSEARCH_MAX_DEPTH`). The built CLI
 * runs with a 100 KB stack (`node --stack-size=100`), where 20,000 items overflow a spread as 120,000 do with
 * Node's default stack: a Claude Code continuation line, a Responses message, a native-mode search naming as many
 * tools, a directory or glob of as many files for `simulate`, `aggregate` and `test`. Before, each was exit 70.
 */
import { spawn } from 'node:child_process';
import { linkSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRecordingText } from '../../src/formats/index.js';
import { baseEnv, collect } from '../cli/helpers.js';
import { BIN, DEMO, ROOT, spawnCli, tempDir } from './helpers.js';

const tmp = tempDir('toolsearch-stack-');
afterAll(() => tmp.cleanup());

const N = 20_000;

function small(args: readonly string[]) {
  return collect(
    spawn(process.execPath, ['--stack-size=100', BIN, ...args], { cwd: ROOT, env: baseEnv(), stdio: 'pipe' }),
  );
}

/** `n` names for one file's content: one file and `n - 1` hard links to it (no data written). */
function manyFiles(dir: string, ext: string, content: string, n: number): string {
  const d = join(tmp.dir, dir);
  mkdirSync(d);
  writeFileSync(join(d, `f0${ext}`), content);
  for (let i = 1; i < n; i++) linkSync(join(d, `f0${ext}`), join(d, `f${i}${ext}`));
  return d;
}

const HELLO = JSON.stringify([
  { role: 'user', content: 'hi' },
  { role: 'assistant', content: 'hello' },
]);

describe.concurrent('finding 4: input-sized arrays are never spread into arguments', () => {
  it('a Claude Code continuation line of 20,000 blocks', async () => {
    const line = (o: unknown) => JSON.stringify(o);
    const file = tmp.file(
      'cc.jsonl',
      [
        line({ type: 'user', uuid: 'u1', parentUuid: null, sessionId: 's', message: { role: 'user', content: 'hi' } }),
        line({
          type: 'assistant',
          uuid: 'u2',
          parentUuid: 'u1',
          sessionId: 's',
          message: { id: 'msg_1', role: 'assistant', content: [{ type: 'text', text: 'a' }] },
        }),
        line({
          type: 'assistant',
          uuid: 'u3',
          parentUuid: 'u2',
          sessionId: 's',
          message: {
            id: 'msg_1',
            role: 'assistant',
            content: Array.from({ length: N }, () => ({ type: 'text', text: 'b' })),
          },
        }),
      ].join('\n'),
    );
    const r = await small(['simulate', file, '-c', DEMO, '--no-tokens', '--json']);
    expect(r.code, r.stderr).toBe(0);
    // The two lines of message msg_1 are one model call.
    expect(JSON.parse(r.stdout).summary.calls).toBe(1);
  });

  it('a Responses message of 20,000 blocks', async () => {
    const input = [
      { role: 'user', content: 'hi' },
      {
        type: 'message',
        role: 'assistant',
        content: Array.from({ length: N }, () => ({ type: 'output_text', text: 'b' })),
      },
    ];
    const file = tmp.file('resp.json', JSON.stringify({ model: 'm', input }));
    const r = await small(['simulate', file, '-c', DEMO, '--no-tokens', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).transcript.format).toBe('openai-responses');
  });

  it('a native-mode search naming 20,000 tools', async () => {
    const names = Array.from({ length: N }, (_, i) => `t${i}`);
    const body = {
      model: 'm',
      system: 's',
      max_tokens: 1,
      tools: names.map((name) => ({ name, description: 'd', input_schema: { type: 'object' }, defer_loading: true })),
      messages: [
        { role: 'user', content: 'hi' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'c1', name: 'tool_search', input: { query: `select:${names.join(',')}` } }],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'c1', content: JSON.stringify({ matches: names }) }],
        },
        { role: 'assistant', content: 'ok' },
      ],
    };
    const file = tmp.file('native.json', JSON.stringify(body));
    const r = await small(['simulate', file, '--mode', 'native', '--no-tokens', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).summary.tools_loaded).toBe(N);
  });

  it.each([
    ['a directory', (d: string) => d],
    ['a glob', (d: string) => `${d}/*.json`],
  ])(
    'simulate over %s of 20,000 files',
    async (_l, arg) => {
      const d = manyFiles(`sessions-${_l.length}`, '.json', HELLO, N);
      const r = await small(['simulate', arg(d), '-c', DEMO, '--jobs', '1', '--no-tokens', '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).sessions).toMatchObject({ replayed: N, failed: 0 });
    },
    120_000,
  );

  it('aggregate over a directory of 20,000 parts', async () => {
    const one = tmp.file('one.json', HELLO);
    const part = await spawnCli(['simulate', one, '-c', DEMO, '--jobs', '1', '--no-tokens', '--json']);
    expect(part.code, part.stderr).toBe(0);
    const parts = manyFiles('parts', '.json', part.stdout, N);
    const agg = await small(['aggregate', parts, '--json']);
    expect(agg.code, agg.stderr).toBe(0);
    expect(JSON.parse(agg.stdout).sessions.replayed).toBe(N);
  }, 180_000);

  it('test over a directory of 20,000 suites', async () => {
    const suite =
      `catalog: ${DEMO}\ncases:\n  - name: a\n    query: slack send\n` + '    includes: [mcp__slack__send_message]\n';
    const suites = manyFiles('suites', '.yaml', suite, N);
    const t = await small(['test', suites, '-r', 'json']);
    expect(t.code, t.stderr.slice(0, 500)).toBe(0);
    expect(JSON.parse(t.stdout).summary).toMatchObject({ passed: N, failed: 0 });
  }, 180_000);
});

describe('finding 4: JSON inside a string is read under TOOLSEARCH_MAX_DEPTH', () => {
  // An AI SDK provider-executed search whose input is JSON text 500,000 levels deep: the text is its query.
  const deep = '['.repeat(500_000) + ']'.repeat(500_000);
  const recording = JSON.stringify([
    { role: 'user', content: 'hi' },
    {
      role: 'assistant',
      content: [
        { type: 'tool-call', toolCallId: 'c1', toolName: 'tool_search', input: deep, providerExecuted: true },
        {
          type: 'tool-result',
          toolCallId: 'c1',
          toolName: 'tool_search',
          providerExecuted: true,
          output: { type: 'json', value: [{ type: 'tool_reference', toolName: 'mcp__slack__send_message' }] },
        },
      ],
    },
  ]);
  let file: string;
  beforeAll(() => {
    file = tmp.file('deep.ai-sdk.json', recording);
  });

  it('the CLI (default stack) replays it; the query is the text', async () => {
    const r = await spawnCli(['simulate', file, '-c', DEMO, '--mode', 'native', '--no-tokens', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.turns[0].server_searches[0].query).toBe(deep);
    expect(report.turns[0].server_searches[0].loaded).toEqual(['mcp__slack__send_message']);
  });

  it('TOOLSEARCH_MAX_DEPTH raised past what the stack walks: exit 2 at the file, not 70 (fuzzer)', async () => {
    const r = await spawnCli(['simulate', file, '-c', DEMO, '--mode', 'native', '--no-tokens', '--json'], {
      env: { TOOLSEARCH_MAX_DEPTH: '1000000' },
    });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toBe(
      `error: ${file}: JSON text nested 500000 levels inside the input: deeper than the stack can walk ` +
        '(TOOLSEARCH_MAX_DEPTH is 1000000; at 499999 or less, the text is read as text)\n',
    );
    expect(r.stdout).toBe('');
  });

  it('nesting within the limit is read as JSON, past it as text', () => {
    const input = (text: string) =>
      JSON.parse(recording.replace(JSON.stringify(deep), JSON.stringify(text))) as unknown;
    const query = (text: string, maxDepth?: number) => {
      const t = loadRecordingText(input(text), { format: 'ai-sdk', ...(maxDepth ? { limits: { maxDepth } } : {}) });
      const m = t.messages[1]!;
      return m.kind === 'blocks' && m.blocks[0]!.type === 'server_tool_search' ? m.blocks[0]!.query : null;
    };
    // The recording itself nests 7 levels; the text in it 9.
    const nine = '{"query": "slack", "x": [[[[[[[[1]]]]]]]]}';
    expect(query(nine)).toBe('slack');
    expect(query(nine, 9)).toBe('slack');
    expect(query(nine, 8)).toBe(nine);
    expect(query('{"pattern": "a", "pattern": "b"}')).toBe('b');
    expect(query('[1, "]"]')).toBe('[1,"]"]');
    expect(readFileSync(file, 'utf8').length).toBeGreaterThan(1_000_000);
  });
});
