/**
 * Property (issue 12): a random conversation written out in every recording
 * format replays to the same turns, visibility and violations as its Eino
 * form, in both modes. Conversations have no system prompt, so the Claude
 * Code form (which logs none) compares directly.
 */
import fc from 'fast-check';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { encodeMatches, runToolSearch } from '../../src/core/toolsearch.js';
import { loadCatalogFiles } from '../../src/formats/catalog.js';
import { loadRecordingText } from '../../src/formats/from-text.js';
import { createMiddleware } from '../../src/core/middleware.js';
import type { SimulationReport } from '../../src/simulate/report.js';
import { simulate } from '../../src/simulate/engine.js';

const demo = loadCatalogFiles([fileURLToPath(new URL('../../fixtures/catalogs/demo.yaml', import.meta.url))]);
const dynamic = demo.tools.filter((t) => !t.static);
const index = createMiddleware({ dynamicTools: dynamic }).index;
const names = demo.tools.map((t) => t.name);

/** Neutral messages: user text, assistant text or one call, tool results. */
type Msg =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; call?: { id: string; name: string; args: Record<string, unknown> } }
  | { role: 'tool'; id: string; name: string; content: string };

const QUERIES = [
  'slack send message',
  'calendar create event',
  'select:mcp__github__create_issue,mcp__github__list_issues',
  '+notion page',
  'read file',
  'nothing matches zzz',
];

const step = fc.oneof(
  fc.record({
    kind: fc.constant('user' as const),
    text: fc.constantFrom('Post the notes to #eng', 'What is on my calendar?', 'File a bug', 'ok'),
  }),
  fc.record({ kind: fc.constant('search' as const), query: fc.constantFrom(...QUERIES) }),
  fc.record({
    kind: fc.constant('call' as const),
    name: fc.constantFrom(...names, 'mcp__nowhere__tool'),
    result: fc.constantFrom('{"ok":true}', 'done', '[]'),
  }),
  fc.record({ kind: fc.constant('say' as const), text: fc.constantFrom('Done.', 'Here you go.') }),
);

function build(
  steps: ReadonlyArray<{ kind: string; text?: string; query?: string; name?: string; result?: string }>,
): Msg[] {
  const msgs: Msg[] = [{ role: 'user', content: 'Help me with my chores' }];
  let n = 0;
  for (const s of steps) {
    if (s.kind === 'user') msgs.push({ role: 'user', content: s.text! });
    // An answer ends a turn: the user speaks next (two assistant messages in a row are one model
    // response in the Responses item formats, two calls in chat formats: not a real conversation).
    else if (s.kind === 'say') msgs.push({ role: 'assistant', content: s.text! }, { role: 'user', content: 'thanks' });
    else {
      const id = `call_${++n}`;
      const name = s.kind === 'search' ? 'tool_search' : s.name!;
      const args = s.kind === 'search' ? { query: s.query! } : { note: `step ${n}` };
      let result = s.result ?? '';
      if (s.kind === 'search') {
        const r = runToolSearch(index, JSON.stringify(args));
        result = r.ok ? encodeMatches(r.matches) : r.error;
      }
      msgs.push(
        { role: 'assistant', content: '', call: { id, name, args } },
        { role: 'tool', id, name, content: result },
      );
    }
  }
  msgs.push({ role: 'assistant', content: 'All done.' });
  return msgs;
}

const eino = (msgs: Msg[]): unknown =>
  msgs.map((m) =>
    m.role === 'tool'
      ? { role: 'tool', content: m.content, tool_call_id: m.id, tool_name: m.name }
      : m.role === 'assistant' && m.call
        ? {
            role: 'assistant',
            content: '',
            tool_calls: [
              {
                id: m.call.id,
                type: 'function',
                function: { name: m.call.name, arguments: JSON.stringify(m.call.args) },
              },
            ],
          }
        : { role: m.role, content: m.content },
  );

const aiSdk = (msgs: Msg[]): unknown =>
  msgs.map((m) =>
    m.role === 'tool'
      ? {
          role: 'tool',
          content: [
            { type: 'tool-result', toolCallId: m.id, toolName: m.name, output: { type: 'text', value: m.content } },
          ],
        }
      : m.role === 'assistant'
        ? {
            role: 'assistant',
            content: m.call
              ? [{ type: 'tool-call', toolCallId: m.call.id, toolName: m.call.name, input: m.call.args }]
              : [{ type: 'text', text: m.content }],
          }
        : { role: 'user', content: m.content },
  );

const agentsJs = (msgs: Msg[]): unknown =>
  msgs.map((m) =>
    m.role === 'tool'
      ? { type: 'function_call_result', callId: m.id, name: m.name, status: 'completed', output: m.content }
      : m.role === 'assistant'
        ? m.call
          ? {
              type: 'function_call',
              callId: m.call.id,
              name: m.call.name,
              arguments: JSON.stringify(m.call.args),
              status: 'completed',
            }
          : {
              type: 'message',
              role: 'assistant',
              status: 'completed',
              content: [{ type: 'output_text', text: m.content }],
            }
        : { role: 'user', content: m.content },
  );

const langchain = (msgs: Msg[]): unknown =>
  msgs.map((m) =>
    m.role === 'tool'
      ? { type: 'tool', data: { content: m.content, tool_call_id: m.id, name: m.name } }
      : m.role === 'assistant'
        ? {
            type: 'ai',
            data: {
              content: m.content,
              tool_calls: m.call ? [{ name: m.call.name, args: m.call.args, id: m.call.id, type: 'tool_call' }] : [],
            },
          }
        : { type: 'human', data: { content: m.content } },
  );

const otelPart = (m: Msg): unknown =>
  m.role === 'tool'
    ? { role: 'tool', parts: [{ type: 'tool_call_response', id: m.id, response: m.content }] }
    : m.role === 'assistant'
      ? {
          role: 'assistant',
          parts: m.call
            ? [{ type: 'tool_call', id: m.call.id, name: m.call.name, arguments: m.call.args }]
            : [{ type: 'text', content: m.content }],
        }
      : { role: 'user', parts: [{ type: 'text', content: m.content }] };

function otel(msgs: Msg[]): unknown {
  const spans: unknown[] = [];
  msgs.forEach((m, i) => {
    if (m.role !== 'assistant') return;
    spans.push({
      name: 'chat m',
      startTimeUnixNano: String(1000 + i),
      attributes: [
        { key: 'gen_ai.input.messages', value: { stringValue: JSON.stringify(msgs.slice(0, i).map(otelPart)) } },
        { key: 'gen_ai.output.messages', value: { stringValue: JSON.stringify([otelPart(m)]) } },
      ],
    });
  });
  return { resourceSpans: [{ scopeSpans: [{ spans }] }] };
}

function claudeCode(msgs: Msg[]): string {
  let n = 0;
  let parent: string | null = null;
  const out: unknown[] = [];
  const push = (o: Record<string, unknown>): void => {
    const uuid = `u${++n}`;
    out.push({ parentUuid: parent, isSidechain: false, sessionId: 's', ...o, uuid });
    parent = uuid;
  };
  msgs.forEach((m, i) => {
    if (m.role === 'user') push({ type: 'user', message: { role: 'user', content: m.content } });
    else if (m.role === 'tool')
      push({
        type: 'user',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: m.id, content: m.content }] },
      });
    else {
      const block = m.call
        ? {
            type: 'tool_use',
            id: m.call.id,
            name: m.call.name === 'tool_search' ? 'ToolSearch' : m.call.name,
            input: m.call.args,
          }
        : { type: 'text', text: m.content };
      push({
        type: 'assistant',
        message: { id: `msg_${i}`, role: 'assistant', content: [{ type: 'thinking', thinking: '…' }] },
      });
      push({ type: 'assistant', message: { id: `msg_${i}`, role: 'assistant', content: [block] } });
    }
  });
  return out.map((o) => JSON.stringify(o)).join('\n');
}

const WRITERS: ReadonlyArray<readonly [string, string, (m: Msg[]) => unknown]> = [
  ['ai-sdk', 'ai-sdk', aiSdk],
  ['openai-agents', 'openai-agents', agentsJs],
  ['langchain', 'langchain', langchain],
  ['otel', 'otel', otel],
  ['claude-code', 'claude-code', claudeCode],
];

function comparable(r: SimulationReport): unknown {
  return {
    turns: r.turns.map((t) => ({ ...t, assistant_text: undefined })),
    violations: r.violations,
    summary: r.summary,
  };
}

describe('random conversations in every recording format', () => {
  it('replay to the same turns and violations as their Eino form, in both modes', () => {
    fc.assert(
      fc.property(
        fc.array(step, { maxLength: 8 }),
        fc.constantFrom('default' as const, 'native' as const),
        (steps, mode) => {
          const msgs = build(steps);
          const want = comparable(
            simulate({
              transcript: loadRecordingText(eino(msgs), { name: 'eino.json' }),
              catalog: demo,
              mode,
              replay: false,
            }),
          );
          for (const [name, format, write] of WRITERS) {
            const t = loadRecordingText(write(msgs), { name: name === 'claude-code' ? 'x.jsonl' : `${name}.json` });
            // Text-only AI SDK or Agents SDK messages have nothing only that SDK writes: they read (the same) as a chat
            // format.
            if (!['ai-sdk', 'openai-agents'].includes(name) || msgs.some((m) => m.role === 'tool'))
              expect(t.format, name).toBe(format);
            expect(comparable(simulate({ transcript: t, catalog: demo, mode, replay: false })), name).toEqual(want);
          }
        },
      ),
      { numRuns: 60, seed: 12 },
    );
  });
});
