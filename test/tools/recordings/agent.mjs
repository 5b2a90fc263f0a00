/**
 * An agent loop over the real `openai` and `@anthropic-ai/sdk` clients, one per API: it sends the
 * conversation so far with the tools the reference offers at that call, appends the answer as the
 * client returns it (the way agents written on these SDKs keep their history), then the scenario's tool
 * results and user turns up to the next model call. Each agent is an async generator that makes one
 * model call per step, so several conversations can be interleaved as a real service's traffic is.
 */

const chatTool = (t) => ({
  type: 'function',
  function: { name: t.name, description: t.description, parameters: t.parameters },
});
const responsesTool = (t) => ({
  type: 'function',
  name: t.name,
  description: t.description,
  parameters: t.parameters,
  strict: false,
});
const anthropicTool = (t) => ({ name: t.name, description: t.description, input_schema: t.parameters });

/** The neutral messages after model call k's answer, up to the next model call. */
function between(s, k) {
  let seen = -1;
  const out = [];
  for (const m of s.messages) {
    if (m.role === 'assistant') {
      seen++;
      if (seen > k) break;
      continue;
    }
    if (seen === k) out.push(m);
  }
  return out;
}

/** The user messages before the first model call (the system prompt goes where each API puts it). */
const firstUser = (s) =>
  between(s, -1)
    .filter((m) => m.role === 'user')
    .map((m) => ({ role: 'user', content: m.content }));

/** OpenAI Chat Completions: `client.chat.completions.create` (or `.stream` with `stream`). */
export async function* chatAgent(client, s, { stream = false } = {}) {
  const messages = [];
  if (s.system) messages.push({ role: 'system', content: s.system });
  messages.push(...firstUser(s));
  for (let k = 0; k < s.answers.length; k++) {
    const params = { model: 'gpt-4.1', messages, tools: s.tools[k].map(chatTool) };
    const completion = stream
      ? await client.chat.completions.stream(params).finalChatCompletion()
      : await client.chat.completions.create(params);
    // The stream helper's message also has `parsed` (the SDK's own field, which the API does not take back).
    const { parsed: _parsed, ...message } = completion.choices[0].message;
    messages.push(message);
    for (const m of between(s, k))
      messages.push(
        m.role === 'tool'
          ? { role: 'tool', tool_call_id: m.callId, content: m.content }
          : { role: 'user', content: m.content },
      );
    yield completion;
  }
}

/**
 * A streamed response as the API sent it: the `response.completed` event's (the SDK's `.stream()` helper
 * returns a parsed response whose function calls carry `parsed_arguments`, which the API does not take back).
 */
async function completed(client, params) {
  let done = null;
  for await (const event of await client.responses.create({ ...params, stream: true }))
    if (event.type === 'response.completed') done = event.response;
  return done;
}

/** OpenAI Responses: `client.responses.create` (streamed or not), the output items appended to `input`. */
export async function* responsesAgent(client, s, { stream = false } = {}) {
  const input = firstUser(s);
  for (let k = 0; k < s.answers.length; k++) {
    const params = {
      model: 'gpt-4.1',
      instructions: s.system ?? undefined,
      input,
      tools: s.tools[k].map(responsesTool),
    };
    const response = stream ? await completed(client, params) : await client.responses.create(params);
    input.push(...response.output);
    for (const m of between(s, k))
      input.push(
        m.role === 'tool'
          ? { type: 'function_call_output', call_id: m.callId, output: m.content }
          : { role: 'user', content: m.content },
      );
    yield response;
  }
}

/** Anthropic Messages: `client.messages.create` (or `.stream`); tool results as the next user message. */
export async function* anthropicAgent(client, s, { stream = false } = {}) {
  const messages = firstUser(s);
  for (let k = 0; k < s.answers.length; k++) {
    const params = {
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      ...(s.system ? { system: s.system } : {}),
      messages,
      tools: s.tools[k].map(anthropicTool),
    };
    const message = stream ? await client.messages.stream(params).finalMessage() : await client.messages.create(params);
    messages.push({ role: 'assistant', content: message.content });
    const results = [];
    for (const m of between(s, k)) {
      if (m.role === 'tool') results.push({ type: 'tool_result', tool_use_id: m.callId, content: m.content });
      else {
        if (results.length > 0) messages.push({ role: 'user', content: results.splice(0) });
        messages.push({ role: 'user', content: m.content });
      }
    }
    if (results.length > 0) messages.push({ role: 'user', content: results });
    yield message;
  }
}

/** Runs agents one model call at a time in turn (A1, B1, A2, B2, ...) until all are done. */
export async function interleave(agents) {
  const live = [...agents];
  while (live.length > 0) {
    for (const a of [...live]) {
      const step = await a.next();
      if (step.done) live.splice(live.indexOf(a), 1);
    }
  }
}
