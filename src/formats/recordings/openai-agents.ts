/**
 * OpenAI Agents SDK history:
 *
 * - the JS SDK (`result.history`, `AgentInputItem[]`, packages/agents-core
 *   src/types/protocol.ts): Responses-like items in camelCase — `message`
 *   (typed or not), `function_call` / `function_call_result` with `callId`,
 *   `hosted_tool_call`, `reasoning`, computer / shell / apply-patch calls and
 *   their results, `tool_search_call` / `tool_search_output`, and
 *   `providerData` on any item;
 * - the Python SDK's `result.to_input_list()`: Responses input items in
 *   snake_case (`function_call_output` with `call_id`). It is the Responses
 *   shape itself, so detection names it `openai-responses`; `--format
 *   openai-agents` reads it the same way.
 *
 * Items are read by the Responses reader (consecutive model-side items are
 * one model response); an item type neither SDK writes is an error.
 */
import { field, kindName, type Node, type ParsedDocument } from '../../io/nodes.js';
import type { TranscriptBuilder } from '../transcript-common.js';
import { readResponsesItems } from '../transcript-responses.js';
import { DISTINCTIVE, type Evidence, type NearMiss, type RecordingReader } from './types.js';

function items(doc: ParsedDocument): readonly Node[] | null {
  const root = doc.root;
  if (root.kind === 'array') return root.items;
  if (root.kind === 'object') {
    const h = field(root, 'history') ?? field(root, 'input');
    if (h?.kind === 'array') return h.items;
  }
  return null;
}

/** Items with keys only the JS SDK writes (`callId`, `providerData`, `function_call_result`, `hosted_tool_call`). */
function jsItems(list: readonly Node[]): number {
  let n = 0;
  for (const it of list) {
    if (it.kind !== 'object') continue;
    const type = field(it, 'type');
    const t = type?.kind === 'string' ? type.value : '';
    if (
      it.members.has('callId') ||
      it.members.has('providerData') ||
      t === 'function_call_result' ||
      t === 'hosted_tool_call'
    )
      n++;
  }
  return n;
}

function detect(doc: ParsedDocument): Evidence | null {
  const list = items(doc);
  if (!list) return null;
  const n = jsItems(list);
  if (n === 0) return null;
  return {
    score: DISTINCTIVE + n,
    detected_by:
      `${n} ${n === 1 ? 'item has' : 'items have'} the Agents JS SDK's keys ("callId", ` +
      `"providerData", "function_call_result", "hosted_tool_call")`,
  };
}

/** Keys of the JS SDK's run result (`RunResult`) beside its `history`. */
const RESULT_KEYS = ['newItems', 'finalOutput', 'lastAgent', 'rawResponses', 'lastResponseId'];

/** A run result whose `history` is no list, or a run result's keys with no `history` at all. */
function near(doc: ParsedDocument): NearMiss | null {
  const root = doc.root;
  if (root.kind !== 'object' || detect(doc) !== null) return null;
  const history = field(root, 'history');
  const keys = RESULT_KEYS.filter((k) => root.members.has(k));
  // With no `history`, a list in `input` is a Responses request body (openai-responses reads it).
  if (history?.kind === 'array' || (history === undefined && (keys.length === 0 || root.members.has('input'))))
    return null;
  return {
    // A `history` that is no list is a weak sign alone (other objects have one); the result's keys are the SDK's.
    score: keys.length > 0 ? DISTINCTIVE + keys.length : 1,
    found:
      history === undefined
        ? `a run result (${keys.map((k) => JSON.stringify(k)).join(', ')}) with no "history"`
        : `an object whose "history" is ${kindName(history)}`,
    expected: 'result.history: a list of items (or a bare list, or to_input_list())',
  };
}

function read(doc: ParsedDocument, b: TranscriptBuilder): void {
  const list = items(doc);
  if (!list)
    throw b.error(
      doc.root,
      'not an openai-agents recording: expected a list of history items (result.history, or to_input_list())',
    );
  readResponsesItems(b, list, jsItems(list) > 0);
}

export const openaiAgentsReader: RecordingReader = {
  format: 'openai-agents',
  records: 'conversation',
  summary: 'OpenAI Agents SDK history (JS items; Python to_input_list())',
  shape: 'openai-agents: OpenAI Agents SDK history (JS result.history items with callId; Python to_input_list())',
  detect,
  near,
  read,
};
