/**
 * Catalog names for MCP tools: `mcp__<server>__<tool>`, the convention agent
 * hosts use when they show MCP tools to a model (and the one the demo
 * catalog follows).
 *
 * A server name that comes from the server (its `serverInfo.name`) or from
 * `--name` is normalized so that the name stays a valid function name for the
 * provider APIs (`^[a-zA-Z0-9_-]+$`), that `__` only ever separates the three
 * parts, and that our own `lint` has nothing to say about it (the reference
 * splits names on `_` and camelCase only, so a `-` or `.` would leave a part
 * no keyword equals):
 * - lower-cased;
 * - every run of characters outside `[a-z0-9]` becomes one `_`
 *   (`mcp-servers/everything` → `mcp_servers_everything`, `My Server!` → `my_server`);
 * - leading and trailing `_` are dropped;
 * - an empty result becomes `server`.
 *
 * (The servers of an MCP client config are named by their key as Claude Code
 * names them instead: see client-config.ts.)
 *
 * Tool names keep their case (the scorer splits camelCase, so lower-casing
 * would change search results) and their hyphens; only characters outside
 * `[A-Za-z0-9_-]` become `_` (`files.read` → `files_read`).
 */

/** The normalized form of a server name (see the module comment). */
export function normalizeServerName(name: string): string {
  const s = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
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
