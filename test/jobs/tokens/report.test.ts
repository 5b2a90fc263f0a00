import { describe, expect, it } from 'vitest';
import type { ChatMessage, ToolInfo } from '../../../src/core/types.js';
import type { CatalogTool, Transcript } from '../../../src/formats/types.js';
import { simulate } from '../../../src/jobs/simulate/engine.js';
import { formatCallTokens, formatTokenSummary } from '../../../src/jobs/tokens/format.js';
import { tokenAccountingForReport, withTokens } from '../../../src/jobs/tokens/report.js';

const at = { file: 'catalog.yaml', line: 1, column: 1 };
const tool = (t: ToolInfo, isStatic = false): CatalogTool => ({ ...t, static: isStatic, source: at });
const think = tool({ name: 'think', description: 'Think.' }, true);
const weather = tool({
  name: 'get_weather',
  description: 'Get the weather for a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
});
const email = tool({ name: 'send_email', description: 'Send an email.' });

const chat = (m: Omit<ChatMessage, 'kind'>): ChatMessage => ({ kind: 'chat', ...m });
const messages: ChatMessage[] = [
  chat({ role: 'system', content: 'You are helpful.' }),
  chat({ role: 'user', content: 'Weather in Paris?' }),
  chat({
    role: 'assistant',
    content: '',
    toolCalls: [{ id: 'c1', name: 'tool_search', arguments: '{"query":"weather"}' }],
  }),
  chat({ role: 'tool', content: '{"matches":["get_weather"]}', toolCallId: 'c1', toolName: 'tool_search' }),
  chat({
    role: 'assistant',
    content: '',
    toolCalls: [{ id: 'c2', name: 'get_weather', arguments: '{"city":"Paris"}' }],
  }),
  chat({ role: 'tool', content: 'Sunny', toolCallId: 'c2', toolName: 'get_weather' }),
  chat({ role: 'assistant', content: 'It is sunny.' }),
];
const transcript: Transcript = {
  file: 'chat.json',
  format: 'openai',
  messages,
  locations: messages.map(() => at),
  tools: null,
  warnings: [],
};
const catalog = { tools: [think, weather, email], sources: [{ file: 'catalog.yaml', format: 'toolsearch' as const }] };
const tools = { staticTools: [think], dynamicTools: [weather, email] };

describe('tokenAccountingForReport', () => {
  const run = (mode: 'default' | 'native') => simulate({ transcript, catalog, mode, replay: false });

  it('default mode: the tools block grows once tool_search loads a tool (a cache break)', async () => {
    const report = run('default');
    const acc = await tokenAccountingForReport(report, tools, { otherMode: run('native') });
    expect(
      acc.turns.map((t) => [
        t.tools,
        t.reminder,
        t.loaded,
        t.deferred,
        t.total,
        t.all_up_front,
        t.cache.state,
        t.cache.first_diff,
      ]),
    ).toEqual([
      [TS, 18, 0, 0, TS + 18, 78, 'cold', null],
      [TS_W, 18, 0, 0, TS_W + 18, 78, 'break', DIFF],
      [TS_W, 18, 0, 0, TS_W + 18, 78, 'hit', null],
    ]);
    expect(acc.summary.cache).toEqual({
      calls: 3,
      compared: 2,
      hits: 1,
      breaks: 1,
      break_calls: [2],
      by_mode: {
        default: { calls: 3, compared: 2, hits: 1, breaks: 1, break_calls: [2] },
        native: { calls: 3, compared: 2, hits: 2, breaks: 0, break_calls: [] },
      },
    });
    const withT = withTokens(report, acc);
    expect(withT.turns[1]!.tokens).toBe(acc.turns[1]);
    expect(withT.summary.tokens).toBe(acc.summary.tokens);
    expect(withT.summary.calls).toBe(3);
    expect(formatCallTokens(acc.turns[1]!)).toBe(`${TS_W + 18} tok · break@${DIFF}`);
    // With two dynamic tools, tool search costs more than it saves: the tool_search definition alone is larger.
    expect(formatTokenSummary(acc.summary.tokens, acc.summary.cache)).toEqual([
      'Tokens (estimates for o200k_base, tools serialized as OpenAI JSON; a ' +
        "provider's own template and tokenizer give other exact numbers):",
      '  with tool search    673 (tools 619 + reminder 54) over 3 calls',
      '  all tools up front  234',
      '  extra cost          439 (187.6%)',
      "Prompt cache: the tools block changed at 1 of 2 later calls (call 2); a provider's prefix cache breaks there",
      '  by mode: default 1 break, native 0 breaks',
    ]);
  });

  it('model-native mode: the tools block stays put; deferred and loaded definitions are counted apart', async () => {
    const acc = await tokenAccountingForReport(run('native'), tools);
    expect(acc.turns.map((t) => [t.tools, t.reminder, t.loaded, t.deferred, t.total, t.cache.state])).toEqual([
      [18, 18, 0, 73, 36, 'cold'],
      [18, 18, 43, 73, 79, 'hit'],
      [18, 18, 43, 73, 79, 'hit'],
    ]);
    expect(acc.summary.cache.by_mode).toBeUndefined();
    expect(formatTokenSummary(acc.summary.tokens, acc.summary.cache)).toEqual([
      'Tokens (estimates for o200k_base, tools serialized as OpenAI JSON; a ' +
        "provider's own template and tokenizer give other exact numbers):",
      '  with tool search          194 (tools 54 + reminder 54 + loaded by searches 86) over 3 calls',
      '  all tools up front        234',
      '  saved                     40 (17.1%)',
      '  deferred, not in context  219 (definitions sent with defer_loading)',
      "Prompt cache: the tools block never changed over 3 calls; a provider's prefix cache can hit every time",
    ]);
  });
});

// The visible tools block: think + tool_search (179 tokens), then + get_weather (220), which starts at offset 826.
const TS = 179;
const TS_W = 220;
const DIFF = 826;
