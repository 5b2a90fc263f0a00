/**
 * Issue 14, finding 4: the near-linear linter gives the report the
 * quadratic one gave (test/jobs/lint/quadratic-model.ts, c63dd70) on random
 * catalogs built to collide (few name words, shared descriptions, case
 * variants, `+` and `select:` parts, long descriptions), and lists large
 * groups once instead of every pair. Speed is measured in `npm run bench`
 * (section lint), never here.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Catalog, CatalogTool } from '../../../src/formats/types.js';
import { lintCatalog, RELATED_MAX } from '../../../src/jobs/lint/lint.js';
import type { LintReport } from '../../../src/jobs/lint/types.js';
import { quadraticLint } from './quadratic-model.js';

const WORDS = ['get', 'Get', 'issue', 'create', 'list', 'select:x', '+req', 'page', 'a', 'İ', 'data-set', 'ab'];
const SENTENCES = [
  'Create an issue.',
  'List pages of data.',
  'Get the page',
  'create ISSUE',
  '',
  'issues and pages and lists',
  'İstanbul get',
];

const toolArb = fc.record({
  parts: fc.array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: 3 }),
  sep: fc.constantFrom('_', '__'),
  description: fc.oneof(
    fc.constantFrom(...SENTENCES),
    fc.array(fc.constantFrom(...SENTENCES), { maxLength: 60 }).map((s) => s.join(' ')),
  ),
  isStatic: fc.boolean().map((b) => b && Math.random() < 0.1),
});

function catalogOf(
  specs: ReadonlyArray<{ parts: string[]; sep: string; description: string; isStatic: boolean }>,
): Catalog {
  const seen = new Set<string>();
  const tools: CatalogTool[] = [];
  specs.forEach((s, i) => {
    let name = s.parts.join(s.sep) || '_';
    for (let k = 2; seen.has(name); k++) name = `${s.parts.join(s.sep) || '_'}${s.sep}${k}`;
    seen.add(name);
    tools.push({
      name,
      description: s.description,
      static: s.isStatic,
      source: { file: 'random.yaml', line: i + 1, column: 3 },
    });
  });
  return { tools, sources: [{ file: 'random.yaml' }] } as unknown as Catalog;
}

/** The report without what only the near-linear linter has (groups, and each group finding's index). */
function withoutGroups(r: LintReport): unknown {
  const { groups: _groups, ...rest } = r;
  return { ...rest, tools: r.tools.map((t) => ({ ...t, findings: t.findings.map(({ group: _g, ...f }) => f) })) };
}

describe('lint is the quadratic linter, near-linearly', () => {
  it('same report on random colliding catalogs (groups of at most RELATED_MAX + 1)', () => {
    fc.assert(
      fc.property(fc.array(toolArb, { minLength: 1, maxLength: 6 }), (specs) => {
        const catalog = catalogOf(specs);
        expect(withoutGroups(lintCatalog(catalog))).toEqual(quadraticLint(catalog));
      }),
      { numRuns: 300 },
    );
  });

  it('same ranks and reach (not the group messages) on larger random catalogs', () => {
    fc.assert(
      fc.property(fc.array(toolArb, { minLength: 1, maxLength: 40 }), (specs) => {
        const catalog = catalogOf(specs);
        const fast = lintCatalog(catalog);
        const slow = quadraticLint(catalog);
        const shape = (r: Omit<LintReport, 'groups'>) =>
          r.tools.map((t) => ({ name: t.name, own: t.own_name, reach: t.reach, rules: t.findings.map((f) => f.rule) }));
        expect(shape(fast)).toEqual(shape(slow));
        expect(fast.summary).toEqual(slow.summary);
      }),
      { numRuns: 100 },
    );
  });

  it('a group of 1,000 tools sharing a description: listed once, each finding names 5 others', () => {
    const tools = Array.from({ length: 1000 }, (_, i) => ({
      parts: [`tool${String(i).padStart(4, '0')}`],
      sep: '_',
      description: 'Does the same thing.',
      isStatic: false,
    }));
    const r = lintCatalog(catalogOf(tools));
    expect(r.groups).toEqual([{ rule: 'duplicate-description', tools: tools.map((t) => t.parts[0]) }]);
    const f = r.tools.find((t) => t.name === 'tool0000')!.findings.find((x) => x.rule === 'duplicate-description')!;
    expect(f).toEqual({
      rule: 'duplicate-description',
      severity: 'warning',
      message: 'its description is the same as that of tool0001, tool0002, tool0003, tool0004, tool0005 and 994 more',
      related: ['tool0001', 'tool0002', 'tool0003', 'tool0004', 'tool0005'],
      group: 0,
    });
    expect(f.related).toHaveLength(RELATED_MAX);
    // The report grows with the tools, not with their pairs.
    expect(JSON.stringify(r).length).toBeLessThan(1000 * 2000);
  });
});
