/** The catalog options of the commands that read a catalog, as commander options (inputs.ts loads the catalog). */
import { type Command, Option } from 'commander';
import { CATALOG_FORMATS } from '../formats/types.js';
import { MCP_TIMEOUT_OPTION } from './inputs.js';
import { collect, parseNameList } from './options.js';

/** What `--strict` does for a catalog (commands that have a --strict of their own say both). */
const STRICT_CATALOG = 'an unknown key or a wrong type in a catalog tool is an error (exit 2), not a warning';

/** `-c, --catalog <file>` (repeatable), `--catalog-format`, `--prefix`, `--mcp-timeout`, `--no-cache`. */
export function addCatalogOptions(cmd: Command, what: string, strict: string = STRICT_CATALOG): Command {
  return cmd
    .option(
      '-c, --catalog <file>',
      `${what}; repeat to merge catalogs (JSON or YAML; mcp:"<command line>" / mcp:<http url> for a ` +
        `live MCP server; an MCP client config such as .mcp.json starts its servers)`,
      collect,
    )
    .addOption(
      new Option('--catalog-format <format>', 'catalog shape (detected from the content when auto)')
        .choices(CATALOG_FORMATS)
        .default('auto'),
    )
    .option('--prefix <server>', 'name the tools of an MCP tools/list result mcp__<server>__<tool>')
    .option(...MCP_TIMEOUT_OPTION)
    .option('--strict', strict)
    .option(
      '--static <a,b>',
      'catalog tools to treat as static (always visible, never searched); comma-separated or repeated',
      parseNameList,
    )
    .option(
      '--server <key>',
      'only these servers of an MCP client config catalog (.mcp.json, .vscode/mcp.json); comma-separated or repeated',
      parseNameList,
    )
    .option('--skip-failed', 'an MCP server that fails is a warning, and the catalog is made of the others')
    .option('--no-cache', 'use no catalog cache: parse catalog files (TOOLSEARCH_CACHE=off turns off every cache)');
}
