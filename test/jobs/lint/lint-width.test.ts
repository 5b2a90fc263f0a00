/**
 * The human report of `toolsearch lint` fits the width like search and
 * simulate (COLUMNS, else the terminal's width, else 100): prose wraps under
 * its message, a name wider than a line is cut with `…`.
 */
import { describe, expect, it } from 'vitest';
import { displayWidth } from '../../../src/render/width.js';
import { lines } from '../../cli/helpers.js';
import { runIn } from '../suite/inproc.js';

const HOSTILE = 'fixtures/hostile/escapes.catalog.json';

describe('lint: human output fits the width', () => {
  it.each([
    [{}, 100],
    [{ COLUMNS: '60' }, 60],
    [{ COLUMNS: '40' }, 40],
  ] as const)('long names and descriptions, %j: every line at most %i columns', async (env, width) => {
    const r = await runIn(['lint', '-c', HOSTILE, '--all'], env);
    expect(r.code).toBe(0);
    const out = lines(r.stdout);
    for (const line of out) expect(displayWidth(line), line).toBeLessThanOrEqual(width);
    // Nothing is lost but the cut names: the summary is whole.
    expect(out.at(-1)).toBe('11 tools: 0 errors, 5 warnings; 6 clean');
  });

  it('a 600-character name is cut at the width; its location moves to the next line', async () => {
    const out = lines((await runIn(['lint', '-c', HOSTILE])).stdout);
    const at = out.findIndex((l) => l.startsWith('! long_xxx'));
    expect(out[at]).toBe(`! long_${'x'.repeat(92)}…`);
    expect(out[at + 1]).toBe('    fixtures/hostile/escapes.catalog.json:19:5  1 warning');
  });

  it('a finding wraps under its message; the own-name line under its text', async () => {
    const out = lines((await runIn(['lint', 'fixtures/lint/problems.yaml'])).stdout);
    const at = out.indexOf('✗ list  fixtures/lint/problems.yaml:13:5  1 error');
    expect(out.slice(at, at + 5)).toEqual([
      '✗ list  fixtures/lint/problems.yaml:13:5  1 error',
      '    error   own-name-missed: the query "list" does not return it within max_results 5: it ranks 7',
      '            with score 10; first is a_list (10)',
      '    own name "list": rank 7 (not returned); 3 of 4 single words reach it in the top 5: once (1),',
      '      everything (2), at (4); 4 reach it at all, list (7) only beyond the top 5',
    ]);
    expect(out[0]).toBe('Findability of 25 dynamic tools (fixtures/lint/problems.yaml)');
  });

  it('COLUMNS=40: the header and the summary wrap too', async () => {
    const out = lines((await runIn(['lint', 'fixtures/lint/problems.yaml'], { COLUMNS: '40' })).stdout);
    expect(out.slice(0, 6)).toEqual([
      'Findability of 25 dynamic tools',
      '  (fixtures/lint/problems.yaml)',
      '',
      '✗ fetch_page',
      '    fixtures/lint/problems.yaml:29:5',
      '    1 error, 1 warning',
    ]);
    expect(out.slice(-16)).toEqual([
      'Own-name query (its name parts,',
      '  max_results 5) returns the tool first:',
      '  21 of 25',
      // A rule and its count stay together.
      'Findings by rule: own-name-missed 1,',
      '  crowded-out 1, no-name-parts 1,',
      '  case-collision 2,',
      '  own-name-not-first 2,',
      '  identical-name-parts 2,',
      '  empty-name-pieces 1,',
      '  giant-name-part 1,',
      '  unsplit-separator 1,',
      '  empty-description 1,',
      '  duplicate-description 2,',
      '  long-description 1',
      '25 tools: 5 errors, 11 warnings; 11',
      '  clean',
    ]);
  });
});
