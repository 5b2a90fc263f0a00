/**
 * Near misses (issue 28): a document no reader takes names the family whose own signs it has and
 * what that family expects, never a wrong family. One document per family, then every committed
 * JSON fixture with one key taken away, or one `type` / `role` / `object` value misspelled.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/io/errors.js';
import { loadRecordingText } from '../../../src/formats/from-text.js';
import { loadTranscriptFile } from '../../../src/formats/transcript.js';
import { RECORDING_FORMATS } from '../../../src/formats/recordings/registry.js';
import { inputError } from '../helpers.js';
import { RECORDINGS, ROOT, TRANSCRIPTS } from './helpers.js';

const TRIED = `tried ${RECORDING_FORMATS.join(', ')} (see simulate --help, or force one with --format)`;
const headline = (v: unknown, name = 'x.json'): string =>
  inputError(() => loadRecordingText(JSON.stringify(v), { name })).headline;

function files(dir: string): string[] {
  return readdirSync(dir)
    .flatMap((f) => (statSync(`${dir}${f}`).isDirectory() ? files(`${dir}${f}/`) : [`${dir}${f}`]))
    .filter((f) => /\.(json|jsonl|har)$/.test(f))
    .sort();
}

/** The family a near miss names, from either error: `closest: <family> (` or `: signs of <family>, `. */
function closest(message: string): string | null {
  return (/; closest: ([a-z-]+) \(/.exec(message) ?? /: signs of ([a-z-]+), which expects/.exec(message))?.[1] ?? null;
}

type Path = readonly string[];

/**
 * Where keys are: paths of up to `depth` keys (`*` for every item of a list), from every object of
 * the document, e.g. `* / role`, `messages / * / content`, `* / content / * / type`.
 */
function paths(value: unknown, depth: number, at: Path = []): Path[] {
  if (Array.isArray(value)) {
    const out = new Map<string, Path>();
    for (const v of value) for (const p of paths(v, depth, [...at, '*'])) out.set(p.join('\0'), p);
    return [...out.values()];
  }
  if (value === null || typeof value !== 'object' || depth === 0) return [];
  return Object.entries(value).flatMap(([k, v]) => [[...at, k], ...paths(v, depth - 1, [...at, k])]);
}

/** The document with the last key of `path` taken out wherever the path reaches. */
function without(value: unknown, path: Path): unknown {
  const [head, ...rest] = path;
  if (Array.isArray(value)) return head === '*' ? value.map((v) => without(v, rest)) : value;
  if (value === null || typeof value !== 'object' || head === undefined || head === '*') return value;
  const o = value as Record<string, unknown>;
  if (!(head in o)) return value;
  if (rest.length === 0) {
    const { [head]: _, ...others } = o;
    return others;
  }
  return { ...o, [head]: without(o[head], rest) };
}

/** The document with the `k`th string value of `key` (in document order) misspelled (an `x` appended). */
function misspelled(value: unknown, key: string, k: number): unknown {
  let i = 0;
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== 'object') return v;
    return Object.fromEntries(
      Object.entries(v).map(([name, x]) => [
        name,
        name === key && typeof x === 'string' && i++ === k ? `${x}x` : walk(x),
      ]),
    );
  };
  return walk(value);
}

function parse(file: string, text: string): unknown {
  return file.endsWith('.jsonl')
    ? text
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l))
    : JSON.parse(text);
}

/**
 * One document per family that its reader refuses but that carries its signs, and the error's
 * first line (up to the list of formats tried, the same in every "no known recording shape fits").
 */
const NEAR: ReadonlyArray<{ family: string; value: unknown; headline: string }> = [
  {
    family: 'ai-sdk ui',
    value: [{ id: 'm1', parts: [{ type: 'text', text: 'hi' }] }],
    headline:
      'x.json:1:1: 1 message with typed "parts" but no "role": signs of ai-sdk, which expects UIMessage[] {id, ' +
      'role, parts: [{type, ...}]}, ModelMessage[] with "tool-call" / "tool-result" parts, or a generateText ' +
      'result with "response.messages" or "steps" [{content: [...]}]; no format takes it (eino only by a list ' +
      'of plain role/content messages: --format eino reads it so)',
  },
  {
    family: 'ai-sdk camel',
    value: [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: [{ type: 'tool_call', toolCallId: 'c1', toolName: 'get_weather', input: {} }] },
    ],
    headline:
      'x.json:1:1: 1 message with "toolCallId" / "toolName" parts not typed "tool-call" / "tool-result": signs ' +
      'of ai-sdk, which expects UIMessage[] {id, role, parts: [{type, ...}]}, ModelMessage[] with "tool-call" ' +
      '/ "tool-result" parts, or a generateText result with "response.messages" or "steps" [{content: [...]}]; ' +
      'no format takes it (eino only by a list of plain role/content messages: --format eino reads it so)',
  },
  {
    family: 'ai-sdk steps',
    value: { text: '', steps: [{ toolCalls: [] }], finishReason: 'stop' },
    headline:
      'x.json:1:1: no known recording shape fits (found an object with "text", "steps", "finishReason"); ' +
      'closest: ai-sdk (a result whose "steps" have no "content" list), which expects UIMessage[] {id, role, ' +
      'parts: [{type, ...}]}, ModelMessage[] with "tool-call" / "tool-result" parts, or a generateText result ' +
      'with "response.messages" or "steps" [{content: [...]}]',
  },
  {
    // Not a near miss: detection takes a UIMessage list whatever its part types; the error is the AI SDK reader's.
    family: 'ai-sdk ui unknown part',
    value: [{ id: 'm1', role: 'user', parts: [{ type: 'txt', text: 'hi' }] }],
    headline: 'x.json:1:36: unknown AI SDK UI part type "txt" (--lenient replays the rest and counts it)',
  },
  {
    family: 'mastra',
    value: [
      {
        id: 'm1',
        role: 'user',
        threadId: 't1',
        resourceId: 'r1',
        content: { format: 3, parts: [{ type: 'text', text: 'hi' }] },
      },
    ],
    headline:
      'x.json:1:1: 1 message with a "content" object with "format" but no stored message: signs of mastra, ' +
      'which expects stored messages {id, role, threadId, content: {"format": 2, "parts": [...]}} (a list, or ' +
      '{messages}); no format takes it (eino only by a list of plain role/content messages: --format eino ' +
      'reads it so)',
  },
  {
    family: 'langchain lc',
    value: [{ lc: 1, type: 'constructor', id: ['langchain', 'schema', 'HumanMsg'], kwargs: { content: 'hi' } }],
    headline:
      'x.json:1:1: 1 lc-serialized object ("lc", "type": "constructor") that is no message: signs of ' +
      'langchain, which expects "id" ending in a message class (HumanMessage, AIMessage, SystemMessage, ' +
      'ToolMessage, ChatMessage, FunctionMessage, or their chunks) and "kwargs" {content, ...}; no format ' +
      'takes it (openai-responses only by 1 message has keys or part types only OpenAI Responses uses: ' +
      '--format openai-responses reads it so)',
  },
  {
    family: 'langchain dict',
    value: [{ type: 'humans', data: { content: 'hi' } }],
    headline:
      'x.json:1:1: 1 {type, data: {content}} entry of no message type: signs of langchain, which expects ' +
      '"type" one of human, ai, system, tool, chat, function, developer; no format takes it (openai-responses ' +
      'only by 1 message has keys or part types only OpenAI Responses uses: --format openai-responses reads it ' +
      'so)',
  },
  {
    family: 'cline',
    value: [
      {
        role: 'user',
        content: [{ type: 'text', text: '<environment_details>\n# Current Time\n</environment_details>' }],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'ok' }], ts: '1748941200000' },
    ],
    headline:
      'x.json:1:1: 2 messages with Cline / Roo Code\'s keys or <environment_details> but no numeric "ts", ' +
      '"[tool] Result:" block, XML tool use or <task> opening: signs of cline, which expects ' +
      'api_conversation_history.json: [{role, content, "ts": <ms>}] with XML tool use and "[tool] Result:" ' +
      'blocks; no format takes it (eino only by a list of plain role/content messages: --format eino reads it ' +
      'so)',
  },
  {
    family: 'call-log',
    value: [{ request: '{"model":"gpt-4.1","messages":[]}', response: { object: 'chat.completion', choices: [] } }],
    headline:
      'x.json:1:1: 1 line whose "request" is no object: signs of call-log, which expects {"request": <request ' +
      'body, an object>, "response": <response object>} lines; no format takes it (eino only by a list of ' +
      'plain role/content messages: --format eino reads it so)',
  },
  {
    family: 'response choices',
    value: { id: 'c', object: 'chat.completion', choices: {} },
    headline:
      'x.json:1:1: no known recording shape fits (found an object with "id", "object", "choices"); closest: ' +
      'response (an "object": "chat.completion" whose "choices" is an object), which expects "choices" to be a ' +
      'list (a chat.completion response object)',
  },
  {
    family: 'response untyped',
    value: { id: 'msg_1', role: 'assistant', content: [{ type: 'text', text: 'hi' }], stop_reason: 'end_turn' },
    headline:
      'x.json:1:1: no known recording shape fits (found an object with "id", "role", "content", ' +
      '"stop_reason"); closest: response (the keys of an Anthropic "message" ("role", "content", ' +
      '"stop_reason") without "type": "message"), which expects "type": "message" (one response object)',
  },
  {
    family: 'response role',
    value: { id: 'msg_1', type: 'message', role: 'assistent', content: [], stop_reason: 'end_turn' },
    headline:
      'x.json:1:1: no known recording shape fits (found an object with "id", "type", "role", "content", ' +
      '"stop_reason"); closest: response (an Anthropic "message" whose "role" is "assistent"), which expects ' +
      '"role": "assistant" (an Anthropic "message" response object)',
  },
  {
    family: 'openai-agents',
    value: { history: {}, newItems: [], finalOutput: 'x' },
    headline:
      'x.json:1:1: no known recording shape fits (found an object with "history", "newItems", "finalOutput"); ' +
      'closest: openai-agents (an object whose "history" is an object), which expects result.history: a list ' +
      'of items (or a bare list, or to_input_list())',
  },
  {
    family: 'anthropic block',
    value: [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: [{ type: 'tool_usee', id: 'toolu_1', name: 'get_weather', input: {} }] },
    ],
    headline:
      'x.json:1:1: 1 content block shaped as Anthropic tool blocks ("tool_use_id", or "id", "name", "input") ' +
      'typed "tool_usee": signs of anthropic, which expects blocks typed text, tool_use, tool_result, ' +
      'thinking, ... (Messages API); no format takes it (eino only by a list of plain role/content messages: ' +
      '--format eino reads it so)',
  },
  {
    family: 'anthropic body',
    value: { model: 'claude-sonnet-4-5', system: 'be brief', max_tokens: 1024 },
    headline:
      'x.json:1:1: no known recording shape fits (found an object with "model", "system", "max_tokens"); ' +
      'closest: anthropic (a request body with "system", "max_tokens" but no "messages"), which expects ' +
      '{model, system, max_tokens, messages: [{role, content}], tools}',
  },
  {
    family: 'openai body',
    value: { model: 'gpt-4.1', max_completion_tokens: 100, response_format: { type: 'text' } },
    headline:
      'x.json:1:1: no known recording shape fits (found an object with "model", "max_completion_tokens", ' +
      '"response_format"); closest: openai (a request body with "max_completion_tokens", "response_format" but ' +
      'no "messages"), which expects {model, messages: [{role, content, tool_calls}], tools}',
  },
  {
    family: 'responses body',
    value: { model: 'gpt-4.1', instructions: 'be brief', previous_response_id: 'resp_1' },
    headline:
      'x.json:1:1: no known recording shape fits (found an object with "model", "instructions", ' +
      '"previous_response_id"); closest: openai-responses (a request body with "instructions", ' +
      '"previous_response_id" but no "input"), which expects {model, instructions, input: [items], tools}',
  },
  {
    family: 'eino',
    value: { role: 'user', content: 'hi', tool_name: '' },
    headline:
      'x.json:1:1: no known recording shape fits (found an object with "role", "content", "tool_name"); ' +
      'closest: eino (one message object ({role, ...})), which expects [{role, content, tool_calls, ' +
      'tool_call_id, tool_name, extra}] (a list, not one message)',
  },
  {
    family: 'nock',
    value: [{ method: 'POST', path: '/v1/messages', body: {}, status: 200, response: {} }],
    headline:
      'x.json:1:1: 1 object with nock\'s keys but not all of "scope", "method", "path": signs of nock, which ' +
      'expects nock definitions {"scope", "method", "path", "body", "status", "response"}; no format takes it ' +
      '(eino only by a list of plain role/content messages: --format eino reads it so)',
  },
];

/** The families whose near misses the mutated fixtures reach. */
const EXERCISED = [
  'ai-sdk',
  'anthropic',
  'call-log',
  'claude-code',
  'har',
  'langchain',
  'nock',
  'openai-agents-state',
  'openai-responses',
  'response',
];

/**
 * Families a mutated fixture may be closest to besides its own: the four chat formats share most
 * keys (one format's message without its own keys is another's); the Python Agents SDK's
 * to_input_list() is Responses input (openai-agents ~ openai-responses); Mastra stores the AI
 * SDK's UI parts (mastra ~ ai-sdk); a call log's lines hold response objects (call-log ~ response).
 */
const CHAT = ['eino', 'openai', 'openai-responses', 'anthropic'];
const SIBLINGS: Readonly<Record<string, readonly string[]>> = {
  eino: CHAT,
  openai: CHAT,
  'openai-responses': [...CHAT, 'openai-agents'],
  anthropic: CHAT,
  'openai-agents': ['openai-responses'],
  mastra: ['ai-sdk'],
  'ai-sdk': ['mastra'],
  'call-log': ['response'],
  response: ['call-log'],
};

describe('a near miss names its own family and what it expects', () => {
  for (const c of NEAR)
    it(c.family, () => {
      const message = headline(c.value);
      expect(message.split('; tried ')[0]).toBe(c.headline);
      if (message.includes('no known recording shape fits')) expect(message.split('; tried ')[1]).toBe(TRIED.slice(6));
    });

  it('weak signs do not turn away a document another reader takes', () => {
    // Cline's <environment_details> is text a provider's messages from a Cline session carry too.
    const env = [
      { role: 'user', content: '<environment_details>\n# Current Time\n</environment_details>' },
      { role: 'assistant', content: 'ok' },
    ];
    expect(loadRecordingText(JSON.stringify(env), { name: 'x.json' }).format).toBe('eino');
    // A run result's keys beside a Responses body's `input` list: the body is read.
    const body = { input: [{ role: 'user', content: 'q' }], finalOutput: 'x' };
    expect(loadRecordingText(JSON.stringify(body), { name: 'x.json' }).format).toBe('openai-responses');
    // A request body's keys with no messages are only a weak sign: with its list, the body is read.
    const anthropic = {
      model: 'claude-sonnet-4-5',
      system: 's',
      max_tokens: 9,
      messages: [{ role: 'user', content: 'q' }],
    };
    expect(loadRecordingText(JSON.stringify(anthropic), { name: 'x.json' }).format).toBe('anthropic');
  });

  it('every fixture with a key taken out or a type misspelled is closest to its own family or a sibling', () => {
    const wrong: string[] = [];
    const named: string[] = [];
    let fixtures = 0;
    for (const file of [...files(RECORDINGS), ...files(TRANSCRIPTS)]) {
      let format: string;
      try {
        format = loadTranscriptFile(file).format;
      } catch {
        continue; // fixtures of errors (their tests say which), or ones read only with options
      }
      fixtures++;
      const value = parse(file, readFileSync(file, 'utf8'));
      const mutations = [
        ...paths(value, 3)
          .slice(0, 200)
          .map((path) => ({ what: `without ${path.join('/')}`, value: without(value, path) })),
        ...['type', 'role', 'object'].flatMap((key) =>
          [0, 1, 2, 3, 4, 5].map((k) => ({ what: `"${key}" #${k} misspelled`, value: misspelled(value, key, k) })),
        ),
      ];
      for (const mutation of mutations) {
        let message: string | null = null;
        try {
          loadRecordingText(JSON.stringify(mutation.value), { name: 'x.json' });
        } catch (e) {
          if (!(e instanceof InputError)) throw e;
          message = e.headline;
        }
        const family = message === null ? null : closest(message);
        if (family === null) continue;
        named.push(family);
        if (family !== format && !(SIBLINGS[format] ?? []).includes(family))
          wrong.push(`${file.slice(ROOT.length)} ${mutation.what}: ${format}, named ${family}`);
      }
    }
    expect(wrong).toEqual([]);
    // The loop is not empty: the fixtures are read, and their mutations name these families.
    expect(fixtures).toBeGreaterThan(120);
    expect(named.length).toBeGreaterThan(90);
    expect([...new Set(named)].sort()).toEqual(EXERCISED);
  });
});
