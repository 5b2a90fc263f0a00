/**
 * YAML to positioned values ({@link Node}), with the hardening rules:
 *
 * - YAML 1.2, core schema: `yes`/`no`/`on` stay strings, `<<` is an ordinary key;
 * - nesting deeper than `maxDepth` is rejected **before** the document is
 *   composed (the composer recurses; the concrete syntax tree is walked here
 *   without recursion), so 100,000 levels cannot exhaust the stack;
 * - aliases are expanded here, not by the library, and bounded twice: at most
 *   `maxAliases` dereferences (aliases met again inside an expanded alias
 *   count again, so a "billion laughs" document stops after a few levels), and
 *   at most {@link MAX_ALIAS_EXPANSION} values created by expansion (one huge
 *   anchor referenced many times);
 * - explicit tags other than the core ones (`!!str`, `!!int`, `!!float`,
 *   `!!bool`, `!!null`, `!!map`, `!!seq`) are **rejected** with a located
 *   error rather than silently read as strings: a catalog or transcript has
 *   no use for them, and `description: !important …` is more likely a
 *   quoting mistake the user wants to hear about;
 * - keys are unique (a duplicate is an error at its second occurrence) and
 *   must be scalars; a non-string scalar key (`1:`, `true:`) is read as its text.
 */
import { Composer, isAlias, isMap, isScalar, isSeq, Parser } from 'yaml';
import type { CST } from 'yaml';
import { toWellFormed } from '../core/text.js';
import type { Fail } from './json.js';
import { duplicateKeyMessage } from './json.js';
import type { Member, Node } from './nodes.js';

/** Most values that alias expansion may create in one document. */
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

interface Walk {
  readonly maxDepth: number;
  readonly maxAliases: number;
  readonly fail: Fail;
  readonly where: (offset: number) => string;
  readonly anchors: Map<string, unknown>;
  aliases: number;
  insideAlias: number;
  expanded: number;
  /** Offset of the alias (in the document as written) whose expansion is under way: errors inside an expansion point there. */
  outerAlias: number;
}

function offsetOf(y: unknown, fallback: number): number {
  const r = (y as { range?: [number, number, number] } | null)?.range;
  return r ? r[0] : fallback;
}

function convert(w: Walk, y: unknown, depth: number, fallbackOffset: number): Node {
  const offset = offsetOf(y, fallbackOffset);
  if (y === null || y === undefined) return { kind: 'null', offset };
  if (isAlias(y)) {
    if (w.insideAlias === 0) w.outerAlias = offset;
    w.aliases++;
    if (w.aliases > w.maxAliases) w.fail(w.outerAlias, `too many YAML aliases (more than ${w.maxAliases})`);
    const target = w.anchors.get(y.source);
    if (target === undefined) w.fail(offset, `unknown YAML alias *${y.source}`);
    w.insideAlias++;
    const out = convert(w, target, depth, offset);
    w.insideAlias--;
    return out;
  }
  if (w.insideAlias > 0) {
    w.expanded++;
    if (w.expanded > MAX_ALIAS_EXPANSION) {
      w.fail(w.outerAlias, `YAML aliases expand to more than ${MAX_ALIAS_EXPANSION} values`);
    }
  } else {
    const anchor = (y as { anchor?: string }).anchor;
    if (anchor) w.anchors.set(anchor, y);
  }
  const tag = (y as { tag?: string }).tag;
  if (tag !== undefined && !CORE_TAGS.has(tag)) {
    w.fail(offset, `unsupported YAML tag ${JSON.stringify(showTag(tag))} (quote the value if it is text)`);
  }
  if (isScalar(y)) {
    const v = y.value;
    if (v === null || v === undefined) return { kind: 'null', offset };
    if (typeof v === 'boolean') return { kind: 'bool', offset, value: v };
    if (typeof v === 'number') return { kind: 'number', offset, value: v, raw: String(v) };
    if (typeof v === 'bigint') return { kind: 'number', offset, value: Number(v), raw: v.toString() };
    if (typeof v === 'string') return { kind: 'string', offset, value: toWellFormed(v) };
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
      let k: unknown = pair.key;
      const keyOffset = offsetOf(k, offset);
      if (isAlias(k)) {
        // An alias used as a key: resolve it, counting it like any alias.
        w.aliases++;
        if (w.aliases > w.maxAliases) w.fail(w.insideAlias > 0 ? w.outerAlias : keyOffset, `too many YAML aliases (more than ${w.maxAliases})`);
        k = w.anchors.get(k.source);
      }
      let key: string;
      if (k === null || k === undefined) key = '';
      else if (isScalar(k)) {
        const kt = (k as { tag?: string }).tag;
        if (kt !== undefined && !CORE_TAGS.has(kt)) {
          w.fail(keyOffset, `unsupported YAML tag ${JSON.stringify(showTag(kt))} (quote the value if it is text)`);
        }
        const kv = k.value;
        key = typeof kv === 'string' ? toWellFormed(kv) : kv === null || kv === undefined ? '' : String(kv);
      } else {
        return w.fail(keyOffset, 'YAML mapping keys must be strings');
      }
      const first = members.get(key);
      if (first) w.fail(keyOffset, duplicateKeyMessage(key, w.where(first.keyOffset)));
      const value = convert(w, pair.value, depth + 1, keyOffset);
      members.set(key, { key, keyOffset, value });
    }
    return { kind: 'object', offset, members };
  }
  return w.fail(offset, 'unsupported YAML node');
}

/**
 * Parses a YAML document (one; a second `---` document is an error) into a
 * positioned value. Problems are reported through `fail`.
 */
export function parseYamlText(
  text: string,
  limits: { readonly maxDepth: number; readonly maxAliases: number },
  fail: Fail,
  where: (offset: number) => string,
): Node {
  const tokens = Array.from(new Parser().parse(text));
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
      const at = err.code === 'MISSING_CHAR' && /quote/.test(err.message) ? (quotedScalarStart(tokens, err.pos[0]) ?? err.pos[0]) : err.pos[0];
      fail(at, `invalid YAML: ${err.message}`);
    }
  }
  if (docs.length > 1) fail(offsetOf(docs[1]!.contents, docs[1]!.range[0]), 'invalid YAML: more than one document');
  if (doc.contents === null) return fail(doc.range[0], 'empty YAML document (no content)');
  const w: Walk = {
    maxDepth: limits.maxDepth,
    maxAliases: limits.maxAliases,
    fail,
    where,
    anchors: new Map(),
    aliases: 0,
    insideAlias: 0,
    expanded: 0,
    outerAlias: 0,
  };
  return convert(w, doc.contents, 0, 0);
}
