/** `--update`: only the `exact` values change; comments, style and the rest of the file stay byte for byte. */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../../src/io/atomic.js';
import { runSuites } from '../../../src/jobs/suite/run.js';
import { applyExactUpdates } from '../../../src/jobs/suite/update.js';

describe('applyExactUpdates', () => {
  const yaml = [
    '# top comment',
    'cases:',
    '  - name: block   # keep me',
    '    query: a',
    '    exact:',
    '      - old_one   # goes with the old list',
    '      - old_two',
    '    record: true',
    '  - name: flow',
    '    exact: [x, y]',
    '  - name: none yet',
    '    query: b',
    '  - {name: flow map, query: c}',
    '  - name: block scalar last',
    '    query: |',
    '      multi',
    '  # trailing comment',
    '',
  ].join('\n');

  it('replaces block and flow lists in their own style, adds missing ones, keeps everything else', () => {
    const out = applyExactUpdates(
      yaml,
      [
        { index: 0, exact: ['n1', 'n2'] },
        { index: 1, exact: ['z'] },
        { index: 2, exact: ['p', 'q'] },
        { index: 3, exact: ['needs: quotes', 'true'] },
        { index: 4, exact: [] },
      ],
      'yaml',
    );
    expect(out).toBe(
      [
        '# top comment',
        'cases:',
        '  - name: block   # keep me',
        '    query: a',
        '    exact:',
        '      - n1',
        '      - n2',
        '    record: true',
        '  - name: flow',
        '    exact: [z]',
        '  - name: none yet',
        '    query: b',
        '    exact:',
        '      - p',
        '      - q',
        '  - {name: flow map, query: c, exact: ["needs: quotes", "true"]}',
        '  - name: block scalar last',
        '    query: |',
        '      multi',
        '    exact: []',
        '  # trailing comment',
        '',
      ].join('\n'),
    );
  });

  it('writes an empty result as [] and keeps CRLF line ends', () => {
    const crlf = 'cases:\r\n  - name: a\r\n    query: x\r\n    exact:\r\n      - old\r\n';
    expect(applyExactUpdates(crlf, [{ index: 0, exact: [] }], 'yaml')).toBe(
      'cases:\r\n  - name: a\r\n    query: x\r\n    exact: []\r\n',
    );
    expect(applyExactUpdates('cases:\r\n  - name: a\r\n    query: x\r\n', [{ index: 0, exact: ['t'] }], 'yaml')).toBe(
      'cases:\r\n  - name: a\r\n    query: x\r\n    exact:\r\n      - t\r\n',
    );
  });

  it('updates JSON suites as JSON', () => {
    const json =
      '{\n  "cases": [\n    {\n      "name": "a",\n      "query": "x"\n    },\n' +
      '    {"name": "b", "query": "y", "exact": ["old"]}\n  ]\n}\n';
    const out = applyExactUpdates(
      json,
      [
        { index: 0, exact: ['t1', 't"2'] },
        { index: 1, exact: [] },
      ],
      'json',
    );
    expect(out).toBe(
      '{\n  "cases": [\n    {\n      "name": "a",\n      "query": "x",\n' +
        '      "exact": ["t1", "t\\"2"]\n    },\n    {"name": "b", "query": "y", "exact": []}\n  ]\n}\n',
    );
    expect(JSON.parse(out).cases[0].exact).toEqual(['t1', 't"2']);
  });
});

describe('test --update through the runner', () => {
  it('rewrites only the record: true cases, atomically, and the suite then passes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolsearch-update-'));
    const cat = join(dir, 'demo.yaml');
    copyFileSync('fixtures/catalogs/demo.yaml', cat);
    const file = join(dir, 'suite.yaml');
    const original = [
      '# recorded results',
      'catalog: demo.yaml',
      'cases:',
      '  - name: stale recording   # a comment',
      '    query: read file',
      '    max_results: 2',
      '    record: true',
      '    exact: [mcp__filesystem__renamed_tool]',
      '  - name: not recorded',
      '    query: read file',
      '    max_results: 2',
      '    exact: [mcp__filesystem__read_file]',
      '  - name: never recorded yet',
      '    query: pdf',
      '    record: true',
      '',
    ].join('\n');
    writeFileSync(file, original);

    const before = runSuites([file]).report;
    expect(before.suites[0]!.cases.map((c) => [c.status, c.failures.map((f) => f.expectation)])).toEqual([
      ['failed', ['exact']],
      ['failed', ['exact']],
      ['failed', ['record']],
    ]);
    expect(readFileSync(file, 'utf8')).toBe(original);

    const run = runSuites([file], { update: true });
    const upd = run.report;
    // The engine writes nothing: it returns the new text, which the CLI writes (writeFileAtomic).
    expect(readFileSync(file, 'utf8')).toBe(original);
    expect(run.rewrites.map((r) => r.file)).toEqual([file]);
    for (const r of run.rewrites) writeFileAtomic(r.file, r.text);
    expect(upd.summary).toMatchObject({ passed: 2, failed: 1, updated: 2 });
    expect(upd.suites[0]!.updated).toBe(true);
    expect(upd.suites[0]!.cases.map((c) => c.updated)).toEqual([true, false, true]);
    expect(readFileSync(file, 'utf8')).toBe(
      original
        .replace(
          '    exact: [mcp__filesystem__renamed_tool]',
          '    exact: [mcp__filesystem__read_file, mcp__gdrive__gdrive_read_file]',
        )
        .replace(
          '    query: pdf\n    record: true\n',
          '    query: pdf\n    record: true\n    exact:\n      - mcp__webtools__extractPDFText\n',
        ),
    );
    // No temporary file is left behind.
    expect(readdirSync(dir).sort()).toEqual(['demo.yaml', 'suite.yaml']);

    // A second update changes nothing.
    const twice = runSuites([file], { update: true });
    expect(twice.rewrites).toEqual([]);
    const again = twice.report;
    expect(again.summary.updated).toBe(0);
    expect(again.suites[0]!.updated).toBe(false);
  });
});
