import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REMINDER_MARKER, toolSearchResultText } from '../../src/core/middleware.js';
import type { ContentBlock, Message } from '../../src/core/types.js';
import { parseText } from '../../src/io/parse.js';
import { loadTranscriptFile, readTranscriptDocument } from '../../src/formats/transcript.js';
import type { Transcript } from '../../src/formats/types.js';
import { fixture, inputError } from './helpers.js';
import { RECORDING_VARIANTS } from '../fixtures/variants.js';
import { RECORDING_FORMATS } from '../../src/formats/recordings/registry.js';

const load = (rel: string, options: Parameters<typeof loadTranscriptFile>[1] = {}): Transcript =>
  loadTranscriptFile(fixture(`transcripts/${rel}`), options);

/** A format-neutral view of a message: its role, calls, results and text. */
interface View {
  role: string;
  text: string;
  calls: Array<[string, string, string]>;
  results: Array<[string, string]>;
  searchResult: string | null;
}

function view(m: Message): View {
  if (m.kind === 'chat') {
    return {
      role: m.role === 'tool' ? 'tool-result' : m.role,
      text: m.role === 'tool' ? '' : m.content,
      calls: (m.toolCalls ?? []).map((c) => [c.id, c.name, c.arguments]),
      results: m.role === 'tool' ? [[m.toolName ?? '', m.content]] : [],
      searchResult: toolSearchResultText(m),
    };
  }
  const results = m.blocks.filter(
    (b): b is Extract<ContentBlock, { type: 'function_tool_result' }> => b.type === 'function_tool_result',
  );
  const onlyResults = results.length > 0 && results.length === m.blocks.length;
  return {
    role: onlyResults ? 'tool-result' : m.role,
    text: m.blocks.map((b) => (b.type === 'text' ? b.text : '')).join(''),
    calls: m.blocks.flatMap(
      (b): Array<[string, string, string]> =>
        b.type === 'function_tool_call' ? [[b.callId, b.name, b.arguments]] : [],
    ),
    results: results.map((r) => [r.name, r.content.map((p) => (p.type === 'text' ? p.text : '')).join('')]),
    searchResult: toolSearchResultText(m),
  };
}

const escapeRe = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const MATCHES = '{"matches":["mcp__slack__send_message","mcp__slack__list_channels"]}';

const EXPECTED: View[] = [
  { role: 'system', text: 'You are a helpful assistant.', calls: [], results: [], searchResult: null },
  { role: 'user', text: "Post 'deploy done' to #eng.", calls: [], results: [], searchResult: null },
  {
    role: 'assistant',
    text: '',
    calls: [['call_1', 'tool_search', '{"query":"slack send message"}']],
    results: [],
    searchResult: null,
  },
  { role: 'tool-result', text: '', calls: [], results: [['tool_search', MATCHES]], searchResult: MATCHES },
  {
    role: 'assistant',
    text: '',
    calls: [['call_2', 'mcp__slack__send_message', '{"channel":"#eng","text":"deploy done"}']],
    results: [],
    searchResult: null,
  },
  { role: 'tool-result', text: '', calls: [], results: [['mcp__slack__send_message', 'ok']], searchResult: null },
  { role: 'assistant', text: 'Posted.', calls: [], results: [], searchResult: null },
];

describe('the same conversation in every format', () => {
  const files = [
    ['conversation.eino.json', 'eino', 'chat'],
    ['conversation.eino.jsonl', 'eino', 'chat'],
    ['conversation.eino-agentic.json', 'eino', 'blocks'],
    ['conversation.openai.json', 'openai', 'chat'],
    ['conversation.openai-responses.json', 'openai-responses', 'blocks'],
    ['conversation.anthropic.json', 'anthropic', 'blocks'],
  ] as const;

  for (const [file, format, kind] of files) {
    it(`${file}: detected as ${format}; roles, calls and tool_search results agree`, () => {
      const t = load(file);
      expect(t.format).toBe(format);
      expect(t.messages.every((m) => m.kind === kind)).toBe(true);
      expect(t.messages.map(view)).toEqual(EXPECTED);
      // The OpenAI body lists tool_search among its tools: skipped, with a warning.
      expect(t.warnings).toEqual(
        file === 'conversation.openai.json'
          ? [
              `${fixture(`transcripts/${file}`)}:18:5: skipped tool_search ` +
                `(the middleware's own tool, not a catalog tool)`,
            ]
          : [],
      );
      expect(t.locations).toHaveLength(t.messages.length);
      // The format override reads it the same way.
      expect(load(file, { format }).messages).toEqual(t.messages);
    });
  }

  it('locations: where each message starts', () => {
    const file = fixture('transcripts/conversation.eino.json');
    expect(load('conversation.eino.json').locations.map((l) => `${l.line}:${l.column}`)).toEqual([
      '2:3',
      '3:3',
      '4:3',
      '7:3',
      '8:3',
      '11:3',
      '12:3',
    ]);
    expect(load('conversation.eino.json').locations[0]!.file).toBe(file);
    expect(load('conversation.eino.jsonl').locations.map((l) => l.line)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // Anthropic: the top-level system comes first; Responses: instructions first, then the grouped items.
    expect(load('conversation.anthropic.json').locations.map((l) => `${l.line}:${l.column}`)).toEqual([
      '4:13',
      '6:5',
      '7:5',
      '10:5',
      '13:5',
      '17:5',
      '18:5',
    ]);
    expect(load('conversation.openai-responses.json').locations.map((l) => `${l.line}:${l.column}`)).toEqual([
      '3:19',
      '5:5',
      '6:5',
      '8:5',
      '9:5',
      '10:5',
      '11:5',
    ]);
  });

  it('request bodies carry their tools (static from defer_loading; tool_search skipped with a warning)', () => {
    for (const f of ['conversation.openai-responses.json', 'conversation.anthropic.json']) {
      const t = load(f);
      expect(t.tools?.map((x) => [x.name, x.static])).toEqual([
        ['get_time', true],
        ['mcp__slack__send_message', false],
        ['mcp__slack__list_channels', false],
      ]);
    }
    const openai = load('conversation.openai.json');
    expect(openai.tools?.map((x) => [x.name, x.static])).toEqual([
      ['get_time', true],
      ['mcp__slack__send_message', false],
      ['mcp__slack__list_channels', false],
    ]);
    expect(load('conversation.eino.json').tools).toBeNull();
  });

  it('Eino keeps extra; agentic keys match whatever their case', () => {
    const t = load('conversation.eino-agentic.json');
    expect(t.messages[6]!.extra).toEqual({ trace_id: 't-1' });
  });

  it('Responses: an assistant turn (reasoning + function_call) is one message', () => {
    const t = load('conversation.openai-responses.json');
    expect(t.messages[2]).toEqual({
      kind: 'blocks',
      role: 'assistant',
      blocks: [
        { type: 'other', description: 'reasoning' },
        {
          type: 'function_tool_call',
          callId: 'call_1',
          name: 'tool_search',
          arguments: '{"query":"slack send message"}',
        },
      ],
    });
    expect(t.messages[3]).toEqual({
      kind: 'blocks',
      role: 'user',
      blocks: [
        {
          type: 'function_tool_result',
          callId: 'call_1',
          name: 'tool_search',
          content: [{ type: 'text', text: MATCHES }],
        },
      ],
    });
  });
});

describe('server-side tool search', () => {
  it(
    'OpenAI Responses tool_search_call / tool_search_output and ' +
      'Anthropic server_tool_use / tool_search_tool_result agree',
    () => {
      const responses = load('server-search.openai-responses.json');
      const anthropic = load('server-search.anthropic.json');
      expect(responses.format).toBe('openai-responses');
      expect(anthropic.format).toBe('anthropic');
      expect(responses.messages[1]).toEqual({
        kind: 'blocks',
        role: 'assistant',
        blocks: [
          { type: 'server_tool_search', callId: 'ts_1', query: 'linear issue' },
          {
            type: 'server_tool_search_result',
            callId: 'tso_1',
            tools: ['mcp__linear__create_issue', 'mcp__linear__list_issues'],
          },
          {
            type: 'function_tool_call',
            callId: 'call_9',
            name: 'mcp__linear__create_issue',
            arguments: '{"title":"Bug"}',
          },
        ],
      });
      expect(anthropic.messages[1]).toEqual({
        kind: 'blocks',
        role: 'assistant',
        blocks: [
          { type: 'server_tool_search', callId: 'srvtoolu_1', query: 'linear issue' },
          {
            type: 'server_tool_search_result',
            callId: 'srvtoolu_1',
            tools: ['mcp__linear__create_issue', 'mcp__linear__list_issues'],
          },
          {
            type: 'function_tool_call',
            callId: 'call_9',
            name: 'mcp__linear__create_issue',
            arguments: '{"title":"Bug"}',
          },
        ],
      });
      expect(responses.messages.map(view)).toEqual(anthropic.messages.map(view));
    },
  );

  it('a client-proxied Anthropic search answered with tool_reference blocks is a tool_search_result part', () => {
    const t = load('client-search.anthropic.json');
    expect(t.messages[1]).toEqual({
      kind: 'blocks',
      role: 'assistant',
      blocks: [
        {
          type: 'function_tool_call',
          callId: 'call_1',
          name: 'tool_search',
          arguments: '{"query":"linear issue","max_results":2}',
        },
      ],
    });
    expect(t.messages[2]).toEqual({
      kind: 'blocks',
      role: 'user',
      blocks: [
        {
          type: 'function_tool_result',
          callId: 'call_1',
          name: 'tool_search',
          content: [{ type: 'tool_search_result', tools: ['mcp__linear__create_issue', 'mcp__linear__list_issues'] }],
        },
      ],
    });
  });

  it('a client-executed Responses tool_search_output is its own input message', () => {
    const doc = parseText(
      'x.json',
      JSON.stringify([
        { type: 'tool_search_call', call_id: 'c1', execution: 'client', arguments: '{"query":"linear"}' },
        { type: 'tool_search_output', call_id: 'c1', execution: 'client', tools: [{ type: 'function', name: 'a' }] },
        { type: 'function_call', call_id: 'c2', name: 'a', arguments: '{}' },
      ]),
    );
    const t = readTranscriptDocument(doc);
    expect(t.messages.map((m) => [m.role, m.kind === 'blocks' ? m.blocks.map((b) => b.type) : []])).toEqual([
      ['assistant', ['server_tool_search']],
      ['user', ['server_tool_search_result']],
      ['assistant', ['function_tool_call']],
    ]);
    expect(t.messages[0]).toMatchObject({ blocks: [{ query: 'linear' }] });
  });
});

describe('format detection and override', () => {
  it('plain role/content lists are Eino; a tool message without tool_name means OpenAI', () => {
    expect(readTranscriptDocument(parseText('x.json', '[{"role":"user","content":"hi"}]')).format).toBe('eino');
    expect(load('unknown-call-id.openai.json', { lenient: true }).format).toBe('openai');
  });

  it('a body with messages and no other evidence is OpenAI; with input, Responses', () => {
    expect(
      readTranscriptDocument(parseText('x.json', '{"model":"m","messages":[{"role":"user","content":"hi"}]}')).format,
    ).toBe('openai');
    expect(readTranscriptDocument(parseText('x.json', '{"model":"m","input":"hi"}')).format).toBe('openai-responses');
    expect(readTranscriptDocument(parseText('x.json', '{"model":"m","input":"hi"}')).messages).toEqual([
      { kind: 'blocks', role: 'user', blocks: [{ type: 'text', text: 'hi' }] },
    ]);
  });

  it('an override reads the file in the forced format', () => {
    const t = load('conversation.eino.json', { format: 'openai' });
    expect(t.format).toBe('openai');
    expect(t.messages.map(view)).toEqual(EXPECTED);
    const a = readTranscriptDocument(
      parseText('x.json', '[{"role":"system","content":"s"},{"role":"user","content":"hi"}]'),
      { format: 'anthropic' },
    );
    expect(a.format).toBe('anthropic');
    expect(a.messages[0]).toEqual({ kind: 'blocks', role: 'system', blocks: [{ type: 'text', text: 's' }] });
  });

  it(
    'an override that does not fit is an error at the first foreign ' +
      'thing, naming what was found and which format fits',
    () => {
      const file = fixture('transcripts/conversation.eino.json');
      expect(inputError(() => load('conversation.eino.json', { format: 'openai-responses' })).headline).toBe(
        `${file}:4:40: not an openai-responses transcript: found "tool_calls" (OpenAI Chat or Eino), which ` +
          `openai-responses transcripts do not have; the file fits eino (--format eino, or auto)`,
      );
      expect(inputError(() => load('conversation.eino.json', { format: 'anthropic' })).headline).toBe(
        `${file}:4:40: not an anthropic transcript: found "tool_calls" (OpenAI Chat or Eino), which ` +
          `anthropic transcripts do not have; the file fits eino (--format eino, or auto)`,
      );
      const responses = fixture('transcripts/conversation.openai-responses.json');
      expect(inputError(() => load('conversation.openai-responses.json', { format: 'eino' })).headline).toBe(
        `${responses}:3:3: not an eino transcript: found a top-level "instructions" (OpenAI Responses), which ` +
          `eino transcripts do not have; the file fits openai-responses (--format openai-responses, or auto)`,
      );
      const anthropic = fixture('transcripts/conversation.anthropic.json');
      expect(inputError(() => load('conversation.anthropic.json', { format: 'openai' })).headline).toBe(
        `${anthropic}:4:3: not an openai transcript: found a top-level "system" (Anthropic Messages), which ` +
          `openai transcripts do not have; the file fits anthropic (--format anthropic, or auto)`,
      );
      const agentic = fixture('transcripts/conversation.eino-agentic.json');
      expect(inputError(() => load('conversation.eino-agentic.json', { format: 'openai' })).headline).toBe(
        `${agentic}:2:22: not an openai transcript: found "content_blocks" (Eino), which openai ` +
          `transcripts do not have; the file fits eino (--format eino, or auto)`,
      );
      // Eino's extra carries the reminder marker: an override that would drop it is refused.
      const extra = fixture('transcripts/extra.eino.json');
      expect(inputError(() => load('extra.eino.json', { format: 'openai' })).headline).toBe(
        `${extra}:2:93: not an openai transcript: found "extra" (Eino), which openai ` +
          `transcripts do not have; the file fits eino (--format eino, or auto)`,
      );
      const client = fixture('transcripts/client-search.anthropic.json');
      expect(inputError(() => load('client-search.anthropic.json', { format: 'openai-responses' })).headline).toBe(
        `${client}:3:37: not an openai-responses transcript: found a content part typed ` +
          `"tool_use" (Anthropic Messages), which openai-responses transcripts do not have; ` +
          `the file fits anthropic (--format anthropic, or auto)`,
      );
    },
  );

  it('a Responses item typed tool_use or tool_result is an Anthropic block where it does not belong', () => {
    const doc = parseText(
      'x.json',
      '[{"role":"user","content":"hi"},\n {"type":"tool_result","tool_use_id":"t1","content":"x"}]',
    );
    expect(inputError(() => readTranscriptDocument(doc, { format: 'anthropic' })).headline).toBe(
      'x.json:2:3: not an anthropic transcript: found an item typed "tool_result" (OpenAI Responses), which ' +
        'anthropic transcripts do not have; the file fits openai-responses (--format openai-responses, or auto)',
    );
    // Read as Responses (auto), the unknown item type is refused, never dropped quietly; --lenient counts it.
    expect(inputError(() => readTranscriptDocument(doc)).headline).toBe(
      'x.json:2:2: unknown Responses item type "tool_result" (--lenient replays the rest and counts it)',
    );
    expect(readTranscriptDocument(doc, { lenient: true }).coverage?.unexplained).toEqual([
      { location: 'x.json:2:2', message: 'unknown Responses item type "tool_result"' },
    ]);
    // Anthropic response objects are typed "message": read as anthropic, nothing is lost.
    const response = parseText(
      'x.json',
      '[{"role":"user","content":"hi"},{"id":"msg_1","type":"message","role":' +
        '"assistant","content":[{"type":"text","text":"hello"}]}]',
    );
    expect(readTranscriptDocument(response, { format: 'anthropic' }).messages[1]).toEqual({
      kind: 'blocks',
      role: 'assistant',
      blocks: [{ type: 'text', text: 'hello' }],
    });
  });

  it('an unused top-level "instructions" or "system" is refused (a null one carries nothing)', () => {
    const withNull = parseText('x.json', '{"model":"m","system":null,"messages":[{"role":"user","content":"hi"}]}');
    expect(readTranscriptDocument(withNull, { format: 'openai' }).messages).toHaveLength(1);
    const system = parseText('x.json', '{"model":"m","system":"be brief","messages":[{"role":"user","content":"hi"}]}');
    expect(inputError(() => readTranscriptDocument(system, { format: 'openai' })).headline).toBe(
      'x.json:1:14: not an openai transcript: found a top-level "system" (Anthropic Messages), which openai ' +
        'transcripts do not have; the file fits anthropic (--format anthropic, or auto)',
    );
    const instructions = parseText(
      'x.json',
      '{"model":"m","instructions":"be brief","input":[{"role":"user","content":"hi"}]}',
    );
    expect(inputError(() => readTranscriptDocument(instructions, { format: 'anthropic' })).headline).toMatch(
      /^x\.json:1:14: not an anthropic transcript: found a top-level "instructions" \(OpenAI Responses\)/,
    );
  });

  it('nothing fits: the error lists the shapes tried', () => {
    const file = fixture('transcripts/unknown-shape.json');
    expect(inputError(() => load('unknown-shape.json')).headline).toBe(
      `${file}:1:1: no known recording shape fits (found an object with "hello"); tried ` +
        `${RECORDING_FORMATS.join(', ')} (see simulate --help, or force one with --format)`,
    );
    expect(inputError(() => load('unknown-shape.json', { format: 'anthropic' })).headline).toBe(
      `${file}:1:1: not an anthropic transcript: expected a list of messages or a request ` +
        `body with "messages", found an object without "messages" or "input"`,
    );
    expect(inputError(() => readTranscriptDocument(parseText('x.json', '42'))).message).toMatch(
      /^no known recording shape fits \(found a number\); tried claude-code/,
    );
  });

  it('"messages" that is not a list', () => {
    const file = fixture('transcripts/messages-not-list.json');
    expect(inputError(() => load('messages-not-list.json')).headline).toBe(
      `${file}:1:14: "messages" must be a list, found a string`,
    );
  });
});

describe('a forced format against the fixtures of every other format', () => {
  // fixtures/transcripts/*: the same conversations in all five formats (Eino
  // JSON and JSONL, OpenAI Chat, Responses, Anthropic). Forcing a format that
  // is not the file's own must never read it with something lost: it is an
  // error naming what was found and the format that fits, except where the
  // forced reader keeps everything.
  const dir = fileURLToPath(new URL('../../fixtures/transcripts/', import.meta.url));
  // The recordings of other tools (issue 12) are checked below.
  const isRecording = (f: string): boolean =>
    RECORDING_VARIANTS.some(([ext]) => f.endsWith(`.${ext}`)) || /\.(response\.json|claude-code\.jsonl)$/.test(f);
  const files = fs
    .readdirSync(dir)
    .filter((f) => /\.jsonl?$/.test(f) && !isRecording(f))
    .sort();
  const FORMATS = ['eino', 'openai', 'openai-responses', 'anthropic'] as const;
  type F = (typeof FORMATS)[number];
  /**
   * What forcing `forced` on a file detected as `detected` gives:
   * - `same`: the very same messages (OpenAI Chat reads Eino chat messages
   *   losslessly: a tool message's name is resolved from its call);
   * - `eino-semantics`: Eino reads an OpenAI tool message without `tool_name`
   *   as the reference does (not a tool_search result) and says so in a
   *   warning for every tool_search result; no message is lost;
   * - `refused`: an error at file:line:column.
   */
  const EXPECT: Record<F, Record<F, 'same' | 'eino-semantics' | 'refused'>> = {
    eino: { eino: 'same', openai: 'eino-semantics', 'openai-responses': 'refused', anthropic: 'refused' },
    openai: { eino: 'same', openai: 'same', 'openai-responses': 'refused', anthropic: 'refused' },
    'openai-responses': { eino: 'refused', openai: 'refused', 'openai-responses': 'same', anthropic: 'refused' },
    anthropic: { eino: 'refused', openai: 'refused', 'openai-responses': 'refused', anthropic: 'same' },
  };

  it('covers every format', () => {
    const detected = new Set(files.map((f) => loadTranscriptFile(path.join(dir, f)).format));
    expect([...detected].sort()).toEqual([...FORMATS].sort());
    expect(files.filter((f) => f.endsWith('.jsonl')).length).toBeGreaterThan(0);
  });

  for (const f of files) {
    for (const forced of FORMATS) {
      it(`${f} read as ${forced}`, () => {
        const file = path.join(dir, f);
        const auto = loadTranscriptFile(file);
        const expected = EXPECT[forced][auto.format as F];
        if (expected === 'refused') {
          const e = inputError(() => loadTranscriptFile(file, { format: forced }));
          expect(e.headline).toMatch(
            new RegExp(
              `^${escapeRe(file)}:\\d+:\\d+: not an ${forced} transcript: ` +
                `found .+, which ${forced} transcripts do not have; ` +
                `the file fits ${auto.format} \\(--format ${auto.format}, or auto\\)$`,
            ),
          );
          return;
        }
        const t = loadTranscriptFile(file, { format: forced });
        expect(t.format).toBe(forced);
        if (expected === 'same') {
          expect(t.messages).toEqual(auto.messages);
          expect(t.tools).toEqual(auto.tools);
          return;
        }
        // eino-semantics: every message kept, tool messages without a name.
        expect(
          t.messages.map((m) => [m.role, m.kind === 'chat' ? (m.toolCalls ?? []).map((c) => c.name) : []]),
        ).toEqual(auto.messages.map((m) => [m.role, m.kind === 'chat' ? (m.toolCalls ?? []).map((c) => c.name) : []]));
        const searchResults = auto.messages.filter(
          (m) => m.kind === 'chat' && m.role === 'tool' && m.toolName === 'tool_search',
        ).length;
        expect(searchResults).toBeGreaterThan(0);
        expect(
          t.warnings.filter((w) =>
            w.endsWith(
              'tool message answers a tool_search call but has no tool_name: the ' +
                'reference does not read it as a tool_search result',
            ),
          ),
        ).toHaveLength(searchResults);
      });
    }
  }
});

describe('a forced chat format on the recordings of other tools', () => {
  // Never a silent success: a chat reader forced on a Claude Code log, AI SDK
  // messages, LangChain dicts, OTel traces or a call log refuses it at a
  // located position (an unknown key, type or shape), or reads what the file
  // holds (eino-multi is Eino).
  const dir = fileURLToPath(new URL('../../fixtures/transcripts/', import.meta.url));
  const ONE_KIND = [
    'toolsearch-references.claude-code.jsonl',
    'stream-json.claude-code.jsonl',
    'chat-completion.response.json',
    'responses-response.response.json',
    'anthropic-message.response.json',
  ];
  const files = [
    ...fs
      .readdirSync(dir)
      .filter(
        (f) =>
          f.startsWith('keyword-search-then-call.') &&
          RECORDING_VARIANTS.some(
            ([ext, fmt]) => f.endsWith(`.${ext}`) && fmt !== 'eino' && fmt !== 'openai-responses',
          ),
      ),
    ...ONE_KIND,
  ];
  it('covers every recording variant but the chat-shaped ones', () => {
    expect(files).toHaveLength(RECORDING_VARIANTS.length - 2 + ONE_KIND.length);
  });
  for (const f of files) {
    for (const forced of ['eino', 'openai', 'openai-responses', 'anthropic'] as const) {
      it(`${f} forced as ${forced}: a located error`, () => {
        const file = path.join(dir, f);
        const e = inputError(() => loadTranscriptFile(file, { format: forced }));
        expect(e.headline).toMatch(new RegExp(`^${escapeRe(file)}:\\d+:\\d+: `));
      });
    }
  }
});

describe('bad transcripts', () => {
  it('an unknown role is an error located at the message', () => {
    const file = fixture('transcripts/unknown-role.json');
    const e = inputError(() => load('unknown-role.json'));
    expect(e.headline).toBe(`${file}:3:3: unknown role "robot" (expected system, user, assistant, tool)`);
    expect(e.excerpt).toBe('  {"role": "robot", "content": "beep"}\n  ^');
  });

  it('a message without a role', () => {
    expect(inputError(() => readTranscriptDocument(parseText('x.json', '[{"content": "hi"}]'))).headline).toBe(
      'x.json:1:2: message has no role',
    );
  });

  it('a tool result pointing to an unknown call id is an error; with lenient a warning, and the load goes on', () => {
    const file = fixture('transcripts/unknown-call-id.openai.json');
    expect(inputError(() => load('unknown-call-id.openai.json')).headline).toBe(
      `${file}:4:3: tool result for unknown call id "call_404": no earlier tool ` +
        `call has this id (--lenient replays the rest and counts it)`,
    );
    const t = load('unknown-call-id.openai.json', { lenient: true });
    expect(t.warnings).toEqual([`${file}:4:3: tool result for unknown call id "call_404"`]);
    expect(t.messages[2]).toEqual({ kind: 'chat', role: 'tool', content: '12:00', toolCallId: 'call_404' });
    expect(t.messages[3]).toEqual({
      kind: 'chat',
      role: 'tool',
      content: '12:00',
      toolCallId: 'call_1',
      toolName: 'get_time',
    });
    const a = fixture('transcripts/unknown-call-id.anthropic.json');
    expect(load('unknown-call-id.anthropic.json', { lenient: true }).warnings).toEqual([
      `${a}:2:32: tool result for unknown call id "toolu_missing"`,
    ]);
    // An empty call id answers no call, in Eino agentic messages as everywhere else.
    const agentic = parseText(
      'x.json',
      '[{"role": "user", "content_blocks": [{"type": "function_tool_result", ' +
        '"function_tool_result": {"call_id": "", "name": "t"}}]}]',
    );
    expect(readTranscriptDocument(agentic, { lenient: true }).warnings).toEqual([
      'x.json:1:38: tool result for unknown call id ""',
    ]);
  });

  it('more messages than the limit', () => {
    const file = fixture('transcripts/conversation.eino.json');
    const e = inputError(() => load('conversation.eino.json', { limits: { maxMessages: 5 } }));
    expect(e.headline).toBe(
      `${file}:11:3: too many messages: more than 5 (set TOOLSEARCH_MAX_MESSAGES to raise the limit)`,
    );
    expect(load('conversation.eino.json', { limits: { maxMessages: 7 } }).messages).toHaveLength(7);
  });

  it('hostile keys in messages stay ordinary', () => {
    const t = load('extra.eino.json');
    const extra = t.messages[0]!.extra as Record<string, unknown>;
    expect(Object.keys(extra)).toEqual([REMINDER_MARKER, '__proto__', 'constructor']);
    expect(extra['__proto__']).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('the reminder marker', () => {
  it('a user message that is exactly a reminder block gets the marker back (provider logs drop extra)', () => {
    const t = load('reminder.openai.json', { format: 'openai' });
    expect(t.messages[1]).toEqual({
      kind: 'chat',
      role: 'user',
      content:
        '<available-deferred-tools>\nmcp__slack__send_message\nmcp__slack__list_channels\n</available-deferred-tools>',
      extra: { [REMINDER_MARKER]: true },
    });
    // Not a reminder: other text around the block; not a user message.
    expect(t.messages[2]!.extra).toBeUndefined();
    expect(t.messages[3]!.extra).toBeUndefined();
  });

  it('a message that already has the marker field keeps it as it is (even false)', () => {
    const t = load('extra.eino.json');
    expect(t.messages[0]!.extra?.[REMINDER_MARKER]).toBe(true);
    expect(t.messages[1]!.extra).toEqual({ [REMINDER_MARKER]: false });
  });

  it(
    "Eino: only the reference's own marker counts; the text alone does " +
      'not (the reference would insert a second reminder)',
    () => {
      const eino = load('reminder-text.eino.json');
      expect(eino.format).toBe('eino');
      expect(eino.messages[1]).toEqual({
        kind: 'chat',
        role: 'user',
        content:
          '<available-deferred-tools>\nmcp__slack__send_message\n' +
          'mcp__slack__list_channels\n</available-deferred-tools>',
      });
      // Forced Eino too; and the same text in an Eino agentic message.
      expect(load('reminder.openai.json', { format: 'eino' }).messages[1]!.extra).toBeUndefined();
      const agentic = parseText(
        'x.json',
        JSON.stringify([
          {
            role: 'user',
            content_blocks: [
              {
                type: 'user_input_text',
                user_input_text: { text: '<available-deferred-tools>\na\n</available-deferred-tools>' },
              },
            ],
          },
        ]),
      );
      expect(readTranscriptDocument(agentic).messages[0]!.extra).toBeUndefined();
      // A provider log of the same conversation lost extra: its reminder is recognised by the text.
      const openai = load('reminder-text.openai.json');
      expect(openai.format).toBe('openai');
      expect(openai.messages[1]!.extra).toEqual({ [REMINDER_MARKER]: true });
    },
  );

  it('content-block messages too', () => {
    const doc = parseText(
      'x.json',
      JSON.stringify([
        { role: 'user', content: [{ type: 'text', text: '<available-deferred-tools>\n</available-deferred-tools>' }] },
      ]),
    );
    const t = readTranscriptDocument(doc, { format: 'anthropic' });
    expect(t.messages[0]!.extra).toEqual({ [REMINDER_MARKER]: true });
  });
});
