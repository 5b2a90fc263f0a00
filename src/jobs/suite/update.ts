/**
 * `--update`: writes the current result of `record: true` cases into their
 * `exact` expectation, touching nothing else in the file. The yaml package's
 * Document API locates each case (JSON is YAML, so both syntaxes go through
 * it) and the new value is spliced into the original text at the node's
 * range, so comments, quoting, indentation and key order stay exactly as
 * they were. (The runner re-reads the result as a suite before writing it
 * atomically.)
 */
import { isAlias, isMap, isSeq, parseDocument, visit, type Node as YamlNode, type Pair, type YAMLMap } from 'yaml';

/** A case whose `exact` cannot be rewritten in place, and why (the runner locates it at the case). */
export class UpdateError extends Error {
  constructor(
    readonly index: number,
    message: string,
  ) {
    super(message);
  }
  override name = 'UpdateError';
}

/** A new `exact` list for the case at `index`. */
export interface ExactUpdate {
  readonly index: number;
  readonly exact: readonly string[];
}

/** Scalars that YAML would read as something other than this string need quotes. */
const PLAIN_SAFE = /^[A-Za-z_][A-Za-z0-9_\-./]*$/;
const YAML_SPECIAL = /^(?:true|false|yes|no|on|off|null|~|y|n)$/i;

function yamlScalar(name: string): string {
  return PLAIN_SAFE.test(name) && !YAML_SPECIAL.test(name) ? name : JSON.stringify(name);
}

function flowList(names: readonly string[], json: boolean): string {
  return `[${names.map((n) => (json ? JSON.stringify(n) : yamlScalar(n))).join(', ')}]`;
}

function lineStart(text: string, offset: number): number {
  const nl = Math.max(text.lastIndexOf('\n', offset - 1), text.lastIndexOf('\r', offset - 1));
  return nl + 1;
}

/** Spaces before `offset` on its line (the indentation a sibling key needs). */
function indentOf(text: string, offset: number): string {
  return ' '.repeat(offset - lineStart(text, offset));
}

/** The line break the file uses. */
function eol(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

interface Splice {
  readonly at: number;
  readonly end: number;
  readonly text: string;
}

function range(node: YamlNode | null | undefined): [number, number, number] | null {
  return (node && (node as { range?: [number, number, number] }).range) || null;
}

function spliceFor(text: string, map: YAMLMap, exact: readonly string[], json: boolean): Splice {
  const nl = eol(text);
  const pair = map.items.find((p) => (p.key as { value?: unknown } | null)?.value === 'exact') as
    | Pair<YamlNode, YamlNode | null>
    | undefined;
  const flowMap = map.flow === true || json;
  const firstKey = range(map.items[0]?.key as YamlNode)!;
  const keyIndent = indentOf(text, firstKey[0]);
  const block = (indent: string): string =>
    exact.length === 0 ? ' []' : exact.map((n) => `${nl}${indent}  - ${yamlScalar(n)}`).join('');

  if (pair) {
    const keyEnd = range(pair.key)![1];
    const value = range(pair.value);
    let valueEnd = value ? value[1] : keyEnd;
    // A block sequence's range may run past its last line break: keep the break.
    while (valueEnd > keyEnd && /\s/.test(text[valueEnd - 1]!)) valueEnd--;
    // Replace from the end of the key: `: <value>`; keep the style of the old value.
    const wasBlock =
      !flowMap && !!pair.value && isSeq(pair.value) && pair.value.flow !== true && pair.value.items.length > 0;
    const keyLineIndent = indentOf(text, range(pair.key)![0]);
    const rendered = wasBlock ? `:${block(keyLineIndent)}` : `: ${flowList(exact, json)}`;
    return { at: keyEnd, end: valueEnd, text: rendered };
  }
  const last = map.items[map.items.length - 1]!;
  const lastEnd = range(last.value as YamlNode)?.[1] ?? range(last.key as YamlNode)![1];
  if (flowMap) {
    const lastKeyStart = range(last.key as YamlNode)![0];
    const multiline = /[\r\n]/.test(text.slice(firstKey[0], lastEnd));
    const sep = multiline ? `,${nl}${indentOf(text, lastKeyStart)}` : ', ';
    const key = json ? '"exact"' : 'exact';
    return { at: lastEnd, end: lastEnd, text: `${sep}${key}: ${flowList(exact, json)}` };
  }
  const entry = `${keyIndent}exact:${block(keyIndent)}`;
  // A block scalar's range ends after its last line break.
  if (text[lastEnd - 1] === '\n' || text[lastEnd - 1] === '\r')
    return { at: lastEnd, end: lastEnd, text: `${entry}${nl}` };
  return { at: lastEnd, end: lastEnd, text: `${nl}${entry}` };
}

/**
 * Anchors defined inside `node` (itself included) that an alias outside it uses: replacing `node` would take
 * them from the aliases, or — were the anchor kept — change the other place too.
 */
function anchorsUsedElsewhere(doc: ReturnType<typeof parseDocument>, node: YamlNode): string[] {
  const inside = new Set<string>();
  const [from, to] = range(node) ?? [0, 0];
  visit(node, (_key, n) => {
    const anchor = (n as { anchor?: string } | null)?.anchor;
    if (anchor) inside.add(anchor);
  });
  const used = new Set<string>();
  visit(doc, {
    Alias(_key, a) {
      const at = range(a as unknown as YamlNode)?.[0] ?? -1;
      if (inside.has(a.source) && (at < from || at >= to)) used.add(a.source);
    },
  });
  return [...used];
}

/**
 * The file's text with the updates applied (pure). A case that cannot be rewritten in place (an alias of another
 * case, or an `exact` whose list holds an anchor another place uses) is an {@link UpdateError}.
 */
export function applyExactUpdates(text: string, updates: readonly ExactUpdate[], syntax: 'json' | 'yaml'): string {
  const doc = parseDocument(text, { keepSourceTokens: false, uniqueKeys: false });
  const root = doc.contents;
  if (!isMap(root)) throw new Error('suite root is not a mapping');
  const cases = root.get('cases', true);
  if (!isSeq(cases)) throw new Error('suite has no cases list');
  const splices: Splice[] = [];
  for (const u of updates) {
    const item = cases.items[u.index];
    if (isAlias(item))
      throw new UpdateError(u.index, `the case is an alias (*${item.source}): write the case out to record its list`);
    if (!isMap(item)) throw new UpdateError(u.index, 'the case is not a mapping');
    const exact = item.items.find((p) => (p.key as { value?: unknown } | null)?.value === 'exact')?.value;
    if (exact && !isAlias(exact)) {
      const used = anchorsUsedElsewhere(doc, exact as YamlNode);
      if (used.length > 0)
        throw new UpdateError(
          u.index,
          `its "exact" holds the anchor &${used[0]}, which *${used[0]} uses elsewhere: rewriting the list would ` +
            'change or break that place too (write the list out there, or drop the anchor)',
        );
    }
    splices.push(spliceFor(text, item, u.exact, syntax === 'json'));
  }
  splices.sort((a, b) => b.at - a.at);
  let out = text;
  for (const s of splices) out = out.slice(0, s.at) + s.text + out.slice(s.end);
  return out;
}
