/**
 * The conversations the recording fixtures replay, from fixtures/transcripts/ (Eino form, the neutral
 * source every other form there is written from): their messages, the answer of each model call, the
 * result of each tool call, and the tools the reference offers at each call in default mode (computed
 * with the built simulate job against fixtures/catalogs/demo.yaml), as the agent in the scripts sends them.
 *
 * Needs `npm run build` (dist/).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const { loadCatalogFiles, loadTranscriptFile } = await import(path.join(ROOT, 'dist/formats/index.js'));
const { simulate } = await import(path.join(ROOT, 'dist/jobs/simulate/index.js'));
const { TOOL_SEARCH_TOOL } = await import(path.join(ROOT, 'dist/core/index.js'));

const catalog = loadCatalogFiles([path.join(ROOT, 'fixtures/catalogs/demo.yaml')]);
const byName = new Map(catalog.tools.map((t) => [t.name, t]));

/**
 * One conversation: `messages` as neutral messages ({role, content, calls?: [{id, name, arguments}],
 * callId?}), `answers[k]` the assistant message of model call k+1, `results` tool results by call id,
 * `tools[k]` the tools ({name, description, parameters}) sent with model call k+1.
 *
 * `ids` renames the call ids (`call_1` → `${ids}1`) so that two conversations of one recording differ.
 */
export function loadScenario(name, ids = 'call_') {
  const file = path.join(ROOT, `fixtures/transcripts/${name}.json`);
  const raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  const rename = (id) => id.replace(/^call_/, ids);
  const messages = raw.map((m) => {
    if (m.role === 'tool') return { role: 'tool', content: m.content, callId: rename(m.tool_call_id) };
    const calls = (m.tool_calls ?? []).map((c) => ({
      id: rename(c.id),
      name: c.function.name,
      arguments: c.function.arguments,
    }));
    return calls.length > 0 ? { role: m.role, content: m.content, calls } : { role: m.role, content: m.content };
  });
  const report = simulate({ transcript: loadTranscriptFile(file), catalog, mode: 'default', replay: false });
  const tool = (n) => (n === TOOL_SEARCH_TOOL.name ? TOOL_SEARCH_TOOL : byName.get(n));
  const tools = report.turns.map((t) =>
    t.visible.map((n) => {
      const { name, description, parameters } = tool(n);
      return { name, description, parameters: parameters ?? { type: 'object', properties: {} } };
    }),
  );
  const answers = messages.filter((m) => m.role === 'assistant');
  const results = new Map(messages.filter((m) => m.role === 'tool').map((m) => [m.callId, m.content]));
  return {
    name,
    system: messages[0].role === 'system' ? messages[0].content : null,
    user: messages.find((m) => m.role === 'user').content,
    messages,
    answers,
    results,
    tools,
  };
}

/** The answer for a request: the conversation whose first user text it holds, at its count of model answers. */
export function answerFor(scenarios, firstUserText, answered) {
  const s = scenarios.find((x) => x.user === firstUserText);
  if (!s) throw new Error(`no scenario starts with ${JSON.stringify(firstUserText)}`);
  const a = s.answers[answered];
  if (!a) throw new Error(`${s.name}: no answer for model call ${answered + 1}`);
  return { scenario: s, answer: a, call: answered + 1 };
}
