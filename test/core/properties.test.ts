/**
 * Property tests: the indexed scorer against the naive line-by-line model of
 * SPEC §3, and the linear AgentRun against the pure per-call state machine.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  agentTools,
  beforeModelCall,
  createMiddleware,
  type ModelCallState,
  type RunLocal,
} from '../../src/core/middleware.js';
import { AgentRun } from '../../src/core/run.js';
import { ToolIndex } from '../../src/core/index/tool-index.js';
import { parseKeywords } from '../../src/core/scorer.js';
import { compareGo, goTrimSpace } from '../../src/core/text.js';
import { encodeMatches, runToolSearch } from '../../src/core/toolsearch.js';
import type { ChatMessage, Message, ToolInfo } from '../../src/core/types.js';
import { naiveKeywordSearch } from './naive-model.js';

// Characters chosen to collide often and to hit every Go/JS difference:
// case pairs, İ, final Σ, ſ, Kelvin, astral letters, U+FF01 vs astral ordering, BOM.
const nameChars = [
  'a',
  'b',
  'c',
  'A',
  'B',
  'C',
  '_',
  '1',
  'İ',
  'i',
  'Σ',
  'σ',
  'ß',
  'ſ',
  's',
  'S',
  '\u212a',
  'k',
  '\u{10400}',
  '\u{10428}',
  '\uff01',
  '\ufeff',
  'é',
  'É',
];
const spaceChars = [' ', '\t', '\u0085', '\u00a0', '\u3000', '\u2028'];
const nameArb = fc.array(fc.constantFrom(...nameChars), { minLength: 1, maxLength: 8 }).map((cs) => cs.join(''));
const descArb = fc.array(fc.constantFrom(...nameChars, ' ', ' '), { maxLength: 12 }).map((cs) => cs.join(''));
const catalogArb = fc.uniqueArray(fc.record({ name: nameArb, description: descArb }), {
  minLength: 1,
  maxLength: 25,
  selector: (t) => t.name,
});
const wordArb = fc.array(fc.constantFrom(...nameChars, '+'), { minLength: 1, maxLength: 4 }).map((cs) => cs.join(''));
const queryArb = fc
  .array(fc.tuple(wordArb, fc.constantFrom(...spaceChars)), { minLength: 0, maxLength: 4 })
  .map((parts) => parts.map(([w, s]) => w + s).join(''));
const unicodeQueryArb = fc.oneof(queryArb, fc.string({ unit: 'grapheme', maxLength: 12 }));
const maxArb = fc.integer({ min: 1, max: 30 });

describe('scorer properties', () => {
  it('the indexed scorer returns exactly what the naive model of SPEC §3 returns', () => {
    fc.assert(
      fc.property(catalogArb, unicodeQueryArb, maxArb, (tools, query, max) => {
        const index = new ToolIndex(tools);
        const got = index.search(parseKeywords(query), max).map((r) => [r.name, r.score]);
        expect(got).toEqual(naiveKeywordSearch(query, max, tools));
      }),
      { numRuns: 600 },
    );
  });

  it('keyword results are sorted by score then Go byte order, unique, within max_results', () => {
    fc.assert(
      fc.property(catalogArb, queryArb, maxArb, (tools, query, max) => {
        const results = new ToolIndex(tools).search(parseKeywords(query), max);
        expect(results.length).toBeLessThanOrEqual(max);
        expect(new Set(results.map((r) => r.name)).size).toBe(results.length);
        for (let i = 1; i < results.length; i++) {
          const a = results[i - 1]!;
          const b = results[i]!;
          expect(a.score > b.score || (a.score === b.score && compareGo(a.name, b.name) < 0)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('every result satisfies every required keyword, and its explanation sums to its score', () => {
    fc.assert(
      fc.property(catalogArb, queryArb, (tools, query) => {
        const keywords = parseKeywords(query);
        const results = new ToolIndex(tools).search(keywords, 50, { explain: true });
        for (const r of results) {
          const explain = r.explain!;
          expect(explain.map((k) => k.keyword)).toEqual(keywords.map((k) => k.word));
          expect(explain.reduce((s, k) => s + k.points, 0)).toBe(r.score);
          for (const k of explain) if (k.required) expect(k.points).toBeGreaterThan(0);
          for (const k of explain) expect(k.part === null).toBe(k.rule !== 'exact-part' && k.rule !== 'part-substring');
        }
      }),
      { numRuns: 300 },
    );
  });

  it('select: returns the existing requested names in order with duplicates', () => {
    fc.assert(
      fc.property(
        catalogArb,
        fc.array(fc.oneof(nameArb, fc.constantFrom('', ' ')), { maxLength: 6 }),
        (tools, picks) => {
          const index = new ToolIndex(tools);
          const known = new Set(tools.map((t) => t.name));
          const r = runToolSearch(index, JSON.stringify({ query: `select:${picks.join(',')}` }));
          expect(r.ok).toBe(true); // "select:" remains after trimming, so the query is never empty
          if (!r.ok) return;
          // Go's TrimSpace: U+FEFF (a generated name character) is not white space.
          const expected = picks.map(goTrimSpace).filter((p) => p !== '' && known.has(p));
          expect(r.matches).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });
});

// Random conversations: user turns, assistant turns with tool_search calls whose
// results are computed by the core (or garbled), system messages, and calls of tools.
const toolsArb = fc.uniqueArray(
  fc.constantFrom('alpha_send', 'beta_read', 'gammaList', 'delta_send_all', 'eps', '__proto__'),
  {
    minLength: 1,
    maxLength: 6,
  },
);
type Step =
  | { kind: 'user' }
  | { kind: 'system' }
  | { kind: 'search'; query: string; garble: boolean }
  | { kind: 'text' };
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.constant<Step>({ kind: 'user' }),
  fc.constant<Step>({ kind: 'system' }),
  fc.constant<Step>({ kind: 'text' }),
  fc.record({
    kind: fc.constant('search' as const),
    query: fc.constantFrom('send', 'read', 'select:eps,beta_read', 'list', '+all send', 'alpha'),
    garble: fc.boolean(),
  }),
);

function buildConversation(dynamic: ToolInfo[], steps: Step[]): Message[] {
  const index = new ToolIndex(dynamic);
  const messages: Message[] = [];
  steps.forEach((s, i) => {
    if (s.kind === 'user') messages.push({ kind: 'chat', role: 'user', content: `u${i}` });
    else if (s.kind === 'system') messages.push({ kind: 'chat', role: 'system', content: `s${i}` });
    else if (s.kind === 'text') messages.push({ kind: 'chat', role: 'assistant', content: `a${i}` });
    else {
      const args = JSON.stringify({ query: s.query });
      messages.push({
        kind: 'chat',
        role: 'assistant',
        content: '',
        toolCalls: [{ id: `c${i}`, name: 'tool_search', arguments: args }],
      });
      const r = runToolSearch(index, args);
      const text = r.ok ? encodeMatches(r.matches) : r.error;
      const result: ChatMessage = {
        kind: 'chat',
        role: 'tool',
        content: s.garble ? text.slice(1) : text,
        toolCallId: `c${i}`,
        toolName: 'tool_search',
      };
      messages.push(result);
    }
  });
  return messages;
}

describe('state machine properties', () => {
  it('AgentRun gives the same states as the pure step over the whole history at every call', () => {
    fc.assert(
      fc.property(
        toolsArb,
        fc.boolean(),
        fc.boolean(),
        fc.array(stepArb, { maxLength: 14 }),
        (toolNames, withStatic, nativeMode, steps) => {
          const dynamic = toolNames.map((name) => ({ name, description: `does ${name}` }));
          const staticTools: ToolInfo[] = withStatic ? [{ name: 'static_x', description: '' }] : [];
          const mw = createMiddleware({ dynamicTools: dynamic, mode: nativeMode ? 'native' : 'default' });
          const messages = buildConversation(dynamic, steps);
          const run = new AgentRun(mw, staticTools);
          // Reference-style driver: persisted state, refill of a nil list, full rescan each call.
          let state: ModelCallState = { messages: [], toolInfos: null, deferredToolInfos: null };
          let runLocal: RunLocal = { initialized: false };
          let from = 0;
          const cut = messages.map((m, i) => (m.role === 'assistant' ? i : -1)).filter((i) => i >= 0);
          cut.push(messages.length);
          for (const end of cut) {
            const newMessages = messages.slice(from, end);
            from = end;
            state = { ...state, messages: [...state.messages, ...newMessages] };
            if (state.toolInfos === null) state = { ...state, toolInfos: agentTools(mw, staticTools) };
            const r = beforeModelCall(mw, state, runLocal);
            state = r.state;
            runLocal = r.runLocal;
            const view = run.modelCall(newMessages);
            expect(view.visible.map((t) => t.name)).toEqual((state.toolInfos ?? []).map((t) => t.name));
            expect(view.deferred.map((t) => t.name)).toEqual((state.deferredToolInfos ?? []).map((t) => t.name));
            expect(run.messages.slice(0, view.messageCount)).toEqual(state.messages);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("in default mode the visible list only ever grows (each call's list is a prefix of the next)", () => {
    fc.assert(
      fc.property(toolsArb, fc.array(stepArb, { maxLength: 14 }), (toolNames, steps) => {
        const dynamic = toolNames.map((name) => ({ name, description: '' }));
        const mw = createMiddleware({ dynamicTools: dynamic });
        const messages = buildConversation(dynamic, steps);
        const run = new AgentRun(mw, []);
        let previous: string[] = [];
        let from = 0;
        for (let i = 0; i <= messages.length; i++) {
          if (i < messages.length && messages[i]!.role !== 'assistant') continue;
          const view = run.modelCall(messages.slice(from, i));
          from = i;
          const now = view.visible.map((t) => t.name);
          if (view.call > 1) expect(now.slice(0, previous.length)).toEqual(previous);
          expect(new Set(now).size).toBe(now.length);
          previous = now;
        }
      }),
      { numRuns: 200 },
    );
  });
});
