#!/usr/bin/env node
/**
 * An OpenAI Agents SDK run state made by the real `@openai/agents` (pinned
 * in package.json; it needs Node >= 22):
 *
 *   /root/.cache/toolsearch-ci/node-22.23.5/bin/node test/tools/recordings/gen-agents-state.mjs [out-dir]
 *
 * A local server on 127.0.0.1 plays the Responses API (`POST /v1/responses`,
 * answered with a `response` object whose `output` is the scenario's next
 * model turn: `function_call` items, or an assistant `message`). A real
 * agent (`new Agent` with the scenario's system prompt as instructions and
 * one `tool()` per tool it calls, each returning the recorded result) runs
 * the scenario's user message with `run()`; the file is
 * `result.state.toString()`, the RunState JSON the SDK resumes from.
 *
 * Writes fixtures/recordings/openai-agents/<scenario>.runstate.json (or to out-dir).
 */
import fs from 'node:fs';
import path from 'node:path';
import { Agent, run, setDefaultOpenAIClient, setTracingDisabled, tool } from '@openai/agents';
import OpenAI from 'openai';
import { catalog, outDir, SEARCH_TOOL, scenario, serve } from './scenario.mjs';

const SCENARIO = 'keyword-search-then-call';
const out = outDir('fixtures/recordings/openai-agents');
const { steps } = scenario(SCENARIO);
const turns = steps.filter((s) => s.kind === 'model');
const results = new Map(steps.filter((s) => s.kind === 'results').flatMap((s) => s.results.map((r) => [r.id, r])));

let k = 0;
const server = await serve(({ url }) => {
  if (url !== '/v1/responses') throw new Error(`unexpected ${url}`);
  const t = turns[k++];
  const output = t.calls.length
    ? t.calls.map((c, i) => ({
        id: `fc_ATLAS${k}_${i}`,
        type: 'function_call',
        status: 'completed',
        arguments: JSON.stringify(c.args),
        call_id: c.id,
        name: c.name,
      }))
    : [
        {
          id: `msg_ATLAS${k}`,
          type: 'message',
          status: 'completed',
          role: 'assistant',
          content: [{ type: 'output_text', annotations: [], logprobs: [], text: t.text }],
        },
      ];
  return {
    body: JSON.stringify({
      id: `resp_ATLAS${k}`,
      object: 'response',
      created_at: 1748931130 + k,
      status: 'completed',
      error: null,
      incomplete_details: null,
      model: 'gpt-4.1-2025-04-14',
      output,
      parallel_tool_calls: true,
      usage: {
        input_tokens: 1200 + k,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 30 + k,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 1230 + 2 * k,
      },
    }),
  };
});

setTracingDisabled(true);
setDefaultOpenAIClient(new OpenAI({ apiKey: 'test-key', baseURL: `${server.url}/v1`, maxRetries: 0 }));
// The calls made in order: each tool answers with the recorded result of its next call.
const called = turns.flatMap((t) => t.calls);
const byName = new Map([SEARCH_TOOL, ...catalog].map((t) => [t.name, t]));
const names = [...new Set(called.map((c) => c.name))];
const tools = names.map((name) =>
  tool({
    name,
    description: byName.get(name).description,
    parameters: byName.get(name).parameters ?? { type: 'object', properties: {}, additionalProperties: true },
    strict: false,
    execute: async () => {
      const next = called.findIndex((c) => c.name === name);
      const c = called.splice(next, 1)[0];
      return results.get(c.id).content;
    },
  }),
);
const system = steps.find((s) => s.kind === 'system').text;
const user = steps.find((s) => s.kind === 'user').text;
const agent = new Agent({ name: 'Atlas', instructions: system, model: 'gpt-4.1', tools });
const result = await run(agent, user);
await server.close();
fs.writeFileSync(
  path.join(out, `${SCENARIO}.runstate.json`),
  `${JSON.stringify(JSON.parse(result.state.toString()), null, 2)}\n`,
);
