/**
 * Issue 27, finding 8: aggregate counts past 2^53 − 1 are an error, never a lossy sum (a merge that was not
 * associative, and a merged file that was refused when read back); `aggregate` reads its parts under
 * `TOOLSEARCH_MAX_*`; JSON inside OTel attributes is read under the run's limits, not the defaults.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../../src/io/errors.js';
import { type Aggregate, AggregateBuilder } from '../../src/jobs/simulate/aggregate.js';
import { DEMO, ROOT, expectCleanError, spawnCli, tempDir } from './helpers.js';

const tmp = tempDir('toolsearch-aggregate-bounds-');
afterAll(() => tmp.cleanup());

const MAX = Number.MAX_SAFE_INTEGER;
let part: Aggregate;
beforeAll(async () => {
  const r = await spawnCli([
    'simulate',
    join(ROOT, 'fixtures/bulk/sessions.jsonl'),
    '-c',
    DEMO,
    '--no-tokens',
    '--json',
    '--jobs',
    '1',
  ]);
  expect(r.code, r.stderr).toBe(0);
  part = JSON.parse(r.stdout) as Aggregate;
});

const withCalls = (n: number): Aggregate => ({ ...part, model_calls: n });

describe('finding 8: counts past 2^53 − 1', () => {
  it('two parts whose sum is past it: exit 2, nothing printed; up to it, the exact sum', async () => {
    const a = tmp.file('a.json', JSON.stringify(withCalls(MAX - 5)));
    const b = tmp.file('b.json', JSON.stringify(withCalls(6)));
    const r = await spawnCli(['aggregate', a, b, '--json']);
    expect(expectCleanError(r)).toBe(
      'error: the merged count model_calls would be more than 9007199254740991 (2^53 − 1), past which counts are ' +
        'not exact: these aggregates cannot be merged',
    );
    const c = tmp.file('c.json', JSON.stringify(withCalls(5)));
    const ok = await spawnCli(['aggregate', a, c, '--json']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).model_calls).toBe(MAX);
    // The merged file reads back.
    const merged = tmp.file('merged.json', ok.stdout);
    const again = await spawnCli(['aggregate', merged, '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe(ok.stdout);
  });

  it('merging is associative: any grouping gives the same aggregate or the same error', () => {
    const merge = (...xs: Aggregate[]): Aggregate | string => {
      try {
        const b = new AggregateBuilder();
        for (const x of xs) b.merge(x);
        return b.value();
      } catch (e) {
        if (e instanceof InputError) return e.message;
        throw e;
      }
    };
    const count = fc.oneof(
      fc.nat(1000),
      fc.integer({ min: MAX - 1000, max: MAX }),
      fc.integer({ min: 2 ** 51, max: 2 ** 52 }),
    );
    fc.assert(
      fc.property(count, count, count, (x, y, z) => {
        const [a, b, c] = [withCalls(x), withCalls(y), withCalls(z)];
        const ab = merge(a, b);
        const bc = merge(b, c);
        const left = typeof ab === 'string' ? ab : merge(ab, c);
        const right = typeof bc === 'string' ? bc : merge(a, bc);
        const flat = merge(a, b, c);
        // An error as soon as the total is past the bound, whatever the grouping.
        if (x + y + z > MAX) expect(flat).toMatch(/model_calls would be more than/);
        else {
          expect(left).toEqual(flat);
          expect(right).toEqual(flat);
          expect((flat as Aggregate).model_calls).toBe(x + y + z);
        }
      }),
      { numRuns: 300, seed: 27 },
    );
  });
});

describe.concurrent('finding 8: aggregate honours TOOLSEARCH_MAX_*', () => {
  it('TOOLSEARCH_MAX_BYTES and TOOLSEARCH_MAX_DEPTH', async () => {
    const p = tmp.file('part.json', JSON.stringify(part, null, 2));
    const size = readFileSync(p).length;
    const big = await spawnCli(['aggregate', p], { env: { TOOLSEARCH_MAX_BYTES: '1000' } });
    expect(expectCleanError(big, p)).toBe(
      `error: ${p}: file too large: ${size} bytes (limit 1000; set TOOLSEARCH_MAX_BYTES to raise the limit)`,
    );
    const deep = await spawnCli(['aggregate', p], { env: { TOOLSEARCH_MAX_DEPTH: '2' } });
    expect(expectCleanError(deep, p)).toMatch(
      /nesting deeper than 2 levels \(set TOOLSEARCH_MAX_DEPTH to raise the limit\)$/,
    );
    const fine = await spawnCli(['aggregate', p, '--json']);
    expect(fine.code, fine.stderr).toBe(0);
  });

  it('JSON inside an OTel attribute is read under TOOLSEARCH_MAX_DEPTH', async () => {
    let deep: unknown = 1;
    for (let i = 0; i < 10; i++) deep = [deep];
    const attr = (key: string, v: unknown) => ({ key, value: { stringValue: JSON.stringify(v) } });
    // The document nests 10 levels; the JSON in gen_ai.output.messages 15.
    const doc = {
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                {
                  name: 'chat m',
                  startTimeUnixNano: '1',
                  attributes: [
                    attr('gen_ai.input.messages', [{ role: 'user', parts: [{ type: 'text', content: 'hi' }] }]),
                    attr('gen_ai.output.messages', [
                      {
                        role: 'assistant',
                        parts: [
                          { type: 'tool_call', id: 'c1', name: 'mcp__slack__send_message', arguments: { a: deep } },
                        ],
                      },
                    ]),
                  ],
                },
              ],
            },
          ],
        },
      ],
    };
    const file = tmp.file('deep.otel.json', JSON.stringify(doc));
    const args = ['simulate', file, '-c', DEMO, '--no-tokens'];
    const ok = await spawnCli(args, { env: { TOOLSEARCH_MAX_DEPTH: '15' } });
    expect(ok.code, ok.stderr).toBe(0);
    const r = await spawnCli(args, { env: { TOOLSEARCH_MAX_DEPTH: '14' } });
    expect(expectCleanError(r, file)).toBe(
      `error: ${file}:1:285: gen_ai.output.messages is not JSON: nesting deeper than 14 levels (set ` +
        'TOOLSEARCH_MAX_DEPTH to raise the limit) (line 1, column 121 of the text) ' +
        '(--lenient replays the rest and counts it)',
    );
  });
});
