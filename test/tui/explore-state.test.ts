import { describe, expect, test } from 'vitest';
import { NO_KEY, type KeyInfo } from '../../src/tui/keys.js';
import { exploreEventReducer } from '../../src/tui/explore/keys.js';
import {
  exploreReducer,
  initialExploreState,
  MAX_RESULTS_LIMIT,
  type ExploreAction,
  type ExploreState,
} from '../../src/tui/explore/state.js';

const run = (actions: ExploreAction[], s: ExploreState = initialExploreState()): ExploreState =>
  actions.reduce(exploreReducer, s);
const typed = (s: ExploreState, ...inputs: Array<string | Partial<KeyInfo>>): ExploreState =>
  inputs.reduce<ExploreState>(
    (st, i) =>
      exploreEventReducer(
        st,
        typeof i === 'string'
          ? { type: 'key', input: i, key: NO_KEY, resultCount: 5 }
          : { type: 'key', input: '', key: { ...NO_KEY, ...i }, resultCount: 5 },
      ),
    s,
  );

describe('explore reducer', () => {
  test('editing the query at the cursor, by code point', () => {
    const s = run([
      { type: 'insert', text: 'slack' },
      { type: 'cursor', to: 'home' },
      { type: 'insert', text: '+' },
    ]);
    expect([s.query, s.cursor]).toEqual(['+slack', 1]);
    const t = run([{ type: 'insert', text: 'a😀b' }, { type: 'cursor', to: 'left' }, { type: 'backspace' }]);
    expect([t.query, t.cursor]).toEqual(['ab', 1]);
    expect(run([{ type: 'insert', text: 'create github issue' }, { type: 'deleteWord' }]).query).toBe('create github ');
    expect(run([{ type: 'insert', text: 'x' }, { type: 'clearQuery' }])).toMatchObject({ query: '', cursor: 0 });
  });
  test('a new query puts the selection back on the first result', () => {
    const s = run([
      { type: 'insert', text: 'slack' },
      { type: 'move', delta: 2, count: 5 },
    ]);
    expect(s.selected).toBe(2);
    expect(run([{ type: 'insert', text: 'x' }], s).selected).toBe(0);
  });
  test('the selection stays within the results', () => {
    expect(run([{ type: 'move', delta: 9, count: 3 }]).selected).toBe(2);
    expect(run([{ type: 'move', delta: -9, count: 3 }]).selected).toBe(0);
    expect(run([{ type: 'move', delta: 1, count: 0 }]).selected).toBe(0);
  });
  test('max_results stays between 1 and the limit', () => {
    expect(run([{ type: 'maxResults', delta: 1 }]).maxResults).toBe(6);
    expect(run(Array(10).fill({ type: 'maxResults', delta: -1 })).maxResults).toBe(1);
    expect(run([{ type: 'maxResults', delta: 1000 }]).maxResults).toBe(MAX_RESULTS_LIMIT);
  });
  test('fuse: the first toggle loads, later toggles are instant', () => {
    const loading = run([{ type: 'toggleFuse' }]);
    expect(loading.fuse).toBe('loading');
    const on = run([{ type: 'fuseReady' }], loading);
    expect(on.fuse).toBe('on');
    expect(run([{ type: 'toggleFuse' }, { type: 'toggleFuse' }], on).fuse).toBe('on');
    expect(run([{ type: 'toggleFuse' }], on).fuse).toBe('off');
    expect(run([{ type: 'fuseFailed', message: 'no fuse' }], loading).fuse).toEqual({ failed: 'no fuse' });
  });
  test('copy is a request the container fulfils', () => {
    expect(run([{ type: 'copy' }, { type: 'copy' }]).copyRequest).toBe(2);
  });
});

describe('explore keys', () => {
  const s0 = initialExploreState();
  test('in the query every printable key is text, + - f q included', () => {
    const s = typed(s0, '+', 's', 'f', '-', 'q', ' ', 'y');
    expect([s.query, s.quit, s.fuse, s.maxResults]).toEqual(['+sf-q y', false, 'off', 5]);
  });
  test('Tab moves into the results, where the keys act', () => {
    const s = typed(s0, 's', { tab: true }, 'j', 'f', '+', '+', '-');
    expect([s.focus, s.selected, s.fuse, s.maxResults, s.query]).toEqual(['results', 1, 'loading', 6, 's']);
    expect(typed(s, { tab: true }).focus).toBe('query');
    expect(typed(s, { escape: true })).toMatchObject({ focus: 'query', quit: false });
    expect(typed(s, 'q').quit).toBe(true);
  });
  test('↑ on the first result goes back to the query', () => {
    expect(typed(s0, 's', { downArrow: true }, { upArrow: true }).focus).toBe('query');
  });
  test('Ctrl-F and Ctrl-Y work from the query; Esc and Ctrl-C quit from the query', () => {
    expect(typed(s0, 'f' /* text */).query).toBe('f');
    const ctrl = (input: string): Partial<KeyInfo> & { input?: string } => ({ ctrl: true, input });
    const s = [ctrl('f'), ctrl('y')].reduce(
      (st, k) =>
        exploreEventReducer(st, { type: 'key', input: k.input!, key: { ...NO_KEY, ctrl: true }, resultCount: 0 }),
      s0,
    );
    expect([s.fuse, s.copyRequest]).toEqual(['loading', 1]);
    expect(typed(s0, { escape: true }).quit).toBe(true);
    expect(
      exploreEventReducer(s0, { type: 'key', input: 'c', key: { ...NO_KEY, ctrl: true }, resultCount: 0 }).quit,
    ).toBe(true);
  });
  test('pasted text: line breaks become spaces, an escape sequence inside it is a key (never text)', () => {
    // `ESC [2J` is no key the screen binds: nothing is typed for it.
    expect(typed(s0, 'slack\nmessage\u001b[2J').query).toBe('slack message');
    // Alone, Ink hands it over without its ESC: what is left is plain text.
    expect(typed(s0, '[2J').query).toBe('[2J');
  });
});

describe('keys that arrive together', () => {
  test('Tab inside a batch is a key; a pasted line break is text', () => {
    const s = typed(initialExploreState(), 'slack\tj');
    expect([s.query, s.focus, s.selected]).toEqual(['slack', 'results', 1]);
    expect(typed(initialExploreState(), 'slack\nmessage').query).toBe('slack message');
    expect(typed(initialExploreState(), 'abc\u007f').query).toBe('ab');
  });
  test('Ctrl-letters and escape sequences inside a batch stay keys, in order', () => {
    // Type, Ctrl-U (clear), type again, ← ← (cursor), Ctrl-W (delete the word before the cursor).
    const s = typed(initialExploreState(), 'slack\u0015github issue\u001b[D\u001b[D\u0017');
    expect([s.query, s.cursor]).toEqual(['github ue', 7]);
    const t = typed(initialExploreState(), 'slack\u0006\u0019\u001b[B');
    expect([t.query, t.fuse, t.copyRequest, t.focus]).toEqual(['slack', 'loading', 1, 'results']);
  });
});
