#!/usr/bin/env node
/**
 * LangChain JS messages as `@langchain/core` (pinned in package.json; Node >= 20) writes them,
 * for issue 28's LangChain keys:
 *
 *   node test/tools/recordings/gen-langchain-js.mjs [out-dir]
 *
 * A scenario of fixtures/transcripts is run as an agent loop: a chat model (a `BaseChatModel`
 * whose `_generate` answers with the scenario's next assistant message, as a provider
 * integration builds it: `tool_calls`, `response_metadata`, `usage_metadata`) is invoked on the
 * history, and each tool call is answered by invoking a `tool()` with the call, which returns
 * the library's own `ToolMessage` (`status`, `metadata`). What is written is what the library
 * serializes; nothing is written by hand:
 *
 * - `<scenario>.messages.json`: `JSON.stringify(messages)` (each message's `toJSON()`, the
 *   `lc`-serialized form);
 * - `<scenario>.stored.json`: `mapChatMessagesToStoredMessages(messages)` (`{type, data}`), what
 *   LangChain's chat histories store;
 * - `deferred-tool-called-too-early.v1.messages.json`: the same loop with a model whose
 *   `outputVersion` is `"v1"` (its messages' content becomes standard content blocks, kept under
 *   `content_blocks` too) answering with Anthropic-style content (`thinking`, `text`, `tool_use`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, HumanMessage, mapChatMessagesToStoredMessages, SystemMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { json, outDir, scenario } from './scenario.mjs';

const out = outDir('fixtures/recordings/langchain-js');

/** A chat model that answers with the given messages' fields, in order (a provider integration's output). */
class ScriptedChatModel extends BaseChatModel {
  constructor(replies, fields = {}) {
    super(fields);
    this.replies = replies;
    this.next = 0;
  }

  _llmType() {
    return 'scripted';
  }

  async _generate() {
    const fields = this.replies[this.next++];
    return {
      generations: [{ text: typeof fields.content === 'string' ? fields.content : '', message: new AIMessage(fields) }],
    };
  }
}

/** The fields of the k-th model answer: plain (OpenAI-style) or Anthropic-style content blocks. */
function answer(step, k, anthropic) {
  const tool_calls = step.calls.map((c) => ({ name: c.name, args: c.args, id: c.id, type: 'tool_call' }));
  const usage_metadata = { input_tokens: 900 + 40 * k, output_tokens: 30, total_tokens: 930 + 40 * k };
  if (!anthropic)
    return {
      content: step.text,
      tool_calls,
      response_metadata: {
        model_name: 'gpt-4.1-2025-04-14',
        finish_reason: step.calls.length > 0 ? 'tool_calls' : 'stop',
        model_provider: 'openai',
      },
      usage_metadata,
    };
  const content = [{ type: 'thinking', thinking: 'Which tool fits?', signature: `sig_${k}` }];
  if (step.text !== '') content.push({ type: 'text', text: step.text });
  for (const c of step.calls) content.push({ type: 'tool_use', id: c.id, name: c.name, input: c.args });
  return {
    content,
    tool_calls,
    response_metadata: {
      model_name: 'claude-sonnet-4-5-20250929',
      stop_reason: step.calls.length > 0 ? 'tool_use' : 'end_turn',
      model_provider: 'anthropic',
    },
    usage_metadata,
  };
}

async function run(name, { anthropic = false } = {}) {
  const { steps } = scenario(name);
  const models = steps.filter((s) => s.kind === 'model');
  const model = new ScriptedChatModel(
    models.map((s, k) => answer(s, k + 1, anthropic)),
    anthropic ? { outputVersion: 'v1' } : {},
  );
  const messages = [];
  for (const s of steps) {
    if (s.kind === 'system') messages.push(new SystemMessage(s.text));
    else if (s.kind === 'user') messages.push(new HumanMessage(s.text));
    else if (s.kind === 'model') messages.push(await model.invoke(messages));
    else {
      // Each call answered by a tool() the library runs: its ToolMessage is the library's own.
      const calls = messages[messages.length - 1].tool_calls;
      for (const r of s.results) {
        const call = calls.find((c) => c.id === r.id);
        const t = tool(async () => r.content, {
          name: call.name,
          description: `The ${call.name} tool.`,
          schema: { type: 'object', properties: {} },
        });
        messages.push(await t.invoke({ ...call, type: 'tool_call' }));
      }
    }
  }
  return messages;
}

const keyword = await run('keyword-search-then-call');
fs.writeFileSync(path.join(out, 'keyword-search-then-call.messages.json'), json(JSON.parse(JSON.stringify(keyword))));
fs.writeFileSync(
  path.join(out, 'keyword-search-then-call.stored.json'),
  json(mapChatMessagesToStoredMessages(keyword)),
);
const v1 = await run('deferred-tool-called-too-early', { anthropic: true });
fs.writeFileSync(
  path.join(out, 'deferred-tool-called-too-early.v1.messages.json'),
  json(JSON.parse(JSON.stringify(v1))),
);
