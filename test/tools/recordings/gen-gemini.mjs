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
 *
 * Streamed, through @google/genai's own Chat (`ai.chats.create`, then
 * `chat.sendMessageStream` per model call, the call's tools in its config):
 * the server answers `models/{model}:streamGenerateContent?alt=sse` with the
 * model turn in GenerateContentResponse chunks as the API streams them
 * (`data: <chunk>` and a blank line, CRLF; text in pieces, then the function
 * calls whole in one chunk, `finishReason` and the final `usageMetadata` on
 * the last chunk). The Chat keeps one model content per chunk in its history and
 * sends them back so. Two Chats (keyword-search-then-call without ids,
 * deferred-tool-called-too-early with ids) take turns call by call, recorded
 * by nock 15's recorder (`nock.recorder.rec({output_objects: true})`, the
 * definitions of `nock.recorder.play()`, the port pinned to 4010):
 * - `interleaved.stream.nock.json`: the definitions (each response body the
 *   stream's text, a string);
 * - `keyword-search-then-call.chat-history.json`: `chat.getHistory()` at the
 *   end (the Chat's own contents, one per streamed chunk);
 * - `keyword-search-then-call.stream.sse`: the event streams that Chat
 *   received, one after the other (what a proxy keeps of its calls).
 */
import fs from 'node:fs';
import path from 'node:path';
import { GoogleGenAI } from '@google/genai';
import nock from 'nock';
import { json, outDir, scenario, serve } from './scenario.mjs';

const MODEL = 'gemini-2.5-flash';
const out = outDir('fixtures/recordings/gemini');

/** A model step's parts as Gemini answers them: its text, then its function calls (with ids when `withIds`). */
function modelParts(s, withIds) {
  const parts = [];
  if (s.text !== '') parts.push({ text: s.text });
  for (const c of s.calls)
    parts.push({ functionCall: { ...(withIds ? { id: c.id } : {}), name: c.name, args: c.args } });
  return parts;
}

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
      const parts = modelParts(s, withIds);
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

/** A model turn as the chunks of a stream: text in three pieces, then the calls together, the finish on the last. */
function chunks(parts, k, id) {
  const pieces = [];
  for (const p of parts) {
    if (p.text === undefined) continue;
    const third = Math.ceil(p.text.length / 3);
    for (let i = 0; i < p.text.length; i += third) pieces.push([{ text: p.text.slice(i, i + third) }]);
  }
  const calls = parts.filter((p) => p.text === undefined);
  if (calls.length > 0) pieces.push(calls);
  return pieces.map((ps, i) => {
    const last = i === pieces.length - 1;
    return {
      candidates: [{ content: { parts: ps, role: 'model' }, ...(last ? { finishReason: 'STOP' } : {}), index: 0 }],
      usageMetadata: last
        ? { promptTokenCount: 900 + 100 * k, candidatesTokenCount: 20 + k, totalTokenCount: 920 + 101 * k }
        : { promptTokenCount: 900 + 100 * k, totalTokenCount: 900 + 100 * k },
      modelVersion: MODEL,
      responseId: id,
    };
  });
}

/** One Chat's run of a scenario, yielding after each model call (so that two can take turns). */
async function* chatAgent(ai, name, withIds, server) {
  const { steps, tools } = scenario(name);
  const system = steps.find((s) => s.kind === 'system')?.text;
  const chat = ai.chats.create({ model: MODEL });
  let message = null;
  let k = 0;
  for (const s of steps) {
    if (s.kind === 'user') message = s.text;
    else if (s.kind === 'results')
      message = s.results.map((r) => ({
        functionResponse: { ...(withIds ? { id: r.id } : {}), name: r.name, response: { output: r.content } },
      }));
    else if (s.kind === 'model') {
      k++;
      const parts = modelParts(s, withIds);
      server.next = chunks(parts, k, `resp-${name}-${k}`);
      const declarations = tools[k - 1].map((t) => ({
        name: t.name,
        description: t.description,
        parametersJsonSchema: t.parameters ?? { type: 'object', properties: {} },
      }));
      const stream = await chat.sendMessageStream({
        message,
        config: { systemInstruction: system, tools: [{ functionDeclarations: declarations }] },
      });
      for await (const _ of stream);
      yield;
    }
  }
  return chat;
}

async function recordStreamed() {
  const streams = [];
  const state = { next: null };
  const server = await serve(({ url }) => {
    if (!/^\/v1(beta)?\/models\/gemini-2\.5-flash:streamGenerateContent\?alt=sse$/.test(url))
      throw new Error(`unexpected ${url}`);
    const body = state.next.map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`).join('');
    streams.push(body);
    // The date pinned (Node adds the time of the answer otherwise), so that every run writes the same file.
    return { headers: { 'content-type': 'text/event-stream', date: 'Thu, 01 Jan 2026 00:00:00 GMT' }, body };
  });
  const port = new URL(server.url).port;
  const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: server.url } });
  nock.recorder.rec({ output_objects: true, dont_print: true });
  const agents = [
    chatAgent(ai, 'keyword-search-then-call', false, state),
    chatAgent(ai, 'deferred-tool-called-too-early', true, state),
  ];
  // Take turns call by call; remember which stream was whose.
  const mine = [];
  const done = [null, null];
  while (done.some((d) => d === null))
    for (const [i, a] of agents.entries()) {
      if (done[i] !== null) continue;
      const before = streams.length;
      const r = await a.next();
      if (r.done) done[i] = r.value;
      else if (i === 0) mine.push(before);
    }
  const defs = nock.recorder.play();
  nock.restore();
  nock.recorder.clear();
  await server.close();
  const pinned = JSON.parse(JSON.stringify(defs).replaceAll(`127.0.0.1:${port}`, '127.0.0.1:4010'));
  fs.writeFileSync(path.join(out, 'interleaved.stream.nock.json'), json(pinned));
  fs.writeFileSync(path.join(out, 'keyword-search-then-call.chat-history.json'), json(done[0].getHistory()));
  fs.writeFileSync(path.join(out, 'keyword-search-then-call.stream.sse'), mine.map((i) => streams[i]).join(''));
}

await record('keyword-search-then-call', false);
await record('deferred-tool-called-too-early', true);
await recordStreamed();
