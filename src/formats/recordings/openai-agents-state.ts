/**
 * OpenAI Agents SDK run state, as both SDKs serialize it:
 *
 * - JS (`RunState.toString()`, `@openai/agents-core` runState.ts,
 *   `$schemaVersion` 1.x): `originalInput` (a user text, or history items)
 *   then the `rawItem` of each of its `generatedItems` in camelCase
 *   (`callId`), read as the Agents JS SDK's history items are
 *   (openai-agents.ts). A `tool_approval_item` (a call waiting for
 *   approval) is its call, once.
 * - Python (`RunState.to_json()` / `to_string()`, openai-agents-python
 *   src/agents/run_state.py, `$schemaVersion` 1.x): `original_input` then
 *   the `raw_item` of each of its `generated_items` (Responses items in
 *   snake_case), then `pending_input` (input staged for the next model
 *   call), as the SDK's own `to_input_list()` makes its next input
 *   (src/agents/result.py, run_internal/items.py): a `tool_approval_item`
 *   is no input item (its call is the `tool_call_item` before it), and a
 *   generated item the original input already holds (nested history
 *   ownership: `nested_history_owned_session_item_refs`, matched through
 *   `generated_session_item_indexes`) is not read twice.
 *
 * Consecutive model-side items are one model response. `modelResponses` /
 * `model_responses` hold the same model output again, Python's
 * `session_items` the same items as the session persists them, and the rest
 * of the state (context, usage, guardrail results, trace, current step,
 * last processed response, agent span, session bookkeeping) is not
 * conversation: skipped by rule. The agent's instructions are not in a run
 * state (it names the agent only), so the conversation has no system
 * message.
 */
import { field, kindName, type Node, type ObjectNode, type ParsedDocument } from '../../io/nodes.js';
import type { TranscriptBuilder } from '../transcript-common.js';
import { readResponsesItems } from '../transcript-responses.js';
import { DISTINCTIVE, type Evidence, type NearMiss, type RecordingReader } from './types.js';
import { append } from '../../core/append.js';

const str = (n: Node | undefined): string => (n?.kind === 'string' ? n.value : '');

/** Run item types (JS `RunItem.type`; Python items.py `RunItemBase` subclasses). */
const ITEM_TYPES = new Set([
  'message_output_item',
  'tool_call_item',
  'tool_call_output_item',
  'reasoning_item',
  'handoff_call_item',
  'handoff_output_item',
  'tool_approval_item',
  'tool_search_call_item',
  'tool_search_output_item',
  'compaction_item',
  'mcp_list_tools_item',
  'mcp_approval_request_item',
  'mcp_approval_response_item',
  'input_item',
]);

/** The keys of one SDK's run state. */
interface Dialect {
  readonly sdk: 'JS' | 'Python';
  readonly input: string;
  readonly generated: string;
  readonly raw: string;
  readonly callId: string;
  readonly responses: string;
}
const JS: Dialect = {
  sdk: 'JS',
  input: 'originalInput',
  generated: 'generatedItems',
  raw: 'rawItem',
  callId: 'callId',
  responses: 'modelResponses',
};
const PYTHON: Dialect = {
  sdk: 'Python',
  input: 'original_input',
  generated: 'generated_items',
  raw: 'raw_item',
  callId: 'call_id',
  responses: 'model_responses',
};

function dialectOf(doc: ParsedDocument): Dialect | null {
  const root = doc.root;
  if (root.kind !== 'object' || field(root, '$schemaVersion')?.kind !== 'string') return null;
  if (field(root, JS.generated)?.kind === 'array') return JS;
  if (field(root, PYTHON.generated)?.kind === 'array' && field(root, PYTHON.input) !== undefined) return PYTHON;
  return null;
}

/**
 * A document with a run state's own keys that is not one: generated items without the schema
 * version (or the Python state without its original input), or a schema version with neither.
 */
function near(doc: ParsedDocument): NearMiss | null {
  const root = doc.root;
  if (root.kind !== 'object' || dialectOf(doc) !== null) return null;
  const keys = ['$schemaVersion', ...new Set([JS.generated, JS.input, PYTHON.generated, PYTHON.input])];
  const present = keys.filter((k) => root.members.has(k));
  const items = present.filter((k) => k === JS.generated || k === PYTHON.generated);
  if (items.length === 0 && !(present.includes('$schemaVersion') && present.length > 1)) return null;
  return {
    score: DISTINCTIVE,
    found: `an object with ${present.map((k) => JSON.stringify(k)).join(', ')}`,
    expected:
      'RunState JSON: "$schemaVersion" (a string) with "generatedItems" (a list; JS state.toString()) or ' +
      '"generated_items" (a list) and "original_input" (Python state.to_json())',
  };
}

function detect(doc: ParsedDocument): Evidence | null {
  const d = dialectOf(doc);
  if (d === null) return null;
  const v = str(field(doc.root as ObjectNode, '$schemaVersion'));
  return {
    score: DISTINCTIVE + 3,
    detected_by: `an Agents ${d.sdk} SDK RunState ("$schemaVersion" ${JSON.stringify(v)}, "${d.generated}")`,
  };
}

/** A user message item made of an input text (the SDKs' own reading of a string input). */
function userText(input: Node & { kind: 'string' }): ObjectNode {
  const at = input.offset;
  const role = { kind: 'string' as const, offset: at, value: 'user' };
  return {
    kind: 'object',
    offset: at,
    members: new Map([
      ['role', { key: 'role', keyOffset: at, value: role }],
      ['content', { key: 'content', keyOffset: at, value: input }],
    ]),
  };
}

/** Input items: a text is one user message; a list is its items; absent or null (Python pending input) none. */
function inputItems(b: TranscriptBuilder, root: ObjectNode, key: string, optional: boolean): readonly Node[] {
  const input = field(root, key);
  if (input?.kind === 'string') return [userText(input)];
  if (input?.kind === 'array') return input.items;
  if (optional && (input === undefined || input.kind === 'null')) return [];
  throw b.error(input ?? root, `"${key}" must be a text or a list of items, found ${kindName(input)}`);
}

/**
 * Python: the indexes of generated items the original input already holds (nested history
 * ownership: a session item index owned by the input, and the generated item mapped to it).
 */
function ownedByInput(root: ObjectNode): Set<number> {
  const refs = field(root, 'nested_history_owned_session_item_refs');
  const map = field(root, 'generated_session_item_indexes');
  const owned = new Set<number>();
  if (refs?.kind !== 'array' || map?.kind !== 'array') return owned;
  const sessionIndexes = new Set<number>();
  for (const r of refs.items) {
    const i = r.kind === 'object' ? field(r, 'index') : undefined;
    if (i?.kind === 'number') sessionIndexes.add(Number(i.value));
  }
  map.items.forEach((s, i) => {
    if (s.kind === 'number' && sessionIndexes.has(Number(s.value))) owned.add(i);
  });
  return owned;
}

function read(doc: ParsedDocument, b: TranscriptBuilder): void {
  const d = dialectOf(doc);
  if (d === null)
    throw b.error(
      doc.root,
      'not an openai-agents-state recording: expected RunState JSON with "$schemaVersion" and "generatedItems" ' +
        `(JS) or "generated_items" and "original_input" (Python), found ${kindName(doc.root)}`,
    );
  const root = doc.root as ObjectNode;
  const items: Node[] = [];
  append(items, inputItems(b, root, d.input, false));
  const owned = d === PYTHON ? ownedByInput(root) : new Set<number>();
  const seenCalls = new Set<string>();
  const generated = (field(root, d.generated) as { items: readonly Node[] }).items;
  generated.forEach((it, i) => {
    const type = it.kind === 'object' ? field(it, 'type') : undefined;
    const raw = it.kind === 'object' ? field(it, d.raw) : undefined;
    if (type?.kind !== 'string' || !ITEM_TYPES.has(type.value) || raw?.kind !== 'object') {
      const found = type?.kind === 'string' ? `type ${JSON.stringify(type.value)}` : `${kindName(type)} for "type"`;
      b.unexplained(
        it,
        `unknown RunState item (expected {type: "<kind>_item", ${d.raw}: {...}, agent}; found ${found})`,
      );
      return;
    }
    if (owned.has(i)) {
      b.skip('generated items the original input already holds (nested history ownership)');
      return;
    }
    if (d === PYTHON && type.value === 'tool_approval_item') {
      // run_items_to_input_items: approvals are no input; the call is the tool_call_item before it.
      b.skip('approval requests (the SDK sends no item for them; the call is its tool_call_item)');
      return;
    }
    // A call waiting for approval is also the tool_call_item before it.
    const callId = field(raw, d.callId);
    const key = callId?.kind === 'string' ? `${str(field(raw, 'type'))}:${callId.value}` : null;
    if (type.value === 'tool_approval_item' && key !== null && seenCalls.has(key)) {
      b.skip('approval requests for calls already listed (their tool_call_item)');
      return;
    }
    if (key !== null) seenCalls.add(key);
    items.push(raw);
  });
  if (d === PYTHON) append(items, inputItems(b, root, 'pending_input', true));
  readResponsesItems(b, items, d === JS);
  const responses = field(root, d.responses);
  if (responses?.kind === 'array' && responses.items.length > 0)
    b.skip(`${d.responses} (the same model output as the generated items)`, responses.items.length);
  const session = d === PYTHON ? field(root, 'session_items') : undefined;
  if (session?.kind === 'array' && session.items.length > 0)
    b.skip('session_items (the same items as the session persists them)', session.items.length);
}

export const openaiAgentsStateReader: RecordingReader = {
  format: 'openai-agents-state',
  records: 'conversation',
  summary: 'OpenAI Agents SDK RunState JSON (JS toString, Python to_json)',
  shape:
    'openai-agents-state: OpenAI Agents SDK RunState JSON (JS state.toString(): originalInput + ' +
    'generatedItems; Python state.to_json(): original_input + generated_items)',
  detect,
  near,
  read,
};
