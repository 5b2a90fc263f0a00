/** `toolsearch lint` end to end. */
import { describe, it } from 'vitest';
import { lines, run } from '../../cli/helpers.js';
import { runIn } from '../suite/inproc.js';

describe.concurrent('toolsearch lint', () => {
  it('lists the worst offenders first, then the summary', async ({ expect }) => {
    const r = await run(['lint', 'fixtures/lint/problems.yaml']);
    const out = lines(r.stdout);
    expect(out[0]).toBe('Findability of 25 dynamic tools (fixtures/lint/problems.yaml)');
    expect(out[2]).toBe('✗ fetch_page  fixtures/lint/problems.yaml:29:5  1 error, 1 warning');
    expect(out[3]).toBe('    error   case-collision: its name differs only in case from Fetch_Page');
    // Findings wrap at the width (100 when stdout is not a terminal), continuing under the rule.
    const list = out.indexOf(
      '    error   own-name-missed: the query "list" does not return it within max_results 5: it ranks 7',
    );
    expect(out[list + 1]).toBe('            with score 10; first is a_list (10)');
    const crowded = out.indexOf(
      '    error   crowded-out: the only word of its name and description does not return it within',
    );
    expect(out[crowded + 1]).toBe('            max_results 5; the closest is "get" at rank 6');
    expect(out.at(-1)).toBe('25 tools: 5 errors, 11 warnings; 11 clean');
    expect(r.code).toBe(0);
  });

  it('--strict exits 1 when a tool has an error, 0 on a clean catalog', async ({ expect }) => {
    const bad = await runIn(['lint', 'fixtures/lint/problems.yaml', '--strict']);
    expect(bad.stderr).toBe('fail: 5 errors in 5 tools (--strict)\n');
    expect(bad.code).toBe(1);
    const good = await runIn(['lint', 'fixtures/lint/clean.yaml', '--strict']);
    expect(lines(good.stdout)).toEqual([
      'Findability of 5 dynamic tools (fixtures/lint/clean.yaml; 1 static tool, never searched)',
      '',
      'Own-name query (its name parts, max_results 5) returns the tool first: 5 of 5',
      '5 tools: 0 errors, 0 warnings; 5 clean',
    ]);
    expect(good.code).toBe(0);
  });

  it('--json is the full report; -c works like the argument', async ({ expect }) => {
    const r = await runIn(['lint', '-c', 'fixtures/lint/problems.yaml', '--json']);
    const report = JSON.parse(r.stdout);
    expect(report.summary).toMatchObject({ tools: 25, errors: 5, warnings: 11 });
    expect(report.tools[0].name).toBe('fetch_page');
    expect(report.tools[0].findings[0]).toEqual({
      rule: 'case-collision',
      severity: 'error',
      message: 'its name differs only in case from Fetch_Page',
      related: ['Fetch_Page'],
      group: 0,
    });
    // A group is listed once; its members' findings point at it.
    expect(report.groups[0]).toEqual({ rule: 'case-collision', tools: ['Fetch_Page', 'fetch_page'] });
    expect(r.code).toBe(0);
  });

  it('--all also lists the clean tools', async ({ expect }) => {
    const r = await runIn(['lint', 'fixtures/lint/clean.yaml', '--all']);
    expect(r.stdout).toContain('✓ calendar__create_event  fixtures/lint/clean.yaml:9:5');
  });

  it('bad input → exit 2', async ({ expect }) => {
    const none = await runIn(['lint']);
    expect(none.stderr).toBe('error: a catalog is required: -c, --catalog <file>\n');
    expect(none.code).toBe(2);
    const missing = await runIn(['lint', 'nope.yaml']);
    expect(missing.stderr).toBe('error: nope.yaml: no such file\n');
    expect(missing.code).toBe(2);
  });
});
