/**
 * A small catalog and conversation for the TUI tests, built in memory (the
 * file loaders have their own tests): a keyword search, a call to a tool it
 * found, a call to a tool no search had named, and a final answer.
 */
import type { Message, Mode } from '../../src/core/types.js';
import type { Catalog, CatalogTool, Transcript } from '../../src/formats/types.js';
import { simulate } from '../../src/jobs/simulate/engine.js';
import type { SimulationReport } from '../../src/jobs/simulate/report.js';

const at = { file: 'catalog.yaml', line: 1, column: 1 };

function tool(name: string, description: string, extra: Partial<CatalogTool> = {}): CatalogTool {
  return { name, description, static: false, source: at, ...extra };
}

export const CATALOG: Catalog = {
  sources: [{ file: 'catalog.yaml', format: 'toolsearch' }],
  tools: [
    tool('get_current_time', 'Current date and time', { static: true }),
    tool('slack__post_message', 'Post a message to a Slack channel', {
      parameters: {
        type: 'object',
        properties: {
          channel: { type: 'string', description: 'Channel id' },
          text: { type: 'string', description: 'Message text' },
        },
        required: ['channel', 'text'],
      },
    }),
    tool('slack__list_channels', 'List the channels of a Slack workspace'),
    tool('slack__add_reaction', 'Add an emoji reaction to a message'),
    tool('github__create_issue', 'Create an issue in a GitHub repository'),
    tool('github__merge_pull_request', 'Merge a pull request'),
    tool('linear__create_issue', 'Create a Linear issue'),
    tool('notion__search', 'Search Notion pages and databases'),
  ],
};

const chat = (m: Omit<Extract<Message, { kind: 'chat' }>, 'kind'>): Message => ({ kind: 'chat', ...m });

export const MESSAGES: readonly Message[] = [
  chat({ role: 'system', content: 'You are a helpful assistant.' }),
  chat({ role: 'user', content: 'Tell #general that the release is out, then merge PR 42.' }),
  chat({
    role: 'assistant',
    content: '',
    toolCalls: [{ id: 'c1', name: 'tool_search', arguments: '{"query":"slack message"}' }],
  }),
  chat({
    role: 'tool',
    toolCallId: 'c1',
    toolName: 'tool_search',
    content: '{"matches":["slack__post_message","slack__list_channels"]}',
  }),
  chat({
    role: 'assistant',
    content: '',
    toolCalls: [{ id: 'c2', name: 'slack__post_message', arguments: '{"channel":"general","text":"Release is out"}' }],
  }),
  chat({ role: 'tool', toolCallId: 'c2', toolName: 'slack__post_message', content: 'ok' }),
  chat({
    role: 'assistant',
    content: '',
    toolCalls: [{ id: 'c3', name: 'github__merge_pull_request', arguments: '{"number":42}' }],
  }),
  chat({ role: 'tool', toolCallId: 'c3', toolName: 'github__merge_pull_request', content: 'error: unknown tool' }),
  chat({ role: 'assistant', content: 'Posted to #general. I could not merge PR 42.\x1b[31m' }),
];

export const TRANSCRIPT: Transcript = {
  file: 'chat.json',
  format: 'eino',
  messages: MESSAGES,
  locations: MESSAGES.map((_, i) => ({ file: 'chat.json', line: i + 1, column: 1 })),
  tools: null,
  warnings: [],
};

export function report(mode: Mode = 'default', replay = false, catalog: Catalog = CATALOG): SimulationReport {
  return simulate({ transcript: TRANSCRIPT, catalog, mode, replay });
}
