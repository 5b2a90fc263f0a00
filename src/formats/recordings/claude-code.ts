/**
 * Claude Code recordings, two shapes of JSON Lines:
 *
 * - the session log (`~/.claude/projects/<project>/<session>.jsonl`): one
 *   event per line, `{type: "user" | "assistant", message, uuid,
 *   parentUuid, isSidechain, sessionId, ...}`, `message` in Anthropic
 *   Messages form. Claude Code writes one line per content block of a model
 *   response; the lines of one response share `message.id` and are joined
 *   into one assistant message. Tool results are user lines with
 *   `tool_result` blocks (the model reads those; `toolUseResult` is the UI's
 *   copy and is not read).
 * - `claude -p --output-format stream-json`: `{type: "system", subtype:
 *   "init", tools, ...}`, then `assistant` / `user` lines (`message` as
 *   above, `parent_tool_use_id` for a subagent's lines), then `result`.
 *
 * The main chain is the `parentUuid` path from the last conversation line
 * back to the first (through compaction boundaries by `logicalParentUuid`);
 * lines on other branches (an edited or retried message) are skipped and
 * counted. Subagent sidechains (`isSidechain: true`, or a non-null
 * `parent_tool_use_id`) are skipped unless asked for; then each subagent
 * (each chain from its own root; stream-json: by the tool use that started
 * it) is its own conversation, see {@link sidechainGroups}. Lines that are not conversation are skipped by rule and
 * counted: see {@link SKIPPED}.
 *
 * Claude Code's search tool is named `ToolSearch` (its results are
 * `tool_reference` blocks): the format's default search tool name.
 */
import { toWellFormed } from '../../core/text.js';
import type { ContentBlock } from '../../core/types.js';
import { field, type Node, type ObjectNode, type ParsedDocument } from '../../io/nodes.js';
import { contentBlocks } from '../transcript-anthropic.js';
import { checkKeys, TranscriptBuilder } from '../transcript-common.js';
import { DISTINCTIVE, type Evidence, type NearMiss, type ReadOptions, type RecordingReader } from './types.js';
import { append } from '../../core/append.js';

/**
 * Line types that are not conversation, and the rule each is skipped by
 * (types from the Claude Code 2.1.144 session-log schema, see {@link SHARED_KEYS}).
 */
const SKIPPED: Readonly<Record<string, string>> = {
  summary: 'summary lines (a session title; not sent to the model)',
  'file-history-snapshot': 'file-history-snapshot lines (checkpoints of edited files)',
  system: 'system lines (local command output, compaction boundaries, notices, stream-json init: not model messages)',
  result: 'result lines (the run summary of stream-json)',
  stream_event: 'stream_event lines (partial deltas; the complete message follows)',
  'queue-operation': 'queue-operation lines (prompts queued while the model worked)',
  progress: 'progress lines (hook and tool progress)',
  'custom-title': 'custom-title lines (a session name)',
  tag: 'tag lines (session tags)',
  attachment:
    'attachment lines (context Claude Code adds to a request: hook output, reminders, files, ' +
    'deferred-tool lists; no tool call or result)',
  'pr-link': 'pr-link lines (a pull request linked to the session)',
  'agent-name': 'agent-name lines (a session name)',
  'ai-title': 'ai-title lines (a session title)',
  'last-prompt': 'last-prompt lines (the prompt box at exit)',
  'permission-mode': 'permission-mode lines (a mode change)',
  'agent-setting': 'agent-setting lines (the agent chosen for the session)',
  'bridge-session': 'bridge-session lines (a remote session link)',
  'worktree-state': 'worktree-state lines (the git worktree of the session)',
};

/**
 * Keys of a conversation line, from the session-log schema of Claude Code
 * 2.1.144 (oneryalcin/agent-schemas, claude-code/v2.1.144/session.schema.json:
 * `UserMessage`, `AssistantMessage`) and the stream-json lines. None changes
 * what the model was sent: session and UI metadata (`toolUseResult` is the
 * UI's copy of a tool result), or flags read below (`isSidechain`,
 * `isApiErrorMessage`). Any other key is an error (`--lenient`: counted).
 */
const SHARED_KEYS = [
  'type',
  'uuid',
  'parentUuid',
  'logicalParentUuid',
  'sessionId',
  'timestamp',
  'version',
  'cwd',
  'gitBranch',
  'isSidechain',
  'userType',
  'message',
  'agentId',
  'slug',
  'teamName',
  'sessionKind',
  'origin',
  'sidechainParentUuid',
  'entrypoint',
  // stream-json
  'session_id',
  'parent_tool_use_id',
];
const USER_KEYS = [
  ...SHARED_KEYS,
  'thinkingMetadata',
  'todos',
  'isMeta',
  'isCompactSummary',
  'isVisibleInTranscriptOnly',
  'toolUseResult',
  'sourceToolAssistantUUID',
  'sourceToolUseID',
  'permissionMode',
  'imagePasteIds',
  'planContent',
  'promptId',
  'mcpMeta',
  // stream-json
  'tool_use_result',
  'isSynthetic',
];
const ASSISTANT_KEYS = [
  ...SHARED_KEYS,
  'requestId',
  'isApiErrorMessage',
  'error',
  'apiErrorStatus',
  'errorDetails',
  'advisorModel',
  'attributionAgent',
  'attributionPlugin',
  'attributionSkill',
];
/** Keys of `message` (Anthropic Messages form: a request message, or a response for assistant lines). */
// stream-json user events may carry the id and type of a message object too.
const USER_MESSAGE_KEYS = ['role', 'content', 'id', 'type'];
const ASSISTANT_MESSAGE_KEYS = [
  'role',
  'content',
  'id',
  'type',
  'model',
  'stop_reason',
  'stop_sequence',
  'stop_details',
  'usage',
  'container',
  'context_management',
  'diagnostics',
];

const str = (n: Node | undefined): string | null => (n?.kind === 'string' ? n.value : null);

function lineInfo(n: Node): { type: string | null; message: ObjectNode | null } {
  if (n.kind !== 'object') return { type: null, message: null };
  const m = field(n, 'message');
  return { type: str(field(n, 'type')), message: m?.kind === 'object' ? m : null };
}

function detect(doc: ParsedDocument): Evidence | null {
  const root = doc.root;
  if (root.kind !== 'array') return null;
  let conversation = 0;
  let other = 0;
  let stream = false;
  for (const n of root.items) {
    if (n.kind !== 'object') continue;
    const { type, message } = lineInfo(n);
    if (type === null) continue;
    const marked =
      n.members.has('uuid') || n.members.has('sessionId') || n.members.has('session_id') || n.members.has('parentUuid');
    if ((type === 'user' || type === 'assistant') && message && marked) conversation++;
    else if (type in SKIPPED && (marked || type === 'summary' || type === 'file-history-snapshot')) other++;
    if (type === 'system' && str(field(n, 'subtype')) === 'init' && n.members.has('session_id')) stream = true;
  }
  if (conversation === 0) return null;
  const what = stream ? 'claude -p --output-format stream-json' : 'Claude Code session log';
  return {
    score: DISTINCTIVE + conversation + other,
    detected_by: `${conversation} lines with "type": "user"/"assistant", a "message" and session fields (${what})`,
  };
}

/**
 * Lines with Claude Code's session fields (`uuid`, `parentUuid`, `sessionId`) and a `type`, but no
 * `user` / `assistant` line with a `message` object: a session log with no conversation in it.
 */
function near(doc: ParsedDocument): NearMiss | null {
  const root = doc.root;
  if (root.kind !== 'array' || detect(doc) !== null) return null;
  let n = 0;
  for (const l of root.items)
    if (
      l.kind === 'object' &&
      field(l, 'type')?.kind === 'string' &&
      (l.members.has('uuid') || l.members.has('sessionId'))
    )
      n++;
  if (n === 0) return null;
  return {
    score: DISTINCTIVE,
    found: `${n} ${n === 1 ? 'line' : 'lines'} with Claude Code's session fields ("type", "uuid" / "sessionId")`,
    expected: 'at least one {"type": "user" | "assistant", "message": {role, content}} line',
  };
}

interface Line {
  readonly node: ObjectNode;
  readonly type: string;
  readonly message: ObjectNode | null;
}

/** Whether a line is a subagent's: `isSidechain: true` (session log), or a `parent_tool_use_id` (stream-json). */
function isSidechainLine(node: ObjectNode): boolean {
  if (str(field(node, 'parent_tool_use_id')) !== null) return true;
  const side = field(node, 'isSidechain');
  return side?.kind === 'bool' && side.value;
}

/**
 * The subagents' conversations, in the order they start: stream-json lines by their
 * `parent_tool_use_id`; session-log lines by the root each descends from. Claude Code writes
 * each subagent's messages as a chain of its own, its first line a root (`parentUuid` null, or
 * the main chain's line that started it: jeremedia/claude-code-log-format
 * source-docs/JSONL_LOGGING.md, `insertMessageChain`); older versions write them into the
 * session file, all with the session's `sessionId` and no `agentId`, so two Task subagents are
 * two roots there. A conversation's id is its root's `agentId`, else the `sessionId` (`#2`, `#3`
 * for the next ones with the same id).
 */
function sidechainGroups(lines: readonly Line[]): Array<{ id: string; lines: Line[] }> {
  const groups: Array<{ id: string; lines: Line[] }> = [];
  const byTool = new Map<string, { id: string; lines: Line[] }>();
  const groupOf = new Map<string, { id: string; lines: Line[] }>();
  const used = new Map<string, number>();
  const open = (base: string): { id: string; lines: Line[] } => {
    const n = (used.get(base) ?? 0) + 1;
    used.set(base, n);
    const g = { id: n === 1 ? base : `${base}#${n}`, lines: [] as Line[] };
    groups.push(g);
    return g;
  };
  for (const l of lines) {
    const tool = str(field(l.node, 'parent_tool_use_id'));
    let g: { id: string; lines: Line[] } | undefined;
    if (tool !== null) {
      g = byTool.get(tool);
      if (!g) byTool.set(tool, (g = open(tool)));
    } else {
      const parent = str(field(l.node, 'parentUuid')) ?? str(field(l.node, 'logicalParentUuid'));
      g = parent === null ? undefined : groupOf.get(parent);
      g ??= open(str(field(l.node, 'agentId')) ?? str(field(l.node, 'sessionId')) ?? 'sidechain');
    }
    g.lines.push(l);
    const uuid = str(field(l.node, 'uuid'));
    if (uuid !== null) groupOf.set(uuid, g);
  }
  return groups;
}

/**
 * The lines on the chain that ends at the last conversation line, in file
 * order; null when the lines carry no `uuid`/`parentUuid` (stream-json):
 * then every line is on it.
 */
function mainChain(lines: readonly Line[]): Set<ObjectNode> | null {
  const byUuid = new Map<string, Line>();
  let any = false;
  for (const l of lines) {
    const u = str(field(l.node, 'uuid'));
    if (u !== null) byUuid.set(u, l);
    if (l.node.members.has('parentUuid')) any = true;
  }
  if (!any) return null;
  const leaf = [...lines]
    .reverse()
    .find((l) => (l.type === 'user' || l.type === 'assistant') && l.node.members.has('uuid'));
  const on = new Set<ObjectNode>();
  let at: Line | undefined = leaf;
  while (at && !on.has(at.node)) {
    on.add(at.node);
    const parent = str(field(at.node, 'parentUuid')) ?? str(field(at.node, 'logicalParentUuid'));
    at = parent === null ? undefined : byUuid.get(parent);
  }
  // Lines without a uuid (summaries, snapshots) are not part of any branch.
  for (const l of lines) if (!l.node.members.has('uuid')) on.add(l.node);
  return on;
}

/** Reads the conversation lines of one chain into `b`, joining the lines of one model response. */
function readChain(b: TranscriptBuilder, lines: readonly Line[]): void {
  let open: { id: string | null; blocks: ContentBlock[]; at: Node } | null = null;
  const flush = (): void => {
    if (open) b.push({ kind: 'blocks', role: 'assistant', blocks: open.blocks }, open.at);
    open = null;
  };
  for (const l of lines) {
    const message = l.message;
    if (!message) {
      b.unexplained(l.node, `a Claude Code "${l.type}" line without a "message" object`);
      continue;
    }
    const assistant = l.type === 'assistant';
    checkKeys(b, l.node, assistant ? ASSISTANT_KEYS : USER_KEYS, `a Claude Code ${l.type} line`);
    checkKeys(b, message, assistant ? ASSISTANT_MESSAGE_KEYS : USER_MESSAGE_KEYS, `a Claude Code ${l.type} message`);
    const role = str(field(message, 'role'));
    if (role !== l.type) {
      b.unexplained(message, `a Claude Code "${l.type}" line whose message role is ${JSON.stringify(role)}`);
      continue;
    }
    const apiError = field(l.node, 'isApiErrorMessage');
    if (
      l.type === 'assistant' &&
      ((apiError?.kind === 'bool' && apiError.value) || str(field(message, 'model')) === '<synthetic>')
    ) {
      b.skip('synthetic assistant lines (API errors and notices Claude Code wrote itself; no model call)');
      continue;
    }
    b.read();
    if (l.type === 'assistant') {
      const id = str(field(message, 'id'));
      const blocks = contentBlocks(b, field(message, 'content'));
      if (open && id !== null && open.id === id) {
        append(open.blocks, blocks);
        continue;
      }
      flush();
      open = { id, blocks, at: l.node };
      continue;
    }
    flush();
    b.push({ kind: 'blocks', role: 'user', blocks: contentBlocks(b, field(message, 'content')) }, l.node);
  }
  flush();
}

function read(doc: ParsedDocument, b: TranscriptBuilder, options: ReadOptions): void {
  const root = doc.root;
  if (root.kind !== 'array')
    throw b.error(root, 'not a claude-code recording: expected JSON lines (a session log or stream-json output)');
  b.searchToolDefault = {
    names: ['ToolSearch'],
    source: "claude-code default: Claude Code's tool search tool is ToolSearch",
  };
  const lines: Line[] = [];
  for (const n of root.items) {
    if (n.kind !== 'object') {
      b.unexplained(n, `a Claude Code line must be an object, found ${n.kind}`);
      continue;
    }
    const { type, message } = lineInfo(n);
    if (type === null) {
      b.unexplained(n, 'a Claude Code line without a "type"');
      continue;
    }
    if (type === 'user' || type === 'assistant') {
      lines.push({ node: n, type, message });
      continue;
    }
    const rule = SKIPPED[type];
    if (rule) {
      b.skip(rule);
      lines.push({ node: n, type, message: null });
      continue;
    }
    b.unexplained(
      n,
      `unknown Claude Code line type ${JSON.stringify(toWellFormed(type))} ` +
        `(known: user, assistant, ${Object.keys(SKIPPED).join(', ')})`,
    );
  }
  const main: Line[] = [];
  const side: Line[] = [];
  const convo = lines.filter((l) => l.type === 'user' || l.type === 'assistant');
  for (const l of convo) {
    if (!isSidechainLine(l.node)) main.push(l);
    else if (options.sidechains) side.push(l);
    else b.skip("sidechain lines (a subagent's conversation; --sidechains replays each)");
  }
  const chain = mainChain(
    [...lines.filter((l) => l.type !== 'user' && l.type !== 'assistant'), ...main].sort(
      (x, y) => x.node.offset - y.node.offset,
    ),
  );
  const onChain = chain === null ? main : main.filter((l) => chain.has(l.node));
  const off = main.length - onChain.length;
  if (off > 0) b.skip(OFF_CHAIN, off);
  readChain(b, onChain);
  for (const { id, lines: list } of sidechainGroups(side)) {
    const sb = new TranscriptBuilder(doc, b.maxMessages, true);
    sb.searchToolDefault = b.searchToolDefault;
    // A subagent's retried message leaves a branch too: its conversation is the chain to its last line.
    const subChain = mainChain(list);
    const on = subChain === null ? list : list.filter((l) => subChain.has(l.node));
    if (on.length < list.length) sb.skip(OFF_CHAIN, list.length - on.length);
    readChain(sb, on);
    b.sidechains.push({ id, builder: sb });
  }
}

const OFF_CHAIN = 'lines off the main chain (an abandoned branch: a message edited or retried)';

export const claudeCodeReader: RecordingReader = {
  format: 'claude-code',
  records: 'calls',
  summary: 'Claude Code session JSONL, or claude -p stream-json output',
  shape:
    'claude-code: Claude Code session JSONL ({type: "user"|"assistant", message, uuid, ' +
    'parentUuid, isSidechain}) or claude -p --output-format stream-json',
  detect,
  near,
  read,
};
