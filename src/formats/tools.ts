/**
 * Tool lists in every catalog shape, turned into {@link CatalogTool}s.
 *
 * Shared by the catalog loader and by the transcript loader (a logged
 * request body carries its own `tools`).
 *
 * Over 400 lines: the catalog shapes share classification, entry reading and their errors.
 */
import { editDistance } from '../io/edit-distance.js';
import { compareGo, toWellFormed } from '../core/text.js';
import type { JsonValue } from '../core/types.js';
import {
  type ArrayNode,
  errorAt,
  field,
  kindName,
  locate,
  looseField,
  type Node,
  nullObject,
  type ObjectNode,
  type ParsedDocument,
  toJsonValue,
} from '../io/nodes.js';
import { type ShapeWarning, shapeWarningText } from './shape-warning.js';
import type { CatalogTool } from './types.js';

/** The document (its name and line index) each tool read here comes from. */
const toolDocs = new WeakMap<CatalogTool, Pick<ParsedDocument, 'file' | 'lines'>>();

/**
 * Where a tool read here was defined, for errors that point back at it
 * (`errorAt(origin.doc, origin.node, …)`): its document's name and line
 * index, and the offset of its entry (found again from `tool.source`). Not
 * the parsed document, so that its nodes are freed once the tools are read,
 * and nothing per tool but one entry of a `WeakMap`.
 */
export const toolOrigins = {
  get(tool: CatalogTool): { readonly doc: Pick<ParsedDocument, 'file' | 'lines'>; readonly node: number } | undefined {
    const doc = toolDocs.get(tool);
    return doc === undefined ? undefined : { doc, node: doc.lines.offsetAt(tool.source.line, tool.source.column) };
  },
};

/**
 * The name of a function inside a `namespace` tool, as the API's calls name it (`namespace` beside
 * `name`): `<namespace>.<name>`, the OpenAI Agents SDK's display name (`toolDisplayName` of
 * `@openai/agents-core`). No namespace, or a namespace equal to the name (a deferred top-level
 * function comes back so), keeps the name.
 */
export function qualifiedToolName(namespace: string, name: string): string {
  return namespace === '' || namespace === name ? name : `${namespace}.${name}`;
}

/** The shape of one tool entry. */
export type ToolShape = 'toolsearch' | 'openai' | 'anthropic' | 'mcp' | 'eino';

/** How each shape is named in messages. */
export const TOOL_SHAPE_LABEL: Readonly<Record<ToolShape, string>> = {
  toolsearch: 'toolsearch ({name, description, parameters?, static?})',
  openai: 'OpenAI ({type: "function", function: {name, …}} or {type: "function", name, …})',
  anthropic: 'Anthropic ({name, description, input_schema, defer_loading?})',
  mcp: 'MCP ({name, description, inputSchema})',
  eino: 'Eino ToolInfo ({name, desc, params | json_schema})',
};

/** What a tool entry looks like: a shape, a provider tool that is not a function (skipped), or nothing telling. */
type EntryKind = ToolShape | 'builtin' | null;

/**
 * Classifies one entry by the keys only one shape uses. Entries with only
 * `name` and `description` fit several shapes and say nothing (null).
 */
export function classifyToolEntry(node: ObjectNode): EntryKind {
  const type = field(node, 'type');
  const typeName = type?.kind === 'string' ? type.value : undefined;
  if (typeName === 'function') return 'openai';
  if (node.members.has('inputSchema')) return 'mcp';
  if (node.members.has('input_schema')) return 'anthropic';
  // A provider's own tool: OpenAI `{type: "web_search"}`, `{type: "tool_search"}`,
  // Anthropic `{type: "tool_search_tool_regex_20251119", name: …}`. Anthropic's
  // ordinary tools may say `type: "custom"`.
  if (typeName !== undefined && typeName !== 'custom') return 'builtin';
  if (
    !node.members.has('description') &&
    (looseField(node, 'desc') || looseField(node, 'params') || looseField(node, 'json_schema'))
  ) {
    return 'eino';
  }
  if (node.members.has('static') || node.members.has('parameters')) return 'toolsearch';
  if (node.members.has('defer_loading')) return 'anthropic';
  return null;
}

/** A tool entry read from the list, before static flags and prefixes are settled. */
interface Entry {
  /** Where the entry starts. */
  readonly offset: number;
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonValue | undefined;
  /** `static:` of our own shape. */
  readonly static: boolean;
  /** `defer_loading:` of OpenAI and Anthropic tools. */
  readonly deferLoading: boolean;
}

export interface ToolListOptions {
  /** The shape every entry must have; `auto` classifies each entry. */
  readonly shape: ToolShape | 'auto';
  /**
   * With a prefix, the names of MCP-shaped tools become `mcp__<prefix>__<name>` (other shapes keep theirs, with a
   * warning).
   */
  readonly prefix?: string;
  /** Skip a tool named `tool_search` (in a logged request body it is the middleware's own tool). */
  readonly skipToolSearch?: boolean;
}

export interface ToolListResult {
  readonly tools: CatalogTool[];
  /** The shape found (the forced one, the one entries agree on, or `toolsearch` when none says). */
  readonly shape: ToolShape;
  /** Warning lines, in the order found (the shape warnings' lines among them). */
  readonly warnings: string[];
  /** The shape warnings, structured (their lines are in `warnings` too). */
  readonly shapeWarnings: ShapeWarning[];
}

function stringField(doc: ParsedDocument, node: Node | undefined, what: string): string {
  if (!node || node.kind === 'null') return '';
  if (node.kind !== 'string') throw errorAt(doc, node, `${what} must be a string, found ${kindName(node)}`);
  return toWellFormed(node.value);
}

function boolField(doc: ParsedDocument, node: Node | undefined, what: string): boolean {
  if (!node || node.kind === 'null') return false;
  if (node.kind !== 'bool') throw errorAt(doc, node, `${what} must be true or false, found ${kindName(node)}`);
  return node.value;
}

function schemaField(node: Node | undefined): JsonValue | undefined {
  return !node || node.kind === 'null' ? undefined : toJsonValue(node);
}

function nameOf(doc: ParsedDocument, tool: ObjectNode, nameNode: Node | undefined): string {
  if (!nameNode || nameNode.kind === 'null') throw errorAt(doc, tool, 'tool has no name');
  if (nameNode.kind !== 'string')
    throw errorAt(doc, nameNode, `tool name must be a string, found ${kindName(nameNode)}`);
  if (nameNode.value === '') throw errorAt(doc, nameNode, 'tool name is empty');
  return toWellFormed(nameNode.value);
}

function readEntry(doc: ParsedDocument, node: ObjectNode, shape: ToolShape): Entry {
  switch (shape) {
    case 'toolsearch':
      return {
        offset: node.offset,
        name: nameOf(doc, node, field(node, 'name')),
        description: stringField(doc, field(node, 'description'), 'tool description'),
        parameters: schemaField(field(node, 'parameters')),
        static: boolField(doc, field(node, 'static'), '"static"'),
        deferLoading: false,
      };
    case 'openai': {
      const fn = field(node, 'function');
      if (fn && fn.kind !== 'null') {
        // Chat Completions: {type: "function", function: {name, description, parameters}}.
        if (fn.kind !== 'object') throw errorAt(doc, fn, `"function" must be an object, found ${kindName(fn)}`);
        return {
          offset: node.offset,
          name: nameOf(doc, node, field(fn, 'name')),
          description: stringField(doc, field(fn, 'description'), 'tool description'),
          parameters: schemaField(field(fn, 'parameters')),
          static: false,
          deferLoading: boolField(doc, field(fn, 'defer_loading') ?? field(node, 'defer_loading'), '"defer_loading"'),
        };
      }
      // Responses: {type: "function", name, description, parameters, defer_loading?}.
      return {
        offset: node.offset,
        name: nameOf(doc, node, field(node, 'name')),
        description: stringField(doc, field(node, 'description'), 'tool description'),
        parameters: schemaField(field(node, 'parameters')),
        static: false,
        deferLoading: boolField(doc, field(node, 'defer_loading'), '"defer_loading"'),
      };
    }
    case 'anthropic':
      return {
        offset: node.offset,
        name: nameOf(doc, node, field(node, 'name')),
        description: stringField(doc, field(node, 'description'), 'tool description'),
        parameters: schemaField(field(node, 'input_schema')),
        static: false,
        deferLoading: boolField(doc, field(node, 'defer_loading'), '"defer_loading"'),
      };
    case 'mcp':
      return {
        offset: node.offset,
        name: nameOf(doc, node, field(node, 'name')),
        description: stringField(doc, field(node, 'description'), 'tool description'),
        parameters: schemaField(field(node, 'inputSchema')),
        static: false,
        deferLoading: false,
      };
    case 'eino': {
      // Go's decoder matches field names case-insensitively: `Name`, `Desc` work too.
      const jsonSchema = looseField(node, 'json_schema') ?? looseField(node, 'jsonschema');
      const params = looseField(node, 'params');
      let parameters: JsonValue | undefined;
      if (jsonSchema && jsonSchema.kind !== 'null') parameters = toJsonValue(jsonSchema);
      else if (params && params.kind !== 'null') parameters = einoParamsToSchema(doc, params);
      return {
        offset: node.offset,
        name: nameOf(doc, node, looseField(node, 'name')),
        description: stringField(doc, looseField(node, 'desc'), 'tool desc'),
        parameters,
        static: false,
        deferLoading: false,
      };
    }
  }
}

function obj(): { [key: string]: JsonValue } {
  return nullObject<JsonValue>();
}

/**
 * Eino `params` (a map of `ParameterInfo`) to the JSON Schema Eino's
 * `ParamsOneOf.ToJSONSchema` builds: an object schema, properties in Go
 * string order, `required` listing the required ones. Keys come out in the
 * order the schema type marshals them (items, properties, type, enum,
 * required, description); empty fields are left out.
 */
export function einoParamsToSchema(doc: ParsedDocument, params: Node): JsonValue {
  if (params.kind !== 'object') throw errorAt(doc, params, `"params" must be an object, found ${kindName(params)}`);
  const out = obj();
  const { properties, required } = einoProperties(doc, params);
  out.properties = properties;
  out.type = 'object';
  if (required.length > 0) out.required = required;
  return out;
}

function einoProperties(doc: ParsedDocument, params: ObjectNode): { properties: JsonValue; required: string[] } {
  const keys = [...params.members.keys()].sort(compareGo);
  const properties = obj();
  const required: string[] = [];
  for (const k of keys) {
    const info = params.members.get(k)!.value;
    properties[k] = einoParamToSchema(doc, info);
    if (
      info.kind === 'object' &&
      looseField(info, 'required')?.kind === 'bool' &&
      (looseField(info, 'required') as { value: boolean }).value
    ) {
      required.push(k);
    }
  }
  return { properties, required };
}

function einoParamToSchema(doc: ParsedDocument, info: Node): JsonValue {
  if (info.kind !== 'object') throw errorAt(doc, info, `a parameter must be an object, found ${kindName(info)}`);
  const out = obj();
  const elem = looseField(info, 'elem_info');
  if (elem && elem.kind !== 'null') out.items = einoParamToSchema(doc, elem);
  const sub = looseField(info, 'sub_params');
  let required: string[] = [];
  if (sub && sub.kind === 'object' && sub.members.size > 0) {
    const r = einoProperties(doc, sub);
    out.properties = r.properties;
    required = r.required;
  }
  const type = stringField(doc, looseField(info, 'type'), 'parameter type');
  if (type !== '') out.type = type;
  const en = looseField(info, 'enum');
  if (en && en.kind === 'array' && en.items.length > 0) out.enum = toJsonValue(en);
  if (required.length > 0) out.required = required;
  const desc = stringField(doc, looseField(info, 'desc'), 'parameter desc');
  if (desc !== '') out.description = desc;
  return out;
}

const SHAPE_KEYS: Readonly<Record<ToolShape, string>> = {
  toolsearch: 'static or parameters',
  openai: 'type "function"',
  anthropic: 'input_schema',
  mcp: 'inputSchema',
  eino: 'desc, params or json_schema',
};

/**
 * Reads a list of tool entries. With `shape: 'auto'` every entry is
 * classified and all must agree (entries that say nothing fit any shape).
 *
 * Static flags: our own shape says `static: true`. For OpenAI and Anthropic
 * tools, when ANY tool of the list has `defer_loading: true`, those tools are
 * the dynamic ones and the others are static (the provider loads them
 * upfront); when none has it, every tool is dynamic. MCP and Eino tools are
 * all dynamic.
 *
 * Provider tools that are not functions (`{type: "web_search"}`,
 * `{type: "tool_search"}`, Anthropic's `tool_search_tool_regex_…`) are not
 * catalog tools and are skipped; the functions of an OpenAI `namespace` are
 * read in its place, each named `<namespace>.<name>` ({@link qualifiedToolName}):
 * two namespaces may each have a function of the same name.
 */
/** The keys of a tool in our own format. */
const OUR_KEYS = ['name', 'description', 'parameters', 'static'];

/**
 * What in a tool of our format is not read as written: an unknown key
 * (`desciption:`, with did-you-mean; it is ignored) and `parameters` that is
 * not a JSON Schema object (`"nope"`, `[1, 2]`; kept as given). Located
 * warnings of their own kind; `--strict` makes them errors (see {@link ShapeWarning}).
 */
function entryShapeWarnings(doc: ParsedDocument, entry: ObjectNode, name: string): ShapeWarning[] {
  const out: ShapeWarning[] = [];
  const at = (offset: number) => {
    const l = locate(doc, offset);
    return { file: l.file, line: l.line, column: l.column };
  };
  for (const m of entry.members.values()) {
    if (OUR_KEYS.includes(m.key)) continue;
    const near = OUR_KEYS.filter((k) => editDistance(k, m.key.toLowerCase()) <= 2);
    out.push({
      kind: 'unknown-key',
      location: at(m.keyOffset),
      message:
        `tool ${JSON.stringify(name)}: unknown key ${JSON.stringify(m.key)}` +
        `${near.length > 0 ? ` (did you mean ${JSON.stringify(near[0])}?)` : ''}, ignored`,
    });
  }
  const params = field(entry, 'parameters');
  if (params && params.kind !== 'null' && params.kind !== 'object') {
    out.push({
      kind: 'wrong-type',
      location: at(params.offset),
      message:
        `tool ${JSON.stringify(name)}: "parameters" must be a JSON Schema object, ` +
        `found ${kindName(params)}, kept as given`,
    });
  }
  return out;
}

export function readToolList(doc: ParsedDocument, list: ArrayNode, options: ToolListOptions): ToolListResult {
  // Two passes over the entries: classify every one, then read every one.
  let found: { shape: ToolShape; node: ObjectNode } | null = null;
  eachEntry(doc, list, (item, kind) => {
    if (kind === null) return;
    if (options.shape !== 'auto' && kind !== options.shape) {
      throw errorAt(
        doc,
        item,
        `expected ${TOOL_SHAPE_LABEL[options.shape]} tool, ` +
          `found ${TOOL_SHAPE_LABEL[kind]} (it has ${SHAPE_KEYS[kind]})`,
      );
    }
    if (found === null) found = { shape: kind, node: item };
    else if (found.shape !== kind) {
      const at = locate(doc, found.node);
      throw errorAt(
        doc,
        item,
        `tools of different shapes in one list: this one is ${kind} (it has ${SHAPE_KEYS[kind]}), the one ` +
          `at ${at.line}:${at.column} is ${found.shape} (it has ${SHAPE_KEYS[found.shape]})`,
      );
    }
  });
  const shape: ToolShape =
    options.shape !== 'auto' ? options.shape : ((found as { shape: ToolShape } | null)?.shape ?? 'toolsearch');
  // A tool's static flag may depend on later entries (`anyDeferred`, to
  // which skipped tool_search entries count too): set once all are read.
  const warnings: string[] = [];
  const shapeWarnings: ShapeWarning[] = [];
  const tools: CatalogTool[] = [];
  const deferred: boolean[] = [];
  let anyDeferred = false;
  const origin = { file: doc.file, lines: doc.lines };
  // The prefix names MCP tools/list results as an MCP client does; other shapes keep their names.
  const prefix = options.prefix !== undefined && shape === 'mcp' ? options.prefix : undefined;
  if (options.prefix !== undefined && prefix === undefined) {
    warnings.push(
      `${doc.file}: --prefix applies to MCP tools/list results only; this ${shape} catalog keeps its names`,
    );
  }
  eachEntry(doc, list, (entry, _kind, namespace, namespaceDeferred) => {
    const read = readEntry(doc, entry, shape);
    // A function of an OpenAI `namespace` tool is named as the API's calls name it; it is deferred
    // when it, or (as OpenAI's tool search guide allows) its namespace, says `defer_loading: true`.
    const e =
      namespace === ''
        ? read
        : {
            ...read,
            name: qualifiedToolName(namespace, read.name),
            deferLoading: read.deferLoading || namespaceDeferred,
          };
    if (shape === 'toolsearch') {
      for (const w of entryShapeWarnings(doc, entry, e.name)) {
        shapeWarnings.push(w);
        warnings.push(shapeWarningText(w));
      }
    }
    if (e.deferLoading) anyDeferred = true;
    if (options.skipToolSearch && e.name === 'tool_search') {
      const where = locate(doc, e.offset);
      warnings.push(
        `${where.file}:${where.line}:${where.column}: skipped ` +
          `tool_search (the middleware's own tool, not a catalog tool)`,
      );
      return;
    }
    const name = prefix !== undefined ? `mcp__${prefix}__${e.name}` : e.name;
    const isStatic = shape === 'toolsearch' && e.static;
    const source = locate(doc, e.offset);
    // One literal per case: the properties in this order, and no property added later (V8 then stores them in the
    // object itself).
    const tool: CatalogTool =
      e.parameters !== undefined
        ? { name, description: e.description, static: isStatic, source, parameters: e.parameters }
        : { name, description: e.description, static: isStatic, source };
    tools.push(tool);
    if (shape !== 'toolsearch') deferred.push(e.deferLoading);
    toolDocs.set(tool, origin);
  });
  if (shape !== 'toolsearch' && anyDeferred) {
    for (let i = 0; i < tools.length; i++) (tools[i] as { static: boolean }).static = !deferred[i];
  }
  return { tools, shape, warnings, shapeWarnings };
}

/**
 * Calls `visit` for every entry of a tool list, in order, with its kind. Provider tools that are not
 * functions are skipped; the functions an OpenAI `namespace` groups are visited in its place.
 */
function eachEntry(
  doc: ParsedDocument,
  list: ArrayNode,
  visit: (entry: ObjectNode, kind: ToolShape | null, namespace: string, namespaceDeferred: boolean) => void,
  namespace = '',
  namespaceDeferred = false,
): void {
  for (const entry of list.items) {
    if (entry.kind !== 'object') throw errorAt(doc, entry, `expected a tool (an object), found ${kindName(entry)}`);
    const kind = classifyToolEntry(entry);
    if (kind === 'builtin') {
      const type = (field(entry, 'type') as { value: string }).value;
      const inner = field(entry, 'tools');
      if (type === 'namespace' && inner?.kind === 'array')
        eachEntry(
          doc,
          inner,
          visit,
          stringField(doc, field(entry, 'name'), 'namespace name'),
          boolField(doc, field(entry, 'defer_loading'), '"defer_loading"'),
        );
      continue;
    }
    visit(entry, kind, namespace, namespaceDeferred);
  }
}
