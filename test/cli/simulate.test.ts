import { describe, it } from 'vitest';
import { FX, lines, run } from './helpers.js';
import { TRANSCRIPT_VARIANTS } from '../fixtures/variants.js';

const SMALL = `${FX}/small.yaml`;
const CHAT = `${FX}/chat.json`;
const DEMO = 'fixtures/catalogs/demo.yaml';
const T = 'fixtures/transcripts';

describe.concurrent('simulate', () => {
  it('shows every model call: visible count, +added, calls with ✓/✗, searches, then a summary', async ({ expect }) => {
    const r = await run(['simulate', '--no-tokens', CHAT, '-c', SMALL]);
    expect(r.stderr).toBe('');
    expect(lines(r.stdout)).toEqual([
      `simulate ${CHAT} · openai · 12 messages · mode default`,
      `catalog: 7 dynamic + 1 static tool from ${SMALL}`,
      '',
      'call 1 · 3 messages · visible 2 · reminder inserted at 1',
      '  ✓ tool_search {"query":"create issue"}',
      '      ↳ keyword: github__create_issue, linear__createIssue, github__list_issues',
      '',
      'call 2 · 5 messages · visible 5 · +github__create_issue +linear__createIssue +github__list_issues',
      '  ✓ github__create_issue {"title":"Login bug"}',
      '  ✗ slack__post_message not loaded: no tool_search result had named it',
      '',
      'call 3 · 8 messages · visible 5',
      '  ✓ tool_search {"query":"select:github__create_issue,slack__post_message"}',
      '      ↳ select: github__create_issue, slack__post_message',
      '  ! redundant-select: select: for github__create_issue, which an earlier keyword search already',
      '      returned',
      '',
      'call 4 · 10 messages · visible 6 · +slack__post_message',
      '  ✓ slack__post_message {"text":"Filed #42"}',
      '',
      'call 5 · 12 messages · visible 6',
      '  “Done: I filed issue #42 and told the team on Slack.”',
      '',
      'read: 12 of 12 items as openai, none skipped; detected by a tool message without "tool_name" (its',
      '  name comes from the call)',
      'summary: 5 model calls · 2 searches · 4 tools loaded · 1 error, 1 warning',
    ]);
    expect(r.code).toBe(0);
  });

  it('--json is the report, with the documented keys and [] for empty lists', async ({ expect }) => {
    const r = await run(['simulate', '--no-tokens', CHAT, '-c', SMALL, '--json']);
    const j = JSON.parse(r.stdout);
    expect(Object.keys(j)).toEqual([
      'schema_version',
      'mode',
      'engine',
      'transcript',
      'catalog',
      'coverage',
      'turns',
      'violations',
      'replay',
      'summary',
    ]);
    expect(j.coverage).toEqual({
      format: 'openai',
      detected_by: 'a tool message without "tool_name" (its name comes from the call)',
      items: 12,
      read: 12,
      skipped: [],
      unexplained: [],
      unpaired: [],
      search_tool: null,
      conversation: 'main',
    });
    expect(j.mode).toBe('default');
    // The reference, detected by its {"matches": [...]} results.
    expect(j.engine).toEqual({
      name: 'eino',
      by: 'recording',
      evidence: 'the result of tool_search is {"matches": [...]} (Eino\'s tool_search)',
      params: {},
    });
    expect(j.catalog).toEqual({ dynamic: 7, static: 1, source: SMALL });
    expect(j.turns).toHaveLength(5);
    const t2 = j.turns[1];
    expect(t2).toMatchObject({
      call: 2,
      message_index: 4,
      visible: ['get_time', 'tool_search', 'github__create_issue', 'linear__createIssue', 'github__list_issues'],
      deferred: [],
      added: ['github__create_issue', 'linear__createIssue', 'github__list_issues'],
      reminder_index: 1,
      tool_calls: [
        { id: 'c2', name: 'github__create_issue', arguments: '{"title":"Login bug"}', status: 'ok' },
        { id: 'c3', name: 'slack__post_message', arguments: '{"text":"Filed the login bug"}', status: 'not-loaded' },
      ],
      searches: [],
    });
    expect(j.turns[0].searches[0]).toMatchObject({
      arguments: '{"query":"create issue"}',
      recorded: { matches: ['github__create_issue', 'linear__createIssue', 'github__list_issues'] },
    });
    expect(j.violations.map((v: { call: number; tool: string; kind: string }) => [v.call, v.tool, v.kind])).toEqual([
      [2, 'slack__post_message', 'not-loaded'],
      [3, 'github__create_issue', 'redundant-select'],
    ]);
    expect(j.replay).toBe(null);
    expect(j.summary).toMatchObject({ calls: 5, searches: 2, tools_loaded: 4, errors: 1, warnings: 1 });
  });

  it('--fail-on-violation exits 1 on a violation (warnings do not count)', async ({ expect }) => {
    const r = await run(['simulate', '--no-tokens', CHAT, '-c', SMALL, '--fail-on-violation']);
    expect(r.stderr).toBe(
      'fail: 1 violation (--fail-on-violation)\n' +
        '  call 2: not-loaded: slack__post_message was called before any tool_search result named ' +
        'it (not visible at call 2)\n',
    );
    expect(r.code).toBe(1);
    const warningsOnly = await run([
      'simulate',
      '--no-tokens',
      `${T}/redundant-select.json`,
      '-c',
      DEMO,
      '--fail-on-violation',
    ]);
    expect(warningsOnly.code).toBe(0);
  });

  it('--fail-on-violation: an unknown tool', async ({ expect }) => {
    const r = await run([
      'simulate',
      '--no-tokens',
      `${T}/unknown-tool.json`,
      '-c',
      DEMO,
      '--fail-on-violation',
      '--json',
    ]);
    expect(JSON.parse(r.stdout).violations.map((v: { kind: string; tool: string }) => [v.kind, v.tool])).toEqual([
      ['unknown', 'mcp__slack__send_direct_message'],
    ]);
    expect(lines(r.stderr)[0]).toBe('fail: 1 violation (--fail-on-violation)');
    expect(r.code).toBe(1);
  });

  it('--mode native: deferred tools, and the nil-refill pitfall with no static tools', async ({ expect }) => {
    const r = await run(['simulate', '--no-tokens', `${FX}/request-body.json`, '--mode', 'native']);
    expect(lines(r.stdout)).toEqual([
      `simulate ${FX}/request-body.json · openai · 5 messages · mode native`,
      'catalog: 3 dynamic + 0 static tools carried by the transcript',
      '',
      'call 1 · 2 messages · visible 0 · deferred 3 · reminder inserted at 0',
      '  ✓ tool_search {"query":"weather forecast","max_results":1}',
      '      ↳ client-proxied keyword: weather__get_forecast',
      '',
      'call 2 · 4 messages · visible 4 · deferred 3 · tool list refilled',
      '  ✓ weather__get_forecast {"city":"Paris"}',
      '  ! native-refill: model-native mode with no static tools: call 1 offered no tools, and the',
      '      framework refilled the nil tool list, so from call 2 on tool_search and all 3 dynamic tools',
      '      are offered as ordinary tools',
      '',
      'call 3 · 6 messages · visible 4 · deferred 3',
      // The body's tools are what it sent with its call (the last): all three as ordinary tools.
      '  ! sent-differs: the recorded request did not send as visible what the reference would offer:',
      '      tool_search; did not send as deferred what the reference would defer: weather__get_forecast,',
      '      weather__get_alerts, maps__geocode',
      '  (no recorded answer: the call after the last message)',
      '',
      'read: 5 of 5 items as openai, none skipped; detected by a tool message without "tool_name" (its name',
      '  comes from the call)',
      'summary: 3 model calls · 1 search · 1 tool loaded by searches · 0 errors, 2 warnings',
    ]);
    expect(r.code).toBe(0);
  });

  it('--mode native with server-side searches (information beyond the reference state)', async ({ expect }) => {
    const r = await run(['simulate', '--no-tokens', `${T}/native-server-search.anthropic.json`, '--mode', 'native']);
    const out = lines(r.stdout);
    const call1 = out.indexOf('call 1 · 3 messages · visible 5 · deferred 125 · reminder inserted at 1');
    expect(call1).toBeGreaterThan(0);
    expect(out.slice(call1 + 1, call1 + 3)).toEqual([
      '  ⌕ server search "linear.*issue" loaded mcp__linear__list_issues, mcp__linear__get_issue,',
      '      mcp__linear__create_issue, mcp__linear__update_issue, mcp__linear__list_issue_statuses',
    ]);
    expect(out.at(-1)).toBe(
      'summary: 2 model calls · 0 searches · 1 server search · 5 tools loaded by searches · no violations',
    );
    expect(r.code).toBe(0);
  });

  it('--static makes catalog tools static', async ({ expect }) => {
    const r = await run([
      'simulate',
      '--no-tokens',
      CHAT,
      '-c',
      SMALL,
      '--static',
      'HTMLParser,fs__read_file',
      '--json',
    ]);
    const j = JSON.parse(r.stdout);
    expect(j.catalog).toMatchObject({ dynamic: 5, static: 3 });
    // Static tools keep the catalog order, then tool_search.
    expect(j.turns[0].visible).toEqual(['get_time', 'fs__read_file', 'HTMLParser', 'tool_search']);
  });

  it('--format overrides detection (a wrong format is an error at the offending message)', async ({ expect }) => {
    const ok = await run(['simulate', '--no-tokens', CHAT, '-c', SMALL, '--format', 'openai', '--json']);
    expect(JSON.parse(ok.stdout).transcript.format).toBe('openai');
    const r = await run(['simulate', '--no-tokens', CHAT, '-c', SMALL, '--format', 'anthropic']);
    expect(lines(r.stderr)[0]).toBe(
      `error: ${CHAT}:4:42: not an anthropic transcript: found "tool_calls" (OpenAI Chat or Eino), which ` +
        `anthropic transcripts do not have; the file fits openai (--format openai, or auto)`,
    );
    expect(r.stdout).toBe('');
    expect(r.code).toBe(2);
  });

  it('--replay shows recorded against replayed results and how visibility would change', async ({ expect }) => {
    const r = await run(['simulate', '--no-tokens', CHAT, '-c', `${FX}/small-v2.yaml`, '--replay']);
    expect(r.stderr).toBe('');
    const out = lines(r.stdout);
    expect(out.slice(3, 12)).toEqual([
      'call 1 · 3 messages · visible 2 · reminder inserted at 1',
      '  ✓ tool_search {"query":"create issue"}',
      '      ↳ recorded: github__create_issue, linear__createIssue, github__list_issues',
      '      ↳ replayed: github__create_issue, linear__create_ticket, github__list_issues',
      '      ≠ differs: -linear__createIssue +linear__create_ticket',
      '',
      'call 2 · 5 messages · visible 4 · +github__create_issue +github__list_issues',
      '  ✓ github__create_issue {"title":"Login bug"}',
      '  ✗ slack__post_message not loaded: no tool_search result had named it',
    ]);
    expect(out.slice(-7)).toEqual([
      '',
      'replay: 1 search returns something else today',
      '  calls 2-5 would see +linear__create_ticket',
      '',
      'read: 12 of 12 items as openai, none skipped; detected by a tool message without "tool_name" (its',
      '  name comes from the call)',
      'summary: 5 model calls · 2 searches · 3 tools loaded · 1 error, 1 warning',
    ]);
    expect(r.code).toBe(0);
  });

  it('--replay --json carries the replay section', async ({ expect }) => {
    const r = await run(['simulate', '--no-tokens', CHAT, '-c', `${FX}/small-v2.yaml`, '--replay', '--json']);
    const j = JSON.parse(r.stdout);
    expect(j.replay.differences).toBe(1);
    expect(j.replay.visibility[0]).toEqual({ call: 2, gained: ['linear__create_ticket'], lost: [] });
    expect(j.turns[0].searches[0].differs).toBe(true);
    expect(j.turns[0].searches[0].replayed).toEqual({
      matches: ['github__create_issue', 'linear__create_ticket', 'github__list_issues'],
    });
  });

  it('--expect-same exits 1 on a difference (and implies --replay)', async ({ expect }) => {
    const r = await run([
      'simulate',
      '--no-tokens',
      `${T}/stale-after-catalog-change.json`,
      '-c',
      'fixtures/catalogs/demo-v2.yaml',
      '--expect-same',
    ]);
    expect(r.stdout).toContain('≠ differs: -mcp__filesystem__read_file +mcp__filesystem__read_text_file');
    expect(lines(r.stderr)).toEqual([
      'fail: 2 recorded searches differ from a fresh run (--expect-same)',
      '  call 1: tool_search {"query":"read file"}: -mcp__filesystem__read_file +mcp__filesystem__read_text_file',
      '  call 3: tool_search {"query":"slack send message"}: -mcp__slack__send_message +mcp__slack__post_message',
      '  calls 2-3 would see: +mcp__filesystem__read_text_file',
      '  calls 4-5 would see: +mcp__filesystem__read_text_file +mcp__slack__post_message',
    ]);
    expect(r.code).toBe(1);
  });

  it('--expect-same passes when nothing changed', async ({ expect }) => {
    const r = await run([
      'simulate',
      '--no-tokens',
      `${T}/stale-after-catalog-change.json`,
      '-c',
      DEMO,
      '--expect-same',
    ]);
    expect(r.stderr).toBe('');
    expect(lines(r.stdout).at(-5)).toBe('replay: every recorded search returns the same today');
    expect(r.code).toBe(0);
  });

  it('--expect-same and --fail-on-violation together', async ({ expect }) => {
    const r = await run([
      'simulate',
      '--no-tokens',
      CHAT,
      '-c',
      `${FX}/small-v2.yaml`,
      '--expect-same',
      '--fail-on-violation',
      '--json',
    ]);
    expect(lines(r.stderr)[0]).toBe(
      'fail: 1 recorded search differs from a fresh run (--expect-same); 1 violation (--fail-on-violation)',
    );
    expect(r.code).toBe(1);
  });

  it('a request body carries its own tools: no -c needed (README quick start)', async ({ expect }) => {
    const r = await run(['simulate', '--no-tokens', `${T}/keyword-search-then-call.openai.json`]);
    expect(r.stderr).toBe('');
    const out = lines(r.stdout);
    expect(out.slice(0, 3)).toEqual([
      `simulate ${T}/keyword-search-then-call.openai.json · openai · 9 messages`,
      '  · mode default',
      'catalog: 125 dynamic + 5 static tools carried by the transcript',
    ]);
    // It sent every tool, the dynamic ones deferred (model-native style): default mode says so at its call.
    expect(out.filter((l) => l.startsWith('  ! '))).toEqual([
      '  ! sent-differs: the recorded request did not send as visible what the reference would offer:',
    ]);
    expect(out.at(-1)).toBe('summary: 4 model calls · 1 search · 5 tools loaded · 0 errors, 1 warning');
    expect(r.code).toBe(0);
  });

  it('no catalog and no tools in the transcript is bad input', async ({ expect }) => {
    const r = await run(['simulate', '--no-tokens', CHAT]);
    expect(r.stderr).toBe(
      `error: ${CHAT}: no catalog: pass -c/--catalog, or a transcript that ` +
        `carries its own tools (a logged request body with "tools")\n`,
    );
    expect(r.code).toBe(2);
  });

  it('--static naming a tool that is not in the catalog is bad input', async ({ expect }) => {
    const r = await run(['simulate', '--no-tokens', CHAT, '-c', SMALL, '--static', 'nope']);
    expect(r.stderr).toBe('error: --static names a tool that is not in the catalog: "nope"\n');
    expect(r.code).toBe(2);
  });

  it(
    'an unknown call id is an error (exit 2) at the result; with --lenient a ' +
      'warning on stderr and in the report, and the run goes on',
    async ({ expect }) => {
      const [strict, r] = await Promise.all([
        run(['simulate', '--no-tokens', `${FX}/orphan-result.json`, '-c', SMALL]),
        run(['simulate', '--no-tokens', `${FX}/orphan-result.json`, '-c', SMALL, '--lenient']),
      ]);
      expect(lines(strict.stderr)[0]).toBe(
        `error: ${FX}/orphan-result.json:3:3: tool result for unknown call id "nope": no ` +
          `earlier tool call has this id (--lenient replays the rest and counts it)`,
      );
      expect(strict.stdout).toBe('');
      expect(strict.code).toBe(2);
      expect(r.stderr).toBe(`warning: ${FX}/orphan-result.json:3:3: tool result for unknown call id "nope"\n`);
      expect(lines(r.stdout).slice(3)).toEqual([
        'call 1 · 3 messages · visible 2 · reminder inserted at 0',
        '  ! unknown-call-id: tool result for unknown call id "nope" at',
        `      ${FX}/orphan-result.json:3:3: no earlier tool call has this id`,
        '  “hello”',
        '',
        'read: 3 of 3 items as openai, none skipped; detected by a tool message without "tool_name" (its name',
        '  comes from the call)',
        '! 1 unpaired call or result (--lenient): the replay is partial',
        `  ${FX}/orphan-result.json:3:3: tool result for unknown call id "nope"`,
        'summary: 1 model call · 0 searches · 0 tools loaded · 0 errors, 1 warning',
      ]);
      expect(r.code).toBe(0);
    },
  );

  it('--json: a tool result for an unknown call id is an unknown-call-id warning located at the message', async ({
    expect,
  }) => {
    const file = 'fixtures/formats/transcripts/unknown-call-id.openai.json';
    const r = await run(['simulate', '--no-tokens', file, '-c', DEMO, '--json', '--lenient']);
    const j = JSON.parse(r.stdout);
    expect(j.violations.filter((v: { kind: string }) => v.kind === 'unknown-call-id')).toEqual([
      {
        call: 2,
        tool: null,
        kind: 'unknown-call-id',
        severity: 'warning',
        message: `tool result for unknown call id "call_404" at ${file}:4:3: no earlier tool call has this id`,
        message_index: 2,
        location: { file, line: 4, column: 3 },
      },
    ]);
    expect(j.summary.warnings).toBe(1);
    expect(j.coverage.unpaired).toEqual([
      { location: `${file}:4:3`, message: 'tool result for unknown call id "call_404"' },
    ]);
    expect(r.stderr).toBe(`warning: ${file}:4:3: tool result for unknown call id "call_404"\n`);
  });

  it('the same conversation in every transcript format yields the same turns', async ({ expect }) => {
    const files = ['json', 'jsonl', 'openai.json', 'openai-responses.json', 'anthropic.json'].map(
      (x) => `${T}/deferred-tool-called-too-early.${x}`,
    );
    const results = await Promise.all(files.map((f) => run(['simulate', '--no-tokens', f, '-c', DEMO, '--json'])));
    const turns = results.map((r, i) => {
      const j = JSON.parse(r.stdout);
      // Request bodies (the last three) also say what they sent: one sent-differs at their last call.
      const sent = j.violations.filter((v: { kind: string }) => v.kind === 'sent-differs');
      expect(sent.map((v: { call: number }) => v.call)).toEqual(i >= 2 ? [j.turns.length] : []);
      return {
        turns: j.turns.map((t: Record<string, unknown>) => ({ ...t, assistant_text: undefined })),
        violations: j.violations.filter((v: { kind: string }) => v.kind !== 'sent-differs'),
        summary: { ...j.summary, warnings: j.summary.warnings - sent.length },
      };
    });
    for (const t of turns.slice(1)) expect(t).toEqual(turns[0]);
    expect(turns[0]!.violations.map((v: { kind: string; call: number }) => [v.kind, v.call])).toEqual([
      ['not-loaded', 2],
    ]);
  });
  it(
    'a forced --format that does not fit is refused at ' +
      'file:line:column, naming what was found and which format fits',
    async ({ expect }) => {
      const file = `${T}/keyword-search-then-call.anthropic.json`;
      const r = await run(['simulate', '--no-tokens', file, '--format', 'openai-responses']);
      expect(lines(r.stderr)[0]).toBe(
        `error: ${file}:4:3: not an openai-responses transcript: found a top-level "system" (Anthropic Messages), ` +
          `which openai-responses transcripts do not have; the file fits anthropic (--format anthropic, or auto)`,
      );
      expect(r.stdout).toBe('');
      expect(r.code).toBe(2);
    },
  );

  // The same conversation in all five formats, read with every --format: a
  // mismatch exits 2, or (OpenAI Chat reading Eino chat messages, which loses
  // nothing) gives the very same report; never exit 0 with messages lost.
  // Eino reading an OpenAI Chat body is the reference's own reading of tool
  // messages without tool_name, and says so on stderr.
  const autoRuns = new Map<string, ReturnType<typeof run>>();
  const autoRun = (file: string): ReturnType<typeof run> => {
    if (!autoRuns.has(file)) autoRuns.set(file, run(['simulate', '--no-tokens', file, '-c', DEMO, '--json']));
    return autoRuns.get(file)!;
  };
  for (const [ext, own] of TRANSCRIPT_VARIANTS) {
    for (const forced of ['eino', 'openai', 'openai-responses', 'anthropic'] as const) {
      it(`keyword-search-then-call.${ext} (${own}) with --format ${forced}`, async ({ expect }) => {
        const file = `${T}/keyword-search-then-call.${ext}`;
        const [auto, got] = await Promise.all([
          autoRun(file),
          run(['simulate', '--no-tokens', file, '-c', DEMO, '--json', '--format', forced]),
        ]);
        expect(auto.code).toBe(0);
        const reference = JSON.parse(auto.stdout);
        if (forced === own || (forced === 'openai' && own === 'eino')) {
          expect(got.code).toBe(0);
          const j = JSON.parse(got.stdout);
          expect(j.transcript).toEqual({ ...reference.transcript, format: forced });
          expect([j.turns, j.violations, j.summary]).toEqual([
            reference.turns,
            reference.violations,
            reference.summary,
          ]);
        } else if (forced === 'eino' && own === 'openai') {
          expect(got.code).toBe(0);
          const j = JSON.parse(got.stdout);
          expect(j.transcript.messages).toBe(reference.transcript.messages);
          const calls = (r: { turns: Array<{ tool_calls: Array<{ id: string; name: string }> }> }): string[][] =>
            r.turns.map((t) => t.tool_calls.map((c) => `${c.id} ${c.name}`));
          expect(calls(j)).toEqual(calls(reference));
          expect(got.stderr).toContain(
            'tool message answers a tool_search call but has no tool_name: the ' +
              'reference does not read it as a tool_search result',
          );
        } else {
          expect(got.stdout).toBe('');
          expect(lines(got.stderr)[0]).toMatch(
            new RegExp(
              `^error: ${file.replace(/\./g, '\\.')}:\\d+:\\d+: not an ${forced} transcript: ` +
                `found .+; the file fits ${own} \\(--format ${own}, or auto\\)$`,
            ),
          );
          expect(got.code).toBe(2);
        }
      });
    }
  }

  it(
    'native mode: a tool called in the same message as the client-proxied ' +
      'tool_search that finds it is not loaded, as in default mode',
    async ({ expect }) => {
      const file = 'fixtures/formats/transcripts/search-and-call-same-message.openai.json';
      const [native, dflt] = await Promise.all([
        run(['simulate', '--no-tokens', file, '-c', DEMO, '--mode', 'native']),
        run(['simulate', '--no-tokens', file, '-c', DEMO, '--mode', 'default']),
      ]);
      for (const r of [native, dflt]) {
        expect(lines(r.stdout)).toContain(
          '  ✗ mcp__slack__send_message not loaded: no tool_search result had named it',
        );
        expect(lines(r.stdout)).toContain(
          '  ✓ mcp__slack__send_message {"channel_id":"C05ENG4242","text":"deploy done"}',
        );
        expect(r.code).toBe(0);
      }
      expect(lines(native.stdout).at(-1)).toBe(
        'summary: 3 model calls · 1 search · 5 tools loaded by searches · 1 error, 0 warnings',
      );
    },
  );

  it('native mode labels client-proxied searches; --json adds client_proxied', async ({ expect }) => {
    const file = `${T}/keyword-search-then-call.json`;
    const [human, native, dflt] = await Promise.all([
      run(['simulate', '--no-tokens', file, '-c', DEMO, '--mode', 'native']),
      run(['simulate', '--no-tokens', file, '-c', DEMO, '--mode', 'native', '--json']),
      run(['simulate', '--no-tokens', file, '-c', DEMO, '--json']),
    ]);
    const out = lines(human.stdout);
    const at = out.indexOf('  ✓ tool_search {"query":"slack send message channel"}');
    expect(out.slice(at + 1, at + 3)).toEqual([
      '      ↳ client-proxied keyword: mcp__slack__send_message, mcp__slack__get_channel_history,',
      '        mcp__slack__schedule_message, mcp__slack__search_messages, mcp__slack__list_channels',
    ]);
    expect(JSON.parse(native.stdout).turns[0].searches[0]).toMatchObject({
      call_id: 'call_1',
      mode: 'keyword',
      client_proxied: true,
    });
    expect(JSON.parse(dflt.stdout).turns[0].searches[0]).toMatchObject({
      call_id: 'call_1',
      mode: 'keyword',
      client_proxied: false,
    });
  });

  it(
    'an undecodable recorded result: {"error": raw text} in --json, ' +
      '"recorded result not decodable" in the human output',
    async ({ expect }) => {
      const file = `${T}/malformed-search-result.json`;
      const [dflt, native, replay, json] = await Promise.all([
        run(['simulate', '--no-tokens', file, '-c', DEMO]),
        run(['simulate', '--no-tokens', file, '-c', DEMO, '--mode', 'native']),
        run(['simulate', '--no-tokens', file, '-c', DEMO, '--mode', 'native', '--replay']),
        run(['simulate', '--no-tokens', file, '-c', DEMO, '--mode', 'native', '--json']),
      ]);
      const truncated = '{"matches":["mcp__github__add_issue_comment","mcp__github__create_issue","mcp__github__up…';
      expect(lines(dflt.stdout).slice(4, 8)).toEqual([
        '  ✓ tool_search {"query":"github issue"}',
        '      ↳ keyword: recorded result not decodable:',
        `        ${truncated}`,
        '        (forward selection skips it)',
      ]);
      expect(lines(native.stdout).slice(4, 7)).toEqual([
        '  ✓ tool_search {"query":"github issue"}',
        '      ↳ client-proxied keyword: recorded result not decodable:',
        `        ${truncated}`,
      ]);
      expect(lines(replay.stdout).slice(5, 7)).toEqual([
        '      ↳ client-proxied, recorded result not decodable:',
        `        ${truncated}`,
      ]);
      const recorded = JSON.parse(json.stdout).turns[0].searches[0].recorded;
      expect(Object.keys(recorded)).toEqual(['error']);
      expect(recorded.error).toMatch(/^\{"matches":\["mcp__github__add_issue_comment",/);
      expect(recorded.error).toHaveLength(96);
    },
  );

  it('says when the reminder was recognised by its text (provider logs), and not for Eino', async ({ expect }) => {
    const openai = 'fixtures/formats/transcripts/reminder-text.openai.json';
    const eino = 'fixtures/formats/transcripts/reminder-text.eino.json';
    const [human, json, einoJson] = await Promise.all([
      run(['simulate', '--no-tokens', openai, '-c', DEMO]),
      run(['simulate', '--no-tokens', openai, '-c', DEMO, '--json']),
      run(['simulate', '--no-tokens', eino, '-c', DEMO, '--json']),
    ]);
    expect(lines(human.stdout).slice(2, 6)).toEqual([
      "reminder: message 1 is taken for the middleware's reminder by its text (beyond the reference:",
      "  provider logs drop Eino's marker field)",
      '',
      'call 1 · 3 messages · visible 6',
    ]);
    const j = JSON.parse(json.stdout);
    expect(j.transcript.reminder_recognised_by_text).toBe(1);
    expect(j.turns[0]).toMatchObject({ reminder_index: 1, reminder_inserted: false, message_count: 3 });
    // Eino: the text alone is not the reminder; the middleware inserts its own, as the reference does.
    const e = JSON.parse(einoJson.stdout);
    expect(e.transcript.reminder_recognised_by_text).toBeNull();
    expect(e.turns[0]).toMatchObject({ reminder_index: 1, reminder_inserted: true, message_count: 4 });
  });
});
