/**
 * The visibility timeline (`details.timeline`, the rows of the HTML
 * report's timeline), row by row for the README scenarios, in both modes.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalogFiles } from '../../../src/formats/catalog.js';
import { loadTranscriptFile } from '../../../src/formats/transcript.js';
import { simulate } from '../../../src/jobs/simulate/engine.js';
import type { TimelineRow } from '../../../src/jobs/simulate/report.js';
import { withoutDetails } from '../../../src/jobs/simulate/strip.js';
import { ROOT } from '../../cli/helpers.js';

const demo = loadCatalogFiles([join(ROOT, 'fixtures/catalogs/demo.yaml')]);
const transcript = (name: string) => loadTranscriptFile(join(ROOT, 'fixtures/transcripts', name));

/** A row as a compact string per call: state, then ✓ (called) or ✗ (violation). */
function line(row: TimelineRow | undefined): string[] {
  return (row?.cells ?? []).map((c) => `${c.state}${c.called === 'ok' ? '✓' : c.called === 'violation' ? '✗' : ''}`);
}

describe('visibility timeline', () => {
  it('default mode: a deferred tool called too early, then loaded by a search and called again', () => {
    const r = simulate({
      transcript: transcript('deferred-tool-called-too-early.json'),
      catalog: demo,
      mode: 'default',
      replay: false,
      details: true,
    });
    const rows = new Map(r.details!.timeline.map((x) => [x.name, x]));
    expect(r.details!.timeline).toHaveLength(1 + 5 + 125);
    expect(r.details!.timeline.map((x) => x.kind).slice(0, 7)).toEqual([
      'tool_search',
      'static',
      'static',
      'static',
      'static',
      'static',
      'dynamic',
    ]);
    expect(line(rows.get('mcp__google_calendar__list_events'))).toEqual([
      'hidden',
      'hidden✗',
      'hidden',
      'loaded✓',
      'visible',
    ]);
    expect(line(rows.get('mcp__google_calendar__create_event'))).toEqual([
      'hidden',
      'hidden',
      'hidden',
      'loaded',
      'visible',
    ]);
    expect(line(rows.get('get_current_time'))).toEqual(['static✓', 'static', 'static', 'static', 'static']);
    expect(line(rows.get('tool_search'))).toEqual(['visible', 'visible', 'visible✓', 'visible', 'visible']);
    expect(line(rows.get('mcp__slack__send_message'))).toEqual(['hidden', 'hidden', 'hidden', 'hidden', 'hidden']);
    // Active rows: the ones a collapsed timeline keeps.
    expect(r.details!.timeline.filter((x) => x.active).map((x) => x.name)).toEqual([
      'tool_search',
      'get_current_time',
      'mcp__google_calendar__list_calendars',
      'mcp__google_calendar__list_events',
      'mcp__google_calendar__search_events',
      'mcp__google_calendar__create_event',
      'mcp__google_calendar__update_event',
    ]);
  });

  it('model-native mode: deferred until the client-proxied search result reaches the model', () => {
    const r = simulate({
      transcript: transcript('deferred-tool-called-too-early.json'),
      catalog: demo,
      mode: 'native',
      staticNames: ['get_current_time', 'think'],
      replay: false,
      details: true,
    });
    const rows = new Map(r.details!.timeline.map((x) => [x.name, x]));
    expect(line(rows.get('mcp__google_calendar__list_events'))).toEqual([
      'deferred',
      'deferred✗',
      'deferred',
      'loaded✓',
      'in-context',
    ]);
    expect(line(rows.get('mcp__google_calendar__create_event'))).toEqual([
      'deferred',
      'deferred',
      'deferred',
      'loaded',
      'in-context',
    ]);
    expect(line(rows.get('tool_search'))).toEqual(['visible', 'visible', 'visible✓', 'visible', 'visible']);
  });

  it('a tool that exists nowhere gets a row of its own', () => {
    const r = simulate({
      transcript: transcript('unknown-tool.json'),
      catalog: demo,
      mode: 'default',
      replay: false,
      details: true,
    });
    const last = r.details!.timeline[r.details!.timeline.length - 1]!;
    expect(last.name).toBe('mcp__slack__send_direct_message');
    expect(last.kind).toBe('unknown');
    expect(line(last)[1]).toBe('hidden✗');
  });

  it('the details and explanations are only there when asked for, and withoutDetails gives the plain report', () => {
    const options = {
      transcript: transcript('keyword-search-then-call.json'),
      catalog: demo,
      mode: 'default' as const,
      replay: true,
    };
    const plain = simulate(options);
    const detailed = simulate({ ...options, details: true });
    expect(plain.details).toBeUndefined();
    expect(plain.turns[0]!.searches[0]!.explain).toBeUndefined();
    expect(detailed.details!.replay_visible).toEqual(detailed.turns.map((t) => t.visible));
    expect(JSON.stringify(withoutDetails(detailed))).toBe(JSON.stringify(plain));
    const ex = detailed.turns[0]!.searches[0]!.explain!;
    expect(ex.query).toBe('slack send message channel');
    expect(ex.keywords).toEqual([
      { keyword: 'slack', required: false },
      { keyword: 'send', required: false },
      { keyword: 'message', required: false },
      { keyword: 'channel', required: false },
    ]);
    expect(ex.tools.map((t) => [t.name, t.rank])).toEqual([
      ['mcp__slack__send_message', 1],
      ['mcp__slack__get_channel_history', 2],
      ['mcp__slack__schedule_message', 3],
      ['mcp__slack__search_messages', 4],
      ['mcp__slack__list_channels', 5],
    ]);
  });
});
