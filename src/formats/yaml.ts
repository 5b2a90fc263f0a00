/**
 * YAML to positioned values ({@link Node}), with the hardening rules:
 *
 * - YAML 1.2, core schema: `yes`/`no`/`on` stay strings, `<<` is an ordinary key;
 * - nesting deeper than `maxDepth` is rejected **before** the document is
 *   composed (the composer recurses; the concrete syntax tree is walked here
 *   without recursion), so 100,000 levels cannot exhaust the stack, and
 *   cheap nesting (`[[[…`, `- - - …`) before the syntax tree is even built;
 * - aliases are resolved here, not by the library: an alias shares the
 *   contents of its anchored value (nodes are immutable; the alias gets a
 *   shallow copy that carries its own position), and what a full expansion
 *   would cost is computed, not performed. Two bounds: at most `maxAliases`
 *   dereferences (aliases inside an aliased value count again each time it
 *   is used, so a "billion laughs" document stops after a few levels), and at
 *   most {@link MAX_ALIAS_EXPANSION} values added by expansion (one huge
 *   anchor referenced many times), and at most `maxAliasBytes` bytes of
 *   text (strings and keys, UTF-8) added by expansion, counted as the
 *   document is composed (1,000 aliases of one 600 KB string). Consumers that copy values (`toJsonValue`,
 *   `JSON.stringify`) thus stay bounded too. An alias to a value that
 *   contains it is an error;
 * - explicit tags other than the core ones (`!!str`, `!!int`, `!!float`,
 *   `!!bool`, `!!null`, `!!map`, `!!seq`) are **rejected** with a located
 *   error rather than silently read as strings: a catalog or transcript has
 *   no use for them, and `description: !important …` is more likely a
 *   quoting mistake the user wants to hear about;
 * - keys are unique (a duplicate is an error at its second occurrence) and
 *   must be scalars; a non-string scalar key (`1:`, `true:`) is read as its text.
 */
import { Composer, isAlias, isMap, isScalar, isSeq, Lexer, Parser } from 'yaml';
import type { CST } from 'yaml';
import { toWellFormed } from '../core/text.js';
import type { Fail } from './json.js';
import { duplicateKeyMessage } from './json.js';
import type { Member, Node } from './nodes.js';

/** Most values that alias expansion may add to one document. */
export const MAX_ALIAS_EXPANSION = 1_000_000;

const CORE_TAGS = new Set([
  '!',
  'tag:yaml.org,2002:str',
  'tag:yaml.org,2002:int',
  'tag:yaml.org,2002:float',
  'tag:yaml.org,2002:bool',
  'tag:yaml.org,2002:null',
  'tag:yaml.org,2002:map',
  'tag:yaml.org,2002:seq',
]);

function showTag(tag: string): string {
  return tag.startsWith('tag:yaml.org,2002:') ? `!!${tag.slice('tag:yaml.org,2002:'.length)}` : tag;
}

/** Depth of the deepest collection in the syntax tree, walked with an explicit stack. */
function checkCstDepth(tokens: readonly CST.Token[], maxDepth: number, fail: Fail): void {
  const stack: Array<[CST.Token, number]> = [];
  for (const t of tokens) stack.push([t, 0]);
  while (stack.length > 0) {
    const [tok, depth] = stack.pop()!;
    switch (tok.type) {
      case 'document':
        if (tok.value) stack.push([tok.value, depth]);
        break;
      case 'block-map':
      case 'block-seq':
      case 'flow-collection': {
        const d = depth + 1;
        if (d > maxDepth) fail(tok.offset, `nesting deeper than ${maxDepth} levels`);
        for (const item of tok.items) {
          if ('key' in item && item.key) stack.push([item.key, d]);
          if (item.value) stack.push([item.value, d]);
        }
        break;
      }
      default:
        break;
    }
  }
}

/** Lexer tokens that stand for no source text. */
const CONTROL_TOKENS = new Set(['\u0002', '\u0018', '\u001f']);

/**
 * Lexes and parses `text` into the concrete syntax tree in one pass (the
 * lexer runs once; each token goes to the parser as it comes), checking on
 * the way the nesting that costs two characters a level — flow collections
 * (`[[[…`, `{a: {a: …`) and compact block ones on one line (`- - - …`,
 * `a: a: …`) — before the parser has built a deep tree: the parser's time
 * and memory grow with the depth (3 million levels took 80 s and 3 GB), the
 * lexer's do not. The estimate counts generously; when it passes
 * `maxDepth`, the text up to that token gets the exact check of
 * {@link checkCstDepth}, so the error is the one that check reports (and a
 * false alarm ends the estimate: the full check decides). Nesting by
 * indentation costs its square in bytes: 64 MiB holds about 11,000 levels.
 */
function lexAndParse(text: string, maxDepth: number, fail: Fail): CST.Token[] {
  const parser = new Parser();
  const tokens: CST.Token[] = [];
  let estimating = true;
  let flow = 0;
  let compact = 0;
  let offset = 0;
  for (const tok of new Lexer().lex(text)) {
    if (estimating) {
      if (!CONTROL_TOKENS.has(tok)) offset += tok.length;
      if (tok === '[' || tok === '{') flow++;
      else if ((tok === ']' || tok === '}') && flow > 0) flow--;
      else if (tok === '\n' || tok === '\r\n') compact = 0;
      else if (flow === 0 && (tok === '-' || tok === '?' || tok === ':')) compact++;
      if (flow + compact > maxDepth) {
        checkCstDepth(Array.from(new Parser().parse(text.slice(0, offset))), maxDepth, fail);
        estimating = false;
      }
    }
    for (const t of parser.next(tok)) tokens.push(t);
  }
  for (const t of parser.end()) tokens.push(t);
  return tokens;
}

/** Start of the quoted scalar that contains `pos` (an unterminated quote is reported at its end by the library). */
function quotedScalarStart(tokens: readonly CST.Token[], pos: number): number | null {
  const stack: CST.Token[] = [...tokens];
  while (stack.length > 0) {
    const tok = stack.pop()!;
    switch (tok.type) {
      case 'document':
        if (tok.value) stack.push(tok.value);
        break;
      case 'block-map':
      case 'block-seq':
      case 'flow-collection':
        for (const item of tok.items) {
          if ('key' in item && item.key) stack.push(item.key);
          if (item.value) stack.push(item.value);
        }
        break;
      case 'single-quoted-scalar':
      case 'double-quoted-scalar':
        if (tok.offset <= pos && pos <= tok.offset + tok.source.length) return tok.offset;
        break;
      default:
        break;
    }
  }
  return null;
}

/** What expanding an anchored value costs: its values, the aliases inside it (expanded), its depth. */
interface AnchorStats {
  readonly node: Node;
  /** Values in the value when fully expanded. */
  readonly size: number;
  /** Alias dereferences inside the value when fully expanded. */
  readonly aliases: number;
  /** Bytes of text (UTF-8 strings and keys) in the value when fully expanded. */
  readonly bytes: number;
  /** Nesting levels of the value when fully expanded (0 for a scalar). */
  readonly depth: number;
}

interface Walk {
  readonly text: string;
  readonly maxDepth: number;
  readonly maxAliases: number;
  readonly maxAliasBytes: number;
  readonly fail: Fail;
  readonly where: (offset: number) => string;
  /** Anchor name → the anchored value most recently defined (document order). */
  readonly anchors: Map<string, unknown>;
  /** Anchored value → its converted node and costs, once its conversion is complete. */
  readonly done: Map<unknown, AnchorStats>;
  /** Running totals, as if every alias were expanded: values, values added by aliases, alias dereferences. */
  size: number;
  expanded: number;
  aliases: number;
  /** Bytes of text as if every alias were expanded, and the part of them added by aliases. */
  bytes: number;
  expandedBytes: number;
  /** Deepest level reached so far (aliases count with their target's depth). */
  deepest: number;
}

function offsetOf(y: unknown, fallback: number): number {
  const r = (y as { range?: [number, number, number] } | null)?.range;
  return r ? r[0] : fallback;
}

/**
 * An alias: the anchored value's node is shared (nodes are immutable), and
 * what a full expansion would cost is added to the totals, so a
 * "billion laughs" is refused by arithmetic, without expanding anything.
 */
function alias(w: Walk, source: string, offset: number, depth: number): AnchorStats {
  const target = w.anchors.get(source);
  if (target === undefined) return w.fail(offset, `unknown YAML alias *${source}`);
  const stats = w.done.get(target);
  if (!stats) return w.fail(offset, `YAML alias *${source} refers to a value that contains it`);
  w.aliases += 1 + stats.aliases;
  if (w.aliases > w.maxAliases) w.fail(offset, `too many YAML aliases (more than ${w.maxAliases})`);
  w.size += stats.size;
  w.expanded += stats.size;
  if (w.expanded > MAX_ALIAS_EXPANSION)
    w.fail(offset, `YAML aliases expand to more than ${MAX_ALIAS_EXPANSION} values`);
  w.bytes += stats.bytes;
  w.expandedBytes += stats.bytes;
  if (w.expandedBytes > w.maxAliasBytes)
    w.fail(
      offset,
      `YAML aliases expand to more than ${w.maxAliasBytes} bytes of ` +
        `text (alias *${source}; TOOLSEARCH_MAX_ALIAS_BYTES)`,
    );
  if (depth + stats.depth > w.maxDepth)
    w.fail(offset, `nesting deeper than ${w.maxDepth} levels (through alias *${source})`);
  w.deepest = Math.max(w.deepest, depth + stats.depth);
  return stats;
}

function convert(w: Walk, y: unknown, depth: number, fallbackOffset: number): Node {
  const offset = offsetOf(y, fallbackOffset);
  if (isAlias(y)) {
    // The same value, located at the alias: a message about it (a name defined twice) points at this use.
    const node = alias(w, y.source, offset, depth).node;
    return node.offset === offset ? node : { ...node, offset };
  }
  const anchor = (y as { anchor?: string } | null)?.anchor;
  if (!anchor) return convertValue(w, y, depth, offset);
  // Measure the anchored value while converting it.
  w.anchors.set(anchor, y);
  const before = { size: w.size, aliases: w.aliases, bytes: w.bytes, deepest: w.deepest };
  w.deepest = depth;
  const node = convertValue(w, y, depth, offset);
  w.done.set(y, {
    node,
    size: w.size - before.size,
    aliases: w.aliases - before.aliases,
    bytes: w.bytes - before.bytes,
    depth: w.deepest - depth,
  });
  w.deepest = Math.max(before.deepest, w.deepest);
  return node;
}

/** Where the tag written before the value at `offset` starts (the value itself when the tag is on another line). */
function tagOffset(w: Walk, offset: number): number {
  const i = w.text.lastIndexOf('!', offset - 1);
  if (i < 0 || /[\r\n]/.test(w.text.slice(i, offset))) return offset;
  // The last `!` may be inside the tag (`!!binary`, `!e!tag`): back to the tag's first character.
  let start = i;
  while (start > 0 && !/[\s,[\]{}]/.test(w.text[start - 1]!)) start--;
  return start;
}

function badTag(w: Walk, offset: number, tag: string): never {
  return w.fail(
    tagOffset(w, offset),
    `unsupported YAML tag ${JSON.stringify(showTag(tag))} (quote the value if it is text)`,
  );
}

function convertValue(w: Walk, y: unknown, depth: number, offset: number): Node {
  w.size++;
  w.deepest = Math.max(w.deepest, depth);
  if (y === null || y === undefined) return { kind: 'null', offset };
  const tag = (y as { tag?: string }).tag;
  if (tag !== undefined && !CORE_TAGS.has(tag)) badTag(w, offset, tag);
  if (isScalar(y)) {
    const v = y.value;
    if (v === null || v === undefined) return { kind: 'null', offset };
    if (typeof v === 'boolean') return { kind: 'bool', offset, value: v };
    if (typeof v === 'number') return { kind: 'number', offset, value: v, raw: String(v) };
    if (typeof v === 'bigint') return { kind: 'number', offset, value: Number(v), raw: v.toString() };
    if (typeof v === 'string') {
      w.bytes += Buffer.byteLength(v, 'utf8');
      return { kind: 'string', offset, value: toWellFormed(v) };
    }
    return w.fail(offset, 'unsupported YAML value');
  }
  if (isSeq(y)) {
    if (depth + 1 > w.maxDepth) w.fail(offset, `nesting deeper than ${w.maxDepth} levels`);
    return { kind: 'array', offset, items: y.items.map((item) => convert(w, item, depth + 1, offset)) };
  }
  if (isMap(y)) {
    if (depth + 1 > w.maxDepth) w.fail(offset, `nesting deeper than ${w.maxDepth} levels`);
    const members = new Map<string, Member>();
    for (const pair of y.items) {
      const keyOffset = offsetOf(pair.key, offset);
      // An alias used as a key counts like any alias; its value must be a scalar.
      const k: unknown = isAlias(pair.key) ? aliasKey(w, pair.key.source, keyOffset, depth + 1) : pair.key;
      let key: string;
      if (k === null || k === undefined) key = '';
      else if (typeof k === 'string') key = k;
      else if (isScalar(k)) {
        const kt = (k as { tag?: string }).tag;
        if (kt !== undefined && !CORE_TAGS.has(kt)) badTag(w, keyOffset, kt);
        const kv = k.value;
        key = typeof kv === 'string' ? toWellFormed(kv) : kv === null || kv === undefined ? '' : String(kv);
      } else {
        return w.fail(keyOffset, 'YAML mapping keys must be strings');
      }
      const first = members.get(key);
      if (first) w.fail(keyOffset, duplicateKeyMessage(key, w.where(first.keyOffset)));
      w.bytes += Buffer.byteLength(key, 'utf8');
      const value = convert(w, pair.value, depth + 1, keyOffset);
      members.set(key, { key, keyOffset, value });
    }
    return { kind: 'object', offset, members };
  }
  return w.fail(offset, 'unsupported YAML node');
}

function aliasKey(w: Walk, source: string, offset: number, depth: number): string {
  const { node } = alias(w, source, offset, depth);
  switch (node.kind) {
    case 'string':
      return node.value;
    case 'number':
      return node.raw;
    case 'bool':
      return String(node.value);
    case 'null':
      return '';
    default:
      return w.fail(offset, 'YAML mapping keys must be strings');
  }
}

/**
 * Parses a YAML document (one; a second `---` document is an error) into a
 * positioned value. Problems are reported through `fail`.
 */
export function parseYamlText(
  text: string,
  limits: { readonly maxDepth: number; readonly maxAliases: number; readonly maxAliasBytes: number },
  fail: Fail,
  where: (offset: number) => string,
): Node {
  const tokens = lexAndParse(text, limits.maxDepth, fail);
  checkCstDepth(tokens, limits.maxDepth, fail);
  const composer = new Composer({
    version: '1.2',
    schema: 'core',
    uniqueKeys: false, // checked below, with the key named
    prettyErrors: false,
    strict: true,
    // Aliases are expanded by `convert` (no toJS call), with the bounds above.
  });
  const docs = Array.from(composer.compose(tokens, true, text.length));
  const doc = docs[0];
  if (!doc) return fail(0, 'empty YAML document');
  for (const d of docs) {
    const err = d.errors[0];
    if (err) {
      const at =
        err.code === 'MISSING_CHAR' && /quote/.test(err.message)
          ? (quotedScalarStart(tokens, err.pos[0]) ?? err.pos[0])
          : err.pos[0];
      fail(at, `invalid YAML: ${err.message}`);
    }
  }
  if (docs.length > 1) fail(offsetOf(docs[1]!.contents, docs[1]!.range[0]), 'invalid YAML: more than one document');
  if (doc.contents === null) return fail(doc.range[0], 'empty YAML document (no content)');
  const w: Walk = {
    text,
    maxDepth: limits.maxDepth,
    maxAliases: limits.maxAliases,
    maxAliasBytes: limits.maxAliasBytes,
    fail,
    where,
    anchors: new Map(),
    done: new Map(),
    size: 0,
    expanded: 0,
    aliases: 0,
    bytes: 0,
    expandedBytes: 0,
    deepest: 0,
  };
  return convert(w, doc.contents, 0, 0);
}
