/**
 * Bulk replay (issue 12 §1, "coverage is in every report"): the aggregate
 * sums the readers' coverage of the replayed sessions (items read, skipped
 * by each rule, not understood), counts sessions per format, and keeps the
 * sessions that could not be read as failures; the human table shows it.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCatalogFiles } from '../../../src/formats/catalog.js';
import { parseText } from '../../../src/io/parse.js';
import { loadTranscriptFile, readTranscriptDocument } from '../../../src/formats/transcript.js';
import { coverageRows } from '../../../src/report/aggregate-text.js';
import { AggregateBuilder, mergeAggregates } from '../../../src/jobs/simulate/aggregate.js';
import { simulate } from '../../../src/jobs/simulate/engine.js';

const demo = loadCatalogFiles([fileURLToPath(new URL('../../../fixtures/catalogs/demo.yaml', import.meta.url))]);
const dir = fileURLToPath(new URL('../../../fixtures/transcripts/', import.meta.url));
const dynamic = demo.tools.filter((t) => !t.static).map((t) => t.name);
const run = (t: ReturnType<typeof loadTranscriptFile>) =>
  simulate({ transcript: t, catalog: demo, mode: 'default', replay: false });

describe('aggregate coverage', () => {
  const cc = loadTranscriptFile(`${dir}toolsearch-references.claude-code.jsonl`);
  // Lenient: the unknown key is counted, not fatal.
  const lenient = readTranscriptDocument(
    parseText(
      'x.json',
      JSON.stringify([
        { role: 'user', content: 'hi', blob: 1 },
        { role: 'assistant', content: 'hello' },
      ]),
    ),
    { lenient: true },
  );

  it('sums items, skip rules and formats; failed sessions are counted apart', () => {
    const b = new AggregateBuilder();
    b.add(run(cc), dynamic);
    b.add(run(lenient), dynamic);
    b.addFailure({ source: { file: 'bad.jsonl', line: 3 }, error: 'bad.jsonl:3:1: no known recording shape fits' });
    const a = b.value();
    expect(a.sessions.failed).toBe(1);
    expect(a.coverage).toEqual({
      items: 15 + 3,
      read: 9 + 2,
      unexplained: 1,
      unpaired: 0,
      skipped: {
        'file-history-snapshot lines (checkpoints of edited files)': 1,
        'lines off the main chain (an abandoned branch: a message edited or retried)': 1,
        "sidechain lines (a subagent's conversation; --sidechains replays each)": 2,
        'summary lines (a session title; not sent to the model)': 1,
        'system lines (local command output, compaction boundaries, notices, stream-json init: not model messages)': 1,
      },
      formats: { 'claude-code': 1, eino: 1 },
    });
    // Merging two halves gives the same sums.
    const one = new AggregateBuilder().add(run(cc), dynamic).value();
    const two = new AggregateBuilder().add(run(lenient), dynamic).value();
    expect(mergeAggregates(one, two).coverage).toEqual(new AggregateBuilder(one).merge(two).value().coverage);
    expect(mergeAggregates(one, two).coverage.skipped).toEqual(a.coverage.skipped);
  });

  it('the human table: items read, each rule, what was not understood, formats', () => {
    const b = new AggregateBuilder().add(run(cc), dynamic).add(run(lenient), dynamic);
    expect(coverageRows(b.value(), String)).toEqual([
      ['items read', '11 of 18'],
      [
        'skipped by rule',
        '1 file-history-snapshot lines (checkpoints of edited files); ' +
          '1 lines off the main chain (an abandoned branch: a message edited or retried); ' +
          "2 sidechain lines (a subagent's conversation; --sidechains replays each); " +
          '1 summary lines (a session title; not sent to the model); ' +
          '1 system lines (local command output, compaction boundaries, notices, stream-json init: not model messages)',
      ],
      ['not understood (--lenient)', '1 items, 0 unpaired calls or results'],
      ['formats', 'claude-code 1, eino 1'],
    ]);
    expect(coverageRows(new AggregateBuilder().value(), String)).toEqual([]);
  });
});
