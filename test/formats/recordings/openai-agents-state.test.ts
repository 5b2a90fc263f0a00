/**
 * OpenAI Agents JS SDK RunState (issue 28): the fixture is
 * `result.state.toString()` of a real `@openai/agents` run against a local
 * Responses server (test/tools/recordings/gen-agents-state.mjs).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadRecordingText } from '../../../src/formats/from-text.js';
import { loadTranscriptFile } from '../../../src/formats/transcript.js';
import { comparable, RECORDINGS, replay, TRANSCRIPTS } from './helpers.js';

const file = `${RECORDINGS}openai-agents/keyword-search-then-call.runstate.json`;

describe('Agents SDK RunState', () => {
  it('replays as the Eino original without its system prompt (a RunState names the agent only)', () => {
    const t = loadTranscriptFile(file);
    expect(t.format).toBe('openai-agents-state');
    expect(t.coverage).toMatchObject({
      detected_by: 'an Agents JS SDK RunState ("$schemaVersion" "1.22", "generatedItems")',
      read: 8,
      skipped: [{ rule: 'modelResponses (the same model output as the generated items)', count: 4 }],
      unexplained: [],
      unpaired: [],
    });
    const original = JSON.parse(readFileSync(`${TRANSCRIPTS}keyword-search-then-call.json`, 'utf8')) as unknown[];
    const withoutSystem = loadRecordingText(original.slice(1), { name: 'eino.json' });
    for (const mode of ['default', 'native'] as const)
      expect(comparable(replay(t, mode)), mode).toEqual(comparable(replay(withoutSystem, mode)));
  });

  it('an item it does not know is an error; a bare history is not a RunState', () => {
    const state = JSON.parse(readFileSync(file, 'utf8')) as { generatedItems: unknown[] };
    state.generatedItems.push({ type: 'surprise_item', rawItem: {} });
    expect(() => loadRecordingText(state, { name: 's.json' })).toThrow(/^unknown RunState item/);
    const history = loadRecordingText([{ type: 'function_call', callId: 'c', name: 'x', arguments: '{}' }]);
    expect(history.format).toBe('openai-agents');
  });
});
