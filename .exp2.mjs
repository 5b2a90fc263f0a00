import { generateText, isStepCount, tool, toolSearch, jsonSchema } from 'ai-v7';
import { MockLanguageModelV4 } from 'ai-v7/test';
const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };
const call = (id, toolName, input) => ({ type: 'tool-call', toolCallId: id, toolName, input: JSON.stringify(input) });
const mk = (d) => tool({ description: d, inputSchema: jsonSchema({ type: 'object' }), deferLoading: true, execute: async () => 'ok' });
const tools = { a_tool: mk(''), b: mk('send'), 'tool search': toolSearch({}) };
const model = new MockLanguageModelV4({ doGenerate: [
  { content: [call('c1', 'tool search', { query: '' }), call('c2', 'tool search', { query: 'a tool' }), call('c3', 'b', {}), call('c4', 'tool search', { query: 'x', extra: 1 })], finishReason: { unified: 'tool-calls', raw: undefined }, usage, warnings: [] },
  { content: [call('c5', 'a_tool', {})], finishReason: { unified: 'tool-calls', raw: undefined }, usage, warnings: [] },
  { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] },
]});
try {
const r = await generateText({ model, tools, prompt: 'hi', stopWhen: isStepCount(5) });
for (const c of model.doGenerateCalls) console.log(JSON.stringify((c.tools??[]).map(t=>t.name)));
for (const s of r.steps) console.log(JSON.stringify(s.content).slice(0, 1500));
} catch (e) { console.log('THROW', e.name, e.message); }
