#!/usr/bin/env node
/**
 * fixtures/recordings/openinference/: the spans OpenInference's instrumentation of the `openai` client
 * writes (@arizeai/openinference-instrumentation-openai 4.2.7, `manuallyInstrument` on the ESM module),
 * around the real client talking to the local provider (provider.mjs), captured by an
 * InMemorySpanExporter and written as OTLP JSON (otlp.mjs): `llm.input_messages.N.message.*`,
 * `llm.output_messages.*`, `llm.tools.N.tool.json_schema`, `input.value` / `output.value`.
 *
 *   npm run build && <node 22 or later> test/tools/recordings/openinference.mjs [out-dir]
 */
import fs from 'node:fs';
import path from 'node:path';
import { OpenAIInstrumentation } from '@arizeai/openinference-instrumentation-openai';
import * as openaiModule from 'openai';
import { chatAgent, responsesAgent } from './agent.mjs';
import { memoryTracing, otlpJson } from './otlp.mjs';
import { startProvider } from './provider.mjs';
import { loadScenario, ROOT } from './conversations.mjs';

const out = process.argv[2] ?? path.join(ROOT, 'fixtures/recordings/openinference');
fs.mkdirSync(out, { recursive: true });

const { provider: tracerProvider, exporter } = memoryTracing();
const instrumentation = new OpenAIInstrumentation({ tracerProvider });
instrumentation.manuallyInstrument(openaiModule);
const OpenAI = openaiModule.default;

async function trace(file, scenarioName, agent) {
  exporter.reset();
  const s = loadScenario(scenarioName);
  const provider = await startProvider({ scenarios: [s] });
  try {
    const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${provider.url}/v1`, maxRetries: 0 });
    for await (const _ of agent(client, s));
  } finally {
    await provider.close();
  }
  fs.writeFileSync(path.join(out, file), `${otlpJson(exporter)}\n`);
}

await trace('select-search.chat.otlp.json', 'select-search', (c, s) => chatAgent(c, s));
await trace('select-search.responses.otlp.json', 'select-search', (c, s) => responsesAgent(c, s));
