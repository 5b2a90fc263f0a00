/**
 * Mastra's stored messages: what its memory keeps of a thread
 * (`MastraDBMessage`, `@mastra/core` 1.71.0, `dist/agent/message-list/state/types.d.ts`) and
 * returns from `memory.recall({ threadId })` or a storage's `listMessages`:
 *
 *     {id, role, createdAt, threadId, resourceId, type,
 *      content: {format: 2, parts, content?, toolInvocations?, metadata?, …}}
 *
 * as a list, or the `{messages, total, page, perPage, hasMore}` object recall returns.
 * One assistant message holds every step of a `generate`: a `step-start` part
 * begins the next model call; `tool-invocation` parts carry the call and, in
 * state `result` (or `output-error`, `output-denied`), its result, as the AI
 * SDK v4 UI parts did. The message's `createdAt` and each `step-start`'s
 * `createdAt` (ms) date the model calls, which Mastra's TTL needs.
 *
 * A tool invocation the provider ran (`providerExecuted: true`, its web search) is the
 * provider's own call, listed at its model call, never checked against the tools offered.
 * Skipped by rule: `reasoning`, `source`, `source-url`, `source-document`,
 * `file`, `error` and `data-*` parts (no tool use); `partial-call` invocations
 * (still streaming: no call was made); `content.toolInvocations` (the legacy
 * copy of the parts' invocations); signal messages other than user messages
 * (Mastra's reminders and notifications, no tool use). An unknown part type, state or
 * role is an error.
 */
import { toWellFormed } from '../../core/text.js';
import { field, type Node, type ObjectNode, type ParsedDocument } from '../../io/nodes.js';
import { checkKeys, type TranscriptBuilder } from '../transcript-common.js';
import { AssistantStep, providerCallBlock } from './ai-sdk.js';
import { argsText, outputText } from './chat-build.js';
import { DISTINCTIVE, type Evidence, type NearMiss, type RecordingReader } from './types.js';

const str = (n: Node | undefined): string | null => (n?.kind === 'string' ? n.value : null);
const partType = (p: Node): string | null => (p.kind === 'object' ? str(field(p, 'type')) : null);

const MESSAGE_KEYS = ['id', 'role', 'createdAt', 'threadId', 'resourceId', 'type', 'content'];
const CONTENT_KEYS = [
  'format',
  'parts',
  'content',
  'toolInvocations',
  'experimental_attachments',
  'reasoning',
  'annotations',
  'metadata',
  'providerMetadata',
];
const RESULT_KEYS = ['messages', 'total', 'page', 'perPage', 'hasMore', 'usage'];
const SKIPPED_PARTS = new Set(['reasoning', 'source', 'source-url', 'source-document', 'file', 'error']);
const SKIPPED_PARTS_RULE = 'reasoning, source, file, error and data-* parts (no tool use)';
const STATES = ['call', 'result', 'output-error', 'output-denied', 'approval-requested', 'approval-responded'];
/** The text a denied call's result reads (the AI SDK's own, which Mastra's conversion keeps). */
const DENIED = 'Tool call execution denied.';

/** A stored message: an object whose `content` is `{format: 2, parts: [...]}`. */
function isStored(n: Node): n is ObjectNode {
  if (n.kind !== 'object') return false;
  const content = field(n, 'content');
  if (content?.kind !== 'object') return false;
  const format = field(content, 'format');
  return format?.kind === 'number' && Number(format.value) === 2 && field(content, 'parts')?.kind === 'array';
}

function locate(doc: ParsedDocument): { items: readonly Node[]; root: ObjectNode | null } | null {
  const root = doc.root;
  if (root.kind === 'array') return root.items.some(isStored) ? { items: root.items, root: null } : null;
  if (root.kind !== 'object') return null;
  const messages = field(root, 'messages');
  if (messages?.kind === 'array' && messages.items.some(isStored)) return { items: messages.items, root };
  return null;
}

/**
 * Mastra's own signs in messages that are not stored messages: a `threadId` / `resourceId`, or a
 * `content` object with a `format` (of another version, or without `parts`).
 */
function near(doc: ParsedDocument): NearMiss | null {
  if (locate(doc) !== null) return null;
  const root = doc.root;
  const messages = root.kind === 'object' ? field(root, 'messages') : undefined;
  const items = root.kind === 'array' ? root.items : messages?.kind === 'array' ? messages.items : [];
  let ids = 0;
  let formats = 0;
  for (const m of items) {
    if (m.kind !== 'object') continue;
    const content = field(m, 'content');
    if (content?.kind === 'object' && content.members.has('format')) formats++;
    else if (m.members.has('threadId') || m.members.has('resourceId')) ids++;
  }
  if (ids + formats === 0) return null;
  const said = [
    formats > 0 ? `${formats} ${formats === 1 ? 'message' : 'messages'} with a "content" object with "format"` : '',
    ids > 0 ? `${ids} ${ids === 1 ? 'message' : 'messages'} with "threadId" / "resourceId"` : '',
  ].filter((x) => x !== '');
  return {
    score: DISTINCTIVE + ids + formats,
    found: `${said.join(', ')} but no stored message`,
    expected: 'stored messages {id, role, threadId, content: {"format": 2, "parts": [...]}} (a list, or {messages})',
  };
}

function detect(doc: ParsedDocument): Evidence | null {
  const found = locate(doc);
  if (!found) return null;
  const n = found.items.filter(isStored).length;
  return {
    score: DISTINCTIVE + 2,
    detected_by:
      `${n} Mastra stored message${n === 1 ? '' : 's'} ("content": {"format": 2, "parts"})` +
      (found.root ? ' in "messages"' : ''),
  };
}

/** A date as Mastra writes it: an ISO string (a `Date` in JSON), or ms since the epoch. */
function timeOf(node: Node | undefined): number | null {
  if (node?.kind === 'number') return Number(node.value);
  if (node?.kind === 'string') {
    const ms = Date.parse(node.value);
    return Number.isNaN(ms) ? null : ms;
  }
  return null;
}

/** The text of a message's parts (user and system messages; `content.content` when it has no text part). */
function plainText(b: TranscriptBuilder, content: ObjectNode, parts: readonly Node[]): string {
  let text = '';
  let hasText = false;
  for (const p of parts) {
    const type = partType(p);
    if (type === 'text' && p.kind === 'object') {
      text += str(field(p, 'text')) ?? '';
      hasText = true;
    } else if (type !== null && (SKIPPED_PARTS.has(type) || type.startsWith('data-') || type === 'step-start'))
      b.skip(SKIPPED_PARTS_RULE);
    else b.unexplained(p, `unknown Mastra message part type ${JSON.stringify(type)}`);
  }
  if (!hasText) text = str(field(content, 'content')) ?? '';
  return toWellFormed(text);
}

/** A signal message is a user message when its `metadata.signal.type` is `user` (Mastra reads it so). */
function isUserSignal(content: ObjectNode): boolean {
  const metadata = field(content, 'metadata');
  const signal = metadata?.kind === 'object' ? field(metadata, 'signal') : undefined;
  return signal?.kind === 'object' && str(field(signal, 'type')) === 'user';
}

function approvalRefused(inv: ObjectNode): { refused: boolean; reason: string | null } {
  const approval = field(inv, 'approval');
  if (approval?.kind !== 'object') return { refused: false, reason: null };
  const approved = field(approval, 'approved');
  return { refused: approved?.kind === 'bool' && !approved.value, reason: str(field(approval, 'reason')) };
}

/** An assistant message: one model call per step (`step-start` begins the next), each followed by its results. */
function readAssistant(b: TranscriptBuilder, m: ObjectNode, parts: readonly Node[]): void {
  let step = new AssistantStep(m);
  let time = timeOf(field(m, 'createdAt'));
  // Each step's messages carry its time (its step-start's createdAt, else the last known).
  const flush = (): void => {
    const first = step.push(b);
    if (first !== null) b.stamp(first, time);
  };
  for (const p of parts) {
    const type = partType(p);
    if (p.kind !== 'object' || type === null) {
      b.unexplained(p, 'a Mastra message part without a "type"');
      continue;
    }
    if (type === 'step-start') {
      flush();
      step = new AssistantStep(p);
      time = timeOf(field(p, 'createdAt')) ?? time;
    } else if (type === 'text') step.text += str(field(p, 'text')) ?? '';
    else if (type === 'tool-invocation') {
      const inv = field(p, 'toolInvocation');
      if (inv?.kind !== 'object') {
        b.unexplained(p, 'a Mastra tool-invocation part without a "toolInvocation" object');
        continue;
      }
      const exec = field(p, 'providerExecuted');
      if (exec?.kind === 'bool' && exec.value) {
        // The provider ran the tool (its web search): the provider's own call, listed at its model call.
        const id = str(field(inv, 'toolCallId')) ?? '';
        step.provider.push(
          providerCallBlock(type, id, toWellFormed(str(field(inv, 'toolName')) ?? ''), field(inv, 'args')),
        );
        continue;
      }
      const state = str(field(inv, 'state'));
      if (state === 'partial-call') {
        b.skip('tool invocations in state partial-call (still streaming: no call was made)');
        continue;
      }
      if (state === null || !STATES.includes(state)) {
        b.unexplained(
          inv,
          `unknown Mastra tool invocation state ${JSON.stringify(state)} (expected partial-call, ${STATES.join(', ')})`,
        );
        continue;
      }
      const id = str(field(inv, 'toolCallId')) ?? '';
      const name = toWellFormed(str(field(inv, 'toolName')) ?? '');
      const input = field(inv, 'args') ?? (state === 'output-error' ? field(inv, 'rawInput') : undefined);
      step.calls.push({ id, name, arguments: argsText(input), at: inv });
      const approval = approvalRefused(inv);
      const results = step.results;
      if (state === 'output-error')
        results.push({ id, name, text: str(field(inv, 'errorText')) ?? outputText(field(inv, 'result')), at: inv });
      else if (state === 'output-denied' || (state === 'approval-responded' && approval.refused))
        results.push({ id, name, text: approval.reason ?? DENIED, at: inv });
      else if (state === 'result') results.push({ id, name, text: outputText(field(inv, 'result')), at: inv });
    } else if (SKIPPED_PARTS.has(type) || type.startsWith('data-')) b.skip(SKIPPED_PARTS_RULE);
    else b.unexplained(p, `unknown Mastra message part type ${JSON.stringify(type)}`);
  }
  flush();
}

function read(doc: ParsedDocument, b: TranscriptBuilder): void {
  const found = locate(doc);
  if (!found) {
    throw b.error(
      doc.root,
      'not a mastra recording: expected Mastra stored messages ({"content": {"format": 2, "parts": [...]}}), ' +
        'a list or the "messages" of memory.recall()',
    );
  }
  if (found.root) checkKeys(b, found.root, RESULT_KEYS, "memory.recall()'s result");
  for (const m of found.items) {
    if (!isStored(m)) {
      b.unexplained(m, 'a Mastra stored message must be an object with "content": {"format": 2, "parts": [...]}');
      continue;
    }
    b.read();
    checkKeys(b, m, MESSAGE_KEYS, 'a Mastra stored message');
    const content = field(m, 'content') as ObjectNode;
    checkKeys(b, content, CONTENT_KEYS, "a Mastra stored message's content");
    if (field(content, 'toolInvocations') !== undefined)
      b.skip('content.toolInvocations (the legacy copy of the tool-invocation parts)');
    const parts = (field(content, 'parts') as Extract<Node, { kind: 'array' }>).items;
    const role = str(field(m, 'role'));
    const first = b.messages.length;
    const createdAt = timeOf(field(m, 'createdAt'));
    if (role === 'user' || role === 'system' || (role === 'signal' && isUserSignal(content))) {
      b.push({ kind: 'chat', role: role === 'system' ? 'system' : 'user', content: plainText(b, content, parts) }, m);
      b.stamp(first, createdAt);
    } else if (role === 'signal') b.skip('signal messages other than user messages (reminders, notifications)');
    else if (role === 'assistant') {
      // A message stored with no parts (older writers) keeps its text in content.content.
      const only = parts.length === 0 ? str(field(content, 'content')) : null;
      if (only !== null) {
        b.push({ kind: 'chat', role: 'assistant', content: toWellFormed(only) }, m);
        b.stamp(first, createdAt);
      } else readAssistant(b, m, parts);
    } else
      b.unexplained(
        m,
        `unknown Mastra message role ${JSON.stringify(role)} (expected user, assistant, system, signal)`,
      );
  }
}

export const mastraReader: RecordingReader = {
  format: 'mastra',
  records: 'conversation',
  summary: "Mastra memory's stored messages (MastraDBMessage, format 2)",
  shape:
    'mastra: Mastra stored messages (MastraDBMessage: "content": {"format": 2, "parts"}), ' +
    'a list or the "messages" of memory.recall()',
  detect,
  near,
  read,
};
