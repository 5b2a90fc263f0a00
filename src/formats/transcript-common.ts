/**
 * What every transcript reader shares: collecting messages with their
 * locations and warnings, reading text content, and marking a reminder
 * message whose marker a provider log dropped.
 */
import { REMINDER_MARKER } from '../core/middleware.js';
import { toWellFormed } from '../core/text.js';
import type { BlockMessage, ChatMessage, JsonValue, Message, MessageExtra } from '../core/types.js';
import type { InputError, SourceLocation } from '../io/errors.js';
import type { CatalogTool, CoverageProblem, SentTools, SessionCoverage } from './types.js';
import { raiseLimit } from '../io/read.js';
import {
  errorAt,
  field,
  foldKey,
  kindName,
  locate,
  type Node,
  type ObjectNode,
  type ParsedDocument,
  toJsonValue,
} from '../io/nodes.js';

/**
 * Collects the messages of a transcript, where each starts, warnings, and
 * coverage: which items were read, which were skipped by which documented
 * rule, and what no rule explains. Pairing of tool calls with their results
 * lives here, once, for every reader: readers announce calls with
 * {@link call} and results with {@link resolveCall}.
 */
export class TranscriptBuilder {
  readonly messages: Message[] = [];
  readonly locations: SourceLocation[] = [];
  /** Offset in the document where each message starts. */
  readonly offsets: number[] = [];
  readonly warnings: string[] = [];
  /** Names of the tool calls seen so far, by call id (a tool result's name is resolved from its call). */
  readonly callNames = new Map<string, string>();
  /** Results whose id no earlier call has. */
  readonly orphanResults: CoverageProblem[] = [];
  /** Top-level items read. */
  itemsRead = 0;
  /** Items skipped, by rule, in first-seen order. */
  readonly skipped = new Map<string, number>();
  /** Items or parts no rule explains. */
  readonly unexplainedItems: CoverageProblem[] = [];
  /** The tools sent with each model call, where the recording says (call logs, OTel). */
  readonly sentTools: Array<SentTools | null> = [];
  /** When messages were made (ms since the epoch), by message index, where the recording says. */
  readonly times = new Map<number, number>();
  /**
   * The tools a single request body sends (its `tools`), for the call it
   * asks for, its last model call; {@link sentTools} when none is set.
   */
  requestTools: SentTools | null = null;
  /** Tools the recording carries (a request body's `tools`). */
  tools: CatalogTool[] | null = null;
  /** Default names of the search tool for this format, and why (Claude Code: `ToolSearch`). */
  searchToolDefault: { readonly names: readonly string[]; readonly source: string } | null = null;
  /** The recording is a request body: itself one model call, even without an assistant message. */
  isRequest = false;
  /** Other conversations of the same file (Claude Code sidechains, the other sessions of a call log). */
  readonly sidechains: Array<{ readonly id: string; readonly builder: TranscriptBuilder }> = [];
  /** A log of model calls split into sessions: which session this is, of how many, its calls (see `Coverage`). */
  session: SessionCoverage | null = null;

  /**
   * @param restoreReminder mark a user message whose whole text is the
   *   reminder block (see {@link markReminder}); only for provider formats,
   *   which lose Eino's `extra`. Eino messages keep their own marker, and
   *   there only the marker counts, as in the reference.
   */
  constructor(
    readonly doc: ParsedDocument,
    readonly maxMessages: number,
    readonly restoreReminder = true,
  ) {}

  /** Records when the messages from index `from` to the last one were made (ms since the epoch), if `ms` is a time. */
  stamp(from: number, ms: number | null): void {
    if (ms === null || !Number.isFinite(ms)) return;
    for (let i = from; i < this.messages.length; i++) this.times.set(i, ms);
  }

  /** Appends a message that starts at `at`. */
  push(msg: Message, at: Node | number): void {
    if (this.messages.length >= this.maxMessages) {
      throw this.error(at, `too many messages: more than ${this.maxMessages} (${raiseLimit('maxMessages')})`);
    }
    this.messages.push(this.restoreReminder ? markReminder(msg) : msg);
    this.locations.push(locate(this.doc, at));
    this.offsets.push(typeof at === 'number' ? at : at.offset);
  }

  /**
   * Appends the messages of `other` (read from the same document) from index
   * `from` on, pairing their calls and results here; what `other` could not
   * explain is not understood here either.
   */
  adopt(other: TranscriptBuilder, from: number): void {
    for (let i = from; i < other.messages.length; i++) {
      const m = other.messages[i]!;
      const at = other.offsets[i]!;
      if (m.kind === 'chat') {
        for (const c of m.toolCalls ?? []) this.call(c.id, c.name, at);
        if (m.role === 'tool' && m.toolCallId !== undefined)
          this.resolveCall({ kind: 'null', offset: at }, m.toolCallId);
      } else {
        for (const bl of m.blocks) {
          if (bl.type === 'function_tool_call') this.call(bl.callId, bl.name, at);
          else if (bl.type === 'function_tool_result') this.resolveCall({ kind: 'null', offset: at }, bl.callId);
        }
      }
      this.push(m, at);
    }
    for (const p of other.unexplainedItems) {
      if (this.unexplainedItems.length === 0) this.firstUnexplained = other.firstUnexplained;
      this.unexplainedItems.push(p);
    }
    other.unexplainedItems.length = 0;
    this.warnings.push(...other.warnings);
    other.warnings.length = 0;
  }

  /** Records a non-fatal problem as `file:line:column: text`. */
  warn(at: Node | number, text: string): void {
    this.warnings.push(`${this.where(at)}: ${text}`);
  }

  /** `file:line:column` of `at`. */
  where(at: Node | number): string {
    const l = locate(this.doc, at);
    return `${l.file}:${l.line}:${l.column}`;
  }

  error(at: Node | number, message: string): InputError {
    return errorAt(this.doc, at, message);
  }

  /** Counts one top-level item as read. */
  read(n = 1): void {
    this.itemsRead += n;
  }

  /** Counts one item as skipped by `rule` (a documented rule of the format). */
  skip(rule: string, n = 1): void {
    this.skipped.set(rule, (this.skipped.get(rule) ?? 0) + n);
  }

  /** Records an item or part that no rule explains (an error at the end of the load unless lenient). */
  unexplained(at: Node | number, message: string): void {
    if (this.unexplainedItems.length === 0) this.firstUnexplained = typeof at === 'number' ? at : at.offset;
    this.unexplainedItems.push({ location: this.where(at), message });
  }

  /** Offset of the first unexplained item (for the error's excerpt). */
  firstUnexplained = -1;

  /**
   * Announces a tool call at `_at` (for name resolution and pairing); an empty id is never paired. A call
   * no result answers is the simulation's to report (`unanswered-call`), as the reference replays it.
   */
  call(id: string, name: string, _at: Node | number): void {
    if (id === '') return;
    this.callNames.set(id, name);
  }

  /**
   * The name of the call a tool result answers; records the result as unpaired (and returns null) when no earlier call
   * has that id.
   */
  resolveCall(at: Node, callId: string): string | null {
    const name = this.callNames.get(callId);
    if (name === undefined) {
      this.orphanResults.push({
        location: this.where(at),
        message: `tool result for unknown call id ${JSON.stringify(callId)}`,
      });
      this.firstOrphan ??= at.offset;
      return null;
    }
    return name;
  }

  /** Offset of the first unpaired result. */
  firstOrphan: number | null = null;
}

/** A string member (`what` names it in errors); absent or null is `fallback`. */
export function optString(b: TranscriptBuilder, node: Node | undefined, what: string, fallback = ''): string {
  if (!node || node.kind === 'null') return fallback;
  if (node.kind !== 'string') throw b.error(node, `${what} must be a string, found ${kindName(node)}`);
  return toWellFormed(node.value);
}

/** An object member, or undefined when absent or null. */
export function optObject(b: TranscriptBuilder, node: Node | undefined, what: string): ObjectNode | undefined {
  if (!node || node.kind === 'null') return undefined;
  if (node.kind !== 'object') throw b.error(node, `${what} must be an object, found ${kindName(node)}`);
  return node;
}

/** An array member, or an empty list when absent or null. */
export function optArray(b: TranscriptBuilder, node: Node | undefined, what: string): readonly Node[] {
  if (!node || node.kind === 'null') return [];
  if (node.kind !== 'array') throw b.error(node, `${what} must be a list, found ${kindName(node)}`);
  return node.items;
}

/** Each element of a list that must hold objects. */
export function objects(b: TranscriptBuilder, items: readonly Node[], what: string): ObjectNode[] {
  return items.map((n) => {
    if (n.kind !== 'object') throw b.error(n, `${what} must be an object, found ${kindName(n)}`);
    return n;
  });
}

/** The `role` of a message, which must be a string. */
export function roleOf(b: TranscriptBuilder, msg: ObjectNode, node: Node | undefined): string {
  if (!node || node.kind === 'null') throw b.error(msg, 'message has no role');
  if (node.kind !== 'string') throw b.error(node, `message role must be a string, found ${kindName(node)}`);
  return node.value;
}

/** The error for a role the format does not have (located at the message). */
export function unknownRole(b: TranscriptBuilder, msg: ObjectNode, role: string, known: readonly string[]): InputError {
  return b.error(msg, `unknown role ${JSON.stringify(role)} (expected ${known.join(', ')})`);
}

const TEXT_PART_TYPES = new Set(['text', 'input_text', 'output_text']);

/**
 * Text content: a string, or a list of parts whose text parts
 * (`{type: "text" | "input_text" | "output_text", text}`) are joined with
 * nothing in between (the model reads them as one text; a JSON result split
 * across parts stays readable). Other parts carry no text.
 */
export function textContent(b: TranscriptBuilder, node: Node | undefined, what: string): string {
  if (!node || node.kind === 'null') return '';
  if (node.kind === 'string') return toWellFormed(node.value);
  if (node.kind !== 'array')
    throw b.error(node, `${what} must be a string or a list of parts, found ${kindName(node)}`);
  let out = '';
  for (const part of node.items) {
    if (part.kind === 'string') {
      out += toWellFormed(part.value);
      continue;
    }
    if (part.kind !== 'object') throw b.error(part, `a content part must be an object, found ${kindName(part)}`);
    const type = field(part, 'type');
    if (type?.kind === 'string' && TEXT_PART_TYPES.has(type.value)) out += optString(b, field(part, 'text'), 'text');
  }
  return out;
}

/** Whether `type` names a text part. */
export function isTextPartType(type: string): boolean {
  return TEXT_PART_TYPES.has(type);
}

/** `extra` as plain data (null-prototype objects), or undefined. */
export function extraOf(b: TranscriptBuilder, node: Node | undefined): MessageExtra | undefined {
  const o = optObject(b, node, '"extra"');
  return o ? (toJsonValue(o) as MessageExtra) : undefined;
}

/** Arguments text: a string as it is, any other JSON value as its JSON text (absent or null: empty). */
export function argumentsText(node: Node | undefined): string {
  if (!node || node.kind === 'null') return '';
  if (node.kind === 'string') return toWellFormed(node.value);
  return JSON.stringify(toJsonValue(node));
}

/** Names found under `tool_name` / `name` keys of tool references in any nesting (bounded by the parse depth). */
export function referencedToolNames(node: Node | undefined): string[] {
  const out: string[] = [];
  const visit = (n: Node | undefined): void => {
    if (!n) return;
    if (n.kind === 'array') n.items.forEach(visit);
    else if (n.kind === 'object') {
      const type = field(n, 'type');
      const toolName = field(n, 'tool_name');
      if (
        toolName?.kind === 'string' &&
        (type === undefined || (type.kind === 'string' && type.value === 'tool_reference'))
      ) {
        out.push(toWellFormed(toolName.value));
        return;
      }
      for (const m of n.members.values()) visit(m.value);
    }
  };
  visit(node);
  return out;
}

/** Whether `text` is exactly the middleware's reminder block (the tool names may be anything). */
export function isReminderText(text: string): boolean {
  return /^<available-deferred-tools>\n(?:[^\n]*\n)*<\/available-deferred-tools>$/.test(text);
}

function withMarker(extra: MessageExtra | undefined): MessageExtra {
  const out = Object.create(null) as { [key: string]: JsonValue };
  if (extra) for (const k of Object.keys(extra)) out[k] = extra[k]!;
  out[REMINDER_MARKER] = true;
  return out;
}

/**
 * Restores the reminder marker. A logged provider request keeps the text of
 * the middleware's reminder but drops Eino's `extra` fields, so without this
 * every later model call would insert a second reminder. A user message whose
 * whole text is an `<available-deferred-tools>` block and that has no marker
 * field gets `extra.__toolsearch_reminder__ = true`. Provider formats only:
 * for Eino transcripts the reference's own marker is the only sign (a
 * reminder text without it makes the reference insert a second reminder).
 * Recognising the text is beyond the reference; the simulation report says
 * when it happened.
 */
export function markReminder(msg: Message): Message {
  if (msg.role !== 'user') return msg;
  if (msg.extra && Object.hasOwn(msg.extra, REMINDER_MARKER)) return msg;
  if (msg.kind === 'chat') {
    if (!isReminderText(msg.content)) return msg;
    const out: ChatMessage = { ...msg, extra: withMarker(msg.extra) };
    return out;
  }
  const only = msg.blocks.length === 1 ? msg.blocks[0] : undefined;
  if (only?.type !== 'text' || !isReminderText(only.text)) return msg;
  const out: BlockMessage = { ...msg, extra: withMarker(msg.extra) };
  return out;
}

/**
 * The known keys of {@link checkKeys} as sets, exact and folded, by list: the lists are constants, checked for every
 * message of every session.
 */
const keySets = new WeakMap<readonly string[], { exact?: Set<string>; loose?: Set<string> }>();

function knownSet(known: readonly string[], loose: boolean): Set<string> {
  let sets = keySets.get(known);
  if (!sets) keySets.set(known, (sets = {}));
  if (loose) return (sets.loose ??= new Set(known.map(foldKey)));
  return (sets.exact ??= new Set(known));
}

/**
 * Records every member of `obj` whose key is not in `known` as not
 * understood: a key no rule reads may carry what the replay needs (a tool
 * call under another name), so it is never dropped quietly. `loose`: keys
 * match as {@link looseField} does (Eino).
 */
export function checkKeys(
  b: TranscriptBuilder,
  obj: ObjectNode,
  known: readonly string[],
  what: string,
  loose = false,
): void {
  const set = knownSet(known, loose);
  for (const m of obj.members.values()) {
    if (set.has(loose ? foldKey(m.key) : m.key)) continue;
    b.unexplained(
      m.keyOffset,
      `unknown key ${JSON.stringify(m.key)} in ${what} (no rule reads it; known keys: ${known.join(', ')})`,
    );
  }
}
