import { Agent } from '@mastra/core/agent';
import { ToolSearchProcessor } from '@mastra/core/processors';
import { createTool } from '@mastra/core/tools';
import { MockLanguageModelV4 } from 'ai-v7/test';
import { z } from 'zod';
const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };
const mk = (id, description) => createTool({ id, description, inputSchema: z.object({}), execute: async () => 'ok:' + id });
const tools = { 'a.b': mk('a.b', 'dotted'), '9lives': mk('9lives', 'digit'), ok_tool: mk('ok_tool', 'fine') };
const script = [
  [{ type: 'tool-call', toolCallId: 'c2', toolName: 'load_tool', input: JSON.stringify({ toolNames: ['a.b', '9lives', 'ok_tool'] }) }],
  [{ type: 'tool-call', toolCallId: 'c3', toolName: 'a.b', input: '{}' }, { type: 'tool-call', toolCallId: 'c4', toolName: 'a_b', input: '{}' }],
];
let i = 0; const seen = [];
const gen = async (opts) => { seen.push((opts.tools ?? []).map((t) => t.name)); const parts = script[i++];
  if (!parts) return { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] };
  return { content: parts, finishReason: { unified: 'tool-calls', raw: undefined }, usage, warnings: [] }; };
const model = new MockLanguageModelV4({ doGenerate: gen });
const proc = new ToolSearchProcessor({ tools });
const agent = new Agent({ id: 'a', name: 'a', instructions: 'x', model, inputProcessors: [proc], tools: { '3': mk('3', 'three'), 'x.y': mk('x.y','xy') } });
const r = await agent.generate('hi', { maxSteps: 6 });
console.log(JSON.stringify(seen));
for (const s of r.steps) console.log(JSON.stringify(s.toolResults.map(t => [t.payload.toolName, t.payload.result])).slice(0,400));
