/**
 * `watch` on a terminal: the view updates as calls arrive (new calls
 * appended, the selected call kept), violations show at once, `>` and `<`
 * switch sessions (ink-testing-library, NO_COLOR).
 */
import { render } from 'ink-testing-library';
import { describe, expect, test } from 'vitest';
import { LiveWatch } from '../../src/jobs/watch/live.js';
import { WatchView } from '../../src/tui/watch/WatchView.js';
import { eventually, press, ready } from './harness.js';

const TOOLS = [
  { type: 'function', function: { name: 'tool_search', description: 'Search tools', parameters: { type: 'object' } } },
  {
    type: 'function',
    function: { name: 'get_weather', description: 'Weather of a city', parameters: { type: 'object' } },
  },
  { type: 'function', function: { name: 'send_email', description: 'Send an email', parameters: { type: 'object' } } },
];
const META = {
  method: 'POST',
  path: '/v1/chat/completions',
  status: 200,
  streamed: false,
  duration_ms: 1,
  request_headers: {},
};

type Msg = Record<string, unknown>;
const completion = (id: string, message: Msg): Msg => ({
  id,
  object: 'chat.completion',
  created: 1,
  model: 'm',
  choices: [{ index: 0, message, finish_reason: 'tool_calls' }],
});
const callMsg = (id: string, name: string, args: unknown): Msg => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
});

/** A conversation of three calls: search (finds nothing), get_weather (not loaded: a violation), a text answer. */
function conversation(tag: string): Array<{ request: Msg; response: Msg }> {
  const m: Msg[] = [{ role: 'user', content: `weather, ${tag}` }];
  const a1 = callMsg(`${tag}1`, 'tool_search', { query: 'weather' });
  const r1 = { request: { model: 'm', messages: [...m], tools: TOOLS }, response: completion(`${tag}-1`, a1) };
  m.push(a1, { role: 'tool', tool_call_id: `${tag}1`, content: '{"matches":[]}' });
  const a2 = callMsg(`${tag}2`, 'get_weather', { city: 'Paris' });
  const r2 = { request: { model: 'm', messages: [...m], tools: TOOLS }, response: completion(`${tag}-2`, a2) };
  m.push(a2, { role: 'tool', tool_call_id: `${tag}2`, content: 'sunny' });
  const r3 = {
    request: { model: 'm', messages: [...m], tools: TOOLS },
    response: completion(`${tag}-3`, { role: 'assistant', content: `Sunny (${tag}).` }),
  };
  return [r1, r2, r3];
}

describe('watch view', () => {
  test('waits, then follows the calls as they arrive with the selection kept; > and < switch sessions', async () => {
    const watch = new LiveWatch({ catalog: null, mode: 'default' });
    const r = render(
      <WatchView
        watch={watch}
        header="toolsearch watch: listening on http://127.0.0.1:4318"
        hints={['  OTLP traces: OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318']}
        catalog={null}
        size={{ columns: 100, rows: 30 }}
      />,
    );
    await ready(r.stdin);
    const frame = (): string => r.lastFrame() ?? '';
    expect(frame()).toContain('toolsearch watch: listening on http://127.0.0.1:4318');
    expect(frame()).toContain('waiting for model calls…');

    const a = conversation('a');
    watch.addCall('openai', a[0]!.request, a[0]!.response, META);
    await eventually(() => expect(frame()).toContain('session s1 1/1'));
    expect(frame()).toContain('1 call');
    expect(frame()).toContain('Call 1/1');

    watch.addCall('openai', a[1]!.request, a[1]!.response, META);
    // The new call is listed; call 1 stays selected; its violation is on the bar at once.
    await eventually(() => expect(frame()).toContain('Call 1/2'));
    expect(frame()).toContain('2 calls  1 violations');
    await press(r.stdin, 'j');
    await eventually(() => expect(frame()).toContain('Call 2/2'));
    expect(frame()).toMatch(/✗ +get_weather/);

    watch.addCall('openai', a[2]!.request, a[2]!.response, META);
    await eventually(() => expect(frame()).toContain('Call 2/3'));

    // Another conversation: a second session; > shows it, < goes back.
    const b = conversation('b');
    watch.addCall('openai', b[0]!.request, b[0]!.response, META);
    await eventually(() => expect(frame()).toContain('session s1 1/2'));
    await press(r.stdin, '>');
    await eventually(() => expect(frame()).toContain('session s2 2/2'));
    expect(frame()).toContain('Call 1/1');
    await press(r.stdin, '<');
    await eventually(() => expect(frame()).toContain('session s1 1/2'));
    r.unmount();
  });
});
