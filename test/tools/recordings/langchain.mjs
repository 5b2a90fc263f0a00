#!/usr/bin/env node
/**
 * fixtures/recordings/langchain/: what LangChain JS writes, made by running it: a LangGraph ReAct agent
 * (@langchain/langgraph 1.7.3 `createReactAgent`, its ToolNode running @langchain/core 1.4.0 `tool()`s
 * that return the scenario's results) over a chat model that answers each call with the scenario's next
 * answer (conversations.mjs) as a provider integration does: an AIMessage with `tool_calls`, an id,
 * `response_metadata` and `usage_metadata`. Serialized as a LangChain JS user does:
 *
 * - `<scenario>.messages.json`: `JSON.stringify(state.messages)` (each message's `toJSON()`: the
 *   `{lc: 1, type: "constructor", id, kwargs}` form);
 * - `<scenario>.stored.json`: `mapChatMessagesToStoredMessages(state.messages)` (`{type, data}`, what
 *   chat message histories store);
 * - `<scenario>.state.json`: the graph's final state, `JSON.stringify(await agent.invoke(...))`;
 * - `<scenario>.stream.jsonl`: `agent.stream(..., {streamMode: "updates"})`, one chunk per line.
 *
 * LangGraph gives a message without an id a random one (uuid v4): those are replaced by `msg-N` in
 * order of appearance, so that the files are the same at every run.
 *
 *   npm run build && node test/tools/recordings/langchain.mjs [out-dir]
 */
import fs from 'node:fs';
import path from 'node:path';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, HumanMessage, mapChatMessagesToStoredMessages, SystemMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { loadScenario, ROOT } from './conversations.mjs';

const out = process.argv[2] ?? path.join(ROOT, 'fixtures/recordings/langchain');
fs.mkdirSync(out, { recursive: true });

/** A chat model answering call k with the scenario's k-th answer, shaped as ChatOpenAI's messages are. */
class ScriptedChatModel extends BaseChatModel {
  constructor(scenario) {
    super({});
    this.scenario = scenario;
  }
  _llmType() {
    return 'scripted';
  }
  bindTools(tools) {
    return this.withConfig({ tools: tools.map((t) => ({ type: 'function', function: { name: t.name } })) });
  }
  async _generate(messages) {
    const k = messages.filter((m) => m._getType() === 'ai').length;
    const a = this.scenario.answers[k];
    const calls = (a.calls ?? []).map((c) => ({
      name: c.name,
      args: JSON.parse(c.arguments),
      id: c.id,
      type: 'tool_call',
    }));
    const message = new AIMessage({
      content: a.content ?? '',
      tool_calls: calls,
      id: `chatcmpl-${k + 1}`,
      response_metadata: {
        model_provider: 'openai',
        model_name: 'gpt-4.1-2025-04-14',
        finish_reason: calls.length > 0 ? 'tool_calls' : 'stop',
        system_fingerprint: 'fp_b3f1157249',
      },
      usage_metadata: { input_tokens: 100 * (k + 1), output_tokens: 20, total_tokens: 100 * (k + 1) + 20 },
    });
    return { generations: [{ text: typeof message.content === 'string' ? message.content : '', message }] };
  }
}

/** The scenario's tools, each returning the recorded result of its call. */
function tools(s) {
  const names = [...new Set(s.messages.flatMap((m) => (m.calls ?? []).map((c) => c.name)))];
  const defs = new Map(s.tools.flat().map((t) => [t.name, t]));
  return names.map((name) =>
    tool(async (_input, config) => s.results.get(config.toolCall.id), {
      name,
      description: defs.get(name)?.description ?? name,
      schema: defs.get(name)?.parameters ?? { type: 'object', properties: {} },
    }),
  );
}

/** Random message ids (uuid v4) replaced by msg-N, in order of appearance. */
function pinIds(text) {
  const seen = new Map();
  return text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/g, (id) => {
    if (!seen.has(id)) seen.set(id, `msg-${seen.size + 1}`);
    return seen.get(id);
  });
}

const write = (file, text) => fs.writeFileSync(path.join(out, file), `${pinIds(text)}\n`);

for (const name of ['keyword-search-then-call', 'select-search']) {
  const s = loadScenario(name);
  const agent = createReactAgent({ llm: new ScriptedChatModel(s), tools: tools(s) });
  const input = {
    messages: [
      new SystemMessage({ content: s.system, id: 'sys-1' }),
      new HumanMessage({ content: s.user, id: 'user-1' }),
    ],
  };
  const state = await agent.invoke(input);
  write(`${name}.messages.json`, JSON.stringify(state.messages, null, 2));
  write(`${name}.stored.json`, JSON.stringify(mapChatMessagesToStoredMessages(state.messages), null, 2));
  write(`${name}.state.json`, JSON.stringify(state, null, 2));
  const lines = [];
  for await (const chunk of await agent.stream(input, { streamMode: 'updates' })) lines.push(JSON.stringify(chunk));
  write(`${name}.stream.jsonl`, lines.join('\n'));
}
