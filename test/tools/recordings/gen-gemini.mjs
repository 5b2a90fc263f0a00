#!/usr/bin/env node
/**
 * Gemini `generateContent` recordings made by the real client, `@google/genai`
 * (pinned in package.json; it needs Node >= 22):
 *
 *   /root/.cache/toolsearch-ci/node-22.23.5/bin/node test/tools/recordings/gen-gemini.mjs [out-dir]
 *
 * A local server on 127.0.0.1 plays the Gemini API: it answers each
 * `models/{model}:generateContent` call with the scenario's next model turn,
 * as the REST reference documents a GenerateContentResponse (`candidates[0].content`
 * with `role: "model"` and `text` / `functionCall` parts, `finishReason`,
 * `usageMetadata`, `modelVersion`, `responseId`). The client sends what it
 * sends: the request bodies below are the bytes it posted, parsed. The agent
 * loop is the manual function-calling loop of Google's documentation: the
 * model's content is appended to `contents`, then one user content with a
 * `functionResponse` part per call (`response: {output: <result>}`).
 *
 * Writes to fixtures/recordings/gemini/ (or out-dir):
 * - `<scenario>.gemini.jsonl`: one `{request, response}` line per model call;
 * - `<scenario>.request.json`: the last request body alone (the call it asks for).
 * keyword-search-then-call is answered without call ids (as the API
 * documentation's examples are); deferred-tool-called-too-early with `id`s,
 * which the client echoes in its `functionResponse`s.
 */
import fs from 'node:fs';
import path from 'node:path';
import { GoogleGenAI } from '@google/genai';
import { json, outDir, scenario, serve } from './scenario.mjs';

const MODEL = 'gemini-2.5-flash';
const out = outDir('fixtures/recordings/gemini');

async function record(name, withIds) {
  const { steps, tools } = scenario(name);
  const calls = [];
  let answer = null;
  const server = await serve(({ url, body }) => {
    if (!/^\/v1(beta)?\/models\/gemini-2\.5-flash:generateContent$/.test(url)) throw new Error(`unexpected ${url}`);
    calls.push({ request: JSON.parse(body), response: answer });
    return { body: JSON.stringify(answer) };
  });
  const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: server.url } });
  const contents = [];
  let systemInstruction;
  let k = 0;
  for (const s of steps) {
    if (s.kind === 'system') systemInstruction = s.text;
    else if (s.kind === 'user') contents.push({ role: 'user', parts: [{ text: s.text }] });
    else if (s.kind === 'model') {
      k++;
      const parts = [];
      if (s.text !== '') parts.push({ text: s.text });
      for (const c of s.calls)
        parts.push({ functionCall: { ...(withIds ? { id: c.id } : {}), name: c.name, args: c.args } });
      answer = {
        candidates: [{ content: { parts, role: 'model' }, finishReason: 'STOP', index: 0 }],
        usageMetadata: {
          promptTokenCount: 900 + 100 * k,
          candidatesTokenCount: 20 + k,
          totalTokenCount: 920 + 101 * k,
        },
        modelVersion: MODEL,
        responseId: `resp-${name}-${k}`,
      };
      const declarations = tools[k - 1].map((t) => ({
        name: t.name,
        description: t.description,
        parametersJsonSchema: t.parameters ?? { type: 'object', properties: {} },
      }));
      const res = await ai.models.generateContent({
        model: MODEL,
        contents: [...contents],
        config: { systemInstruction, tools: [{ functionDeclarations: declarations }] },
      });
      contents.push(res.candidates[0].content);
    } else {
      contents.push({
        role: 'user',
        parts: s.results.map((r) => ({
          functionResponse: { ...(withIds ? { id: r.id } : {}), name: r.name, response: { output: r.content } },
        })),
      });
    }
  }
  await server.close();
  fs.writeFileSync(path.join(out, `${name}.gemini.jsonl`), `${calls.map((c) => JSON.stringify(c)).join('\n')}\n`);
  fs.writeFileSync(path.join(out, `${name}.request.json`), json(calls[calls.length - 1].request));
}

await record('keyword-search-then-call', false);
await record('deferred-tool-called-too-early', true);
