/**
 * Catalog names for MCP tools: `mcp__<server>__<tool>`, the convention agent
 * hosts use when they show MCP tools to a model (and the one the demo
 * catalog follows).
 *
 * Server names are normalized so that the name stays a valid function name
 * for the provider APIs (`^[a-zA-Z0-9_-]+$`) and so that `__` only ever
 * separates the three parts:
 * - lower-cased;
 * - every run of characters outside `[a-z0-9_-]` becomes one `_`
 *   (`mcp-servers/everything` → `mcp-servers_everything`, `My Server!` → `my_server`);
 * - runs of `_` collapse to one, and leading/trailing `_` are dropped;
 * - an empty result becomes `server`.
 *
 * Tool names keep their case (the scorer splits camelCase, so lower-casing
 * would change search results) and their hyphens; only characters outside
 * `[A-Za-z0-9_-]` become `_` (`files.read` → `files_read`).
 */

/** The normalized form of a server name (see the module comment). */
export function normalizeServerName(name: string): string {
  const s = name
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_+|_+$/g, '');
  return s === '' ? 'server' : s;
}

/** A tool name made safe for the provider APIs, case and hyphens kept. */
export function normalizeToolName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_');
}

/** `mcp__<server>__<tool>`: the server name must already be normalized. */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${server}__${normalizeToolName(tool)}`;
}
