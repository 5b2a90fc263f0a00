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
import { field, type Node, type ParsedDocument } from '../../io/nodes.js';
import type { TranscriptBuilder } from '../transcript-common.js';
import { readResponsesItems } from '../transcript-responses.js';
import { DISTINCTIVE, type Evidence, type RecordingReader } from './types.js';

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
  read,
};
