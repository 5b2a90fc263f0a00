/**
 * Tool search for the Vercel AI SDK (`ai` 6): a drop-in for `generateText`
 * and `streamText` that runs the reference middleware (default mode) in
 * `prepareStep`.
 *
 * ```ts
 * import { generateText, stepCountIs } from 'ai';
 * import { createToolSearch } from 'toolsearch/ai-sdk';
 *
 * const search = createToolSearch({ dynamicTools: { getWeather, sendEmail, ... }, staticTools: { askUser } });
 * const result = await generateText({
 *   model,
 *   tools: search.tools,             // static tools, tool_search, dynamic tools
 *   prepareStep: search.prepareStep, // activeTools + the reminder message, per step
 *   stopWhen: stepCountIs(10),
 *   prompt: 'What is the weather in Paris?',
 * });
 * ```
 *
 * Before every step, `prepareStep` converts the step's messages to the core's
 * message model and runs the core's forward selection over them, exactly as
 * the reference does before every model call: the model is offered
 * `[static…, tool_search, …every dynamic tool a tool_search result named]`
 * (as `activeTools`), and the reminder (`<available-deferred-tools>` with
 * every dynamic tool name) is inserted as a user message right before the
 * first non-system message (via `prepareStep`'s `messages`; the SDK does not
 * keep it in the history, so it is inserted again at every step, at the same
 * place). `tool_search` itself runs the core's search and returns the
 * reference's result text, `{"matches":[...]}`.
 *
 * Differences from the reference that come from the SDK:
 * - the SDK sends the active tools in the order of the `tools` object, not in
 *   the order the tools were loaded (the set is the same);
 * - the SDK parses the model's arguments with `JSON.parse` before
 *   `tool_search` sees them; they are re-serialized and decoded with Go's
 *   rules, so the results are the reference's except for arguments that
 *   `JSON.parse` reads differently from Go (duplicate keys, `3.0`, numbers
 *   beyond 64 bits);
 * - a call to a tool that is not active is refused by the SDK itself
 *   (`NoSuchToolError`, returned to the model as a tool error).
 *
 * `enforce` (opt-in, beyond the reference) guards the dynamic tools' own
 * `execute`: a call runs only when a `tool_search` result in the messages
 * *before* the step that made the call named the tool. A search and a call
 * made in the same (parallel) step do not authorize each other, and the
 * guard holds however the tool is invoked: without this `prepareStep`, with
 * a custom loop, through tool approvals, or when `search.tools` is handed to
 * another runner. The refusal is a tool error the model can read.
 */
import { jsonSchema, type ModelMessage, type Tool, type ToolExecutionOptions, type ToolSet } from 'ai';
import {
  createMiddleware,
  ensureReminder,
  forwardSelect,
  REMINDER_MARKER,
  type Middleware,
} from '../core/middleware.js';
import { encodeMatches, runToolSearch, TOOL_SEARCH_NAME, TOOL_SEARCH_TOOL } from '../core/toolsearch.js';
import type { ChatMessage, JsonValue, Message, ToolInfo } from '../core/types.js';

/**
 * The key under which the reminder message is marked in `providerOptions` (providers ignore keys that are not theirs).
 */
export const PROVIDER_OPTIONS_KEY = 'toolsearch';

export interface ToolSearchOptions<DYNAMIC extends ToolSet, STATIC extends ToolSet, EXTRA extends string> {
  /** The searchable tools, hidden until a `tool_search` result names them (at least one). */
  readonly dynamicTools: DYNAMIC;
  /** Tools that are always offered and never searched; included in `tools`. */
  readonly staticTools?: STATIC;
  /**
   * Names of always-offered tools that you add to the `tools` option yourself
   * (`tools: { ...search.tools, ...myTools }`); tools missing from
   * `activeTools` are not offered to the model.
   */
  readonly staticToolNames?: readonly EXTRA[];
  /** Only the default mode: model-native tool search is provider-specific (`defer_loading`) and out of scope here. */
  readonly mode?: 'default';
  /**
   * Refuse a call to a dynamic tool that no earlier `tool_search` result
   * loaded, with a tool error the model can read (beyond the reference;
   * default false).
   */
  readonly enforce?: boolean;
  /** Insert the reminder message in `prepareStep` (default true). */
  readonly reminder?: boolean;
}

/** The tools object: static tools, `tool_search`, dynamic tools. */
export type ToolSearchTools<DYNAMIC extends ToolSet, STATIC extends ToolSet> = STATIC & { tool_search: Tool } & DYNAMIC;

/** What `prepareStep` returns. */
export interface ToolSearchStep<NAME extends string> {
  /** `[static…, tool_search, …loaded dynamic tools]`. */
  activeTools: NAME[];
  /** The step's messages with the reminder inserted (absent with `reminder: false`). */
  messages?: ModelMessage[];
}

export interface ToolSearch<DYNAMIC extends ToolSet, STATIC extends ToolSet, EXTRA extends string> {
  /** Pass as `tools`: static tools, `tool_search`, and the dynamic tools (guarded when `enforce`). */
  readonly tools: ToolSearchTools<DYNAMIC, STATIC>;
  /** Pass as `prepareStep` (or call it from yours and merge the result). */
  readonly prepareStep: (options: {
    readonly messages: readonly ModelMessage[];
  }) => ToolSearchStep<Extract<keyof ToolSearchTools<DYNAMIC, STATIC>, string> | EXTRA>;
  /** The tool names to offer for these messages: `[static…, tool_search, …loaded]`. */
  activeTools(
    messages: readonly ModelMessage[],
  ): Array<Extract<keyof ToolSearchTools<DYNAMIC, STATIC>, string> | EXTRA>;
  /** The dynamic tools that `tool_search` results in these messages loaded, in the order they were loaded. */
  loadedTools(messages: readonly ModelMessage[]): Array<Extract<keyof DYNAMIC, string>>;
  /** The messages with the reminder inserted (unchanged when one is already there). */
  withReminder(messages: readonly ModelMessage[]): ModelMessage[];
  /** The reminder message. */
  readonly reminderMessage: ModelMessage;
  /** The core middleware (its index searches the dynamic tools). */
  readonly middleware: Middleware;
}

/** The refusal of a guarded tool (`enforce`): its message is what the model reads. */
export class ToolNotLoadedError extends Error {
  override readonly name = 'ToolNotLoadedError';
  constructor(readonly toolName: string) {
    super(
      `tool ${toolName} is not loaded: no earlier tool_search result named it. ` +
        `Call tool_search first (for example with {"query": "select:${toolName}"}); ` +
        `a tool becomes callable in the step after the tool_search that returns it.`,
    );
  }
}

/** The text of a tool result as a model reads it (forward selection parses it as `{"matches": [...]}`). */
function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (output === null || typeof output !== 'object' || !('type' in output)) return JSON.stringify(output ?? null);
  const o = output as { type: string; value?: unknown; reason?: unknown };
  switch (o.type) {
    case 'text':
    case 'error-text':
      return typeof o.value === 'string' ? o.value : '';
    case 'json':
    case 'error-json':
      return JSON.stringify(o.value ?? null);
    case 'content':
      if (Array.isArray(o.value)) {
        for (const part of o.value as Array<{ type?: string; text?: unknown }>)
          if (part.type === 'text' && typeof part.text === 'string') return part.text;
      }
      return '';
    default:
      return '';
  }
}

function marked(message: ModelMessage): boolean {
  const opts = message.providerOptions?.[PROVIDER_OPTIONS_KEY] as Record<string, unknown> | undefined;
  return opts !== undefined && opts[REMINDER_MARKER] === true;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((p: { type?: string; text?: unknown }) => (p.type === 'text' && typeof p.text === 'string' ? p.text : ''))
    .join('');
}

/**
 * The SDK's messages in the core's message model, for forward selection: a
 * tool message becomes one core tool message per result part (the core's
 * chat messages carry one result each).
 */
export function toCoreMessages(messages: readonly ModelMessage[]): Message[] {
  const out: Message[] = [];
  for (const m of messages) {
    const extra = marked(m) ? { extra: { [REMINDER_MARKER]: true as JsonValue } } : {};
    if (m.role === 'tool') {
      for (const part of m.content) {
        if (part.type !== 'tool-result') continue;
        out.push({
          kind: 'chat',
          role: 'tool',
          content: outputText(part.output),
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          ...extra,
        });
      }
      continue;
    }
    if (m.role === 'assistant') {
      const calls = typeof m.content === 'string' ? [] : m.content.flatMap((p) => (p.type === 'tool-call' ? [p] : []));
      const msg: ChatMessage = {
        kind: 'chat',
        role: 'assistant',
        content: textOf(m.content),
        ...(calls.length > 0
          ? {
              toolCalls: calls.map((c) => ({
                id: c.toolCallId,
                name: c.toolName,
                arguments: JSON.stringify(c.input ?? null),
              })),
            }
          : {}),
        ...extra,
      };
      out.push(msg);
      continue;
    }
    out.push({ kind: 'chat', role: m.role, content: textOf(m.content), ...extra });
  }
  return out;
}

/** One core message per SDK message, carrying only what reminder placement reads (role and marker). */
function placementMessages(messages: readonly ModelMessage[]): Message[] {
  return messages.map((m) => ({
    kind: 'chat',
    role: m.role,
    content: '',
    ...(marked(m) ? { extra: { [REMINDER_MARKER]: true } } : {}),
  }));
}

/**
 * Creates tool search over AI SDK tools (see the module comment). Throws the
 * reference's construction errors ("tools is required") and when a name is
 * both static and dynamic, or is `tool_search`.
 */
export function createToolSearch<
  DYNAMIC extends ToolSet,
  STATIC extends ToolSet = Record<never, never>,
  EXTRA extends string = never,
>(options: ToolSearchOptions<DYNAMIC, STATIC, EXTRA>): ToolSearch<DYNAMIC, STATIC, EXTRA> {
  if (options.mode !== undefined && options.mode !== 'default') {
    throw new Error(`mode ${JSON.stringify(options.mode)} is not supported by the AI SDK adapter: only "default"`);
  }
  const dynamicTools = options.dynamicTools;
  const staticTools = (options.staticTools ?? {}) as STATIC;
  const extraNames = [...(options.staticToolNames ?? [])];
  const dynamicNames = Object.keys(dynamicTools);
  const staticNames = [...Object.keys(staticTools), ...extraNames.filter((n) => !Object.hasOwn(staticTools, n))];
  for (const name of [...dynamicNames, ...staticNames]) {
    if (name === TOOL_SEARCH_NAME)
      throw new Error(`${TOOL_SEARCH_NAME} is the tool search tool's own name; rename your tool`);
  }
  for (const name of staticNames) {
    if (Object.hasOwn(dynamicTools, name)) throw new Error(`${name} is both a static and a dynamic tool`);
  }

  // The search reads names and descriptions only (default mode never sends definitions itself).
  const infos: ToolInfo[] = dynamicNames.map((name) => ({ name, description: dynamicTools[name]!.description ?? '' }));
  const middleware = createMiddleware({ dynamicTools: infos, mode: 'default' });

  // The state after the first model call's initialization in default mode: [static…, tool_search].
  const initialVisible: ToolInfo[] = [...staticNames.map((name) => ({ name, description: '' })), TOOL_SEARCH_TOOL];

  const loadedTools = (messages: readonly ModelMessage[]): Array<Extract<keyof DYNAMIC, string>> =>
    forwardSelect(middleware, toCoreMessages(messages), initialVisible).added.map(
      (t) => t.name as Extract<keyof DYNAMIC, string>,
    );

  type Name = Extract<keyof ToolSearchTools<DYNAMIC, STATIC>, string> | EXTRA;
  const activeTools = (messages: readonly ModelMessage[]): Name[] =>
    [...staticNames, TOOL_SEARCH_NAME, ...loadedTools(messages)] as Name[];

  const reminderMessage: ModelMessage = {
    role: 'user',
    content: middleware.reminderText,
    providerOptions: { [PROVIDER_OPTIONS_KEY]: { [REMINDER_MARKER]: true } },
  };
  const withReminder = (messages: readonly ModelMessage[]): ModelMessage[] => {
    const { insertedAt } = ensureReminder(middleware, placementMessages(messages));
    if (insertedAt === null) return [...messages];
    return [...messages.slice(0, insertedAt), reminderMessage, ...messages.slice(insertedAt)];
  };

  const toolSearch: Tool = {
    description: TOOL_SEARCH_TOOL.description,
    inputSchema: jsonSchema(TOOL_SEARCH_TOOL.parameters as Parameters<typeof jsonSchema>[0]),
    execute: (input: unknown): Promise<string> => {
      const outcome = runToolSearch(middleware.index, JSON.stringify(input === undefined ? null : input));
      // The reference returns the error to the agent; here it becomes a tool error the model reads.
      if (!outcome.ok) return Promise.reject(new Error(outcome.error));
      return Promise.resolve(encodeMatches(outcome.matches));
    },
  };

  const guard = (name: string, tool: Tool): Tool => {
    const execute = tool.execute;
    if (!options.enforce || execute === undefined) return tool;
    // Not an async function: a tool may return an AsyncIterable (streaming), which must reach the SDK as it is.
    return {
      ...tool,
      execute: (input: unknown, opts: ToolExecutionOptions) => {
        const earlier = opts?.messages ?? [];
        if (!loadedTools(earlier).includes(name as Extract<keyof DYNAMIC, string>))
          return Promise.reject(new ToolNotLoadedError(name));
        return execute.call(tool, input, opts);
      },
    } as Tool;
  };

  // Tool names are data: `__proto__`, `constructor` or `toString` is an
  // ordinary name. Every property is defined (an assignment to `__proto__`
  // would set the prototype instead), on an object without a prototype (so
  // a name that is not a tool, such as `toString`, finds nothing).
  const tools = Object.create(null) as Record<string, Tool>;
  const define = (name: string, tool: Tool): void => {
    Object.defineProperty(tools, name, { value: tool, enumerable: true, writable: true, configurable: true });
  };
  for (const name of Object.keys(staticTools)) define(name, staticTools[name]!);
  define(TOOL_SEARCH_NAME, toolSearch);
  for (const name of dynamicNames) define(name, guard(name, dynamicTools[name]!));

  const reminder = options.reminder !== false;
  return {
    tools: tools as unknown as ToolSearchTools<DYNAMIC, STATIC>,
    prepareStep: ({ messages }) => ({
      activeTools: activeTools(messages),
      ...(reminder ? { messages: withReminder(messages) } : {}),
    }),
    activeTools,
    loadedTools,
    withReminder,
    reminderMessage,
    middleware,
  };
}
