/**
 * Cline / Roo Code api_conversation_history.json (issue 28): XML tool use in
 * assistant text parsed as Cline 3.10.10's parseAssistantMessage does, and
 * "[tool …] Result:" blocks as the results, in order.
 */
import { describe, expect, it } from 'vitest';
import { loadCatalogFiles } from '../../../src/formats/catalog.js';
import { loadRecordingText } from '../../../src/formats/from-text.js';
import { parseClineText } from '../../../src/formats/recordings/cline.js';
import { loadTranscriptFile } from '../../../src/formats/transcript.js';
import { simulate } from '../../../src/jobs/simulate/engine.js';
import { RECORDINGS } from './helpers.js';

const dir = `${RECORDINGS}cline/`;
const params = (p: ReturnType<typeof parseClineText>) =>
  p.map((x) => (x.type === 'text' ? x : { ...x, params: Object.fromEntries(x.params) }));

describe('Cline histories', () => {
  it("parses tool use as Cline's parser does", () => {
    expect(
      params(parseClineText('<thinking>\nfirst\n</thinking>\n\n<read_file>\n<path> a.ts </path>\n</read_file>')),
    ).toEqual([
      { type: 'text', text: '<thinking>\nfirst\n</thinking>' },
      { type: 'tool', name: 'read_file', params: { path: 'a.ts' } },
    ]);
    // write_to_file's content runs to the LAST </content>; an unknown tag is text; a tool left open is a call.
    expect(
      params(
        parseClineText('<write_to_file><path>x</path><content>a</content>b</content></write_to_file> <nope>z</nope>'),
      ),
    ).toEqual([
      // A tool at the very start closes an empty text block, as in Cline.
      { type: 'text', text: '' },
      { type: 'tool', name: 'write_to_file', params: { path: 'x', content: 'a</content>b' } },
      { type: 'text', text: '<nope>z</nope>' },
    ]);
    expect(params(parseClineText('Now:\n<execute_command>\n<command>ls -la'))).toEqual([
      { type: 'text', text: 'Now:' },
      { type: 'tool', name: 'execute_command', params: { command: 'ls -la' } },
    ]);
  });

  it('the fixture replays call by call, each result paired with its call', () => {
    const t = loadTranscriptFile(`${dir}api_conversation_history.json`);
    expect(t.format).toBe('cline');
    expect(t.coverage).toMatchObject({
      detected_by: 'Cline / Roo Code messages (3 "[tool] Result:" blocks, 4 XML tool uses, a <task> opening)',
      items: 8,
      read: 8,
      unexplained: [],
      unpaired: [],
    });
    const r = simulate({
      transcript: t,
      catalog: loadCatalogFiles([`${dir}cline-tools.json`]),
      mode: 'default',
      replay: false,
    });
    expect(r.turns.map((u) => u.tool_calls.map((c) => [c.id, c.name, c.status]))).toEqual([
      [['read_file#1', 'read_file', 'ok']],
      [['replace_in_file#1', 'replace_in_file', 'ok']],
      [['use_mcp_tool#1', 'use_mcp_tool', 'not-loaded']],
      [['attempt_completion#1', 'attempt_completion', 'ok']],
    ]);
    const result = t.messages[6]!;
    expect(result.kind === 'blocks' && result.blocks[0]).toEqual({
      type: 'function_tool_result',
      callId: 'use_mcp_tool#1',
      name: 'use_mcp_tool',
      content: [{ type: 'text', text: '{"ok":true,"channel":"C05ENG4242","ts":"1748931164.000200"}' }],
    });
    const call = t.messages[5]!;
    expect(call.kind === 'blocks' && call.blocks[1]).toMatchObject({
      name: 'use_mcp_tool',
      arguments: JSON.stringify({
        server_name: 'slack',
        tool_name: 'send_message',
        arguments:
          '{\n  "channel": "C05ENG4242",\n' +
          '  "text": "CHANGELOG: 2.4.1 - the Slack notifier now retries on HTTP 429."\n}',
      }),
    });
  });

  it('Roo Code messages: ts and friends are metadata, reasoning items are skipped, native tool_use reads', () => {
    const t = loadRecordingText([
      { role: 'user', content: [{ type: 'text', text: '<task>\nhi\n</task>' }], ts: 1 },
      { type: 'reasoning', summary: [], encrypted_content: 'x', id: 'rs_1', ts: 2 },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a' } }],
        ts: 3,
        id: 'msg_1',
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'text' }], ts: 4 },
      { role: 'assistant', content: 'done', ts: 5, condenseParent: 'c1' },
    ]);
    expect(t.format).toBe('cline');
    expect(t.coverage?.skipped).toEqual([
      { rule: 'stored reasoning items (type "reasoning": the model\'s reasoning, not a message)', count: 1 },
    ]);
    expect(t.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });

  it('a tool Cline did not run (one per message) has no result (a warning); a header with no call is an error', () => {
    const history = [
      { role: 'user', content: [{ type: 'text', text: '<task>\nx\n</task>' }] },
      {
        role: 'assistant',
        content: [{ type: 'text', text: '<read_file><path>a</path></read_file><read_file><path>b</path></read_file>' }],
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: "[read_file for 'a'] Result:" },
          { type: 'text', text: 'A' },
          {
            type: 'text',
            text:
              'Tool [read_file] was not executed because a tool has already been used in this message. ' +
              "Only one tool may be used per message. You must assess the first tool's result before " +
              'proceeding to use the next tool.',
          },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
    ];
    // Replayed as the reference replays it (issue 28): the unanswered call is a warning of the simulation.
    const t = loadRecordingText(history);
    expect(t.coverage?.unpaired).toEqual([]);
    const r = simulate({
      transcript: t,
      catalog: loadCatalogFiles([`${dir}cline-tools.json`]),
      mode: 'default',
      replay: false,
    });
    expect(r.violations.filter((v) => v.kind === 'unanswered-call').map((v) => v.message)).toEqual([
      expect.stringMatching(/^tool call "read_file" \(id "read_file#2"\) has no result, and the conversation goes on/),
    ]);
    expect(() =>
      loadRecordingText([
        {
          role: 'user',
          content: [
            { type: 'text', text: "[list_files for '.'] Result:" },
            { type: 'text', text: 'x' },
          ],
        },
      ]),
    ).toThrow(/tool result for unknown call id "list_files#\?"/);
  });
});
