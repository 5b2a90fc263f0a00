/**
 * LangChain JS messages as @langchain/core writes them (issue 28): a ToolMessage a tool() returns
 * has `status` and `metadata`, AI messages `response_metadata`, `usage_metadata`,
 * `invalid_tool_calls`; a v1 model's messages their standard blocks (and the library's own
 * properties). The fixtures are written by the library (test/tools/recordings/gen-langchain-js.mjs,
 * Node >= 20), and a fresh run writes them again byte for byte.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRecordingText } from '../../../src/formats/from-text.js';
import { loadTranscriptFile } from '../../../src/formats/transcript.js';
import { comparable, eino, RECORDINGS, replay, ROOT } from './helpers.js';

const dir = `${RECORDINGS}langchain-js/`;
const FIXTURES: ReadonlyArray<readonly [string, string]> = [
  ['keyword-search-then-call.messages.json', 'keyword-search-then-call'],
  ['keyword-search-then-call.stored.json', 'keyword-search-then-call'],
  ['deferred-tool-called-too-early.v1.messages.json', 'deferred-tool-called-too-early'],
];

describe('LangChain JS messages', () => {
  it.each(FIXTURES)('%s replays as its Eino original, in both modes, every key known', (file, scenario) => {
    const t = loadTranscriptFile(`${dir}${file}`);
    expect(t.format).toBe('langchain');
    expect(t.coverage?.unexplained).toEqual([]);
    for (const mode of ['default', 'native'] as const)
      expect(comparable(replay(t, mode)), mode).toEqual(comparable(eino(scenario, mode)));
  });

  it('v1 blocks: the text of content_blocks when there is no content; server tool calls skipped and counted', () => {
    const t = loadRecordingText([
      { type: 'human', data: { content: 'hi' } },
      {
        type: 'ai',
        data: {
          content_blocks: [
            { type: 'reasoning', reasoning: 'hm' },
            { type: 'server_tool_call', id: 's1', name: 'web_search', args: { query: 'q' } },
            { type: 'server_tool_call_result', tool_call_id: 's1', status: 'success' },
            { type: 'text', text: 'Found it.' },
          ],
          tool_calls: [],
          response_metadata: { output_version: 'v1' },
        },
      },
    ]);
    expect(t.messages[1]).toEqual({ kind: 'chat', role: 'assistant', content: 'Found it.' });
    expect(t.coverage?.skipped).toEqual([
      { rule: "server_tool_call content blocks (calls of the provider's own tools)", count: 2 },
    ]);
  });

  it('a key @langchain/core never writes is still not understood', () => {
    expect(() =>
      loadRecordingText([{ type: 'tool', data: { content: 'x', tool_call_id: 'c', metadata: {}, secret: 1 } }]),
    ).toThrow(/unknown key "secret" in a LangChain message/);
  });

  it('the generator writes the fixtures again, byte for byte', () => {
    const out = mkdtempSync(join(tmpdir(), 'toolsearch-langchain-'));
    try {
      execFileSync(process.execPath, [join(ROOT, 'test/tools/recordings/gen-langchain-js.mjs'), out], {
        stdio: 'pipe',
      });
      const committed = readdirSync(dir).sort();
      expect(readdirSync(out).sort()).toEqual(committed);
      for (const f of committed) expect(readFileSync(join(out, f), 'utf8'), f).toBe(readFileSync(`${dir}${f}`, 'utf8'));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 60_000);
});
