/**
 * YAML's flow collections inside block ones (`parameters: {"type": "object", …}`) are read straight to
 * their plain value and made as nodes only when a reader walks into them (src/io/yaml.ts,
 * `plainFlow`). Everything a reader can observe must be what making every node at once gives
 * (`parseText`'s `plainYaml: false`): nodes and positions, plain values (null prototypes, key order, -0,
 * NaN, U+FFFD), every error with its location and excerpt, and what the catalog and transcript loaders
 * make of a document.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isWellFormed } from '../../src/core/text.js';
import { readCatalogDocument } from '../../src/formats/catalog.js';
import { field, type ObjectNode, PLAIN_VALUE, type ParsedDocument, toJsonValue } from '../../src/io/nodes.js';
import { parseText } from '../../src/io/parse.js';
import type { Limits } from '../../src/io/read.js';
import { readTranscriptDocument } from '../../src/formats/transcript.js';
import { expectSame, outcome, tree } from '../formats/helpers.js';
import { applyEdit, edit, seeded, tree as randomTree, Writer } from './yaml-random.js';

type Way = (text: string, limits?: Partial<Limits>) => ParsedDocument;
const plainFirst: Way = (text, limits) => parseText('x.yaml', text, limits ? { limits } : {});
const nodesAtOnce: Way = (text, limits) =>
  parseText('x.yaml', text, { ...(limits ? { limits } : {}), plainYaml: false });

/** What a reader can observe of `text` read one way. */
function observed(parse: Way, text: string, limits?: Partial<Limits>): unknown {
  const parsed = outcome(() => parse(text, limits));
  if (!('value' in (parsed as object))) return { parsed };
  const doc = parse(text, limits);
  // The plain values first (handed out as read), then the nodes (made now), then plain values again (copies).
  const plain = toJsonValue(doc.root);
  const nodes = tree(doc.root);
  const again = toJsonValue(doc.root);
  return {
    plain,
    nodes,
    again,
    walkedFirst: tree(parse(text, limits).root),
    catalog: outcome(() => readCatalogDocument(parse(text, limits))),
    transcript: outcome(() => readTranscriptDocument(parse(text, limits))),
  };
}

function expectSameBothWays(text: string, limits?: Partial<Limits>): void {
  expectSame(observed(plainFirst, text, limits), observed(nodesAtOnce, text, limits));
}

describe('a flow collection read plain is the one made as nodes', () => {
  const texts = [
    'parameters: {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}\n',
    'a: {"__proto__": {"constructor": 1}, "2": two, "1": one, toString: [x]}\n',
    'a: [0, -0, +0, 0o17, 0x1F, 1e3, .5, -.inf, .NaN, ~, null, true, False, yes, "1", \'2\', 12345678901234567890]\n',
    'a: {1: x, 1.0: y, true: z, ~: w, "": v}\n',
    'a: ["\\ud800 lone", "\\ud83d\\ude00", "tab\\there", \'it\'\'s\', plain words, 日本, é]\n',
    '- [[], {}, [[{}]], {a: {b: {c: [1]}}}]\n- {x: [1, 2,\n    3], y: {z: 1}  # a comment\n  }\n',
    'tools:\n  - name: a\n    parameters: {"type": "object", "properties": {}}\n  - name: b\n    parameters: []\n',
    'tools:\n  - {name: a, description: d}\n  - name: b\n    parameters: {type: object}\n',
    '[1, {a: [2]}]\n',
    '{a: [1], b: {c: 2}}\n',
    // What the node fold reads (a property, an alias, a value without text), or refuses, and says where.
    'a: &x {b: 1}\nc: *x\n',
    'a: {b: &y 1, c: *y}\n',
    'a: [!!str 1, !!int "2"]\n',
    'a: {b: }\n',
    'a: {b, c: 1}\n',
    'a: [a, , b]\n',
    'a: {b: 1, b: 2}\n',
    'a: {b: {c: 1, "c": 2}}\n',
    'a: {1: x, "1": y}\n',
    'a: {[b]: 1}\n',
    '[a]: 1\n',
    '{a: 1}: 2\n',
    'a: [!foo 1]\n',
    'a: [*nope]\n',
    'a: [1]\nb: [2]\n---\nc: [3]\n',
    'a: [[[[[1]]]]]\n',
  ];
  it.each(texts)('%s', (text) => expectSameBothWays(text));

  it('the limits: nesting, aliases and their bytes refused alike', () => {
    expectSameBothWays('a: [[[[1]]]]\n', { maxDepth: 3 });
    expectSameBothWays('a: [[[[1]]]]\n', { maxDepth: 4 });
    expectSameBothWays('- a: {b: [c]}\n', { maxDepth: 3 });
    expectSameBothWays('a: &a [x, y]\nb: [*a, *a, *a]\nc: {d: [*a]}\n', { maxAliases: 3 });
    expectSameBothWays('a: &a [xxxxxxxxxx]\nb: [*a, *a]\n', { maxAliasBytes: 15 });
    // An empty collection as deep as the limit: js-yaml, which counts scalars as a level, lets it through.
    expectSameBothWays('a: [[[[]]]]\n', { maxDepth: 4 });
    expectSameBothWays('a: [[{b: {}}]]\n', { maxDepth: 4 });
    // Flow collections inside an anchored value count towards what its aliases expand to.
    const anchored = 'a: &a\n  b: [xxxxxxxxxx, [y]]\n  c: {d: [z]}\ne: [*a, *a]\n';
    expectSameBothWays(anchored, { maxAliasBytes: 30 });
    expectSameBothWays(anchored, { maxAliasValues: 12 });
    expectSameBothWays(anchored, { maxDepth: 4 });
  });

  it('random documents, and the same with one character changed: read alike or refused alike', () => {
    fc.assert(
      fc.property(randomTree, fc.integer(), edit, (t, seed, e) => {
        // Block documents: only flow collections inside block ones are read plain.
        const text = new Writer(seeded(seed)).document({
          t: 'map',
          flow: false,
          entries: [
            ['k', t],
            ['l', t],
          ],
        });
        expectSameBothWays(text);
        const changed = applyEdit(text, e);
        if (isWellFormed(changed)) expectSameBothWays(changed);
        expectSameBothWays(text, { maxDepth: 3, maxAliases: 2, maxAliasBytes: 8 });
      }),
      { numRuns: Number(process.env.YAML_RUNS ?? 1000) },
    );
  });

  it("the demo catalog's parameters are read plain: never walked, each value handed out once", () => {
    const text = readFileSync(new URL('../../fixtures/catalogs/demo.yaml', import.meta.url), 'utf8');
    const doc = plainFirst(text);
    const tools = field(doc.root as ObjectNode, 'tools');
    expect(tools?.kind).toBe('array');
    const params = (tools as { items: readonly ObjectNode[] }).items.map((t) => field(t, 'parameters'));
    expect(params.length).toBe(130);
    expect(params.every((p) => p !== undefined && PLAIN_VALUE in p)).toBe(true);
    const first = toJsonValue(params[0]!);
    const second = toJsonValue(params[0]!);
    expect(second).not.toBe(first);
    expectSame(second, first);
    expectSameBothWays(text);
  });
});
