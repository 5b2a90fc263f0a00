/**
 * One agent run as the framework around the middleware drives it (SPEC §4,
 * "The framework around the middleware"): the state persists between the
 * model calls of a run, new messages are appended before each call, and a
 * visible tool list that is nil is refilled with the agent's full tool list
 * before the middleware runs.
 *
 * `AgentRun` gives the same states as calling {@link beforeModelCall} on the
 * whole history at every call (a property test checks this), but in time
 * linear in the length of the conversation: messages are only appended, so it
 * keeps one growing array, remembers where the reminder is, and runs forward
 * selection over the new messages only. The reference rescans the whole
 * history at every call.
 */
import { agentTools, forwardSelect, hasReminderMarker, reminderMessage, type Middleware } from './middleware.js';
import { TOOL_SEARCH_NAME } from './toolsearch.js';
import type { Message, ToolInfo } from './types.js';

/** What the model is offered at one model call. */
export interface ModelCallView {
  /** 1-based number of the model call in the run. */
  readonly call: number;
  /** The model receives `run.messages.slice(0, messageCount)`. */
  readonly messageCount: number;
  /** The visible tool list, in the state's order (empty when the state holds nil). */
  readonly visible: readonly ToolInfo[];
  /** The deferred tool list (model-native mode), in the state's order. */
  readonly deferred: readonly ToolInfo[];
  /** Tools forward selection added at this call. */
  readonly added: readonly ToolInfo[];
  /** Index of the reminder in the messages the model receives. */
  readonly reminderIndex: number | null;
  /** The middleware inserted the reminder at this call. */
  readonly reminderInserted: boolean;
  /** The framework refilled a nil visible list with the full tool list before the middleware ran. */
  readonly refilled: boolean;
  /** This call ran the first-call initialization. */
  readonly initialized: boolean;
}

/** An agent run: feed it the messages that arrive before each model call. */
export class AgentRun {
  /** The agent's full tool list: static tools, `tool_search`, dynamic tools. */
  readonly agentTools: readonly ToolInfo[];
  private readonly msgs: Message[] = [];
  private toolInfos: ToolInfo[] | null = null;
  private deferredToolInfos: ToolInfo[] | null = null;
  private initialized = false;
  private reminderAt: number | null = null;
  private firstNonSystem = -1;
  private scanned = 0;
  private calls = 0;

  constructor(
    readonly middleware: Middleware,
    readonly staticTools: readonly ToolInfo[] = [],
  ) {
    this.agentTools = agentTools(middleware, staticTools);
  }

  /** All messages so far, including the reminder the middleware inserted. */
  get messages(): readonly Message[] {
    return this.msgs;
  }

  /** Appends messages (as the framework does) and runs one model call's middleware step. */
  modelCall(newMessages: readonly Message[]): ModelCallView {
    const mw = this.middleware;
    for (const m of newMessages) {
      if (this.reminderAt === null && hasReminderMarker(m)) this.reminderAt = this.msgs.length;
      if (this.firstNonSystem < 0 && m.role !== 'system') this.firstNonSystem = this.msgs.length;
      this.msgs.push(m);
    }
    this.calls++;

    let refilled = false;
    if (this.toolInfos === null) {
      this.toolInfos = [...this.agentTools];
      refilled = true;
    }

    let reminderInserted = false;
    if (this.reminderAt === null) {
      const at = this.firstNonSystem >= 0 ? this.firstNonSystem : this.msgs.length;
      this.msgs.splice(at, 0, reminderMessage(mw, this.msgs[0]?.kind ?? 'chat'));
      this.reminderAt = at;
      if (this.firstNonSystem >= 0) this.firstNonSystem++;
      if (at < this.scanned) this.scanned++;
      reminderInserted = true;
    }

    const initializedNow = !this.initialized;
    if (initializedNow) {
      this.initialized = true;
      const isDynamic = (t: ToolInfo): boolean => mw.index.has(t.name);
      if (mw.mode === 'native') {
        const deferred = this.toolInfos.filter(isDynamic);
        this.deferredToolInfos = deferred.length === 0 ? null : deferred;
        const rest = this.toolInfos.filter((t) => !isDynamic(t) && t.name !== TOOL_SEARCH_NAME);
        this.toolInfos = rest.length === 0 ? null : rest;
      } else {
        const rest = this.toolInfos.filter((t) => !isDynamic(t));
        this.toolInfos = rest.length === 0 ? null : rest;
      }
    }

    let added: ToolInfo[] = [];
    if (mw.mode === 'default') {
      const selected = forwardSelect(mw, this.msgs, this.toolInfos, this.scanned);
      if (selected.added.length > 0) {
        added = selected.added;
        this.toolInfos = [...(this.toolInfos ?? []), ...added];
      }
      this.scanned = this.msgs.length;
    }

    return {
      call: this.calls,
      messageCount: this.msgs.length,
      visible: this.toolInfos ?? [],
      deferred: this.deferredToolInfos ?? [],
      added,
      reminderIndex: this.reminderAt,
      reminderInserted,
      refilled,
      initialized: initializedNow,
    };
  }
}
