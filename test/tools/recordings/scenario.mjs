/**
 * What the recording generators of issue 28 share: a scenario of
 * fixtures/transcripts (an Eino `schema.Message` array) as neutral steps,
 * the demo catalog, and the tools the reference offers at each model call in
 * default mode (static tools, `tool_search`, then what each search loaded, in
 * order), so that a recording that sends them shows no `sent-differs`.
 *
 * A generator plays the provider with a local HTTP server on 127.0.0.1 that
 * answers each model call with the scenario's next assistant message, and
 * runs the real client library against it, answering its tool calls with
 * the scenario's recorded results.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export const catalog = YAML.parse(fs.readFileSync(path.join(root, 'fixtures/catalogs/demo.yaml'), 'utf8')).tools;

/** The middleware's search tool, as an agent declares it to the model. */
export const SEARCH_TOOL = {
  name: 'tool_search',
  description: 'Search the deferred tools by keyword, or select:name1,name2.',
  parameters: {
    type: 'object',
    properties: { query: { type: 'string' }, max_results: { type: 'integer' } },
    required: ['query'],
  },
};

/**
 * A scenario as steps: `system` and `user` texts, `model` turns (text and
 * calls `{id, name, args}`), `results` (the tool messages after a model
 * turn, `{id, name, content}`), with `tools[k]` the tools offered at model call k.
 */
export function scenario(name) {
  const msgs = JSON.parse(fs.readFileSync(path.join(root, 'fixtures/transcripts', `${name}.json`), 'utf8'));
  const byName = new Map(catalog.map((t) => [t.name, t]));
  const visible = [...catalog.filter((t) => t.static), SEARCH_TOOL];
  const seen = new Set(visible.map((t) => t.name));
  const steps = [];
  const tools = [];
  for (const m of msgs) {
    if (m.role === 'system' || m.role === 'user') steps.push({ kind: m.role, text: m.content });
    else if (m.role === 'assistant') {
      tools.push(visible.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })));
      const calls = (m.tool_calls ?? []).map((c) => ({
        id: c.id,
        name: c.function.name,
        args: JSON.parse(c.function.arguments),
      }));
      steps.push({ kind: 'model', text: m.content, calls });
    } else if (m.role === 'tool') {
      const last = steps[steps.length - 1];
      const result = { id: m.tool_call_id, name: m.tool_name, content: m.content };
      if (last.kind === 'results') last.results.push(result);
      else steps.push({ kind: 'results', results: [result] });
      if (m.tool_name === 'tool_search') {
        for (const n of JSON.parse(m.content).matches ?? []) {
          if (seen.has(n) || !byName.has(n)) continue;
          seen.add(n);
          visible.push(byName.get(n));
        }
      }
    } else throw new Error(`unexpected role ${m.role}`);
  }
  return { steps, tools };
}

/**
 * Starts a server on 127.0.0.1 that hands each request to `answer(request)`
 * (`{method, url, headers, body}`, body as text) and writes back what it
 * returns (`{status, headers, body}`); returns its base URL and a close().
 */
export async function serve(answer) {
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      Promise.resolve(answer({ method: req.method, url: req.url, headers: req.headers, body })).then(
        (out) => {
          res.writeHead(out.status ?? 200, out.headers ?? { 'content-type': 'application/json' });
          res.end(out.body);
        },
        (err) => {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(String(err?.stack ?? err));
        },
      );
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** The output folder: argv[2], else the fixtures folder given. */
export function outDir(fallback) {
  const dir = process.argv[2] ? path.resolve(process.argv[2]) : path.join(root, fallback);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** Pretty JSON with a final newline. */
export const json = (v) => `${JSON.stringify(v, null, 2)}\n`;
