/**
 * JSON inside a string of another document (io/embedded.ts): its nodes land on their own characters in
 * the outer text when the string's literal can be walked (JSON strings, one-line YAML quoted scalars),
 * else all on the string; a property checks every node of random values written into a JSON string.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nodesOf, parseEmbedded } from '../../src/io/embedded.js';
import type { Node, StringNode } from '../../src/io/nodes.js';
import { parseText } from '../../src/io/parse.js';

const LIMITS = { maxDepth: 100 };

/** Every node of a tree, in document order. */
function all(n: Node): Node[] {
  if (n.kind === 'array') return [n, ...n.items.flatMap(all)];
  if (n.kind === 'object') return [n, ...[...n.members.values()].flatMap((m) => all(m.value))];
  return [n];
}

function embedded(outer: string, syntax: 'json' | 'yaml') {
  const doc = parseText(`x.${syntax}`, outer, { syntax });
  const body = (doc.root as { members: ReadonlyMap<string, { value: Node }> }).members.get('body')!.value as StringNode;
  const r = parseEmbedded(doc, body.value, body, body, LIMITS);
  if ('error' in r) throw new Error(r.error);
  return { doc, body, root: r.root };
}

describe('JSON embedded in a string', () => {
  it('a JSON string literal: each node on its first character (escapes walked)', () => {
    const inner = JSON.stringify({ a: ['é\n', { b: '\u{1F600}' }], 'k\\"': null });
    const { doc, root } = embedded(JSON.stringify({ body: inner }), 'json');
    const at = (n: Node) => doc.text.slice(n.offset, n.offset + 2);
    expect(all(root).map(at)).toEqual(['{\\', '[\\', '\\"', '{\\', '\\"', 'nu']);
  });

  it("a YAML single-quoted scalar on one line ('' is a quote); a folded one puts every node on the string", () => {
    const one = embedded(`body: '{"it''s": [1]}'\n`, 'yaml');
    expect(all(one.root).map((n) => one.doc.text.slice(n.offset, n.offset + 1))).toEqual(['{', '[', '1']);
    const folded = embedded(`body: '{"a":\n  [1]}'\n`, 'yaml');
    expect(new Set(all(folded.root).map((n) => n.offset))).toEqual(new Set([folded.body.offset]));
  });

  it('text that is not JSON says where in the text', () => {
    const doc = parseText('x.json', JSON.stringify({ body: '{"a": }' }), { syntax: 'json' });
    const body = (doc.root as { members: ReadonlyMap<string, { value: Node }> }).members.get('body')!.value;
    expect(parseEmbedded(doc, '{"a": }', body, body as StringNode, LIMITS)).toEqual({
      error: "invalid JSON: expected a value, found '}' (line 1, column 7 of the text)",
    });
  });

  it('property: every node of a random value lands where its text starts in the outer JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        const inner = JSON.stringify(value);
        const { doc, root } = embedded(JSON.stringify({ body: inner }), 'json');
        const quote = doc.text.indexOf(':') + 1;
        // The inner text's characters, each with where its written form starts in the outer text.
        const starts: number[] = [];
        let at = quote + 1;
        for (const ch of inner) {
          for (let k = 0; k < ch.length; k++) starts.push(at);
          at += JSON.stringify(ch).length - 2;
        }
        const own = parseText('inner.json', inner, { syntax: 'json' }).root;
        expect(all(root).map((n) => n.offset)).toEqual(all(own).map((n) => starts[n.offset]));
      }),
      { numRuns: 200, seed: 28 },
    );
  });

  it('nodesOf: a plain value as nodes, all at one place', () => {
    const n = nodesOf({ a: [1, 'x', null, true] }, 7);
    expect(all(n).map((x) => [x.kind, x.offset])).toEqual([
      ['object', 7],
      ['array', 7],
      ['number', 7],
      ['string', 7],
      ['null', 7],
      ['bool', 7],
    ]);
  });
});
