#!/usr/bin/env node
/**
 * Generates fixtures/transcripts/ from scenario scripts below.
 *
 *   npm run build && node test/tools/gen-transcripts.mjs
 *
 * Every recorded `tool_search` result is COMPUTED with the built core
 * (dist/core) against fixtures/catalogs/demo.yaml, so the transcripts hold
 * exactly what the reference returns -- except where a scenario says
 * `result:` explicitly on purpose (the malformed-result scenario).
 * Other tool results are hand-written, realistic payloads.
 *
 * Output is deterministic: running the script twice gives identical files.
 *
 * Over 400 lines: the scenarios are data, one per fixture, beside the writers of each format.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const core = await import(path.join(root, 'dist/core/index.js'));
const outDir = path.join(root, 'fixtures/transcripts');

const catalog = YAML.parse(fs.readFileSync(path.join(root, 'fixtures/catalogs/demo.yaml'), 'utf8')).tools;
const dynamicTools = catalog.filter((t) => !t.static);
const index = new core.ToolIndex(
  dynamicTools.map(({ name, description, parameters }) => ({ name, description, parameters })),
);
const byName = new Map(catalog.map((t) => [t.name, t]));

// ---------------------------------------------------------------------------
// Scenario scripts. Steps:
//   { user: text }                      a user message
//   { call: name, args: object, result?: text }   one assistant message with one
//                                        tool call, then the tool message.
//                                        tool_search results are computed unless
//                                        `result` is given.
//   { assistant: text }                 a final assistant text message
// ---------------------------------------------------------------------------

const SYSTEM =
  "You are Atlas, the engineering team's assistant at Acme. Tools that are not loaded yet are listed by name in " +
  '<available-deferred-tools>; load them with tool_search before calling them. Keep answers short.';

const SYSTEM_WITH_CHANNELS =
  SYSTEM + ' Slack channels: #eng is C05ENG4242, #ops is C05OPS1234, #releases is C06REL0007.';

const j = (v) => JSON.stringify(v);

const notLoaded = (name) =>
  `Error: tool "${name}" is not available to the model yet. Call tool_search to load it first.`;

const scenarios = {
  'keyword-search-then-call': {
    system: SYSTEM,
    steps: [
      { user: 'Let #eng know on Slack that the 2.4.0 deploy to production finished and all health checks are green.' },
      { call: 'tool_search', args: { query: 'slack send message channel' } },
      {
        call: 'mcp__slack__list_channels',
        args: { limit: 200 },
        result: j({
          ok: true,
          channels: [
            { id: 'C02GEN0001', name: 'general', topic: 'Company-wide announcements', num_members: 214 },
            { id: 'C05ENG4242', name: 'eng', topic: 'Engineering chatter and deploy notices', num_members: 58 },
            { id: 'C05OPS1234', name: 'ops', topic: 'On-call and incidents', num_members: 23 },
            { id: 'C06REL0007', name: 'releases', topic: 'Release notes', num_members: 97 },
          ],
          response_metadata: { next_cursor: '' },
        }),
      },
      {
        call: 'mcp__slack__send_message',
        args: {
          channel_id: 'C05ENG4242',
          text: ':rocket: 2.4.0 is deployed to production and all health checks are green.',
        },
        result: j({
          ok: true,
          channel: 'C05ENG4242',
          ts: '1748939565.118909',
          message: {
            type: 'message',
            user: 'U07ATLAS01',
            text: ':rocket: 2.4.0 is deployed to production and all health checks are green.',
          },
        }),
      },
      { assistant: 'Done: I posted in #eng that 2.4.0 is live in production and all health checks are green.' },
    ],
  },

  'select-search': {
    system: SYSTEM,
    steps: [
      {
        user: 'Is there already an issue in acme/shop about the cart total ignoring discount codes? If not, open one.',
      },
      { call: 'tool_search', args: { query: 'select:mcp__github__list_issues,mcp__github__create_issue' } },
      {
        call: 'mcp__github__list_issues',
        args: { owner: 'acme', repo: 'shop', state: 'open', labels: ['bug'] },
        result: j([
          {
            number: 311,
            title: 'Checkout button unresponsive on iOS 17 Safari',
            state: 'open',
            labels: ['bug', 'mobile'],
            html_url: 'https://github.com/acme/shop/issues/311',
          },
          {
            number: 302,
            title: 'Shipping estimate shows NaN for PO boxes',
            state: 'open',
            labels: ['bug'],
            html_url: 'https://github.com/acme/shop/issues/302',
          },
        ]),
      },
      {
        call: 'mcp__github__create_issue',
        args: {
          owner: 'acme',
          repo: 'shop',
          title: 'Cart total ignores discount codes',
          body:
            'Applying a valid discount code shows the discount line item, but the cart total is not ' +
            'reduced.\n\nSteps: add any item, apply code SPRING10, compare subtotal and total.',
          labels: ['bug'],
        },
        result: j({
          number: 318,
          title: 'Cart total ignores discount codes',
          state: 'open',
          html_url: 'https://github.com/acme/shop/issues/318',
        }),
      },
      {
        assistant:
          'No open issue covered it, so I opened acme/shop#318 "Cart total ' +
          'ignores discount codes" with repro steps and the bug label.',
      },
    ],
  },

  'required-keyword-search': {
    system: SYSTEM,
    steps: [
      {
        user:
          'Reply in this thread that the rollback finished and error rates are back to ' +
          'normal: https://acme.slack.com/archives/C05OPS1234/p1748937000123456',
      },
      { call: 'tool_search', args: { query: '+slack reply thread' } },
      {
        call: 'mcp__slack__get_thread_replies',
        args: { channel_id: 'C05OPS1234', thread_ts: '1748937000.123456' },
        result: j({
          ok: true,
          messages: [
            {
              user: 'U03DANA042',
              ts: '1748937000.123456',
              text: ':rotating_light: 5xx rate on checkout-api above 4% since the 2.4.0 rollout',
            },
            { user: 'U01BEN0007', ts: '1748937120.000200', text: 'Rolling back to 2.3.9 now' },
          ],
        }),
      },
      {
        call: 'mcp__slack__reply_to_thread',
        args: {
          channel_id: 'C05OPS1234',
          thread_ts: '1748937000.123456',
          text: 'Rollback to 2.3.9 finished; 5xx rate on checkout-api is back under 0.1%.',
        },
        result: j({ ok: true, channel: 'C05OPS1234', ts: '1748938011.441100', thread_ts: '1748937000.123456' }),
      },
      {
        assistant:
          'Replied in the #ops thread: the rollback to 2.3.9 finished and checkout-api error rates are back to normal.',
      },
    ],
  },

  'accumulate-two-searches': {
    system: SYSTEM,
    steps: [
      {
        user:
          "Schedule a 30-minute postmortem for yesterday's checkout outage tomorrow at 10:00 with " +
          'ana@acme.dev and ben@acme.dev, and create a Notion page for the notes.',
      },
      { call: 'tool_search', args: { query: 'calendar create event' } },
      {
        call: 'mcp__google_calendar__create_event',
        args: {
          calendarId: 'primary',
          summary: 'Postmortem: checkout outage',
          start: '2025-06-04T10:00:00+02:00',
          end: '2025-06-04T10:30:00+02:00',
          attendees: [{ email: 'ana@acme.dev' }, { email: 'ben@acme.dev' }],
          addConference: true,
        },
        result: j({
          id: '5q1c0v9m2l8h3k7n4b6t',
          status: 'confirmed',
          htmlLink: 'https://www.google.com/calendar/event?eid=NXExYzB2OW0ybDhoM2s3bjRiNnQ',
          start: { dateTime: '2025-06-04T10:00:00+02:00' },
          end: { dateTime: '2025-06-04T10:30:00+02:00' },
          hangoutLink: 'https://meet.google.com/xkd-qpwe-rty',
        }),
      },
      { call: 'tool_search', args: { query: 'notion create page' } },
      {
        call: 'mcp__notion__notion-create-pages',
        args: {
          pages: [
            {
              properties: { title: 'Postmortem: checkout outage (2025-06-02)' },
              content: '## Summary\n\n## Timeline\n\n## Root cause\n\n## Action items\n',
            },
          ],
        },
        result: j({
          pages: [
            {
              id: '1f3a9c2e-7b44-4d1e-9a0b-2c6d8e5f7a11',
              url: 'https://www.notion.so/acme/Postmortem-checkout-outage-2025-06-02-1f3a9c2e7b444d1e9a0b2c6d8e5f7a11',
            },
          ],
        }),
      },
      {
        assistant:
          'Booked "Postmortem: checkout outage" tomorrow 10:00-10:30 with Ana and Ben (Meet link included) and ' +
          'created the Notion notes page with summary, timeline, root cause and action items sections.',
      },
    ],
  },

  'deferred-tool-called-too-early': {
    system: SYSTEM,
    steps: [
      { user: "What's on my calendar tomorrow?" },
      { call: 'get_current_time', args: {}, result: '2025-06-03T08:12:44+02:00 (Europe/Berlin)' },
      {
        call: 'mcp__google_calendar__list_events',
        args: { calendarId: 'primary', timeMin: '2025-06-04T00:00:00+02:00', timeMax: '2025-06-05T00:00:00+02:00' },
        result: notLoaded('mcp__google_calendar__list_events'),
      },
      { call: 'tool_search', args: { query: 'google calendar list events' } },
      {
        call: 'mcp__google_calendar__list_events',
        args: { calendarId: 'primary', timeMin: '2025-06-04T00:00:00+02:00', timeMax: '2025-06-05T00:00:00+02:00' },
        result: j({
          items: [
            {
              id: 'a1',
              summary: 'Platform standup',
              start: { dateTime: '2025-06-04T09:30:00+02:00' },
              end: { dateTime: '2025-06-04T09:45:00+02:00' },
            },
            {
              id: 'b2',
              summary: '1:1 with Dana',
              start: { dateTime: '2025-06-04T13:00:00+02:00' },
              end: { dateTime: '2025-06-04T13:30:00+02:00' },
            },
            {
              id: 'c3',
              summary: 'Design review: search v2',
              start: { dateTime: '2025-06-04T15:00:00+02:00' },
              end: { dateTime: '2025-06-04T16:00:00+02:00' },
            },
          ],
        }),
      },
      {
        assistant:
          'Tomorrow (Wed 4 June): 09:30 Platform standup, 13:00 1:1 with Dana, 15:00-16:00 Design review: search v2.',
      },
    ],
  },

  'redundant-select': {
    system: SYSTEM,
    steps: [
      { user: "What's on my calendar on Friday?" },
      { call: 'tool_search', args: { query: 'calendar events' } },
      {
        call: 'mcp__google_calendar__list_events',
        args: { calendarId: 'primary', timeMin: '2025-06-06T00:00:00+02:00', timeMax: '2025-06-07T00:00:00+02:00' },
        result: j({
          items: [
            {
              id: 'd4',
              summary: 'Sprint review',
              start: { dateTime: '2025-06-06T11:00:00+02:00' },
              end: { dateTime: '2025-06-06T12:00:00+02:00' },
            },
            {
              id: 'e5',
              summary: 'Team lunch',
              start: { dateTime: '2025-06-06T12:30:00+02:00' },
              end: { dateTime: '2025-06-06T13:30:00+02:00' },
            },
          ],
        }),
      },
      { assistant: 'Friday: 11:00 Sprint review and 12:30 Team lunch. The morning before 11:00 is free.' },
      { user: 'Block 9:00 to 9:30 that day for focus time.' },
      { call: 'tool_search', args: { query: 'select:mcp__google_calendar__create_event' } },
      {
        call: 'mcp__google_calendar__create_event',
        args: {
          calendarId: 'primary',
          summary: 'Focus time',
          start: '2025-06-06T09:00:00+02:00',
          end: '2025-06-06T09:30:00+02:00',
        },
        result: j({
          id: 'f6',
          status: 'confirmed',
          summary: 'Focus time',
          start: { dateTime: '2025-06-06T09:00:00+02:00' },
          end: { dateTime: '2025-06-06T09:30:00+02:00' },
        }),
      },
      { assistant: 'Blocked Friday 09:00-09:30 as "Focus time".' },
    ],
  },

  'unknown-tool': {
    system: SYSTEM,
    steps: [
      { user: 'DM Priya that the Q3 report is ready for her review.' },
      { call: 'tool_search', args: { query: 'slack direct message' } },
      {
        call: 'mcp__slack__send_direct_message',
        args: { user: 'Priya', text: 'Hi Priya, the Q3 report is ready for your review.' },
        result: 'Error: tool "mcp__slack__send_direct_message" not found.',
      },
      { call: 'tool_search', args: { query: 'slack users' } },
      {
        call: 'mcp__slack__get_users',
        args: { limit: 100 },
        result: j({
          ok: true,
          members: [
            { id: 'U01BEN0007', name: 'ben', real_name: 'Ben Okafor' },
            { id: 'U03DANA042', name: 'dana', real_name: 'Dana Whitfield' },
            { id: 'U04PRIYA77', name: 'priya', real_name: 'Priya Raman' },
          ],
        }),
      },
      {
        call: 'mcp__slack__send_message',
        args: { channel_id: 'U04PRIYA77', text: 'Hi Priya, the Q3 report is ready for your review.' },
        result: j({ ok: true, channel: 'D07PRIYA01', ts: '1748941020.000300' }),
      },
      { assistant: 'Sent Priya a direct message that the Q3 report is ready for her review.' },
    ],
  },

  'stale-after-catalog-change': {
    system: SYSTEM_WITH_CHANNELS,
    steps: [
      { user: 'Read CHANGELOG.md in ~/src/shop and post the 2.4.0 section to #releases.' },
      { call: 'tool_search', args: { query: 'read file' } },
      {
        call: 'mcp__filesystem__read_file',
        args: { path: '/home/dev/src/shop/CHANGELOG.md', head: 12 },
        result:
          '# Changelog\n\n## 2.4.0 - 2025-06-03\n\n- Discount codes apply to bundles\n' +
          '- Faster cart rendering on mobile (-35% TTI)\n' +
          '- Fix: shipping estimate for PO boxes\n\n## 2.3.9 - 2025-05-20\n\n- Fix: duplicate order emails\n',
      },
      { call: 'tool_search', args: { query: 'slack send message' } },
      {
        call: 'mcp__slack__send_message',
        args: {
          channel_id: 'C06REL0007',
          text:
            '*2.4.0* (2025-06-03)\n- Discount codes apply to bundles\n' +
            '- Faster cart rendering on mobile (-35% TTI)\n- Fix: shipping estimate for PO boxes',
        },
        result: j({ ok: true, channel: 'C06REL0007', ts: '1748942400.000100' }),
      },
      { assistant: 'Posted the 2.4.0 changelog section to #releases.' },
    ],
  },

  'malformed-search-result': {
    system: SYSTEM,
    steps: [
      { user: 'Is there already a GitHub issue in acme/shop about the login timeout? If not, file one.' },
      // The recorded result was cut off by the host's 96-character log limit:
      // it is not valid JSON, so forward selection skips it silently.
      { call: 'tool_search', args: { query: 'github issue' }, truncate: 96 },
      {
        call: 'mcp__github__list_issues',
        args: { owner: 'acme', repo: 'shop', state: 'open' },
        result: notLoaded('mcp__github__list_issues'),
      },
      { call: 'tool_search', args: { query: 'github issue' } },
      {
        call: 'mcp__github__list_issues',
        args: { owner: 'acme', repo: 'shop', state: 'open' },
        result: j([
          {
            number: 318,
            title: 'Cart total ignores discount codes',
            state: 'open',
            html_url: 'https://github.com/acme/shop/issues/318',
          },
          {
            number: 311,
            title: 'Checkout button unresponsive on iOS 17 Safari',
            state: 'open',
            html_url: 'https://github.com/acme/shop/issues/311',
          },
        ]),
      },
      {
        call: 'mcp__github__create_issue',
        args: {
          owner: 'acme',
          repo: 'shop',
          title: 'Login times out after 30 s on slow connections',
          body:
            'Users on slow mobile connections get "Request timed out" on ' +
            '/login; the auth request has a fixed 30 s timeout.',
          labels: ['bug'],
        },
        result: j({
          number: 319,
          title: 'Login times out after 30 s on slow connections',
          state: 'open',
          html_url: 'https://github.com/acme/shop/issues/319',
        }),
      },
      { assistant: 'There was no open issue about the login timeout, so I filed acme/shop#319.' },
    ],
  },
};

// Which scenarios also get the other transcript formats.
const MULTI_FORMAT = [
  'keyword-search-then-call',
  'deferred-tool-called-too-early',
  'select-search',
  'redundant-select',
  'required-keyword-search',
  'accumulate-two-searches',
];

// ---------------------------------------------------------------------------
// Building the neutral message list
// ---------------------------------------------------------------------------

/** Neutral messages: {role, content, toolCalls?: [{id, name, arguments}], toolCallId?, toolName?}. */
function build(scenario) {
  const msgs = [{ role: 'system', content: scenario.system }];
  let n = 0;
  for (const step of scenario.steps) {
    if ('user' in step) msgs.push({ role: 'user', content: step.user });
    else if ('assistant' in step) msgs.push({ role: 'assistant', content: step.assistant });
    else {
      const id = `call_${++n}`;
      const args = JSON.stringify(step.args);
      let result = step.result;
      if (step.call === core.TOOL_SEARCH_NAME && result === undefined) {
        const r = core.runToolSearch(index, args);
        if (!r.ok) throw new Error(`tool_search ${args}: ${r.error}`);
        result = core.encodeMatches(r.matches);
        if (step.truncate) result = result.slice(0, step.truncate);
      }
      if (result === undefined) throw new Error(`no result for ${step.call}`);
      msgs.push({ role: 'assistant', content: '', toolCalls: [{ id, name: step.call, arguments: args }] });
      msgs.push({ role: 'tool', content: result, toolCallId: id, toolName: step.call });
    }
  }
  return msgs;
}

// ---------------------------------------------------------------------------
// Formats
// ---------------------------------------------------------------------------

function toEino(msgs) {
  return msgs.map((m) => {
    const o = { role: m.role, content: m.content };
    if (m.toolCalls)
      o.tool_calls = m.toolCalls.map((c) => ({
        id: c.id,
        type: 'function',
        function: { name: c.name, arguments: c.arguments },
      }));
    if (m.role === 'tool') {
      o.tool_call_id = m.toolCallId;
      o.tool_name = m.toolName;
    }
    return o;
  });
}

/** Tools the request body carries: the whole demo catalog; dynamic tools are marked `defer_loading: true`. */
function openaiChatTools() {
  return catalog.map((t) => {
    const o = {
      type: 'function',
      function: {
        name: t.name,
        description: t.description,
        parameters: t.parameters ?? { type: 'object', properties: {} },
      },
    };
    if (!t.static) o.defer_loading = true;
    return o;
  });
}
function openaiResponsesTools() {
  return catalog.map((t) => {
    const o = {
      type: 'function',
      name: t.name,
      description: t.description,
      parameters: t.parameters ?? { type: 'object', properties: {} },
    };
    if (!t.static) o.defer_loading = true;
    return o;
  });
}
function anthropicTools() {
  return catalog.map((t) => {
    const o = {
      name: t.name,
      description: t.description,
      input_schema: t.parameters ?? { type: 'object', properties: {} },
    };
    if (!t.static) o.defer_loading = true;
    return o;
  });
}

function toOpenAIChat(msgs) {
  return {
    model: 'gpt-4.1',
    messages: msgs.map((m) => {
      if (m.role === 'tool') return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
      if (m.toolCalls)
        return {
          role: 'assistant',
          content: m.content === '' ? null : m.content,
          tool_calls: m.toolCalls.map((c) => ({
            id: c.id,
            type: 'function',
            function: { name: c.name, arguments: c.arguments },
          })),
        };
      return { role: m.role, content: m.content };
    }),
    tools: openaiChatTools(),
  };
}

function toOpenAIResponses(msgs) {
  const input = [];
  for (const m of msgs) {
    if (m.role === 'tool') input.push({ type: 'function_call_output', call_id: m.toolCallId, output: m.content });
    else if (m.toolCalls) {
      if (m.content !== '')
        input.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: m.content }] });
      for (const c of m.toolCalls)
        input.push({ type: 'function_call', call_id: c.id, name: c.name, arguments: c.arguments });
    } else if (m.role === 'assistant')
      input.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: m.content }] });
    else input.push({ role: m.role, content: m.content });
  }
  return { model: 'gpt-5.4', input, tools: openaiResponsesTools() };
}

/** Anthropic Messages request body. `textBlocks`: tool_result content as text blocks instead of a string. */
function toAnthropic(msgs, { textBlocks = false } = {}) {
  const system = msgs
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n\n');
  const messages = [];
  for (const m of msgs) {
    if (m.role === 'system') continue;
    if (m.role === 'tool') {
      const block = {
        type: 'tool_result',
        tool_use_id: m.toolCallId,
        content: textBlocks ? [{ type: 'text', text: m.content }] : m.content,
      };
      messages.push({ role: 'user', content: [block] });
    } else if (m.toolCalls) {
      const content = [];
      if (m.content !== '') content.push({ type: 'text', text: m.content });
      for (const c of m.toolCalls)
        content.push({ type: 'tool_use', id: c.id, name: c.name, input: JSON.parse(c.arguments) });
      messages.push({ role: 'assistant', content });
    } else if (m.role === 'assistant')
      messages.push({ role: 'assistant', content: [{ type: 'text', text: m.content }] });
    else messages.push({ role: 'user', content: m.content });
  }
  return { model: 'claude-sonnet-4-5', max_tokens: 4096, system, messages, tools: anthropicTools() };
}

// ---------------------------------------------------------------------------
// Recording formats (issue 12): the same conversation as each tool records it
// ---------------------------------------------------------------------------

/** Groups the neutral messages into model calls: the messages before each assistant message, and that message. */
function modelCallsOf(msgs) {
  const calls = [];
  msgs.forEach((m, i) => {
    if (m.role !== 'assistant') return;
    calls.push({ input: msgs.slice(0, i), output: m });
  });
  return calls;
}

const uuid = (n) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/**
 * Claude Code session log (~/.claude/projects/<project>/<session>.jsonl).
 * No system prompt is logged. The search tool is Claude Code's `ToolSearch`;
 * every model response is written one line per content block (a thinking
 * block, then the tool_use), the lines sharing message.id. A summary line
 * and a file-history snapshot are not conversation.
 */
function toClaudeCode(msgs) {
  const sessionId = '5f0c2d9e-1b7a-4c3e-9d21-6a8b4e0f7c13';
  const lines = [{ type: 'summary', summary: 'Atlas: Slack, GitHub and calendar chores', leafUuid: uuid(999) }];
  let n = 0;
  let parent = null;
  let msgN = 0;
  const base = () => ({
    parentUuid: parent,
    isSidechain: false,
    userType: 'external',
    cwd: '/home/dev/src/shop',
    sessionId,
    version: '2.0.14',
    gitBranch: 'main',
  });
  const ts = () =>
    `2025-06-03T08:${String(10 + Math.floor(n / 60)).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}.000Z`;
  const push = (o) => {
    n++;
    const line = { ...base(), ...o, uuid: uuid(n), timestamp: ts() };
    lines.push(line);
    parent = line.uuid;
  };
  const rename = (name) => (name === core.TOOL_SEARCH_NAME ? 'ToolSearch' : name);
  for (const m of msgs) {
    if (m.role === 'system') continue;
    if (m.role === 'user') {
      push({ type: 'user', message: { role: 'user', content: m.content } });
      lines.push({
        type: 'file-history-snapshot',
        messageId: uuid(n),
        snapshot: { messageId: uuid(n), trackedFileBackups: {}, timestamp: ts() },
        isSnapshotUpdate: false,
      });
    } else if (m.role === 'tool') {
      push({
        type: 'user',
        message: { role: 'user', content: [{ tool_use_id: m.toolCallId, type: 'tool_result', content: m.content }] },
        toolUseResult: m.content,
      });
    } else {
      const id = `msg_01ATLAS${String(++msgN).padStart(4, '0')}`;
      const msg = (content) => ({
        id,
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5-20250929',
        content,
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 12, output_tokens: 40 },
      });
      if (m.toolCalls) {
        push({
          type: 'assistant',
          requestId: `req_${id}`,
          message: msg([{ type: 'thinking', thinking: 'Which tool fits this step?', signature: 'c2ln' }]),
        });
        for (const c of m.toolCalls)
          push({
            type: 'assistant',
            requestId: `req_${id}`,
            message: msg([{ type: 'tool_use', id: c.id, name: rename(c.name), input: JSON.parse(c.arguments) }]),
          });
      } else push({ type: 'assistant', requestId: `req_${id}`, message: msg([{ type: 'text', text: m.content }]) });
    }
  }
  return lines;
}

/** Vercel AI SDK ModelMessage[] (v5/v6). */
function toAiSdkModel(msgs) {
  return msgs.map((m) => {
    if (m.role === 'tool')
      return {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: m.toolCallId,
            toolName: m.toolName,
            output: { type: 'text', value: m.content },
          },
        ],
      };
    if (m.toolCalls)
      return {
        role: 'assistant',
        content: m.toolCalls.map((c) => ({
          type: 'tool-call',
          toolCallId: c.id,
          toolName: c.name,
          input: JSON.parse(c.arguments),
        })),
      };
    if (m.role === 'assistant') return { role: 'assistant', content: [{ type: 'text', text: m.content }] };
    return { role: m.role, content: m.content };
  });
}

/** Vercel AI SDK UIMessage[]: an assistant turn is one UIMessage, a step-start before each model call's parts. */
function toAiSdkUi(msgs) {
  const out = [];
  let k = 0;
  let turn = null;
  for (const m of msgs) {
    if (m.role === 'system' || m.role === 'user') {
      turn = null;
      out.push({ id: `msg-${++k}`, role: m.role, parts: [{ type: 'text', text: m.content }] });
    } else if (m.role === 'assistant') {
      if (!turn) {
        turn = { id: `msg-${++k}`, role: 'assistant', parts: [] };
        out.push(turn);
      }
      turn.parts.push({ type: 'step-start' });
      if (m.toolCalls)
        for (const c of m.toolCalls)
          turn.parts.push({
            type: `tool-${c.name}`,
            toolCallId: c.id,
            state: 'input-available',
            input: JSON.parse(c.arguments),
          });
      else turn.parts.push({ type: 'text', text: m.content, state: 'done' });
    } else {
      const part = turn.parts.find((p) => p.toolCallId === m.toolCallId);
      part.state = 'output-available';
      part.output = m.content;
    }
  }
  return out;
}

/** OpenAI Agents JS SDK result.history (AgentInputItem[]). */
function toAgentsJs(msgs) {
  const out = [];
  for (const m of msgs) {
    if (m.role === 'tool')
      out.push({
        type: 'function_call_result',
        name: m.toolName,
        callId: m.toolCallId,
        status: 'completed',
        output: { type: 'text', text: m.content },
      });
    else if (m.toolCalls)
      for (const c of m.toolCalls)
        out.push({
          type: 'function_call',
          id: `fc_${c.id}`,
          callId: c.id,
          name: c.name,
          status: 'completed',
          arguments: c.arguments,
          providerData: {},
        });
    else if (m.role === 'assistant')
      out.push({
        id: `msg_${out.length}`,
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: m.content, providerData: { annotations: [] } }],
      });
    else out.push({ role: m.role, content: m.content });
  }
  return out;
}

/** OpenAI Agents Python SDK result.to_input_list(): Responses input items, snake_case. */
function toAgentsPython(msgs) {
  const out = [];
  for (const m of msgs) {
    if (m.role === 'tool') out.push({ call_id: m.toolCallId, output: m.content, type: 'function_call_output' });
    else if (m.toolCalls)
      for (const c of m.toolCalls)
        out.push({
          arguments: c.arguments,
          call_id: c.id,
          name: c.name,
          type: 'function_call',
          id: `fc_${c.id}`,
          status: 'completed',
        });
    else if (m.role === 'assistant')
      out.push({
        id: `msg_${out.length}`,
        content: [{ annotations: [], text: m.content, type: 'output_text', logprobs: [] }],
        role: 'assistant',
        status: 'completed',
        type: 'message',
      });
    else out.push({ content: m.content, role: m.role });
  }
  return out;
}

/** LangChain message fields (BaseMessage.model_dump()). */
function langchainFields(m) {
  const common = { additional_kwargs: {}, response_metadata: {}, name: null, id: null };
  if (m.role === 'system') return ['system', 'SystemMessage', { content: m.content, ...common, type: 'system' }];
  if (m.role === 'user')
    return ['human', 'HumanMessage', { content: m.content, ...common, type: 'human', example: false }];
  if (m.role === 'tool')
    return [
      'tool',
      'ToolMessage',
      {
        content: m.content,
        ...common,
        type: 'tool',
        name: m.toolName,
        tool_call_id: m.toolCallId,
        artifact: null,
        status: 'success',
      },
    ];
  const tool_calls = (m.toolCalls ?? []).map((c) => ({
    name: c.name,
    args: JSON.parse(c.arguments),
    id: c.id,
    type: 'tool_call',
  }));
  return [
    'ai',
    'AIMessage',
    {
      content: m.content,
      ...common,
      type: 'ai',
      example: false,
      tool_calls,
      invalid_tool_calls: [],
      usage_metadata: null,
    },
  ];
}
const toLangchainDict = (msgs) =>
  msgs.map((m) => {
    const [type, , data] = langchainFields(m);
    return { type, data };
  });
const toLangGraph = (msgs) => ({ messages: msgs.map((m) => langchainFields(m)[2]) });
// Serializable.to_json (langchain_core/load/serializable.py) keeps only "useful" fields: required ones
// (content), truthy ones, and those that differ from their default; so example=False, None, {} and [] go.
const toLangchainLc = (msgs) =>
  msgs.map((m) => {
    const [, cls, data] = langchainFields(m);
    const kwargs = Object.fromEntries(
      Object.entries(data).filter(
        ([, v]) =>
          v !== null &&
          v !== false &&
          !(Array.isArray(v) && v.length === 0) &&
          !(typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0),
      ),
    );
    return { lc: 1, type: 'constructor', id: ['langchain', 'schema', 'messages', cls], kwargs };
  });

/** OpenTelemetry GenAI semantic-convention parts. */
function otelMessage(m) {
  if (m.role === 'tool')
    return { role: 'tool', parts: [{ type: 'tool_call_response', id: m.toolCallId, response: m.content }] };
  if (m.toolCalls)
    return {
      role: 'assistant',
      parts: m.toolCalls.map((c) => ({
        type: 'tool_call',
        id: c.id,
        name: c.name,
        arguments: JSON.parse(c.arguments),
      })),
      finish_reason: 'tool_call',
    };
  if (m.role === 'assistant')
    return { role: 'assistant', parts: [{ type: 'text', content: m.content }], finish_reason: 'stop' };
  return { role: m.role, parts: [{ type: 'text', content: m.content }] };
}
const attr = (key, value) => ({
  key,
  value: typeof value === 'number' ? { intValue: String(value) } : { stringValue: value },
});
const nano = (k) => String(1748931164000000000n + BigInt(k) * 1500000000n);

/** OTLP JSON: an agent span, then one chat span per model call with gen_ai.input.messages / gen_ai.output.messages. */
function toOtel(msgs, { flat = false } = {}) {
  const traceId = '5b8efff798038103d269b633813fc60c';
  const calls = modelCallsOf(msgs);
  const system = msgs.find((m) => m.role === 'system');
  const spans = [
    {
      traceId,
      spanId: 'a0a0a0a0a0a0a0a0',
      name: 'invoke_agent Atlas',
      kind: 1,
      startTimeUnixNano: nano(0),
      endTimeUnixNano: nano(calls.length + 1),
      attributes: [attr('gen_ai.operation.name', 'invoke_agent'), attr('gen_ai.agent.name', 'Atlas')],
      status: {},
    },
  ];
  calls.forEach((c, k) => {
    const attributes = [
      attr('gen_ai.operation.name', 'chat'),
      attr('gen_ai.provider.name', 'openai'),
      attr('gen_ai.request.model', 'gpt-4.1'),
    ];
    if (flat) {
      c.input.forEach((m, i) => {
        attributes.push(attr(`gen_ai.prompt.${i}.role`, m.role));
        if (m.role === 'tool') attributes.push(attr(`gen_ai.prompt.${i}.tool_call_id`, m.toolCallId));
        if (m.content !== '') attributes.push(attr(`gen_ai.prompt.${i}.content`, m.content));
        (m.toolCalls ?? []).forEach((t, j) => {
          attributes.push(
            attr(`gen_ai.prompt.${i}.tool_calls.${j}.id`, t.id),
            attr(`gen_ai.prompt.${i}.tool_calls.${j}.name`, t.name),
            attr(`gen_ai.prompt.${i}.tool_calls.${j}.arguments`, t.arguments),
          );
        });
      });
      const o = c.output;
      attributes.push(
        attr('gen_ai.completion.0.role', 'assistant'),
        attr('gen_ai.completion.0.finish_reason', o.toolCalls ? 'tool_calls' : 'stop'),
      );
      if (o.content !== '') attributes.push(attr('gen_ai.completion.0.content', o.content));
      (o.toolCalls ?? []).forEach((t, j) => {
        attributes.push(
          attr(`gen_ai.completion.0.tool_calls.${j}.id`, t.id),
          attr(`gen_ai.completion.0.tool_calls.${j}.name`, t.name),
          attr(`gen_ai.completion.0.tool_calls.${j}.arguments`, t.arguments),
        );
      });
    } else {
      if (system)
        attributes.push(
          attr('gen_ai.system_instructions', JSON.stringify([{ type: 'text', content: system.content }])),
        );
      attributes.push(
        attr('gen_ai.input.messages', JSON.stringify(c.input.filter((m) => m.role !== 'system').map(otelMessage))),
      );
      attributes.push(attr('gen_ai.output.messages', JSON.stringify([otelMessage(c.output)])));
    }
    attributes.push(attr('gen_ai.usage.input_tokens', 900 + 40 * k), attr('gen_ai.usage.output_tokens', 30));
    spans.push({
      traceId,
      spanId: `c${String(k + 1).padStart(15, '0')}`,
      parentSpanId: 'a0a0a0a0a0a0a0a0',
      name: 'chat gpt-4.1',
      kind: 3,
      startTimeUnixNano: nano(k + 1),
      endTimeUnixNano: nano(k + 1) + '',
      attributes,
      status: {},
    });
  });
  return {
    resourceSpans: [
      {
        resource: { attributes: [attr('service.name', 'atlas-agent')] },
        scopeSpans: [
          {
            scope: {
              name: flat ? 'opentelemetry.instrumentation.openai.v1' : 'opentelemetry.instrumentation.genai',
              version: '0.47.0',
            },
            spans,
          },
        ],
      },
    ],
  };
}

/**
 * A proxy's call log: one line per model call, {request, response}, OpenAI
 * Chat. Each request sends exactly what the reference offers in default
 * mode at that call: the static tools, tool_search, then the tools earlier
 * tool_search results named (an agent that implements tool search as the
 * reference does).
 */
function toCallLog(msgs) {
  const chat = toOpenAIChat(msgs).messages;
  const byTool = new Map(catalog.map((t) => [t.name, t]));
  const fn = (t) => ({
    type: 'function',
    function: {
      name: t.name,
      description: t.description,
      parameters: t.parameters ?? { type: 'object', properties: {} },
    },
  });
  const searchTool = {
    type: 'function',
    function: {
      name: 'tool_search',
      description: 'Search the deferred tools by keyword, or select:name1,name2.',
      parameters: {
        type: 'object',
        properties: { query: { type: 'string' }, max_results: { type: 'integer' } },
        required: ['query'],
      },
    },
  };
  const visible = [...catalog.filter((t) => t.static).map(fn), searchTool];
  const seen = new Set(visible.map((t) => t.function.name));
  const lines = [];
  let k = 0;
  msgs.forEach((m, i) => {
    if (m.role === 'tool' && m.toolName === core.TOOL_SEARCH_NAME) {
      const names = core.decodeMatches(m.content) ?? [];
      for (const n of names)
        if (!seen.has(n) && byTool.has(n)) {
          seen.add(n);
          visible.push(fn(byTool.get(n)));
        }
    }
    if (m.role !== 'assistant') return;
    k++;
    const message = chat[i];
    lines.push({
      timestamp: `2025-06-03T08:12:${String(10 + k).padStart(2, '0')}.000Z`,
      request: { model: 'gpt-4.1', messages: chat.slice(0, i), tools: [...visible] },
      response: {
        id: `chatcmpl-ATLAS${k}`,
        object: 'chat.completion',
        created: 1748931130 + k,
        model: 'gpt-4.1-2025-04-14',
        choices: [
          {
            index: 0,
            message: { ...message, refusal: null, annotations: [] },
            logprobs: null,
            finish_reason: message.tool_calls ? 'tool_calls' : 'stop',
          },
        ],
        usage: { prompt_tokens: 900 + 40 * k, completion_tokens: 30, total_tokens: 930 + 40 * k },
      },
    });
  });
  return lines;
}

/** Eino schema.Message with the text in user_input_multi_content / assistant_output_multi_content. */
function toEinoMulti(msgs) {
  return toEino(msgs).map((o) => {
    if (o.role === 'user')
      return { role: 'user', content: '', user_input_multi_content: [{ type: 'text', text: o.content }] };
    if (o.role === 'assistant' && !o.tool_calls)
      return { role: 'assistant', content: '', assistant_output_multi_content: [{ type: 'text', text: o.content }] };
    return o;
  });
}

const jsonl = (list) => list.map((x) => JSON.stringify(x)).join('\n') + '\n';

// ---------------------------------------------------------------------------
// Model-native mode: server-side tool search (Anthropic and OpenAI Responses)
// ---------------------------------------------------------------------------

function nativeScenario() {
  // What a regex server-side search for /linear.*issue/ loads: deferred tools
  // whose name matches, in catalog order (at most 5, as the server returns a few).
  const pattern = 'linear.*issue';
  const re = new RegExp(pattern, 'i');
  const loaded = dynamicTools
    .filter((t) => re.test(t.name))
    .slice(0, 5)
    .map((t) => t.name);
  const user =
    'Create a Linear issue in the Platform team for the flaky checkout e2e test (fails about 1 run in 10 on CI).';
  const createArgs = {
    title: 'Flaky checkout e2e test (about 1 in 10 CI runs)',
    team: 'Platform',
    description: 'The checkout e2e test fails about 1 run in 10 on CI with a timeout waiting for the payment iframe.',
    priority: 3,
  };
  const createResult = j({
    id: 'b1c2d3e4-0000-4a5b-8c9d-0e1f2a3b4c5d',
    identifier: 'PLAT-214',
    url: 'https://linear.app/acme/issue/PLAT-214',
  });
  const final = 'Created PLAT-214 "Flaky checkout e2e test (about 1 in 10 CI runs)" in the Platform team.';

  const anthropic = {
    model: 'claude-sonnet-4-5',
    max_tokens: 4096,
    system: "You are Atlas, the engineering team's assistant at Acme. Keep answers short.",
    messages: [
      { role: 'user', content: user },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: "I'll look for the Linear issue tools." },
          { type: 'server_tool_use', id: 'srvtoolu_01', name: 'tool_search_tool_regex', input: { pattern } },
          {
            type: 'tool_search_tool_result',
            tool_use_id: 'srvtoolu_01',
            content: {
              type: 'tool_search_tool_search_result',
              tool_references: loaded.map((n) => ({ type: 'tool_reference', tool_name: n })),
            },
          },
          { type: 'tool_use', id: 'call_1', name: 'mcp__linear__create_issue', input: createArgs },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: createResult }] },
      { role: 'assistant', content: [{ type: 'text', text: final }] },
    ],
    tools: [{ type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' }, ...anthropicTools()],
  };

  const responses = {
    model: 'gpt-5.4',
    input: [
      { role: 'system', content: "You are Atlas, the engineering team's assistant at Acme. Keep answers short." },
      { role: 'user', content: user },
      // Hosted (server-executed) tool search: both items carry call_id null.
      {
        type: 'tool_search_call',
        id: 'tsc_01',
        call_id: null,
        execution: 'server',
        status: 'completed',
        arguments: { paths: loaded },
      },
      {
        type: 'tool_search_output',
        id: 'tso_01',
        call_id: null,
        execution: 'server',
        status: 'completed',
        tools: loaded.map((n) => {
          const t = byName.get(n);
          return {
            type: 'function',
            name: t.name,
            description: t.description,
            parameters: t.parameters,
            defer_loading: true,
          };
        }),
      },
      {
        type: 'function_call',
        call_id: 'call_1',
        name: 'mcp__linear__create_issue',
        arguments: JSON.stringify(createArgs),
      },
      { type: 'function_call_output', call_id: 'call_1', output: createResult },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: final }] },
    ],
    tools: [{ type: 'tool_search' }, ...openaiResponsesTools()],
  };
  return { anthropic, responses, loaded };
}

// ---------------------------------------------------------------------------

/** Pretty JSON, except that each element of a `tools` array is written on one line (request bodies stay readable). */
function stringify(value, indent = '') {
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const inner = indent + '  ';
    return `[\n${value.map((v) => inner + stringify(v, inner)).join(',\n')}\n${indent}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    const inner = indent + '  ';
    const body = entries.map(([k, v]) => {
      const text =
        k === 'tools' && Array.isArray(v) && v.length > 0
          ? `[\n${v.map((t) => inner + '  ' + JSON.stringify(t)).join(',\n')}\n${inner}]`
          : stringify(v, inner);
      return `${inner}${JSON.stringify(k)}: ${text}`;
    });
    return `{\n${body.join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(value);
}

function write(file, value) {
  fs.writeFileSync(path.join(outDir, file), stringify(value) + '\n');
}

fs.mkdirSync(outDir, { recursive: true });
for (const [name, scenario] of Object.entries(scenarios)) {
  const msgs = build(scenario);
  write(`${name}.json`, toEino(msgs));
  if (MULTI_FORMAT.includes(name)) {
    write(`${name}.openai.json`, toOpenAIChat(msgs));
    write(`${name}.openai-responses.json`, toOpenAIResponses(msgs));
    // (a) carries tool results as strings, (e) as text blocks: both shapes are covered.
    write(`${name}.anthropic.json`, toAnthropic(msgs, { textBlocks: name === 'deferred-tool-called-too-early' }));
    fs.writeFileSync(
      path.join(outDir, `${name}.jsonl`),
      toEino(msgs)
        .map((m) => JSON.stringify(m))
        .join('\n') + '\n',
    );
    write(`${name}.eino-multi.json`, toEinoMulti(msgs));
    fs.writeFileSync(path.join(outDir, `${name}.claude-code.jsonl`), jsonl(toClaudeCode(msgs)));
    write(`${name}.ai-sdk.json`, toAiSdkModel(msgs));
    write(`${name}.ai-sdk-ui.json`, toAiSdkUi(msgs));
    write(`${name}.openai-agents.json`, toAgentsJs(msgs));
    write(`${name}.openai-agents-py.json`, toAgentsPython(msgs));
    write(`${name}.langchain.json`, toLangchainDict(msgs));
    write(`${name}.langgraph.json`, toLangGraph(msgs));
    write(`${name}.langchain-lc.json`, toLangchainLc(msgs));
    write(`${name}.otel.json`, toOtel(msgs));
    write(`${name}.otel-flat.json`, toOtel(msgs, { flat: true }));
    fs.writeFileSync(path.join(outDir, `${name}.call-log.jsonl`), jsonl(toCallLog(msgs)));
  }
}
const native = nativeScenario();
write('native-server-search.anthropic.json', native.anthropic);
write('native-server-search.openai-responses.json', native.responses);
// Issue 28: one proxy in front of two agents logs their calls interleaved; the call-log reader
// groups them back into two sessions by continuity.
{
  const first = toCallLog(build(scenarios['keyword-search-then-call']));
  const second = toCallLog(build(scenarios['select-search']));
  const interleaved = [];
  for (let i = 0; i < Math.max(first.length, second.length); i++) {
    if (i < first.length) interleaved.push(first[i]);
    if (i < second.length) interleaved.push(second[i]);
  }
  fs.writeFileSync(path.join(outDir, 'two-conversations.call-log.jsonl'), jsonl(interleaved));
}

console.log(
  `wrote ${fs.readdirSync(outDir).filter((f) => f !== 'README.md').length} transcript files ` +
    `to ${path.relative(root, outDir)}/`,
);
