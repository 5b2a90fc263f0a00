import { describe, expect, test } from 'vitest';
import {
  callMarks,
  callMessages,
  callSummary,
  paramRows,
  toolHistory,
  toolKind,
  toolRows,
} from '../../src/tui/stepper/model.js';
import { stepperInputs } from '../../src/tui/stepper/run.js';
import { simulationTools } from '../../src/jobs/simulate/engine.js';
import { CATALOG, TRANSCRIPT, report } from './fixture.js';

const inputs = stepperInputs(TRANSCRIPT, simulationTools({ transcript: TRANSCRIPT, catalog: CATALOG }));

describe('call list', () => {
  const r = report();
  test('each call says what the assistant did', () => {
    expect(r.turns.map(callSummary)).toEqual([
      'search "slack message"',
      'slack__post_message',
      'github__merge_pull_request',
      '"Posted to #general. I could not merge PR 42.\x1b[31m"', // escaped when drawn, not here
    ]);
  });
  test('the call of a deferred tool that no search named is marked as an error', () => {
    expect(r.turns.map((t) => callMarks(r, t).errors)).toEqual([0, 0, 1, 0]);
  });
  test('with replay, calls whose searches or visibility would change are marked', () => {
    const rr = report('default', true);
    // "slack message" now also returns slack__add_reaction (its description has "message").
    expect(rr.turns.map((t) => callMarks(rr, t).replayDiffers)).toEqual([true, true, true, true]);
    expect(r.turns.map((t) => callMarks(r, t).replayDiffers)).toEqual([false, false, false, false]);
  });
});

describe('tool rows', () => {
  test('visible tools in the state order; forward selection marks the added ones', () => {
    const r = report();
    expect(toolRows(r, 0, '').map((x) => x.name)).toEqual(['get_current_time', 'tool_search']);
    const call2 = toolRows(r, 1, '');
    expect(call2.map((x) => [x.name, x.added])).toEqual([
      ['get_current_time', false],
      ['tool_search', false],
      ['slack__post_message', true],
      ['slack__list_channels', true],
    ]);
    expect(toolRows(r, 2, '').filter((x) => x.added)).toEqual([]); // added only at the call that adds them
  });
  test('native mode lists the deferred tools after the visible ones', () => {
    const rows = toolRows(report('native'), 0, '');
    expect(rows.filter((x) => x.section === 'visible').map((x) => x.name)).toEqual(['get_current_time']);
    expect(rows.filter((x) => x.section === 'deferred')).toHaveLength(7);
  });
  test('native mode marks the deferred tools a search has loaded (from the call after a client-proxied search)', () => {
    const r = report('native');
    expect(toolRows(r, 0, '').filter((x) => x.loaded)).toEqual([]);
    expect(
      toolRows(r, 1, '')
        .filter((x) => x.loaded)
        .map((x) => x.name),
    ).toEqual(['slack__post_message', 'slack__list_channels']);
  });
  test('replay adds the tools a fresh search would load', () => {
    const rows = toolRows(report('default', true), 1, '');
    expect(rows.filter((x) => x.section === 'gained').map((x) => x.name)).toEqual(['slack__add_reaction']);
  });
  test('the filter is a case-insensitive substring of the name', () => {
    expect(toolRows(report(), 1, 'SLACK').map((x) => x.name)).toEqual(['slack__post_message', 'slack__list_channels']);
    expect(toolRows(report(), 1, 'zzz')).toEqual([]);
  });
  test('kinds', () => {
    expect(['get_current_time', 'tool_search', 'slack__post_message', 'nope'].map((n) => toolKind(inputs, n))).toEqual([
      'static',
      'search',
      'dynamic',
      'unknown',
    ]);
  });
});

describe('messages of a call', () => {
  test(
    'call 1 receives the transcript up to its answer, with the ' +
      'reminder inserted before the first non-system message',
    () => {
      const r = report();
      const entries = callMessages(inputs, r.turns[0]!);
      expect(entries.map((e) => [e.index, e.message.role, e.reminder, e.answer])).toEqual([
        [0, 'system', false, false],
        [null, 'user', true, false],
        [1, 'user', false, false],
        [2, 'assistant', false, true],
      ]);
      expect(entries.filter((e) => !e.answer)).toHaveLength(r.turns[0]!.message_count);
    },
  );
  test('later calls keep the reminder where it was inserted', () => {
    const r = report();
    const entries = callMessages(inputs, r.turns[2]!);
    expect(entries[1]!.reminder).toBe(true);
    expect(entries.filter((e) => !e.answer)).toHaveLength(r.turns[2]!.message_count);
  });
});

describe('tool history', () => {
  test('which search loaded a tool, and when', () => {
    const h = toolHistory(report(), 'slack__post_message');
    expect(h).toEqual({
      firstVisible: 2,
      addedAt: 2,
      loadedBy: { call: 1, query: 'slack message', server: false },
      calls: [{ call: 2, status: 'ok' }],
    });
  });
  test('a tool called too early', () => {
    const h = toolHistory(report(), 'github__merge_pull_request');
    expect(h).toEqual({
      firstVisible: null,
      addedAt: null,
      loadedBy: null,
      calls: [{ call: 3, status: 'not-loaded' }],
    });
  });
});

describe('parameters', () => {
  test('top-level properties with type, required and description', () => {
    expect(paramRows(CATALOG.tools[1]!.parameters)).toEqual([
      { name: 'channel', type: 'string', required: true, description: 'Channel id' },
      { name: 'text', type: 'string', required: true, description: 'Message text' },
    ]);
  });
  test('arrays, enums, unions; other shapes are not rows', () => {
    const schema = {
      type: 'object',
      properties: {
        tags: { type: 'array', items: { type: 'string' } },
        state: { type: 'string', enum: ['open', 'closed'] },
        id: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
      },
    };
    expect(paramRows(schema)!.map((p) => p.type)).toEqual([
      'array<string>',
      'string "open"|"closed"',
      'string|integer',
    ]);
    expect(paramRows(undefined)).toBeNull();
    expect(paramRows({ type: 'string' })).toBeNull();
  });
  test('property names that are Object.prototype keys are ordinary', () => {
    const schema = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string"},"constructor":{"type":"number"}}}',
    );
    expect(paramRows(schema)!.map((p) => p.name)).toEqual(['__proto__', 'constructor']);
  });
});
