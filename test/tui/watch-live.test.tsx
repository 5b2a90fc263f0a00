/**
 * `watch` on a terminal with a real client: the Anthropic SDK pointed at watch's proxy (in this process),
 * which forwards to a provider on 127.0.0.1; the view (ink-testing-library, NO_COLOR) follows its plain and
 * streamed calls, frame by frame, exactly.
 */
import { render } from 'ink-testing-library';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startWatchServer } from '../../src/cli/watch/server.js';
import { threadSink } from '../../src/cli/watch/sink.js';
import { LiveWatch } from '../../src/jobs/watch/live.js';
import { WatchView } from '../../src/tui/watch/WatchView.js';
import { type FakeProvider, fakeProvider } from '../cli/watch/provider.js';
import { eventually, press, ready } from './harness.js';

const TOOLS = [
  { name: 'tool_search', description: 'Search for tools', input_schema: { type: 'object' as const, properties: {} } },
  { name: 'get_weather', description: 'Weather of a city', input_schema: { type: 'object' as const, properties: {} } },
];

let provider: FakeProvider;
beforeAll(async () => {
  provider = await fakeProvider();
});
afterAll(async () => {
  await provider.close();
});

describe('watch view with the Anthropic SDK through the proxy', () => {
  test('each call appears as it is answered, plain and streamed; the frames are exact', async () => {
    const watch = new LiveWatch({ catalog: null, mode: 'default' });
    const server = await startWatchServer({
      sink: threadSink(watch, () => {}),
      host: '127.0.0.1',
      port: 0,
      upstream: new URL(provider.url),
      maxBytes: 1 << 24,
      upstreamTimeoutMs: 10_000,
      onRejected: () => {},
    });
    const r = render(
      <WatchView
        watch={watch}
        header="toolsearch watch: listening"
        hints={['  proxy: base URL']}
        catalog={null}
        size={{ columns: 100, rows: 24 }}
      />,
    );
    try {
      await ready(r.stdin);
      const frame = (): string => r.lastFrame() ?? '';
      const { default: Anthropic } = await import('@anthropic-ai/sdk');
      const client = new Anthropic({ apiKey: 'sk-ant-SECRET-tui', baseURL: server.url, maxRetries: 0 });
      type Param = Parameters<typeof client.messages.create>[0];
      const messages: Param['messages'] = [{ role: 'user', content: 'What is the weather in Paris?' }];
      const base = { model: 'claude-test', max_tokens: 100, tools: TOOLS } as const;
      const first = await client.messages.create({ ...base, messages });
      await eventually(() => expect(frame()).toContain('Call 1/1'));
      // The plain call: the search, and the reference's view of what the request sent.
      expect(frame().split('\n')).toEqual([
        'session s1 1/1  proxy anthropic  1 call  > < sessions',
        'mode default · replay off · 1 call · ! 1 warning · session s1 (call-log)',
        '─ Calls (1) ──────────────────────────┬─ Call 1/1 · 1 visible · 1 hidden ───────────────────────────',
        '› 1 !  search "weather forecast"      │! sent-differs: the recorded request sent as visible that the',
        '                                      │  reference would hide: get_weather',
        '                                      │Visible (1)',
        '                                      │›  tool_search  [search tool]',
        '                                      │',
        '                                      │',
        '                                      │',
        '                                      │',
        '                                      │',
        '                                      │',
        '                                      │',
        '                                      │',
        '─ Messages of call 1 · 2 received · reminder at 0 ──────────────────────────────────────────────────',
        '  mw  user      ◆ reminder inserted by the middleware at this call',
        '   #0 user',
        '      What is the weather in Paris?',
        '▶  #1 assistant',
        '      → tool_search "weather forecast"',
        '',
        '↑↓ move  Tab panel  ⏎ details  m mode  r replay  / filter  ? help  q quit',
      ]);
      const use = first.content.find((b) => b.type === 'tool_use')!;
      messages.push({ role: 'assistant', content: first.content });
      messages.push({
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: use.type === 'tool_use' ? use.id : '', content: 'get_weather' }],
      });
      await client.messages.stream({ ...base, messages }).finalMessage();
      await eventually(() => expect(frame()).toContain('Call 1/2'));
      await press(r.stdin, 'j');
      await eventually(() => expect(frame()).toContain('Call 2/2'));
      // The streamed call, selected: get_weather called before a search result named it.
      expect(frame().split('\n')).toEqual([
        'session s1 1/1  proxy anthropic  2 calls  1 violations  > < sessions',
        'mode default · replay off · 2 calls · ✗ 1 error · ! 2 warnings · session s1 (call-log)',
        '─ Calls (2) ──────────────────────────┬─ Call 2/2 · 1 visible · 1 hidden ───────────────────────────',
        '  1 !  search "weather forecast"      │! sent-differs: the recorded request sent as visible that the',
        '› 2 ✗  get_weather                    │  reference would hide: get_weather',
        '                                      │✗ not-loaded: get_weather was called before any tool_search',
        '                                      │  result named it (not visible at call 2)',
        '                                      │Visible (1)',
        '                                      │›  tool_search  [search tool]',
        '                                      │',
        '                                      │',
        '                                      │',
        '                                      │',
        '                                      │',
        '                                      │',
        '─ Messages of call 2 · 4 received · reminder at 0 ──────────────────────────────────────────────────',
        '   #1 assistant',
        '      → tool_search "weather forecast"',
        '   #2 user',
        '      ← tool_search (not a matches result: skipped) get_weather',
        '▶  #3 assistant',
        '      → get_weather {"city":"Paris"}',
        '↑↓ move  Tab panel  ⏎ details  m mode  r replay  / filter  ? help  q quit',
      ]);
      expect(frame()).not.toContain('SECRET');
    } finally {
      r.unmount();
      await server.close(100);
    }
  });
});
