/**
 * Bulk replay through the built CLI: many sessions in, per-session JSON lines
 * in input order, the aggregate, exit codes, and `toolsearch aggregate`
 * merging the parts of a split run into the report of the whole run.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { workersNote } from '../../src/cli/commands/simulate-bulk.js';
import { DEMO, ROOT, run } from './helpers.js';

const SESSIONS = 'fixtures/bulk/sessions.jsonl';
const BAD = 'fixtures/bulk/some-bad-sessions.jsonl';
const tmp = mkdtempSync(join(tmpdir(), 'toolsearch-bulk-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
// Several whole processes per test: room for a loaded machine.
vi.setConfig({ testTimeout: 120_000 });
const sessionLines = readFileSync(join(ROOT, SESSIONS), 'utf8').trimEnd().split('\n');

describe('simulate over many sessions', () => {
  it('--jsonl: one object per session, in input order, the same report as simulating that session alone', async () => {
    const r = await run(['simulate', SESSIONS, '-c', DEMO, '--jsonl', '--jobs', '2', '--no-tokens']);
    expect(r.code).toBe(0);
    const out = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { source: unknown; report: { transcript: { file: string } } });
    expect(out.map((o) => o.source)).toEqual(sessionLines.map((_, i) => ({ file: SESSIONS, line: i + 1 })));
    // Session 2 alone, from its own file: the same turns and findings.
    const alone = join(tmp, 'second.json');
    writeFileSync(alone, sessionLines[1]!);
    const single = await run(['simulate', alone, '-c', DEMO, '--json', '--no-tokens']);
    expect(single.code).toBe(0);
    const expected = JSON.parse(single.stdout) as { transcript: { file: string } };
    const got = out[1]!.report;
    // The whole report, the file name aside (a line of sessions.jsonl, or a file of its own).
    expect(got.transcript.file).toBe(SESSIONS);
    expect({ ...got, transcript: { ...got.transcript, file: alone } }).toEqual(expected);
  });

  it('the aggregate is the same with 1 and 2 jobs, and from stdin', async () => {
    const [one, two, stdin] = await Promise.all([
      run(['simulate', SESSIONS, '-c', DEMO, '--json', '--jobs', '1', '--no-tokens']),
      run(['simulate', SESSIONS, '-c', DEMO, '--json', '--jobs', '2', '--no-tokens']),
      run(['simulate', '-', '-c', DEMO, '--json', '--no-tokens'], { input: readFileSync(join(ROOT, SESSIONS)) }),
    ]);
    expect([one.code, two.code, stdin.code]).toEqual([0, 0, 0]);
    expect(two.stdout).toBe(one.stdout);
    expect(stdin.stdout).toBe(one.stdout);
    const a = JSON.parse(one.stdout) as {
      sessions: unknown;
      model_calls: number;
      violations: unknown;
      coverage: unknown;
    };
    expect(a.sessions).toEqual({ replayed: 6, failed: 0, with_errors: 1, with_warnings: 4 });
    expect(a.model_calls).toBe(28);
    // The four request bodies send the whole catalog, dynamic tools deferred: sent-differs at their last call.
    expect(a.violations).toEqual({ 'not-loaded': 1, 'redundant-select': 1, 'sent-differs': 4 });
    expect(a.coverage).toEqual({
      items: 62,
      read: 62,
      unexplained: 0,
      unpaired: 0,
      skipped: {},
      formats: { anthropic: 2, eino: 2, openai: 1, 'openai-responses': 1 },
    });
  });

  it('a bad session never stops the others: they are replayed, the failures listed, exit 2', async () => {
    const r = await run(['simulate', BAD, '-c', DEMO, '--jsonl', '--no-tokens', '--jobs', '2']);
    expect(r.code).toBe(2);
    const out = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { source: { line: number }; error?: string; report?: unknown });
    expect(out.map((o) => [o.source.line, o.error === undefined])).toEqual([
      [1, true],
      [2, false],
      [3, true],
      [4, false],
      [5, true],
    ]);
    expect(out[1]!.error).toBe(
      `${BAD}:2:15: unknown role "wizard" (expected system, developer, user, assistant, tool, function)`,
    );
    // Each replayed session's line carries its own coverage (as simulate --json prints it).
    const coverage = (o: (typeof out)[number]) => (o.report as { coverage: { items: number; read: number } }).coverage;
    for (const o of [out[0]!, out[2]!, out[4]!]) expect(coverage(o).read).toBe(coverage(o).items);
    expect(out[3]!.error).toMatch(new RegExp(`^${BAD.replace(/\./g, '\\.')}:4:6: `));
    expect(r.stderr).toBe(
      `error: 2 of 5 sessions failed to read (the others were replayed); first: ${BAD}:2:15: unknown ` +
        `role "wizard" (expected system, developer, user, assistant, tool, function)\n`,
    );
    const human = await run(['simulate', BAD, '-c', DEMO, '--no-tokens']);
    expect(human.code).toBe(2);
    expect(human.stdout).toContain('sessions failed to read         2');
    expect(human.stdout).toContain(`sessions that failed to read (2)\n  ${BAD}:2:15: unknown role "wizard"`);
  });

  it('--fail-on-violation over all sessions exits 1; a missing file is a failed session', async () => {
    const r = await run(['simulate', SESSIONS, '-c', DEMO, '--no-tokens', '--fail-on-violation', '--json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('1 of 6 sessions with violations (--fail-on-violation)');
    const missing = await run([
      'simulate',
      'fixtures/transcripts/select-search.json',
      join(tmp, 'nope.json'),
      '-c',
      DEMO,
      '--no-tokens',
      '--json',
    ]);
    expect(missing.code).toBe(2);
    const a = JSON.parse(missing.stdout) as {
      sessions: { replayed: number; failed: number };
      failures: Array<{ error: string }>;
    };
    expect(a.sessions).toMatchObject({ replayed: 1, failed: 1 });
    expect(a.failures[0]!.error).toBe(`${join(tmp, 'nope.json')}: no such file`);
  });

  it('--tui with many sessions is a usage error; --json with --jsonl too', async () => {
    const tui = await run(['simulate', SESSIONS, '-c', DEMO, '--tui']);
    expect(tui.code).toBe(2);
    expect(tui.stderr).toContain('--tui steps through one session');
    const both = await run(['simulate', SESSIONS, '-c', DEMO, '--json', '--jsonl']);
    expect(both.code).toBe(2);
  });
});

describe('simulate over many sessions: --verbose says how many threads replayed', () => {
  it('this thread alone for a small input, one thread with --jobs 1, and why; nothing without --verbose', async () => {
    const small = await run(['simulate', SESSIONS, '-c', DEMO, '--json', '--no-tokens', '--jobs', '2', '--verbose']);
    expect(small.code).toBe(0);
    expect(small.stderr.trimEnd().split('\n').at(-1)).toBe(
      'note: bulk replay: this thread alone (--jobs 2): workers start once the input left would take this thread ' +
        '2 s alone even at the least it could cost',
    );
    const one = await run(['simulate', SESSIONS, '-c', DEMO, '--json', '--no-tokens', '--jobs', '1', '--verbose']);
    expect(one.stderr.trimEnd().split('\n').at(-1)).toBe('note: bulk replay: one thread (--jobs 1)');
    const stdin = await run(['simulate', '-', '-c', DEMO, '--json', '--no-tokens', '--jobs', '3', '--verbose'], {
      input: `${sessionLines.join('\n')}\n`,
    });
    expect(stdin.stderr.trimEnd().split('\n').at(-1)).toBe(
      'note: bulk replay: this thread alone (--jobs 3): workers start once this thread has replayed standard ' +
        'input alone for 2 s',
    );
    const chosen = await run(['simulate', SESSIONS, '-c', DEMO, '--json', '--no-tokens', '--verbose']);
    // The default: one job per core (this machine's count), said so rather than as a flag.
    const alone = /^note: bulk replay: this thread alone \(\d+ jobs: one per core\): workers start once/;
    const single = /^note: bulk replay: one thread \(1 job: one per core\)$/;
    const last = chosen.stderr.trimEnd().split('\n').at(-1)!;
    expect(alone.test(last) || single.test(last), last).toBe(true);
    const quiet = await run(['simulate', SESSIONS, '-c', DEMO, '--json', '--no-tokens', '--jobs', '2']);
    expect(quiet.stderr).not.toContain('bulk replay');
    expect(quiet.stdout).toBe(small.stdout);
  });

  it('names the workers it started and where in the input', () => {
    expect(workersNote(2, true, 63_511_880, { workers: 1, bytesRead: 672_629 }, 2000)).toBe(
      'bulk replay: 1 worker started 673 kB into 63.5 MB (--jobs 2)',
    );
    expect(workersNote(4, false, null, { workers: 3, bytesRead: 12_345_678 }, 2000)).toBe(
      'bulk replay: 3 workers started 12.3 MB into standard input (4 jobs: one per core)',
    );
  });
});

describe('toolsearch aggregate', () => {
  it('the parts of a split run merge into exactly the aggregate of the whole run (tokens on)', async () => {
    const first = join(tmp, 'first.jsonl');
    const rest = join(tmp, 'rest.jsonl');
    writeFileSync(first, `${sessionLines.slice(0, 2).join('\n')}\n`);
    writeFileSync(rest, `${sessionLines.slice(2).join('\n')}\n`);
    const [whole, p1, p2] = await Promise.all([
      run(['simulate', SESSIONS, '-c', DEMO, '--json']),
      run(['simulate', first, '-c', DEMO, '--json', '--jobs', '1']),
      run(['simulate', rest, '-c', DEMO, '--aggregate', join(tmp, 'p2.json'), '--jsonl']),
    ]);
    expect([whole.code, p1.code, p2.code]).toEqual([0, 0, 0]);
    writeFileSync(join(tmp, 'p1.json'), p1.stdout);
    // Parts in any order; one part may hold several aggregates, one per line.
    const merged = await run(['aggregate', join(tmp, 'p2.json'), join(tmp, 'p1.json'), '--json']);
    expect(merged.code).toBe(0);
    expect(merged.stdout).toBe(whole.stdout);
  }, 120_000);

  it("a part file of aggregates one per line merges the same; the human report equals the one run's", async () => {
    const first = join(tmp, 'first-nt.jsonl');
    const rest = join(tmp, 'rest-nt.jsonl');
    writeFileSync(first, `${sessionLines.slice(0, 4).join('\n')}\n`);
    writeFileSync(rest, `${sessionLines.slice(4).join('\n')}\n`);
    const [whole, p1, p2, wholeHuman] = await Promise.all([
      run(['simulate', SESSIONS, '-c', DEMO, '--json', '--no-tokens']),
      run(['simulate', first, '-c', DEMO, '--json', '--no-tokens']),
      run(['simulate', rest, '-c', DEMO, '--json', '--no-tokens']),
      run(['simulate', SESSIONS, '-c', DEMO, '--no-tokens']),
    ]);
    const jsonl = join(tmp, 'parts.jsonl');
    writeFileSync(jsonl, `${JSON.stringify(JSON.parse(p1.stdout))}\n${JSON.stringify(JSON.parse(p2.stdout))}\n`);
    const [fromLines, human] = await Promise.all([run(['aggregate', jsonl, '--json']), run(['aggregate', jsonl])]);
    expect(fromLines.stdout).toBe(whole.stdout);
    expect(human.stdout).toBe(wholeHuman.stdout);
  }, 120_000);

  it('the committed parts are the halves of fixtures/bulk/sessions.jsonl (they do not go stale)', async () => {
    const [parts, whole] = await Promise.all([
      run(['aggregate', 'fixtures/bulk/part-1.json', 'fixtures/bulk/part-2.json', '--json']),
      run(['simulate', SESSIONS, '-c', DEMO, '--json']),
    ]);
    expect(parts.stdout).toBe(whole.stdout);
  }, 60_000);

  it('the aggregate tallies the engine each session was replayed with (detected, or --engine)', async () => {
    const files = [
      'fixtures/engines/recordings/ai-sdk7-two-generations.json',
      'fixtures/engines/recordings/mastra-memory.json',
      'fixtures/engines/recordings/mastra-ttl.json',
      'fixtures/transcripts/accumulate-two-searches.json',
    ];
    const [detected, human, forced] = await Promise.all([
      run(['simulate', ...files, '-c', DEMO, '--json', '--no-tokens']),
      run(['simulate', ...files, '-c', DEMO, '--no-tokens']),
      run(['simulate', ...files, '-c', DEMO, '--json', '--no-tokens', '--engine', 'mastra']),
    ]);
    expect((JSON.parse(detected.stdout) as { engines: unknown }).engines).toEqual({ 'ai-sdk': 1, eino: 1, mastra: 2 });
    expect(human.stdout).toMatch(/^engines +ai-sdk 1, eino 1, mastra 2$/m);
    expect((JSON.parse(forced.stdout) as { engines: unknown }).engines).toEqual({ mastra: 4 });
    // Parts merge their tallies; a part written before the tally is refused with the reason.
    const part = join(tmp, 'engines-part.json');
    writeFileSync(part, forced.stdout);
    const merged = await run(['aggregate', part, 'fixtures/bulk/part-1.json', '--json']);
    expect((JSON.parse(merged.stdout) as { engines: unknown }).engines).toEqual({ eino: 3, mastra: 4 });
    const { engines: _, ...older } = JSON.parse(readFileSync(join(ROOT, 'fixtures/bulk/part-1.json'), 'utf8')) as {
      engines: unknown;
    };
    const old = join(tmp, 'older-part.json');
    writeFileSync(old, JSON.stringify(older));
    const refused = await run(['aggregate', old]);
    expect(refused.code).toBe(2);
    expect(refused.stderr.split('\n')[0]).toBe(
      `error: ${old}:1:1: not a toolsearch aggregate: the aggregate has no "engines" (written by a toolsearch ` +
        'older than the engine tally: simulate those sessions again)',
    );
  });

  it('a file that is not an aggregate is an error at its position, exit 2', async () => {
    const bad = join(tmp, 'bad.json');
    writeFileSync(bad, '{"kind":"toolsearch-simulate-aggregate","schema_version":1,"sessions":{"replayed":-1}}');
    const r = await run(['aggregate', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      `error: ${bad}:1:83: not a toolsearch aggregate: the ` +
        `aggregate.sessions.replayed must be a whole number ≥ 0, found -1`,
    );
    const report = await run(['aggregate', 'fixtures/transcripts/keyword-search-then-call.openai.json']);
    expect(report.code).toBe(2);
    expect(report.stderr).toContain('not a toolsearch aggregate: "kind" must be "toolsearch-simulate-aggregate"');
    const extra = join(tmp, 'extra.json');
    const part = JSON.parse(readFileSync(join(ROOT, 'fixtures/bulk/part-1.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(extra, JSON.stringify({ ...part, surprise: 1 }));
    const r2 = await run(['aggregate', extra]);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toContain('unknown field "surprise" in the aggregate');
  });
});
