#!/usr/bin/env node
/**
 * fixtures/recordings/nock/: nock's own recordings (nock 15, `nock.back` in `update` mode, which
 * records with `nock.recorder.rec({output_objects: true})` and writes the fixture file itself) of the
 * real `openai` and `@anthropic-ai/sdk` clients talking to the local provider (provider.mjs).
 *
 *   npm run build && <node 22.20 or later> test/tools/recordings/nock.mjs [out-dir]
 *
 * The one change to what nock writes: the provider's port, which the system picks, is replaced by
 * 4010 (nock.back's own `afterRecord` hook), so that the files are the same at every run.
 */
import path from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import nock from 'nock';
import OpenAI from 'openai';
import { anthropicAgent, chatAgent, interleave, responsesAgent } from './agent.mjs';
import { startProvider } from './provider.mjs';
import { loadScenario, ROOT } from './conversations.mjs';

const out = process.argv[2] ?? path.join(ROOT, 'fixtures/recordings/nock');
const PORT = 4010;

/** Records what `run` sends into `file` with nock.back, the port pinned. */
async function record(file, provider, run) {
  nock.back.fixtures = out;
  nock.back.setMode('update');
  nock.enableNetConnect('127.0.0.1');
  const pin = (defs) => JSON.parse(JSON.stringify(defs).replaceAll(`127.0.0.1:${provider.port}`, `127.0.0.1:${PORT}`));
  const { nockDone } = await nock.back(file, { afterRecord: pin });
  try {
    await run();
  } finally {
    nockDone();

    await provider.close();
  }
}

// Two conversations of one service, interleaved call by call; gzip answers; one call rate-limited once
// (the client retries); a model list first.
{
  const scenarios = [loadScenario('keyword-search-then-call', 'call_kw'), loadScenario('select-search', 'call_sel')];
  const provider = await startProvider({ scenarios, gzip: true, failOnce: ['chat:select-search:2'] });
  const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${provider.url}/v1`, maxRetries: 2 });
  await record('openai-chat.nock.json', provider, async () => {
    await client.models.list();
    await interleave([chatAgent(client, scenarios[0]), chatAgent(client, scenarios[1])]);
  });
}

// Anthropic Messages, a token count first.
{
  const scenarios = [loadScenario('accumulate-two-searches', 'toolu_acc')];
  const provider = await startProvider({ scenarios });
  const client = new Anthropic({ apiKey: 'sk-ant-test', baseURL: provider.url, maxRetries: 0 });
  await record('anthropic.nock.json', provider, async () => {
    const s = scenarios[0];
    await client.messages.countTokens({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: s.user }] });
    for await (const _ of anthropicAgent(client, s));
  });
}

// OpenAI Responses, streamed (server-sent events).
{
  const scenarios = [loadScenario('deferred-tool-called-too-early', 'call_dt')];
  const provider = await startProvider({ scenarios });
  const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${provider.url}/v1`, maxRetries: 0 });
  await record('openai-responses-stream.nock.json', provider, async () => {
    for await (const _ of responsesAgent(client, scenarios[0], { stream: true }));
  });
}
