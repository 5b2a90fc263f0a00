/**
 * Parsing an input file into positioned values: JSON, JSONL, YAML or an SSE
 * event stream, chosen by extension (`.json`, `.jsonl`/`.ndjson`,
 * `.yaml`/`.yml`, `.sse`) or, for any other name, by sniffing (a first
 * character `{` or `[` means JSON; text whose lines are all SSE fields
 * (sse.ts) an event stream; else YAML). An event stream's root is the list of
 * its events, `{event, data, id?}` with `data` as text.
 *
 * A `.json` file (or sniffed JSON) that holds one complete value per line is
 * read as JSONL: logs are often saved that way under a `.json` name.
 */
import { InputError } from './errors.js';
import { readInputText } from './input-text.js';
import { type Fail, parseJsonValue } from './json.js';
import type { JsonValue } from '../core/types.js';
import { errorAt, type Node, type ParsedDocument, type Syntax } from './nodes.js';
import { LineIndex } from './position.js';
import { DEFAULT_LIMITS, inputName, type Limits, raiseLimit, resolveLimits } from './read.js';
import { looksLikeSse, parseSse } from './sse.js';
import { parseYamlText } from './yaml.js';

/** The syntax implied by a file name, or null when the extension says nothing. */
export function syntaxFromName(path: string): Syntax | null {
  const m = /\.([A-Za-z0-9]+)$/.exec(path);
  switch (m?.[1]?.toLowerCase()) {
    case 'json':
      return 'json';
    case 'jsonl':
    case 'ndjson':
      return 'jsonl';
    case 'yaml':
    case 'yml':
      return 'yaml';
    case 'sse':
      return 'sse';
    default:
      return null;
  }
}

function sniff(text: string): Syntax {
  const m = /^[\s\uFEFF]*(.)/.exec(text);
  if (m && (m[1] === '{' || m[1] === '[')) return 'json';
  return looksLikeSse(text) ? 'sse' : 'yaml';
}

/** The events of an event stream as nodes: `{event, data, id?}` objects, each at its first line. */
function sseRoot(text: string): Node {
  const str = (value: string, offset: number): Node => ({ kind: 'string', offset, value });
  const items: Node[] = parseSse(text).events.map((e) => {
    const members = new Map([
      ['event', { key: 'event', keyOffset: e.offset, value: str(e.event, e.offset) }],
      ['data', { key: 'data', keyOffset: e.dataOffset, value: str(e.data, e.dataOffset) }],
    ]);
    if (e.id !== null) members.set('id', { key: 'id', keyOffset: e.offset, value: str(e.id, e.offset) });
    return { kind: 'object', offset: e.offset, members };
  });
  return { kind: 'array', offset: 0, items };
}

/** The syntax {@link parseText} reads `text` from `file` as when none is forced: the name's, else sniffed. */
export function textSyntax(file: string, text: string): Syntax {
  return syntaxFromName(file) ?? sniff(text);
}

/** Thrown through `fail` inside the readers and turned into a located `InputError`. */
function failer(file: string, lines: LineIndex): Fail {
  return (offset: number, message: string): never => {
    throw errorAt({ file, lines }, offset, message);
  };
}

function whereIn(lines: LineIndex): (offset: number) => string {
  return (offset) => {
    const p = lines.position(offset);
    return `${p.line}:${p.column}`;
  };
}

function parseJsonl(text: string, limits: Limits, fail: Fail, where: (o: number) => string, lazy?: number): Node {
  const items: Node[] = [];
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    // A `\r` before the `\n` is white space to the JSON reader.
    if (/[^\t\n\r ]/.test(text.slice(start, end)))
      items.push(parseJsonValue(text, start, end, limits.maxDepth, fail, where, lazy));
    start = end + 1;
  }
  return { kind: 'array', offset: 0, items };
}

/** Whether a JSON parse error is "a second value follows the first", starting on a later line. */
function looksLikeJsonl(err: unknown, firstLine: number): boolean {
  return (
    err instanceof InputError &&
    /^invalid JSON: unexpected .* after the value$/.test(err.message) &&
    (err.location?.line ?? 0) > firstLine
  );
}

/**
 * Parses already-read text. `syntax` forces a syntax; otherwise it comes from
 * the file name or from sniffing. Every problem is an `InputError` at
 * `file:line:column` with a caret excerpt.
 */
export function parseText(
  file: string,
  text: string,
  options: {
    syntax?: Syntax;
    limits?: Partial<Limits>;
    /** JSON values longer than this are read lazily (json.ts); for tests that read both ways. */
    lazyTextLength?: number;
    /** YAML scalars may be tagged `!!binary` (recordings: VCR cassettes), read as base64 text (yaml.ts). */
    yamlBinary?: boolean;
  } = {},
): ParsedDocument {
  const limits = resolveLimits(options.limits);
  const lines = new LineIndex(text);
  const fail = failer(file, lines);
  const where = whereIn(lines);
  const syntax = options.syntax ?? textSyntax(file, text);
  const lazy = options.lazyTextLength;
  try {
    if (syntax === 'yaml')
      return {
        file,
        text,
        syntax,
        lines,
        limits,
        root: parseYamlText(text, limits, fail, where, { binary: options.yamlBinary }),
      };
    if (syntax === 'jsonl')
      return { file, text, syntax, lines, limits, root: parseJsonl(text, limits, fail, where, lazy) };
    if (syntax === 'sse') return { file, text, syntax, lines, limits, root: sseRoot(text) };
    try {
      return {
        file,
        text,
        syntax,
        lines,
        limits,
        root: parseJsonValue(text, 0, text.length, limits.maxDepth, fail, where, lazy),
      };
    } catch (err) {
      const firstLine = lines.position(text.search(/[^\t\n\r ]/)).line;
      if (options.syntax !== 'json' && looksLikeJsonl(err, firstLine)) {
        return { file, text, syntax: 'jsonl', lines, limits, root: parseJsonl(text, limits, fail, where, lazy) };
      }
      throw err;
    }
  } catch (err) {
    if (err instanceof RangeError) {
      // Only reachable when a caller raised maxDepth beyond what the stack holds.
      throw new InputError(`nesting too deep to read (limit ${limits.maxDepth} levels; ${raiseLimit('maxDepth')})`, {
        file,
        line: 0,
        column: 0,
      });
    }
    throw err;
  }
}

/**
 * The value of JSON text found inside an input (a string that holds JSON: a provider's tool call input), as
 * `JSON.parse` reads it (the agent's SDK did; a duplicate key's last value wins), but only when it nests no deeper
 * than `TOOLSEARCH_MAX_DEPTH` (`JSON.parse` knows no limit, and what walks its value afterwards recurses):
 * undefined when the text is not JSON or nests deeper, and the caller keeps it as text.
 */
export function jsonInText(text: string, limits?: Partial<Limits>): JsonValue | undefined {
  const depth = jsonDepth(text);
  const maxDepth = resolveLimits(limits).maxDepth;
  if (depth > maxDepth) return undefined;
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
  // Past the default limit (raised by the user), the stack may not hold a walk of the value (the readers'
  // walks, JSON.stringify, recurse): then an error, as the readers give for a document too deep to read.
  if (depth > DEFAULT_LIMITS.maxDepth) {
    try {
      JSON.stringify(value);
    } catch (err) {
      if (err instanceof RangeError)
        throw new InputError(
          `JSON text nested ${depth} levels inside the input: deeper than the stack can walk ` +
            `(TOOLSEARCH_MAX_DEPTH is ${maxDepth}; at ${depth - 1} or less, the text is read as text)`,
        );
      throw err;
    }
  }
  return value;
}

/** The deepest nesting of arrays and objects in JSON text (brackets inside strings not counted), in one pass. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: to its closing quote, past escapes.
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/** Reads and parses a file (see {@link readInputText} and {@link parseText}). */
export function parseFile(
  path: string,
  options: { syntax?: Syntax; limits?: Partial<Limits>; yamlBinary?: boolean } = {},
): ParsedDocument {
  // The file's bytes are released before the text is parsed.
  return parseText(inputName(path), readInputText(path, options.limits), options);
}
