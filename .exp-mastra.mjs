import { Agent } from '@mastra/core/agent';
import { ToolSearchProcessor } from '@mastra/core/processors';
import { createTool } from '@mastra/core/tools';
import { MockLanguageModelV4, convertArrayToReadableStream } from 'ai-v7/test';
import { z } from 'zod';
const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };
const mk = (id, description) => createTool({ id, description, inputSchema: z.object({}), execute: async () => 'ok:' + id });
const tools = { sendMessage: mk('sendMessage', 'Send message to channel'), zeta_send: mk('zeta_send', 'send a message'), other: mk('other', 'nothing here') };
const script = [
  [{ type: 'tool-call', toolCallId: 'c1', toolName: 'search_tools', input: JSON.stringify({ query: 'send message' }) }],
  [{ type: 'tool-call', toolCallId: 'c2', toolName: 'load_tool', input: JSON.stringify({ toolName: 'sendMessage' }) }],
  [{ type: 'tool-call', toolCallId: 'c3', toolName: 'sendMessage', input: '{}' }],
  [{ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'done' }, { type: 'text-end', id: 't' }],
];
let i = 0;
const seen = [];
const gen = async (opts) => {
    seen.push((opts.tools ?? []).map((t) => t.name));
    const parts = script[i++] ?? script[3];
    const fin = parts[0].type === 'tool-call' ? 'tool-calls' : 'stop';
    const content = parts[0].type === 'tool-call' ? parts : [{ type: 'text', text: 'done' }];
    return { content, finishReason: { unified: fin, raw: undefined }, usage, warnings: [] };
};
const model = new MockLanguageModelV4({ doGenerate: gen,
  doStream: async (opts) => {
    seen.push((opts.tools ?? []).map((t) => t.name));
    const parts = script[i++] ?? script[3];
    const fin = parts[0].type === 'tool-call' ? 'tool-calls' : 'stop';
    return { stream: convertArrayToReadableStream([{ type: 'stream-start', warnings: [] }, ...parts, { type: 'finish', finishReason: { unified: fin, raw: undefined }, usage }]) };
  },
});
const proc = new ToolSearchProcessor({ tools, search: { topK: 5, minScore: 0 } });
const agent = new Agent({ id: 'a', name: 'a', instructions: 'x', model, inputProcessors: [proc], tools: {} });
const r = await agent.generate('hi', { maxSteps: 6 });
console.log(JSON.stringify(seen));
console.log(Object.keys(r));
console.log(JSON.stringify(r.response?.messages ?? null).slice(0, 1500));
console.log(JSON.stringify(r.steps?.[0]?.toolResults ?? null).slice(0, 600));
