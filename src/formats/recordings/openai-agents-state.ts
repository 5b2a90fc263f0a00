/**
 * OpenAI Agents JS SDK run state: the JSON of `RunState.toString()`
 * (`@openai/agents-core` runState.ts, `$schemaVersion` 1.x): the run's
 * `originalInput` (a user text, or history items) then the `rawItem` of each
 * of its `generatedItems` (`message_output_item`, `tool_call_item`,
 * `tool_call_output_item`, `reasoning_item`, `handoff_call_item`,
 * `handoff_output_item`, ...), read as the Agents SDK's history items are
 * (openai-agents.ts): consecutive model-side items are one model response.
 * A `tool_approval_item` (a call waiting for approval) is its call, once.
 * `modelResponses` hold the same model output again, and the rest of the
 * state (context, usage, guardrail results, trace, agent span, session
 * bookkeeping) is not conversation: skipped by rule. The agent's
 * instructions are not in a run state (it names the agent only), so the
 * conversation has no system message.
 */
import { field, kindName, type Node, type ObjectNode, type ParsedDocument } from '../../io/nodes.js';
import type { TranscriptBuilder } from '../transcript-common.js';
import { readResponsesItems } from '../transcript-responses.js';
import { DISTINCTIVE, type Evidence, type RecordingReader } from './types.js';
import { append } from '../../core/append.js';

const str = (n: Node | undefined): string => (n?.kind === 'string' ? n.value : '');

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
]);

function isState(doc: ParsedDocument): doc is ParsedDocument & { root: ObjectNode } {
  const root = doc.root;
  return (
    root.kind === 'object' &&
    field(root, '$schemaVersion')?.kind === 'string' &&
    field(root, 'generatedItems')?.kind === 'array'
  );
}

function detect(doc: ParsedDocument): Evidence | null {
  if (!isState(doc)) return null;
  const v = (field(doc.root, '$schemaVersion') as { value: string }).value;
  return {
    score: DISTINCTIVE + 3,
    detected_by: `an Agents JS SDK RunState ("$schemaVersion" ${JSON.stringify(v)}, "generatedItems")`,
  };
}

function read(doc: ParsedDocument, b: TranscriptBuilder): void {
  if (!isState(doc))
    throw b.error(
      doc.root,
      `not an openai-agents-state recording: expected RunState JSON with "$schemaVersion" and "generatedItems", ` +
        `found ${kindName(doc.root)}`,
    );
  const root = doc.root;
  const items: Node[] = [];
  const input = field(root, 'originalInput');
  if (input?.kind === 'string') {
    const members = new Map([
      [
        'role',
        {
          key: 'role',
          keyOffset: input.offset,
          value: { kind: 'string' as const, offset: input.offset, value: 'user' },
        },
      ],
      ['content', { key: 'content', keyOffset: input.offset, value: input }],
    ]);
    items.push({ kind: 'object', offset: input.offset, members });
  } else if (input?.kind === 'array') append(items, input.items);
  else throw b.error(input ?? root, `"originalInput" must be a text or a list of items, found ${kindName(input)}`);
  const seenCalls = new Set<string>();
  for (const it of (field(root, 'generatedItems') as { items: readonly Node[] }).items) {
    const type = it.kind === 'object' ? field(it, 'type') : undefined;
    const raw = it.kind === 'object' ? field(it, 'rawItem') : undefined;
    if (type?.kind !== 'string' || !ITEM_TYPES.has(type.value) || raw?.kind !== 'object') {
      b.unexplained(
        it,
        `unknown RunState item (expected {type: "<kind>_item", rawItem, agent}; found ${kindName(type)} type)`,
      );
      continue;
    }
    // A call waiting for approval is also the tool_call_item before it.
    const callId = field(raw, 'callId');
    const key = callId?.kind === 'string' ? `${str(field(raw, 'type'))}:${callId.value}` : null;
    if (type.value === 'tool_approval_item' && key !== null && seenCalls.has(key)) {
      b.skip('approval requests for calls already listed (their tool_call_item)');
      continue;
    }
    if (key !== null) seenCalls.add(key);
    items.push(raw);
  }
  readResponsesItems(b, items, true);
  const responses = field(root, 'modelResponses');
  if (responses?.kind === 'array' && responses.items.length > 0)
    b.skip('modelResponses (the same model output as the generated items)', responses.items.length);
}

export const openaiAgentsStateReader: RecordingReader = {
  format: 'openai-agents-state',
  records: 'conversation',
  summary: 'OpenAI Agents JS SDK RunState JSON (state.toString())',
  shape: 'openai-agents-state: OpenAI Agents JS SDK RunState JSON (state.toString(): originalInput + generatedItems)',
  detect,
  read,
};
