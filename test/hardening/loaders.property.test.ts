/**
 * Properties over every loader, fed generated malformed and adversarial
 * input: the outcome is a value or an `InputError` located in the file
 * (with a caret excerpt when it has a line) — never another exception.
 *
 * Loaders: catalogs (every shape, forced and detected), transcripts (every
 * shape), suites, labeled query sets, `search --batch` lines, `tool_search`
 * arguments and recorded `{"matches"}` texts.
 *
 * Runs per property are small for CI; `HARDENING_RUNS=5000` for a long run,
 * `HARDENING_SEED` to vary.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { stringify as yamlStringify } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { runBatch } from '../../src/cli/batch.js';
import { decodeMatches, decodeToolSearchArgs, runToolSearch, ToolIndex } from '../../src/core/index.js';
import { loadQuerySet } from '../../src/jobs/eval/queries.js';
import { readCatalogDocument } from '../../src/formats/catalog.js';
import { parseText } from '../../src/io/parse.js';
import { readInputFile } from '../../src/io/read.js';
import { readTranscriptDocument } from '../../src/formats/transcript.js';
import { FORMAT_CHOICES } from '../../src/formats/recordings/registry.js';
import type { Syntax } from '../../src/io/nodes.js';
import { SuiteParser } from '../../src/jobs/suite/parse.js';
import { DEMO, expectLoads, expectNoPollution, expectTerminalSafe, inproc, ROOT, tempDir } from './helpers.js';

const RUNS = Number(process.env.HARDENING_RUNS ?? 40);
const SEED = process.env.HARDENING_SEED === undefined ? undefined : Number(process.env.HARDENING_SEED);
const params = (seed: number, runs = RUNS): fc.Parameters<unknown> => ({ numRuns: runs, seed: SEED ?? seed });

const CATALOG_FORMATS = ['auto', 'toolsearch', 'openai', 'anthropic', 'mcp', 'eino', 'request'] as const;
// Every recording format, as the registry lists them.
const TRANSCRIPT_FORMATS = FORMAT_CHOICES;
const FILES = ['in.json', 'in.yaml', 'in.jsonl', 'in.txt'] as const;
const SYNTAXES: ReadonlyArray<Syntax | undefined> = [undefined, 'json', 'yaml', 'jsonl'];

/** Every in-memory loader over `text` read as `file`. */
function everyLoader(file: string, text: string, syntax?: Syntax): void {
  const parse = () => parseText(file, text, syntax ? { syntax } : {});
  expectLoads(parse, [file]);
  for (const format of CATALOG_FORMATS) expectLoads(() => readCatalogDocument(parse(), { format }), [file]);
  expectLoads(() => readCatalogDocument(parse(), { format: 'mcp', prefix: '__proto__' }), [file]);
  for (const format of TRANSCRIPT_FORMATS) expectLoads(() => readTranscriptDocument(parse(), { format }), [file]);
  expectLoads(() => new SuiteParser(parse()).suite(), [file]);
}

function text(dir: string): Array<{ name: string; text: string }> {
  const full = join(ROOT, 'fixtures', dir);
  return readdirSync(full)
    .filter((n) => /\.(json|jsonl|yaml|yml)$/.test(n))
    .sort()
    .map((n) => ({ name: `${dir}/${n}`, text: readFileSync(join(full, n), 'utf8') }));
}

const SMALL = [
  ...text('formats/catalogs'),
  ...text('formats/transcripts'),
  ...text('suites/invalid'),
  ...text('lint'),
  ...text('hostile'),
  ...text('suites'),
].filter((f) => f.text.length < 4000);
const LARGE = [...text('catalogs'), ...text('transcripts')];
/** One small fixture per format and kind, cut at every position in CI. */
const EVERY_POSITION = [
  'formats/catalogs/ours.yaml',
  'formats/catalogs/openai-chat.json',
  'formats/catalogs/anthropic.json',
  'formats/catalogs/mcp.json',
  'formats/catalogs/eino.json',
  'formats/catalogs/request-openai.json',
  'formats/transcripts/conversation.eino.json',
  'formats/transcripts/conversation.eino.jsonl',
  'formats/transcripts/conversation.openai.json',
  'formats/transcripts/conversation.anthropic.json',
  'formats/transcripts/conversation.openai-responses.json',
  'suites/select.json',
  'suites/invalid/unknown-key.yaml',
];

// ------------------------------------------------------------------ arbitraries

const HOSTILE_STRINGS = [
  '\u001b[31m',
  '\u001b]0;t\u0007',
  '\u009b2J',
  '\u202e',
  '\u2066',
  '\u0000',
  '\u007f',
  '\r\n',
  '\ud800',
  '\udc00',
  '\ufeff',
  'x'.repeat(3000),
];
const KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'name',
  'description',
  'tools',
  'role',
  'content',
  'tool_calls',
  'type',
  'function',
  'input_schema',
  'inputSchema',
  'defer_loading',
  'static',
  'messages',
  'input',
  'cases',
  'query',
  'select',
  'catalog',
  'transcript',
  'exact',
  'first',
  'relevant',
  'matches',
  'max_results',
  'id',
  'arguments',
  'tool_call_id',
  'tool_name',
  'params',
  'desc',
  'result',
  'model',
  'system',
  'call_id',
  'output',
  'tool_use_id',
];

const hostileString = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.constantFrom(...HOSTILE_STRINGS, ...KEYS),
  fc.string({ unit: 'binary', maxLength: 12 }),
);

/** JSON-like values built from the keys the loaders look for (so generated input reaches deep into them). */
const shaped: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(null, true, false, 0, -1, 1.5, 1e300, 2 ** 53 + 2),
    hostileString,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...KEYS), tie('value'), { maxKeys: 5 }),
  ),
})).value;

/** Documents shaped like catalogs and transcripts, with hostile names. */
const catalogLike = fc.record({
  tools: fc.array(
    fc.record(
      {
        name: hostileString,
        description: hostileString,
        parameters: shaped,
        static: fc.oneof(fc.boolean(), shaped),
        type: fc.constantFrom('function', 'custom', '__proto__'),
      },
      { requiredKeys: ['name'] },
    ),
    { maxLength: 5 },
  ),
});
const transcriptLike = fc.array(
  fc.record(
    {
      role: fc.constantFrom('system', 'user', 'assistant', 'tool', 'developer', '__proto__', 'constructor'),
      content: fc.oneof(hostileString, shaped),
      tool_calls: fc.array(
        fc.record({
          id: hostileString,
          type: fc.constant('function'),
          function: fc.record({ name: hostileString, arguments: fc.oneof(hostileString, fc.json()) }),
        }),
        { maxLength: 2 },
      ),
      tool_call_id: hostileString,
      tool_name: hostileString,
    },
    { requiredKeys: ['role'] },
  ),
  { maxLength: 6 },
);
const documentLike = fc.oneof(
  shaped,
  catalogLike,
  transcriptLike,
  fc.record({ messages: transcriptLike, tools: catalogLike.map((c) => c.tools), model: fc.string() }),
);

// ------------------------------------------------------------------ properties

describe('every loader returns a value or a located InputError', () => {
  afterAll(() => expectNoPollution());

  it('random text and random bytes', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...FILES),
        fc.constantFrom(...SYNTAXES),
        fc.string({ unit: 'binary', maxLength: 300 }),
        (file, syntax, t) => everyLoader(file, t, syntax),
      ),
      params(101),
    );
  });

  it('random JSON text, and JSON with hostile keys', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('in.json', 'in.yaml'),
        fc.oneof(
          fc.json({ maxDepth: 5 }),
          documentLike.map((d) => JSON.stringify(d) ?? 'null'),
        ),
        (file, t) => everyLoader(file, t),
      ),
      params(102),
    );
  });

  it('documents shaped like catalogs, transcripts and request bodies, as JSON, YAML and JSONL', () => {
    fc.assert(
      fc.property(documentLike, fc.constantFrom('json', 'yaml', 'jsonl'), (doc, how) => {
        const t =
          how === 'yaml'
            ? yamlStringify(doc)
            : how === 'json'
              ? (JSON.stringify(doc, null, 1) ?? 'null')
              : (Array.isArray(doc) ? doc : [doc]).map((d) => JSON.stringify(d) ?? 'null').join('\n');
        everyLoader(`in.${how}`, t);
      }),
      params(103),
    );
  });

  it('fixtures mutated: cut, spliced, flipped, with escapes and CRLF', () => {
    const all = [...SMALL, ...LARGE.filter((f) => f.text.length < 60_000)];
    fc.assert(
      fc.property(
        fc.constantFrom(...all),
        fc.nat(),
        fc.nat(),
        fc.constantFrom(
          '',
          '{',
          '}',
          '[',
          ']',
          '"',
          ':',
          ',',
          '\n',
          '- ',
          '&a ',
          '*a',
          '!tag ',
          '!!binary ',
          '<<: ',
          '\u202e',
          '\u001b[31m',
          '\\u001b',
          '\ud800',
          '\ufeff',
          '\r\n',
          '\t',
          '__proto__',
          '"__proto__": 1,',
          '[[[[[[[[[[',
          '? ',
        ),
        (f, a, b, insert) => {
          const t = f.text;
          const i = t.length === 0 ? 0 : a % t.length;
          const j = t.length === 0 ? 0 : b % t.length;
          const file = f.name.replace(/^.*\//, '');
          everyLoader(file, t.slice(0, i) + insert + t.slice(i));
          everyLoader(file, t.slice(0, Math.min(i, j)) + t.slice(Math.max(i, j)));
          everyLoader(file, t.replace(/\n/g, '\r\n'));
        },
      ),
      params(104, Math.ceil(RUNS / 4)),
    );
  });

  it(
    'one fixture per format truncated at every position (all small ' +
      'fixtures with HARDENING_FULL=1); large ones at 30 positions',
    () => {
      const full = process.env.HARDENING_FULL === '1';
      const everyPosition = full ? SMALL : SMALL.filter((f) => EVERY_POSITION.includes(f.name));
      const cutAt = (f: { name: string; text: string }, i: number): void => {
        const file = f.name.replace(/^.*\//, '');
        let doc: ReturnType<typeof parseText>;
        try {
          doc = parseText(file, f.text.slice(0, i));
        } catch (err) {
          expectLoads(() => {
            throw err;
          }, [file]);
          return;
        }
        expectLoads(() => readCatalogDocument(doc), [file]);
        expectLoads(() => readTranscriptDocument(doc), [file]);
        expectLoads(() => new SuiteParser(doc).suite(), [file]);
      };
      expect(everyPosition.length).toBeGreaterThanOrEqual(EVERY_POSITION.length);
      for (const f of everyPosition) for (let i = 0; i <= f.text.length; i++) cutAt(f, i);
      for (const f of LARGE) {
        const step = Math.max(1, Math.floor(f.text.length / (full ? 1000 : 30)));
        for (let i = 0; i <= f.text.length; i += step) cutAt(f, i);
      }
    },
  );

  it('bytes from disk: invalid UTF-8, byte-order marks, NUL (readInputFile, query sets)', () => {
    const t = tempDir();
    try {
      fc.assert(
        fc.property(
          fc.uint8Array({ maxLength: 200 }),
          fc.constantFrom(...SMALL),
          fc.nat(),
          fc.boolean(),
          (bytes, f, at, bom) => {
            const base = Buffer.from(f.text, 'utf8');
            const i = at % (base.length + 1);
            const content = Buffer.concat([
              bom ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0),
              base.subarray(0, i),
              Buffer.from(bytes),
              base.subarray(i),
            ]);
            const file = t.file('in.jsonl', content);
            expectLoads(() => readInputFile(file), [file]);
            expectLoads(
              () => loadQuerySet(file).validate(new Set(['a', '__proto__']), new Set(['constructor'])),
              [file],
            );
          },
        ),
        params(105),
      );
    } finally {
      t.cleanup();
    }
  });
});

describe('tool_search arguments, recorded matches and --batch lines never throw', () => {
  const index = new ToolIndex(
    ['__proto__', 'constructor', 'toString', 'mcp__github__create_issue', 'evil\u001b[31mred'].map((name) => ({
      name,
      description: `${name} tool`,
    })),
  );
  const argText = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 80 }),
    fc.json(),
    fc
      .record(
        {
          query: fc.oneof(hostileString, shaped),
          max_results: fc.oneof(fc.integer(), fc.double(), fc.string(), shaped),
        },
        { requiredKeys: [] },
      )
      .map((o) => JSON.stringify(o)),
    fc.constantFrom(
      '{"query":"select:__proto__,constructor,toString"}',
      '{"__proto__":{"query":"x"}}',
      '{"query":"x","query":null}',
      '{"Query":"a","QUERY":"b"}',
      '\ufeff{"query":"x"}',
      `${'['.repeat(20000)}`,
      '{"query":"\\ud800"}',
    ),
  );

  it('decodeToolSearchArgs, runToolSearch and decodeMatches: a value, never an exception', () => {
    fc.assert(
      fc.property(argText, fc.uint8Array({ maxLength: 40 }), (t, bytes) => {
        for (const input of [t, Buffer.from(t), Buffer.concat([Buffer.from(t), Buffer.from(bytes)])]) {
          const d = decodeToolSearchArgs(input);
          expect(typeof d.ok).toBe('boolean');
          const r = runToolSearch(index, input, { explain: true });
          if (!r.ok) expect(r.error).toMatch(/^failed to unmarshal tool search arguments|^query is required$/);
          const m = decodeMatches(input);
          expect(m === null || Array.isArray(m)).toBe(true);
        }
      }),
      params(106, RUNS * 3),
    );
    expectNoPollution();
  });

  it('--batch: exactly one JSON object per input line, in order, whatever the lines and chunking', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(argText, fc.constant('')), { maxLength: 12 }),
        fc.uint8Array({ maxLength: 20 }),
        fc.integer({ min: 1, max: 17 }),
        async (lines, junk, chunk) => {
          const input = Buffer.concat([
            Buffer.from(lines.map((l) => l.replace(/\n/g, ' ')).join('\n')),
            Buffer.from(junk.filter((b) => b !== 0x0a)),
          ]);
          const chunks: Buffer[] = [];
          for (let i = 0; i < input.length; i += chunk) chunks.push(input.subarray(i, i + chunk));
          let out = '';
          const n = await runBatch(
            index,
            (async function* () {
              yield* chunks;
            })(),
            (s) => (out += s),
          );
          const expected =
            input.length === 0
              ? 0
              : input.toString('latin1').split('\n').length - (input[input.length - 1] === 0x0a ? 1 : 0);
          const got = out === '' ? [] : out.replace(/\n$/, '').split('\n');
          expect(n).toBe(expected);
          expect(got).toHaveLength(expected);
          for (const l of got) {
            const v = JSON.parse(l) as { matches?: unknown; error?: unknown };
            expect(Array.isArray(v.matches) || typeof v.error === 'string').toBe(true);
          }
        },
      ),
      params(107),
    );
  });
});

describe('the CLI in process, over generated documents', () => {
  it(
    'every command ends with exit 0, 1 or 2, never an internal ' +
      'error; human output stays terminal-safe; --json parses',
    async () => {
      const t = tempDir();
      try {
        await fc.assert(
          fc.asyncProperty(
            documentLike,
            fc.constantFrom('json', 'yaml', 'jsonl'),
            fc.constantFrom('search', 'select', 'simulate', 'simulate-as-catalog', 'lint', 'test', 'eval'),
            fc.boolean(),
            async (doc, how, command, json) => {
              const text =
                how === 'yaml'
                  ? yamlStringify(doc)
                  : how === 'json'
                    ? (JSON.stringify(doc) ?? 'null')
                    : (Array.isArray(doc) ? doc : [doc]).map((d) => JSON.stringify(d) ?? 'null').join('\n');
              const file = t.file(`doc.${how}`, text);
              const j = json && command !== 'test' ? ['--json'] : [];
              const argv = {
                search: ['search', '-c', file, ...j, '--', 'create', '__proto__', '\u001b[31m'],
                select: ['select', '-c', file, ...j, '--', '__proto__', 'constructor', 'x'],
                simulate: ['simulate', file, '-c', DEMO, '--replay', ...j],
                'simulate-as-catalog': [
                  'simulate',
                  join(ROOT, 'fixtures/transcripts/select-search.json'),
                  '-c',
                  file,
                  ...j,
                ],
                lint: ['lint', file, ...j],
                test: ['test', file],
                eval: ['eval', file, '-c', DEMO, '--scorers', 'spec', ...j],
              }[command];
              const r = await inproc(argv);
              expect([0, 1, 2], r.stderr).toContain(r.code);
              expect(r.stderr).not.toMatch(/internal error/);
              expectTerminalSafe(r.stderr, 'stderr');
              if (j.length > 0 && r.code !== 2) expect(() => JSON.parse(r.stdout)).not.toThrow();
              else expectTerminalSafe(r.stdout, 'stdout');
            },
          ),
          params(108, Math.ceil(RUNS / 2)),
        );
      } finally {
        t.cleanup();
      }
      expectNoPollution();
    },
  );
});
