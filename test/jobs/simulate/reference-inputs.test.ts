/**
 * The reference's own inputs replay as the reference replays them, with no extra flag (issue 28,
 * point 5): a conversation with no assistant message yet is one model call (the pending one), an
 * empty Eino list is the empty conversation (one call), and a tool call no result answers is
 * replayed as recorded and reported as the `unanswered-call` warning. Shapes that are garbage stay
 * refused.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCatalogFiles } from '../../../src/formats/catalog.js';
import { detectRecording, readRecording, requireModelCall } from '../../../src/formats/recordings/registry.js';
import { parseText } from '../../../src/io/parse.js';
import { simulate } from '../../../src/jobs/simulate/engine.js';
import { inputError } from '../../formats/helpers.js';
import { DEMO, run } from '../../cli/helpers.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const demo = loadCatalogFiles([join(ROOT, DEMO)]);
const load = (name: string, value: unknown, format?: 'openai' | 'anthropic' | 'eino') => {
  const t = readRecording(parseText(name, JSON.stringify(value)), format ? { format } : {});
  requireModelCall(t);
  return t;
};
const replay = (name: string, value: unknown, mode: 'default' | 'native' = 'default') =>
  simulate({ transcript: load(name, value), catalog: demo, mode, replay: false });

const system = { role: 'system', content: 'You are Atlas.' };
const ask = { role: 'user', content: 'Post the notes to #eng' };
const searchCall = {
  role: 'assistant',
  content: '',
  tool_calls: [{ id: 'c1', type: 'function', function: { name: 'tool_search', arguments: '{"query":"slack"}' } }],
};

describe('no assistant message yet, or none at all', () => {
  it('[system, user] is one model call, the pending one, in both modes', () => {
    for (const mode of ['default', 'native'] as const) {
      const r = replay('x.json', [system, ask], mode);
      expect(r.turns).toHaveLength(1);
      expect(r.turns[0]).toMatchObject({ call: 1, message_index: null, message_count: 3, reminder_index: 1 });
      expect(r.violations).toEqual([]);
    }
  });

  it('[] is the empty conversation: one call that receives only the reminder', () => {
    const r = replay('x.json', []);
    expect(r.transcript.messages).toBe(0);
    expect(r.coverage?.detected_by).toBe('an empty list (the reference reads it as an empty conversation)');
    expect(r.turns).toHaveLength(1);
    expect(r.turns[0]).toMatchObject({ message_count: 1, reminder_index: 0, reminder_inserted: true });
  });

  it('the same holds for the other message lists (forced or detected), not for logs of model calls', () => {
    expect(load('x.json', [ask], 'openai').messages).toHaveLength(1);
    expect(load('x.json', [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], 'anthropic').format).toBe(
      'anthropic',
    );
    const otel = { resourceSpans: [{ scopeSpans: [{ spans: [{ name: 'GET /', attributes: [] }] }] }] };
    // A log of model calls that logs none: its reader says what its spans were and what a model call is.
    expect(inputError(() => load('t.json', otel)).message).toBe(
      'OTLP traces with 1 span, none a model call (spans without GenAI messages (HTTP, database and other spans: ' +
        'not model calls): 1): expected GenAI chat spans (gen_ai.input.messages / gen_ai.output.messages), the ' +
        "AI SDK's ai.generateText.doGenerate / ai.streamText.doStream spans, or OpenInference LLM spans",
    );
  });

  it('the CLI: exit 0, and the report says the conversation is empty', async () => {
    const r = await run(['simulate', '--no-tokens', '-c', DEMO, '-', '--jsonl-input', 'recording'], { input: '[]' });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      'conversation: empty, the reference replays it as one model call that receives no message (but the\n' +
        '  reminder the middleware inserts)',
    );
  });
});

describe('a tool call with no result, the conversation going on', () => {
  const conversation = [
    system,
    ask,
    searchCall,
    { role: 'user', content: 'never mind' },
    { role: 'assistant', content: 'ok' },
  ];

  it('is replayed as recorded, with the unanswered-call warning at the call that made it', () => {
    const r = replay('x.json', conversation);
    expect(r.turns.map((t) => t.message_count)).toEqual([3, 5]);
    expect(r.violations).toEqual([
      {
        call: 1,
        tool: 'tool_search',
        kind: 'unanswered-call',
        severity: 'warning',
        message:
          'tool call "tool_search" (id "c1") has no result, and the conversation goes on after it: replayed as ' +
          'recorded, as the reference does (it does not pair calls and results; a provider may refuse such a request)',
        message_index: 2,
        location: { file: 'x.json', line: 1, column: 98 },
      },
    ]);
    expect(r.coverage?.unpaired).toEqual([]);
  });

  it('in content-block (agentic) messages and provider formats alike; never for the last message', () => {
    const agentic = [
      { role: 'user', content_blocks: [{ type: 'user_input_text', user_input_text: { text: 'hi' } }] },
      {
        role: 'assistant',
        content_blocks: [
          { type: 'function_tool_call', function_tool_call: { call_id: 'c1', name: 'think', arguments: '{}' } },
        ],
      },
      { role: 'user', content_blocks: [{ type: 'user_input_text', user_input_text: { text: 'go on' } }] },
    ];
    expect(replay('a.json', agentic).violations.map((v) => [v.kind, v.call, v.tool])).toEqual([
      ['unanswered-call', 1, 'think'],
    ]);
    const anthropic = {
      model: 'm',
      max_tokens: 10,
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'think', input: {} }] },
        { role: 'user', content: 'and?' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't2', name: 'think', input: {} }] },
      ],
    };
    expect(replay('b.json', anthropic).violations.map((v) => [v.kind, v.call, v.tool])).toEqual([
      ['unanswered-call', 1, 'think'],
    ]);
  });

  it('the CLI: exit 0 without --lenient, the warning in the report', async () => {
    const r = await run(['simulate', '--no-tokens', '-c', DEMO, '-', '--jsonl-input', 'recording'], {
      input: JSON.stringify(conversation),
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('! unanswered-call: tool call "tool_search" (id "c1") has no result');
  });
});

describe('garbage shapes stay refused', () => {
  it.each([
    ['{}', 'x.json:1:1: no known recording shape fits (found an empty object)'],
    ['[1]', 'x.json:1:2: a message must be an object, found a number'],
    ['null', 'x.json:1:1: no known recording shape fits (found null)'],
    [
      '[{"role": "robot", "content": "beep"}]',
      'x.json:1:2: unknown role "robot" (expected system, user, assistant, tool)',
    ],
    [
      '[{"role": "tool", "tool_call_id": "c9", "tool_name": "t", "content": "x"}]',
      'x.json:1:2: tool result for unknown call id "c9": no earlier tool call has this id ' +
        '(--lenient replays the rest ' +
        'and counts it)',
    ],
  ])('%s', (text, headline) => {
    expect(
      inputError(() => requireModelCall(readRecording(parseText('x.json', text)))).headline.startsWith(headline),
    ).toBe(true);
  });
});

/** Every file of these directories that holds Eino messages (a list of objects with a role). */
function einoRecordings(): string[] {
  const walk = (d: string): string[] =>
    readdirSync(join(ROOT, d)).flatMap((n) => {
      const p = join(d, n);
      return statSync(join(ROOT, p)).isDirectory() ? walk(p) : /\.(json|jsonl)$/.test(n) ? [p] : [];
    });
  return ['fixtures/transcripts', 'fixtures/formats/transcripts', 'fixtures/hostile', 'test']
    .flatMap(walk)
    .filter((f) => {
      let doc: ReturnType<typeof parseText>;
      try {
        doc = parseText(f, readFileSync(join(ROOT, f), 'utf8'));
      } catch {
        return false;
      }
      const root = doc.root;
      const messages = root.kind === 'array' && root.items.every((m) => m.kind === 'object' && m.members.has('role'));
      return messages && detectRecording(doc)?.reader.format === 'eino';
    })
    .sort();
}

describe("the repository's Eino recordings", () => {
  it('every one replays without --lenient, but the one that is garbage on purpose', () => {
    const files = einoRecordings();
    expect(files.length).toBeGreaterThan(25);
    const failed: string[] = [];
    for (const f of files) {
      try {
        const t = readRecording(parseText(f, readFileSync(join(ROOT, f), 'utf8')));
        requireModelCall(t);
        simulate({ transcript: t, catalog: demo, mode: 'default', replay: false });
      } catch (err) {
        failed.push(`${f}: ${(err as Error).message}`);
      }
    }
    expect(failed).toEqual([
      'fixtures/formats/transcripts/unknown-role.json: unknown role "robot" (expected system, user, assistant, tool)',
    ]);
  });
});
