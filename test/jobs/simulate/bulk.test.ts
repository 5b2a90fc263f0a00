/**
 * replaySessions in-process: with worker threads (the built worker files, `npm test` builds them: tsc's
 * bulk-worker.js as the library runs it, and the CLI's one bundle) the outcomes arrive in input order and the
 * aggregate equals the main-thread run's, whatever order the workers finish in. From the sources (here) the
 * default worker file would be the .ts module, which a worker thread cannot load: the tests name the built one.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCatalogFiles } from '../../../src/formats/catalog.js';
import { resolveLimits } from '../../../src/io/read.js';
import type { SessionInput, SessionItem } from '../../../src/formats/sessions.js';
import { jitSpeedupMax, RateMeter, replaySessions, type DeliveredSession } from '../../../src/jobs/simulate/bulk.js';
import { readFileSync } from 'node:fs';

const demo = loadCatalogFiles([fileURLToPath(new URL('../../../fixtures/catalogs/demo.yaml', import.meta.url))]);
const lines = readFileSync(fileURLToPath(new URL('../../../fixtures/bulk/sessions.jsonl', import.meta.url)), 'utf8')
  .trimEnd()
  .split('\n');
const setup = {
  catalog: demo,
  mode: 'default' as const,
  replay: false,
  tokens: null,
  format: 'auto' as const,
  limits: resolveLimits(),
  lines: true,
};

/** 120 sessions: the fixture lines in a shuffled-looking order, long and short ones mixed, and some broken. */
async function* inputs(): AsyncGenerator<SessionInput> {
  for (let i = 0; i < 120; i++) {
    const source = { file: 'many.jsonl', line: i + 1 };
    if (i % 17 === 5) yield { kind: 'line', source, text: '[{"role":"wizard","content":"x"}]' };
    else if (i % 23 === 7)
      yield { kind: 'unreadable', source, error: `many.jsonl:${i + 1}: session too large (limit 1 bytes)` };
    else yield { kind: 'line', source, text: lines[(i * 7) % lines.length]! };
  }
}

const WORKER_FILES = {
  library: new URL('../../../dist/jobs/simulate/bulk-worker.js', import.meta.url),
  'CLI bundle': new URL('../../../dist/bundle/cli.cjs', import.meta.url),
};

async function replay(jobs: number, workerUrl?: URL): Promise<{ delivered: DeliveredSession[]; aggregate: unknown }> {
  const delivered: DeliveredSession[] = [];
  const options = { jobs, window: 2, start: 'now' as const, workerUrl };
  const aggregate = await replaySessions(inputs(), setup, options, (s) => delivered.push(s));
  return { delivered, aggregate };
}

describe('replaySessions', () => {
  it.each(Object.entries(WORKER_FILES))(
    'two workers (%s): input order, the same lines and aggregate as the main thread',
    async (_, url) => {
      const [one, two] = await Promise.all([replay(1), replay(2, url)]);
      expect(two.delivered.map((d) => d.source.line)).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
      expect(two.delivered).toEqual(one.delivered);
      expect(two.aggregate).toEqual(one.aggregate);
      const failed = one.delivered.filter((d) => d.failed).map((d) => d.source.line);
      expect(failed).toEqual(
        Array.from({ length: 120 }, (_, i) => i)
          .filter((i) => i % 17 === 5 || i % 23 === 7)
          .map((i) => i + 1),
      );
      expect((one.aggregate as { sessions: unknown }).sessions).toMatchObject({
        replayed: 120 - failed.length,
        failed: failed.length,
      });
    },
    60_000,
  );

  it('a few sessions are replayed in this thread: no worker starts', async () => {
    const bad = new URL('file:///nonexistent/toolsearch-worker.js');
    // Eight sessions in one chunk of lines, as a file of sessions is read.
    const text = Array.from({ length: 8 }, (_, i) => lines[i % lines.length]!).join('\n');
    const few = async function* (): AsyncGenerator<SessionItem> {
      yield { kind: 'lines', file: 'few.jsonl', firstLine: 1, bytes: new TextEncoder().encode(text) };
    };
    const delivered: number[] = [];
    const aggregate = await replaySessions(few(), setup, { jobs: 2, workerUrl: bad }, (s) =>
      delivered.push(s.source.line!),
    );
    expect(delivered).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(aggregate.sessions).toMatchObject({ replayed: 8, failed: 0 });
  });

  it('a worker that cannot start fails the run with its error (not a hang)', async () => {
    const bad = new URL('file:///nonexistent/toolsearch-worker.js');
    await expect(replaySessions(inputs(), setup, { jobs: 2, workerUrl: bad, start: 'now' }, () => {})).rejects.toThrow(
      /Cannot find module|ERR_MODULE_NOT_FOUND|nonexistent/,
    );
  }, 60_000);
});

describe('RateMeter: the floor that decides when workers start', () => {
  /** Windows of 100 ms of CPU time at these costs (ms per kB), as items of 10 ms each; the floor after each. */
  function feed(meter: RateMeter, costs: readonly number[]): Array<number | null> {
    const seen: Array<number | null> = [];
    for (const c of costs) {
      for (let i = 0; i < 10; i++) meter.add(10, (10 / c) * 1024);
      const f = meter.floor();
      seen.push(f === null ? null : Math.round(f * 1024 * 10_000) / 10_000);
    }
    return seen;
  }

  it('from the third window on: the fastest of the last three at a tenth of its cost in the first second', () => {
    // Node 20 on the bench's sessions (issue 27): 10× the warm cost at first, 0.085 ms per kB once warm. The
    // tenth window ends 1 s in: from then on a third of the cost.
    const curve = [1.1, 0.67, 0.6, 0.32, 0.23, 0.17, 0.127, 0.123, 0.111, 0.103, 0.083];
    expect(feed(new RateMeter(), curve)).toEqual([
      null,
      null,
      0.06,
      0.032,
      0.023,
      0.017,
      0.0127,
      0.0123,
      0.0111,
      0.0343,
      0.0277,
    ]);
    // A plateau while the JIT warms (0.585, 0.575, 0.595 ms per kB, 570 ms in: what started a worker at 3,000
    // sessions under a rule that took agreeing windows as settled) gives a floor of 0.0575, not 0.575.
    expect(feed(new RateMeter(), [0.585, 0.575, 0.595])).toEqual([null, null, 0.0575]);
    // One slow window (a collection) does not raise it.
    expect(feed(new RateMeter(), [0.3, 0.3, 0.9])).toEqual([null, null, 0.03]);
  });

  it('allows the JIT 10× in the first second of replay, 3× in the second, 2× after', () => {
    expect([0, 999.9, 1000, 1999.9, 2000, 60_000].map(jitSpeedupMax)).toEqual([10, 10, 3, 3, 2, 2]);
    // 0.0203 ms per kB from the bundled recordings' replay, 2.2 s in: half of it, no longer a tenth.
    const m = new RateMeter();
    feed(
      m,
      Array.from({ length: 22 }, () => 0.0203),
    );
    expect(m.floor()! * 1024).toBeCloseTo(0.01015, 12);
  });

  it('is no floor before three windows; the items of a window add up; an item of no size counts its time', () => {
    const m = new RateMeter();
    for (let i = 0; i < 29; i++) m.add(10, 1024); // 290 ms: two windows and a part
    expect(m.floor()).toBeNull();
    m.add(10, 1024);
    expect(m.floor()).toBeCloseTo(1 / 1024, 12); // 10 ms per kB, at a tenth
    m.add(500, 0); // an unreadable file: its time, and no bytes
    m.add(0, 1024);
    expect(m.floor()).toBeCloseTo(1 / 1024, 12); // the last three windows: 10, 10 and 500 ms per kB
  });
});
