import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ToolInfo } from '../../../src/core/types.js';
import { serializeTools } from '../../../src/jobs/tokens/serialize.js';

/** The serialization before each tool's JSON was cached: one JSON.stringify of the whole array. */
function slow(tools: readonly ToolInfo[], format: 'openai' | 'anthropic', deferLoading: boolean): string {
  if (tools.length === 0) return '';
  const defer = deferLoading ? { defer_loading: true } : {};
  return JSON.stringify(
    tools.map((t) =>
      format === 'anthropic'
        ? {
            name: t.name,
            description: t.description,
            input_schema: t.parameters ?? { type: 'object', properties: {} },
            ...defer,
          }
        : {
            type: 'function',
            function: {
              name: t.name,
              description: t.description,
              ...(t.parameters !== undefined ? { parameters: t.parameters } : {}),
            },
            ...defer,
          },
    ),
  );
}

describe('serializeTools with cached tool JSON', () => {
  it('equals one JSON.stringify of the array, for any tools, order, repeats, format and defer_loading', () => {
    const tool = fc.record(
      {
        name: fc.string(),
        description: fc.string({ unit: 'binary' }),
        parameters: fc.jsonValue().map((v) => ({ type: 'object', x: v })),
      },
      { requiredKeys: ['name', 'description'] },
    ) as fc.Arbitrary<ToolInfo>;
    fc.assert(
      fc.property(
        fc.array(tool, { maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        fc.boolean(),
        fc.boolean(),
        (pool, picks, anthropic, defer) => {
          const tools = pool.length === 0 ? [] : picks.map((i) => pool[i % pool.length]!);
          const format = anthropic ? 'anthropic' : 'openai';
          // Twice: the second call reads the cache.
          expect(serializeTools(tools, format, { deferLoading: defer })).toBe(slow(tools, format, defer));
          expect(serializeTools(tools, format, { deferLoading: defer })).toBe(slow(tools, format, defer));
          expect(serializeTools(tools, format, { deferLoading: !defer })).toBe(slow(tools, format, !defer));
        },
      ),
      { numRuns: 200 },
    );
  });
});
