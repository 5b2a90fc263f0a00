/**
 * Catalogs from live MCP servers (stdio or Streamable HTTP). The MCP SDK is
 * loaded only when a server is contacted.
 */
export { splitCommandLine, CommandLineError } from './command-line.js';
export { normalizeServerName, normalizeToolName, mcpToolName } from './names.js';
export {
  listMcpTools,
  McpServerError,
  DEFAULT_MCP_TIMEOUT_MS,
  type ListMcpToolsOptions,
  type McpServerTarget,
  type McpTool,
  type McpToolList,
} from './list-tools.js';
export {
  mcpCatalog,
  mcpCatalogDetailed,
  catalogToolsOf,
  type McpCatalogServer,
  type McpCatalogOptions,
  type McpCatalogResult,
} from './catalog.js';
export {
  loadCatalogSpec,
  loadCatalogSpecs,
  isMcpSpec,
  mcpTargetOf,
  MCP_SPEC_PREFIX,
  type CatalogSpecOptions,
} from './catalog-spec.js';
export { catalogYaml, catalogJson } from './catalog-file.js';
