/**
 * `watch` replays each session with the engine its search tool shows, as `simulate` does without
 * `--engine`: the AI SDK's `{tools: [...]}` result, Mastra's `search_tools` / `load_tool`; every line
 * with a turn names it (`engine`).
 */
import { describe, expect, it } from 'vitest';
import { loadCatalogText } from '../../../src/formats/from-text.js';
import { LiveWatch } from '../../../src/jobs/watch/live.js';

const META = { method: 'POST', path: '/v1/chat/completions', status: 200, streamed: false, duration_ms: 1 };
const CATALOG = loadCatalogText([
  { name: 'get_weather', description: 'Weather of a city', parameters: { type: 'object' } },
  { name: 'send_email', description: 'Send an email', parameters: { type: 'object' } },
]);
type Msg = Record<string, unknown>;
const fn = (name: string): Msg => ({ type: 'function', function: { name, description: name, parameters: {} } });
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

/** Two calls: a search whose result has `result`'s text, then a call of get_weather. */
function session(search: string, result: string, sent: string[]): Array<{ request: Msg; response: Msg }> {
  const m: Msg[] = [{ role: 'user', content: 'weather in Paris' }];
  const a1 = callMsg('c1', search, { query: 'weather' });
  const r1 = { request: { model: 'm', messages: [...m], tools: [fn(search)] }, response: completion('r1', a1) };
  m.push(a1, { role: 'tool', tool_call_id: 'c1', content: result });
  const a2 = callMsg('c2', 'get_weather', { city: 'Paris' });
  const r2 = { request: { model: 'm', messages: [...m], tools: sent.map(fn) }, response: completion('r2', a2) };
  return [r1, r2];
}

function watchLines(calls: Array<{ request: Msg; response: Msg }>) {
  const watch = new LiveWatch({ catalog: CATALOG, mode: 'default' });
  return calls.flatMap((c) => watch.addCall('openai', c.request, c.response, { ...META, request_headers: {} }));
}

describe('watch: the engine of each session', () => {
  it('the AI SDK: detected once its search result shows the {tools} shape; the tool found is sent next', () => {
    const lines = watchLines(
      session('toolSearch', '{"tools":[{"name":"get_weather","description":"Weather of a city"}]}', [
        'toolSearch',
        'get_weather',
      ]),
    );
    // The first call shows no search result yet: the reference replays it, as simulate would.
    expect(lines.map((l) => l.engine)).toEqual(['eino', 'ai-sdk']);
    expect(lines[1]!.turn!.visible).toEqual(['toolSearch', 'get_weather']);
    expect(lines[1]!.violations).toEqual([]);
  });

  it('Mastra: detected from search_tools; a tool found but not loaded is refused', () => {
    const result = '{"results":[{"name":"get_weather","description":"Weather of a city","score":1}],"message":"x"}';
    const lines = watchLines(session('search_tools', result, ['search_tools', 'load_tool']));
    expect(lines.map((l) => l.engine)).toEqual(['mastra', 'mastra']);
    expect(lines[1]!.turn!.visible).toEqual(['search_tools', 'load_tool']);
    expect(lines[1]!.violations.map((v) => [v.kind, v.tool])).toEqual([['not-loaded', 'get_weather']]);
  });

  it("Eino's tool_search stays the reference", () => {
    const lines = watchLines(session('tool_search', '{"matches":["get_weather"]}', ['tool_search', 'get_weather']));
    expect(lines.map((l) => l.engine)).toEqual(['eino', 'eino']);
    expect(lines[1]!.violations.filter((v) => v.severity === 'error')).toEqual([]);
  });
});
