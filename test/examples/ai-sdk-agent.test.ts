/**
 * Example: tool search in a Vercel AI SDK agent loop.
 *
 * The agent has one static tool (`ask_user`) and a handful of dynamic tools.
 * The model first sees only `ask_user` and `tool_search` (plus the reminder
 * listing every dynamic tool's name); it searches, and from the next step on
 * the tool it found is offered too. A mock model stands in for a real
 * provider (no network): replace `model` with `openai('gpt-5')`,
 * `anthropic('claude-sonnet-4-5')`, … in a real agent.
 */
import { generateText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createToolSearch } from '../../src/adapters/ai-sdk.js';

// --- the agent's tools --------------------------------------------------------
const forecasts: string[] = [];
const dynamicTools = {
  mcp__weather__get_forecast: tool({
    description: 'Get the weather forecast for a city for the next days.',
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => {
      forecasts.push(city);
      return { city, forecast: 'sunny', high_c: 24 };
    },
  }),
  mcp__weather__get_alerts: tool({
    description: 'Get active severe weather alerts for a region.',
    inputSchema: z.object({ region: z.string() }),
    execute: async ({ region }) => ({ region, alerts: [] }),
  }),
  mcp__gmail__send_email: tool({
    description: 'Send an email to one or more recipients.',
    inputSchema: z.object({ to: z.array(z.string()), subject: z.string(), body: z.string() }),
    execute: async () => ({ sent: true }),
  }),
  mcp__github__create_issue: tool({
    description: 'Create a new issue in a GitHub repository.',
    inputSchema: z.object({ repo: z.string(), title: z.string() }),
    execute: async () => ({ number: 1 }),
  }),
};
const staticTools = {
  ask_user: tool({
    description: 'Ask the user a clarifying question.',
    inputSchema: z.object({ question: z.string() }),
    execute: async () => 'yes',
  }),
};

// --- a scripted model: search, call the tool it found, answer ----------------
const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};
const toolCall = (id: string, toolName: string, input: unknown) => ({
  type: 'tool-call' as const,
  toolCallId: id,
  toolName,
  input: JSON.stringify(input),
});
const model = new MockLanguageModelV3({
  doGenerate: [
    {
      content: [toolCall('call-1', 'tool_search', { query: 'weather forecast', max_results: 1 })],
      finishReason: { unified: 'tool-calls', raw: undefined },
      usage,
      warnings: [],
    },
    {
      content: [toolCall('call-2', 'mcp__weather__get_forecast', { city: 'Paris' })],
      finishReason: { unified: 'tool-calls', raw: undefined },
      usage,
      warnings: [],
    },
    {
      content: [{ type: 'text', text: 'Sunny in Paris, up to 24 °C.' }],
      finishReason: { unified: 'stop', raw: undefined },
      usage,
      warnings: [],
    },
  ],
});

describe('example: an AI SDK agent with tool search', () => {
  it('searches, then calls the tool it found', async () => {
    const search = createToolSearch({ dynamicTools, staticTools });

    const result = await generateText({
      model,
      system: 'You are a helpful assistant.',
      prompt: 'What is the weather in Paris?',
      tools: search.tools,
      prepareStep: search.prepareStep,
      stopWhen: stepCountIs(5),
    });

    expect(result.text).toBe('Sunny in Paris, up to 24 °C.');
    expect(forecasts).toEqual(['Paris']);

    // What the model was offered at each step.
    const offered = model.doGenerateCalls.map((call) => (call.tools ?? []).map((t) => t.name));
    expect(offered).toEqual([
      ['ask_user', 'tool_search'],
      ['ask_user', 'tool_search', 'mcp__weather__get_forecast'],
      ['ask_user', 'tool_search', 'mcp__weather__get_forecast'],
    ]);
    expect(result.steps.map((s) => s.toolCalls.map((c) => c.toolName))).toEqual([
      ['tool_search'],
      ['mcp__weather__get_forecast'],
      [],
    ]);

    // tool_search returned the reference's result text.
    expect(result.steps[0]!.toolResults[0]!.output).toBe('{"matches":["mcp__weather__get_forecast"]}');

    // The reminder is a user message right after the system prompt, at every step.
    for (const call of model.doGenerateCalls) {
      expect(call.prompt[0]!.role).toBe('system');
      expect(call.prompt[1]).toMatchObject({
        role: 'user',
        content: [
          {
            type: 'text',
            text:
              '<available-deferred-tools>\nmcp__weather__get_forecast\nmcp__weather__get_alerts\n' +
              'mcp__gmail__send_email\nmcp__github__create_issue\n</available-deferred-tools>',
          },
        ],
      });
      expect(call.prompt[2]).toMatchObject({
        role: 'user',
        content: [{ type: 'text', text: 'What is the weather in Paris?' }],
      });
    }
  });
});
