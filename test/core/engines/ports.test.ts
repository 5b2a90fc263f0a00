/**
 * The engine ports on every Node (the differential tests, which drive the real packages, need Node >= 22):
 * hand cases for each rule, the results the real packages wrote into the committed recordings, a naive BM25
 * for Mastra's scores, and the state machines of what becomes visible when.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { aiSdkTokenize, createAiSdkEngine } from '../../../src/core/engines/ai-sdk.js';
import { createEinoEngine } from '../../../src/core/engines/eino.js';
import { createMastraEngine, mastraShortDescription, mastraTokenize } from '../../../src/core/engines/mastra.js';
import { objectKeyOrder } from '../../../src/core/engines/types.js';
import { AiSdkDiscovery, MastraLoadedStore, mastraFormattedKey } from '../../../src/core/engines/visibility.js';
import { loadCatalogFiles } from '../../../src/formats/catalog.js';
import { ROOT } from './corpus.js';

const DEMO = loadCatalogFiles([`${ROOT}fixtures/catalogs/demo.yaml`])
  .tools.filter((t) => !t.static)
  .map((t) => ({ name: t.name, description: t.description }));

/** What the real packages returned, as the recordings keep it (fixtures/engines/make-recordings.mjs). */
function recordedOutput(file: string, callId: string): unknown {
  const messages = JSON.parse(readFileSync(`${ROOT}fixtures/engines/recordings/${file}`, 'utf8')) as Array<{
    role: string;
    content: Array<{ type: string; toolCallId?: string; output?: { value: unknown } }>;
  }>;
  for (const m of messages)
    if (m.role === 'tool') for (const p of m.content) if (p.toolCallId === callId) return p.output!.value;
  throw new Error(`no result for ${callId}`);
}

describe("object key order (the AI SDK's and Mastra's catalog order)", () => {
  it('puts array-index names first, in numeric order, then the rest as given', () => {
    expect(objectKeyOrder(['b', '12', 'a', '3', '01', '4294967295', '4294967294', '-1', '0'])).toEqual([
      '0',
      '3',
      '12',
      '4294967294',
      'b',
      'a',
      '01',
      '4294967295',
      '-1',
    ]);
    fc.assert(
      fc.property(fc.uniqueArray(fc.oneof(fc.string(), fc.nat().map(String)), { maxLength: 20 }), (names) => {
        expect(objectKeyOrder(names)).toEqual(Object.keys(Object.fromEntries(names.map((n) => [n, 1]))));
      }),
    );
  });
});

describe('the AI SDK 7 port', () => {
  it('tokenizes as the package: camelCase split only after a lower-case letter or a digit, letters and digits', () => {
    expect(aiSdkTokenize('mcp__github__createIssue')).toEqual(['mcp', 'github', 'create', 'issue']);
    expect(aiSdkTokenize('getURL v2Beta')).toEqual(['get', 'url', 'v2', 'beta']);
    // Eino splits HTML|Parser; the AI SDK sees one word.
    expect(aiSdkTokenize('HTMLParser')).toEqual(['htmlparser']);
    expect(aiSdkTokenize('notion-create-pages')).toEqual(['notion', 'create', 'pages']);
    // JavaScript's toLowerCase: İ becomes i + U+0307, a mark, which splits the word.
    expect(aiSdkTokenize('İstanbul')).toEqual(['i', 'stanbul']);
    expect(aiSdkTokenize('café ²')).toEqual(['café', '²']);
  });

  it('scores 2 per unique query term among the name tokens and 1 among the description tokens', () => {
    const e = createAiSdkEngine([
      { name: 'b_send', description: 'send message' },
      { name: '12', description: 'send' },
      { name: 'sendMessage', description: 'Send a message' },
    ]);
    // A repeated term counts once; ties keep the tools object's order ("12" first).
    expect(e.rankAll('send send message')).toEqual([
      { name: 'sendMessage', score: 6 },
      { name: 'b_send', score: 4 },
      { name: '12', score: 1 },
    ]);
    expect(e.rankAll('send')).toEqual([
      { name: 'b_send', score: 3 },
      { name: 'sendMessage', score: 3 },
      { name: '12', score: 1 },
    ]);
    expect(e.explain('send message x', 'b_send')).toEqual([
      { term: 'send', rule: 'name+description', points: 3 },
      { term: 'message', rule: 'description', points: 1 },
      { term: 'x', rule: 'none', points: 0 },
    ]);
    // An empty query is no error (the SDK validates nothing against the schema): it finds nothing.
    expect(e.search('')).toMatchObject({ ok: true, matches: [], result: { tools: [] } });
    expect(() => createAiSdkEngine([], { maxResults: 0 })).toThrow('maxResults must be a positive safe integer.');
  });

  it('returns what ai@7 returned in the committed recording', () => {
    const e = createAiSdkEngine(DEMO);
    const out = e.search('slack send message');
    expect(out.ok && out.result).toEqual(recordedOutput('ai-sdk7-two-generations.json', 'call_1'));
  });

  it('a discovered tool is sent from the next step; a new generation forgets it', () => {
    const d = new AiSdkDiscovery(['ask', 'search', 'z', '5'], new Set(['z', '5']));
    expect(d.visible()).toEqual(['ask', 'search']);
    expect(d.found(['z', 'nope', 'ask'])).toEqual(['z']);
    expect(d.visible()).toEqual(['ask', 'search', 'z']);
    expect(d.found(['5'])).toEqual(['5']);
    expect(d.visible()).toEqual(['5', 'ask', 'search', 'z']);
    expect(d.newGeneration()).toEqual(['z', '5']);
    expect(d.visible()).toEqual(['ask', 'search']);
  });
});

describe('the Mastra port', () => {
  it('tokenizes as the package: lower case, split on white space and - _ . , ; : ! ? ( ) [ ] { } \' " only', () => {
    expect(mastraTokenize('mcp__slack__send_message')).toEqual(['mcp', 'slack', 'send', 'message']);
    // No camelCase split, and "/" or "+" do not split.
    expect(mastraTokenize('sendMessage a/b +slack x')).toEqual(['sendmessage', 'a/b', '+slack']);
    expect(mastraTokenize('a-b')).toEqual([]);
  });

  it('scores with BM25 over "name description" plus the name boost, as a naive model does', () => {
    const tools = [
      { name: 'send_message', description: 'Send a message to a channel' },
      { name: 'list_channels', description: 'List channels' },
      { name: 'message', description: 'a message' },
    ];
    const naive = (query: string): Array<{ name: string; score: number }> => {
      const docs = tools.map((t) => mastraTokenize(`${t.name} ${t.description}`));
      const avg = docs.reduce((a, d) => a + d.length, 0) / docs.length;
      const q = mastraTokenize(query);
      return tools
        .map((t, i) => {
          let score = 0;
          for (const term of q) {
            const tf = docs[i]!.filter((x) => x === term).length;
            if (tf === 0) continue;
            const df = docs.filter((d) => d.includes(term)).length;
            const idf = Math.log((docs.length - df + 0.5) / (df + 0.5) + 1);
            score += idf * ((tf * 2.5) / (tf + 1.5 * (0.25 + 0.75 * (docs[i]!.length / avg))));
          }
          const matched = score > 0;
          for (const term of q) score += t.name === term ? 5 : t.name.includes(term) ? 2 : 0;
          return { name: t.name, score: matched ? score : 0 };
        })
        .filter((x) => x.score > 0)
        .sort((a, b) => b.score - a.score);
    };
    const e = createMastraEngine(tools);
    for (const q of ['message', 'send message', 'channels list', 'message message']) {
      const got = e.rankAll(q);
      const want = naive(q);
      expect(got.map((x) => x.name)).toEqual(want.map((x) => x.name));
      got.forEach((x, i) => expect(x.score).toBeCloseTo(want[i]!.score, 12));
    }
  });

  it('returns what @mastra/core returned in the committed recording (rounded scores, the message)', () => {
    expect(createMastraEngine(DEMO).searchOutput('slack send message')).toEqual(
      recordedOutput('mastra-ttl.json', 'call_1'),
    );
  });

  it('keeps topK, drops scores at or below minScore, cuts long descriptions at 147 units plus "..."', () => {
    const e = createMastraEngine(DEMO, { topK: 2, minScore: 9 });
    expect(e.search('create issue')).toMatchObject({
      matches: ['mcp__github__create_issue', 'mcp__linear__create_issue'],
      scores: [10.06, 9.69],
    });
    expect(createMastraEngine(DEMO, { minScore: 100 }).searchOutput('create issue')).toEqual({
      results: [],
      message: 'No tools found matching "create issue". Try different keywords.',
    });
    expect(mastraShortDescription('x'.repeat(150))).toBe('x'.repeat(150));
    expect(mastraShortDescription('x'.repeat(151))).toBe(`${'x'.repeat(147)}...`);
  });

  it('answers load_tool as the package does: one name, a list, duplicates, unknown names, near misses', () => {
    const e = createMastraEngine(DEMO);
    const none = new Set<string>();
    expect(e.loadTool({ toolName: 'mcp__github__create_issue' }, none)).toEqual({
      output: {
        success: true,
        message: 'Tool "mcp__github__create_issue" loaded successfully. It will be available on your next turn.',
        toolName: 'mcp__github__create_issue',
      },
      loaded: ['mcp__github__create_issue'],
    });
    expect(e.loadTool({ toolName: 'create_issue' }, none).output).toEqual({
      success: false,
      message: 'Tool "create_issue" not found. Did you mean: mcp__github__create_issue, mcp__linear__create_issue?',
      toolName: 'create_issue',
    });
    expect(
      e.loadTool({ toolNames: ['mcp__git__git_log', 'mcp__git__git_log', 'nope'] }, new Set(['x'])).output,
    ).toEqual({
      success: false,
      message: 'Loaded: mcp__git__git_log — available on your next turn | Not found: nope',
      loadedCount: 1,
      loaded: ['mcp__git__git_log'],
      notFound: ['nope'],
    });
    expect(e.loadTool({ toolNames: [] }, none).output).toEqual({
      success: false,
      message: 'toolNames array must not be empty.',
    });
    expect(e.loadTool({}, none).output.message).toBe(
      'You must provide either toolName (string) or toolNames (array) to load.',
    );
  });

  it("shows the meta-tools, the agent's tools (renamed) and the loaded tools; drops them after the TTL", () => {
    expect(mastraFormattedKey('ok_name-1')).toBeNull();
    expect(mastraFormattedKey('a.b')).toBe('a_b');
    expect(mastraFormattedKey('3')).toBe('_3');
    expect(mastraFormattedKey('x'.repeat(70))).toBe('x'.repeat(63));
    const store = new MastraLoadedStore(['x.y', 'ask'], { ttl: 1000 });
    expect(store.visible()).toEqual(['search_tools', 'load_tool', 'ask', 'x_y']);
    store.beforeStep(0);
    store.add(['t.1', 'ok'], 0);
    expect(store.visible()).toEqual(['search_tools', 'load_tool', 'ask', 'x_y', 't.1', 'ok']);
    store.newGenerate();
    // The next generate resolves the loaded tools with the agent's: a renamed copy beside the original.
    expect(store.visible()).toEqual(['search_tools', 'load_tool', 'ask', 'ok', 'x_y', 't_1', 't.1']);
    expect(store.beforeStep(1000)).toEqual({ kind: 'kept' });
    expect(store.beforeStep(2001)).toEqual({ kind: 'maybe', tools: ['t.1', 'ok'], gapMs: 1001 });
    expect(store.beforeStep(2001 + 61_001)).toEqual({ kind: 'expired', dropped: ['t.1', 'ok'], gapMs: 61_001 });
    expect(new MastraLoadedStore([], { autoLoad: true }).visible()).toEqual(['search_tools']);
  });
});

describe('the reference behind the interface', () => {
  it("is the core's own search, unchanged", () => {
    const e = createEinoEngine(DEMO);
    expect(e.search('create issue')).toMatchObject({
      matches: [
        'mcp__atlassian__createJiraIssue',
        'mcp__github__create_issue',
        'mcp__linear__create_issue',
        'mcp__linear__create_comment',
        'mcp__atlassian__addCommentToJiraIssue',
      ],
      scores: [20, 20, 20, 12, 10],
      total: 36,
    });
    expect(e.search('select:mcp__git__git_log,nope')).toMatchObject({ matches: ['mcp__git__git_log'] });
    expect(e.search('  ')).toEqual({ ok: false, error: 'query is required' });
  });
});
