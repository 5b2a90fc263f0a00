/**
 * Issue 27, finding 3 and its rule: a report's memory and output are bounded by the input and the limits, never by
 * calls × tools. A replay lists every call's visible, deferred and added tools; past `TOOLSEARCH_MAX_REPORT_BYTES`
 * (64 MiB; a name counts its UTF-8 bytes plus 8, an HTML timeline cell 128) it stops with an error at the call's
 * message, and in bulk that session is one counted failure. Before: a 3.4 MB request body (10,000 tools, one search
 * naming them all, 40,000 calls) ended in a V8 heap abort; 1 KB names × 1,000 tools × 1,200 calls in exit 70
 * "Invalid string length" with `--json` or `--html`; and in bulk `--jsonl` that session stopped the whole run with
 * exit 70 after 16 lines and no aggregate.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadRecordingText } from '../../src/formats/index.js';
import { InputError } from '../../src/io/errors.js';
import { simulate } from '../../src/jobs/simulate/index.js';
import { baseEnv, collect } from '../cli/helpers.js';
import { BIN, ROOT, expectCleanError, spawnCli, tempDir } from './helpers.js';

const tmp = tempDir('toolsearch-report-size-');
afterAll(() => tmp.cleanup());

/** An OpenAI request body: `tools` tools, one search whose result names them all, then `calls` more model calls. */
function searchAllThenTalk(tools: number, calls: number, nameLength = 0): string {
  const name = (i: number) => (nameLength > 0 ? `t${i}_`.padEnd(nameLength, 'x') : `t${i}`);
  const names = Array.from({ length: tools }, (_, i) => name(i));
  const messages: unknown[] = [
    { role: 'user', content: 'hi' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'c1',
          type: 'function',
          function: { name: 'tool_search', arguments: JSON.stringify({ query: `select:${names.join(',')}` }) },
        },
      ],
    },
    { role: 'tool', tool_call_id: 'c1', content: JSON.stringify({ matches: names }) },
  ];
  for (let i = 0; i < calls; i++) messages.push({ role: 'assistant', content: 'x' }, { role: 'user', content: 'y' });
  const defs = names.map((n) => ({ type: 'function', function: { name: n, description: 'd' } }));
  return JSON.stringify({ model: 'm', messages, tools: defs });
}

const TOO_LARGE = new RegExp(
  '^error: [^\\n]+:1:\\d+: report too large: listing the visible, deferred and added tools of calls 1 to \\d+ ' +
    'takes more than 67108864 bytes \\(limit 67108864; set TOOLSEARCH_MAX_REPORT_BYTES to raise the limit\\)$',
);

/** The built CLI under `node --max-old-space-size=400`: before the bound, the first case took 33 s to abort. */
function cliSmallHeap(args: readonly string[]) {
  return collect(
    spawn(process.execPath, ['--max-old-space-size=400', BIN, ...args], {
      cwd: ROOT,
      env: baseEnv(),
      stdio: ['pipe', 'pipe', 'pipe'],
    }),
  );
}

describe.concurrent('finding 3: a report bounded by TOOLSEARCH_MAX_REPORT_BYTES', () => {
  it('10,000 tools, one search naming them all, 40,000 calls: exit 2 at the call, in a 400 MB heap', async () => {
    const file = tmp.file('all-then-talk.json', searchAllThenTalk(10_000, 40_000));
    for (const extra of [[], ['--no-tokens', '--json']]) {
      const r = await cliSmallHeap(['simulate', file, ...extra]);
      expect(r.code, r.stderr.slice(-2000)).toBe(2);
      expect(r.stdout).toBe('');
      const errors = r.stderr.split('\n').filter((l) => l.startsWith('error:'));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(TOO_LARGE);
      expect(errors[0]).toContain(file);
    }
  }, 120_000);

  it.each([['--json'], ['--html']])(
    '1 KB names × 1,000 tools × 1,200 calls, %s: exit 2, not 70',
    async (flag) => {
      const file = tmp.file(`long-names${flag}.json`, searchAllThenTalk(1000, 1200, 1024));
      const out = join(tmp.dir, `out${flag}.html`);
      const r = await spawnCli(['simulate', file, '--no-tokens', ...(flag === '--html' ? [flag, out] : [flag])]);
      expect(expectCleanError(r, file)).toMatch(TOO_LARGE);
    },
    60_000,
  );

  it('bulk --jsonl: that session is one counted failure, every other line and the aggregate are written', async () => {
    // Every session replays against the big session's own 1,000 tools (1 KB names); the others say hello.
    const big = searchAllThenTalk(1000, 1200, 1024);
    const body = JSON.parse(big) as { tools: unknown[] };
    const catalog = tmp.file('long-names.catalog.json', JSON.stringify(body.tools));
    const hello = JSON.stringify([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
    ]);
    const good = Array.from({ length: 10 }, () => hello);
    const lines = [...good, ...good, big, ...good, ...good];
    const file = tmp.file('bulk.jsonl', `${lines.join('\n')}\n`);
    const agg = join(tmp.dir, 'agg.json');
    for (const jobs of ['1', '2']) {
      const r = await spawnCli([
        'simulate',
        file,
        '-c',
        catalog,
        '--no-tokens',
        '--jsonl',
        '--jobs',
        jobs,
        '--aggregate',
        agg,
        '--force',
      ]);
      expect(r.code, r.stderr).toBe(2);
      const out = r.stdout.trimEnd().split('\n');
      expect(out).toHaveLength(lines.length);
      const bigLine = 2 * good.length + 1;
      out.forEach((l, i) => {
        const v = JSON.parse(l) as { source: { line: number }; error?: string; report?: unknown };
        expect(v.source.line).toBe(i + 1);
        if (i + 1 === bigLine) expect(v.error).toMatch(/report too large: .*TOOLSEARCH_MAX_REPORT_BYTES/);
        else expect(v.report).toBeDefined();
      });
      const a = JSON.parse(readFileSync(agg, 'utf8')) as { sessions: { failed: number; replayed: number } };
      expect(a.sessions.failed).toBe(1);
      expect(a.sessions.replayed).toBe(lines.length - 1);
      expect(r.stderr).toMatch(/^error: 1 of \d+ sessions failed to read/m);
    }
  }, 120_000);
});

describe('the bound, exactly', () => {
  const text = searchAllThenTalk(3, 4);
  const transcript = () => loadRecordingText(text, { name: 'x.json' });

  it('a name counts its UTF-8 bytes plus 8; the error is at the message of the call that crosses it', () => {
    const run = (max: number) =>
      simulate({
        transcript: transcript(),
        catalog: null,
        mode: 'default',
        replay: false,
        limits: { maxReportBytes: max },
      });
    // call 1: [tool_search] = 19; call 2: visible [tool_search, t0, t1, t2] + added [t0, t1, t2] = 19 + 3*10 + 3*10
    // = 79 (98 in all); calls 3 to 6: 49 each.
    expect(run(98 + 4 * 49).summary.calls).toBe(6);
    let err: unknown;
    try {
      run(98 + 4 * 49 - 1);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    const e = err as InputError;
    expect(e.message).toBe(
      'report too large: listing the visible, deferred and added tools of calls 1 to 6 takes more than 293 bytes ' +
        '(limit 293; set TOOLSEARCH_MAX_REPORT_BYTES to raise the limit)',
    );
    // The 6th call is the one after the last message (user, assistant, tool, then 4 × assistant and user): there.
    expect(e.location).toEqual(transcript().locations[10]);
  });

  it('the CLI reads TOOLSEARCH_MAX_REPORT_BYTES; --replay and an HTML timeline count too', async () => {
    const file = tmp.file('small.json', text);
    const ok = await spawnCli(['simulate', file, '--no-tokens'], { env: { TOOLSEARCH_MAX_REPORT_BYTES: '294' } });
    expect(ok.code, ok.stderr).toBe(0);
    const over = await spawnCli(['simulate', file, '--no-tokens'], { env: { TOOLSEARCH_MAX_REPORT_BYTES: '293' } });
    expect(expectCleanError(over, file)).toMatch(/:1:533: report too large: .* 1 to 6 takes more than 293 bytes/);
    const replay = await spawnCli(['simulate', file, '--no-tokens', '--replay'], {
      env: { TOOLSEARCH_MAX_REPORT_BYTES: '294' },
    });
    expect(expectCleanError(replay, file)).toMatch(/report too large/);
    const html = await spawnCli(['simulate', file, '--no-tokens', '--html', join(tmp.dir, 'small.html')], {
      env: { TOOLSEARCH_MAX_REPORT_BYTES: '294' },
    });
    expect(expectCleanError(html, file)).toBe(
      `error: ${file}: report too large: the HTML report's visibility timeline of 4 tools at 6 calls, with the ` +
        'tools listed at each call, takes more than 294 bytes (limit 294; set TOOLSEARCH_MAX_REPORT_BYTES to raise ' +
        'the limit)',
    );
    const bad = await spawnCli(['simulate', file], { env: { TOOLSEARCH_MAX_REPORT_BYTES: 'lots' } });
    expect(expectCleanError(bad)).toBe('error: TOOLSEARCH_MAX_REPORT_BYTES must be a positive integer, got "lots"');
  });
});
