#!/usr/bin/env node
/**
 * OpenAI Responses recordings made by the real client, `openai` (pinned in
 * package.json; it needs Node >= 22), for issue 28's Responses features:
 *
 *   /root/.cache/toolsearch-ci/node-22.23.5/bin/node test/tools/recordings/gen-responses.mjs [out-dir]
 *
 * A local server on 127.0.0.1 plays the Responses API (`POST /v1/responses`):
 * it answers each call with the next `Response` object of the conversation
 * below, its output items shaped as the `openai` package's types give them
 * (resources/responses/responses.d.ts: `ResponseOutputItem` — `mcp_list_tools`,
 * `mcp_call`, `web_search_call`, `code_interpreter_call`, `tool_search_call`
 * with `execution: "client"`, `function_call` with `namespace`, `message`).
 * The client sends what it sends: each request body below is the bytes it
 * posted, parsed. The agent loop appends every output item to the next
 * request's `input` (the stateless pattern), then its own items: the
 * client's `tool_search_output` (`execution: "client"`, the namespace it
 * loaded) and `function_call_output`s.
 *
 * The tools: two namespaces that each have a function named `search` (the
 * shape OpenAI's tool search guide recommends for deferred functions, which
 * a catalog reader must not take for a duplicate), a static function, a
 * client-executed `tool_search`, a hosted MCP server and web search.
 *
 * Writes to fixtures/recordings/responses/ (or out-dir):
 * - `namespaces.call-log.jsonl`: one `{request, response}` line per call; the
 *   last response asks for a second client search, which has no output yet;
 * - `hosted-calls.response.json`: the first response alone (hosted MCP and
 *   web search calls beside the client search);
 * - `namespaces.request.json`: the third request body alone.
 */
import fs from 'node:fs';
import path from 'node:path';
import OpenAI from 'openai';
import { json, outDir, serve } from './scenario.mjs';

const MODEL = 'gpt-5.4';
const out = outDir('fixtures/recordings/responses');

const fn = (name, description, properties, deferred = true) => ({
  type: 'function',
  name,
  description,
  ...(deferred ? { defer_loading: true } : {}),
  parameters: { type: 'object', properties, required: Object.keys(properties), additionalProperties: false },
  strict: true,
});
const str = { type: 'string' };

const billing = {
  type: 'namespace',
  name: 'billing',
  description: 'Billing: invoices, payments and refunds.',
  tools: [
    fn('search', 'Search invoices by customer or invoice number.', { query: str }),
    fn('refund', 'Refund an order, fully or in part.', { order_id: str, amount_cents: { type: 'integer' } }),
  ],
};
const crm = {
  type: 'namespace',
  name: 'crm',
  description: 'CRM: customers, contacts and orders.',
  tools: [
    fn('search', 'Search customers by name or email.', { query: str }),
    fn('get_order', 'Get an order by id.', { order_id: str }),
  ],
};
const TOOLS = [
  fn('get_current_time', "Get the current date and time in the user's time zone.", {}, false),
  crm,
  billing,
  {
    type: 'tool_search',
    execution: 'client',
    description: 'Load deferred tools: give the namespaces or functions to load.',
    parameters: {
      type: 'object',
      properties: { paths: { type: 'array', items: str } },
      required: ['paths'],
      additionalProperties: false,
    },
  },
  { type: 'mcp', server_label: 'deepwiki', server_url: 'https://mcp.deepwiki.com/mcp', require_approval: 'never' },
  { type: 'web_search' },
];

/** The model's side: the output items of each response, in order. */
const OUTPUTS = [
  [
    { id: 'rs_01', type: 'reasoning', summary: [] },
    {
      id: 'mcpl_01',
      type: 'mcp_list_tools',
      server_label: 'deepwiki',
      tools: [
        {
          name: 'ask_question',
          description: 'Ask any question about a GitHub repository.',
          input_schema: { type: 'object', properties: { repoName: str, question: str } },
          annotations: null,
        },
      ],
    },
    {
      id: 'mcp_01',
      type: 'mcp_call',
      server_label: 'deepwiki',
      name: 'ask_question',
      arguments: '{"repoName":"acme/handbook","question":"What is the refund policy?"}',
      output: 'Refunds within 30 days of purchase, in full.',
      error: null,
      status: 'completed',
    },
    {
      id: 'ws_01',
      type: 'web_search_call',
      status: 'completed',
      action: { type: 'search', query: 'Acme refund policy consumer law 30 days' },
    },
    {
      id: 'tsc_01',
      type: 'tool_search_call',
      call_id: 'call_ts_1',
      execution: 'client',
      status: 'completed',
      arguments: { paths: ['billing'] },
    },
  ],
  [
    {
      id: 'fc_01',
      type: 'function_call',
      call_id: 'call_r_1',
      namespace: 'billing',
      name: 'refund',
      arguments: '{"order_id":"1042","amount_cents":4999}',
      status: 'completed',
    },
  ],
  [
    {
      id: 'msg_01',
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: 'Refunded order 1042 (49.99 USD).', annotations: [], logprobs: [] }],
    },
    {
      id: 'tsc_02',
      type: 'tool_search_call',
      call_id: 'call_ts_2',
      execution: 'client',
      status: 'completed',
      arguments: { paths: ['crm'] },
    },
  ],
];

const calls = [];
let k = 0;
const server = await serve(({ method, url, body }) => {
  if (method !== 'POST' || url !== '/v1/responses') throw new Error(`unexpected ${method} ${url}`);
  const request = JSON.parse(body);
  const response = {
    id: `resp_${String(k + 1).padStart(2, '0')}`,
    object: 'response',
    created_at: 1767225600 + k,
    status: 'completed',
    background: false,
    error: null,
    incomplete_details: null,
    instructions: request.instructions ?? null,
    model: `${MODEL}-2026-03-05`,
    output: OUTPUTS[k],
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: 'low', summary: null },
    store: false,
    temperature: 1,
    text: { format: { type: 'text' }, verbosity: 'medium' },
    tool_choice: 'auto',
    tools: request.tools,
    top_p: 1,
    truncation: 'disabled',
    usage: {
      input_tokens: 1200 + 150 * k,
      input_tokens_details: { cached_tokens: k === 0 ? 0 : 1024 },
      output_tokens: 60 + 5 * k,
      output_tokens_details: { reasoning_tokens: 32 },
      total_tokens: 1260 + 155 * k,
    },
    user: null,
    metadata: {},
  };
  k++;
  calls.push({ request, response });
  return { body: JSON.stringify(response) };
});

const client = new OpenAI({ apiKey: 'test-key', baseURL: `${server.url}/v1`, maxRetries: 0 });
const input = [{ role: 'user', content: 'Refund order 1042 for Acme in full; check our handbook on refunds first.' }];
const ask = () =>
  client.responses.create({
    model: MODEL,
    instructions: 'You are the Acme support agent. Load billing or CRM tools with tool_search before using them.',
    input: [...input],
    tools: TOOLS,
    store: false,
    reasoning: { effort: 'low' },
  });

// Call 1: hosted MCP and web search calls, then a client search for the billing namespace.
let res = await ask();
input.push(...res.output);
const search = res.output.find((i) => i.type === 'tool_search_call');
input.push({ type: 'tool_search_output', call_id: search.call_id, execution: 'client', tools: [billing] });
// Call 2: the loaded namespace's function, called with its namespace.
res = await ask();
input.push(...res.output);
const refund = res.output.find((i) => i.type === 'function_call');
input.push({
  type: 'function_call_output',
  call_id: refund.call_id,
  output: '{"refund_id":"re_7781","status":"succeeded"}',
});
// Call 3: the answer, and a second client search whose output the log does not hold (the run stopped there).
res = await ask();
await server.close();

fs.writeFileSync(path.join(out, 'namespaces.call-log.jsonl'), `${calls.map((c) => JSON.stringify(c)).join('\n')}\n`);
fs.writeFileSync(path.join(out, 'hosted-calls.response.json'), json(calls[0].response));
fs.writeFileSync(path.join(out, 'namespaces.request.json'), json(calls[2].request));
