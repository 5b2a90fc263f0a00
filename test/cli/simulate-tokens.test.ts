/** Token and prompt-cache accounting in `simulate` (on by default). */
import { describe, expect, it } from 'vitest';
import { ENCODINGS } from '../../src/jobs/tokens/tokenizer.js';
import { TOOL_FORMATS } from '../../src/jobs/tokens/serialize.js';
import { run } from './helpers.js';

const QUICK = 'fixtures/transcripts/keyword-search-then-call.anthropic.json';

describe.concurrent('simulate token accounting', () => {
  it('--json carries turns[].tokens, summary.tokens and summary.cache', async () => {
    const r = await run(['simulate', QUICK, '--json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(
      report.turns.map((t: { tokens: { total: number; cache: { state: string } } }) => [
        t.tokens.total,
        t.tokens.cache.state,
      ]),
    ).toEqual([
      [1740, 'cold'],
      [2199, 'break'],
      [2199, 'hit'],
      [2199, 'hit'],
    ]);
    expect(report.summary.tokens).toMatchObject({ total: 8337, all_up_front: 48820, saved: 40483 });
    expect(report.summary.cache).toMatchObject({
      breaks: 1,
      break_calls: [2],
      by_mode: { default: { breaks: 1 }, native: { breaks: 0 } },
    });
  });

  it('human output: a per-call column and a summary that says counts are estimates', async () => {
    const r = await run(['simulate', QUICK]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      'call 2 · 5 messages · visible 11 · 2,199 tok · break@2,644 · +mcp__slack__send_message',
    );
    // The summary is prose: wrapped at the width (100 when stdout is not a terminal), never cut. The
    // request body sends every tool, which default mode would defer: one sent-differs warning.
    expect(r.stdout.slice(r.stdout.indexOf('\nsummary: ') + 1)).toBe(
      [
        'summary: 4 model calls · 1 search · 5 tools loaded · 0 errors, 1 warning',
        "Tokens (estimates for o200k_base, tools serialized as OpenAI JSON; a provider's own template and",
        '  tokenizer give other exact numbers):',
        '  with tool search    8,337 (tools 3,657 + reminder 4,680) over 4 calls',
        '  all tools up front  48,820',
        '  saved               40,483 (82.9%)',
        "Prompt cache: the tools block changed at 1 of 3 later calls (call 2); a provider's prefix cache",
        '  breaks there',
        '  by mode: default 1 break, native 0 breaks',
        '',
      ].join('\n'),
    );
  });

  it('COLUMNS=50: the summary lines wrap; a figure continues under its value', async () => {
    const r = await run(['simulate', QUICK], { env: { COLUMNS: '50' } });
    expect(r.code).toBe(0);
    const out = r.stdout.split('\n');
    expect(out.slice(out.indexOf('summary: 4 model calls · 1 search · 5 tools loaded'))).toEqual([
      'summary: 4 model calls · 1 search · 5 tools loaded',
      '  · 0 errors, 1 warning',
      'Tokens (estimates for o200k_base, tools serialized',
      "  as OpenAI JSON; a provider's own template and",
      '  tokenizer give other exact numbers):',
      '  with tool search    8,337 (tools 3,657 +',
      '                      reminder 4,680) over 4 calls',
      '  all tools up front  48,820',
      '  saved               40,483 (82.9%)',
      'Prompt cache: the tools block changed at 1 of 3',
      "  later calls (call 2); a provider's prefix cache",
      '  breaks there',
      '  by mode: default 1 break, native 0 breaks',
      '',
    ]);
    for (const line of out) expect(line.length, line).toBeLessThanOrEqual(50);
  });

  it('--no-tokens leaves tokens out; --tokenizer and --tool-format are validated', async () => {
    const none = await run(['simulate', QUICK, '--json', '--no-tokens']);
    const report = JSON.parse(none.stdout);
    expect(report.turns[0].tokens).toBeUndefined();
    expect(report.summary.tokens).toBeUndefined();
    const bad = await run(['simulate', QUICK, '--tokenizer', 'nope']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      "error: option '--tokenizer <encoding>' argument 'nope' is invalid. Allowed choices are o200k_base",
    );
    const anthropic = await run([
      'simulate',
      QUICK,
      '--json',
      '--tool-format',
      'anthropic',
      '--tokenizer',
      'cl100k_base',
    ]);
    expect(JSON.parse(anthropic.stdout).summary.tokens.note).toContain('cl100k_base');
  });

  it('the command lists exactly the encodings and tool formats src/tokens supports', async () => {
    const help = await run(['simulate', '--help']);
    for (const e of ENCODINGS) expect(help.stdout).toContain(`"${e}"`);
    for (const f of TOOL_FORMATS) expect(help.stdout).toContain(`"${f}"`);
  });
});
