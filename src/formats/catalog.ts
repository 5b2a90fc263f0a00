/**
 * Catalog files in every shape, merged into one {@link Catalog}.
 *
 * Shapes (detected from the content; `format` forces one):
 * - `toolsearch` (ours): `{tools: [{name, description?, parameters?, static?}]}` or a bare list;
 * - `openai`: `[{type: "function", function: {name, description, parameters}}]`
 *   (Chat Completions) or `[{type: "function", name, description, parameters}]` (Responses);
 * - `anthropic`: `[{name, description, input_schema, defer_loading?}]`;
 * - `mcp`: a `tools/list` result `{tools: [{name, description, inputSchema}]}`,
 *   also inside a JSON-RPC envelope `{result: {tools: [...]}}`;
 * - `eino`: Eino `ToolInfo` JSON `[{name, desc, params?, json_schema?}]`;
 * - `request`: a logged request body that carries `tools` (OpenAI Chat
 *   Completions or Responses, Anthropic Messages).
 *
 * Static tools: see {@link readToolList} (`static: true` in ours; with
 * `defer_loading`, the deferred tools are dynamic and the rest static).
 *
 * `prefix` names every tool of the files `mcp__<prefix>__<name>`, as an MCP
 * client does. Names are kept exactly as given, hyphens included: the
 * reference splits names on `_` and camelCase only, so a hyphenated MCP name
 * such as `list-issues` is one name part and a keyword `issues` only reaches
 * it as a substring (5 points, not 10).
 */
import { InputError } from '../io/errors.js';
import {
  type ArrayNode,
  errorAt,
  field,
  kindName,
  type Node,
  type ObjectNode,
  type ParsedDocument,
} from '../io/nodes.js';
import { readInputText } from '../io/input-text.js';
import { parseText } from '../io/parse.js';
import type { Limits } from '../io/read.js';
import { readToolList, type ToolShape } from './tools.js';
import { mergeCatalogFiles } from './merge.js';
import {
  CATALOG_SHAPE_FORMATS,
  type Catalog,
  type CatalogFileResult,
  type CatalogFormat,
  type CatalogFormatChoice,
} from './types.js';

export { duplicateToolMessage, mergeCatalogFiles, mergeTools } from './merge.js';
export type { CatalogFileResult } from './types.js';

/** Options of {@link loadCatalogFiles}. */
export interface CatalogOptions {
  /**
   * The shape of every file; `auto` (the default) and `data` detect it per file (the file loaders read data only;
   * `mcp-config`, a client config, is read by formats/mcp/catalog-spec.ts).
   */
  readonly format?: CatalogFormatChoice;
  /** Name the tools `mcp__<prefix>__<name>`. */
  readonly prefix?: string;
  readonly limits?: Partial<Limits>;
}

/** Every catalog shape, as listed when none fits (a label for each of CATALOG_SHAPE_FORMATS, in its order). */
const SHAPE_LABELS: Readonly<Record<CatalogFormat, string>> = {
  toolsearch: 'toolsearch ({tools: [{name, description, parameters, static}]} or a list)',
  openai: 'openai ([{type: "function", function: {name, …}}] or [{type: "function", name, …}])',
  anthropic: 'anthropic ([{name, description, input_schema, defer_loading}])',
  mcp: 'mcp ({tools: [{name, description, inputSchema}]} or {result: {tools}})',
  eino: 'eino ([{name, desc, params | json_schema}])',
  request: 'request ({model, messages | input, tools})',
};
export const CATALOG_SHAPES: ReadonlyArray<readonly [CatalogFormat, string]> = CATALOG_SHAPE_FORMATS.map(
  (f) => [f, SHAPE_LABELS[f]] as const,
);

/** Keys that mark an object as a logged request body rather than a tool list. */
const REQUEST_KEYS = ['messages', 'input', 'model', 'system', 'instructions'];

function isRequestBody(root: ObjectNode): boolean {
  return REQUEST_KEYS.some((k) => root.members.has(k));
}

function noShapeFits(doc: ParsedDocument, at: Node, found: string): InputError {
  const tried = CATALOG_SHAPES.map(([, label]) => label).join(', ');
  return errorAt(doc, at, `no known catalog shape fits (found ${found}); tried ${tried}`);
}

function toolsArray(doc: ParsedDocument, holder: ObjectNode, what: string): ArrayNode {
  const tools = field(holder, 'tools');
  if (!tools) throw errorAt(doc, holder, `${what} has no "tools"`);
  if (tools.kind !== 'array') throw errorAt(doc, tools, `"tools" must be a list, found ${kindName(tools)}`);
  return tools;
}

/** The tool list of a document for a forced format. */
function listFor(doc: ParsedDocument, format: CatalogFormat): ArrayNode {
  const root = doc.root;
  if (format === 'request') {
    if (root.kind !== 'object')
      throw errorAt(doc, root, `not a request body: expected an object with "tools", found ${kindName(root)}`);
    return toolsArray(doc, root, 'the request body');
  }
  if (root.kind === 'array') return root;
  if (root.kind === 'object') {
    if (format === 'mcp') {
      const result = field(root, 'result');
      if (result && !root.members.has('tools')) {
        if (result.kind !== 'object')
          throw errorAt(doc, result, `"result" must be an object, found ${kindName(result)}`);
        return toolsArray(doc, result, 'the JSON-RPC result');
      }
    }
    return toolsArray(doc, root, 'the catalog');
  }
  throw errorAt(doc, root, `expected a list of tools or an object with "tools", found ${kindName(root)}`);
}

/** Detects the shape of a document: where its tool list is, and how its entries are read. */
function detect(doc: ParsedDocument): { list: ArrayNode; format: CatalogFormat | null } {
  const root = doc.root;
  if (root.kind === 'array') return { list: root, format: null };
  if (root.kind !== 'object') throw noShapeFits(doc, root, kindName(root));
  const tools = field(root, 'tools');
  const result = field(root, 'result');
  if (!tools && result?.kind === 'object' && field(result, 'tools')?.kind === 'array') {
    return { list: field(result, 'tools') as ArrayNode, format: 'mcp' };
  }
  if (!tools) throw noShapeFits(doc, root, 'an object without "tools"');
  if (tools.kind !== 'array') throw errorAt(doc, tools, `"tools" must be a list, found ${kindName(tools)}`);
  if (isRequestBody(root)) return { list: tools, format: 'request' };
  return { list: tools, format: null };
}

/** Reads one parsed catalog document. */
export function readCatalogDocument(
  doc: ParsedDocument,
  options: Pick<CatalogOptions, 'format' | 'prefix'> = {},
): CatalogFileResult {
  if (options.format === 'mcp-config') {
    throw errorAt(
      doc,
      doc.root,
      'not an MCP client config (--catalog-format mcp-config): expected an object with "mcpServers" or "servers"',
    );
  }
  const forced = options.format && options.format !== 'auto' && options.format !== 'data' ? options.format : null;
  let list: ArrayNode;
  let format: CatalogFormat | null;
  if (forced) {
    list = listFor(doc, forced);
    format = forced;
  } else {
    ({ list, format } = detect(doc));
  }
  const shape: ToolShape | 'auto' = format === null || format === 'request' ? 'auto' : format;
  const result = readToolList(doc, list, {
    shape,
    ...(options.prefix !== undefined ? { prefix: options.prefix } : {}),
    skipToolSearch: format === 'request',
  });
  return {
    tools: result.tools,
    format: format ?? result.shape,
    warnings: result.warnings,
    shapeWarnings: result.shapeWarnings,
  };
}

/** Loads one catalog file's text (named `file` in locations): parsed, then read as a catalog document. */
export function loadCatalogFile(file: string, text: string, options: CatalogOptions = {}): CatalogFileResult {
  return readCatalogDocument(parseText(file, text, options.limits ? { limits: options.limits } : {}), options);
}

/**
 * Loads catalog files and merges them in order. Every problem is an `InputError` at `file:line:column`; a
 * name defined twice (in one file or across files) names both places. The CLI keeps what
 * {@link loadCatalogFile} returns in a cache around this loader (src/cli/catalog-cache.ts).
 */
export function loadCatalogFiles(files: readonly string[], options: CatalogOptions = {}): Catalog {
  // Every file read before any is parsed: a missing file is reported before a syntax error in another.
  const texts = files.map((file) => readInputText(file, options.limits));
  return mergeCatalogFiles(files.map((file, i) => ({ file, result: loadCatalogFile(file, texts[i]!, options) })));
}
