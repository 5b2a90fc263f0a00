/**
 * OpenAI Agents Python SDK RunState (issue 28): `RunState.to_json()` as the SDK writes it. No npm
 * writer: the fixtures are files of the SDK's own compatibility corpus, written by its historical
 * writers (openai/openai-agents-python tests/fixtures/run_state, commit
 * 7f7a44f8dc0650296bd5ab6c745c9bcbaa6ac3b7; fixtures/recordings/openai-agents-python/README.md).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadCatalogFiles } from '../../../src/formats/catalog.js';
import { loadRecordingText } from '../../../src/formats/from-text.js';
import { loadTranscriptFile } from '../../../src/formats/transcript.js';
import type { Transcript } from '../../../src/formats/types.js';
import { simulate } from '../../../src/jobs/simulate/engine.js';
import { RECORDINGS } from './helpers.js';

const dir = `${RECORDINGS}openai-agents-python/`;
const catalog = loadCatalogFiles([`${dir}compat.catalog.yaml`]);
const run = (t: Transcript) => simulate({ transcript: t, catalog, mode: 'default', replay: false });
const calls = (t: Transcript) =>
  run(t).turns.map((turn) => ({
    calls: turn.tool_calls.map((c) => `${c.id}:${c.name}:${c.status}`),
    provider: turn.provider_calls.map((p) => `${p.id}:${p.type}:${p.executed_by}:${p.arguments}`),
    server: turn.server_searches.map((s) => `${s.query}:${s.loaded.join(',')}`),
  }));
const detected = (v: string) => `an Agents Python SDK RunState ("$schemaVersion" "${v}", "generated_items")`;

describe('Agents Python SDK RunState', () => {
  it('a run paused on an approval (the v0.19.4 writer): the call once, approvals and copies skipped', () => {
    const t = loadTranscriptFile(`${dir}v1_13_pending_tool_approval.json`);
    expect(t.format).toBe('openai-agents-state');
    expect(t.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(t.coverage).toMatchObject({
      detected_by: detected('1.13'),
      items: 6,
      read: 2,
      skipped: [
        { rule: 'approval requests (the SDK sends no item for them; the call is its tool_call_item)', count: 1 },
        { rule: 'model_responses (the same model output as the generated items)', count: 1 },
        { rule: 'session_items (the same items as the session persists them)', count: 2 },
      ],
      unexplained: [],
    });
    expect(calls(t)).toEqual([
      { calls: ['historical-approval-1:historical_approval:not-loaded'], provider: [], server: [] },
    ]);
  });

  it('a server tool search that loaded nothing, then the call: a server search and a call not loaded', () => {
    const t = loadTranscriptFile(`${dir}v1_5_tool_search_and_display_metadata.json`);
    expect(t.coverage).toMatchObject({ detected_by: detected('1.5'), items: 4, read: 4, skipped: [] });
    expect(calls(t)).toEqual([
      { calls: ['call-display:lookup:not-loaded'], provider: [], server: ['account balance:'] },
    ]);
  });

  it('a custom tool call and its output: a call of the catalog, answered; the next call pending', () => {
    const t = loadTranscriptFile(`${dir}v1_9_custom_tool_call_and_tool_origin.json`);
    expect(t.coverage).toMatchObject({ detected_by: detected('1.9'), read: 3, skipped: [], unexplained: [] });
    expect(calls(t)).toEqual([
      { calls: ['custom-call-1:custom_lookup:not-loaded'], provider: [], server: [] },
      { calls: [], provider: [], server: [] },
    ]);
  });

  it('programmatic tool calling: the program is a provider call, the function it called a call', () => {
    const t = loadTranscriptFile(`${dir}v1_13_programmatic_tool_calling.json`);
    expect(t.coverage).toMatchObject({ read: 4, provider_calls: 1, unexplained: [] });
    expect(calls(t)).toEqual([
      { calls: ['function-call:lookup:not-loaded'], provider: ['program-call:program:provider:lookup()'], server: [] },
    ]);
  });

  it('an item the input already holds (nested history ownership) is read once', () => {
    const t = loadTranscriptFile(`${dir}v1_13_nested_history_ownership.json`);
    expect(t.messages).toHaveLength(1);
    expect(t.coverage).toMatchObject({
      read: 1,
      skipped: [
        { rule: 'generated items the original input already holds (nested history ownership)', count: 1 },
        { rule: 'session_items (the same items as the session persists them)', count: 1 },
      ],
    });
  });

  it('pending input is read last; an unknown item is an error; without "original_input" no RunState', () => {
    const state = JSON.parse(readFileSync(`${dir}v1_9_custom_tool_call_and_tool_origin.json`, 'utf8')) as Record<
      string,
      unknown
    >;
    const withPending = { ...state, pending_input: [{ role: 'user', content: 'and the other one?' }] };
    const t = loadRecordingText(withPending, { name: 's.json' });
    expect(t.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'user']);
    const bad = { ...state, generated_items: [{ type: 'surprise_item', raw_item: {}, agent: { name: 'a' } }] };
    expect(() => loadRecordingText(bad, { name: 's.json' })).toThrow(
      'unknown RunState item (expected {type: "<kind>_item", raw_item: {...}, agent}; found type "surprise_item")',
    );
    expect(() => loadRecordingText(state, { name: 's.json', format: 'openai-agents-state' })).not.toThrow();
    const { original_input: _, ...noInput } = state;
    expect(() => loadRecordingText(noInput, { name: 's.json', format: 'openai-agents-state' })).toThrow(
      /^not an openai-agents-state recording: expected RunState JSON/,
    );
  });

  it("a file with a run state's keys that is not one: the error names openai-agents-state and what it expects", () => {
    const expects =
      'which expects RunState JSON: "$schemaVersion" (a string) with "generatedItems" (a list; JS state.toString()) ' +
      'or "generated_items" (a list) and "original_input" (Python state.to_json())';
    for (const [doc, found] of [
      [{ generated_items: [], original_input: 'hi', current_turn: 0 }, '"generated_items", "original_input"'],
      [{ $schemaVersion: '1.5', generated_items: [] }, '"$schemaVersion", "generated_items"'],
      [{ $schemaVersion: '1.5', originalInput: 'hi' }, '"$schemaVersion", "originalInput"'],
    ] as const)
      expect(() => loadRecordingText(doc, { name: 's.json' })).toThrow(
        `; closest: openai-agents-state (an object with ${found}), ${expects};`,
      );
  });
});
