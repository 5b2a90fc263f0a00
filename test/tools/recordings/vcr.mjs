#!/usr/bin/env node
/**
 * fixtures/recordings/vcr/: VCR.py cassettes of the real `openai` and `@anthropic-ai/sdk` clients
 * talking to the local provider (provider.mjs). VCR.py (and pytest-recording, which records with it)
 * is Python, not on npm: this script writes what it writes from the traffic as it went over the wire,
 * in its layout (vcr/serializers/yamlserializer.py dumps the cassette dict with PyYAML, keys sorted):
 * `{interactions: [{request: {body, headers, method, uri}, response: {body: {string}, headers, status:
 * {code, message}}}], version: 1}`; a body that is not UTF-8 (gzip) as `!!binary` base64, a request's
 * headers lower-case as the client sent them, `filter_headers` applied (credentials and the headers
 * that name the machine). The layout follows real cassettes: traceloop/openllmetry
 * packages/opentelemetry-instrumentation-openai/tests/traces/cassettes/test_responses/
 * test_responses_tool_calls.yaml (commit e80094d0dcbadc1e72eb0fbdeb5d43fcf7953c52: gzip !!binary
 * responses) and test_responses_streaming.yaml (commit 76b3e331dd6fad4d41eac63ec784724cc69af30b: an
 * event stream as a double-quoted string). The text is emitted by the `yaml` library, not PyYAML:
 * the values and the layout are VCR.py's; line folding may differ.
 *
 *   npm run build && <node 22 or later> test/tools/recordings/vcr.mjs [out-dir]
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import YAML from 'yaml';
import { anthropicAgent, interleave, responsesAgent } from './agent.mjs';
import { startProvider } from './provider.mjs';
import { loadScenario, ROOT } from './conversations.mjs';

const out = process.argv[2] ?? path.join(ROOT, 'fixtures/recordings/vcr');
const PORT = 4010;
/** VCR.py's `filter_headers`, as a cassette kept in a repository has them. */
const FILTERED = new Set([
  'authorization',
  'x-api-key',
  'x-stainless-arch',
  'x-stainless-os',
  'x-stainless-runtime-version',
]);

/** Text when the bytes are UTF-8 (vcr/serializers/compat.py), else the bytes (dumped as !!binary). */
function body(bytes) {
  if (bytes.length === 0) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new Uint8Array(bytes);
  }
}

/** Headers as VCR.py keeps them: a list of values by name. */
function headers(pairs, pin) {
  const out = {};
  for (const [name, value] of pairs) {
    if (FILTERED.has(name.toLowerCase())) continue;
    (out[name] ??= []).push(pin(String(value)));
  }
  return out;
}

/** One interaction; `decode`: VCR.py's `decode_compressed_response` (gzip undone, the header dropped). */
function interaction(x, port, decode) {
  const pin = (v) => v.replaceAll(`127.0.0.1:${port}`, `127.0.0.1:${PORT}`);
  const raw = [];
  for (let i = 0; i + 1 < x.requestHeaders.length; i += 2) raw.push([x.requestHeaders[i], x.requestHeaders[i + 1]]);
  let resHeaders = x.responseHeaders;
  let resBody = x.responseBody;
  if (decode && resHeaders.some(([k, v]) => k === 'content-encoding' && v === 'gzip')) {
    resBody = zlib.gunzipSync(resBody);
    resHeaders = resHeaders
      .filter(([k]) => k !== 'content-encoding')
      .map(([k, v]) => [k, k === 'content-length' ? String(resBody.length) : v]);
  }
  return {
    request: {
      body: body(x.requestBody),
      headers: headers(raw, pin),
      method: x.method,
      uri: `http://127.0.0.1:${PORT}${x.path}`,
    },
    response: {
      body: { string: body(resBody) ?? '' },
      headers: headers(resHeaders, pin),
      status: { code: x.status, message: x.statusMessage },
    },
  };
}

/** Dumps a cassette: keys sorted, plain scalars where YAML allows, text with line breaks double-quoted. */
function dump(file, interactions) {
  const doc = new YAML.Document({ interactions, version: 1 }, { schema: 'yaml-1.1', sortMapEntries: true });
  YAML.visit(doc, {
    Scalar(_, node) {
      if (typeof node.value === 'string' && node.value.includes('\n')) node.type = 'QUOTE_DOUBLE';
    },
  });
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(
    path.join(out, file),
    doc.toString({ lineWidth: 80, indentSeq: false, minContentWidth: 0, singleQuote: true }),
  );
}

async function cassette(file, options, run) {
  const exchanges = [];
  const provider = await startProvider({ ...options, onExchange: (x) => exchanges.push(x) });
  try {
    await run(provider);
  } finally {
    await provider.close();
  }
  dump(
    file,
    exchanges.map((x) => interaction(x, provider.port, options.decode === true)),
  );
}

// OpenAI Responses: two conversations interleaved call by call, gzip answers kept as sent (!!binary),
// a model list first.
{
  const scenarios = [
    loadScenario('keyword-search-then-call', 'call_kw'),
    loadScenario('required-keyword-search', 'call_rk'),
  ];
  await cassette('openai-responses.yaml', { scenarios, gzip: true }, async (provider) => {
    const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${provider.url}/v1`, maxRetries: 0 });
    await client.models.list();
    await interleave([responsesAgent(client, scenarios[0]), responsesAgent(client, scenarios[1])]);
  });
}

// Anthropic Messages streamed (server-sent events as text), two user turns; decode_compressed_response.
{
  const scenarios = [loadScenario('redundant-select', 'toolu_rs')];
  await cassette('anthropic-stream.yaml', { scenarios, gzip: true, decode: true }, async (provider) => {
    const client = new Anthropic({ apiKey: 'sk-ant-test', baseURL: provider.url, maxRetries: 0 });
    for await (const _ of anthropicAgent(client, scenarios[0], { stream: true }));
  });
}
