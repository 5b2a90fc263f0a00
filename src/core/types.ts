/**
 * The data model of the port: tools and the two kinds of messages the
 * reference handles (Eino `schema.Message` and `schema.AgenticMessage`).
 */

/** A JSON value as decoded from a catalog, a transcript or a tool's schema. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/**
 * A tool definition (Eino `schema.ToolInfo`): a name unique in its catalog, a description, optional JSON Schema
 * parameters.
 */
export interface ToolInfo {
  readonly name: string;
  /** May be empty; an empty description never matches (SPEC §3). */
  readonly description: string;
  /** JSON Schema of the arguments, as given by the catalog (absent when the tool takes none). */
  readonly parameters?: JsonValue;
}

/** A tool call made by the assistant. */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  /** The raw arguments text exactly as the model produced it. */
  readonly arguments: string;
}

/** Roles of chat messages (Eino `schema.RoleType`). */
export type ChatRole = 'system' | 'user' | 'assistant' | 'tool';

/** Extra fields carried by a message (Eino `Extra map[string]any`); the reminder marker lives here. */
export type MessageExtra = { readonly [key: string]: JsonValue };

/** A chat message (Eino `*schema.Message`). */
export interface ChatMessage {
  readonly kind: 'chat';
  readonly role: ChatRole;
  readonly content: string;
  /** Tool calls of an assistant message. */
  readonly toolCalls?: readonly ToolCall[];
  /** For a tool message: the id of the call it answers. */
  readonly toolCallId?: string;
  /**
   * For a tool message: the name of the tool that produced it (forward selection reads `tool_search` results by this
   * name).
   */
  readonly toolName?: string;
  readonly extra?: MessageExtra;
}

/** A part of a function tool result in a content-block message. */
export type ToolResultPart =
  | { readonly type: 'text'; readonly text: string }
  /** Model-native mode: the full definitions returned by a tool search. */
  | { readonly type: 'tool_search_result'; readonly tools: readonly string[] }
  | { readonly type: 'other'; readonly description: string };

/** A block of a content-block message (Eino `schema.ContentBlock`). */
export type ContentBlock =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'function_tool_call'; readonly callId: string; readonly name: string; readonly arguments: string }
  | {
      readonly type: 'function_tool_result';
      readonly callId: string;
      readonly name: string;
      readonly content: readonly ToolResultPart[];
    }
  /**
   * A search the provider runs itself (model-native, server-side): not part of the reference state.
   * `execution: 'client'` (OpenAI Responses): the model asked the client to run it; its result arrives
   * with a later message.
   */
  | {
      readonly type: 'server_tool_search';
      readonly callId: string;
      readonly query: string;
      readonly execution?: 'client';
    }
  /**
   * A call of one of the provider's own tools, not of the catalog: a hosted tool the provider runs
   * (web search, file search, code interpreter, MCP, image generation) or a built-in tool the client
   * runs for the model (computer use, shell, apply patch). Beyond the reference state: reported per
   * model call, never checked against the tools offered.
   */
  | {
      readonly type: 'provider_tool_call';
      readonly callId: string;
      /** The provider's name for it: the item or block type (`mcp_call`, `web_search_call`, `server_tool_use`, …). */
      readonly kind: string;
      /** The tool's name where it has one (an MCP tool, an Anthropic server tool), else empty. */
      readonly name: string;
      /** The MCP server's label, else empty. */
      readonly server: string;
      /** What it was asked to do, as text (its arguments, query, action or code). */
      readonly arguments: string;
      readonly executedBy: 'provider' | 'client';
    }
  /** The tools a server-side search loaded (Anthropic `tool_reference`s, OpenAI `tool_search_output`). */
  | { readonly type: 'server_tool_search_result'; readonly callId: string; readonly tools: readonly string[] }
  | { readonly type: 'other'; readonly description: string };

/**
 * Roles of content-block messages (Eino `schema.AgenticRoleType`). Only
 * `system` counts as a system message for the reminder's placement: the
 * reference puts the reminder before a `developer` message.
 */
export type BlockRole = 'system' | 'developer' | 'user' | 'assistant';

/** A content-block message (Eino `*schema.AgenticMessage`). */
export interface BlockMessage {
  readonly kind: 'blocks';
  readonly role: BlockRole;
  readonly blocks: readonly ContentBlock[];
  readonly extra?: MessageExtra;
}

/** Any message the middleware can see. */
export type Message = ChatMessage | BlockMessage;

/** The two modes of the middleware (Eino `Config.UseModelToolSearch`). */
export const MODES = ['default', 'native'] as const;
export type Mode = (typeof MODES)[number];
